"""Lighthouse (npm `lighthouse`, tests/web/package.json; headless Debian Chromium) on the home
page, a table, today's board, the archive and a review (R37) through the production topology (nginx,
gunicorn, uvicorn: scripts/serve-topology.sh), mobile profile: performance, accessibility and
best-practices scores, and the figures behind performance (LCP, CLS, TBT).

    python bench/lighthouse.py [--quick] [--players N] [--keep DIR] [--database NAME]

The table is a signed-in player's practice game, the board today's 3-card board with N players
on it (default 30; --quick 12), the archive the month of yesterday with the ten days before
today (signed in: each day's practice buttons), the review a visitor's view of a finished,
analysed game. The home page is a visitor's. tests/web/test_lighthouse.py runs the same and
asserts each score >= 95.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import free_port, production_env, start_topology, stop  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "web" / "lighthouse-run.mjs"
CHROMIUM = "/usr/bin/chromium"
CATEGORIES = ("performance", "accessibility", "best-practices")
FIGURES = {
    "largest-contentful-paint": "LCP",
    "cumulative-layout-shift": "CLS",
    "total-blocking-time": "TBT",
}

# Today's 3-card board with `count` players who each drew a few times (their games playing).
CROWD = """
from django.contrib.auth import get_user_model
from games.services import game_act
from leaderboard.services import daily_game_get_or_create
for i in range({count}):
    user = get_user_model().objects.create_user("lighthouse%02d" % i)
    game, _created = daily_game_get_or_create(player=user, draw=3)
    for _ in range(i % 5):
        game_act(game=game, user=user, action={{"type": "draw"}}, expect=None)
"""

# The ten days before today, both boards (written without the solver): the archive's days.
PAST_DAYS = """
import datetime as dt
from games.days import day_deal, day_ends_at, day_today
from games.models import DailyChallenge
for back in range(1, 11):
    date = day_today() - dt.timedelta(days=back)
    for draw in (3, 1):
        DailyChallenge.objects.get_or_create(
            date=date, draw=draw,
            defaults={"deal_code": str(day_deal(date, draw)), "attempt": 0,
                      "ends_at": day_ends_at(date)},
        )
"""


# A finished practice game of deal 0 (a few draws, then the end), analysed: the review page
# (R37) with its strip, its turn or winning line, and its share button.
REVIEWED = """
from django.contrib.auth import get_user_model
from django.core.management import call_command
from games.engine import DealCode
from games.services import game_act, game_create
owner = get_user_model().objects.create_user("lighthouse-reviewer")
game = game_create(owner=owner, draw=3, code=DealCode(0, 3, 1))
for action in [{"type": "draw"}] * 12 + [{"type": "resign"}]:
    game = game_act(game=game, user=owner, action=action, expect=None)[1]
call_command("analyse_games")
print("game:", game.pk)
"""


def signed_in_game(base: str) -> tuple[list[dict[str, str]], str]:
    """A new account's cookies and a game of it: ([{name, value}], game id)."""
    import httpx

    with httpx.Client(base_url=base, timeout=30) as client:
        form = client.get("/accounts/signup/").text
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        assert token, form[:300]
        password = "green-felt-canfield-42"
        answer = client.post(
            "/accounts/signup/",
            data={
                "csrfmiddlewaretoken": token[1],
                "username": "lighthouse",
                "password1": password,
                "password2": password,
            },
        )
        assert answer.status_code == 302, answer.text[:300]
        csrf = client.cookies["csrftoken"]
        created = client.post(
            "/api/v1/games", json={"draw": 3}, headers={"X-CSRFToken": csrf, "Referer": base}
        )
        assert created.status_code == 201, created.text[:300]
        cookies = [{"name": name, "value": value} for name, value in client.cookies.items()]
        return cookies, created.json()["id"]


def lighthouse(
    pages: dict[str, tuple[str, list[dict[str, str]] | None]],
    work: Path,
    categories: tuple[str, ...] = CATEGORIES,
    audits: tuple[str, ...] = (),
) -> dict[str, dict[str, Any]]:
    """Lighthouse (mobile, the default profile) on each of `pages` ({name: (url, cookies)}), one
    after the other in one browser, each in a fresh context with its cookies, with `categories`
    and `audits` besides: per page, the category scores 0-100, the performance figures present
    (ms; CLS unitless), the weighted audits scoring under 0.9 ("failed") and the score 0-1 of
    each audit run ("audits": None where Lighthouse found nothing to score). The reports are
    left in `work` (NAME.json)."""
    job = {
        "categories": list(categories),
        "audits": list(audits) or None,
        "pages": [
            {"url": url, "report": str(work / f"{name}.json"), "cookies": cookies or []}
            for name, (url, cookies) in pages.items()
        ],
    }
    (work / "lighthouse-job.json").write_text(json.dumps(job))
    subprocess.run(
        ["node", str(RUNNER), str(work / "lighthouse-job.json")],
        check=True,
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        cwd=RUNNER.parent,
        capture_output=True,
        timeout=120 + 60 * len(pages),
    )
    return {
        name: scored(url, json.loads((work / f"{name}.json").read_text()), categories)
        for name, (url, _cookies) in pages.items()
    }


