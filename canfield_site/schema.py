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
