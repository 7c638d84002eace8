"""The project's schema class for drf-spectacular (REST_FRAMEWORK's DEFAULT_SCHEMA_CLASS) and
the schema's postprocessing hooks (SPECTACULAR_SETTINGS): light to import, since DRF imports it
while its settings load; the hooks import the apps they read when they run."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, but a DELETE documents the body its view declares (`request=`):
    `DELETE account` takes `{"password"}` (docs/api.md), and drf-spectacular documents bodies of
    PUT, PATCH and POST only, so generated clients sent none and always got 400."""

    def _get_request_body(self, direction: str = "request") -> Any:
        declared = self.get_request_serializer() if self.method == "DELETE" else None
        # drf_spectacular is in untyped_calls_exclude, which mypy does not apply through
        # super() (python/mypy#16653).
        if declared is None:
            return super()._get_request_body(direction)  # type: ignore[no-untyped-call]
        # (the declaration is in scope of DELETE only: it is handed over as it is)
        self.method, self.get_request_serializer = "POST", lambda: declared  # type: ignore[method-assign]
        try:
            return super()._get_request_body(direction)  # type: ignore[no-untyped-call]
        finally:
            self.method = "DELETE"
            del self.get_request_serializer


# The OpenAPI document drf-spectacular builds, as JSON objects the hooks edit in place (or a
# part of it: a component, the schemas): its shape is OpenAPI's, not one Python type, so its
# values are untyped, this module's edge.
OpenApiDocument = dict[str, Any]

NDJSON = "application/x-ndjson"
BYTES = "application/octet-stream"
BINARY = {"type": "string", "format": "binary"}


def ndjson_items(result: OpenApiDocument) -> None:
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


# ---- the schema's final touches (a drf-spectacular postprocessing hook) -----------------------

# OpenAPI links: from a game's answer to the operations on that game (`$response.body#/id`).
GAME_LINKS = {
    "games_get": "the game",
    "games_actions_create": "play an action",
    "games_actions_list": "the action log",
    "games_legal_actions": "the legal actions now",
    "games_text": "the table in words",
    "games_hint": "a hint",
    "games_analysis": "where the win was lost (R37), once the game has ended",
}


