"""The schema's request examples (canfield_site/examples.py) stay true: every operation that takes
parameters or a body has one, and every example, sent to a live server (the uvicorn subprocess of
tests/clients/conftest.py) with the fixture world's ids in place of the example's, is answered
with a 2xx whose body (or each NDJSON line) validates against the operation's documented schema
under a strict OpenAPI 3.0 validator. Those answers and a few error answers together hold every
component an answer can hold, each validated strictly where it appears."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from canfield_client import Client
from openapi_schema_validator import OAS30Validator

from canfield_site import examples as ex
from tests import net
from tests.clients.world import World, operations, samples
from tests.web.helpers import unique_name


@pytest.fixture(scope="module")
def schema(base_url) -> dict[str, Any]:
    return net.get(f"{base_url}/api/v1/schema/?format=json", timeout=30).json()


class Strict:
    """Strict OpenAPI 3.0 validation against the schema's components, noting each component an
    instance validated against (through `$ref`, the `oneOf` branch it matched, properties and
    items), so that a test can tell which components live answers have exercised."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.components = schema["components"]
        self.seen: set[str] = set()

    def valid(self, node: dict[str, Any], instance: Any) -> bool:
        return OAS30Validator({**node, "components": self.components}).is_valid(instance)

    def errors(self, node: dict[str, Any], instance: Any) -> list[str]:
        check = OAS30Validator({**node, "components": self.components})
        problems = [f"{list(e.absolute_path)}: {e.message}" for e in check.iter_errors(instance)]
        if not problems:
            self._visit(node, instance)
        return problems

    def _visit(self, node: dict[str, Any], instance: Any) -> None:
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            self.seen.add(name)
            self._visit(self.components["schemas"][name], instance)
            return
        for sub in node.get("allOf", ()):
            self._visit(sub, instance)
        for key in ("oneOf", "anyOf"):
            for sub in node.get(key, ()):
                if self.valid(sub, instance):
                    self._visit(sub, instance)
        if isinstance(instance, dict):
            for name, sub in node.get("properties", {}).items():
                if name in instance:
                    self._visit(sub, instance[name])
            extra = node.get("additionalProperties")
            if isinstance(extra, dict):
                for name, value in instance.items():
                    if name not in node.get("properties", {}):
                        self._visit(extra, value)
        if isinstance(instance, list) and "items" in node:
            for item in instance:
                self._visit(node["items"], item)


def send(base_url: str, path: str, method: str, sample: dict[str, Any], world: World) -> Answer:
    """The example as a client sends it: its query (lists repeated), its JSON body, ada's key."""
    real = world.real(sample)
    url = base_url + path.format(**real["path"])
    query = [
        (name, str(v).lower() if isinstance(v, bool) else str(v))
        for name, value in real["query"].items()
        for v in (value if isinstance(value, list) else [value])
    ]
    headers = {"Authorization": f"Bearer {world.token}"}
    body = None if real["body"] is None else json.dumps(real["body"])
    if body is not None:
        headers["Content-Type"] = "application/json"
    with httpx.Client(timeout=30) as http:
        request = http.build_request(method, url, params=query, content=body, headers=headers)
        response = http.send(request, stream=True)
        try:
            lines: list[Any] = []
            if response.headers.get("content-type", "").startswith("application/x-ndjson"):
                # an endless stream (account events) is read to its first event; keep-alives
                # are empty lines
                deadline = time.monotonic() + 20
                for line in response.iter_lines():
                    if line.strip():
                        lines.append(json.loads(line))
                        if path.endswith("/events"):
                            break
                    assert time.monotonic() < deadline, (path, lines)
                return Answer(response.status_code, None, lines)
            response.read()
        finally:
            response.close()
    return Answer(response.status_code, response.json() if response.content else None, lines)


class Answer:
    def __init__(self, status: int, body: Any, lines: list[Any]) -> None:
        self.status, self.body, self.lines = status, body, lines


