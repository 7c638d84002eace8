"""The API's JSON renderer: DRF's bytes, written by orjson."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

# What orjson leaves to DRF's encoder: dates and times (DRF writes milliseconds and "Z"), and
# what orjson does not know (Decimal, lazy translations, sets...). Text, numbers, lists, dicts
# with text keys and UUIDs it writes as DRF does.
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME
_default = JSONEncoder().default
# DRF escapes these two (JSON allows them raw, JavaScript source before ES2019 did not).
_SEPARATORS = ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


class JSONRenderer(renderers.JSONRenderer):
    """DRF's JSON renderer (the same bytes: compact, UTF-8, U+2028 and U+2029 escaped), its
    JSON written by orjson: an action's answer in a sixteenth of the json module's time, a
    game's log of 1,000 actions in a fifth (docs/benchmarks.md). An indented answer (`Accept:
    application/json; indent=2`) and what orjson refuses (integers past 64 bits, keys that are
    not text, nesting past 254) are DRF's own rendering. Two numbers are written otherwise: a
    float under 1e-4 with orjson's form (0.00001 where Python writes 1e-05: the same number),
    and NaN or an infinity as null (DRF's strict JSON refuses them with an error)."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type or "", renderer_context or {})
        if indent is None and self.compact and not self.ensure_ascii:
            try:
                body = orjson.dumps(data, default=_default, option=_OPTIONS)
            except orjson.JSONEncodeError:
                return super().render(data, accepted_media_type, renderer_context)
            for raw, escaped in _SEPARATORS:
                body = body.replace(raw, escaped)
            return body
        return super().render(data, accepted_media_type, renderer_context)
