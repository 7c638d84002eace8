"""The production settings (DJANGO_DEBUG=0) with STATIC_ROOT from the environment, so that a
test can collect the static files into a directory of its own: the topology of tests/ops and
tests/web/test_production_static.py each run `collectstatic`, and CI runs two passes at once
(one STATIC_ROOT for all would be rewritten under a running collectstatic)."""

import os
from pathlib import Path

from canfield_site.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["STATIC_ROOT"])
