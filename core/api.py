"""Pieces every part of the API shares: the error shape in the schema, the answers, the query
readers and pages."""

from collections.abc import Sequence
from typing import Any, TypedDict, Unpack

from django.core.validators import ProhibitNullCharactersValidator
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
)
from rest_framework import serializers
from rest_framework.exceptions import UnsupportedMediaType
from rest_framework.request import Request
from rest_framework.utils.urls import remove_query_param, replace_query_param

from core.errors import CODES, InvalidRequest, NotFound, UnknownParameter, error_body

MAX_PAGE_SIZE = 100
MAX_PAGE = 10**9 - 1


# ---- the one error shape in the schema ----------------------------------------------------------


def _text(help_text: str) -> serializers.CharField:
    return serializers.CharField(required=False, help_text=help_text)


def _number(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(required=False, help_text=help_text)


class ErrorParamsSerializer(serializers.Serializer[object]):
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


class ErrorDetailSerializer(serializers.Serializer[object]):
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


class ErrorSerializer(serializers.Serializer[object]):
    error = ErrorDetailSerializer()


class MoveErrorDetailSerializer(ErrorDetailSerializer):
    code = serializers.ChoiceField(choices=["illegal_move", "no_destination"])
    params = MoveErrorParamsSerializer(help_text="the reason and what it speaks of")


class MoveErrorSerializer(serializers.Serializer[object]):
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


# ---- pages: every list answers {"count", "next", "previous", "results"} the same way ----------


def _whole_message(name: str, highest: int) -> str:
    return _("%(name)s must be a whole number from 1 to %(highest)s.") % {
        "name": name,
        "highest": highest,
    }


class WholeNumberField(serializers.IntegerField):
    """A query's whole number in plain digits (DRF's also takes " 5", "+5" and "5.0")."""

    def to_internal_value(self, data: object) -> int:
        if not isinstance(data, str) or not data.isascii() or not data.isdigit():
            self.fail("invalid")
        return super().to_internal_value(data)


class WholeNumberOptions(TypedDict, total=False):
    """What a query's whole number may say beyond its bounds."""

    default: int
    help_text: str


def whole_number(name: str, highest: int, **kwargs: Unpack[WholeNumberOptions]) -> WholeNumberField:
    """A query's whole number from 1 to `highest`, refused in these words (in the language of
    the request that is refused)."""
    message = lazy(_whole_message, str)(name, highest)
    kinds = ("invalid", "min_value", "max_value", "max_string_length")
    return WholeNumberField(
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
    NULL_VALUES: set[str | None] = set()


class PageQuerySerializer(serializers.Serializer[object]):
    """The query of every list (`query_read` reads it; `page_params` takes the page)."""

    page = whole_number("page", MAX_PAGE, default=1)
    page_size = whole_number("page_size", MAX_PAGE_SIZE, help_text="default: see the list")


# The code of a refusal worded whole by its field (`query_read` and `body_read` answer it as it
# is, not prefixed with the field's name).
WORDED = "worded"

# DRF's own override of content negotiation (`?format=ndjson`): taken by every operation.
ALWAYS_TAKEN = frozenset({"format"})


def _query_problem(field: serializers.Field[Any, Any, Any, Any], name: str, problem: object) -> str:
    """What is wrong with a query parameter, in words that name it."""
    if getattr(problem, "code", None) == WORDED or str(problem).startswith(name):
        return str(problem)
    if getattr(problem, "code", None) == "invalid_choice":
        return str(one_of(name, list(field.choices)))  # type: ignore[attr-defined]
    if isinstance(field, serializers.BooleanField):
        return str(true_or_false(name))
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


def _query_unknown(request: Request, serializer: type[serializers.Serializer[object]]) -> None:
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


# What the readers give (`query_read`, `body_read`: a serializer's validated_data; `body_object`:
# a JSON object) is dict[str, Any]: the serializer or the caller checks its shape (the edge).
def query_read(
    request: Request, serializer: type[serializers.Serializer[object]]
) -> dict[str, Any]:
    """The query of a request as `serializer` reads it (the same serializer documents the
    operation's parameters in the schema): 400 unknown_parameter naming every parameter it does
    not list (`_query_unknown`), 400 invalid_request for a value it refuses or a parameter given
    twice. A list field takes its values repeated (`ids=a&ids=b`), comma-separated, or both."""
    _query_unknown(request, serializer)
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


def page_params(query: dict[str, Any], *, default_size: int) -> tuple[int, int]:
    """`page` and `page_size` of a list's query as `query_read` read it (PageQuerySerializer's
    fields); a page past the last is page_links' 404."""
    return query["page"], query.get("page_size", default_size)


def page_links(request: Request, *, page: int, size: int, count: int) -> dict[str, object]:
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


# ---- bodies: a JSON object, read by the serializer that documents it -------------------------

# Every code a field of a body can refuse with (`refused` words them all alike).
REFUSALS = (
    "required", "null", "blank", "invalid", "invalid_choice", "min_length", "max_length",
    "min_value", "max_value", "max_string_length", "not_a_list", "empty",
    "null_characters_not_allowed", "surrogate_characters_not_allowed",
)  # fmt: skip


def refused(message: StrOrPromise) -> dict[str, StrOrPromise]:
    """A body field's error_messages: whatever is wrong with it, `message` (a lazy text that
    names the field) says so."""
    return dict.fromkeys(REFUSALS, message)


def _one_of(name: str, choices: str) -> str:
    return _("%(name)s must be one of: %(choices)s.") % {"name": name, "choices": choices}


def one_of(name: str, choices: Sequence[object]) -> str:
    """The refusal of a choice `name` that is not one of `choices`, as a lazy text."""
    return lazy(_one_of, str)(name, ", ".join(map(str, choices)))


def _true_or_false(name: str) -> str:
    return _("%(name)s must be true or false.") % {"name": name}


def true_or_false(name: str) -> str:
    """The refusal of a flag `name` that is not true or false, as a lazy text."""
    return lazy(_true_or_false, str)(name)


class JsonTextField(serializers.CharField):
    """A JSON string, nothing else (DRF's also takes a number and makes it text). `allow_nul`:
    a NUL in it is the service's to refuse (a name no player has, a wrong password)."""

    def __init__(self, *, allow_nul: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if allow_nul:
            self.validators = [
                validator
                for validator in self.validators
                if not isinstance(validator, ProhibitNullCharactersValidator)
            ]

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class JsonIntegerField(serializers.IntegerField):
    """A JSON whole number, nothing else (DRF's also takes "3", 3.0 and true)."""

    def to_internal_value(self, data: object) -> int:
        if type(data) is not int:
            self.fail("invalid")
        return super().to_internal_value(data)


class JsonChoiceField(serializers.ChoiceField):
    """One of the choices as JSON gives it (DRF's also takes "3" for 3)."""

    # Any: djangorestframework-stubs type a choice as text; it is the choice's own value (3).
    def to_internal_value(self, data: Any) -> Any:
        value = super().to_internal_value(data)
        if type(value) is not type(data):
            self.fail("invalid_choice", input=data)
        return value


class JsonBooleanField(serializers.BooleanField):
    """A JSON true or false, nothing else (DRF's also takes "yes", 1...)."""

    def to_internal_value(self, data: object) -> bool:
        if type(data) is not bool:
            self.fail("invalid")
        return data


def body_object(request: Request, *, required: bool = True) -> dict[str, Any]:
    """The request's body, a JSON object: the one place a view's body is taken from the
    request. No body at all is `{}` unless `required` (then 415 unless the request says it is
    JSON, else 400: DRF would give `{}` whatever the type)."""
    if request.stream is None and required:
        if request.content_type.split(";")[0].strip() != "application/json":
            raise UnsupportedMediaType(request.content_type[:100])
        raise InvalidRequest(_("The body must be a JSON object."))
    data = request.data
    if not isinstance(data, dict):
        raise InvalidRequest(_("The body must be a JSON object."))
    return data


def body_read(
    request: Request, serializer: type[serializers.Serializer[object]], *, required: bool = True
) -> dict[str, Any]:
    """The body of a request as `serializer` reads it (the same serializer documents it in the
    schema): 400 invalid_request for a body that is not a JSON object (`body_object`), for the
    fields `serializer` does not list, and for the first field it refuses, in that field's
    words (`refused`)."""
    data = body_object(request, required=required)
    reader = serializer(data=data)
    unknown = sorted(str(key) for key in data if key not in reader.fields)
    if unknown:
        raise InvalidRequest(
            _("Unknown field(s): %(fields)s.") % {"fields": ", ".join(unknown)[:200]}
        )
    if not reader.is_valid():
        problems = next(iter(reader.errors.values()))
        if isinstance(problems, dict):  # a list field's: by the index of the wrong item
            problems = next(iter(problems.values()))
        raise InvalidRequest(str(problems[0]))
    return dict(reader.validated_data)
