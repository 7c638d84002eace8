"""The Python client (clients/python) end to end against a real server process."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import queue
import threading

import httpx
import pytest
from canfield_client import (
    AccountEvent,
    AsyncClient,
    CannotFinish,
    Client,
    Entries,
    Forbidden,
    GameOver,
    IllegalMove,
    InvalidCode,
    InvalidDeck,
    InvalidRequest,
    Move,
    NotAuthenticated,
    NotFound,
    Snapshot,
    Stale,
    Standings,
    Throttled,
    Unavailable,
)
from canfield_client.errors import ERRORS, BoardClosed

from tests import net
from tests.clients.conftest import HINT_RATE
from tests.clients.play import foundation_first
from tests.games.helpers import easy_deck as straight_deck
from tests.games.helpers import winning_actions
from tests.web.helpers import PASSWORD, easy_deck, unique_name


def test_an_exception_for_every_error_code_of_the_schema(base_url):
    schema = net.get(f"{base_url}/api/v1/schema/", headers={"Accept": "application/json"})
    codes = schema.json()["components"]["schemas"]["ErrorCodeEnum"]["enum"]
    assert sorted(codes) == sorted(ERRORS)
    assert all(ERRORS[code].code == code for code in codes)


def test_register_login_and_account_errors(base_url):
    name = unique_name("acc")
    with Client(base_url) as client:
        token = client.register(name, PASSWORD)
        assert client.token == token and len(token) >= 20
        with pytest.raises(InvalidRequest) as taken:
            client.register(name.upper(), PASSWORD)  # unique without regard to case
        assert taken.value.status == 400
    with Client(base_url) as other:
        with pytest.raises(NotAuthenticated) as anonymous:
            other.new_game()
        assert anonymous.value.status == 401
        # Each login makes a key of its own (the server keeps only hashes: it cannot give an
        # old key back); the first one keeps working.
        second = other.login(name, PASSWORD)
        assert second != token and other.token == second
        assert other.games().count == 0
    with Client(base_url, token=token) as first:
        assert first.games().count == 0


def test_throttled_hints_surface_retry_after(player):
    game = player.resign(player.new_game_from_deck(easy_deck())).game
    # Fixed one-minute windows: twice the limit reaches it even across a window's end.
    with pytest.raises(Throttled) as throttled:  # noqa: PT012 (hints until the limit)
        for _ in range(2 * HINT_RATE + 1):
            with pytest.raises(GameOver):  # counted all the same, until the limit
                player.hint(game)
    assert throttled.value.status == 429
    assert throttled.value.retry_after is not None and 0 <= throttled.value.retry_after <= 60
    limit = throttled.value.rate_limit
    assert limit is not None and (limit.limit, limit.remaining) == (HINT_RATE, 0)
    assert 0 <= limit.reset <= 60


def test_rate_limit_headers_and_errors_in_the_callers_language(base_url, player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    player.draw(game)
    rate_limit = player.rate_limit  # actions are throttled: their answers carry the headers
    assert rate_limit is not None and 0 <= rate_limit.remaining < rate_limit.limit
    messages = {}
    for language in ("en", "hu", "pl"):
        client = Client(base_url, token=player.token, language=language)
        with client, pytest.raises(IllegalMove) as illegal:
            client.move(game.id, "reserve", "tableau:1")  # 10C onto the ace of spades
        error = illegal.value
        assert (error.code, error.status, error.params.get("card")) == ("illegal_move", 422, "10C")
        assert error.rule and error.rule.startswith("R")
        messages[language] = error.message
    assert len(set(messages.values())) == 3, messages


def test_finish_sends_the_cards_left_home_in_one_action(player):
    # given: the straight deck played up but for its last club (drawn onto the waste, R20b)
    game = player.new_game_from_deck(straight_deck(), draw=1)
    with pytest.raises(CannotFinish) as refused:
        player.finish(game)
    assert (refused.value.status, refused.value.rule) == (409, "R20b")
    for action in winning_actions()[:-1]:
        game = player.act(game, Move.from_json(action)).game
    assert Move("finish") in player.legal_actions(game) and not game.no_progress
    # when
    acted = player.finish(game)
    # then
    assert (acted.action.type, acted.action.cards) == ("finish", ["KC"])
    assert acted.action.moves_counted == 1
    assert (acted.game.status, acted.game.moves) == ("won", 85)


def test_a_whole_game_won_with_legal_actions(player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    assert (game.code, game.daily, game.status, game.moves) == (None, None, "playing", 0)
    assert game.end_reason is None
    assert [f.top for f in game.foundations if f.top] == ["AH"]
    while not game.over:
        acted = player.act(game, foundation_first(player.legal_actions(game)))
        assert acted.game.moves == game.moves + 1 == acted.action.n
        game = acted.game
    assert (game.status, game.end_reason, game.score) == ("won", "won", 255)
    assert player.legal_actions(game) == []
    assert len(player.actions(game.id)) == game.moves
    assert player.games(status="won").results[0].id == game.id
    with pytest.raises(GameOver):
        player.draw(game)


def test_actions_by_name_and_typed_errors(player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    with pytest.raises(IllegalMove) as illegal:
        player.move(game, "reserve", "tableau:1")  # 10C cannot go on AS
    assert illegal.value.status == 422 and illegal.value.rule
    assert player.game(game.id).moves == 0
    tapped = player.tap(game, "tableau:1")
    assert (tapped.action.type, tapped.action.to, tapped.action.cards) == (
        "move",
        "foundation:S",
        ["AS"],
    )
    assert tapped.action.auto_fill == "10C"  # the reserve's top fills the emptied column (R14)
    drawn = player.draw(game.id)  # by id: `expect` is the last `moves` the client saw
    assert drawn.game.moves == 2 and drawn.game.waste_fan == drawn.action.cards
    assert player.undo(game.id).game.moves == 3
    assert player.resign(game.id).game.status == "resigned"
    with pytest.raises(InvalidDeck):
        player.new_game_from_deck(easy_deck()[:51])
    with pytest.raises(NotFound):
        player.game("00000000-0000-0000-0000-000000000000")
    with pytest.raises(InvalidCode) as bad_code:
        player.new_game_from_code("CF9-XX")
    assert bad_code.value.status == 400 and bad_code.value.rule == "R3"
    text = player.text(game, lang="en")
    assert text.lower().count("column") == 4 and "clubs" in text


def test_stale_expect_reports_the_game_as_it_is_now(base_url, player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    with Client(base_url, token=player.token) as other_tab:
        other_tab.draw(game.id)
    with pytest.raises(Stale) as stale:
        player.draw(game)  # `game` says moves 0: the other tab moved since
    assert stale.value.status == 409
    assert stale.value.game is not None and stale.value.game.moves == 1
    assert len(player.actions(game.id)) == 1


class LoseAnswers(httpx.BaseTransport):
    """The network between client and server losing answers: each POST of an action reaches
    the server, then its answer is lost (a read timeout) while `lose` says so. `meanwhile` runs
    after the server has answered, before the client learns of the loss."""

    def __init__(self, lose: int, meanwhile=None) -> None:
        self.inner = httpx.HTTPTransport()
        self.lose = lose
        self.meanwhile = meanwhile
        self.posts = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.method == "POST" and request.url.path.endswith("/actions"):
            self.posts += 1
            if self.lose > 0:
                self.lose -= 1
                response.read()
                if self.meanwhile is not None:
                    self.meanwhile()
                raise httpx.ReadTimeout("answer lost", request=request)
        return response


def test_a_retry_after_a_lost_answer_never_applies_twice(base_url, player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    network = LoseAnswers(lose=2)
    with Client(base_url, token=player.token, transport=network, backoff=0.01) as client:
        acted = client.draw(game)
    assert network.posts == 3  # the first applied, its answer lost; two retries found it done
    assert acted.game.moves == 1 and acted.action.type == "draw" and acted.action.n == 1
    assert [a.type for a in player.actions(game.id)] == ["draw"]


def test_a_lost_answer_then_another_tab_moving_is_stale(base_url, player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    with Client(base_url, token=player.token) as other_tab:
        network = LoseAnswers(lose=1, meanwhile=lambda: other_tab.undo(game.id))
        client = Client(base_url, token=player.token, transport=network, backoff=0.01)
        with client, pytest.raises(Stale) as stale:
            client.draw(game)
    # The draw was applied once, then undone by the other tab: the retry did not draw again.
    assert [a.type for a in player.actions(game.id)] == ["draw", "undo"]
    assert stale.value.game is not None and stale.value.game.moves == 2


def test_a_server_that_cannot_be_reached_raises_after_retries():
    unreachable = Client("http://127.0.0.1:9", retries=2, backoff=0.01)
    with unreachable, pytest.raises(httpx.ConnectError):
        unreachable.daily()


def test_daily_game_resumed_and_its_hint_refused(player):
    game = player.daily_game(draw=3)
    assert player.daily_game(draw=3).id == game.id  # one per player, day and draw mode
    assert game.daily is not None and game.code is None
    daily = player.daily()
    assert daily.date == game.daily
    assert sorted(board.draw for board in daily.boards) == [1, 3]
    with pytest.raises(Forbidden) as refused:
        player.hint(game)
    assert refused.value.rule == "R30"


def test_hint_leads_to_a_win(player):
    game = player.new_game_from_deck(easy_deck(), draw=3)
    for _ in range(200):
        hint = player.hint(game)
        assert hint.winnable is True and isinstance(hint.action, Move)
        game = player.act(game, hint.action).game
        if game.over:
            break
    assert game.status == "won" and game.hints > 0


def test_async_client_and_the_live_board_while_another_client_plays(base_url):
    asyncio.run(_live_board(base_url))


def row(standings: Standings, player: str) -> tuple[int, int, str] | None:
    """The player's score, moves and status on the standings' top, if there."""
    rows = [(e.score, e.moves, e.status) for e in standings.top() if e.player == player]
    return rows[0] if rows else None


async def _live_board(base_url: str) -> None:
    async with AsyncClient(base_url) as watcher, AsyncClient(base_url) as playing:
        await watcher.register(unique_name("watch"), PASSWORD)
        name = unique_name("play")
        await playing.register(name, PASSWORD)
        async with await watcher.board(draw=3) as board:
            first = await asyncio.wait_for(anext(board), 30)
            assert isinstance(first, Snapshot)
            standings = Standings()
            standings.apply(first)
            game = await playing.daily_game(draw=3)
            for _ in range(3):
                legal = await playing.legal_actions(game)
                game = (await playing.act(game, foundation_first(legal))).game
            # Batches come at most once a second and carry every entry that changed, whatever
            # its rank: wait for the one with the last figures. (Other tests' players share the
            # board: ours may rank below the 50 rows a snapshot and the standings keep.)
            # A listener that falls behind (a batch missed on a loaded machine, other tests'
            # boards on this server) is closed with 4408 and reconnects: a fresh snapshot then,
            # and only then.
            mine = None
            while mine is None or mine.moves < 3:
                event = await asyncio.wait_for(anext(board), 30)
                if isinstance(event, Snapshot):
                    assert board.close_codes == [4408] * (board.connections - 1), board.close_codes
                    standings.apply(event)
                    mine = next((e for e in event.results if e.player == name), mine)
                    continue
                assert isinstance(event, Entries)
                standings.apply(event)
                mine = next((e for e in event.entries if e.player == name), mine)
            # The network drops the connection: the board reconnects and starts over.
            assert board._ws is not None
            connections = board.connections
            board._ws.transport.abort()
            again = await asyncio.wait_for(anext(board), 30)
            assert isinstance(again, Snapshot) and board.connections == connections + 1
            assert board.close_codes[-1] is None  # (dropped, no close frame)
            standings.apply(again)
        assert (mine.score, mine.moves, mine.status) == (game.score, 3, "playing")
        if mine.rank <= standings.size:  # on the top the standings keep
            assert row(standings, name) == (game.score, 3, "playing")
        assert standings.count >= 1 and not standings.incomplete
        day = game.daily or dt.date.today()
        found = [e async for e in watcher.iter_leaderboard(day, draw=3) if e.player == name]
        assert [(e.score, e.moves, e.status) for e in found] == [(game.score, 3, "playing")]
        with pytest.raises(BoardClosed) as closed:
            async with await watcher.board(dt.date(2000, 1, 1), draw=3) as none:
                await asyncio.wait_for(anext(none), 30)
        assert closed.value.status == 4404


class UnavailableOnce(httpx.BaseTransport):
    """A proxy answering 503 to the first request (the server never saw it), then passing
    requests through."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.answered_503 = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not self.answered_503:
            self.answered_503 += 1
            body = {"error": {"code": "unavailable", "message": "retry later"}}
            return httpx.Response(503, json=body, headers={"Retry-After": "0"})
        return self.inner.handle_request(request)


