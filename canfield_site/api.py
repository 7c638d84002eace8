"""Pieces every part of the API shares: the ping floor, pages, and the schema's final touches."""

import json
import re
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from games.errors import CODES, InvalidRequest, NotFound, UnknownParameter, error_body
from keys.scopes import ScopeRequired

MAX_PAGE_SIZE = 100
MAX_PAGE = 10**9 - 1


# ---- the one error shape in the schema ----------------------------------------------------------


def _text(help_text: str) -> serializers.CharField:
    return serializers.CharField(required=False, help_text=help_text)


def _number(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(required=False, help_text=help_text)


class ErrorParamsSerializer(serializers.Serializer):
    """An error's `params`: each names what its `reason` speaks of (docs/api.md "Reasons";
    new reasons may be added, with their own params)."""

    reason = _text("why: a stable name (docs/api.md, Reasons)")
    card = _text("a card, e.g. 10H")
    onto = _text("the card it would go onto")
    next = _text("the card a foundation takes next")
    foundation = _text("a foundation pile, e.g. foundation:H")
    pile = _text("a pile name")
    holds = _number("cards the pile holds")
    count = _number("cards asked for")
    missing_scope = _text("forbidden: the scope the key lacks (e.g. game:play)")
    ranked = serializers.BooleanField(
        required=False, help_text="standing: whether the account may play ranked (R36)"
    )
    until = serializers.DateTimeField(
        required=False, allow_null=True, help_text="standing: when the account is old enough"
    )
    games_needed = _number("standing: finished games the account still needs (R36)")
    player = _text("standing: the challenged player who is not in good standing (R36)")
    challenge = _text("challenge_pending: the id of the pending challenge")
    status = _text("challenge_closed: what became of the challenge")
    parameters = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="unknown_parameter: the query parameters the operation does not take",
    )


