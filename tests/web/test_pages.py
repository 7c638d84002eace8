"""The pages without a browser: served, translated from the browser's language or the
switcher, and complete catalogues for hu and pl."""

import datetime as dt
import json
import re
from pathlib import Path

import pytest
import time_machine

from games.engine import DealCode
from games.models import Game
from games.services import game_create
from tests.web.helpers import easy_deck
from web.views import CATALOGUE_VERSION

LOCALE = Path(__file__).resolve().parents[2] / "locale"


@pytest.mark.parametrize("lang", ["hu", "pl"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_message_has_a_translation(lang, domain):
    source = (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
    entries = re.findall(r'\nmsgid ((?:".*"\n)+)msgstr ((?:".*"\n)+)', source)
    assert len(entries) > 40
    untranslated = [msgid for msgid, msgstr in entries if msgstr.strip() == '""']
    assert untranslated == []
    # a plural form's text, its wrapped continuation lines included
    plural_forms = re.findall(r'\nmsgstr\[\d\] ((?:".*"\n)+)', source)
    assert plural_forms  # every catalogue has plurals
    assert [form for form in plural_forms if form.strip() == '""'] == []


@pytest.mark.parametrize(
    ("accept", "expected"),
    [("hu-HU,hu;q=0.9", "Új játék"), ("pl", "Nowa gra"), ("en-US,en;q=0.8", "New game")],
)
def test_home_follows_the_browsers_language(client, db, user, accept, expected):
    client.force_login(user)

    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)

    assert response.status_code == 200
    assert expected in response.content.decode()


def test_the_language_switcher_sets_the_language(client, db):
    response = client.post("/i18n/setlang/", {"language": "hu", "next": "/"}, follow=True)

    body = response.content.decode()
    assert "Belépés" in body and "3 lap (Nehéz)" in body and "1 lap (Könnyű)" in body


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("hu", ["Tipp: %(action)s", "%(count)s lap"]),
        ("pl", ["%(count)s karta", "%(count)s karty", "%(count)s kart"]),
    ],
)
def test_the_scripts_words_come_from_the_javascript_catalogue(client, db, lang, words):
    response = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=lang)

    assert response.status_code == 200
    body = response.content.decode()
    assert all(json.dumps(word) in body for word in words)
    assert "pluralidx" in body
    assert "max-age" not in response.get("Cache-Control", "")


def test_the_pages_ask_for_their_languages_catalogue_of_this_release_cached_for_a_year(client, db):
    # given the catalogue URL a Polish page asks for
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    url = re.search(r'<script src="(/jsi18n/\?[^"]+)"', page)[1].replace("&amp;", "&")
    assert f"v={CATALOGUE_VERSION}" in url and "l=pl" in url

    # when anyone fetches it, whatever their own language
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="hu")

    # then it is the Polish catalogue, cacheable for a year (a new release is a new URL)
    assert response["Cache-Control"] == "public, max-age=31536000, immutable"
    assert json.dumps("%(count)s karty") in response.content.decode()
    # and an old release's URL is not cached
    stale = client.get(url.replace(CATALOGUE_VERSION, "0" * 12))
    assert "max-age" not in stale.get("Cache-Control", "")


def test_signup_logs_the_new_player_in(client, db):
    response = client.post(
        "/accounts/signup/",
        {"username": "carol", "password1": "felt-and-cards-99", "password2": "felt-and-cards-99"},
        follow=True,
    )

    assert response.status_code == 200
    assert response.context["user"].username == "carol"


def test_a_weak_password_is_refused_with_a_message(client, db):
    response = client.post(
        "/accounts/signup/", {"username": "dave", "password1": "123", "password2": "123"}
    )

    assert response.status_code == 200
    assert "errorlist" in response.content.decode()


def test_the_game_page_needs_a_login(client, db):
    response = client.get("/play/8c1f0000-0000-4000-8000-000000000000")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize(
    "path", ["/players/nobody", "/daily/2026-13-40/3/", "/daily/2026-01-01/2/", "/replay/x"]
)
def test_unknown_things_are_404_not_5xx(client, db, path):
    assert client.get(path).status_code == 404


def replay_frames(response) -> list:
    """The frames the replay page hands its script (its `<script id="frames">`)."""
    page = response.content.decode()
    start = page.index('<script id="frames" type="application/json">')
    body = page[page.index(">", start) + 1 : page.index("</script>", start)]
    return json.loads(body)


def test_replay_steps_through_a_finished_game(client, db, user, auth_client):
    created = auth_client.post("/api/v1/games", {"draw": 1}, format="json").json()
    auth_client.post(f"/api/v1/games/{created['id']}/actions", {"type": "draw"}, format="json")
    auth_client.post(f"/api/v1/games/{created['id']}/actions", {"type": "resign"}, format="json")

    response = client.get(f"/replay/{created['id']}")

    assert response.status_code == 200
    frames = replay_frames(response)
    assert [frame["action"] and frame["action"]["type"] for frame in frames] == [
        None,
        "draw",
        "resign",
    ]
    assert frames[0]["view"]["stock"]["count"] == 34
    assert frames[1]["view"]["stock"]["count"] == 33


