"""`{% page_words %}`: the names of cards and piles in the page's language (games/words.py) as
a JSON script element, which web/static/web/cards.js reads: the pages name cards as the
server does, from one table."""

from django import template
from django.utils.html import json_script
from django.utils.safestring import SafeString

from games.words import page_words as words_of_the_page

register = template.Library()


@register.simple_tag
def page_words() -> SafeString:
    return json_script(words_of_the_page(), "words")
