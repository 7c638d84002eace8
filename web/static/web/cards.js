// Drawing cards with plain DOM and CSS: rank and suit in two corners and a large suit pip,
// red or black, readable at a glance at phone size.
import { el } from "./api.js";

export const SUIT_SYMBOL = { H: "♥", S: "♠", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);

export function parseCard(name) {
  return { rank: name.slice(0, -1), suit: name.slice(-1) };
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

// The rank a foundation (GAME's `foundations[]` item) needs next (R8: up in suit from the
// starting rank, K then A), null once it holds its 13 cards.
export function nextRank(foundation, startingRank) {
  if (foundation.count >= 13) return null;
  if (!foundation.top) return startingRank;
  return RANKS[(RANKS.indexOf(foundation.top.slice(0, -1)) + 1) % 13];
}

export function cardLabel(name) {
  const { rank, suit } = parseCard(name);
  return `${rank}${SUIT_SYMBOL[suit]}`;
}

// Cards and piles in words: the server's names (core/words.py, the JSON base.html embeds as
// #words), the same as its messages and R28's description use ("10 of hearts", "kőr dáma",
// "dama pik"): one table for server and page.
const WORDS = JSON.parse(document.getElementById("words")?.textContent || "{}");

export function cardWords(name) {
  return (WORDS.cards || {})[name] || cardLabel(name);
}

// A pile of the API (`tableau:2`, `foundation:H`, `waste`...) in words.
export function pileWords(pile) {
  return (WORDS.piles || {})[pile] || pile;
}

// Where a move went, as a phrase of its own ("to column 2", "az 1. oszlopra", "na bazę kier").
export function toPileWords(pile) {
  return (WORDS.to || {})[pile] || pile;
}

// "empty", agreeing with the pile (Polish: zapas pusty, rezerwa pusta, odrzuty puste).
export function emptyWords(pile) {
  return (WORDS.empty || {})[pile.split(":")[0]] || "";
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

// Court figures, drawn here (no image files): a bust in the suit's colour with a gold collar,
// and the rank's headwear: the king's crown and beard, the queen's tiara and hair, the jack's
// feathered cap; the suit sits on the chest.
const SVG = "http://www.w3.org/2000/svg";
const GOLD = "#d4a017";
const SKIN = "#f3d9b1";
const HEADWEAR = {
  K: [
    ["path", { d: "M18 29 L19 15 L24.5 23 L30 12 L35.5 23 L41 15 L42 29 Z", fill: GOLD, stroke: "currentColor" }],
    ["path", { d: "M22 42 Q30 56 38 42 Q36 50 30 51 Q24 50 22 42 Z", fill: "currentColor" }],
  ],
  Q: [
    ["path", { d: "M18 44 Q15 24 30 22 Q45 24 42 44 L38 44 Q40 30 30 29 Q20 30 22 44 Z", fill: "currentColor" }],
    ["path", { d: "M20 27 Q30 15 40 27 L37 24 L33 26 L30 20 L27 26 L23 24 Z", fill: GOLD, stroke: "currentColor" }],
  ],
  J: [
    ["path", { d: "M17 31 Q19 17 30 17 Q41 17 43 31 Z", fill: "currentColor" }],
    ["path", { d: "M40 22 Q50 12 52 4 Q46 14 38 20 Z", fill: GOLD, stroke: "currentColor" }],
  ],
};

function svgNode(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function courtFigure(rank, symbol) {
  const figure = svgNode("svg", { class: "court", viewBox: "0 0 60 84", "aria-hidden": "true" });
  const parts = [
    ["rect", { x: 3, y: 3, width: 54, height: 78, rx: 4, fill: "none", stroke: "currentColor", "stroke-width": 1.2 }],
    ["path", { d: "M8 81 Q8 55 30 52 Q52 55 52 81 Z", fill: "currentColor" }],
    ["path", { d: "M20 53 L30 64 L40 53", fill: "none", stroke: GOLD, "stroke-width": 3 }],
    ["circle", { cx: 30, cy: 38, r: 10.5, fill: SKIN, stroke: "currentColor" }],
    ["circle", { cx: 26.5, cy: 37, r: 1.2, fill: "#222" }],
    ["circle", { cx: 33.5, cy: 37, r: 1.2, fill: "#222" }],
    ["path", { d: "M27 43 Q30 45 33 43", fill: "none", stroke: "#8a3b2a", "stroke-width": 1.2 }],
    ...HEADWEAR[rank],
  ];
  for (const [tag, attrs] of parts) figure.append(svgNode(tag, attrs));
  const badge = svgNode("text", { x: 30, y: 76, "text-anchor": "middle", "font-size": 13, fill: "#fff" });
  badge.textContent = symbol;
  figure.append(badge);
  return figure;
}

export function cardElement(name) {
  const { rank, suit } = parseCard(name);
  const symbol = SUIT_SYMBOL[suit];
  const middle = HEADWEAR[rank]
    ? courtFigure(rank, symbol)
    : el("span", { class: "pip", text: symbol, "aria-hidden": "true" });
  return el(
    "div",
    { class: `card face ${RED.has(suit) ? "red" : "black"}`, "data-card": name, role: "img", "aria-label": cardWords(name) },
    corner("tl", rank, symbol),
    middle,
    corner("br", rank, symbol),
  );
}

export function cardBack() {
  return el("div", { class: "card back", "aria-hidden": "true" });
}

export function placeholder(text, extraClass = "") {
  return el("div", { class: `card slot ${extraClass}`.trim() }, text ? el("span", { text }) : null);
}
