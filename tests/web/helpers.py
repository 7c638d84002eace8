"""What the browser tests do as a person would (sign up), and the few API calls a test makes
to set up a game or to learn what the server considers legal right now."""

from __future__ import annotations

import re
import secrets
from typing import Any

from canfield_client import Client

PASSWORD = "green-felt-canfield-42"

# Foundation order with starting rank A: each suit A..K. A deck (R5) that a player wins by
# tapping: base AH, columns AS AD AC 2H, the stock (1-card draw) gives every card in the order
# the foundations need it, and the reserve holds 10C and the J/Q/K in that order, top first.
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["H", "S", "D", "C"]


def easy_deck() -> list[str]:
    needed = [rank + suit for rank in RANKS for suit in SUITS]  # AH AS AD AC 2H 2S ...
    reserve_top_first = ["10C"] + [card for card in needed if card[:-1] in {"J", "Q", "K"}]
    columns = ["AS", "AD", "AC", "2H"]
    used = {"AH", *columns, *reserve_top_first}
    stock = [card for card in needed if card not in used]
    deck = list(reversed(reserve_top_first)) + ["AH"] + columns + stock
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


def unique_name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def sign_up(page, username: str) -> None:
    """A new account, signed in in the page's browser context, the page on the home page.

    The sign-up form is posted as the browser posts it (the form's CSRF token, the context's
    cookies) but not drawn: most tests are about something else, and filling the form in the
    page cost the browser most of a CPU-second each time. test_accessibility signs up in the
    form itself (sign_up_in_the_form)."""
    request = page.context.request
    form = request.get("/accounts/signup/").text()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
    assert token, form[:500]
    fields = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    response = request.post(
        "/accounts/signup/", form={"csrfmiddlewaretoken": token[1], **fields}, max_redirects=0
    )
    assert response.status == 302, response.text()[:500]
    page.goto("/")
    assert page.locator(".topbar .me").inner_text() == username


def sign_up_in_the_form(page, username: str) -> None:
    """A new account as a person makes it: the form filled in and sent, then the home page."""
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/")
    assert page.locator(".topbar .me").inner_text() == username


def api(page, method: str, path: str, body: Any = None) -> Any:
    """Calls the REST API with the page's session, as the page's own scripts do."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const token = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";
            const options = {method, headers: {"Content-Type": "application/json",
                                                "X-CSRFToken": token}};
            if (body !== null) options.body = JSON.stringify(body);
            const response = await fetch("/api/v1/" + path, options);
            return {status: response.status, body: await response.json()};
        }""",
        [method, path, body],
    )


def game_id_of(page) -> str:
    return page.locator("#game").get_attribute("data-game-id")


def wait_for_moves(page, moves: int) -> None:
    page.wait_for_function(
        "n => document.getElementById('moves').textContent === String(n)", arg=moves
    )


def drag(page, source, target) -> None:
    """A mouse drag with intermediate moves (Pointer Events see a real gesture)."""
    box = source.bounding_box()
    goal = target.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 12)
    page.mouse.down()
    steps = 8
    for step in range(1, steps + 1):
        x = box["x"] + box["width"] / 2 + (goal["x"] - box["x"]) * step / steps
        y = box["y"] + 12 + (goal["y"] + goal["height"] / 2 - box["y"] - 12) * step / steps
        page.mouse.move(x, y)
    page.mouse.up()


def open_easy_game(new_context, lang: str = "en", draw: int = 1, who: str = "words"):
    """A new player's page in `lang` on a practice game of the easy deck, its table loaded."""
    page = new_context(locale={"en": "en-US", "hu": "hu-HU", "pl": "pl-PL"}[lang]).new_page()
    sign_up(page, unique_name(f"{who}{lang}"))
    game_id = api(page, "POST", "games", {"deck": easy_deck(), "draw": draw})["body"]["id"]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="AS"]')
    return page, game_id


def open_duels_filled(base_url: str) -> None:
    """Seat a new account in each open duel (2, draw 3) other tests left on this worker's server
    (an example's seat, a page's player), each from an address of its own, until one opens a
    duel itself and the next fills that one: then no duel is left waiting for a player, and
    the test's first player opens its own (one server serves every test of a worker)."""
    names: list[str] = []
    for n in range(20):
        with Client(base_url, headers={"X-Forwarded-For": f"10.23.9.{n + 1}"}) as filler:
            names.append(unique_name("fill"))
            filler.register(names[-1], PASSWORD)
            seated = [seat.player for seat in filler.join_match(size=2, draw=3).players]
        if len(names) > 1 and seated == [names[-2], names[-1]]:
            return  # it filled the previous filler's own duel: none is left open
    raise AssertionError(f"open duels kept coming: {names}")
