"""Starting again from the table, quick inputs queued in order, the rules in play shown and
explained, a finished daily shared as text, and the board of a day without a challenge."""

import json
import re
import secrets

import pytest

from tests.web.conftest import screenshot
from tests.web.helpers import (
    api,
    easy_deck,
    game_id_of,
    open_easy_game,
    sign_up,
    unique_name,
    wait_for_moves,
)


def test_three_quick_stock_clicks_are_three_draws_sent_in_order_with_expect(new_context):
    # given a 1-card custom game, and every action the page sends recorded
    page, game_id = open_easy_game(new_context, who="quick")
    page.wait_for_selector('[data-pile="stock"] .card')
    sent = []
    page.on(
        "request",
        lambda request: (
            request.url.endswith("/actions")
            and request.method == "POST"
            and sent.append(json.loads(request.post_data))
        ),
    )

    # when the stock is clicked three times 15 ms apart (faster than the server answers)
    page.evaluate(
        """async () => {
            const stock = document.querySelector('[data-pile="stock"]');
            for (let i = 0; i < 3; i++) {
                const options = {bubbles: true, button: 0, pointerId: 1, isPrimary: true};
                const down = new PointerEvent("pointerdown", options);
                stock.querySelector('.card').dispatchEvent(down);
                await new Promise(resolve => setTimeout(resolve, 15));
            }
        }"""
    )

    # then none is dropped: three draws, each sent after the previous answer with its expect
    wait_for_moves(page, 3)
    assert sent == [{"type": "draw", "expect": n} for n in range(3)]
    game = api(page, "GET", f"games/{game_id}")["body"]
    assert game["moves"] == 3 and game["waste"]["count"] == 3


def test_new_game_restart_and_settings_from_the_table(new_context):
    # given a practice game dealt from a code, with the cardgames rules and 1-card draw
    page = new_context().new_page()
    sign_up(page, unique_name("again"))
    created = api(page, "POST", "games", {"code": "CF1-D1-AAAAACL", "ruleset": "cardgames"})
    first = created["body"]["id"]
    page.goto(f"/play/{first}")
    page.wait_for_selector('[data-pile="stock"] .card')

    # then the rules in play are named on the table, linked to their page
    rules = page.locator("#rules-link")
    assert rules.inner_text() == "Cardgames rules"
    assert rules.get_attribute("href") == "/rules/cardgames/"

    # when the deal is restarted, a fresh game of the same code and rules starts
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 1)
    page.click("#restart")
    page.wait_for_url(lambda url: first not in url and "/play/" in url)
    page.wait_for_selector('[data-pile="stock"] .card')
    restarted = api(page, "GET", f"games/{game_id_of(page)}")["body"]
    assert (restarted["code"], restarted["ruleset"], restarted["moves"]) == (
        "CF1-D1-AAAAACL",
        "cardgames",
        0,
    )

    # when the settings choose the classic rules, the 1-card draw is not offered with them
    page.click("#settings-open")
    page.select_option("#new-ruleset", "classic")
    assert page.locator('#new-draw option[value="1"]').is_disabled()
    assert page.locator("#new-draw").input_value() == "3"
    page.click("#settings button[type=submit]")

    # and New game starts a random game with the chosen settings
    page.click("#new-game")
    page.wait_for_url(lambda url: restarted["id"] not in url and "/play/" in url)
    page.wait_for_selector('[data-pile="stock"] .card')
    fresh = api(page, "GET", f"games/{game_id_of(page)}")["body"]
    assert (fresh["ruleset"], fresh["draw"], fresh["code"]) == ("classic", 3, None)
    # a random game in progress can be restarted too (it ends first: test_game_end.py)
    assert page.locator("#restart").is_visible()

    # and the home form does not offer the 1-card draw with the classic rules either
    page.goto("/")
    page.select_option("#ruleset", "classic")
    assert page.locator('input[name="draw"][value="1"]').is_disabled()


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("en", "How to play: Classic rules"),
        ("hu", "Játékszabály: Klasszikus szabályok"),
        ("pl", "Jak grać: Zasady klasyczne"),
    ],
)
def test_how_to_play_pages_in_three_languages(client, db, lang, title):
    for ruleset in ("app", "cardgames", "classic"):
        assert client.get(f"/rules/{ruleset}/", HTTP_ACCEPT_LANGUAGE=lang).status_code == 200
    body = client.get("/rules/classic/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert title in re.sub(r"\s+", " ", body)
    assert client.get("/rules/poker/").status_code == 404


def test_share_a_finished_daily_and_play_the_other_board(new_context):
    # given a player who resigned today's 3-card daily
    page = new_context().new_page()
    name = unique_name("share")
    sign_up(page, name)
    page.click('.play-daily[data-draw="3"]')
    page.wait_for_url("**/play/**")
    page.wait_for_selector('[data-pile="stock"] .card')
    page.click('[data-pile="stock"]')
    wait_for_moves(page, 1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.locator("#win").wait_for(state="visible")
    game = api(page, "GET", f"games/{game_id_of(page)}")["body"]

    # when the result is shared
    page.click("#win-share")

    # then the text gives the day, the figures and the rank, and no card
    text = page.locator("#share-text").input_value()
    assert game["daily"]["date"] in text and "3 cards (Hard)" in text
    assert "of 52 cards home" in text and "1 move" in text and "Rank " in text
    assert "Resigned" not in text
    assert not re.search(r"\b(10|[2-9AJQK])[HSDC]\b", text)
    assert "of hearts" not in text and "of spades" not in text

    # when the player goes on to the daily challenge, it is the 1-card board's game
    page.click("#win-daily")
    page.wait_for_url(lambda url: game["id"] not in url and "/play/" in url)
    page.wait_for_selector('[data-pile="stock"] .card')
    other = api(page, "GET", f"games/{game_id_of(page)}")["body"]
    assert other["daily"] and other["draw"] == 1


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_day_without_a_challenge_says_so_and_stops_reconnecting(new_context, lang):
    # given the board of a day that never had a challenge
    page = new_context(locale={"en": "en-US", "pl": "pl-PL"}[lang]).new_page()
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket.url))

    # when it is opened
    page.goto("/daily/2027-01-01/3/")

    # then it says there was no challenge that day (the socket closed with 4404) ...
    notice = page.locator("#no-challenge")
    notice.wait_for(state="visible")
    expected = {"en": "No challenge that day.", "pl": "Tego dnia nie było wyzwania."}[lang]
    assert notice.inner_text() == expected
    assert page.locator("#live-status").is_hidden()
    screenshot(page, f"board-no-challenge-{lang}")
    # ... and does not try again
    page.wait_for_timeout(1500)
    assert len(sockets) == 1