def test_a_503_is_retried(base_url, player):
    game = player.new_game_from_deck(easy_deck(), draw=1)
    proxy = UnavailableOnce()
    with Client(base_url, token=player.token, transport=proxy, backoff=0.01) as client:
        assert client.draw(game).game.moves == 1
    assert proxy.answered_503 == 1 and len(player.actions(game.id)) == 1
    impatient = Client(base_url, transport=UnavailableOnce(), retries=0)
    with impatient, pytest.raises(Unavailable) as unavailable:
        impatient.daily()
    assert unavailable.value.retry_after == 0


def test_a_random_deal_replayed_from_its_code(player):
    random_game = player.new_game(draw=1)
    assert random_game.code is None  # R19: not before the game has ended
    ended = player.resign(random_game).game
    assert ended.code is not None
    again = player.new_game_from_code(ended.code)
    assert again.id != ended.id and again.draw == 1 and again.code == ended.code
    assert (again.tableau, again.reserve_top) == (random_game.tableau, random_game.reserve_top)
    listed = player.games()
    assert [game.id for game in listed.results] == [again.id, random_game.id]  # newest first
    first = player.games(page_size=1)
    assert (first.count, [g.id for g in first.results], first.previous) == (2, [again.id], None)
    assert first.next is not None
    assert [g.id for g in player.games(status="resigned").results] == [random_game.id]
    assert player.games(daily=True).count == 0


