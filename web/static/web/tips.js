// The first-game tips: shown over the table once in this browser (remembered in localStorage
// as "tipsSeen"), dismissed with their button or Escape.
import { el } from "./api.js";
import { modal } from "./dialogs.js";

const SEEN = "tipsSeen";

function seen() {
  try {
    return localStorage.getItem(SEEN) === "1";
  } catch (error) {
    return true; // storage refused: never nag on every game
  }
}

export async function showTips() {
  const rulesLink = el("a", { href: document.getElementById("nav-rules")?.getAttribute("href") || "/rules/app/", text: gettext("How to play") });
  const last = el("li", {}, gettext("Stuck? Undo, ask for a hint, or read the rules:"), " ", rulesLink);
  await modal({
    id: "tips",
    title: gettext("Four tips for your first game"),
    body: [
      el(
        "ol",
        { class: "tips" },
        el("li", { text: gettext("Build the four foundations up by suit, starting from the rank of the first foundation's card. After the king comes the ace.") }),
        el("li", { text: gettext("In the four columns, put a card on one a rank higher of the other colour. When a column empties, the reserve's top card fills it.") }),
        el("li", { text: gettext("Click or tap the stock to draw. Drag a card where it goes, or tap it to send it where it fits.") }),
        last,
      ),
    ],
    buttons: [{ text: gettext("Got it"), value: true, primary: true }],
    cancelValue: true,
  });
  try {
    localStorage.setItem(SEEN, "1");
  } catch (error) {
    // nothing to remember it in
  }
}

if (!seen()) showTips();
