"""The contract in the repository stays true: docs/api.md, docs/asyncapi.yaml and the live
OpenAPI schema agree with each other and with the server.

tests/games/data/asyncapi-3.0.0.schema.json is the JSON schema of AsyncAPI 3.0.0 as the AsyncAPI
initiative publishes it (npm @asyncapi/specs 6.11.1, schemas/3.0.0-without-$id.json, Apache-2.0),
stored here so that the check runs offline.
"""

import json
import random
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from openapi_spec_validator import validate

from core import sockets
from core.errors import CODES, REASONS, reason_message
from games.engine import Action, EngineError, Game
from games.engine.actions import ACTION_TYPES, PILE_NAMES
from leaderboard import consumers

ROOT = Path(__file__).resolve().parents[2]
API_MD = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
ASYNCAPI = yaml.safe_load((ROOT / "docs" / "asyncapi.yaml").read_text(encoding="utf-8"))
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def table(heading_cell: str) -> list[list[str]]:
    """The rows of the docs/api.md table whose header starts with `heading_cell`."""
    lines = API_MD.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {heading_cell} |"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def ticks(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def resolve(document: dict, ref: str) -> object:
    node: object = document
    for part in ref.removeprefix("#/").split("/"):
        assert isinstance(node, dict) and part in node, ref
        node = node[part]
    return node


def refs(node: object) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [ref for value in node.values() for ref in refs(value)]
    if isinstance(node, list):
        return [ref for value in node for ref in refs(value)]
    return []


# ---- OpenAPI -----------------------------------------------------------------------------------


def test_the_schema_is_valid_openapi(schema):
    validate(schema)


def test_docs_list_exactly_the_schemas_operations(schema):
    in_schema = {
        (method.upper(), re.sub(r"\{[^}]+\}", "{}", path))
        for path, item in schema["paths"].items()
        for method in item
        if method in METHODS
    }
    in_docs = {
        (method, re.sub(r"\{[^}]+\}", "{}", path.split("?")[0]))
        for method, path in re.findall(r"`(GET|POST|PUT|PATCH|DELETE) (/api/v1/[^` ]*)", API_MD)
        if path != "/api/v1/schema/"
    }
    assert in_docs == in_schema


def test_error_codes_agree_in_docs_schema_and_server(schema):
    documented = {ticks(code)[0]: int(status) for code, status, _ in table("code")}
    enum = schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]

    assert documented == CODES
    assert set(enum) == set(CODES)


def test_every_error_answer_is_the_one_error_shape_and_every_operation_lists_the_general_ones(
    schema,
):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            statuses = operation["responses"]
            for status, response in statuses.items():
                if int(status) >= 400:
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    # a 422's params are typed: always a reason (MoveError is Error's shape)
                    shape = "MoveError" if status == "422" else "Error"
                    assert ref == f"#/components/schemas/{shape}", (path, method, status)
            assert {"405", "406"} <= set(statuses), (path, method)
            assert ("503" in statuses) == (path != "/api/v1/ping"), (path, method)
            if "requestBody" in operation:
                assert "415" in statuses, (path, method)


def test_throttled_operations_and_only_they_list_429(schema):
    throttled = {
        f"{method.upper()} {path}"
        for cells in table("endpoint")
        for method, path in [ticks(cells[0])[0].split(" ", 1)]
    }
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            name = f"{method.upper()} {re.sub(r'{game_id}', '{id}', path)}"
            assert ("429" in operation["responses"]) == (name in throttled), name


