"""Each daily board's live state beside PostgreSQL (the source of truth): its ranking by
(score, moves), the entries changed since its last live batch, the number of that batch and
the snapshot a new listener gets. A challenge has two boards, its people's and its bots'
(R34), each with its own state (`board_id`).

With REDIS_URL the state lives in Redis, shared by every process, under `board:{db}:{id}:`:
- `ranking`, a sorted set (member: game id, value: `rank_key(score, moves)`): how many entries
  rank ahead of a (score, moves), and which (score, moves) sits at an offset, in O(log n);
- `versions`, a hash (game id -> the game's action count when its entry changed, or REMOVED):
  a change is applied only if it is newer, so that writers racing after their commits, and a
  rebuild racing with actions, leave the newest figures;
- `ready`, set once the ranking has been rebuilt from PostgreSQL: until then (a new or flushed
  Redis, a write this process could not make) reads answer NotReady;
- `building` (the one builder's token), `new-ranking` and `new-versions`: a rebuild under way,
  made apart and renamed into place when done (`RedisBoards.ranking_build`);
- `changed`, a set of game ids, moved into `taken` by the one process that claims a tick
  (`tick:{n}`), which holds the board (`publishing`: the tick's number) until its batch is out;
  `taken` is emptied only then, so that games whose batch was never sent (Redis answered the
  take too late, the database or the layer failed) go into the next tick's batch;
- `seq` and `snapshot:{seq}`: the last batch's number (growing, across Redis restarts too) and
  the board's first page after it.
Without Redis (the embedded mode: one process serves HTTP and WebSockets) the changed sets, the
batch numbers and the snapshots live in this process, and the ranking is counted in the database.

A failing Redis never fails the caller: a write is skipped (and the board rebuilt once Redis
answers this process again), a read answers None and the caller counts in the database.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import threading
import time
import uuid
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import Any

import redis
from django.conf import settings
from django.db import close_old_connections, connections, transaction
from django.db.models import Count, Q
from django.utils import timezone

from core import metrics
from core.logs import WarnEvery
from core.redis_clients import redis_client
from games.models import DailyChallenge
from leaderboard.models import Entry

logger = logging.getLogger(__name__)

# In a board's changed games: its writes failed while Redis was away, so what changed is
# unknown (RedisBoards._repair_missed).
RESYNC = "resync"
# The version of a disqualified entry: no later change puts it back on the board.
REMOVED = 2**52
# R35: the versions of an entry held by the fair-play review (off the board) and cleared by
# staff (back on it): above any game's, below REMOVED. Only a finished game is held.
HELD, CLEARED = 2**51, 2**51 + 1
# A board's keys outlive its day by this much (its past board is read rarely; a read after they
# expired rebuilds them).
KEPT = dt.timedelta(days=2)
SNAPSHOT_SECONDS = 3600
# The longest a process holds a board between taking its changes and publishing them (it
# crashed, or Redis failed it): then another may make the next batch.
PUBLISHING = dt.timedelta(seconds=5)
# The embedded mode's kept snapshot is read again after this long: this process hears only of
# its own writes, not of another process's (a management command, a shell).
LOCAL_SNAPSHOT_SECONDS = 5.0
REDIS_TIMEOUT = 0.5
# Entries per slice of a rebuild: one plain ZADD and one HSET, a fraction of a millisecond of
# Redis each (other callers' commands run between two slices).
BUILD_SLICE = 250
# Slices fetched from PostgreSQL at a time.
BUILD_FETCH = 20
# The builder's hold on a board (and its new keys' life): renewed at every slice, so that a
# builder that died frees the board within this.
BUILD_HOLD_SECONDS = 60
# While a big board's ranking is rebuilt in the background (RankingStandIn), its stand-in is
# read again from the database after this long (in the background: reads go on with the last
# one), and one older than STAND_IN_KEPT is not served at all (read again first).
STAND_IN_SECONDS = 1.0
STAND_IN_KEPT = 30.0
# A process tries to start a board's background rebuild at most this often (another process
# may hold the build).
REBUILD_RETRY_SECONDS = 1.0

# What a ranking read's script answers while the board's ranking is not built.
NOT_READY = b"not ready"
# A change: (game id, version, rank_key or None when the entry left the board).
Change = tuple[str, int, int | None]
# A rebuild's entries (RedisBoards.ranking_build): given the new ranking's two keys, the Redis
# commands that fill them, a slice at a time (RESP text, and how many commands it holds).
BuildSlices = Callable[[str, str], Iterable[tuple[str, int]]]


class NotReady(Exception):
    """The board's ranking is not built in Redis (yet): count in the database."""


