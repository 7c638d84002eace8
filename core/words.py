"""Cards and piles in words, in the active language: the one source of these names for the
server's messages (core/errors.py, the replay's captions) and for the pages, which get them
as JSON (`page_words`, embedded by web/templates/web/base.html) instead of a table of their own.

Card names are the R28 description's (games/engine/text.py: "treff 10", "10 trefl", "10 of
clubs"). Hungarian chooses its article by the sound of the next word: translations write
"a(z)" and `choose_articles` puts "a" or "az" in its place ("az 1. oszlopra", "a 2. oszlopra").
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from django.utils.translation import get_language, gettext, override, pgettext

from games.engine.text import WORDS, card_words

SUITS = "HSDC"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
COLUMNS = 4

_VOWELS = "aáeéiíoóöőuúüű"
_ARTICLE = re.compile(r"\b([Aa])\(z\) (\S+)")


def hu_article(word: str) -> str:
    """The Hungarian definite article before `word`: "az" before a vowel sound, else "a".
    A number is read out: 1 (egy), 5 (öt), 50 (ötven), 1000 (ezer), 1 000 000 (egymillió)
    start with a vowel; 10 (tíz) and 100 (száz) do not.

    >>> [hu_article(w) for w in ("1.", "2.", "5.", "10.", "15", "50", "100", "1000", "ász")]
    ['az', 'a', 'az', 'a', 'a', 'az', 'a', 'az', 'az']
    """
    digits = re.match(r"\d+", word.replace(" ", ""))
    if digits:
        number = digits.group().lstrip("0") or "0"
        if number[0] == "5":
            return "az"  # öt, ötven, ötszáz, ötezer...
        if number[0] == "1":
            # egy, tíz, száz, ezer, tízezer, százezer, egymillió...: groups of three digits
            return "az" if len(number) % 3 == 1 else "a"
        return "a"
    return "az" if word[:1].lower() in _VOWELS else "a"


def choose_articles(text: str) -> str:
    """Every "a(z)"/"A(z)" of a Hungarian text made "a"/"az" by the word after it.

    >>> choose_articles("A(z) 5. oldal; a(z) 2. oszlopra")
    'Az 5. oldal; a 2. oszlopra'
    """

    def one(match: re.Match[str]) -> str:
        article = hu_article(match.group(2))
        if match.group(1) == "A":
            article = article.capitalize()
        return f"{article} {match.group(2)}"

    return _ARTICLE.sub(one, text)


def _lang() -> str:
    lang = (get_language() or "en").split("-")[0]
    return lang if lang in WORDS else "en"


def card_name(name: str) -> str:
    """'10H' -> '10 of hearts' / 'kőr 10' / '10 kier' in the active language."""
    return card_words(name, _lang())


def pile_name(pile: str) -> str:
    """'tableau:2' -> 'column 2', 'foundation:H' -> 'hearts foundation', 'waste' -> 'waste'."""
    kind, _sep, which = pile.partition(":")
    if kind == "tableau":
        return gettext("column %(n)s") % {"n": which}
    if kind == "foundation":
        return {
            "H": gettext("hearts foundation"),
            "S": gettext("spades foundation"),
            "D": gettext("diamonds foundation"),
            "C": gettext("clubs foundation"),
        }[which]
    return {"stock": gettext("stock"), "waste": gettext("waste"), "reserve": gettext("reserve")}[
        kind
    ]


def to_pile(pile: str) -> str:
    """Where a move went, as a phrase of its own: 'to column 2', 'az 1. oszlopra', 'na bazę kier'
    (each language bends "to" its own way)."""
    kind, _sep, which = pile.partition(":")
    if kind == "tableau":
        phrase = gettext("to column %(n)s") % {"n": which}
    else:
        phrase = {
            "H": gettext("to the hearts foundation"),
            "S": gettext("to the spades foundation"),
            "D": gettext("to the diamonds foundation"),
            "C": gettext("to the clubs foundation"),
        }[which]
    return choose_articles(phrase)


def empty_pile(kind: str) -> str:
    """'empty' agreeing with the pile (Polish: zapas pusty, rezerwa pusta, odrzuty puste)."""
    return {
        "stock": pgettext("the stock", "empty"),
        "waste": pgettext("the waste", "empty"),
        "reserve": pgettext("the reserve", "empty"),
        "foundation": pgettext("a foundation", "empty"),
        "tableau": pgettext("a column", "empty"),
    }[kind]


def piles() -> list[str]:
    return [
        "stock",
        "waste",
        "reserve",
        *(f"foundation:{suit}" for suit in SUITS),
        *(f"tableau:{n}" for n in range(1, COLUMNS + 1)),
    ]


@lru_cache(maxsize=8)
def _page_words(lang: str) -> dict[str, Any]:
    with override(lang):
        return {
            "cards": {rank + suit: card_name(rank + suit) for suit in SUITS for rank in RANKS},
            "piles": {pile: pile_name(pile) for pile in piles()},
            "to": {pile: to_pile(pile) for pile in piles() if ":" in pile},
            "empty": {
                kind: empty_pile(kind)
                for kind in ("stock", "waste", "reserve", "foundation", "tableau")
            },
        }


def page_words() -> dict[str, Any]:
    """What the pages' scripts name cards and piles with (web/static/web/cards.js), in the
    active language."""
    return _page_words(get_language() or "en")
