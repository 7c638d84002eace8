// Modal dialogs made on demand: the table's "leave this game?" question and the first-game
// tips. A native <dialog> shown modal (the rest of the page is inert, Escape cancels), with
// Tab and Shift+Tab kept inside it, and the focus given back to where it was when it closes.
import { el } from "./api.js";

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex='-1'])";

// Shows a dialog of `title`, the `body` nodes and `buttons` ([{text, value, primary}]); the
// promise gives the value of the button pressed, or `cancelValue` on Escape. `focus`: the
// value of the button focused first (the safe choice).
export function modal({ id, title, body, buttons, cancelValue = null, focus = null }) {
  const opener = document.activeElement;
  const titleId = `${id}-title`;
  const row = el("div", { class: "dialog-buttons" });
  const dialog = el(
    "dialog",
    { id, class: "modal", "aria-labelledby": titleId },
    el("h2", { id: titleId, text: title }),
    ...body,
    row,
  );
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value) => {
      if (settled) return;
      settled = true;
      if (dialog.open) dialog.close();
      dialog.remove();
      if (opener && opener.isConnected && typeof opener.focus === "function") opener.focus();
      resolve(value);
    };
    for (const choice of buttons) {
      const button = el("button", {
        type: "button",
        class: choice.primary ? "primary" : "",
        text: choice.text,
        "data-value": String(choice.value),
      });
      button.addEventListener("click", () => finish(choice.value));
      row.append(button);
    }
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(cancelValue);
    });
    dialog.addEventListener("keydown", (event) => {
      if (event.key !== "Tab") return;
      const items = [...dialog.querySelectorAll(FOCUSABLE)];
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    });
    document.body.append(dialog);
    dialog.showModal();
    const first = row.querySelector(`[data-value="${String(focus)}"]`) || row.querySelector("button");
    first.focus();
  });
}

// Before leaving a game in progress for a new one: true when the player chooses to leave. A
// daily game stays open until its day ends; any other stays in the player's games (and ends by
// itself after a week without a move: docs/api.md).
export function confirmLeave(game) {
  const text = game.daily
    ? gettext("Your daily game stays open until midnight: you can come back to it from the home page until then.")
    : gettext("It stays in your recent games, so you can come back to it. A game left alone for 7 days ends by itself and does not count in your statistics.");
  return modal({
    id: "leave-game",
    title: gettext("Leave this game?"),
    body: [el("p", { text })],
    buttons: [
      { text: gettext("Keep playing"), value: false },
      { text: gettext("Leave and start a new game"), value: true, primary: true },
    ],
    cancelValue: false,
    focus: false,
  });
}
