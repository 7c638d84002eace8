"""Live challenge notices (issue 32, web/static/web/notices.js): a signed-in player's pages listen
to the account's events (/ws/account/events, with the session cookie); a challenge shows up on
whatever page is open, with Accept and Decline that work there, and the challenger sees the
answer. The stream resumes by `since`, from one page to the next too."""

from __future__ import annotations

import re

from tests.web.conftest import screenshot
from tests.web.helpers import api, open_easy_game, sign_up, unique_name
from tests.web.test_accessibility import violations
from tests.web.test_challenges import PHONE
from tests.web.test_matches import fill_match_deals

NOTICE = "#notices .notice"


def listening(page) -> None:
    """Waits until the page's account socket has said where it starts (`stream_opened`): what
    happens from then on reaches the page."""
    page.wait_for_function(
        "() => (JSON.parse(sessionStorage.getItem('notices') || 'null') || {}).since != null"
    )


def challenger(new_context, address: str, **options):
    page = new_context(extra_http_headers={"X-Forwarded-For": address}, **options).new_page()
    name = unique_name("anna")
    sign_up(page, name)
    return page, name


def challenge(page, player: str, draw: int, rated: bool) -> str:
    made = api(page, "POST", "challenges", {"player": player, "draw": draw, "rated": rated})
    assert made["status"] == 201, made
    return made["body"]["id"]


def test_a_challenge_noticed_at_the_table_is_accepted_there(new_context, run_on_server):
    fill_match_deals(run_on_server, draw=1, size=1)
    # given: bela at the table of a practice game, anna on her home page, both listening
    table, _ = open_easy_game(new_context, who="bela")
    bela = table.locator(".topbar .me").inner_text()
    listening(table)
    notices = table.locator("#notices")
    assert notices.get_attribute("aria-live") == "polite"
    assert notices.bounding_box()["height"] == 0  # nothing drawn before a notice comes
    home, anna = challenger(new_context, "10.32.1.1")
    listening(home)

    # when: anna challenges bela through the API, draw 1, rated
    made = challenge(home, bela, draw=1, rated=True)

    # then: the notice at bela's table says who, the draw and rated
    notice = table.locator(NOTICE)
    notice.wait_for()
    assert notice.get_attribute("data-challenge") == made
    text = notice.locator("p").first.inner_text()
    assert anna in text and "1 card (Easy)" in text and "rated" in text and "unrated" not in text
    screenshot(table, "challenge-notice-table")

    # when: he accepts from it
    notice.get_by_role("button", name="Accept").click()

    # then: the duel's match page, both seats taken, his game a click away
    table.wait_for_url(re.compile(r"/matches/[0-9a-f-]{36}$"))
    match_id = table.url.rsplit("/", 1)[-1]
    table.locator("#match-places li").nth(1).wait_for()
    assert "2/2" in table.locator("#match-mode").inner_text()
    table.locator("#match-game").wait_for(state="visible")
    assert table.locator(NOTICE).count() == 0  # answered: not shown again
    # and anna's open page says so, with a link to play the duel
    accepted = home.locator(f'{NOTICE}[data-type="challenge_accepted"]')
    accepted.wait_for()
    assert bela in accepted.inner_text()
    with home.expect_navigation():
        accepted.get_by_role("link", name="Play the duel").click()
    assert home.url.endswith(f"/matches/{match_id}")
    home.locator("#match-game").wait_for(state="visible")