def test_a_past_day_reveals_its_codes_and_par(player, run_on_server):
    yesterday = player.daily().date - dt.timedelta(days=1)
    run_on_server(
        "from django.core.management import call_command\n"
        f"call_command('create_daily_challenges', start='{yesterday.isoformat()}')\n"
    )
    past = player.daily(yesterday)
    assert past.date == yesterday and sorted(board.draw for board in past.boards) == [1, 3]
    board = next(board for board in past.boards if board.draw == 3)
    assert board.code is not None and board.code.startswith("CF2-D3-")
    assert board.par is not None and board.par.moves > 0
    assert player.leaderboard(yesterday, draw=3).par == board.par
    practice = player.new_game_from_code(board.code)  # the day's deal, as a practice game
    assert practice.daily is None and practice.code == board.code


class RestartingProxy(httpx.BaseTransport):
    """A proxy in front of a server being restarted: its first stream requests get 502 and
    then 503 (Retry-After 0), the next ones pass through."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.refused: list[int] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/stream") and len(self.refused) < 2:
            status = (502, 503)[len(self.refused)]
            self.refused.append(status)
            body = {"error": {"code": "unavailable", "message": "restarting"}}
            return httpx.Response(status, json=body, headers={"Retry-After": "0"})
        return self.inner.handle_request(request)


def test_a_game_stream_waits_out_a_restart(base_url, player):
    # given: a won game and a proxy that answers its stream 502, then 503, as in a restart
    game = player.new_game_from_deck(straight_deck(), draw=1)
    for action in winning_actions():
        game = player.act(game, Move.from_json(dict(action))).game
    proxy = RestartingProxy()

    # when: the stream is read through it
    with Client(base_url, token=player.token, transport=proxy, backoff=0.01) as client:
        events = list(client.game_stream(game))

    # then: it was opened again after each and followed the game to its end
    assert proxy.refused == [502, 503]
    assert events[0].type == "game" and events[-1].type == "end"
    # and a client that may not retry gets the error
    impatient = Client(base_url, token=player.token, transport=RestartingProxy(), retries=0)
    with impatient, pytest.raises(Unavailable):
        list(impatient.game_stream(game))


class OpeningProxy(httpx.BaseTransport):
    """Passes requests on, and tells when an account event stream has answered its headers."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.opened = threading.Event()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if request.url.path.endswith("/account/events"):
            self.opened.set()
        return response