def board_id(challenge_id: int, *, bots: bool) -> int:
    """The id of a board's live state: a day's people and its bots are two boards of one
    challenge, ranked apart (R34), the people's under the challenge's id, the bots' under
    minus it."""
    return -challenge_id if bots else challenge_id


def rank_key(score: int, moves: int) -> int:
    """One number ordering (score desc, moves asc), exact in a double: lower ranks first."""
    return -score * 2**32 + moves


def key_figures(key: int) -> tuple[int, int]:
    """(score, moves) of a `rank_key`."""
    high = key // 2**32
    return -high, key - high * 2**32


_MERGE = """
local applied = 0
for i = 3, #ARGV, 3 do
    local member, version, key = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
    if version > tonumber(redis.call('HGET', KEYS[2], member) or '-1') then
        redis.call('HSET', KEYS[2], member, ARGV[i + 1])
        if key == '' then
            redis.call('ZREM', KEYS[1], member)
        else
            redis.call('ZADD', KEYS[1], key, member)
        end
        if ARGV[2] == '1' then redis.call('SADD', KEYS[3], member) end
        applied = applied + 1
    end
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return applied
"""
# A rebuild's start, by the one builder (KEYS: building, ranking, versions, ready, new-ranking,
# new-versions): the board's ranking is dropped, so that what writers merge into it from now
# on is what changed since the build's rows were read (they are read after this).
_BUILD_START = """
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[2]) then return 0 end
redis.call('UNLINK', KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
return 1
"""
# A rebuild's end, at once for every other caller (KEYS as _BUILD_START's): the changes writers
# merged meanwhile go into the new ranking where newer (as _MERGE does), which then takes the
# old one's place; 0 if the builder lost its hold (another builder, a forgotten ranking).
_BUILD_SWAP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    redis.call('UNLINK', KEYS[5], KEYS[6])
    return 0
end
local changed = redis.call('HGETALL', KEYS[3])
for i = 1, #changed, 2 do
    local member, version = changed[i], changed[i + 1]
    if tonumber(version) > tonumber(redis.call('HGET', KEYS[6], member) or '-1') then
        redis.call('HSET', KEYS[6], member, version)
        local key = redis.call('ZSCORE', KEYS[2], member)
        if key then
            redis.call('ZADD', KEYS[5], key, member)
        else
            redis.call('ZREM', KEYS[5], member)
        end
    end
end
for i = 2, 3 do
    if redis.call('EXISTS', KEYS[i + 3]) == 1 then
        redis.call('RENAME', KEYS[i + 3], KEYS[i])
        redis.call('EXPIRE', KEYS[i], ARGV[2])
    else
        redis.call('DEL', KEYS[i])
    end
end
redis.call('SET', KEYS[4], '1', 'EX', ARGV[2])
redis.call('DEL', KEYS[1])
return 1
"""
# KEYS: tick:{n}, changed, publishing, taken; ARGV: the hold's milliseconds, the tick, the
# life of `taken` (s).
_TAKE = """
if redis.call('EXISTS', KEYS[3]) == 1 then return false end
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', 10) then return false end
if redis.call('EXISTS', KEYS[2]) == 1 then
    redis.call('SUNIONSTORE', KEYS[4], KEYS[4], KEYS[2])
    redis.call('DEL', KEYS[2])
    redis.call('EXPIRE', KEYS[4], ARGV[3])
