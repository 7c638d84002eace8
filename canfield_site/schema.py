"""The project's schema class for drf-spectacular (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS): a
module of its own, since DRF imports it while its settings load."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, but a DELETE documents the body its view declares (`request=`):
    `DELETE account` takes `{"password"}` (docs/api.md), and drf-spectacular documents bodies of
    PUT, PATCH and POST only, so generated clients sent none and always got 400."""

    def _get_request_body(self, direction: str = "request") -> Any:
        declared = self.get_request_serializer() if self.method == "DELETE" else None
        if declared is None:
            return super()._get_request_body(direction)
        # (the declaration is in scope of DELETE only: it is handed over as it is)
        self.method, self.get_request_serializer = "POST", lambda: declared  # type: ignore[method-assign]
        try:
            return super()._get_request_body(direction)
        finally:
            self.method = "DELETE"
            del self.get_request_serializer


NDJSON = "application/x-ndjson"
BYTES = "application/octet-stream"
BINARY = {"type": "string", "format": "binary"}


def ndjson_items(result: dict[str, Any]) -> None:
    """NDJSON answers as generators can take them (a drf-spectacular hook's step; docs/api.md,
    "Streams and exports"). OpenAPI 3.0 has no word for "a JSON value a line": what a line is
    (its component, as the view declares it) goes to the response's `x-ndjson.itemSchema`
    (OpenAPI 3.2's `itemSchema`), so every line is typed for SDKs (StreamLine, GameOut). The
    body itself is written as what generators understand:
    - an answer that is only NDJSON (`account/export`, `games/{id}/stream`) is bytes, under
      NDJSON and under `application/octet-stream` (the server answers either), so that
      openapi-python-client with default settings keeps the 200 (as bytes) without a warning;
    - an answer negotiated beside JSON (`players/{username}/games`) keeps only its JSON
      content, so that openapi-typescript's types need no media type pinned to choose."""
    for item in result["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for response in operation.get("responses", {}).values():
                content = response.get("content", {})
                if NDJSON not in content:
                    continue
                line = content[NDJSON].get("schema")
                response["x-ndjson"] = {"mediaType": NDJSON, "itemSchema": line}
                if len(content) > 1:
                    del content[NDJSON]
                else:
                    content[NDJSON] = {"schema": dict(BINARY)}
                    content[BYTES] = {"schema": dict(BINARY)}