def documented(strict: Strict, operation: dict[str, Any], answer: Answer) -> list[str]:
    """What in `answer` its operation's schema does not allow (strictly): its status, its body
    or each of its NDJSON lines (`x-ndjson.itemSchema`)."""
    response = operation["responses"].get(str(answer.status))
    if response is None:
        return [f"status {answer.status} not documented: {answer.body}"]
    if "x-ndjson" in response:
        item = response["x-ndjson"]["itemSchema"]
        return [problem for line in answer.lines for problem in strict.errors(item, line)]
    content = response.get("content", {}).get("application/json")
    if content is None:
        return [] if answer.body is None else [f"a body where none is documented: {answer.body}"]
    return strict.errors(content["schema"], answer.body)


@pytest.fixture(scope="module")
def answered(schema, base_url, played_day) -> tuple[Strict, dict[str, list[tuple[int, list[str]]]]]:
    """Every example sent, each answer's status and what the schema does not allow in it;
    operations without an example (nothing to send) sent as they are."""
    strict = Strict(schema)
    results: dict[str, list[tuple[int, list[str]]]] = {}
    for path, method, operation in operations(schema):
        operation_id = operation["operationId"]
        for sample in samples(operation_id):
            answer = send(base_url, path, method, sample, World(base_url, sample, operation_id))
            results.setdefault(operation_id, []).append(
                (answer.status, documented(strict, operation, answer))
            )
    return strict, results


def test_every_operation_that_takes_parameters_or_a_body_has_a_request_example(schema):
    # given
    takes = {
        operation["operationId"]: operation
        for _, _, operation in operations(schema)
        if operation.get("requestBody")
        or any(p["in"] != "header" for p in operation.get("parameters", []))
    }

    # then: each has an example, written where generators read it, naming only what it takes
    assert sorted(set(takes) - set(ex.EXAMPLES)) == []
    assert sorted(set(ex.EXAMPLES) - {op["operationId"] for _, _, op in operations(schema)}) == []
    for operation_id, operation in takes.items():
        names = {(p["in"], p["name"]) for p in operation.get("parameters", [])}
        for sample in ex.EXAMPLES[operation_id]:
            sent = {("path", n) for n in sample["path"]} | {("query", n) for n in sample["query"]}
            assert sent <= names, (operation_id, sent - names)
            assert {n for kind, n in names if kind == "path"} <= set(sample["path"]), operation_id
            if sample["body"] is not None:
                media = operation["requestBody"]["content"]["application/json"]
                assert sample["body"] in [e["value"] for e in media["examples"].values()]
                assert Strict(schema).errors(media["schema"], sample["body"]) == [], operation_id
            else:
                assert "requestBody" not in operation, operation_id
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "path":
                assert parameter["examples"], (operation_id, parameter["name"])


def test_every_request_example_is_answered_as_documented(answered):
    # given: every example sent to the live server
    _, results = answered

    # then: a 2xx that the operation's schema allows, strictly
    wrong = {
        operation_id: answers
        for operation_id, answers in results.items()
        if any(not 200 <= status < 300 or problems for status, problems in answers)
    }
    assert wrong == {}
    assert sum(len(answers) for answers in results.values()) == 4 + sum(
        map(len, ex.EXAMPLES.values())
    )


