"""Challenges in the browser (issue 32): anna challenges bela from his player page, bela
accepts on his Matches page and lands on the duel's match page; on a desktop and on a phone
(in Hungarian)."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import sign_up, unique_name
from tests.web.test_matches import fill_match_deals

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}


@pytest.mark.parametrize(
    ("device", "locale"), [("desktop", "en-US"), ("phone", "hu-HU")], ids=["desktop", "phone"]
)
def test_a_challenge_accepted_opens_the_duel(new_context, run_on_server, device, locale):
    fill_match_deals(run_on_server, draw=1, size=1)
    options = {"locale": locale, **(PHONE if device == "phone" else {})}
    anna, bela = unique_name("anna"), unique_name("bela")
    first = new_context(extra_http_headers={"X-Forwarded-For": "10.32.0.1"}, **options).new_page()
    second = new_context(extra_http_headers={"X-Forwarded-For": "10.32.0.2"}, **options).new_page()
    sign_up(first, anna)
    sign_up(second, bela)

    # given: no Challenge button on one's own page
    first.goto(f"/players/{anna}")
    first.locator("#stats").wait_for()
    assert first.locator("#challenge-form").count() == 0

    # when: anna challenges bela from his page, draw 1, rated
    first.goto(f"/players/{bela}")
    form = first.locator("#challenge-form")
    form.locator("input[name=draw][value='1']").check()
    form.locator("#challenge-rated").check()
    first.locator("#challenge-send:not([disabled])").click()

    # then: sent, and listed on her Matches page with a Cancel button
    first.locator("#challenge-sent").wait_for(state="visible")
    first.goto("/matches/")
    mine = first.locator("#challenge-list li")
    mine.wait_for()
    assert bela in mine.inner_text() and mine.locator("button").count() == 1

    # when: bela opens his Matches page: the challenge with Accept, Accept unrated, Decline
    second.goto("/matches/")
    offered = second.locator("#challenge-list li")
    offered.wait_for()
    assert anna in offered.inner_text() and offered.locator("button").count() == 3
    screenshot(second, f"challenge-{device}")
    offered.locator("button").first.click()

    # then: the duel's match page, both seats taken, his game a click away
    second.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}$"))
    second.locator("#match-places li").nth(1).wait_for()
    assert "2/2" in second.locator("#match-mode").inner_text()
    game = second.locator("#match-game")
    game.wait_for(state="visible")
    assert re.fullmatch(r"/play/[0-9a-f-]{36}", game.get_attribute("href") or "")
    # and anna's list no longer holds it
    first.reload()
    first.locator("#challenges-none").wait_for(state="visible")