def schema_finish(result: OpenApiDocument, **kwargs: object) -> OpenApiDocument:
    """Request bodies take no field they do not list (the views reject unknown fields), and game
    creation's answers (201, and 200 for an existing daily game) link to the operations on the
    game. (Only those: schemathesis 3 names its stateful rules by target and status, so links
    from two operations' 200s to one target would collide.)"""
    for name, component in result["components"]["schemas"].items():
        if name.endswith("Request") and component.get("type") == "object":
            component["additionalProperties"] = False
    operations = {
        operation["operationId"]
        for path in result["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    links = {
        operation_id: {
            "operationId": operation_id,
            "parameters": {"game_id": "$response.body#/id"},
            "description": description,
        }
        for operation_id, description in GAME_LINKS.items()
        if operation_id in operations
    }
    for path in result["paths"].values():
        for operation in path.values():
            if not isinstance(operation, dict):
                continue
            if operation.get("operationId") == "games_create":
                for status in ("200", "201"):
                    operation["responses"][status]["links"] = links
    return result


# ---- the contract's precision (a second hook, after schema_finish) -----------------------------

RATE_LIMIT_HEADERS = {
    "RateLimit-Limit": "requests allowed in the current window",
    "RateLimit-Remaining": "requests left in the current window",
    "RateLimit-Reset": "seconds until the current window ends",
}


def _header(description: str) -> dict[str, object]:
    return {"schema": {"type": "integer"}, "description": description}


def _throttled_operations(generator: object) -> set[tuple[str, str]]:
    """(path, method) of every operation whose view counts requests (DRF throttles)."""
    found = set()
    for path, _regex, method, view in getattr(generator, "endpoints", None) or []:
        try:
            instance = view.cls(**getattr(view, "initkwargs", {}))
            instance.request = type("SchemaRequest", (), {"method": method})()
            if instance.get_throttles():
                found.add((path, method.lower()))
        except Exception:  # a view that cannot say without a real request: none declared
            continue
    return found


def _one_component(result: OpenApiDocument, names: tuple[str, ...]) -> OpenApiDocument:
    """Request and response sides of `names` as one component each (the request side's, which
    lists what the server takes): a legal action is an action body, one schema."""
    schemas = result["components"]["schemas"]
    renames = {f"{name}Request": name for name in names if f"{name}Request" in schemas}
    for old, new in renames.items():
        schemas[new] = schemas.pop(old)
    text = json.dumps(result, default=str)  # lazy translations (descriptions) as their text
    for old, new in renames.items():
        text = text.replace(f'"#/components/schemas/{old}"', f'"#/components/schemas/{new}"')
    return json.loads(text)  # type: ignore[no-any-return]


def _defaults_in_words(component: OpenApiDocument) -> None:
    """A request field's default in its description instead of `default`: generators read
    `default` as "always present" (openapi-typescript makes such fields required, so `{}` would
    not type as a random game's body), which holds for answers, not for what a client sends."""
    for prop in component.get("properties", {}).values():
        if "default" in prop:
            default = json.dumps(prop.pop("default"))
            words = prop.get("description", "").split("\n\n")
            words[0] = f"{words[0]} (default: {default})".lstrip()
            prop["description"] = "\n\n".join(words)


def _nullable_references(schemas: OpenApiDocument) -> None:
    """drf-spectacular writes a nullable reference as `allOf: [$ref]` with `nullable: true` and
    no `type`: OpenAPI 3.0 applies `nullable` only beside a `type`, so strict validators refuse
    the `null` the server sends (GameOut.daily, Hint.action, the boards' par). It becomes what
    drf-spectacular writes for a nullable enum: `oneOf` the component and `NullEnum`."""
    null = {"$ref": "#/components/schemas/NullEnum"}
    schemas.setdefault("NullEnum", {"enum": [None]})
    for component in schemas.values():
        for prop in component.get("properties", {}).values():
            if prop.get("nullable") and "type" not in prop and len(prop.get("allOf", ())) == 1:
                prop["oneOf"] = [prop.pop("allOf")[0], null]


def _route_names() -> dict[str, str]:
    """The URL name of each route, by its path as the schema writes it (`/api/v1/games/{id}`)."""
    from django.urls import URLPattern, URLResolver, get_resolver

    names: dict[str, str] = {}

    def walk(patterns: Sequence[URLPattern | URLResolver], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and pattern.name:
                route = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", prefix + str(pattern.pattern))
                names["/" + route] = pattern.name

    walk(get_resolver().url_patterns, "")
    return names


def _scopes_declared(result: OpenApiDocument) -> None:
    """Which scope each operation needs (accounts/scopes.py), where generators and readers see it:
    `x-scopes` on every operation, and an `oauth2` scheme (authorization code with PKCE, the
    four scopes) that operations needing a scope list with it. An API key's scopes are the
    same; OpenAPI 3.0 gives scopes to OAuth schemes only, hence `x-scopes`."""
    from accounts.scopes import BOARD_READ, SCOPE_WORDS, operation_scope

    result["components"].setdefault("securitySchemes", {})["oauth2"] = {
        "type": "oauth2",
        "description": "OAuth 2.0 for third-party apps: authorization code with PKCE (S256).",
        "flows": {
            "authorizationCode": {
                "authorizationUrl": "/oauth/authorize",
                "tokenUrl": "/oauth/token",
                "refreshUrl": "/oauth/token",
                "scopes": {scope: str(words) for scope, words in SCOPE_WORDS.items()},
            }
        },
    }
    result["security"].insert(-1, {"oauth2": [BOARD_READ]})  # (the operations that inherit it)
    names = _route_names()
    for path, item in result["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            scope = operation_scope(names.get(path), method.upper())
            operation["x-scopes"] = [scope] if scope else []
            security = operation.get("security")
            if scope and security:
                security.append({"oauth2": [scope]})


def schema_contract(
    result: OpenApiDocument, generator: object = None, **kwargs: object
) -> OpenApiDocument:
    """What generated clients need to use the API without a workaround:
    - one component per action type, the same for a body and for a legal action or a hint;
    - request fields' defaults in words (`_defaults_in_words`);
    - operations anonymous callers may use take a key optionally: the root `security` lists
      no requirement (`{}`) beside the key and the session, those operations inherit it (code
      generators read an operation's own `security` as required), and those that take no
      credentials at all say so (`security: []`);
    - a body is required where there is one (`{}` for a random game: a model even when
      empty), as the server requires it;
    - the rate-limit headers on every answer of a throttled operation, `Retry-After` on 429s;
    - a nullable reference as `oneOf` the component and `NullEnum` (`_nullable_references`);
    - a request example on every operation that takes parameters or a body
      (canfield_site/examples.py)."""
    from canfield_site.examples import examples_written
    from games.api import ACTION_COMPONENTS

    result = _one_component(result, ACTION_COMPONENTS)
    _nullable_references(result["components"]["schemas"])
    for name, component in result["components"]["schemas"].items():
        if name.endswith("Request") or name in ACTION_COMPONENTS:
            _defaults_in_words(component)
    throttled = _throttled_operations(generator)
    result["security"] = [{"tokenAuth": []}, {"cookieAuth": []}, {}]
    for path, item in result["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict):
                continue
            security = operation.get("security")
            if security is None:
                operation["security"] = []
            elif {} in security:
                del operation["security"]
            # DRF's `?format=` override (the NDJSON renderers add one): the Accept header is
            # the documented way.
            parameters = [
                parameter
                for parameter in operation.get("parameters", [])
                if (parameter["name"], parameter["in"]) != ("format", "query")
            ]
            if parameters:
                operation["parameters"] = parameters
            else:
                operation.pop("parameters", None)
            if "requestBody" in operation:  # every body the API takes is a JSON object
                operation["requestBody"]["required"] = True
            if (path, method) in throttled:
                for status, response in operation["responses"].items():
                    headers = response.setdefault("headers", {})
                    headers.update(
                        (name, _header(text)) for name, text in RATE_LIMIT_HEADERS.items()
                    )
                    if status == "429":
                        headers["Retry-After"] = _header("seconds to wait before retrying")
    _scopes_declared(result)
    ndjson_items(result)
    examples_written(result)
    return result
