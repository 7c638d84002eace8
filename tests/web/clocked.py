"""daphne with its clock set: `python tests/web/clocked.py 2031-03-12T12:00:00+00:00 DAPHNE-ARGS`
serves as daphne does, its clock starting at that time and ticking on (time_machine), so that
a browser test chooses the server's "today" (the daily's day, streaks) without reading the
wall clock. Pick a time ahead of the wall clock: the browser keeps the server's cookies only
while their expiry, counted from the server's time, is in its future."""

import sys

import time_machine
from daphne.cli import CommandLineInterface

time_machine.travel(sys.argv[1], tick=True).start()
CommandLineInterface().run(sys.argv[2:])