class MoveErrorParamsSerializer(ErrorParamsSerializer):
    """`params` of illegal_move and no_destination: always a `reason`."""

    reason = serializers.CharField(help_text="why: a stable name (docs/api.md, Reasons)")


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(CODES), help_text="stable; never translated")
    message = serializers.CharField(help_text="in the language of Accept-Language (en, hu, pl)")
    rule = serializers.RegexField(
        r"^R[0-9]+[a-z]?$", required=False, help_text="the rule broken (docs/rules.md), if any"
    )
    params = ErrorParamsSerializer(
        required=False,
        help_text=(
            "illegal_move and no_destination: `reason` and its cards/piles/numbers, for "
            "clients that word the message themselves (docs/api.md lists them); forbidden: "
            "`missing_scope`, where a key lacks the scope an operation needs; standing: "
            "`ranked`, `until` and `games_needed` (R36), as `GET account` shows them, or "
            "`player` for a challenged player; challenge_pending: `challenge`; "
            "challenge_closed: `status`"
        ),
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


class MoveErrorDetailSerializer(ErrorDetailSerializer):
    code = serializers.ChoiceField(choices=["illegal_move", "no_destination"])
    params = MoveErrorParamsSerializer(help_text="the reason and what it speaks of")


class MoveErrorSerializer(serializers.Serializer):
    """A 422: the rules refused the action; `params` always says why."""

    error = MoveErrorDetailSerializer()


ERROR_EXAMPLE = OpenApiExample(
    "illegal_move",
    value=error_body(
        "illegal_move",
        "The ten of hearts cannot go on the nine of diamonds: they are the same colour.",
        "R12",
        {"reason": "same_colour", "card": "10H", "onto": "9D"},
    ),
    response_only=True,
    status_codes=["422"],
)

# What each error status means, for the schema's descriptions.
ERROR_STATUSES = {
    400: "invalid_request, invalid_code, invalid_deck or unknown_parameter",
    401: "not_authenticated: no valid token (or session)",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable: the API answers application/json only",
    409: "stale, game_over, cannot_finish (R20b), deal_hidden (R37), challenge_pending or "
    "challenge_closed",
    415: "unsupported_media_type: send application/json",
    422: "illegal_move or no_destination",
    429: "throttled (Retry-After says when to retry), or too_many_streams (a game stream)",
    503: "unavailable; Retry-After says when to retry",
}


def answers(
    ok: dict[Any, Any], *statuses: int, body: bool = False, database: bool = True
) -> dict[Any, Any]:
    """An operation's responses: `ok`, the error `statuses` it can answer, and those every
    operation can (405, 406; 415 with a request `body`; 503 if it reads the `database`), each
    in the one error shape."""
    always = {405, 406} | ({415} if body else set()) | ({503} if database else set())
    errors = {
        status: OpenApiResponse(
            MoveErrorSerializer if status == 422 else ErrorSerializer,
            description=ERROR_STATUSES[status],
            examples=[ERROR_EXAMPLE] if status == 422 else None,
        )
        for status in sorted(set(statuses) | always)
    }
    return {**ok, **errors}


class PingApi(APIView):
    """The cheapest DRF request the stack can serve: bench/api.py's floor."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny, ScopeRequired]

    @extend_schema(
        responses=answers(
            {200: inline_serializer("Pong", {"pong": serializers.BooleanField()})}, database=False
        ),
        summary="Answers without touching the database",
        operation_id="ping",
        auth=[],
    )
    def get(self, request: Request) -> Response:
        return Response({"pong": True})


# ---- pages: every list answers {"count", "next", "previous", "results"} the same way ----------


def _whole_message(name: str, highest: int) -> str:
    return _("%(name)s must be a whole number from 1 to %(highest)s.") % {
        "name": name,
        "highest": highest,
    }


def whole_number(name: str, highest: int, **kwargs: Any) -> serializers.IntegerField:
    """A query's whole number from 1 to `highest`, refused in page_params' words (in the
    language of the request that is refused)."""
    message = lazy(_whole_message, str)(name, highest)
    kinds = ("invalid", "min_value", "max_value", "max_string_length")
    return serializers.IntegerField(
        min_value=1,
        max_value=highest,
        required=False,
        error_messages=dict.fromkeys(kinds, message),
        **kwargs,
    )


class QueryBooleanField(serializers.BooleanField):
    """A query's `true` or `false`, nothing else (DRF's takes yes, on, 1...)."""

    TRUE_VALUES = {"true"}
    FALSE_VALUES = {"false"}
    NULL_VALUES: set[str] = set()


class PageQuerySerializer(serializers.Serializer):
    """The query of every list (`query_read` checks it; page_params reads the page)."""

    page = whole_number("page", MAX_PAGE, default=1)
    page_size = whole_number("page_size", MAX_PAGE_SIZE, help_text="default: see the list")


# DRF's own override of content negotiation (`?format=ndjson`): taken by every operation.
ALWAYS_TAKEN = frozenset({"format"})


def _query_problem(field: serializers.Field, name: str, problem: Any) -> str:
    """What is wrong with a query parameter, in words that name it."""
    if getattr(problem, "code", None) == "invalid_choice":
        choices = ", ".join(str(choice) for choice in field.choices)  # type: ignore[attr-defined]
        return _("%(name)s must be one of: %(choices)s.") % {"name": name, "choices": choices}
    if str(problem).startswith(name):  # worded whole already
        return str(problem)
    if isinstance(field, serializers.BooleanField):
        return _("%(name)s must be true or false.") % {"name": name}
    if isinstance(field, serializers.DateTimeField):
        return _("%(name)s must be a time (ISO 8601, like 2026-12-05T10:00:00Z) or a date.") % {
            "name": name
        }
    if isinstance(field, serializers.ListField):
        return _("%(name)s takes at most %(max)s ids, each a UUID.") % {
            "name": name,
            "max": field.max_length,
        }
    return _("%(name)s: %(problem)s") % {"name": name, "problem": problem}


def query_unknown(request: Request, serializer: type[serializers.Serializer]) -> None:
    """400 unknown_parameter naming every query parameter `serializer` does not list."""
    known = set(serializer().fields) | ALWAYS_TAKEN
    unknown = sorted(name for name in request.query_params if name not in known)
    if unknown:
        raise UnknownParameter(
            ngettext(
                "Unknown query parameter: %(names)s.",
                "Unknown query parameters: %(names)s.",
                len(unknown),
            )
            % {"names": ", ".join(unknown)[:200]},
            params={"parameters": [name[:100] for name in unknown[:20]]},
        )


def query_read(request: Request, serializer: type[serializers.Serializer]) -> dict[str, Any]:
    """The query of a request as `serializer` reads it (the same serializer documents the
    operation's parameters in the schema): 400 unknown_parameter naming every parameter it does
    not list (`query_unknown`), 400 invalid_request for a value it refuses or a parameter given
    twice. A list field takes its values repeated (`ids=a&ids=b`), comma-separated, or both."""
    query_unknown(request, serializer)
    fields = serializer().fields
    data: dict[str, Any] = {}
    for name, values in request.query_params.lists():
        if isinstance(fields.get(name), serializers.ListField):
            data[name] = [part for value in values for part in value.split(",")]
        elif len(values) > 1:
            raise InvalidRequest(_("Give %(name)s once.") % {"name": name[:100]})
        else:
            data[name] = values[0]
    reader = serializer(data=data)
    if not reader.is_valid():
        name, problems = next(iter(reader.errors.items()))
        if isinstance(problems, dict):  # a list field's: by the index of the wrong item
            problems = next(iter(problems.values()))
        raise InvalidRequest(_query_problem(reader.fields[name], name, problems[0]))
    return dict(reader.validated_data)


def _whole(text: str, name: str, highest: int) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= highest:
        raise InvalidRequest(_whole_message(name, highest))
    return int(text)


def page_params(request: Request, *, default_size: int) -> tuple[int, int]:
    """`page` and `page_size` of a list request; 400 invalid_request unless whole numbers in
    range (a page past the last is page_links' 404)."""
    page = request.query_params.get("page")
    size = request.query_params.get("page_size")
    return (
        1 if page is None else _whole(page[:12], "page", MAX_PAGE),
        default_size if size is None else _whole(size[:12], "page_size", MAX_PAGE_SIZE),
    )


def page_links(request: Request, *, page: int, size: int, count: int) -> dict[str, Any]:
    """`count`, `next` and `previous` of a page; 404 not_found past the last page (page 1 of
    an empty list is an empty page)."""
    pages = max(1, -(-count // size))
    if page > pages:
        raise NotFound(
            _("Page %(page)s is past the last page (%(pages)s).") % {"page": page, "pages": pages}
        )
    url = request.build_absolute_uri()
    previous = None
    if page == 2:
        previous = remove_query_param(url, "page")
    elif page > 2:
        previous = replace_query_param(url, "page", page - 1)
    return {
        "count": count,
        "next": replace_query_param(url, "page", page + 1) if page < pages else None,
        "previous": previous,
    }


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


def schema_finish(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
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


def _header(description: str) -> dict[str, Any]:
    return {"schema": {"type": "integer"}, "description": description}


def _throttled_operations(generator: Any) -> set[tuple[str, str]]:
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


def _one_component(result: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
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


def _defaults_in_words(component: dict[str, Any]) -> None:
    """A request field's default in its description instead of `default`: generators read
    `default` as "always present" (openapi-typescript makes such fields required, so `{}` would
    not type as a random game's body), which holds for answers, not for what a client sends."""
    for prop in component.get("properties", {}).values():
        if "default" in prop:
            default = json.dumps(prop.pop("default"))
            words = prop.get("description", "").split("\n\n")
            words[0] = f"{words[0]} (default: {default})".lstrip()
            prop["description"] = "\n\n".join(words)


def _nullable_references(schemas: dict[str, Any]) -> None:
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

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and pattern.name:
                route = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", prefix + str(pattern.pattern))
                names["/" + route] = pattern.name

    walk(get_resolver().url_patterns, "")
    return names


def _scopes_declared(result: dict[str, Any]) -> None:
    """Which scope each operation needs (keys/scopes.py), where generators and readers see it:
    `x-scopes` on every operation, and an `oauth2` scheme (authorization code with PKCE, the
    four scopes) that operations needing a scope list with it. An API key's scopes are the
    same; OpenAPI 3.0 gives scopes to OAuth schemes only, hence `x-scopes`."""
    from keys.scopes import BOARD_READ, SCOPE_WORDS, operation_scope

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


def schema_contract(result: dict[str, Any], generator: Any = None, **kwargs: Any) -> dict[str, Any]:
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
    from canfield_site.schema import ndjson_items
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
