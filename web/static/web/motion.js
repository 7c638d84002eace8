// Motion with the Web Animations API, FLIP style: the positions of the cards are read before
// the table is redrawn (First), again after (Last), and each card that moved is played back
// from where it was with a transform (Invert, Play), so only the compositor works during the
// animation: no layout is read or written per frame. Everything here is skipped when the
// player asks for reduced motion.

import { cardElement } from "./cards.js";

const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const EASE = "cubic-bezier(.2,.7,.3,1)";

export function motionAllowed() {
  return !reduced.matches;
}

function faceCards(table) {
  return table.querySelectorAll(".card.face[data-card]");
}

// First: where each face-up card is now, and where the stock is (new cards come from there).
export function measure(table) {
  const rects = new Map();
  if (!motionAllowed()) return { rects, stock: null };
  for (const card of faceCards(table)) rects.set(card.dataset.card, card.getBoundingClientRect());
  const stock = table.querySelector('[data-pile="stock"]');
  return { rects, stock: stock ? stock.getBoundingClientRect() : null };
}

// A dragged card is where the player let go of it, not where it was picked up.
export function moveOrigin(before, name, rect) {
  if (before.rects) before.rects.set(name, rect);
}

function travel(card, from, to, delay, duration = 240) {
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  return card.animate(
    [
      { transform: `translate(${dx}px, ${dy}px)`, zIndex: 40 },
      { transform: "translate(0, 0)", zIndex: 40 },
    ],
    { duration, delay, easing: EASE, fill: "backwards" },
  );
}

// Last, Invert, Play: every card that changed place travels from its old place; a card that
// was not face up before (a draw, a recycle's first card, an auto-fill from the reserve's
// hidden cards) comes from the stock. Cards that reached a foundation in the same action
// (auto-finish) go one after another.
export function animateChanges(table, before) {
  if (!motionAllowed() || !before.rects.size) return [];
  const played = [];
  let toFoundation = 0;
  const after = [...faceCards(table)].map((card) => [card, card.getBoundingClientRect()]);
  for (const [card, rect] of after) {
    const from = before.rects.get(card.dataset.card) || before.stock;
    if (!from) continue;
    const onFoundation = card.closest(".foundation") !== null;
    const delay = onFoundation && before.rects.has(card.dataset.card) ? 90 * toFoundation : 0;
    const animation = travel(card, from, rect, delay);
    if (animation) {
      played.push(animation);
      if (onFoundation) toFoundation += 1;
    }
  }
  return played;
}

// Auto-finish (the cardgames rules): the cards the server played up fly to their foundations
// one after another, in the order it played them, from where each was on the table.
export function animateAutoFinish(table, before, cards) {
  if (!motionAllowed() || !cards || !cards.length) return [];
  const played = [];
  cards.forEach((name, index) => {
    const from = before.rects.get(name) || before.stock;
    const foundation = table.querySelector(`[data-pile="foundation:${name.slice(-1)}"]`);
    if (!from || !foundation) return;
    const to = foundation.getBoundingClientRect();
    const flying = cardElement(name);
    flying.classList.add("flying");
    flying.setAttribute("aria-hidden", "true");
    flying.style.left = `${to.left}px`;
    flying.style.top = `${to.top}px`;
    document.body.append(flying);
    const animation = travel(flying, from, to, 110 * index, 260);
    if (!animation) {
      flying.remove();
      return;
    }
    animation.finished.finally(() => flying.remove());
    played.push(animation);
  });
  return played;
}

// The deal: every face-up card flies out of the stock, one after another.
export function animateDeal(table) {
  if (!motionAllowed()) return [];
  const stock = table.querySelector('[data-pile="stock"]');
  if (!stock) return [];
  const from = stock.getBoundingClientRect();
  return [...faceCards(table)]
    .map((card, index) => travel(card, from, card.getBoundingClientRect(), 45 * index, 300))
    .filter(Boolean);
}

// The recycle: the waste's cards turn back into the stock.
export function animateRecycle(table, before) {
  if (!motionAllowed()) return [];
  const stockBack = table.querySelector('[data-pile="stock"] .card');
  const waste = [...before.rects.entries()].filter(([name]) => !table.querySelector(`[data-card="${name}"]`));
  if (!stockBack || !waste.length) return [];
  const to = stockBack.getBoundingClientRect();
  const [, from] = waste[waste.length - 1];
  const animation = travel(stockBack, from, to, 0, 260);
  return animation ? [animation] : [];
}

// The win: the foundations' cards cascade down the table, bouncing, one after another;
// resolves when the last one lands (at once under reduced motion).
export function celebrate(game) {
  const table = document.getElementById("table");
  if (!motionAllowed() || !table || game.status !== "won") return Promise.resolve();
  const cards = [...table.querySelectorAll(".foundation .card.face")];
  const height = window.innerHeight;
  const animations = [];
  for (let round = 0; round < 3; round += 1) {
    cards.forEach((card, index) => {
      const ghost = card.cloneNode(true);
      ghost.classList.add("cascade");
      ghost.removeAttribute("role");
      ghost.removeAttribute("aria-label");
      ghost.setAttribute("aria-hidden", "true");
      card.parentElement.append(ghost);
      const rect = card.getBoundingClientRect();
      const drift = (index % 2 ? -1 : 1) * (120 + 40 * round);
      const fall = height - rect.top;
      const animation = ghost.animate(
        [
          { transform: "translate(0, 0)" },
          { transform: `translate(${drift * 0.4}px, ${fall * 0.85}px)`, offset: 0.45 },
          { transform: `translate(${drift * 0.7}px, ${fall * 0.55}px)`, offset: 0.7 },
          { transform: `translate(${drift}px, ${fall + rect.height}px)` },
        ],
        { duration: 1100, delay: 110 * (round * cards.length + index), easing: "ease-in", fill: "both" },
      );
      animation.finished.finally(() => ghost.remove());
      animations.push(animation);
    });
  }
  return Promise.allSettled(animations.map((animation) => animation.finished)).then(() => undefined);
}
