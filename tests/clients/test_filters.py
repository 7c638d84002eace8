"""The official client's filters of the lists of games and the export, its batch read, and its
typed error for an unknown query parameter (docs/api.md "Conventions", lists: filters)."""

from __future__ import annotations

import datetime as dt

from canfield_client import GameFilters, UnknownParameter
from canfield_client.errors import error_from

from tests import net


def test_filters_reach_the_lists_and_the_export(player):
    one = player.new_game(draw=1)
    three = player.new_game(draw=3, ruleset="classic")
    player.resign(three)
    name = player.account().username

    assert [g.id for g in player.games(filters=GameFilters(draw=1)).results] == [one.id]
    assert [g.id for g in player.games(filters=GameFilters(max=1)).results] == [three.id]
    assert player.games(filters=GameFilters(match=True)).results == []
    later = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)
    assert player.games(filters=GameFilters(since=later)).results == []
    assert [g.id for g in player.export(filters=GameFilters(ruleset="classic"))] == [three.id]
    assert [g.id for g in player.export(status="playing")] == [one.id]
    public = player.player_games(name, filters=GameFilters(until=dt.date.today() + dt.timedelta(1)))
    assert [g.id for g in public.results] == [three.id]
    assert [g.id for g in player.games_by_ids([one.id, three.id])] == [one.id, three.id]


def test_an_unknown_parameter_is_a_typed_error(base_url, player):
    answer = net.get(
        f"{base_url}/api/v1/games?rated=true",
        headers={"Authorization": f"Bearer {player.token}", "Accept-Language": "pl"},
    )
    error = error_from(answer.status_code, answer.json(), answer.headers)
    assert isinstance(error, UnknownParameter) and error.params == {"parameters": ["rated"]}
    assert error.message == "Nieznany parametr zapytania: rated."
