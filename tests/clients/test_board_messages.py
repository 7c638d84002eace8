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
    assert [e.player for e in standings.top()] == ["c", "a"] and standings.count == 4
    standings.apply(Removed("c"))
    assert [e.player for e in standings.top()] == ["a", "b"] and standings.count == 3
    standings.apply(Entries(None, [board_event_entry("d", 2, 45)]))  # per-entry server
    assert [e.player for e in standings.top()] == ["a", "d"] and standings.count == 4


def board_event_entry(player: str, rank: int, score: int):
    event = board_event({"type": "entry", "entry": entry(player, rank, score)})
    assert isinstance(event, Entries)
    return event.entries[0]
