"""A process's start-up with Python's cyclic garbage collector paused, as the `gc` module's
documentation advises for a process that loads much and then forks (gc.freeze): an entry point
(manage.py, canfield_site/wsgi.py and asgi.py) calls `gc_pause()` before Django loads, and once
every app is ready (web.apps, the last of INSTALLED_APPS) `gc_resume()` moves what the start-up
made to the permanent generation, which no later collection scans, and turns the collector on.

Loading the project leaves some 190,000 objects, nearly all of them kept for the process's
life, so the collections their allocation sets off during the load find next to nothing: the
WSGI application loaded on 0.71 CPU-seconds with them and 0.59 without, the ASGI one on 0.78
and 0.64, `manage.py check` on 0.83 and 0.76 (bench/startup.py, 2026-12-07), a saving every
`manage.py` command, server and worker start makes (some 200 of them in a CI run). gunicorn
forks its workers from a master that loaded the app (canfield_site/gunicorn_conf.py:
preload_app): frozen objects are not written to by a worker's collections, so their memory
pages stay shared with the master.
"""

from __future__ import annotations

import gc


def gc_pause() -> None:
    """At an entry point, before the project is imported."""
    gc.disable()


def gc_resume() -> None:
    """Once the apps are loaded: what exists now is kept for the process's life, never
    scanned again; the collector runs as usual on what comes after. Harmless where nothing
    paused it (a test run, a script that set Django up itself)."""
    gc.freeze()
    gc.enable()