@pytest.mark.parametrize(
    ("accept", "move", "draw"),
    [
        ("en", "A♠: column 1 → spades foundation", "draw: 2♠"),
        ("hu", "A♠: 1. oszlop → pikk alap", "húzás: 2♠"),
        ("pl", "A♠: kolumna 1 → baza pik", "dobranie: 2♠"),
    ],
)
def test_replay_captions_name_the_piles_in_words(client, db, auth_client, accept, move, draw):
    created = auth_client.post(
        "/api/v1/games", {"deck": easy_deck(), "draw": 1}, format="json"
    ).json()
    for action in (
        {"type": "move", "from": "tableau:1", "to": "foundation:S"},
        {"type": "draw"},
        {"type": "undo"},
        {"type": "resign"},
    ):
        response = auth_client.post(f"/api/v1/games/{created['id']}/actions", action, format="json")
        assert response.status_code == 200, response.json()

    response = client.get(f"/replay/{created['id']}", HTTP_ACCEPT_LANGUAGE=accept)

    captions = [frame["caption"] for frame in replay_frames(response)]
    assert captions[:3] == ["", move, draw]
    assert "tableau" not in "".join(captions) and "foundation:" not in "".join(captions)


def test_todays_board_follows_the_daily_time_zone(client, db, settings):
    # given: noon UTC, a day that already turned in the daily time zone (UTC+14)
    settings.DAILY_TIME_ZONE = "Pacific/Kiritimati"
    with time_machine.travel(dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC), tick=False):
        # when
        response = client.get("/daily/today/")

    # then: the link leads to that zone's date, the same day the API calls today
    assert response.status_code == 302
    assert response["Location"].endswith("/daily/2026-11-30/3/")


def test_player_page_says_which_games_count_and_marks_practice_games(client, db, user):
    # given a finished random game and a finished practice game (from a deal code), a move each
    random_game = game_create(owner=user)
    practice_game = game_create(owner=user, code=DealCode.parse("CF1-D3-AAAAACL"))
    Game.objects.filter(pk__in=[random_game.pk, practice_game.pk]).update(
        status="resigned", moves=1
    )

    page = client.get(f"/players/{user.username}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    hungarian = client.get(f"/players/{user.username}", HTTP_ACCEPT_LANGUAGE="hu").content.decode()

    assert "These figures count random and daily games that are over" in page
    assert "a lapjaik előre ismertek" in hungarian
    history = page.split('id="history"')[1].split("</table>")[0]
    rows = re.findall(r"<tr data-game.*?</tr>", history, flags=re.DOTALL)
    assert len(rows) == 2
    assert sum("not counted" in row for row in rows) == 1


def test_favicon_and_web_app_manifest(client, db):
    # the icon the browsers ask for by name leads to the SVG icon
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("web/icon.svg")

    # the manifest installs the table on a phone's home screen, in the page's language
    manifest = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="hu")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "/" and data["lang"] == "hu"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    assert "pasziánsz" in data["description"]


def test_the_board_and_home_pages_come_with_their_first_rows(client, db, make_user):
    # given two players on today's 3-card board, one of whom has drawn twice
    from games.days import day_today
    from games.services import game_act
    from leaderboard.services import daily_game_get_or_create

    first, second = make_user("ania"), make_user("bence")
    for player, draws in ((first, 2), (second, 0)):
        game, _created = daily_game_get_or_create(player=player, draw=3)
        for _ in range(draws):
            game_act(game=game, user=player, action={"type": "draw"}, expect=None)
    today = day_today().isoformat()

    # when the board and the home page are asked for
    board = client.get(f"/daily/{today}/3/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="hu").content.decode()

    # then their rows are in the HTML, as the scripts write them, so nothing shifts after
    rows = re.findall(r'<tr class="" data-player="([^"]+)"><td class="num">(\d+)</td>', board)
    assert sorted(name for name, _rank in rows) == sorted([first.username, second.username])
    assert [rank for _name, rank in rows] == ["1", "2"]
    assert '<span id="page-number">1</span>' in board and "Folyamatban" in board
    assert 'id="board-empty" hidden' in board
    assert "2 játékos" in home and f'data-player="{first.username}"' in home
    # and the nav links today's board straight, not through /daily/'s redirect
    assert f'href="/daily/{today}/3/">Ranglista' in home


@pytest.mark.parametrize("page", ["0", "-3", "x", "1" * 40, "100001"])
def test_a_board_page_number_the_api_would_refuse_is_left_to_the_script(client, db, page):
    today = dt.date.today().isoformat()

    response = client.get(f"/daily/{today}/3/?page={page}")

    assert response.status_code == 200
    assert '<tbody id="board-rows"></tbody>' in response.content.decode()