def answer_components(schema: dict[str, Any]) -> set[str]:
    """Every component an answer may hold: those its responses' schemas (and NDJSON lines'
    `itemSchema`) reach."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[-1]
                if name not in found:
                    found.add(name)
                    walk(schema["components"]["schemas"][name])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for _, _, operation in operations(schema):
        for response in operation["responses"].values():
            walk(response.get("content", {}))
            walk(response.get("x-ndjson", {}))
    return found


# Components no live answer can hold: the request side of the `Action` union that answers share
# (legal actions, hints, analysis lines). A tap is always listed as the move it makes, and a
# resignation is never listed: no answer holds either.
NEVER_ANSWERED = sorted(["ResignAction", "ResignTypeEnum", "TapAction", "TapTypeEnum"])
# The fair-play review (R35: matches rated after it, dailies cleared) and the analyses (R37),
# as the scheduler's processes run them, on the server's database.
REVIEW_AND_ANALYSE = (
    "from fairplay.services import reviews_run; reviews_run(budget=30)\n"
    "from django.core.management import call_command; call_command('analyse_games')\n"
)


def won_on_the_example_day(username: str) -> str:
    """Code for the server's shell: `username` plays the example day's daily (draw 3) on that
    day, as the clock then read, and wins it along the challenge's stored line (R29); the day
    is over now, so the game has an analysis and a par (R31, R37). Prints the game's id."""
    return (
        "import datetime as dt, time_machine\n"
        "from django.contrib.auth import get_user_model\n"
        "from games.services import game_act\n"
        "from leaderboard.services import daily_game_get_or_create\n"
        f"user = get_user_model().objects.get(username={username!r})\n"
        f"with time_machine.travel(dt.datetime.fromisoformat('{ex.DATE}T12:00:00+00:00')):\n"
        "    game, _ = daily_game_get_or_create(player=user, draw=3)\n"
        "    for step in game.challenge.line:\n"
        "        _, game, _ = game_act(game=game, user=user, action=step, expect=None)\n"
        "print(game.pk)\n"
    )


class Live:
    """Answers of the live server validated strictly as their operations document them."""

    def __init__(self, base_url: str, schema: dict[str, Any], strict: Strict) -> None:
        self.url, self.strict = base_url, strict
        self.by_id = {
            op["operationId"]: (path, method, op) for path, method, op in operations(schema)
        }
        self.problems: dict[str, list[str]] = {}

    def answer(
        self, operation_id: str, token: str, path: dict[str, Any] | None = None,
        query: dict[str, Any] | None = None, body: Any = None, status: int = 200,
    ) -> Any:  # fmt: skip
        """The operation's answer (its JSON body), its problems noted under `operation_id`."""
        template, method, operation = self.by_id[operation_id]
        answer = net.request(
            method, self.url + template.format(**(path or {})), params=query, json=body,
            headers={"Authorization": f"Bearer {token}"}, timeout=30,
        )  # fmt: skip
        assert answer.status_code == status, (operation_id, answer.text)
        parsed = answer.json() if answer.content else None
        self.noted(operation_id, documented(self.strict, operation, Answer(status, parsed, [])))
        return parsed

    def noted(self, operation_id: str, problems: list[str]) -> None:
        self.problems.setdefault(operation_id, []).extend(problems)


def every_kind_of_legal_action(live: Live, token: str) -> None:
    """A game of ex.DECK (draw 1) played while its stream is watched (its game line, then its
    first action's line), then on: the stock drawn out (draws, undo, then recycle listed), then
    played up (finish listed near the end), each list of legal actions validated."""
    _, _, stream_operation = live.by_id["games_stream"]
    item = stream_operation["responses"]["200"]["x-ndjson"]["itemSchema"]
    game = live.answer("games_create", token, body={"deck": ex.DECK, "draw": 1}, status=201)
    path = {"game_id": game["id"]}
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/x-ndjson"}
    kinds: set[str] = set()

    def play() -> dict[str, Any]:
        legal = live.answer("games_legal_actions", token, path)
        kinds.update(action["type"] for action in legal)
        up = [a for a in legal if a["type"] == "move" and a["to"].startswith("foundation")]
        turn = [a for a in legal if a["type"] in ("draw", "recycle")]
        chosen = (turn if "recycle" not in kinds else up or turn or legal)[0]
        return live.answer("games_actions_create", token, path, body=chosen)["game"]

    url = f"{live.url}/api/v1/games/{game['id']}/stream"
    with net.stream("GET", url, headers=headers, timeout=30) as stream:
        lines = (json.loads(line) for line in stream.iter_lines() if line.strip())
        live.noted("games_stream", live.strict.errors(item, next(lines)))
        game = play()
        live.noted("games_stream", live.strict.errors(item, next(lines)))
    for _ in range(300):
        if game["status"] != "playing":
            break
        game = play()
    assert game["status"] == "won" and {"draw", "recycle", "undo", "finish"} <= kinds, kinds


