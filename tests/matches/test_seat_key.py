"""A game's match is its seat's (games.seats): games/migrations/0016_game_match_to_seat.py
dropped `Game.match` once the seats were checked to say the same, and migrated back it fills
the column again from the seats."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game
from games.seats import game_match_id
from games.services import game_create
from matches import services

BEFORE = [("games", "0015_dailychallenge_from_leaderboard")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_today():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_match_key_goes_and_comes_back_from_the_seats(make_user):
    # given: a match game (seated) and a practice one
    anna = make_user("anna")
    match = services.match_join(player=anna, size=2, draw=3, address_hash="a" * 64).match
    seated = Game.objects.get(owner=anna, match_seat__match=match)
    practice = game_create(owner=anna)
    try:
        # when: migrated back to the column
        then = migrate(BEFORE)
        games = then.get_model("games", "Game").objects
        back = dict(games.values_list("pk", "match_id"))
    finally:
        migrate_to_today()

    # then: the column said what the seats say; forward again, the seats say it alone
    assert back == {seated.pk: match.pk, practice.pk: None}
    assert game_match_id(Game.objects.get(pk=seated.pk)) == match.pk
    assert game_match_id(Game.objects.get(pk=practice.pk)) is None


@pytest.mark.django_db(transaction=True)
def test_the_column_is_not_dropped_while_a_game_disagrees_with_its_seat(make_user):
    # given: the column back, and a game whose column names no match while its seat does
    anna = make_user("anna")
    match = services.match_join(player=anna, size=2, draw=3, address_hash="a" * 64).match
    then = migrate(BEFORE)
    try:
        then.get_model("games", "Game").objects.update(match=None)

        # when / then: the migration refuses, and nothing is dropped
        with pytest.raises(RuntimeError, match="not their seat's"):
            migrate_to_today()
        assert then.get_model("games", "Game").objects.filter(match__isnull=True).count() == 1
    finally:
        then.get_model("games", "Game").objects.update(match=match.pk)
        migrate_to_today()
