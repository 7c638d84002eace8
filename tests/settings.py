"""Settings for the test suite: the project's settings with a fast password hasher first.

Production hashes with PBKDF2 (1,000,000 iterations, 0.4 s a password on a small machine);
tests create hundreds of users, so they hash with MD5. Servers the tests start in
subprocesses inherit this module through DJANGO_SETTINGS_MODULE, except the production
topology (tests/ops/stack.py), which runs the real settings with a STATIC_ROOT of its own
(tests/production_settings.py).

The project's settings are production ones unless DJANGO_DEBUG says otherwise; the suite asks
for debug (the development secrets, no HTTPS redirect) whatever the shell says, and so do the
servers it starts with this module. What runs the production settings says DJANGO_DEBUG=0 and
names its settings module itself (tests/ops/stack.py, tests/ops/test_settings.py).
"""

import atexit
import os
import shutil
import tempfile
from urllib.parse import urlsplit, urlunsplit

# pytest-xdist workers (gw0, gw1, ...) each get a Redis db of their own, REDIS_URL's plus the
# worker's number: the tests empty theirs (cache.clear()) and read its boards. Done once in the
# worker, before the settings read REDIS_URL; servers the tests start inherit the result.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_redis = os.environ.get("REDIS_URL", "")
if _worker.startswith("gw") and _redis and os.environ.get("REDIS_URL_WORKER") != _worker:
    _url = urlsplit(_redis)
    _db = int(_url.path.strip("/") or 0) + int(_worker.removeprefix("gw"))
    os.environ["REDIS_URL"] = urlunsplit(_url._replace(path=f"/{_db}"))
    os.environ["REDIS_URL_WORKER"] = _worker

os.environ["DJANGO_DEBUG"] = "1"

# The host-wide slots of hints and password checks (core/slots.py) are one set per test
# run, shared by its workers and the servers they start (they inherit the variable), never by
# another run on the same machine (CI runs two at once). Made by the run's first process,
# which removes it when it ends (not a process forked from it).
if not os.environ.get("SLOT_DIR"):
    os.environ["SLOT_DIR"] = tempfile.mkdtemp(prefix="canfield-test-slots-")

    def _slots_remove(path: str = os.environ["SLOT_DIR"], pid: int = os.getpid()) -> None:
        if os.getpid() == pid:
            shutil.rmtree(path, ignore_errors=True)

    atexit.register(_slots_remove)

from canfield_site.settings import *  # noqa: E402, F403
from canfield_site.settings import PASSWORD_HASHERS as PRODUCTION_HASHERS  # noqa: E402

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *PRODUCTION_HASHERS]

# Tests create many accounts from one address; the sign-up limit's own tests lower it.
SIGNUP_LIMIT = 10_000
GUEST_LIMIT = 10_000
GUEST_GLOBAL_LIMIT = 10_000
GUEST_GLOBAL_BURST = 10_000
# And many games from one account and address; the games limits' own tests lower these.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].update(  # noqa: F405
    {"games": "100000/minute", "games_burst": "100000/second", "games_address": "100000/minute"}
)

# R36: the suite's fresh accounts play ranked dailies and rated matches at once; the standing's
# own tests (tests/leaderboard/test_standing.py) set these back.
RANKED_MIN_AGE_HOURS = 0.0
RANKED_MIN_GAMES = 0

# R29: the solver budget per deal tried when a test creates a daily challenge.
DAILY_SOLVE_SECONDS = 3.0

# Tests collect no static files into the project: whitenoise serves none from STATIC_ROOT (it
# warned "No directory at" on every request otherwise); the one test of collected files
# (tests/web/test_production_static.py) sets its own.
STATIC_ROOT = None
