"""The production settings (DJANGO_DEBUG=0) with STATIC_ROOT from the environment, so that a
test can collect the static files into a directory of its own."""

import os
from pathlib import Path

from canfield_site.settings import *  # noqa: F403

STATIC_ROOT = Path(os.environ["STATIC_ROOT"])
