"""Django admin: games, read-only actions, players and daily challenges with search, and the
audited "disqualify" action that takes entries off the leaderboards."""

import datetime as dt

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from games.models import Action
from leaderboard.admin import AUDIT_MESSAGE
from leaderboard.models import Entry
from leaderboard.services import daily_game_get_or_create


@pytest.fixture
def two_on_the_board(make_user, client_for):
    players = []
    for name in ("alice", "bob"):
        user = make_user(name)
        game, _ = daily_game_get_or_create(player=user, draw=3)
        client = client_for(user)
        client.post(f"/api/v1/games/{game.id}/actions", {"type": "draw"}, format="json")
        players.append((user, game, client))
    return players


def board(api_client, game) -> dict:
    date = game.challenge.date.isoformat()
    return api_client.get(f"/api/v1/daily/{date}/leaderboard?draw=3").json()


def test_admin_pages_list_and_search_everything(admin_client, two_on_the_board):
    _, game, _ = two_on_the_board[0]
    pages = [
        "/admin/games/game/?q=alice",
        f"/admin/games/game/?q={game.id}",
        f"/admin/games/game/{game.id}/change/",
        "/admin/games/action/?q=alice",
        f"/admin/games/dailychallenge/?q={game.challenge.date.year}",
        "/admin/leaderboard/entry/?q=bob",
        "/admin/auth/user/?q=alice",
    ]
    for page in pages:
        response = admin_client.get(page)
        assert response.status_code == 200, page
    assert b"alice" in admin_client.get("/admin/games/game/?q=alice").content
    assert b"bob" not in admin_client.get("/admin/leaderboard/entry/?q=alice").content


def test_actions_are_read_only_in_the_admin(admin_client, two_on_the_board):
    action = Action.objects.first()

    assert admin_client.get("/admin/games/action/add/").status_code == 403
    page = admin_client.get(f"/admin/games/action/{action.pk}/change/")
    assert page.status_code == 200
    assert b'name="type"' not in page.content  # shown, not editable
    response = admin_client.post(f"/admin/games/action/{action.pk}/delete/", {"post": "yes"})
    assert response.status_code == 403
    assert Action.objects.filter(pk=action.pk).exists()


def test_disqualifying_an_entry_takes_it_off_the_board_with_an_audit_record(
    admin_client, admin_user, api_client, two_on_the_board
):
    (alice, game, alice_client), (bob, _, _) = two_on_the_board
    entry = Entry.objects.get(player=alice)
    assert board(api_client, game)["count"] == 2

    # when
    response = admin_client.post(
        "/admin/leaderboard/entry/",
        {"action": "disqualify_entries", "_selected_action": [entry.pk]},
    )

    # then: off the board and its count, recorded in the admin's history
    assert response.status_code == 302
    after = board(api_client, game)
    assert [row["player"] for row in after["results"]] == ["bob"]
    assert after["count"] == 1
    daily = api_client.get(f"/api/v1/daily/{game.challenge.date.isoformat()}").json()
    assert {b["draw"]: b["players"] for b in daily["boards"]}[3] == 1
    [record] = LogEntry.objects.filter(object_id=str(entry.pk))
    assert record.user == admin_user
    assert record.get_change_message() == AUDIT_MESSAGE

    # and: playing on does not bring the entry back
    alice_client.post(f"/api/v1/games/{game.id}/actions", {"type": "draw"}, format="json")
    assert [row["player"] for row in board(api_client, game)["results"]] == ["bob"]


def test_disqualifying_a_player_takes_all_their_entries_off(
    admin_client, api_client, two_on_the_board
):
    (alice, game, _), _ = two_on_the_board
    daily_game_get_or_create(player=alice, draw=1)

    response = admin_client.post(
        "/admin/auth/user/", {"action": "disqualify_players", "_selected_action": [alice.pk]}
    )

    assert response.status_code == 302
    assert set(Entry.objects.filter(player=alice).values_list("disqualified", flat=True)) == {True}
    assert LogEntry.objects.filter(change_message=AUDIT_MESSAGE).count() == 2
    assert [row["player"] for row in board(api_client, game)["results"]] == ["bob"]


def shown(value: str, page: str) -> bool:
    """Whether the value is on an admin page as a value: alone in an element, or quoted in a
    list or JSON as the admin renders them (escaped)."""
    forms = (f">{value}<", f"&#x27;{value}&#x27;", f"&quot;{value}&quot;", f'"{value}"')
    return any(form in page for form in forms)


def test_a_daily_s_secrets_are_hidden_from_staff_until_its_day_ends(admin_client, two_on_the_board):
    # given: alice has drawn from today's daily stock; its code and line exist on the server
    _, game, _ = two_on_the_board[0]
    challenge = game.challenge
    drawn = Action.objects.get(game=game, type="draw")
    secrets = [challenge.deal_code, *drawn.cards]
    pages = [
        f"/admin/games/game/{game.id}/change/",
        f"/admin/games/action/{drawn.pk}/change/",
        "/admin/games/dailychallenge/",
        f"/admin/games/dailychallenge/{challenge.pk}/change/",
    ]

    # then: none of them appears on any admin page while the day lasts
    for page in pages:
        response = admin_client.get(page)
        assert response.status_code == 200, page
        text = response.content.decode()
        assert "hidden until the daily" in text, page
        for secret in secrets:
            assert not shown(secret, text), (page, secret)

    # when the day is over, everything shows
    challenge.ends_at = timezone.now() - dt.timedelta(seconds=1)
    challenge.save(update_fields=["ends_at"])
    game_page = admin_client.get(pages[0]).content.decode()
    assert challenge.deal_code in game_page
    assert all(shown(card, admin_client.get(pages[1]).content.decode()) for card in drawn.cards)
    assert challenge.deal_code in admin_client.get(pages[2]).content.decode()
    assert "hidden until the daily" not in game_page


def test_daily_challenges_cannot_be_edited_or_deleted_in_the_admin(admin_client, two_on_the_board):
    challenge = two_on_the_board[0][1].challenge

    assert admin_client.get("/admin/games/dailychallenge/add/").status_code == 403
    response = admin_client.post(
        f"/admin/games/dailychallenge/{challenge.pk}/change/", {"deal_code": "CF1-D3-AAAAAAB"}
    )
    assert response.status_code == 403
    challenge.refresh_from_db()
    assert challenge.deal_code != "CF1-D3-AAAAAAB"
