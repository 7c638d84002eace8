"""axe-core (the npm package, installed by `make test` with `npm ci` in tests/web) injected
by Playwright into every page: no serious or critical violation. The pages are in Hungarian,
whose words are the longest (English runs through every other browser test)."""

import re
from pathlib import Path

import pytest

from games.services import game_create
from tests.web.helpers import api, easy_deck, sign_up_in_the_form, unique_name

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


def violations(page) -> list[str]:
    """Serious and critical findings of axe on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ["violations"]});
            return result.violations
                .filter(v => v.impact === "serious" || v.impact === "critical")
                .map(v => v.id + ": "
                     + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(", "));
        }"""
    )
    return found


def test_the_tables_piles_have_names_before_any_script_runs(client, user):
    # given a game, its table served in Hungarian (the script names the piles' cards later)
    client.force_login(user)
    game = game_create(owner=user)

    # when the page comes, before any script
    html = client.get(f"/play/{game.pk}", HTTP_ACCEPT_LANGUAGE="hu").content.decode()

    # then the stock (a button) and the waste and reserve already have their names
    names = dict(re.findall(r'data-pile="(\w+)"[^>]*aria-label="([^"]+)"', html))
    assert names == {"stock": "Húzópakli", "waste": "Dobópakli", "reserve": "Tartalék"}


def test_no_serious_violation_on_any_page(new_context):
    if not AXE.exists():
        pytest.skip("axe-core is not installed (cd tests/web && npm ci)")
    # given a player with a game in progress and a finished one
    # (the injected axe is an inline script: the test's browser lets it past the page's CSP)
    page = new_context(locale="hu-HU", bypass_csp=True).new_page()
    page.goto("/accounts/login/")
    anonymous = {path: violations(page) for path in ["/accounts/login/"]}
    page.goto("/accounts/signup/")
    anonymous["/accounts/signup/"] = violations(page)
    name = unique_name("axe")
    sign_up_in_the_form(page, name)
    playing = api(page, "POST", "games", {"deck": easy_deck(), "draw": 3})["body"]["id"]
    finished = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})["body"]["id"]
    api(page, "POST", f"games/{finished}/actions", {"type": "draw"})
    api(page, "POST", f"games/{finished}/actions", {"type": "resign"})
    today = api(page, "GET", "daily")["body"]["date"]

    # when axe checks every page (the table, its settings and its end dialog included)
    found = dict(anonymous)
    for path in [
        "/",
        f"/play/{playing}",
        f"/replay/{finished}",
        f"/daily/{today}/3/",
        "/daily/2027-01-01/3/",
        "/daily/",
        f"/players/{name}",
        "/rules/app/",
        "/rules/classic/",
    ]:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        found[path] = violations(page)
    page.goto(f"/play/{playing}")
    page.wait_for_selector('[data-pile="tableau:1"] .card')
    page.click("#settings-open")
    found["settings dialog"] = violations(page)
    page.goto(f"/play/{finished}")
    page.locator("#win").wait_for(state="visible")
    found["end dialog"] = violations(page)

    # then none is serious or critical
    assert {where: problems for where, problems in found.items() if problems} == {}