def test_what_the_server_returns_uses_the_enums_it_accepts(schema):
    components = schema["components"]["schemas"]
    # a legal action (and a hint's) is an action body: the one schema, a oneOf keyed by type
    legal = schema["paths"]["/api/v1/games/{game_id}/legal-actions"]["get"]["responses"]["200"]
    sent = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]["requestBody"]
    action = {"$ref": "#/components/schemas/Action"}
    assert legal["content"]["application/json"]["schema"]["items"] == action
    assert sent["content"]["application/json"]["schema"] == action and sent["required"]
    null = {"$ref": "#/components/schemas/NullEnum"}
    assert components["Hint"]["properties"]["action"]["oneOf"] == [action, null]
    mapping = components["Action"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(ACTION_TYPES)
    assert not any(name.endswith("ActionRequest") for name in components)

    def enum(prop):
        return prop.get("$ref") or prop["allOf"][0]["$ref"]

    move, tap = components["MoveAction"]["properties"], components["TapAction"]["properties"]
    assert enum(move["from"]) == enum(tap["from"]) == "#/components/schemas/ConcretePileEnum"
    assert enum(move["to"]) == "#/components/schemas/PileEnum" and "to" not in tap
    assert enum(components["ErrorDetail"]["properties"]["code"]).endswith("/ErrorCodeEnum")
    assert "ErrorOut" not in components


def test_formats_pages_and_the_oneof_of_game_creation(schema):
    for path, item in schema["paths"].items():
        for operation in item.values():
            for parameter in operation.get("parameters", []):
                name, param_schema = parameter["name"], parameter["schema"]
                if name == "game_id":
                    assert param_schema["format"] == "uuid", path
                if name == "date":
                    assert param_schema["format"] == "date", path
                if name in ("page", "page_size"):
                    assert param_schema["minimum"] == 1, path
                if name == "page_size":
                    assert param_schema["maximum"] == 100, path
    components = schema["components"]["schemas"]
    one_of = components["GameCreateRequest"]["oneOf"]
    assert len(one_of) == 4
    bodies = [resolve(schema, option["$ref"]) for option in one_of]
    assert all(body["additionalProperties"] is False for body in bodies)
    assert components["GameOut"]["properties"]["id"]["format"] == "uuid"


def test_game_creation_answers_200_and_201_with_links_to_the_games_operations(schema):
    create = schema["paths"]["/api/v1/games"]["post"]
    operation_ids = {
        operation["operationId"] for item in schema["paths"].values() for operation in item.values()
    }

    for status in ("200", "201"):
        links = create["responses"][status]["links"]
        assert {"games_get", "games_actions_create", "games_legal_actions"} <= set(links)
        for link in links.values():
            assert link["operationId"] in operation_ids
            assert link["parameters"] == {"game_id": "$response.body#/id"}
    assert create["requestBody"]["content"]["application/json"]["examples"]


# ---- errors in words ---------------------------------------------------------------------------

SAMPLE_PARAMS = {
    "card": "10H", "onto": "JS", "next": "QH", "pile": "tableau:2", "foundation": "foundation:D",
    "holds": 2, "count": 3, "index": 7, "field": "type", "allowed": "move, draw",
    "fields": "colour", "cards": "AH, 2H", "status": "won", "characters": "0, 1",
    "format": "CF1", "length": 7, "got": 6,
}  # fmt: skip


def documented_reasons() -> dict[str, list[str]]:
    return {ticks(reason)[0]: ticks(params) for reason, params, *_ in table("reason")}


def test_docs_list_every_reason_the_server_words():
    assert set(documented_reasons()) == set(REASONS) | {"column_too_short"}


@pytest.mark.parametrize("reason", sorted(documented_reasons()))
def test_every_reason_is_worded_in_every_language_from_its_documented_params(reason):
    params = {name: SAMPLE_PARAMS[name] for name in documented_reasons()[reason]}
    words = {}
    for lang in ("en", "hu", "pl"):
        with translation.override(lang):
            words[lang] = reason_message(reason, params)
    assert all(words.values()), words
    assert words["hu"] != words["en"] and words["pl"] != words["en"]


def test_every_reason_the_engine_gives_is_documented():
    documented = documented_reasons()
    seen: dict[str, set[str]] = {}
    piles = [pile for pile in PILE_NAMES]
    chooser = random.Random(13)
    for deal in range(40):
        ruleset = ("app", "cardgames", "classic")[deal % 3]
        game = Game.deal(deal, ruleset=ruleset, draw=3)
        for _ in range(300):
            kind = chooser.choice(["move", "move", "move", "tap", "draw", "recycle", "undo"])
            data = {"type": kind}
            if kind in ("move", "tap"):
                data["from"] = chooser.choice(piles[:-1])
                data["count"] = chooser.choice([1, 1, 1, 2, 5])
            if kind == "move":
                data["to"] = chooser.choice(piles)
            try:
                game.apply(Action.from_dict(data))
            except EngineError as error:
                seen.setdefault(error.reason, set()).update(error.params)
    for bad in ({"type": "jump"}, {"type": "draw", "x": 1}, [], {"type": "move", "from": "x"}):
        try:
            Action.from_dict(bad)
        except EngineError as error:
            seen.setdefault(error.reason, set()).update(error.params)

    assert len(seen) >= 15, seen
    for reason, params in seen.items():
        assert reason in documented, reason
        assert params <= set(documented[reason]), (reason, params)


# ---- AsyncAPI ----------------------------------------------------------------------------------


def test_the_websocket_document_is_valid_asyncapi_3():
    spec = json.loads((Path(__file__).parent / "data" / "asyncapi-3.0.0.schema.json").read_text())

    jsonschema.Draft7Validator(spec).validate(ASYNCAPI)
    assert ASYNCAPI["asyncapi"] == "3.0.0"
    for ref in refs(ASYNCAPI):
        resolve(ASYNCAPI, ref)


def test_the_websocket_examples_match_their_payload_schemas():
    components = ASYNCAPI["components"]
    for name, message in components["messages"].items():
        payload = resolve(ASYNCAPI, message["payload"]["$ref"])
        resolver = jsonschema.validators.RefResolver.from_schema(ASYNCAPI)
        assert message["examples"], name
        for example in message["examples"]:
            jsonschema.Draft7Validator(payload, resolver=resolver).validate(example["payload"])


def test_every_close_code_of_the_server_is_documented_in_both_documents():
    codes = {
        str(value)
        for module in (consumers, sockets)
        for name, value in vars(module).items()
        if name.startswith("CLOSE_") and isinstance(value, int)
    }
    in_md = {ticks(cells[0])[0] if ticks(cells[0]) else cells[0] for cells in table("close code")}

    assert {"4400", "4404", "4429"} <= codes
    assert codes <= set(ASYNCAPI["info"]["x-close-codes"])
    assert codes <= in_md
    assert ASYNCAPI["channels"]["dailyBoard"]["address"] == "/ws/daily/{date}/{draw}/"


# ---- README ------------------------------------------------------------------------------------


def test_the_readme_links_the_contract_and_no_file_a_clone_lacks():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")

    assert "(docs/api.md)" in readme and "(docs/asyncapi.yaml)" in readme
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), target
    assert "`docs/api.md`" not in readme


def test_the_websocket_document_has_the_apis_version():
    # one number for the API, its schema, its client and the WebSocket document
    version = SchemaGenerator().get_schema(request=None, public=True)["info"]["version"]
    assert ASYNCAPI["info"]["version"] == version
