"""The throttles' counters on Redis (core/throttling.py): one connection per thread, made again
when the server closed it, and no counting at all while Redis is unreachable."""

import os
import threading
from collections.abc import Callable

from django.core.cache import caches
from django.test import override_settings

from core import throttling
from scripts.ports import free_port
from tests.conftest import requires_redis


def in_a_forked_child(work: Callable[[], str]) -> str:
    """What `work` answers in a forked child of this process (as a gunicorn worker is)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.write(write, work().encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as answer:
        said = answer.read()
    os.waitpid(pid, 0)
    return said


@requires_redis
def test_a_counter_goes_on_after_redis_closed_its_connection():
    # given: two hits counted
    key = f"counter-test:{threading.get_ident()}:{id(object())}"
    assert throttling._count_hit(key, 60) == 1
    assert throttling._count_hit(key, 60) == 2

    # when: the server closes the thread's counter connection (Redis restarted, say)
    client = throttling._writer(caches["default"])
    own = throttling._redis_command(caches["default"], "CLIENT", "ID")
    assert client.client_kill_filter(_id=own) == 1

    # then: the next hit is counted once, on a new connection, and the window's expiry is set
    assert throttling._count_hit(key, 60) == 3
    full_key = caches["default"].make_and_validate_key(key)
    assert 0 < client.ttl(full_key) <= 60
    client.delete(full_key)


@requires_redis
def test_each_thread_counts_on_its_own_connection():
    # given: a counter hit from this thread and from four others
    key = f"counter-threads:{id(object())}"
    counts: list[int] = []

    def hit() -> None:
        counts.append(throttling._count_hit(key, 60))

    hit()
    threads = [threading.Thread(target=hit) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then: every hit counted once
    assert sorted(counts) == [1, 2, 3, 4, 5]
    caches["default"].delete(key)


@requires_redis
def test_a_forked_process_counts_on_a_connection_of_its_own():
    # given: this thread's counter connection in use
    key = f"counter-fork:{id(object())}"
    assert throttling._count_hit(key, 60) == 1
    inherited = throttling._counters.connection

    # when: a forked child (a gunicorn worker) counts, then this process again
    def count() -> str:  # the child's count and whether it kept the parent's connection
        counted = throttling._count_hit(key, 60)
        return f"{counted} {throttling._counters.connection is not inherited}"

    child = in_a_forked_child(count)

    # then: each count once, on the child's own connection; the parent's still answers
    assert child == "2 True"
    assert throttling._count_hit(key, 60) == 3
    assert throttling._counters.connection is inherited
    caches["default"].delete(key)


def test_nothing_is_counted_while_redis_is_unreachable():
    # given: the cache pointed at a port where no Redis listens
    port = free_port()
    cache = {
        "default": {
            "BACKEND": "core.cache.ResilientRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }

    # when / then: the count is 0 (throttling off), and again on the next request
    with override_settings(CACHES=cache):
        assert throttling._count_hit("unreachable", 60) == 0
        assert throttling._count_hit("unreachable", 60) == 0


@requires_redis
def test_a_lease_is_taken_in_one_increment_and_spent_in_the_process():
    # given: a counter counted in leases of 3
    key = f"counter-lease:{id(object())}"
    full_key = caches["default"].make_and_validate_key(key)
    client = throttling._writer(caches["default"])

    # when / then: the first hit takes 3 on Redis, the next two none, the fourth 3 more
    assert throttling._count_hit(key, 60, lease=3) == 1
    assert int(client.get(full_key)) == 3 and 0 < client.ttl(full_key) <= 60
    assert [throttling._count_hit(key, 60, lease=3) for _ in range(2)] == [2, 3]
    assert int(client.get(full_key)) == 3
    assert throttling._count_hit(key, 60, lease=3) == 4
    assert int(client.get(full_key)) == 6
    client.delete(full_key)


@requires_redis
def test_hits_leased_by_another_process_count_as_spent():
    # given: another process took a lease of 3 of the counter and spent one
    key = f"counter-lease-other:{id(object())}"
    full_key = caches["default"].make_and_validate_key(key)
    client = throttling._writer(caches["default"])
    client.incrby(full_key, 3)

    # when / then: this process's first hit counts after all three of them
    assert throttling._count_hit(key, 60, lease=3) == 4
    client.delete(full_key)


@requires_redis
def test_a_forked_process_does_not_spend_its_parents_lease():
    # given: this process holds a lease of 3 with two hits left
    key = f"counter-lease-fork:{id(object())}"
    assert throttling._count_hit(key, 60, lease=3) == 1

    # when: a forked child (a gunicorn worker) counts, then this process again
    child = in_a_forked_child(lambda: str(throttling._count_hit(key, 60, lease=3)))

    # then: the child took a lease of its own; the parent goes on with its own
    assert child == "4"
    assert throttling._count_hit(key, 60, lease=3) == 2
    caches["default"].delete(key)