def test_account_events_follow_the_account_and_resume_after_since(base_url, player):
    proxy = OpeningProxy()
    with Client(base_url, token=player.token, transport=proxy) as client:
        # given: the account's events, read in a thread
        got: queue.Queue[AccountEvent] = queue.Queue()
        stream = client.account_events()
        reader = threading.Thread(target=lambda: [got.put(e) for e in itertools.islice(stream, 2)])
        reader.start()
        assert proxy.opened.wait(10)

        # when: the account deals a game and resigns it
        game = player.new_game()
        player.resign(game)

        # then: both, in order; and `since` the first, the second again
        started, ended = got.get(timeout=10), got.get(timeout=10)
        reader.join(10)
        assert (started.type, started.data["game"]) == ("game_started", game.id)
        assert (ended.type, ended.data["game"]) == ("game_ended", game.id)
        assert next(client.account_events(since=started.id)) == ended


def test_the_archive_month_and_a_players_streak(player, run_on_server):
    # given the player's finished ranked daily of yesterday (its challenge made with a par of
    # 90 unless another test made it first)
    name = player.account().username
    yesterday = player.daily().date - dt.timedelta(days=1)
    run_on_server(
        "import datetime as dt\n"
        "from django.contrib.auth import get_user_model\n"
        "from tests.leaderboard.dailies import daily_finished\n"
        f"day = dt.date.fromisoformat('{yesterday.isoformat()}')\n"
        f"daily_finished(get_user_model().objects.get(username='{name}'), day, par=90)\n"
    )

    # when
    month = player.daily_month(yesterday.strftime("%Y-%m"))
    stats = player.player_stats(name)

    # then: the day in its month with its code revealed; the streak of one day
    day = next(day for day in month.days if day.date == yesterday)
    assert month.month == yesterday.strftime("%Y-%m")
    assert day.boards[0].code is not None and day.boards[0].players >= 1
    assert (stats.username, stats.streak, stats.best_streak) == (name, 1, 1)
    assert [(d.date, d.played, d.won) for d in stats.days] == [(yesterday, 1, 1)]
    par = day.boards[0].par.moves
    assert [(p.date, p.moves, p.par, p.over) for p in stats.par] == [
        (yesterday, 100, par, 100 - par)
    ]
    assert len(stats.weeks) == 26 and stats.weeks[-1].week.weekday() == 0
    with pytest.raises(InvalidRequest):
        player.daily_month("2026-13")