def test_a_challenge_declined_from_the_notice_on_a_phone_in_hungarian(new_context):
    # given: bela on his Matches page on a phone, in Hungarian, anna on his player page
    # (the injected axe is an inline script: this browser lets it past the page's CSP)
    phone = new_context(
        locale="hu-HU",
        extra_http_headers={"X-Forwarded-For": "10.32.2.2"},
        bypass_csp=True,
        **PHONE,
    ).new_page()
    bela = unique_name("bela")
    sign_up(phone, bela)
    phone.goto("/matches/")
    listening(phone)
    page, anna = challenger(new_context, "10.32.2.1")
    page.goto(f"/players/{bela}")
    listening(page)

    # when: anna challenges him, draw 3, unrated
    challenge(page, bela, draw=3, rated=False)

    # then: the notice, in Hungarian, inside the phone's screen
    notice = phone.locator(NOTICE)
    notice.wait_for()
    text = notice.locator("p").first.inner_text()
    assert anna in text and "párbajra hív" in text and "értékszám nélkül" in text
    box = notice.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert violations(phone) == []
    screenshot(phone, "challenge-notice-phone-hu")

    # when: he declines it with the keyboard: after the language menu, Tab reaches the notice
    phone.focus("#lang-select")
    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.textContent") == "Elfogadom"
    phone.keyboard.press("Tab")
    assert phone.evaluate("document.activeElement.textContent") == "Elutasítom"
    phone.keyboard.press("Enter")

    # then: his notice goes, and anna's open page says he declined
    notice.wait_for(state="detached")
    declined = page.locator(f'{NOTICE}[data-type="challenge_declined"]')
    declined.wait_for()
    assert bela in declined.inner_text() and "declined" in declined.inner_text()
    # dismissed, it is gone for good
    declined.get_by_role("button", name="Dismiss").click()
    page.reload()
    listening(page)
    assert page.locator(NOTICE).count() == 0


def test_a_challenge_made_between_two_pages_shows_on_the_next(new_context):
    # given: bela's tab listened on one page, then left the site
    tab = new_context(extra_http_headers={"X-Forwarded-For": "10.32.3.2"}).new_page()
    bela = unique_name("bela")
    sign_up(tab, bela)
    listening(tab)
    tab.goto("about:blank")
    page, anna = challenger(new_context, "10.32.3.1")

    # when: anna challenges him while no page of his listens, and he comes back
    challenge(page, bela, draw=3, rated=False)
    tab.goto("/rules/app/")

    # then: the next page resumes where the last one stopped, and shows the challenge
    notice = tab.locator(NOTICE)
    notice.wait_for()
    assert anna in notice.inner_text()
    # and it stays from page to page until answered
    tab.goto("/")
    tab.locator(NOTICE).get_by_role("button", name="Decline").click()
    tab.locator(NOTICE).wait_for(state="detached")
    tab.goto("/matches/")
    tab.locator("#challenges-none").wait_for(state="visible")
    assert tab.locator(NOTICE).count() == 0


def test_a_dropped_socket_resumes_after_its_last_message(new_context):
    # given: bela's page, whose first account socket passes on its first message (where it
    # starts, `stream_opened`) and then nothing: it went silent
    context = new_context(extra_http_headers={"X-Forwarded-For": "10.32.4.2"})
    urls: list[str] = []
    silent = []

    def route(socket) -> None:
        urls.append(socket.url)
        server = socket.connect_to_server()
        if len(urls) > 1:
            return
        silent.append(socket)
        passed: list[str | bytes] = []

        def first_only(message: str | bytes) -> None:
            if not passed:
                passed.append(message)
                socket.send(message)

        server.on_message(first_only)

    context.route_web_socket(re.compile(r"/ws/account/events"), route)
    tab = context.new_page()
    bela = unique_name("bela")
    sign_up(tab, bela)
    listening(tab)
    page, anna = challenger(new_context, "10.32.4.1")

    # when: anna challenges him (the silent socket keeps it), then his socket drops
    challenge(page, bela, draw=1, rated=False)
    silent[0].close(code=1011, reason="dropped")

    # then: the page reconnects after the last message it had, and shows the challenge
    notice = tab.locator(NOTICE)
    notice.wait_for()
    assert anna in notice.inner_text()
    assert len(urls) == 2 and re.search(r"\?since=\d+$", urls[1]), urls
