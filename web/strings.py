"""The words the JavaScript modules show, translated for the request's language and handed to
the page as JSON (so all text goes through Django's i18n, with no second catalogue)."""

from django.utils.translation import gettext as _


def js_strings() -> dict[str, str]:
    return {
        "playing": _("Playing"),
        "won": _("Won"),
        "resigned": _("Resigned"),
        "continue": _("Continue"),
        "replay": _("Replay"),
        "no_games": _("No games yet."),
        "no_players": _("Nobody has played yet."),
        "players": _("players"),
        "copied": _("Copied!"),
        "error": _("Something went wrong. Please try again."),
        "stale": _("The game moved on in another tab; here is its current state."),
        "confirm_resign": _("Resign this game? It ends with its current score."),
        "rank_line": _("Your rank on today's board: %(rank)s of %(count)s"),
        "stock_empty": _("empty"),
        "cards": _("cards"),
        "draw3": _("3 cards (Hard)"),
        "draw1": _("1 card (Easy)"),
        "custom": _("custom deal"),
        "daily": _("daily"),
        "picked": _("Picked up: %(card)s. Choose where to put it and press Enter."),
        "stock": _("Stock"),
        "waste": _("Waste"),
        "reserve": _("Reserve"),
        "foundation": _("Foundation"),
        "column": _("Column %(n)s"),
        "you_won": _("You won!"),
        "game_over": _("Game over"),
        "live": _("live"),
        "offline": _("reconnecting…"),
    }


SUIT_SYMBOL = {"H": "♥", "S": "♠", "D": "♦", "C": "♣"}


def pile_name(pile: str) -> str:
    """A pile of the API (`tableau:2`, `foundation:H`, `waste`...) in words."""
    kind, _sep, which = pile.partition(":")
    if kind == "tableau":
        return _("column %(n)s") % {"n": which}
    if kind == "foundation":
        return {
            "H": _("hearts foundation"),
            "S": _("spades foundation"),
            "D": _("diamonds foundation"),
            "C": _("clubs foundation"),
        }[which]
    return {"stock": _("stock"), "waste": _("waste"), "reserve": _("reserve")}[kind]


def action_caption(
    *, type: str, from_pile: str | None, to_pile: str | None, cards: list[str]
) -> str:
    """One logged action (API.md ACTION) as a replay step's caption."""
    shown = " ".join(card[:-1] + SUIT_SYMBOL[card[-1]] for card in cards or [])
    if type == "move" and from_pile and to_pile:
        return f"{shown}: {pile_name(from_pile)} → {pile_name(to_pile)}"
    if type == "draw":
        return _("draw: %(cards)s") % {"cards": shown}
    if type == "recycle":
        return _("waste back to the stock")
    if type == "undo":
        return _("Undo")
    return _("Resign")
