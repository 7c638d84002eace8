"""Pieces every part of the API shares: the ping floor, pages, and the schema's final touches."""

from typing import Any

from django.utils.translation import gettext as _
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

from games.errors import CODES, InvalidRequest, NotFound, error_body

MAX_PAGE_SIZE = 100
MAX_PAGE = 10**9 - 1


# ---- the one error shape in the schema ----------------------------------------------------------


class ErrorDetailSerializer(serializers.Serializer):
    code = serializers.ChoiceField(choices=list(CODES), help_text="stable; never translated")
    message = serializers.CharField(help_text="in the language of Accept-Language (en, hu, pl)")
    rule = serializers.RegexField(
        r"^R[0-9]+[a-z]?$", required=False, help_text="the rule broken (RULES.md), if any"
    )
    params = serializers.DictField(
        required=False,
        help_text=(
            "illegal_move and no_destination: `reason` and its cards/piles/numbers, for "
            "clients that word the message themselves (docs/api.md lists them)"
        ),
    )


class ErrorSerializer(serializers.Serializer):
    error = ErrorDetailSerializer()


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
    400: "invalid_request, invalid_code or invalid_deck",
    401: "not_authenticated: no valid token (or session)",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable: the API answers application/json only",
    409: "stale or game_over",
    415: "unsupported_media_type: send application/json",
    422: "illegal_move or no_destination",
    429: "throttled; Retry-After says when to retry",
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
            ErrorSerializer,
            description=ERROR_STATUSES[status],
            examples=[ERROR_EXAMPLE] if status == 422 else None,
        )
        for status in sorted(set(statuses) | always)
    }
    return {**ok, **errors}


class PingApi(APIView):
    """The cheapest DRF request the stack can serve: bench/api.py's floor."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]

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


class PageQuerySerializer(serializers.Serializer):
    """The query of every list (documentation; page_params parses it)."""

    page = serializers.IntegerField(min_value=1, max_value=MAX_PAGE, required=False, default=1)
    page_size = serializers.IntegerField(
        min_value=1, max_value=MAX_PAGE_SIZE, required=False, help_text="default: see the list"
    )


def _whole(text: str, name: str, highest: int) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= highest:
        raise InvalidRequest(
            _("%(name)s must be a whole number from 1 to %(highest)s.")
            % {"name": name, "highest": highest}
        )
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
