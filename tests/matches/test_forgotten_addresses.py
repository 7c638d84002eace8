"""Client-address hashes are forgotten wherever they are kept: on games, on match seats and on
challenges, and on any model that holds one later (found by its fields, not by a list of
models). A duel made by a challenge hashes each seat from its own player's client."""

import datetime as dt

from django.apps import apps
from django.core.management import call_command
from django.utils import timezone

from games.models import Game
from games.services import HASH_FIELDS
from matches.models import Challenge, MatchPlayer

PASSWORD = "correct-horse-battery"


def hashes_kept() -> dict[str, int]:
    """How many rows of each installed model hold a non-empty client hash in any field named
    like one (…address_hash, …device_hash)."""
    kept = {}
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if field.name.endswith(HASH_FIELDS):
                count = model._default_manager.exclude(**{field.name: ""}).count()
                if count:
                    kept[f"{model._meta.label}.{field.name}"] = count
    return kept


def duel(pool, players):
    pool(2)
    seated = players(2)
    for _user, client in seated:
        answer = client.post("/api/v1/matches", {"size": 2, "draw": 3}, format="json")
        assert answer.status_code == 201, answer.json()
    return seated


def test_a_deleted_account_leaves_no_address_hash_anywhere(pool, players):
    # given: two players seated in a duel, their games and seats hashed
    (anna, anna_client), (bob, _bob_client) = duel(pool, players)
    assert hashes_kept()["matches.MatchPlayer.address_hash"] == 2
    assert hashes_kept()["games.Game.address_hash"] == 2

    # when: anna deletes her account
    response = anna_client.delete("/api/v1/account", {"password": PASSWORD}, format="json")

    # then: none of hers is left, on any model; bob's stay
    assert response.status_code == 204
    assert hashes_kept() == {"games.Game.address_hash": 1, "matches.MatchPlayer.address_hash": 1}
    assert MatchPlayer.objects.get(player=bob).address_hash != ""


def test_forget_addresses_empties_old_match_seats_as_it_does_games(pool, players):
    # given: a duel joined ADDRESS_HASH_DAYS and a minute ago
    duel(pool, players)
    old = timezone.now() - dt.timedelta(days=30, minutes=1)
    MatchPlayer.objects.update(joined_at=old)
    Game.objects.update(created_at=old)
    assert len(hashes_kept()) == 2

    # when
    call_command("forget_addresses")

    # then
    assert hashes_kept() == {}


def challenged_duel(pool, players):
    """A duel made by a challenge: p0 challenges p1 (each from an address of their own), who
    accepts."""
    pool(2)
    seated = players(2)
    (_anna, anna_client), (bob, bob_client) = seated
    made = anna_client.post("/api/v1/challenges", {"player": bob.username}, format="json")
    assert made.status_code == 201, made.json()
    accepted = bob_client.post(f"/api/v1/challenges/{made.json()['id']}/accept", format="json")
    assert accepted.status_code == 201, accepted.json()
    return seated


def test_a_challengers_seat_and_game_keep_the_hash_of_the_challengers_client(pool, players):
    # given: anna challenged bob from her address, and bob accepted from his
    (anna, anna_client), (bob, _bob_client) = challenged_duel(pool, players)

    # when: anna deals a game of her own from the same address
    dealt = anna_client.post("/api/v1/games", {}, format="json").json()

    # then: her seat and her duel game hold her address's hash, as bob's hold his (the seats
    # of a joined match hold each joining client's)
    anna_hash = Game.objects.get(pk=dealt["id"]).address_hash
    seats = {seat.player: seat for seat in MatchPlayer.objects.select_related("game")}
    assert seats[anna].address_hash == seats[anna].game.address_hash == anna_hash != ""
    assert seats[bob].address_hash == seats[bob].game.address_hash not in ("", anna_hash)


def test_a_deleted_challenger_leaves_no_address_hash_anywhere(pool, players):
    # given: a duel made by anna's challenge to bob
    (anna, anna_client), (bob, _bob_client) = challenged_duel(pool, players)
    assert hashes_kept()["matches.Challenge.address_hash"] == 1

    # when: anna deletes her account
    response = anna_client.delete("/api/v1/account", {"password": PASSWORD}, format="json")

    # then: none of hers is left, on the challenge either; bob's stay
    assert response.status_code == 204
    assert hashes_kept() == {"games.Game.address_hash": 1, "matches.MatchPlayer.address_hash": 1}
    assert MatchPlayer.objects.get(player=bob).address_hash != ""


def test_forget_addresses_empties_old_challenges_as_it_does_games(pool, players):
    # given: a duel challenged, accepted and dealt ADDRESS_HASH_DAYS and a minute ago
    challenged_duel(pool, players)
    old = timezone.now() - dt.timedelta(days=30, minutes=1)
    Challenge.objects.update(created_at=old)
    MatchPlayer.objects.update(joined_at=old)
    Game.objects.update(created_at=old)
    assert len(hashes_kept()) == 3

    # when
    call_command("forget_addresses")

    # then
    assert hashes_kept() == {}