def test_reconnect_delays_back_off_exponentially_with_jitter(new_context):
    page = new_context().new_page()
    page.goto("/accounts/login/")
    delays = page.evaluate(
        """async () => {
            const {retryDelay} = await import("/static/web/board.js");
            const top = [0, 1, 2, 3, 4, 8, 12].map(n => retryDelay(n, () => 0.999999));
            const low = retryDelay(5, () => 0);
            const spread = new Set(Array.from({length: 20}, () => retryDelay(3))).size;
            return {top, low, spread};
        }"""
    )
    assert delays["top"] == [500, 1000, 2000, 4000, 8000, 30000, 30000]
    assert delays["low"] == 0
    assert delays["spread"] > 5


def test_a_hint_shows_the_next_move_and_none_in_a_daily(new_context):
    # given a practice game
    page = new_context().new_page()
    sign_up(page, unique_name("hint"))
    game_id = api(page, "POST", "games", {"deck": easy_deck(), "draw": 1})["body"]["id"]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="AS"]')

    # when the player asks for a hint
    page.click("#hint")

    # then the hinted move is named and its piles are marked; the game counts the hint
    page.wait_for_function(
        "() => document.getElementById('message').textContent.startsWith('Hint: ')"
    )
    assert page.locator(".pile.hinted").count() >= 1
    assert api(page, "GET", f"games/{game_id}")["body"]["hints"] == 1

    # and a ranked daily game offers no hint button (R30)
    page.goto("/")
    page.click('.play-daily[data-draw="3"]')
    page.wait_for_url("**/play/**")
    page.wait_for_selector('[data-pile="stock"] .card')
    assert page.locator("#hint").is_hidden()


PAST_CHALLENGE = """
import datetime as dt
from games.models import DailyChallenge
DailyChallenge.objects.create(
    date=dt.date.fromisoformat("{day}"), draw=3, deal_code="CF1-D3-AAAAACL",
    ends_at=dt.datetime.fromisoformat("{day}T23:59:59+00:00"), par=87, par_exact=False)
"""


def test_a_past_boards_par_is_shown_beside_its_code(new_context, run_on_server):
    # given a day that is over, whose deal the solver won in 87 moves (not proved shortest)
    day = f"2001-{secrets.randbelow(12) + 1:02d}-{secrets.randbelow(28) + 1:02d}"
    run_on_server(PAST_CHALLENGE.format(day=day))
    page = new_context(locale="pl-PL").new_page()

    # when its board is opened, in Polish
    page.goto(f"/daily/{day}/3/")

    # then the code and the par are shown, the par with its plural form
    page.locator("#past-deal").wait_for(state="visible")
    assert page.locator("#past-code").inner_text() == "CF1-D3-AAAAACL"
    assert page.locator("#par").inner_text() == "Najkrótsza wygrana: najwyżej 87 ruchów"


