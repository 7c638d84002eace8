"""Server-side words of the pages: a replay step's caption. The JavaScript modules take theirs
from Django's JavaScript catalogue (the djangojs domain, served at /jsi18n/), and the names of
cards and piles from core/words.py (the JSON that base.html embeds)."""

from django.utils.translation import gettext as _

from core.words import pile_name

SUIT_SYMBOL = {"H": "♥", "S": "♠", "D": "♦", "C": "♣"}


def action_caption(
    *, type: str, from_pile: str | None, to_pile: str | None, cards: list[str] | None
) -> str:
    """One logged action (docs/api.md ACTION) as a replay step's caption."""
    shown = " ".join(card[:-1] + SUIT_SYMBOL[card[-1]] for card in cards or [])
    if type == "move" and from_pile and to_pile:
        return f"{shown}: {pile_name(from_pile)} → {pile_name(to_pile)}"
    if type == "draw":
        return _("draw: %(cards)s") % {"cards": shown}
    if type == "recycle":
        return _("waste back to the stock")
    if type == "undo":
        return _("Undo")
    if type == "finish":
        return _("finish: %(cards)s") % {"cards": shown}
    return _("End game")
