// What the player reads when the server refuses something, and what a screen reader hears after
// a move: built from the API's `code`, `rule` and `params` and the logged ACTION (docs/api.md), in
// the page's language. Where the page has no words of its own for a refusal it shows the
// server's `message`, which the API wrote in the page's language (Accept-Language).
import { format } from "./api.js";
import { cardWords, pileWords, toPileWords } from "./cards.js";

// Why a card may not go onto another, by the rule it breaks.
const WHY = {
  R8: () => gettext("a foundation builds up in suit from its starting rank"),
  R12: () => gettext("a column builds down in alternating colours"),
};

function capitalised(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

// A refusal as a sentence: its first letter a capital, whatever word the language starts with
// ("Kőr 10 nem tehető...", "10 kier nie pasuje...").
export function errorText(error) {
  return capitalised(refusal(error));
}

function refusal(error) {
  const params = error.params || {};
  const card = params.card ? cardWords(params.card) : null;
  switch (error.code) {
    case "illegal_move":
      if (card && params.onto && WHY[error.rule]) {
        return format(gettext("%(card)s cannot go on %(onto)s: %(why)s."), {
          card,
          onto: cardWords(params.onto),
          why: WHY[error.rule](),
        });
      }
      break;
    case "no_destination":
      if (card) return format(gettext("%(card)s has nowhere to go."), { card });
      break;
    case "stale":
      return gettext("The game moved on in another tab; here is its current state.");
    case "game_over":
      return gettext("This game is over.");
    case "throttled":
      return gettext("Too many requests: wait a moment and try again.");
    case "network":
      return gettext("The server cannot be reached. Check the connection and try again.");
    default:
      break;
  }
  return error.message;
}

function cardList(cards) {
  return (cards || []).map(cardWords).join(", ");
}

// One short sentence for what an applied action changed: "10 of hearts to column 2; column 1
// filled with queen of spades".
export function actionText(action, game) {
  const parts = [];
  if (action.type === "move") {
    parts.push(
      format(gettext("%(cards)s %(destination)s"), {
        cards: cardList(action.cards),
        destination: toPileWords(action.to),
      }),
    );
    if (action.auto_fill) {
      parts.push(
        format(gettext("%(pile)s filled with %(card)s"), {
          pile: pileWords(action.from),
          card: cardWords(action.auto_fill),
        }),
      );
    }
  } else if (action.type === "draw") {
    parts.push(action.cards ? format(gettext("drew %(cards)s"), { cards: cardList(action.cards) }) : gettext("draw"));
  } else if (action.type === "recycle") {
    parts.push(gettext("waste back to the stock"));
  } else if (action.type === "undo") {
    parts.push(gettext("last action undone"));
  } else if (action.type === "resign") {
    parts.push(gettext("game ended"));
  } else if (action.type === "finish") {
    const count = action.cards.length;
    parts.push(format(ngettext("%(count)s card sent home", "%(count)s cards sent home", count), { count }));
  }
  if (action.auto_finish && action.auto_finish.length) {
    const count = action.auto_finish.length;
    parts.push(
      format(ngettext("%(count)s card played up to the foundations", "%(count)s cards played up to the foundations", count), { count }),
    );
  }
  if (game.status === "won") parts.push(gettext("You won!"));
  const sentence = parts.join("; ");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}

// Par (R31), once the day is over: the fewest moves of a winning line the solver found ("at
// most" where its search was not exhaustive).
export function parText(par) {
  if (!par) return "";
  const template = par.exact
    ? ngettext("Par: %(count)s move", "Par: %(count)s moves", par.moves)
    : ngettext("Par: at most %(count)s move", "Par: at most %(count)s moves", par.moves);
  return format(template, { count: par.moves });
}

// How far a game got: "35 of 52 cards home" (every foundation's cards, the base card included),
// said of a game that ended without a win instead of "resigned".
export function cardsHome(game) {
  return cardsHomeOf(game.foundations.reduce((sum, foundation) => sum + foundation.count, 0));
}

// The same of a board's ENTRY, which gives the count (`home`).
export function cardsHomeOf(home) {
  return format(gettext("%(home)s of 52 cards home"), { home });
}
