"""The live board's messages in both forms a server may send (per-entry before the batches,
batches after), and the standings they build."""

from __future__ import annotations

from canfield_client import Entries, Removed, Snapshot, Standings
from canfield_client.models import board_event


def entry(player: str, rank: int, score: int, moves: int = 10) -> dict:
    return {"rank": rank, "player": player, "score": score, "moves": moves, "seconds": 30.0,
            "status": "playing", "game": None}  # fmt: skip


def test_batches_and_per_entry_messages_read_alike():
    snapshot = board_event({"type": "snapshot", "count": 2, "results": [entry("a", 1, 50)]})
    assert isinstance(snapshot, Snapshot) and snapshot.count == 2
    old_snapshot = board_event({"type": "snapshot", "results": [entry("a", 1, 50)]})
    assert isinstance(old_snapshot, Snapshot) and old_snapshot.count == 1
    batch = board_event({"type": "entries", "count": 3, "entries": [entry("b", 1, 60)]})
    single = board_event({"type": "entry", "entry": entry("b", 1, 60)})
    assert isinstance(batch, Entries) and isinstance(single, Entries)
    assert batch.entries == single.entries and (batch.count, single.count) == (3, None)
    assert board_event({"type": "removed", "player": "a"}) == Removed("a")
    assert board_event({"type": "something-new"}) is None


def test_standings_follow_the_events_in_the_boards_order():
    standings = Standings(size=2)
    standings.apply(Snapshot(3, [board_event_entry("a", 1, 50), board_event_entry("b", 2, 40)]))
    # c overtakes both; the batch carries c alone, a and b keep their old ranks.
    standings.apply(Entries(4, [board_event_entry("c", 1, 70)]))
    assert [(e.player, e.rank) for e in standings.top()] == [("c", 1), ("a", 2)]
    assert standings.count == 4 and not standings.incomplete
    standings.apply(Removed("c"))
    # b fell out of the rows kept when c came: its place must be read again
    assert [e.player for e in standings.top()] == ["a"] and standings.count == 3
    assert standings.incomplete
    standings.apply(Snapshot(3, [board_event_entry("a", 1, 50), board_event_entry("b", 2, 40)]))
    assert [e.player for e in standings.top()] == ["a", "b"] and not standings.incomplete
    standings.apply(Entries(None, [board_event_entry("d", 2, 45)]))  # per-entry server
    assert [e.player for e in standings.top()] == ["a", "d"] and standings.count == 4


def test_standings_keep_the_unchanged_rows_order_whatever_their_seconds():
    # given: a top 3 whose order the server decided (ties broken by who reached it first)
    standings = Standings(size=3)
    first, second, third = (board_event_entry(p, r, 50) for p, r in (("x", 1), ("y", 2), ("z", 3)))
    standings.apply(Snapshot(5, [first, second, third]))

    # when: the leader drops below the rows kept, and an entry from below takes place 2
    standings.apply(Entries(5, [board_event_entry("x", 5, 10), board_event_entry("w", 2, 60)]))

    # then: y and z keep their order around w; x is gone, and nothing is missing
    assert [(e.player, e.rank) for e in standings.top()] == [("y", 1), ("w", 2), ("z", 3)]
    assert not standings.incomplete

    # when: the new second falls below too, nobody known can fill its place
    standings.apply(Entries(5, [board_event_entry("w", 4, 5)]))
    assert [e.player for e in standings.top()] == ["y", "z"] and standings.incomplete


def board_event_entry(player: str, rank: int, score: int):
    event = board_event({"type": "entry", "entry": entry(player, rank, score)})
    assert isinstance(event, Entries)
    return event.entries[0]
