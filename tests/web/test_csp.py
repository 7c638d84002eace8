"""The Content-Security-Policy (django-csp) in a real browser: every page, the admin and the API
docs (Swagger UI from drf-spectacular-sidecar's static files) load and work with no violation
reported, no console error and nothing fetched from another origin."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from tests.web.helpers import PASSWORD, api, sign_up, unique_name

# Records every violation the page reports, from before its first script runs.
WATCH_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


class Watcher:
    """Everything a page reported that a CSP mistake would cause."""

    def __init__(self, context, base_url: str) -> None:
        self.problems: list[str] = []
        self.origin = urlsplit(base_url).netloc
        context.add_init_script(WATCH_VIOLATIONS)
        context.on("request", self._request)
        context.on("page", self._watch_page)

    def _watch_page(self, page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))

    def _console(self, message) -> None:
        if message.type == "error" and "favicon.ico" not in (message.location or {}).get("url", ""):
            self.problems.append(f"console: {message.text}")

    def _request(self, request) -> None:
        netloc = urlsplit(request.url).netloc
        if netloc and netloc != self.origin:
            self.problems.append(f"third-party request: {request.url}")

    def check(self, page, what: str) -> None:
        violations = page.evaluate("window.__cspViolations")
        assert violations == [], f"{what}: {violations}"
        assert self.problems == [], f"{what}: {self.problems}"


def test_every_page_works_under_the_policy(new_context, base_url, run_on_server):
    # given: a player with a game in progress, a finished game and today's daily game
    context = new_context()
    watcher = Watcher(context, base_url)
    page = context.new_page()
    name = unique_name("csp")
    sign_up(page, name)
    watcher.check(page, "sign up")
    playing = api(page, "POST", "games", {"draw": 3})["body"]["id"]
    finished = api(page, "POST", "games", {"draw": 1})["body"]["id"]
    api(page, "POST", f"games/{finished}/actions", {"type": "draw"})
    api(page, "POST", f"games/{finished}/actions", {"type": "resign"})
    api(page, "POST", "games", {"daily": True, "draw": 3})

    # when / then: each page renders what its scripts build, with nothing refused
    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector("#recent-games li")
    watcher.check(page, "home")

    page.goto(f"/play/{playing}")
    page.wait_for_selector('[data-pile="stock"] .card')
    watcher.check(page, "table")

    page.goto(f"/replay/{finished}")
    page.click("#last")
    page.wait_for_function("() => document.getElementById('moves').textContent !== '0'")
    watcher.check(page, "replay")

    page.goto("/daily/today/")
    page.locator(f'#board-rows tr[data-player="{name}"]').wait_for()
    watcher.check(page, "leaderboard")

    page.goto(f"/players/{name}")
    page.wait_for_selector("#stats")
    watcher.check(page, "player")

    # the language switcher (a script file, no inline handler) still switches
    page.goto("/")
    with page.expect_navigation():
        page.select_option("#lang-select", "hu")
    assert "Új játék" in page.content()
    watcher.check(page, "language switch")

    page.goto("/accounts/login/")
    watcher.check(page, "login")


def test_the_admin_and_its_fair_play_review_work_under_the_policy(
    new_context, base_url, run_on_server
):
    name = f"root{secrets.token_hex(3)}"
    run_on_server(
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_superuser({name!r}, password={PASSWORD!r})"
    )
    context = new_context()
    watcher = Watcher(context, base_url)
    page = context.new_page()

    page.goto("/admin/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("input[type=submit]")
    page.goto("/admin/leaderboard/entry/?shared_address=yes")
    page.wait_for_selector("#changelist")
    watcher.check(page, "admin review")

    # the fair-play queue (R35) and a held game's evidence (timeline, styles of its own)
    held = run_on_server(
        "from django.contrib.auth import get_user_model; "
        "from fairplay.models import Review; "
        "from leaderboard.services import daily_game_get_or_create; "
        f"user = get_user_model().objects.create_user('held{secrets.token_hex(3)}'); "
        "game, _ = daily_game_get_or_create(player=user, draw=3); "
        "Review.objects.create(game=game, state='held', queued_at=game.created_at, score=1.0); "
        "print(game.pk)"
    ).split()[-1]  # (after what the shell imported)
    page.goto("/admin/fairplay/review/")
    page.wait_for_selector(f"#result_list a[href*='/review/{held}/']")
    watcher.check(page, "fair-play queue")
    page.goto(f"/admin/fairplay/review/{held}/change/")
    page.wait_for_selector("svg.fp-ticks")
    watcher.check(page, "fair-play review")


def test_the_api_docs_come_from_our_own_static_files(new_context, base_url):
    context = new_context()
    watcher = Watcher(context, base_url)
    page = context.new_page()

    page.goto("/api/docs/", timeout=60_000)  # Swagger UI's bundle is 1.5 MB

    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    assert "Canfield Club API" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() > 10
    scripts = page.eval_on_selector_all("script[src]", "nodes => nodes.map(n => n.src)")
    assert scripts and all(urlsplit(src).netloc == watcher.origin for src in scripts)
    watcher.check(page, "API docs")
