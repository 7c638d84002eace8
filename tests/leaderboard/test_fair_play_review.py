"""Multi-account review (issue 10): each game keeps a keyed hash of the client address that dealt
it, the admin lists the board entries whose address other accounts shared on that day's deals
(most suspicious first) with the Disqualify action, and hashes are dropped after 30 days."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
import time_machine
from django.core.management import call_command

from games.models import Game
from leaderboard.models import Entry

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
REVIEW = "/admin/leaderboard/entry/?shared_address=yes"


@pytest.fixture
def noon():
    with time_machine.travel(NOON, tick=True) as traveller:
        yield traveller


def start(client_for, user, address: str, **body) -> dict:
    client = client_for(user)
    response = client.post(
        "/api/v1/games", body or {"daily": True}, format="json", REMOTE_ADDR=address
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_a_game_keeps_a_keyed_hash_of_its_address_never_the_address(
    make_user, client_for, settings
):
    alice, bob = make_user("alice"), make_user("bob")

    first = Game.objects.get(id=start(client_for, alice, "203.0.113.5")["id"])
    same = Game.objects.get(id=start(client_for, bob, "203.0.113.5", draw=1, daily=True)["id"])
    other = Game.objects.get(id=start(client_for, bob, "203.0.113.6", draw=3)["id"])

    assert len(first.address_hash) == 64
    assert first.address_hash == same.address_hash != other.address_hash
    assert "203.0.113.5" not in first.address_hash
    assert first.address_hash != hashlib.sha256(b"203.0.113.5").hexdigest()  # keyed, not plain
    settings.ADDRESS_HASH_SECRET = "another-key"
    rekeyed = Game.objects.get(id=start(client_for, make_user("carol"), "203.0.113.5")["id"])
    assert rekeyed.address_hash != first.address_hash


def test_the_review_lists_entries_sharing_an_address_most_suspicious_first(
    noon, make_user, client_for, admin_client
):
    # given: on one address, two throwaway accounts play today's draw-3 deal and a third
    # ranks with it; on another, two accounts share; a fair player is alone
    names = ["scout1", "scout2", "champ", "pair1", "pair2", "fair"]
    users = {name: make_user(name) for name in names}
    for name in ("scout1", "scout2", "champ"):
        start(client_for, users[name], "198.51.100.1")
    for name in ("pair1", "pair2"):
        start(client_for, users[name], "198.51.100.2")
    start(client_for, users["fair"], "198.51.100.3")
    Entry.objects.filter(player__username="champ").update(score=255)

    # when
    page = admin_client.get(REVIEW).content.decode()

    # then: champ first (two others, best score), then its scouts, then the pair; not fair
    order = [name for name in names if f">{name}<" in page]
    assert sorted(order) == sorted(["scout1", "scout2", "champ", "pair1", "pair2"])
    positions = sorted(order, key=lambda name: page.index(f">{name}<"))
    assert positions[0] == "champ"
    assert set(positions[1:3]) == {"scout1", "scout2"}
    assert set(positions[3:]) == {"pair1", "pair2"}
    assert "scout1, scout2" in page  # who shares champ's address


def test_practice_games_of_the_days_deal_count_as_exploring_it(
    noon, make_user, client_for, admin_client
):
    # given: a second account deals today's deal as a practice game (by its number) from the
    # ranked player's address, and a third plays an unrelated random game there
    champ, scout, other = make_user("champ"), make_user("scout"), make_user("other")
    ranked = start(client_for, champ, "198.51.100.9")
    deal_code = Game.objects.get(id=ranked["id"]).deal_code
    Game.objects.create(
        owner=scout, ruleset="app", draw=3, deal_code=deal_code, practice=True, state={},
        address_hash=Game.objects.get(id=ranked["id"]).address_hash,
    )  # fmt: skip
    start(client_for, other, "198.51.100.9", draw=3)

    # when
    page = admin_client.get(REVIEW).content.decode()

    # then
    assert ">champ<" in page
    assert "scout" in page
    assert ">other<" not in page and ", other" not in page


def test_entries_of_other_days_are_not_linked(make_user, client_for, admin_client):
    alice, bob = make_user("alice"), make_user("bob")
    with time_machine.travel(NOON):
        start(client_for, alice, "198.51.100.4")
    with time_machine.travel(NOON + dt.timedelta(days=1)):
        start(client_for, bob, "198.51.100.4")

    page = admin_client.get(REVIEW).content.decode()

    assert ">alice<" not in page and ">bob<" not in page


def test_the_review_disqualifies_with_the_audited_action(noon, make_user, client_for, admin_client):
    for name in ("alt1", "alt2"):
        start(client_for, make_user(name), "198.51.100.7")
    flagged = list(Entry.objects.values_list("pk", flat=True))

    response = admin_client.post(
        REVIEW, {"action": "disqualify_entries", "_selected_action": flagged}, follow=True
    )

    assert response.status_code == 200
    assert Entry.objects.filter(disqualified=True).count() == 2


def test_hashes_older_than_30_days_are_dropped(make_user, client_for):
    alice = make_user("alice")
    with time_machine.travel(NOON - dt.timedelta(days=31)):
        old = start(client_for, alice, "198.51.100.8", draw=3)
    with time_machine.travel(NOON - dt.timedelta(days=29)):
        recent = start(client_for, alice, "198.51.100.8", draw=3)

    with time_machine.travel(NOON):
        call_command("forget_addresses")

    assert Game.objects.get(id=old["id"]).address_hash == ""
    assert Game.objects.get(id=recent["id"]).address_hash != ""
