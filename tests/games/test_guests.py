"""Visitors who play at once (issue 22): a guest account behind the browser session, made by
"Play now"; what a guest may not do; signing up keeps its games; the scheduler's clean-ups of
unused guests and of games left idle; which games count in a player's statistics."""

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import events
from accounts.models import Player
from games.models import Action, Game
from games.services import game_create, game_verify

GAMES = "/api/v1/games"
FORM = {"password1": "green-felt-42x", "password2": "green-felt-42x"}


def play_now(client: Client, address: str = "127.0.0.1"):
    return client.post("/play/now", REMOTE_ADDR=address)


def the_guest(client: Client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_play_now_deals_a_random_game_for_a_new_guest(client, db, settings):
    # when a visitor presses Play now
    response = play_now(client)

    # then a guest account behind the session owns a random game (not practice: it counts once
    # over), and the table opens on it
    guest = the_guest(client)
    game = Game.objects.get(owner=guest)
    assert response.status_code == 302 and response["Location"] == f"/play/{game.id}"
    assert Player.objects.get(user=guest).guest
    assert not guest.has_usable_password()
    assert (game.status, game.practice, game.challenge, game.draw) == ("playing", False, None, 3)
    assert game.address_hash
    # the session lasts as long as an unused guest does
    assert client.session.get_expiry_age() == settings.GUEST_DAYS * 86400
    table = client.get(response["Location"]).content.decode()
    assert "web/tips.js" in table  # the first-game tips
    # the navigation offers the one-click sign-up back to this game, and How to play
    assert f'href="/accounts/signup/?next=/play/{game.id}"' in table
    assert '<a href="/rules/app/" id="nav-rules">' in table


def test_play_now_again_deals_another_game_for_the_same_account(client, db):
    play_now(client)
    guest = the_guest(client)

    play_now(client)

    assert the_guest(client) == guest
    assert Game.objects.filter(owner=guest).count() == 2
    assert get_user_model().objects.count() == 1


def test_play_now_only_answers_a_post(client, db):
    assert client.get("/play/now").status_code == 405
    assert get_user_model().objects.count() == 0


@pytest.mark.usefixtures("hour_to_spare")
def test_guests_are_limited_per_address(db, settings):
    settings.GUEST_LIMIT = 2
    made = [play_now(Client()).status_code for _ in range(2)]

    over = play_now(Client())
    elsewhere = play_now(Client(), address="10.2.0.9")

    assert made == [302, 302]
    assert over.status_code == 429 and 0 < int(over["Retry-After"]) <= 3600
    assert b"Too many guests" in over.content
    assert elsewhere.status_code == 302
    assert get_user_model().objects.count() == 3


def test_the_home_page_offers_play_now_first_to_visitors_and_guests(client, db, user):
    anonymous = client.get("/").content.decode()
    play_now(client)
    guest = client.get("/").content.decode()
    client.force_login(user)
    member = client.get("/").content.decode()

    for page in (anonymous, guest):
        first_button = re.search(r"<button[^>]*>", page.split("<main>")[1])[0]
        assert 'id="play-now"' in first_button
        assert 'id="home-rules"' in page
    assert 'id="play-now"' not in member
    assert "Sign up to play" in guest and "play-daily" not in guest
    assert "play-daily" in member


def test_a_guest_cannot_play_a_daily_or_become_a_bot_and_has_no_player_page(client, db):
    play_now(client)
    guest = the_guest(client)

    daily = client.post(GAMES, {"daily": True}, content_type="application/json")
    hungarian = client.post(
        GAMES, {"daily": True}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="hu"
    )
    bot = client.post("/api/v1/account/bot")

    assert daily.status_code == 403 and daily.json()["error"]["code"] == "forbidden"
    assert "Sign up" in daily.json()["error"]["message"]
    assert hungarian.json()["error"]["message"] != daily.json()["error"]["message"]
    assert bot.status_code == 403
    assert not Player.objects.get(user=guest).bot
    assert client.get(f"/players/{guest.username}").status_code == 404
    assert client.get(f"/api/v1/players/{guest.username}").status_code == 404


def test_a_guest_plays_through_the_api_with_its_session(client, db):
    play_now(client)
    game = Game.objects.get(owner=the_guest(client))

    drawn = client.post(
        f"{GAMES}/{game.id}/actions", {"type": "draw"}, content_type="application/json"
    )

    assert drawn.status_code == 200 and drawn.json()["game"]["moves"] == 1


def test_a_guest_signs_up_and_keeps_its_account_games_and_figures(client, db):
    # given a guest with a game in progress and a finished one
    play_now(client)
    guest = the_guest(client)
    playing = Game.objects.get(owner=guest)
    client.post(f"{GAMES}/{playing.id}/actions", {"type": "draw"}, content_type="application/json")
    play_now(client)
    ended = Game.objects.filter(owner=guest).exclude(pk=playing.pk).get()
    for action in ({"type": "draw"}, {"type": "resign"}):
        client.post(f"{GAMES}/{ended.id}/actions", action, content_type="application/json")
    form_page = client.get(f"/accounts/signup/?next=/play/{playing.id}").content.decode()
    assert 'id="guest-keeps"' in form_page

    # when it signs up from the table's link
    response = client.post(
        "/accounts/signup/", {"username": "newcomer", "next": f"/play/{playing.id}", **FORM}
    )

    # then it is back at its game, as the same account, now with a name and a password
    assert response.status_code == 302 and response["Location"] == f"/play/{playing.id}"
    user = get_user_model().objects.get(username="newcomer")
    assert user.pk == guest.pk and the_guest(client).pk == guest.pk
    assert not Player.objects.get(user=user).guest
    assert user.check_password(FORM["password1"])
    assert set(Game.objects.filter(owner=user)) == {playing, ended}
    assert client.get(f"/play/{playing.id}").status_code == 200
    assert client.session.get_expiry_age() != 86400 * 30  # an account's usual session now
    stats = client.get("/api/v1/players/newcomer").json()
    assert (stats["games"], stats["wins"]) == (1, 0)  # the ended game; the other is not over
    assert client.get("/players/newcomer").status_code == 200


def test_a_guest_cannot_take_a_name_that_is_taken(client, db, make_user):
    make_user("Taken")
    play_now(client)
    guest = the_guest(client)

    response = client.post("/accounts/signup/", {"username": "taken", **FORM})

    assert response.status_code == 200 and b"That username is taken." in response.content
    assert Player.objects.get(user=guest).guest
    assert get_user_model().objects.get(pk=guest.pk).username == guest.username


def test_sign_up_goes_back_only_to_this_site(client, db):
    response = client.post(
        "/accounts/signup/", {"username": "wanderer", "next": "https://elsewhere.example/", **FORM}
    )
    assert response.status_code == 302 and response["Location"] == "/"


# ---- the scheduler's clean-ups ---------------------------------------------------------------


def at(days_ago: float) -> dt.datetime:
    return timezone.now() - dt.timedelta(days=days_ago)


def a_guest(client: Client, *, joined: float, played: float | None) -> object:
    """A guest that joined `joined` days ago and last acted `played` days ago (None: never)."""
    play_now(client)
    guest = the_guest(client)
    get_user_model().objects.filter(pk=guest.pk).update(date_joined=at(joined))
    game = Game.objects.get(owner=guest)
    Game.objects.filter(pk=game.pk).update(created_at=at(joined))
    if played is not None:
        client.post(f"{GAMES}/{game.id}/actions", {"type": "draw"}, content_type="application/json")
        Action.objects.filter(game=game).update(at=at(played))
    return guest


def test_remove_guests_removes_only_guests_unused_for_30_days(db, make_user, capsys):
    unused = a_guest(Client(), joined=40, played=31)
    never_played = a_guest(Client(), joined=31, played=None)
    recent_action = a_guest(Client(), joined=40, played=29)
    recent_guest = a_guest(Client(), joined=3, played=None)
    person = make_user("oldtimer")
    get_user_model().objects.filter(pk=person.pk).update(date_joined=at(400))
    game_create(owner=person)
    Game.objects.filter(owner=person).update(created_at=at(400))

    call_command("remove_guests")
    call_command("remove_guests")  # idempotent

    remaining = set(get_user_model().objects.values_list("pk", flat=True))
    assert remaining == {recent_action.pk, recent_guest.pk, person.pk}
    assert not Game.objects.filter(owner_id__in=[unused.pk, never_played.pk]).exists()
    assert "2 guest(s) removed" in capsys.readouterr().out


def test_end_idle_games_ends_games_left_a_week_and_they_never_count(db, user, auth_client):
    # given a player's games: one left 8 days ago after a move, one dealt 8 days ago but played
    # 6 days ago, one dealt yesterday
    left = auth_client.post(GAMES, {}, format="json").json()["id"]
    auth_client.post(f"{GAMES}/{left}/actions", {"type": "draw"}, format="json")
    Game.objects.filter(pk=left).update(created_at=at(8))
    Action.objects.filter(game_id=left).update(at=at(8))
    resumed = auth_client.post(GAMES, {}, format="json").json()["id"]
    auth_client.post(f"{GAMES}/{resumed}/actions", {"type": "draw"}, format="json")
    Game.objects.filter(pk=resumed).update(created_at=at(8))
    Action.objects.filter(game_id=resumed).update(at=at(6))
    recent = auth_client.post(GAMES, {}, format="json").json()["id"]
    Game.objects.filter(pk=recent).update(created_at=at(1))

    # when the scheduler's hourly round runs
    call_command("end_idle_games")

    # then only the game left a week is over: resigned (docs/api.md's values), and uncounted
    ended = auth_client.get(f"{GAMES}/{left}").json()
    assert (ended["status"], ended["end_reason"], ended["moves"]) == ("resigned", "resigned", 1)
    assert ended["finished_at"] is not None
    assert Game.objects.get(pk=left).left
    assert (
        auth_client.post(f"{GAMES}/{left}/actions", {"type": "draw"}, format="json").json()[
            "error"
        ]["code"]
        == "game_over"
    )
    assert {game: Game.objects.get(pk=game).status for game in (resumed, recent)} == {
        resumed: "playing",
        recent: "playing",
    }
    assert auth_client.get(f"/api/v1/players/{user.username}").json()["games"] == 0
    # and its log still replays to what is stored (`manage.py verify_games`)
    assert game_verify(Game.objects.get(pk=left)) == []
    # and the account's event stream tells its end (accounts/events.py)
    (told,) = [
        e for e in events.events_after(user_id=user.pk, after=0) if e["type"] == "game_ended"
    ]
    assert told["data"] == {
        "game": left,
        "status": "resigned",
        "score": 0,
        "end_reason": "resigned",
    }


def test_statistics_count_games_that_are_over_with_a_move(db, user, auth_client):
    # given four deals tried and left, one ended at once, and two played and ended
    tried = [auth_client.post(GAMES, {}, format="json").json()["id"] for _ in range(4)]
    for game in tried[:2]:
        auth_client.post(f"{GAMES}/{game}/actions", {"type": "draw"}, format="json")
    untouched = auth_client.post(GAMES, {}, format="json").json()["id"]
    auth_client.post(f"{GAMES}/{untouched}/actions", {"type": "resign"}, format="json")
    played = []
    for draw in (3, 1):
        game = auth_client.post(GAMES, {"draw": draw}, format="json").json()["id"]
        auth_client.post(f"{GAMES}/{game}/actions", {"type": "draw"}, format="json")
        auth_client.post(f"{GAMES}/{game}/actions", {"type": "resign"}, format="json")
        played.append(game)

    stats = auth_client.get(f"/api/v1/players/{user.username}").json()

    # then only the two played and ended count: no "4 games, 0 wins" for the tried deals
    assert (stats["games"], stats["wins"]) == (2, 0)


def test_the_scheduler_runs_every_job_in_one_round(db, settings, capsys):
    from games.days import day_today
    from games.models import DailyChallenge
    from matches.models import MatchDeal

    # given a guest unused for 31 days, an idle practice game and an empty match deal pool
    settings.MATCH_POOL_SIZE = 1
    unused = a_guest(Client(), joined=40, played=31)
    keeper = a_guest(Client(), joined=3, played=None)
    idle = game_create(owner=keeper)
    Game.objects.filter(pk=idle.pk).update(created_at=at(8))

    # when one round of the scheduler runs (one process: `manage.py scheduler`)
    call_command("scheduler", once=True)

    # then every job ran: the clean-ups, today's and tomorrow's dailies, the match deal pool
    out = capsys.readouterr().out
    assert not get_user_model().objects.filter(pk=unused.pk).exists()
    assert Game.objects.get(pk=idle.pk).status != "playing"
    today = day_today()
    days = set(DailyChallenge.objects.values_list("date", flat=True))
    assert {today, today + dt.timedelta(days=1)} <= days
    assert MatchDeal.objects.filter(used_at=None).values_list("draw", flat=True).count() == 2
    for said in (
        "challenge(s) created",
        "address",
        "game(s) ended: idle",
        "guest(s) removed",
        "daily game(s) ended",
        "match(es) closed",
        "match deal(s) added",
    ):
        assert said in out, out


def test_play_now_makes_the_guest_its_session_and_its_game_in_one_commit(transactional_db):
    # given a visitor without a session
    visitor = Client()

    # when it presses Play now
    with CaptureQueriesContext(connection) as queries:
        response = play_now(visitor)

    # then the guest, its session and its game are written in one transaction, and the
    # session's last save (its data once logged in) is the only other commit: a commit is a
    # flush to disk while a web worker waits (issue 30), and a half-made guest is never seen
    sql = [query["sql"] for query in queries]
    assert response.status_code == 302
    guest = the_guest(visitor)
    assert Game.objects.filter(owner=guest).count() == 1
    assert events.events_last(user_id=guest.pk) > 0  # its game_started event too
    assert sql.count("COMMIT") == 2, sql
    # and no work a new account has no use for: the session is inserted once (not inserted
    # empty, then updated), `last_login` comes with the account's row, no failed-login
    # clean-up for a name no one ever tried
    assert len(sql) <= 10, sql
    assert sum(q.startswith('INSERT INTO "django_session"') for q in sql) == 1, sql
    assert not any(q.startswith(('UPDATE "django_session"', 'UPDATE "auth_user"')) for q in sql)
    assert not any("axes_accessattempt" in q for q in sql), sql
    assert guest.last_login is not None
    assert not guest.has_usable_password()  # never hashed: no password to check at any door


def test_a_guest_made_by_play_now_stays_signed_in(client, db):
    # given a guest made by Play now
    play_now(client)
    guest = the_guest(client)

    # when its browser comes back to its table and the API
    table = client.get(f"/play/{Game.objects.get(owner=guest).pk}")
    account = client.get("/api/v1/account")

    # then its session holds: the page opens and the API knows the guest
    assert table.status_code == 200
    assert account.status_code == 200 and account.json()["username"] == guest.username


def test_play_now_gives_a_session_the_visitor_brought_a_new_key(client, db):
    # given a visitor with a session made before (anonymous: e.g. planted by someone else)
    planted = SessionStore()
    planted["seen"] = True
    planted.create()
    client.cookies["sessionid"] = planted.session_key

    # when it presses Play now
    play_now(client)

    # then the guest's session has a key of its own, and the old one is gone (as login does)
    assert client.cookies["sessionid"].value != planted.session_key
    assert not SessionStore().exists(planted.session_key)
    assert the_guest(client).username.startswith("guest~")


def test_play_now_with_a_session_cookie_that_names_no_session_asks_again_without_it(client, db):
    # given a browser sending a session cookie the store does not know (expired, or made up:
    # nginx sends a Play now with a session cookie to the web pool, where no guest is made)
    client.cookies["sessionid"] = "nosuchsession0000000000000000000"
    users = get_user_model().objects.count()

    # when it presses Play now
    response = play_now(client)

    # then no guest is made here: the cookie is deleted and the same POST asked again (307
    # keeps the method and the form), which then goes where guests are made
    assert response.status_code == 307 and response["Location"] == "/play/now"
    assert client.cookies["sessionid"].value == ""
    assert get_user_model().objects.count() == users
    again = play_now(client)
    assert again.status_code == 302
    assert client.cookies["sessionid"].value not in ("", "nosuchsession0000000000000000000")
    assert the_guest(client).username.startswith("guest~")
