// Drawing cards with plain DOM and CSS: rank and suit in two corners and a large suit pip,
// red or black, readable at a glance at phone size.
import { el, format } from "./api.js";

export const SUIT_SYMBOL = { H: "♥", S: "♠", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);

export function parseCard(name) {
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

export function cardLabel(name) {
  const { rank, suit } = parseCard(name);
  return `${rank}${SUIT_SYMBOL[suit]}`;
}

// A card in words, as R28's description names it ("10 of hearts", "kőr dáma", "dama pik").
export function cardWords(name) {
  const { rank, suit } = parseCard(name);
  const ranks = { A: gettext("ace"), J: gettext("jack"), Q: gettext("queen"), K: gettext("king") };
  const suits = { H: gettext("hearts"), S: gettext("spades"), D: gettext("diamonds"), C: gettext("clubs") };
  return format(gettext("%(rank)s of %(suit)s"), { rank: ranks[rank] || rank, suit: suits[suit] });
}

// A pile of the API (`tableau:2`, `foundation:H`, `waste`...) in words, as web/strings.py's
// pile_name says it for the replay.
export function pileWords(pile) {
  const [kind, which] = pile.split(":");
  if (kind === "tableau") return format(gettext("column %(n)s"), { n: which });
  if (kind === "foundation") {
    return {
      H: gettext("hearts foundation"),
      S: gettext("spades foundation"),
      D: gettext("diamonds foundation"),
      C: gettext("clubs foundation"),
    }[which];
  }
  return { stock: gettext("stock"), waste: gettext("waste"), reserve: gettext("reserve") }[kind];
}

// A corner index: rank and suit as two boxes, side by side on a column's card (whose top strip
// shows when covered) and stacked on the waste fan's (whose left strip shows), so "10♦" stays
// whole on a covered card either way.
function corner(where, rank, symbol) {
  return el(
    "span",
    { class: `corner ${where}`, "aria-hidden": where === "br" ? "true" : null },
    el("span", { class: "rank", text: rank }),
    el("span", { class: "suit", text: symbol }),
  );
}

export function cardElement(name) {
  const { rank, suit } = parseCard(name);
  const symbol = SUIT_SYMBOL[suit];
  return el(
    "div",
    { class: `card face ${RED.has(suit) ? "red" : "black"}`, "data-card": name, role: "img", "aria-label": cardWords(name) },
    corner("tl", rank, symbol),
    el("span", { class: "pip", text: symbol, "aria-hidden": "true" }),
    corner("br", rank, symbol),
  );
}

export function cardBack() {
  return el("div", { class: "card back", "aria-hidden": "true" });
}

export function placeholder(text, extraClass = "") {
  return el("div", { class: `card slot ${extraClass}`.trim() }, text ? el("span", { text }) : null);
}
