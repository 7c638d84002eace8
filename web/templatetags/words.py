"""`{% page_words %}`: the names of cards and piles in the page's language (core/words.py) as
a JSON script element, which web/static/web/cards.js reads: the pages name cards as the
server does, from one table."""

from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.html import json_script
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from core.words import page_words as words_of_the_page
from web.views import CATALOGUE_VERSION

register = template.Library()


@register.simple_tag
def page_words() -> SafeString:
    return json_script(words_of_the_page(), "words")


@register.simple_tag
def catalogue_url() -> str:
    """The JavaScript catalogue of the page's language and this release (cacheable for a year:
    web/views.py javascript_catalog)."""
    query = urlencode({"l": get_language() or "en", "v": CATALOGUE_VERSION})
    return f"{reverse('javascript-catalog')}?{query}"
