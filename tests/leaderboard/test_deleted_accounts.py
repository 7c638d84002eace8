"""A deleted account stays on the boards under `deleted-<n>` (docs/api.md "Accounts"): its
figures and everyone's ranks do not drift."""

from accounts.identity import account_delete

BOARD = "/api/v1/daily/2026-11-29/leaderboard"


def test_a_deleted_player_keeps_its_place_under_its_new_name(noon, player_entry, api_client):
    # given: three players on today's board
    player_entry("first", score=30, moves=10)
    middle = player_entry("middle", score=20, moves=10)
    player_entry("last", score=10, moves=10)
    before = api_client.get(BOARD).json()["results"]

    # when: the middle one deletes the account
    account_delete(user=middle.player)

    # then: the same board, the middle row renamed, nothing else moved
    after = api_client.get(BOARD).json()["results"]
    renamed = f"deleted-{middle.player.pk}"
    assert [row["player"] for row in after] == ["first", renamed, "last"]
    assert [{**row, "player": None} for row in after] == [{**row, "player": None} for row in before]
