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
