// Draws a table (the GAME of API.md) into the markup of play.html / replay.html.
import { el, format, strings } from "./api.js";
import { cardBack, cardElement, placeholder, SUIT_SYMBOL } from "./cards.js";

const t = strings();

function caption(text) {
  return el("div", { class: "caption", text });
}

function renderStock(table, game) {
  const pile = table.querySelector('[data-pile="stock"]');
  const count = game.stock.count;
  const face = count ? cardBack() : placeholder(game.waste.count ? "↻" : "", "recycle");
  pile.replaceChildren(face, caption(count ? String(count) : t.stock_empty));
  pile.setAttribute("aria-label", `${t.stock}: ${count} ${t.cards}`);
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
  pile.setAttribute("aria-label", `${t.waste}: ${game.waste.count} ${t.cards}`);
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
      const pile = el(
        "div",
        {
          class: "pile foundation",
          "data-pile": `foundation:${foundation.suit}`,
          tabindex: "0",
          role: "button",
          "aria-label": `${t.foundation} ${SUIT_SYMBOL[foundation.suit]}: ${foundation.count} ${t.cards}`,
        },
        face,
        caption(`${start}… (${foundation.count})`),
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
  pile.replaceChildren(face, caption(`${count} ${t.cards}`));
  pile.setAttribute("aria-label", `${t.reserve}: ${count} ${t.cards}`);
}

function renderTableau(table, game) {
  const box = table.querySelector(".tableau");
  box.replaceChildren(
    ...game.tableau.map((column, index) => {
      const name = `tableau:${index + 1}`;
      const pile = el("div", {
        class: "pile column",
        "data-pile": name,
        role: "button",
        "aria-label": format(t.column, { n: index + 1 }),
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
}
