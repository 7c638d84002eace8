"""Client-address hashes are forgotten wherever they are kept: on games and on match seats, and
on any model that holds one later (found by its fields, not by a list of models)."""

import datetime as dt

from django.apps import apps
from django.core.management import call_command
from django.utils import timezone

from games.models import Game
from games.services import HASH_FIELDS
from matches.models import MatchPlayer

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