def test_live_answers_hold_every_component_an_answer_may_hold(
    answered, schema, base_url, run_on_server
):
    # given: the examples' answers, a few error answers, and answers of a played world: a daily
    # resigned and analysed, a duel of two players rated, a game played through every kind of
    # legal action while its stream is watched
    strict, _ = answered
    live = Live(base_url, schema, strict)
    run_on_server("from matches.deals import match_deals_fill\nmatch_deals_fill(draw=1, size=1)\n")
    with Client(base_url) as ada:
        ada_name = unique_name("errs")
        token = ada.register(ada_name, ex.PASSWORD)
        game = ada.new_game_from_deck(ex.DECK, draw=1)
        daily = ada.daily_game(draw=3)
        ada.resign(daily)
        lost = ada.new_game_from_deck(ex.DECK, draw=1)
        ada.move(lost, "reserve", "foundation")
        ada.resign(lost.id)
    won = run_on_server(won_on_the_example_day(ada_name)).split()[-1]
    live.answer("games_get", token, {"game_id": "00000000-0000-4000-8000-000000000000"}, status=404)
    live.answer("games_list", token, query={"colour": "red"}, status=400)
    live.answer(
        "games_actions_create", token, {"game_id": game.id},
        body={"type": "move", "from": "waste", "to": "stock"}, status=422,
    )  # fmt: skip
    for analysed in (lost.id, won):
        live.answer("games_analysis", token, {"game_id": analysed}, status=202)
    every_kind_of_legal_action(live, token)
    duel = []
    for address in ("10.32.7.1", "10.32.7.2"):  # two places (R32: one account an address)
        player = Client(base_url, headers={"X-Forwarded-For": address})
        name = unique_name("duel")
        duel.append((name, player.register(name, ex.PASSWORD), player))
    (first, _, anna), (second, _, bela) = duel
    accepted = bela.challenge_accept(anna.challenge(second, draw=1, rated=True))
    seats = [anna.match(accepted.id), accepted]
    for (_, _, player), seat in zip(duel, seats, strict=True):
        for _ in range(10):  # a seat played: 10 actions or more (R33a)
            player.draw(seat.game)
        player.resign(seat.game)
        player.close()
    # the review holds the daily won by the solver's line in a second (R35); staff clear it
    run_on_server(
        REVIEW_AND_ANALYSE + "from games.models import Game; from leaderboard.services import "
        f"entry_clear; assert entry_clear(game=Game.objects.get(pk={won!r}))\n"
    )

    # when
    analyses = [live.answer("games_analysis", token, {"game_id": g}) for g in (lost.id, won)]
    for day in (daily.daily.isoformat(), ex.DATE):
        for section in ("ranked", "provisional"):
            live.answer("daily_leaderboard", token, {"date": day}, {"draw": 3, "section": section})
    stats = live.answer("players_stats", token, {"username": ada_name})
    won_game = live.answer("games_get", token, {"game_id": won})
    (name, key, _), _ = duel
    rated = {"size": 2, "draw": 1}
    duel_match = live.answer("matches_get", key, {"match_id": accepted.id})
    live.answer("players_get", key, {"username": name})
    live.answer("players_ratings_history", key, {"username": name}, rated)
    live.answer("ratings_list", key, query=rated)
    live.answer("ratings_weekly", key, query=rated)

    # then
    resigned, won_daily = analyses
    assert resigned["status"] == "done" and resigned["line"] is not None, resigned
    assert won_daily["status"] == "done" and won_daily["par"] is not None, won_daily
    assert stats["par"] and won_game["daily"]["review"] == "cleared", won_game
    assert duel_match["duel"] and duel_match["rated"], duel_match
    assert live.problems == {name: [] for name in live.problems}
    missing = sorted(answer_components(schema) - strict.seen)
    assert missing == NEVER_ANSWERED, " ".join(missing)
