"""The project's ASGI application with its clock set: `ASGI_APP=tests.web.clocked:application
TEST_CLOCK=2031-03-12T12:00:00+00:00 scripts/serve-ws.sh` serves as the suite's server does, its
clock starting at TEST_CLOCK and ticking on (time_machine), so that a browser test chooses the
server's "today" (the daily's day, streaks) without reading the wall clock. Pick a time ahead of
the wall clock: the browser keeps the server's cookies only while their expiry, counted from
the server's time, is in its future."""

import os

import time_machine

time_machine.travel(os.environ["TEST_CLOCK"], tick=True).start()

from canfield_site.asgi import application  # noqa: E402

__all__ = ["application"]
