// Draws a table (the GAME of docs/api.md) into the markup of play.html / replay.html. Each pile's
// label names its cards (the top card, or a column's cards in order) and each face-up card
// carries its own name, so a screen reader can read the table pile by pile and card by card.
import { counted, el, format } from "./api.js";
import { cardBack, cardElement, cardWords, emptyWords, nextRank, pileWords, placeholder, SUIT_SYMBOL } from "./cards.js";

function caption(text) {
  return el("div", { class: "caption", text });
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function cardCount(count) {
  return counted(ngettext("%(count)s card", "%(count)s cards", count), count);
}

// "Waste: 5 cards, top: 10 of hearts"; "Stock: empty".
function pileLabel(pile, count, top) {
  const parts = [count ? cardCount(count) : emptyWords(pile)];
  if (top) parts.push(format(gettext("top: %(card)s"), { card: cardWords(top) }));
  return `${capitalised(pileWords(pile))}: ${parts.join(", ")}`;
}

function renderStock(table, game) {
  const pile = table.querySelector('[data-pile="stock"]');
  const count = game.stock.count;
  const face = count ? cardBack() : placeholder(game.waste.count ? "↻" : "", "recycle");
  pile.replaceChildren(face, caption(count ? String(count) : emptyWords("stock")));
  pile.setAttribute("aria-label", pileLabel("stock", count, null));
}

function renderWaste(table, game) {
  const pile = table.querySelector('[data-pile="waste"]');
  const fan = game.waste.fan;
  const fanBox = el("div", { class: "fan" });
  if (!fan.length) fanBox.append(placeholder(""));
  fan.forEach((name, index) => {
    const card = cardElement(name);
    card.style.setProperty("--i", String(index));
    if (index === fan.length - 1) card.classList.add("top");
    fanBox.append(card);
  });
  pile.classList.toggle("has-under", game.waste.count > fan.length);
  pile.replaceChildren(fanBox);
  pile.setAttribute("aria-label", pileLabel("waste", game.waste.count, fan[fan.length - 1]));
}

// What a foundation needs next ("next: 5♥"), or that it is full. The words around the card
// are a span of their own, which a narrow phone leaves out (the card alone then: "5♥").
function foundationCaption(foundation, start) {
  const rank = nextRank(foundation, start);
  if (rank === null) return caption(gettext("complete"));
  const [before, after = ""] = gettext("next: %(card)s").split("%(card)s");
  const box = el("div", { class: "caption" });
  if (before.trim()) box.append(el("span", { class: "word", text: before }));
  box.append(el("span", { class: "next", text: `${rank}${SUIT_SYMBOL[foundation.suit]}` }));
  if (after.trim()) box.append(el("span", { class: "word", text: after }));
  return box;
}

function renderFoundations(table, game) {
  const box = table.querySelector(".foundations");
  const start = game.starting_rank;
  box.replaceChildren(
    ...game.foundations.map((foundation) => {
      const face = foundation.top
        ? cardElement(foundation.top)
        : placeholder(`${start}${SUIT_SYMBOL[foundation.suit]}`, `suit-${foundation.suit}`);
      if (foundation.top) face.classList.add("top");
      const name = `foundation:${foundation.suit}`;
      const pile = el(
        "div",
        {
          class: "pile foundation",
          "data-pile": name,
          role: "group",
          "aria-label": pileLabel(name, foundation.count, foundation.top),
        },
        face,
        foundationCaption(foundation, start),
      );
      pile.tabIndex = 0;
      return pile;
    }),
  );
}

function renderReserve(table, game) {
  const pile = table.querySelector('[data-pile="reserve"]');
  const { count, top } = game.reserve;
  const face = top ? cardElement(top) : placeholder("");
  if (top) face.classList.add("top");
  pile.classList.toggle("has-under", count > 1);
  pile.replaceChildren(face, caption(cardCount(count)));
  pile.setAttribute("aria-label", pileLabel("reserve", count, top));
}

function renderTableau(table, game) {
  const box = table.querySelector(".tableau");
  box.replaceChildren(
    ...game.tableau.map((column, index) => {
      const name = `tableau:${index + 1}`;
      const cards = column.length ? column.map(cardWords).join(", ") : emptyWords(name);
      const pile = el("div", {
        class: "pile column",
        "data-pile": name,
        role: "group",
        "aria-label": `${capitalised(pileWords(name))}: ${cards}`,
      });
      pile.tabIndex = 0;
      if (!column.length) pile.append(placeholder(""));
      column.forEach((card, position) => {
        const node = cardElement(card);
        node.style.setProperty("--i", String(position));
        node.dataset.count = String(column.length - position);
        pile.append(node);
      });
      pile.style.setProperty("--n", String(Math.max(column.length, 1)));
      return pile;
    }),
  );
}

export function renderTable(table, game) {
  renderStock(table, game);
  renderWaste(table, game);
  renderFoundations(table, game);
  renderReserve(table, game);
  renderTableau(table, game);
  table.classList.toggle("finished", game.status !== "playing");
  fitColumns(table);
}

// Where the page's bottom edge is for the cards: the top of a button bar fixed there (phones),
// else the window's bottom.
function screenBottom() {
  const bar = document.querySelector(".hud > .controls");
  if (bar && getComputedStyle(bar).position === "fixed") return bar.getBoundingClientRect().top;
  return window.innerHeight;
}

// A long column squeezes (its cards overlap more) to end above the bottom of the screen when
// the page is at its top, so that a card can be dropped on it without scrolling; the strip each
// card shows never gets thinner than an eighth of a card (a longer column then scrolls).
export function fitColumns(table) {
  if (!fitted.has(table)) {
    fitted.add(table);
    // What shows above the table (a match's panel, a longer header) moves the columns down.
    new ResizeObserver(() => fitColumns(table)).observe(table.closest(".game") || table);
  }
  const bottom = screenBottom() - 8;
  for (const column of table.querySelectorAll(".pile.column")) {
    column.style.removeProperty("--fan");
    const cards = column.querySelectorAll(".card");
    if (cards.length < 2) continue;
    const fan = cards[1].offsetTop - cards[0].offsetTop;
    const height = cards[0].offsetHeight;
    const top = column.getBoundingClientRect().top + window.scrollY;
    const room = (bottom - top - height) / (cards.length - 1);
    if (room < fan) column.style.setProperty("--fan", `${Math.max(room, height / 8, 10)}px`);
  }
}

const fitted = new Set();
window.addEventListener("resize", () => {
  for (const table of fitted) fitColumns(table);
});