def test_court_figures_a_second_back_and_a_light_table(new_context):
    # given a table whose reserve shows a jack (the easy deck, after the first tap)
    page, _game_id = open_easy_game(new_context, who="look")
    page.click('[data-pile="tableau:1"] [data-card="AS"]')
    wait_for_moves(page, 1)

    # then the court card carries a drawn figure, a number card its pip
    assert page.locator('[data-pile="reserve"] [data-card="JH"] svg.court').count() == 1
    assert page.locator('[data-pile="tableau:1"] [data-card="10C"] svg.court').count() == 0

    # when the settings choose the light felt and the red back
    page.click("#settings-open")
    page.select_option("#look-felt", "light")
    page.select_option("#look-back", "red")
    page.click("#settings button[type=submit]")

    # then the table and the stock's back change, and the choice stays after a reload
    def looks():
        return page.evaluate(
            """() => [document.body.dataset.felt, document.body.dataset.back,
                      getComputedStyle(document.getElementById('table')).backgroundImage,
                      getComputedStyle(document.querySelector('.card.back')).backgroundImage]"""
        )

    felt, back, table, card_back = looks()
    assert (felt, back) == ("light", "red")
    assert "233, 241, 234" in table and "200, 16, 46" in card_back
    page.reload()
    page.wait_for_selector('[data-pile="stock"] .card.back')
    assert looks()[:2] == ["light", "red"]


# A practice game in a dead position (tests/games/test_hint.py): nothing can reach the
# foundations, which the solver proves at once.
DEAD_GAME = """
from django.contrib.auth import get_user_model
from games.models import Game
from tests.engine.helpers import arrange
dead = arrange(
    base="AH", found={{"S": 1, "D": 1, "C": 1}}, tableau=[["5S"], ["5C"], ["9S"], ["9C"]],
    reserve=["2S", "2H"], stock=["3H"], rest="reserve",
)
owner = get_user_model().objects.get(username="{name}")
print("game:", Game.objects.create(owner=owner, ruleset="app", draw=3, state=dead.to_dict()).pk)
"""


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", "No winning line from here."),
        ("hu-HU", "Innen nincs nyerő folytatás."),
        ("pl-PL", "Stąd nie ma wygrywającej drogi."),
    ],
)
def test_a_hint_in_a_lost_practice_game_says_there_is_no_winning_line(
    new_context, run_on_server, locale, words
):
    # given a practice game the solver proves lost, in the player's language
    page = new_context(locale=locale).new_page()
    name = unique_name("dead")
    sign_up(page, name)
    output = run_on_server(DEAD_GAME.format(name=name))
    game_id = next(line for line in output.splitlines() if line.startswith("game: "))[6:]
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="tableau:1"] [data-card="5S"]')

    # when the player asks for a hint
    page.click("#hint")

    # then the table says no winning line is left, and marks no move
    page.locator("#message").filter(has_text=words).wait_for()
    assert page.locator("#message").inner_text().strip() == words
    assert page.locator(".hinted").count() == 0


# A daily game of a day that is over, whose deal the solver won in 82 moves, proved shortest.
PAST_DAILY_GAME = """
import datetime as dt
from django.contrib.auth import get_user_model
from games.engine import DealCode
from games.services import game_create
from games.models import DailyChallenge
challenge = DailyChallenge.objects.create(
    date=dt.date.fromisoformat("{day}"), draw=3, deal_code="CF1-D3-AAAAACL",
    ends_at=dt.datetime.fromisoformat("{day}T23:59:59+00:00"), par=82, par_exact=True)
owner = get_user_model().objects.get(username="{name}")
code = DealCode.parse(challenge.deal_code)
game = game_create(owner=owner, draw=3, code=code, challenge=challenge)
print("game:", game.pk)
"""


def test_the_end_screen_of_a_daily_shows_the_days_par_once_it_is_over(new_context, run_on_server):
    # given a Polish player's daily game left running on a day that is over, whose par is 82
    # moves (exact)
    day = f"2002-{secrets.randbelow(12) + 1:02d}-{secrets.randbelow(28) + 1:02d}"
    page = new_context(locale="pl-PL").new_page()
    name = unique_name("par")
    sign_up(page, name)
    output = run_on_server(PAST_DAILY_GAME.format(day=day, name=name))
    game_id = next(line for line in output.splitlines() if line.startswith("game: "))[6:]

    # when the player opens it: it ended with its day (R26a)
    page.goto(f"/play/{game_id}")
    page.wait_for_selector('[data-pile="stock"] .card')

    # then the end screen says so and gives the par, with Polish's plural form for 82
    page.locator("#win-par").filter(has_text="82").wait_for()
    assert page.locator("#win-par").inner_text() == "Najkrótsza wygrana: 82 ruchy"
    assert page.locator("#win-reason").inner_text() == (
        "Dzień się skończył: ta gra zakończyła się o północy."
    )
