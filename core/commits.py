"""Work after a commit that cannot turn a stored write into an error.

What runs once a transaction has committed (a board's ranking, a live publish) is a
consequence of the write, not part of it: if it raises, the write stands and the request must
say what was stored, never answer 500 (a client retrying a stored action without `expect`
would play it twice). Django's `on_commit(..., robust=True)` logs the exception and goes on
with the next callback; `after_commit` adds a count in the metrics, by step.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, update_wrapper
from typing import Any

from django.db import transaction

from core import metrics


def _step_name(func: Callable[[], Any]) -> str:
    """The step's name for its metric label: the function's module and name (bounded: code
    names, never data)."""
    while isinstance(func, partial):
        func = func.func
    return f"{getattr(func, '__module__', '?')}.{getattr(func, '__qualname__', '?')}"


def after_commit(func: Callable[[], Any]) -> None:
    """Run `func` once the current transaction commits (at once outside one), robustly: an
    exception it raises is logged by Django (logger `django.db.backends.base`, naming the step)
    and counted in canfield_after_commit_errors_total{step}, and neither the other callbacks
    nor the request see it. The callback scheduled keeps `func` as its `__wrapped__`."""
    step = _step_name(func)

    def counted() -> None:
        try:
            func()
        except Exception:
            metrics.after_commit_error(step)
            raise  # for on_commit's own log, with the traceback

    update_wrapper(counted, func)
    counted.__qualname__ = step
    transaction.on_commit(counted, robust=True)