end
local members = redis.call('SMEMBERS', KEYS[4])
if #members > 0 then redis.call('SET', KEYS[3], ARGV[2], 'PX', ARGV[1]) end
return members
"""
# The board's hold let go by the tick that took it (ARGV[1]), and only by that one; its taken
# games dropped too when their batch is out (ARGV[2] '1'), else kept for the next tick.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    if ARGV[2] == '1' then redis.call('DEL', KEYS[2]) end
    redis.call('DEL', KEYS[1])
end
"""
# ARGV: the number of keys, the keys, then games whose keys in the ranking are answered too
# ('' where it has none), read at the same instant as the counts.
_BEFORE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'not ready' end
local n = tonumber(ARGV[1])
local counts, held = {}, {}
for i = 1, n do counts[i] = redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. ARGV[i + 1]) end
for i = n + 2, #ARGV do held[#held + 1] = redis.call('ZSCORE', KEYS[2], ARGV[i]) or '' end
return {counts, held}
"""
_COUNT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'not ready' end
return redis.call('ZCARD', KEYS[2])
"""
_AT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 'not ready' end
local found = redis.call('ZRANGE', KEYS[2], ARGV[1], ARGV[1], 'WITHSCORES')
if #found == 0 then return {} end
return {found[2], redis.call('ZCOUNT', KEYS[2], '-inf', '(' .. found[2])}
"""
_BATCH = """
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SET', KEYS[1], ARGV[4]) end
local seq = redis.call('INCR', KEYS[1])
redis.call('SET', KEYS[2] .. seq, ARGV[1], 'EX', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return seq
"""
_SNAPSHOT_GET = """
local seq = redis.call('GET', KEYS[1]) or '0'
return {seq, redis.call('GET', KEYS[2] .. seq)}
"""
_SNAPSHOT_PUT = """
if (redis.call('GET', KEYS[1]) or '0') == ARGV[1] then
    redis.call('SET', KEYS[2] .. ARGV[1], ARGV[2], 'EX', ARGV[3])
end
"""


def _expire_in(ends_at: dt.datetime) -> int:
    """Seconds a board's keys are kept: KEPT after the day's end. Relative (EXPIRE, not
    EXPIREAT), so that Redis's clock and ours need not agree."""
    now = timezone.now()
    return int((max(ends_at, now) - now + KEPT).total_seconds())


class RedisBoards:
    def __init__(self, url: str) -> None:
        self.client = redis_client(timeout=REDIS_TIMEOUT, url=url)
        database = settings.DATABASES["default"]["NAME"]
        self.namespace = f"board:{database}"
        self.scripts = {
            name: self.client.register_script(source)
            for name, source in (
                ("merge", _MERGE), ("build_start", _BUILD_START), ("build_swap", _BUILD_SWAP),
                ("take", _TAKE), ("release", _RELEASE), ("before", _BEFORE), ("count", _COUNT),
                ("at", _AT), ("batch", _BATCH), ("snapshot_get", _SNAPSHOT_GET),
                ("snapshot_put", _SNAPSHOT_PUT),
            )
        }  # fmt: skip
        # Boards whose writes failed here: rebuilt once Redis answers this process again.
        self.missed: set[int] = set()
        self.lock = threading.Lock()

    def _key(self, board: int, part: str) -> str:
        return f"{self.namespace}:{board}:{part}"

    def _run(self, name: str, board: int, parts: tuple[str, ...], args: list[Any]) -> Any:
        return self.scripts[name](keys=[self._key(board, part) for part in parts], args=args)

    def _repair_missed(self) -> None:
        with self.lock:
            missed, self.missed = self.missed, set()
        for board in missed:
            seq = self.client.get(self._key(board, "seq")) or b"0"
            number = seq.decode() if isinstance(seq, bytes) else seq
            self.client.delete(self._key(board, "ready"), self._key(board, f"snapshot:{number}"))
            # What changed meanwhile is unknown: the next tick makes a batch anyway, so that
            # listeners see its number's gap and read a fresh snapshot (4408).
            changed = self._key(board, "changed")
            self.client.sadd(changed, RESYNC)
            self.client.expire(changed, int(KEPT.total_seconds()))

    def _write(self, board: int, action: str, write: Any) -> Any:
        try:
            if self.missed:
                self._repair_missed()
            return write()
        except redis.RedisError as error:
            with self.lock:
                self.missed.add(board)
            _unavailable(action, board, error)
            return None

    def _read(self, board: int, action: str, read: Any) -> Any:
        try:
            return read()
        except redis.RedisError as error:
            _unavailable(action, board, error)
            return None

    def entries_changed(self, board: int, ends_at: dt.datetime, changes: list[Change]) -> None:
        args: list[Any] = [_expire_in(ends_at), 1]
        for game, version, key in changes:
            args += [game, version, "" if key is None else key]
        parts = ("ranking", "versions", "changed")
        self._write(board, "entries_changed", lambda: self._run("merge", board, parts, args))

    def changed_take(self, board: int, tick: int) -> list[str] | None:
        """The games changed since the last batch was sent, taken by the one process that
        claims this tick; None for the others, and while the last batch is still being
        published (its publisher holds the board until `published`, so that batches reach the
        listeners in the order of their numbers whichever processes make them).

        A take that fails may have run all the same (Redis answered too late): the board is then
        held by this tick, which lets it go at once; the games it took stay taken, and the next
        tick's batch carries them."""
        parts = (f"tick:{tick}", "changed", "publishing", "taken")
        args = [int(PUBLISHING.total_seconds() * 1000), tick, int(KEPT.total_seconds())]

        def take() -> Any:
            try:
                return self._run("take", board, parts, args)
            except redis.RedisError:
                with contextlib.suppress(redis.RedisError):
                    self._release(board, tick, sent=False)
                raise

        taken = self._write(board, "changed_take", take)
        return None if taken is None else [game.decode() for game in taken]

    def _release(self, board: int, tick: int, *, sent: bool) -> None:
        self._run("release", board, ("publishing", "taken"), [tick, int(sent)])

    def published(self, board: int, tick: int, *, sent: bool = True) -> None:
        """The batch of the `changed_take` of `tick` is out (`sent`), or was not made or not
        sent (its games stay taken, for the next tick): the next tick may make one."""
        self._write(board, "published", lambda: self._release(board, tick, sent=sent))

    def _ranking_read(self, board: int, name: str, args: list[Any]) -> Any:
        found = self._read(board, name, lambda: self._run(name, board, ("ready", "ranking"), args))
        if found == NOT_READY:  # (a Lua false would be None, as a failed read is)
            raise NotReady(board)
        return found

    def ranked_before(
        self, board: int, keys: list[int], read: dict[str, int | None] | None = None
    ) -> list[int] | None:
        """For each key: how many entries of the ranking have a smaller one, counting the games
        of `read` at the keys given there (None: off the board) whatever the ranking holds for
        them: the caller's own read of them in the database, which may be newer than the
        ranking (their writers merge into it after their commits)."""
        if not keys:
            return []
        read = read or {}
        # A script's answer (the Redis edge: untyped): what _BEFORE returns.
        found = self._ranking_read(board, "before", [len(keys), *keys, *read])
        if found is None:
            return None
        counts, held = found
        stale = sorted(int(float(key)) for key in held if key != b"")
        given = sorted(key for key in read.values() if key is not None)
        return [
            count - bisect_left(stale, key) + bisect_left(given, key)
            for count, key in zip(counts, keys, strict=True)
        ]

    def ranked_count(self, board: int) -> int | None:
        count: int | None = self._ranking_read(board, "count", [])
        return count

    def ranked_at(self, board: int, offset: int) -> tuple[int, int] | tuple[()] | None:
        """(rank_key of the entry `offset` rows down, entries ranked ahead of that key); `()`
        past the end."""
        found = self._ranking_read(board, "at", [offset])
        if not found:
            return found  # type: ignore[no-any-return]
        return int(float(found[0])), int(found[1])

    def ranking_build(self, board: int, ends_at: dt.datetime, slices: BuildSlices) -> bool:
        """Build the board's ranking anew from `slices` (given the names of the new ranking's
        two keys: Redis commands that fill them, and how many), apart from the ranking read
        meanwhile, then put it in that one's place; False if another process is building it or
        Redis is unreachable. The commands are streamed as they come (made by PostgreSQL: the
        process spends little time and GIL on them); writes made meanwhile are kept."""

        def build() -> bool:
            parts = ("building", "ranking", "versions", "ready", "new-ranking", "new-versions")
            keys = [self._key(board, part) for part in parts]
            token = uuid.uuid4().hex
            hold = [token, BUILD_HOLD_SECONDS]
            if not self._run("build_start", board, parts, hold):
                return False
            # (each slice renews the hold and the new keys' life: a builder that died leaves
            # nothing behind for long)
            renew = [_resp("EXPIRE", key, BUILD_HOLD_SECONDS) for key in (keys[0], *keys[4:])]
            pool = self.client.connection_pool
            connection = pool.get_connection()
            try:
                for commands, count in slices(keys[4], keys[5]):
                    connection.send_packed_command(["".join([commands, *renew]).encode()])
                    for _ in range(count + len(renew)):
                        connection.read_response()  # (an error reply raises)
            except BaseException:
                connection.disconnect()  # (replies may be left unread on it)
                raise
            finally:
                pool.release(connection)
            args = [token, _expire_in(ends_at)]
            return bool(self._run("build_swap", board, parts, args))

        return bool(self._write(board, "ranking_build", build))

    def ranking_forget(self, board: int) -> None:
        """Drop the board's ranking: the next read rebuilds it from the database."""
        parts = ("ranking", "versions", "ready", "building", "new-ranking", "new-versions")
        keys = [self._key(board, part) for part in parts]
        self._write(board, "ranking_forget", lambda: self.client.unlink(*keys))

    def batch_save(self, board: int, ends_at: dt.datetime, snapshot: str) -> int | None:
        # A board's batches number on from the milliseconds of its first one (at most one a
        # second follows), so that after a restarted Redis lost `seq` they still grow: a
        # listener of an earlier batch sees a gap (4408: a fresh snapshot), never old numbers.
        args = [snapshot, SNAPSHOT_SECONDS, _expire_in(ends_at), int(time.time() * 1000)]
        parts = ("seq", "snapshot:")
        seq: int | None = self._write(
            board, "batch_save", lambda: self._run("batch", board, parts, args)
        )
        return seq

    def snapshot_get(self, board: int) -> tuple[int, str | None] | None:
        parts = ("seq", "snapshot:")
        found = self._read(
            board, "snapshot_get", lambda: self._run("snapshot_get", board, parts, [])
        )
        if found is None:
            return None
        seq, snapshot = found
        return int(seq), None if snapshot is None else snapshot.decode()

    def snapshot_put(self, board: int, seq: int, snapshot: str) -> None:
        parts = ("seq", "snapshot:")
        args = [seq, snapshot, SNAPSHOT_SECONDS]
        self._read(board, "snapshot_put", lambda: self._run("snapshot_put", board, parts, args))


class LocalBoards:
    """The embedded mode's boards, in this process: no shared ranking (reads count in the
    database), one tick claimer (this process)."""

    def __init__(self) -> None:
        self.changed: dict[int, set[str]] = defaultdict(set)
        self.taken: dict[int, set[str]] = defaultdict(set)
        self.ticks: dict[int, int] = {}
        self.seqs: dict[int, int] = defaultdict(int)
        self.snapshots: dict[int, tuple[int, str, float]] = {}
        self.lock = threading.Lock()

    def entries_changed(self, board: int, ends_at: dt.datetime, changes: list[Change]) -> None:
        with self.lock:
            self.changed[board].update(game for game, _, _ in changes)

    def changed_take(self, board: int, tick: int) -> list[str] | None:
        with self.lock:
            if self.ticks.get(board) == tick:
                return None
            self.ticks[board] = tick
            taken = self.taken[board]
            taken.update(self.changed.pop(board, ()))
            return list(taken)

    def published(self, board: int, tick: int, *, sent: bool = True) -> None:
        # (one process: its hub's ticks follow one another, no hold)
        if sent:
            with self.lock:
                self.taken.pop(board, None)

    def ranked_before(
        self, board: int, keys: list[int], read: dict[str, int | None] | None = None
    ) -> list[int] | None:
        return None

    def ranked_count(self, board: int) -> int | None:
        return None

    def ranked_at(self, board: int, offset: int) -> tuple[int, int] | tuple[()] | None:
        return None

    def ranking_build(self, board: int, ends_at: dt.datetime, slices: BuildSlices) -> bool:
        return False

    def ranking_forget(self, board: int) -> None:
        pass

    def batch_save(self, board: int, ends_at: dt.datetime, snapshot: str) -> int | None:
        with self.lock:
            self.seqs[board] += 1
            self.snapshots[board] = (self.seqs[board], snapshot, time.monotonic())
            return self.seqs[board]

    def snapshot_get(self, board: int) -> tuple[int, str | None] | None:
        with self.lock:
            seq = self.seqs[board]
            saved = self.snapshots.get(board)
            if saved is None or saved[0] != seq:
                return seq, None
            fresh = time.monotonic() - saved[2] <= LOCAL_SNAPSHOT_SECONDS
            return seq, saved[1] if fresh else None

    def snapshot_put(self, board: int, seq: int, snapshot: str) -> None:
        with self.lock:
            if self.seqs[board] == seq:
                self.snapshots[board] = (seq, snapshot, time.monotonic())


# While Redis is down every action meets the same failure: one warning per interval is enough.
_warn = WarnEvery(logger, seconds=30.0)
_warn_background = WarnEvery(logger, seconds=30.0)


def _unavailable(action: str, board: int, error: Exception) -> None:
    fields = {
        "operation": f"boards.{action}",
        "board": board,
        "error": f"{type(error).__name__}: {error}",
    }
    metrics.redis_error(f"boards.{action}")
    _warn("live_boards_degraded: Redis is unreachable, boards count in the database", fields)


_store: RedisBoards | LocalBoards | None = None


def store() -> RedisBoards | LocalBoards:
    """The process's board state: Redis when REDIS_URL is set, else this process's memory."""
    global _store
    if _store is None:
        _store = RedisBoards(settings.REDIS_URL) if settings.REDIS_URL else LocalBoards()
    return _store


class RankingStandIn:
    """A board's ranking while Redis rebuilds it: the entries per (score, moves) group, read from
    the database in one query (an index-only scan of the board's index), answering the
    ranking's three reads as RedisBoards does, by bisection. It is as old as its read (at most
    STAND_IN_SECONDS and that read's time while a rebuild runs)."""

    def __init__(self, groups: list[tuple[int, int]]) -> None:
        groups.sort()
        self.keys = [key for key, _ in groups]
        # Entries ranked ahead of each group.
        self.ahead: list[int] = []
        total = 0
        for _, count in groups:
            self.ahead.append(total)
            total += count
        self.total = total
        self.made = time.monotonic()

    @classmethod
    def read(cls, challenge: DailyChallenge, bots: bool) -> RankingStandIn:
        rows = (
            Entry.objects.filter(challenge=challenge, bot=bots)
            .filter(ON_BOARD)
            .values_list("score", "moves")
            .annotate(entries=Count("*"))
            # (in the index's order: PostgreSQL counts the groups as it walks it, without a
            # hash table, a third faster at a million entries, and they come sorted)
            .order_by("-score", "moves")
        )
        with _one_worker():
            return cls([(rank_key(score, moves), entries) for score, moves, entries in rows])

    def ranked_before(
        self, board: int, keys: list[int], read: dict[str, int | None] | None = None
    ) -> list[int]:
        # (`read` is not applied: the stand-in is as old as its own read)
        found = [bisect_left(self.keys, key) for key in keys]
        return [self.ahead[i] if i < len(self.keys) else self.total for i in found]

    def ranked_count(self, board: int) -> int:
        return self.total

    def ranked_at(self, board: int, offset: int) -> tuple[int, int] | tuple[()]:
        if offset >= self.total:
            return ()
        group = bisect_right(self.ahead, offset) - 1
        return self.keys[group], self.ahead[group]


@contextmanager
def _one_worker() -> Iterator[None]:
    """A transaction whose PostgreSQL queries run in one process: a big board's stand-in and
    rebuild are read while its readers wait for the database too, and a parallel plan (the
    stand-in's, a million entries: the leader and two workers for 0.2 s, every second) would
    take every core from them meanwhile."""
    with transaction.atomic():
        connection = connections["default"]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        yield


# leaderboard.selectors.ON_BOARD (which imports this module): what the ranking holds.
ON_BOARD = Q(disqualified=False) & ~Q(review="held") & Q(provisional=False)

_stand_ins: dict[int, RankingStandIn] = {}
# Background work under way in this process: ("rebuild" | "stand-in", board).
_running: set[tuple[str, int]] = set()
_rebuild_tried: dict[int, float] = {}
_background_lock = threading.Lock()


def _in_background(kind: str, board: int, work: Any) -> None:
    """Run `work` in a thread of its own unless this process already runs it for the board."""
    with _background_lock:
        if (kind, board) in _running:
            return
        _running.add((kind, board))

    def run() -> None:
        try:
            close_old_connections()
            work()
        except Exception as error:  # a background failure is logged; reads go on
            _warn_background(
                "live_board_background_failed",
                {"work": kind, "board": board, "error": f"{type(error).__name__}: {error}"},
            )
        finally:
            connections.close_all()  # this thread's own
            with _background_lock:
                _running.discard((kind, board))

    threading.Thread(target=run, name=f"board-{kind}-{board}", daemon=True).start()


def ranking_stand_in(challenge: DailyChallenge, *, bots: bool = False) -> RankingStandIn | None:
    """What counts the board while Redis has no ranking for it. A board of at most
    BOARD_REBUILD_INLINE_MAX entries is rebuilt here, at once (None: read Redis again); a
    bigger one is rebuilt in the background (one thread per board and process, one builder
    across processes), meanwhile reads count with its RankingStandIn, read again in the
    background each STAND_IN_SECONDS, so that no read waits for the rebuild or for a deep
    count in the database."""
    board = board_id(challenge.pk, bots=bots)
    now = time.monotonic()
    stand_in = _stand_ins.get(board)
    if stand_in is None or now - stand_in.made > STAND_IN_KEPT:
        stand_in = RankingStandIn.read(challenge, bots)
        if stand_in.total <= settings.BOARD_REBUILD_INLINE_MAX:
            ranking_rebuild(challenge, bots=bots)
            return None
        _stand_ins[board] = stand_in
    elif now - stand_in.made > STAND_IN_SECONDS:

        def refresh() -> None:
            _stand_ins[board] = RankingStandIn.read(challenge, bots)

        _in_background("stand-in", board, refresh)
    if now - _rebuild_tried.get(board, -REBUILD_RETRY_SECONDS) >= REBUILD_RETRY_SECONDS:
        _rebuild_tried[board] = now

        def rebuild() -> None:
            if ranking_rebuild(challenge, bots=bots):
                _stand_ins.pop(board, None)

        _in_background("rebuild", board, rebuild)
    return stand_in


# ranking_rebuild's slices on PostgreSQL, made by the database as the Redis commands themselves
# (RESP: `*` the number of arguments, then each argument as `$` its length and itself): one
# ZADD of the slice's entries on the board (none if it has none) and one HSET of their
# versions, and how many commands that is. The process only passes them on: a million entries
# spend little of its time (and of its GIL: its readers go on meanwhile).
_REBUILD_SLICES = r"""
WITH entries AS (
    SELECT CAST(e.game_id AS text) AS member,
           CAST(CASE WHEN e.disqualified THEN %(removed)s
                     WHEN e.review = 'held' THEN %(held)s
                     WHEN COALESCE(e.review, '') <> '' THEN %(cleared)s
                     ELSE g.actions_count END AS text) AS version,
           CASE WHEN e.disqualified OR e.review = 'held' THEN NULL
                ELSE CAST(e.moves - CAST(e.score AS bigint) * 4294967296 AS text) END AS key,
           (row_number() OVER () - 1) / %(slice)s AS slice
    FROM leaderboard_entry e JOIN games_game g ON g.id = e.game_id
    WHERE e.challenge_id = %(challenge)s AND e.bot = %(bots)s AND NOT e.provisional
)
SELECT CASE WHEN count(key) > 0
            THEN '*' || 2 + 2 * count(key) || E'\r\n$4\r\nZADD\r\n' || %(ranking)s
                 || string_agg('$' || length(key) || E'\r\n' || key || E'\r\n$'
                               || length(member) || E'\r\n' || member || E'\r\n', '')
            ELSE '' END
       || '*' || 2 + 2 * count(*) || E'\r\n$4\r\nHSET\r\n' || %(versions)s
       || string_agg('$' || length(member) || E'\r\n' || member || E'\r\n$'
                     || length(version) || E'\r\n' || version || E'\r\n', ''),
       CASE WHEN count(key) > 0 THEN 2 ELSE 1 END
FROM entries GROUP BY slice
"""


def _bulk(text: str) -> str:
    """One argument of a Redis command, as RESP."""
    return f"${len(text.encode())}\r\n{text}\r\n"


def _resp(*args: object) -> str:
    """A Redis command as RESP (as _REBUILD_SLICES writes them)."""
    return f"*{len(args)}\r\n" + "".join(_bulk(str(arg)) for arg in args)


def _rebuild_slices(challenge: DailyChallenge, bots: bool) -> BuildSlices:
    """The board's entries as ranking_build's slices: Redis commands filling a ranking's keys."""

    def slices(ranking: str, versions: str) -> Iterable[tuple[str, int]]:
        connection = connections["default"]
        if connection.vendor == "postgresql":
            params: dict[str, int | bool | str] = {
                "removed": REMOVED, "held": HELD, "cleared": CLEARED, "slice": BUILD_SLICE,
                "challenge": challenge.pk, "bots": bots,
                "ranking": _bulk(ranking), "versions": _bulk(versions),
            }  # fmt: skip
            with _one_worker(), connection.chunked_cursor() as cursor:
                cursor.execute(_REBUILD_SLICES, params)
                while rows := cursor.fetchmany(BUILD_FETCH):
                    yield from rows
            return
        rows = (
            # (provisional entries, R36, are never in a ranking: no change ever names them)
            Entry.objects.filter(challenge=challenge, bot=bots, provisional=False)
            .values_list(
                "game_id", "game__actions_count", "score", "moves", "disqualified", "review"
            )
            .iterator(chunk_size=BUILD_SLICE * BUILD_FETCH)
        )
        while chunk := list(islice(rows, BUILD_SLICE)):
            ranked: list[object] = []
            changes: list[object] = []
            for game, version, score, moves, disqualified, review in chunk:
                if disqualified or review == "held":
                    changes += [game, REMOVED if disqualified else HELD]
                else:
                    changes += [game, CLEARED if review else version]
                    ranked += [rank_key(score, moves), game]
            commands = [("HSET", versions, *changes)]
            if ranked:
                commands.append(("ZADD", ranking, *ranked))
            yield "".join(_resp(*command) for command in commands), len(commands)

    return slices


def ranking_rebuild(challenge: DailyChallenge, *, bots: bool = False) -> bool:
    """Build the board's ranking in Redis from its entries in PostgreSQL (after Redis lost it or
    missed a change); False where there is none to build or another process builds it."""
    board = board_id(challenge.pk, bots=bots)
    return store().ranking_build(board, challenge.ends_at, _rebuild_slices(challenge, bots))