def scored(url: str, report: dict[str, Any], categories: tuple[str, ...]) -> dict[str, Any]:
    """What `lighthouse` gives of one page's report."""
    unscored = [name for name in categories if report["categories"][name]["score"] is None]
    if unscored:
        # Lighthouse leaves a category without a score when the run failed (runtimeError: the
        # page's own status, a load that never ended) or one of its weighted audits did.
        errors = {
            audit_id: audit.get("errorMessage")
            for audit_id, audit in report["audits"].items()
            if audit.get("scoreDisplayMode") == "error"
        }
        raise RuntimeError(
            f"Lighthouse gave {url} no {', '.join(unscored)} score: runtimeError "
            f"{report.get('runtimeError')}, warnings {report.get('runWarnings')}, audits that "
            f"failed {errors}"
        )
    result: dict[str, Any] = {
        name: round(report["categories"][name]["score"] * 100) for name in categories
    }
    for audit, short in FIGURES.items():
        if audit in report["audits"]:
            result[short] = report["audits"][audit]["numericValue"]
    result["failed"] = [
        audit_id
        for category in categories
        for ref in report["categories"][category]["auditRefs"]
        if ref["weight"] > 0
        and (audit_id := ref["id"])
        and (score := report["audits"][audit_id]["score"]) is not None
        and score < 0.9
    ]
    result["audits"] = {audit_id: audit["score"] for audit_id, audit in report["audits"].items()}
    return result


def measure(
    players: int,
    keep: Path | None = None,
    database: str = "canfield_lighthouse",
    *,
    template: str | None = None,
    extra_env: dict[str, str] | None = None,
    categories: tuple[str, ...] = CATEGORIES,
    audits: tuple[str, ...] = (),
) -> dict[str, dict[str, Any]]:
    """`lighthouse`'s figures (`categories`, `audits`) of the five pages on a fresh topology on
    its own new PostgreSQL database `database` (dropped first if it exists; a copy of the
    migrated database `template` if given), its environment with `extra_env` on top (the
    tests': static files collected already)."""
    port = free_port()
    work = keep or Path(tempfile.mkdtemp(prefix="lighthouse-"))
    work.mkdir(parents=True, exist_ok=True)
    env = production_env(database, template=template, **(extra_env or {}))
    server = start_topology(
        root=ROOT, port=port, log=str(work / "topology.log"), workers=2, env=env
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for code in (CROWD.format(count=players) + PAST_DAYS, REVIEWED):
            printed = subprocess.run(
                [sys.executable, "manage.py", "shell", "-c", code],
                cwd=ROOT,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        review_id = printed.split("game: ")[1].split()[0]  # REVIEWED's
        cookies, game_id = signed_in_game(base)
        import httpx

        today = httpx.get(f"{base}/api/v1/daily", timeout=10).json()["date"]
        yesterday = dt.date.fromisoformat(today) - dt.timedelta(days=1)
        pages = {
            "home": (f"{base}/", None),
            "table": (f"{base}/play/{game_id}", cookies),
            "board": (f"{base}/daily/{today}/3/", None),
            "archive": (f"{base}/daily/?month={yesterday:%Y-%m}", cookies),
            "review": (f"{base}/replay/{review_id}", None),
        }
        # A server in production is warm: each page once before it is measured (the first
        # request of a process imports most of the project).
        session = {cookie["name"]: cookie["value"] for cookie in cookies}
        for url, with_cookies in pages.values():
            for _ in range(2):  # (two gunicorn workers)
                httpx.get(url, cookies=session if with_cookies else None, timeout=30)
        return lighthouse(pages, work, categories, audits)
    finally:
        stop(server)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer players on the board")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="keep the reports in DIR")
    parser.add_argument("--database", default="canfield_lighthouse", help="a new database's name")
    args = parser.parse_args()
    players = args.players if args.players is not None else (12 if args.quick else 30)
    scores = measure(players, args.keep, args.database)
    for name, result in scores.items():
        print(
            f"lighthouse {name}: performance {result['performance']}, accessibility "
            f"{result['accessibility']}, best practices {result['best-practices']} "
            f"(LCP {result['LCP'] / 1000:.2f} s, CLS {result['CLS']:.3f}, "
            f"TBT {result['TBT']:.0f} ms)"
        )
        if result["failed"]:
            print(f"  {name} audits under 0.9: {', '.join(result['failed'])}")


if __name__ == "__main__":
    main()
