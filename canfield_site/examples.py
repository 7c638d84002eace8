"""A request example for every operation of the API, in one table, written into the schema
(`examples_written`, a step of the schema hook) where readers and generators see them: a body's
under its media type's `examples`, a parameter's under the parameter's `examples`, each named.

The examples stay true because tests/clients/test_examples.py sends every one of them to a live
server and validates each answer against the schema (strict OpenAPI 3.0), and the generated
clients' tests (tests/clients/test_generated_client.py, test_typescript_client.py) call every
operation with them. The ids and names below are those of the tests' fixtures: each example is
sent with the fixture's real id in place of the example's (a game of the example player `ada`,
a challenge from `grace`...).

To document a new operation: add `"operation_id": [example(...)]` to EXAMPLES (a summary, and
the `path`, `query` and `body` a caller sends); the tests then fail until the example is
answered with a 2xx that validates, through plain HTTP and both generated clients. A new kind
of id gets a constant here and its fixture in the `World` (tests/clients/world.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from canfield_site.schema import OpenApiDocument

# The example world (tests/clients/world.py builds it for real before each example).
PLAYER = "ada"  # the caller: an account with the key the example is sent with
OTHER = "grace"  # another player: the one challenged, or the challenger
PASSWORD = "green-felt-canfield-42"
GAME = "3f2b8c1e-6a4d-4e0b-9c57-1d2e3f4a5b6c"  # ada's game of DECK (draw 1), just dealt
ENDED = "7c1d9e2a-0b3f-4a6c-8d5e-2f1a0b9c8d7e"  # ada's game of DECK, resigned after 1 move
CHALLENGE = "b6a1f0e2-4c3d-4e5f-a6b7-c8d9e0f1a2b3"  # a pending challenge (grace's to ada to
# accept or decline, ada's to grace to cancel)
MATCH = "d4c3b2a1-9f8e-4d7c-b6a5-0f1e2d3c4b5a"  # ada's open match
KEY = "cfk_3a9f2c"  # the start of one of ada's keys
EVENT = 1041  # the id of ada's event about the first of two games she dealt
DATE = "2026-12-01"  # a day whose dailies were played
MONTH = "2026-11"
# A deck dealt by R5 (docs/rules.md) that wins by playing everything up: reserve 2H..KH over AS,
# base AH, columns 2S..5S, then the stock.
DECK = [
    "AS", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H", "AH",
    "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS",
    "AD", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD",
    "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC",
]  # fmt: skip


class Example(TypedDict):
    """One request of EXAMPLES: its `summary`, path and query values, and body (None: none)."""

    summary: str
    path: Mapping[str, object]
    query: Mapping[str, object]
    body: object


def example(
    summary: str,
    *,
    path: Mapping[str, object] | None = None,
    query: Mapping[str, object] | None = None,
    body: object = None,
) -> Example:
    """One request: what it shows (`summary`), its path and query parameters and its body."""
    return {"summary": summary, "path": path or {}, "query": query or {}, "body": body}


GAME_ID = {"game_id": GAME}
ENDED_ID = {"game_id": ENDED}
CHALLENGE_ID = {"challenge_id": CHALLENGE}
SIZE_DRAW = {"size": 2, "draw": 3}

# operationId -> its examples (the first is the one generators show).
EXAMPLES: dict[str, list[Example]] = {
    "auth_register": [
        example("a new account", body={"username": PLAYER, "password": PASSWORD}),
    ],
    "auth_token": [
        example("a key for an existing account", body={"username": PLAYER, "password": PASSWORD}),
    ],
    "account_delete": [
        example("the account, confirmed by its password", body={"password": PASSWORD})
    ],
    "account_password": [
        example(
            "a new password",
            body={"password": PASSWORD, "new_password": "red-felt-canfield-43"},
        )
    ],
    "account_events": [example("the events after one", query={"since": EVENT})],
    "account_export": [
        example("resigned games since a date", query={"status": "resigned", "since": DATE}),
        example("the last 10 games of draw 1", query={"draw": 1, "max": 10}),
    ],
    "account_tokens_create": [
        example(
            "a key for a bot, for 90 days",
            body={"name": "my bot", "scopes": ["game:play", "account:read"], "days": 90},
        )
    ],
    "account_tokens_delete": [example("revoke a key", path={"key_id": KEY})],
    "challenges_list": [example("the first page", query={"page": 1, "page_size": 20})],
    "challenges_create": [
        example("an unrated duel of draw 3", body={"player": OTHER, "draw": 3, "rated": False})
    ],
    "challenges_get": [example("a challenge", path=CHALLENGE_ID)],
    "challenges_accept": [
        example("accept, unrated", path=CHALLENGE_ID, body={"rated": False}),
    ],
    "challenges_decline": [example("decline", path=CHALLENGE_ID)],
    "challenges_cancel": [example("take back one's own", path=CHALLENGE_ID)],
    "daily_today": [example("a month of the archive", query={"month": MONTH})],
    "daily_get": [example("a day's daily", path={"date": DATE})],
    "daily_leaderboard": [
        example(
            "the ranked board of draw 3, 20 a page",
            path={"date": DATE},
            query={"draw": 3, "section": "ranked", "players": "people", "page_size": 20},
        )
    ],
    "games_list": [
        example("games being played, draw 1", query={"status": "playing", "draw": 1, "max": 20}),
        example("a batch of games by id", query={"ids": [GAME, ENDED]}),
    ],
    "games_create": [
        example("a random deal of draw 3", body={"draw": 3}),
        example("today's daily, draw 3", body={"daily": True, "draw": 3}),
        example("a deal code", body={"code": "CF1-D3-AAAAACL"}),
        example("a custom deck, draw 1", body={"deck": DECK, "draw": 1}),
    ],
    "games_get": [example("a game", path=GAME_ID)],
    "games_actions_list": [example("a game's actions", path=ENDED_ID)],
    "games_actions_create": [
        example(
            "a move, safe to retry",
            path=GAME_ID,
            body={"type": "move", "from": "reserve", "to": "foundation", "expect": 0},
        ),
        example("a draw", path=GAME_ID, body={"type": "draw"}),
    ],
    "games_analysis": [example("an ended game's analysis", path=ENDED_ID)],
    "games_hint": [example("a hint", path=GAME_ID)],
    "games_legal_actions": [example("the legal actions", path=GAME_ID)],
    "games_stream": [example("an ended game's stream", path=ENDED_ID)],
    "games_text": [example("the table in Hungarian", path=GAME_ID, query={"lang": "hu"})],
    "matches_list": [example("open matches of 2", query={"status": "open", **SIZE_DRAW})],
    "matches_create": [example("a seat in a match of 2, draw 3", body=SIZE_DRAW)],
    "matches_get": [example("a match", path={"match_id": MATCH})],
    "players_get": [example("a player", path={"username": PLAYER})],
    "players_games": [
        example(
            "a player's resigned games, 10 at most",
            path={"username": PLAYER},
            query={"status": "resigned", "max": 10},
        )
    ],
    "players_ratings_history": [
        example("a player's ratings in duels of draw 3", path={"username": PLAYER}, query=SIZE_DRAW)
    ],
    "players_stats": [example("a player's streak and history", path={"username": PLAYER})],
    "ratings_list": [
        example("people's ratings in duels", query={"players": "people", **SIZE_DRAW})
    ],
    "ratings_weekly": [example("this week's duels of draw 3", query=SIZE_DRAW)],
}


def _slug(summary: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in summary.lower()).strip("_")


def examples_written(result: OpenApiDocument) -> None:
    """Each operation's examples into the schema: bodies under `requestBody.content.*.examples`,
    parameter values under each parameter's `examples`, named by the example's summary."""
    for item in result["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for sample in EXAMPLES.get(operation.get("operationId", ""), []):
                name = _slug(sample["summary"])
                given = {"path": sample["path"], "query": sample["query"]}
                if sample["body"] is not None:
                    for media in operation["requestBody"]["content"].values():
                        media.setdefault("examples", {})[name] = {
                            "summary": sample["summary"],
                            "value": sample["body"],
                        }
                for parameter in operation.get("parameters", []):
                    values = given.get(parameter["in"], {})
                    if parameter["name"] in values:
                        parameter.setdefault("examples", {})[name] = {
                            "summary": sample["summary"],
                            "value": values[parameter["name"]],
                        }
