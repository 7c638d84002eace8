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

// Input does not wait for motion: a pointer going down on the table ends every card's travel
// at once (each jumps to where the state put it), so that what is under the pointer is what
// the player sees. Returns how many were cut short.
export function finishAnimations(table) {
  let cut = 0;
  for (const animation of document.getAnimations()) {
    const target = animation.effect && animation.effect.target;
    if (!target || !(table.contains(target) || target.classList.contains("flying"))) continue;
    if (animation.playState !== "running" && !animation.pending) continue;
    try {
      animation.finish();
      cut += 1;
    } catch (error) {
      // An endless animation (none is) cannot finish: leave it.
    }
  }
  return cut;
}

// A card that cannot go shakes its head (a still outline under reduced motion, by the CSS).
export function shake(cards) {
  for (const card of cards) {
    card.classList.remove("shake");
    void card.offsetWidth; // restart the animation when it shakes again
    card.classList.add("shake");
    setTimeout(() => card.classList.remove("shake"), 700);
  }
}

const SUIT_SYMBOL = { H: "\u2665", S: "\u2660", D: "\u2666", C: "\u2663" };

// One card drawn on the celebration's canvas: white, rounded, rank and suit in the corner, a
// large suit in the middle.
function paintCard(ctx, name, x, y, width, height) {
  const rank = name.slice(0, -1);
  const suit = name.slice(-1);
  const radius = width * 0.1;
  ctx.beginPath();
  ctx.roundRect(x, y, width, height, radius);
  ctx.fillStyle = "#fdfdf8";
  ctx.fill();
  ctx.lineWidth = 1;
  ctx.strokeStyle = "#777";
  ctx.stroke();
  ctx.fillStyle = suit === "H" || suit === "D" ? "#c8102e" : "#1b1b1f";
  ctx.textBaseline = "top";
  ctx.font = `700 ${Math.round(width * 0.28)}px system-ui, sans-serif`;
  ctx.fillText(`${rank}${SUIT_SYMBOL[suit]}`, x + width * 0.08, y + width * 0.06);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.font = `${Math.round(width * 0.6)}px system-ui, sans-serif`;
  ctx.fillText(SUIT_SYMBOL[suit], x + width / 2, y + height * 0.58);
  ctx.textAlign = "start";
}

// The win, as the classic did it: the cards leave the foundations one after another, top card
// first, each thrown sideways, falling and bouncing off the bottom of the window, losing height
// at each bounce, leaving a trail of itself behind until it goes out at a side. A click, a tap
// or a key ends it. Resolves when it is over (at once under reduced motion).
export function celebrate(game) {
  const table = document.getElementById("table");
  if (!motionAllowed() || !table || game.status !== "won") return Promise.resolve();
  const stacks = [...table.querySelectorAll(".foundation")].map((pile) => {
    const face = pile.querySelector(".card");
    const rect = (face || pile).getBoundingClientRect();
    const top = face && face.dataset.card;
    return { rect, cards: top ? stackBelow(top, 13) : [] };
  });
  const canvas = document.createElement("canvas");
  canvas.className = "celebration";
  canvas.setAttribute("aria-hidden", "true");
  const ratio = window.devicePixelRatio || 1;
  const width = window.innerWidth;
  const height = window.innerHeight;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  document.body.append(canvas);
  const ctx = canvas.getContext("2d");
  ctx.scale(ratio, ratio);
  // Whose turn to leave: the foundations in turn, each giving its top card.
  const order = [];
  for (let layer = 0; layer < 13; layer += 1) {
    for (const stack of stacks) if (stack.cards[layer]) order.push({ name: stack.cards[layer], rect: stack.rect });
  }
  const flying = [];
  let launched = 0;
  let frame = 0;
  return new Promise((resolve) => {
    let done = false;
    const stop = () => {
      if (done) return;
      done = true;
      window.removeEventListener("pointerdown", stop, true);
      window.removeEventListener("keydown", stop, true);
      canvas.animate([{ opacity: 1 }, { opacity: 0 }], { duration: 250 }).finished.finally(() => {
        canvas.remove();
        resolve();
      });
    };
    window.addEventListener("pointerdown", stop, true);
    window.addEventListener("keydown", stop, true);
    // Time, not frames, drives it (a busy phone drops frames): a card leaves every 60 ms, the
    // motion is in pixels per 60th of a second, and it is over within 6 s whatever happens.
    const started = performance.now();
    let last = started;
    const step = (now) => {
      if (done) return;
      frame += 1;
      const ticks = Math.min((now - last) / (1000 / 60), 4);
      last = now;
      while (launched < order.length && now - started >= launched * 60) {
        const { name, rect } = order[launched];
        launched += 1;
        const side = Math.random() < 0.5 ? -1 : 1;
        flying.push({ name, x: rect.left, y: rect.top, w: rect.width, h: rect.height,
          vx: side * (4 + Math.random() * 5), vy: -Math.random() * 7 });
      }
      for (const card of flying) {
        card.vy += 0.55 * ticks;
        card.x += card.vx * ticks;
        card.y += card.vy * ticks;
        if (card.y + card.h > height) {
          card.y = height - card.h;
          card.vy = -card.vy * 0.78;
        }
        paintCard(ctx, card.name, card.x, card.y, card.w, card.h);
      }
      for (let i = flying.length - 1; i >= 0; i -= 1) {
        const card = flying[i];
        if (card.x + card.w < 0 || card.x > width) flying.splice(i, 1);
      }
      window.celebrationFrames = frame;
      if ((launched >= order.length && !flying.length) || now - started > 6000) stop();
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  });
}

// The 13 cards of a full foundation whose top card is `top`, top first.
function stackBelow(top, count) {
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const suit = top.slice(-1);
  const at = ranks.indexOf(top.slice(0, -1));
  return Array.from({ length: count }, (_, i) => ranks[(at - i + 13 * 2) % 13] + suit);
}
