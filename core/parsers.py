import codecs
from typing import Any

import orjson
from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _utf8(encoding: str) -> bool:
    try:
        return codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


class JSONBodyParser(JSONParser):
    """DRF's JSON parser, read by orjson: an action's body parsed in ~0.6 us against 11-17
    through DRF's text stream and the json module (docs/benchmarks.md). The same values, but
    for what orjson refuses and json took: a lone UTF-16 surrogate (`"\\ud800"`, which no text
    column stores), a number past a double's range (`1e400`, json's infinity) and a byte order
    mark: each a 400 like any other body that is not JSON. An integer past 64 bits is a float
    (json: an int); no field takes one. A body in another charset (`charset=utf-16`) is DRF's
    to read. Deeply nested input (past orjson's 1,024 levels, or the interpreter's recursion
    limit) is a 400 of its own words."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        if not _utf8((parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET):
            return self._parse_by_drf(stream, media_type, parser_context)
        try:
            return orjson.loads(stream.read())
        except orjson.JSONDecodeError as error:
            if str(error).startswith("depth limit exceeded"):
                raise ParseError(_("The body is nested too deeply.")) from None
            raise ParseError(_("The body is not valid JSON.")) from None

    def _parse_by_drf(self, stream: Any, media_type: Any, parser_context: Any) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The body is nested too deeply.")) from None
        except ParseError:
            raise ParseError(_("The body is not valid JSON.")) from None
