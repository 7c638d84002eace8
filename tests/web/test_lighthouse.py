"""Lighthouse's mobile profile on the home page, a table and today's board, served by the
production topology (nginx, gunicorn, uvicorn: scripts/serve-topology.sh) on its own fresh
PostgreSQL database: performance, accessibility and best practices >= 95 each. One run a page
(bench/lighthouse.py measures the same and prints the figures). PostgreSQL pass only: the
topology runs on PostgreSQL."""

import os
import shutil
import sys
from urllib.parse import urlsplit

import pytest

from tests.web.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import lighthouse  # noqa: E402

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the production topology runs on PostgreSQL (the PostgreSQL pass runs this)",
    ),
    pytest.mark.skipif(
        not (ROOT / "tests" / "web" / "node_modules" / "lighthouse").exists()
        or shutil.which("nginx", path="/usr/sbin:/usr/bin") is None,
        reason="needs `make test-tools` (npm lighthouse, nginx)",
    ),
]


def test_home_table_and_board_score_95_or_more_on_a_phone(tmp_path):
    # given the production topology with a board of 12 players and a signed-in player's table
    # when Lighthouse (mobile) loads each page once
    database = urlsplit(os.environ["DATABASE_URL"]).path.strip("/") + "_lighthouse"
    scores = lighthouse.measure(players=12, keep=tmp_path, database=database)

    # then every category scores 95 or more on every page
    low = {
        f"{page} {category}": result[category]
        for page, result in scores.items()
        for category in lighthouse.CATEGORIES
        if result[category] < 95
    }
    details = {page: {**result} for page, result in scores.items()}
    assert not low, f"under 95: {low}; all figures: {details}"
    # and nothing shifts as the pages fill in (the boards' first rows come with the page)
    assert all(result["CLS"] < 0.1 for result in scores.values()), details
