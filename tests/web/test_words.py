"""The table speaks the page's language: refusals in words from the API's code, rule and
params, counted words with the language's plural forms (Polish has three), pile labels that
name their cards, and after a move one short announcement of what changed."""

import re
from datetime import date, timedelta

import pytest

from tests.web.conftest import ROOT
from tests.web.helpers import PASSWORD, api, open_easy_game, sign_up, unique_name, wait_for_moves

# The easy deck (helpers.py): tapping column 1's ace of spades sends it to its foundation and
# the reserve's top, 10 of clubs, fills the column (R14).
ANNOUNCED = {
    "en": "Ace of spades to the spades foundation; column 1 filled with 10 of clubs",
    "hu": "Pikk ász a pikk alapra; 1. oszlop: treff 10 a tartalékból",
    "pl": "As pik na bazę pik; kolumna 1: 10 trefl z rezerwy",
}
COLUMN_LABEL = {
    "en": "Column 1: 10 of clubs",
    "hu": "1. oszlop: treff 10",
    "pl": "Kolumna 1: 10 trefl",
}
RESERVE_LABEL = {
    "en": "Reserve: 12 cards, top: jack of hearts",
    "hu": "Tartalék: 12 lap, felül: kőr bubi",
    "pl": "Rezerwa: 12 kart, na wierzchu: walet kier",
}


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_a_move_is_announced_in_one_short_sentence(new_context, lang):
    # given a player reading the table in their language
    page, _game_id = open_easy_game(new_context, lang)

    # when column 1's ace is tapped
    page.click('[data-pile="tableau:1"] [data-card="AS"]')
    wait_for_moves(page, 1)

    # then only what changed is announced, in words, in the live region
    announce = page.locator("#announce")
    assert announce.get_attribute("aria-live") == "polite"
    assert announce.inner_text() == ANNOUNCED[lang]
    # and the piles' labels name their cards, with the right plural
    assert page.locator('[data-pile="tableau:1"]').get_attribute("aria-label") == COLUMN_LABEL[lang]
    assert page.locator('[data-pile="reserve"]').get_attribute("aria-label") == RESERVE_LABEL[lang]
    # and each card has its own name
    assert page.locator('[data-pile="foundation:S"] [data-card="AS"]').get_attribute("aria-label")

    # when the player asks for the whole table (the I key), the full description is read
    page.locator("body").press("i")
    page.wait_for_function(
        "() => document.getElementById('announce').textContent"
        " === document.getElementById('description').textContent"
        " && document.getElementById('description').dataset.moves === '1'"
    )
    assert len(page.locator("#announce").inner_text()) > 200


def test_the_description_asked_for_during_a_move_is_the_new_state_s(new_context):
    # given a table whose description answers come late (a slow network: held until the test
    # lets them go)
    page, _game_id = open_easy_game(new_context, "en")
    page.wait_for_function("() => document.getElementById('description').dataset.moves === '0'")
    before = page.locator("#description").text_content()
    held = []

    def hold(route):
        held.append(route)

    page.route("**/text?*", hold)

    # when the player moves and asks for the whole table (the I key) while the new state's
    # description is on its way, which then comes
    with page.expect_request("**/text?*"):
        page.click('[data-pile="tableau:1"] [data-card="AS"]')
    wait_for_moves(page, 1)
    page.locator("body").press("i")
    assert held, "the description's request was not held"
    for route in held:
        route.continue_()

    # then what is read out is the description of the state after the move, once it comes
    page.wait_for_function("() => document.getElementById('description').dataset.moves === '1'")
    page.wait_for_function(
        "() => document.getElementById('announce').textContent"
        " === document.getElementById('description').textContent"
    )
    assert page.locator("#announce").text_content() != before


def test_polish_counts_take_their_three_forms(new_context):
    # given a Polish page (Django's JavaScript catalogue, with the .po file's Plural-Forms)
    page, _game_id = open_easy_game(new_context, "pl")

    # then each count takes its form: 1 karta, 2-4 karty, 5+ kart (12-14 too), 22 karty
    forms = page.evaluate(
        """() => [1, 2, 4, 5, 12, 22, 25].map(n =>
            interpolate(ngettext("%(count)s card", "%(count)s cards", n), {count: n}, true))"""
    )
    assert forms == ["1 karta", "2 karty", "4 karty", "5 kart", "12 kart", "22 karty", "25 kart"]
    players = page.evaluate(
        """() => [1, 3, 7].map(n =>
            interpolate(ngettext("%(count)s player", "%(count)s players", n), {count: n}, true))"""
    )
    assert players == ["1 gracz", "3 graczy", "7 graczy"]
    # and the reserve's caption on the table says "13 kart"
    assert page.locator('[data-pile="reserve"] .caption').inner_text() == "13 kart"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "10 of hearts cannot go on 9 of hearts: a column builds down in alternating colours.",
        ),
        ("hu", "Kőr 10 nem tehető erre a lapra: kőr 9; oszlopra csak eggyel kisebb, ellenkező"),
        ("pl", "10 kier nie pasuje na tę kartę: 9 kier; na kolumnę idzie tylko karta"),
    ],
)
def test_a_refusal_is_worded_from_code_rule_and_params(new_context, lang, expected):
    # given the page's error wording (docs/api.md: code, rule, params)
    page, _game_id = open_easy_game(new_context, lang)

    # when an illegal_move for R12 with its params is worded
    text = page.evaluate(
        """async () => {
            const {ApiError} = await import("/static/web/api.js");
            const {errorText} = await import("/static/web/messages.js");
            const error = new ApiError(422, "illegal_move", "server words", "R12",
                                       {card: "10H", onto: "9H"});
            return errorText(error);
        }"""
    )

    # then it is in the page's language, in words, without the rule's id
    assert text.startswith(expected)
    assert "R12" not in text


def test_a_refused_tap_shows_an_error_and_a_pick_up_a_note(new_context):
    # given a new table
    page, _game_id = open_easy_game(new_context, "en")

    # when the keyboard picks up a card, the note is not in the error style
    page.focus('[data-pile="tableau:1"]')
    page.keyboard.press("Enter")
    message = page.locator("#message")
    assert message.get_attribute("data-kind") == "note"
    assert message.get_attribute("role") == "status"
    page.keyboard.press("Escape")

    # when a move the server refuses is tried (2H onto the club foundation)
    page.focus('[data-pile="tableau:4"]')
    page.keyboard.press("Enter")
    for _ in range(5):
        page.keyboard.press("ArrowLeft")  # columns 3, 2, 1, reserve, foundation C
    page.keyboard.press("Enter")

    # then the refusal is shown as an error, announced at once
    page.wait_for_function("() => document.getElementById('message').dataset.kind === 'error'")
    assert message.get_attribute("role") == "alert"
    assert message.inner_text()


# ---- the catalogue: no English left on a Hungarian or Polish page --------------------------------

# Words of the English catalogue that may stand on a hu/pl page: names, keys, units, and words
# the two languages share with English.
ALLOWED = {
    "canfield", "club", "cardgames", "hoyle", "app", "bot", "bots", "enter", "esc", "english",
    "magyar", "polski",
}  # fmt: skip
ALLOWED_IN = {"hu": {"most", "is"}, "pl": {"status", "tak"}}


def _english_words() -> set[str]:
    """Every word of three letters or more in the English msgids of both catalogues."""
    words: set[str] = set()
    for domain in ("django", "djangojs"):
        po = (ROOT / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
        for msgid in re.findall(r'^msgid(?:_plural)? "(.*)"$', po, flags=re.MULTILINE):
            msgid = re.sub(r"%\(\w+\)s|%s|\\n", " ", msgid)
            words |= {word.lower() for word in re.findall(r"[A-Za-z]{3,}", msgid)}
    return words | {"tableau"}  # the rules' English term, never a msgid


# All a page says: its text (open dialogs included), the names screen readers read, the choices
# of its selects, and the JSON of words its scripts use.
PAGE_WORDS = """() => {
    // Players' names are theirs, not the page's words (other tests' players share the server:
    // a "live7" or a "guest3" on a board is no English left over): left out while reading.
    const names = [...document.querySelectorAll('a[href^="/players/"], .topbar .me')];
    const kept = names.map((node) => node.textContent);
    names.forEach((node) => { node.textContent = ""; });
    const parts = [document.title, document.body.innerText];
    names.forEach((node, i) => { node.textContent = kept[i]; });
    for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
        for (const name of ["aria-label", "title", "placeholder", "alt"]) {
            if (node.hasAttribute(name)) parts.push(node.getAttribute(name));
        }
    }
    for (const node of document.querySelectorAll("option, .sr-only, #announce, #description")) {
        parts.push(node.textContent);
    }
    const values = (value) =>
        typeof value === "object" ? Object.values(value).flatMap(values) : [value];
    parts.push(...values(JSON.parse(document.getElementById("words")?.textContent || "{}")));
    return parts.join("\\n");
}"""


class Leftovers:
    """English words and "a(z)" found on the pages visited, by page."""

    def __init__(self, lang: str) -> None:
        self.english = _english_words() - ALLOWED - ALLOWED_IN[lang]
        self.found: list[str] = []
        self.pages = 0

    def check(self, page, where: str, extra: str = "") -> None:
        text = page.evaluate(PAGE_WORDS) + "\n" + extra
        self.pages += 1
        words = {word for word in re.findall(r"[^\W\d_]+", text)}
        # (deal codes and acronyms are in capitals: CF1-D3-AAAAACL, BOT)
        left = sorted(w for w in words if w.lower() in self.english and not w.isupper())
        if left:
            self.found.append(f"{where}: English {left}")
        if "a(z)" in text.lower():
            self.found.append(f"{where}: a(z) in {text[text.lower().index('a(z)') - 30 :][:80]!r}")


@pytest.mark.parametrize("lang", ["hu", "pl"])
def test_no_english_is_left_on_any_page_or_dialog(new_context, lang):
    locale = {"hu": "hu-HU", "pl": "pl-PL"}[lang]
    leftovers = Leftovers(lang)
    # a player with a finished practice game, a daily game and a refused move
    player, game_id = open_easy_game(new_context, lang, who="cat")
    name = player.locator(".topbar .me").inner_text()
    confirms: list[str] = []
    player.on("dialog", lambda dialog: (confirms.append(dialog.message), dialog.accept()))

    # the table: an announced move, a refusal, the settings dialog, the description
    player.click('[data-pile="tableau:1"] [data-card="AS"]')
    wait_for_moves(player, 1)
    player.focus('[data-pile="tableau:4"]')
    player.keyboard.press("Enter")
    for _ in range(5):
        player.keyboard.press("ArrowLeft")
    player.keyboard.press("Enter")
    player.wait_for_function("() => document.getElementById('message').dataset.kind === 'error'")
    refusal = player.locator("#message").inner_text()
    assert not refusal[0].islower(), refusal  # a sentence, though it starts with a card's name
    player.locator("body").press("i")
    player.wait_for_function("() => document.getElementById('description').dataset.moves === '1'")
    leftovers.check(player, "table")
    player.click("#settings-open")
    player.wait_for_selector("#settings[open]")
    leftovers.check(player, "table, settings dialog")
    player.keyboard.press("Escape")
    # ending the game: the confirmation, then the end dialog
    player.click("#resign")
    player.wait_for_selector("#win[open]")
    leftovers.check(player, "table, end dialog", "\n".join(confirms))
    assert confirms, "resigning asks first"

    daily = api(player, "POST", "games", {"daily": True, "draw": 3})["body"]
    api(player, "POST", f"games/{daily['id']}/actions", {"type": "draw"})
    player.goto(f"/play/{daily['id']}")
    player.wait_for_selector('[data-pile="tableau:1"] .card')
    leftovers.check(player, "daily table")
    today = daily["daily"]["date"]
    for where, path in [
        ("home, signed in", "/"),
        ("own player page", f"/players/{name}"),
        ("replay", f"/replay/{game_id}"),
        ("today's board, signed in", f"/daily/{today}/3/"),
        ("matches, signed in", "/matches/"),
    ]:
        player.goto(path)
        player.wait_for_load_state("networkidle")
        leftovers.check(player, where)

    # a visitor: the doors, the rules, the boards, a player page
    visitor = new_context(locale=locale).new_page()
    for where, path in [
        ("home", "/"),
        ("log in", "/accounts/login/"),
        ("sign up", "/accounts/signup/"),
        ("rules: app", "/rules/app/"),
        ("rules: cardgames", "/rules/cardgames/"),
        ("rules: classic", "/rules/classic/"),
        ("today's board, 1 card", f"/daily/{today}/1/"),
        ("a past day's board", f"/daily/{date.fromisoformat(today) - timedelta(days=1)}/3/"),
        ("player page", f"/players/{name}"),
        ("matches", "/matches/"),
        ("ratings", "/ratings/2/3/"),
    ]:
        visitor.goto(path)
        visitor.wait_for_load_state("networkidle")
        leftovers.check(visitor, where)
    # a wrong password: the form's error
    visitor.goto("/accounts/login/")
    visitor.fill("#id_username", name)
    visitor.fill("#id_password", "not-the-password")
    visitor.click("form button[type=submit]")
    visitor.wait_for_selector(".errorlist, .error, [role=alert]")
    leftovers.check(visitor, "log in, wrong password")

    assert not leftovers.found, "\n".join(leftovers.found)
    assert leftovers.pages == 21


# ---- the site's words around the table (issue 33) ------------------------------------------

LANGS = {"en": "en-US,en;q=0.9", "hu": "hu-HU,hu;q=0.9", "pl": "pl-PL,pl;q=0.9"}


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_the_language_menu_names_each_language_in_its_own_words(client, db, lang):
    body = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=LANGS[lang]).content.decode()

    options = re.findall(r'<option value="(\w+)" lang="\w+"[^>]*>([^<]+)</option>', body)
    assert options == [("en", "English"), ("hu", "Magyar"), ("pl", "Polski")]


@pytest.mark.parametrize(
    ("lang", "title"),
    [("en", "Page not found"), ("hu", "Nincs ilyen oldal"), ("pl", "Nie ma takiej strony")],
)
def test_a_missing_page_says_so_in_the_pages_language(client, db, lang, title):
    response = client.get("/no/such/page", HTTP_ACCEPT_LANGUAGE=LANGS[lang])

    body = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{lang}">' in body and f"<h1>{title}</h1>" in body


DESCRIPTION = {
    "en": "Canfield solitaire: daily challenges and a live leaderboard.",
    "hu": "Canfield pasziánsz: napi kihívások és élő ranglista.",
    "pl": "Pasjans Canfield: wyzwania dnia i tabela wyników na żywo.",
}


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_every_page_has_a_meta_description_in_its_language(client, db, lang):
    for path in [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/rules/app/",
        "/matches/",
        "/no/such/page",
    ]:
        body = client.get(path, HTTP_ACCEPT_LANGUAGE=LANGS[lang]).content.decode()
        assert f'<meta name="description" content="{DESCRIPTION[lang]}">' in body, path


def test_a_wrong_login_is_worded_as_the_site_speaks_in_hungarian(client, db, django_user_model):
    django_user_model.objects.create_user("dora", password="green-felt-canfield-42")

    response = client.post(
        "/accounts/login/",
        {"username": "dora", "password": "not-it"},
        HTTP_ACCEPT_LANGUAGE=LANGS["hu"],
    )

    body = response.content.decode()
    assert "Hibás felhasználónév vagy jelszó." in body
    assert "Írjon" not in body and "Írja" not in body


def catalogue(lang: str, domain: str) -> str:
    return (ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")


def test_one_thing_has_one_name_and_the_grammar_holds():
    hungarian = catalogue("hu", "django") + catalogue("hu", "djangojs")
    polish = catalogue("pl", "django") + catalogue("pl", "djangojs")
    translations = [line for line in hungarian.splitlines() if not line.startswith("msgid")]
    # the deal's code is the "leosztáskód" everywhere; the site says "te", never "Ön" forms
    for word in ("játszmakód", "leosztás kódja", "írjon", "írja be", "adja meg"):
        assert not [line for line in translations if word in line.lower()], word
    translations = [line for line in polish.splitlines() if not line.startswith("msgid")]
    # no "najdłuższy kolumnę", no man assumed, the board is a "tabela", "Pierwsza dziesiątka"
    for words in (
        "najdłuższy kolumnę",
        "Zająłeś",
        "Pierwsza 10",
        "Ranking dzienny",
        "Pełny ranking",
    ):
        assert not [line for line in translations if words in line], words
    assert 'msgid "Leaderboard"\nmsgstr "Tabela wyników"' in polish
    assert 'msgid "Rating"\nmsgstr "Ranking"' in polish


def nginx_throttled_body() -> str:
    """The body nginx answers a throttled password door with (deploy/nginx.conf.template)."""
    template = (ROOT / "deploy" / "nginx.conf.template").read_text()
    block = template[template.index("location @throttled") :]
    return re.search(r"return 429 '([^']+)'", block)[1]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Too many requests: wait a moment and try again."),
        ("hu", "Túl sok kérés"),
        ("pl", "Zbyt wiele"),
    ],
)
def test_the_login_form_under_nginxs_limit_says_so_in_the_pages_language(new_context, lang, words):
    # given nginx's limit on the password doors reached: its 429 with a JSON body in English
    page = new_context(locale={"en": "en-US", "hu": "hu-HU", "pl": "pl-PL"}[lang]).new_page()
    body = nginx_throttled_body()
    page.route(
        re.compile(r"/accounts/login/"),
        lambda route: (
            route.fulfill(
                status=429,
                body=body,
                headers={"Content-Type": "application/json", "Retry-After": "1"},
            )
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.goto("/accounts/login/?next=/")
    page.fill("#id_username", "somebody")
    page.fill("#id_password", "green-felt-canfield-42")

    # when the form is sent
    page.click("form button[type=submit]")

    # then the form stays, with a sentence in the page's language, and no JSON
    refused = page.locator("#login-form .refused")
    refused.wait_for()
    assert words in refused.inner_text()
    assert "{" not in page.locator("main").inner_text()
    assert page.locator("#id_username").input_value() == "somebody"


def test_a_wrong_current_password_is_worded_as_the_site_speaks_in_hungarian(
    client, db, django_user_model
):
    client.force_login(django_user_model.objects.create_user("ede", password="old-felt-42-x"))

    response = client.post(
        "/account/password/",
        {
            "old_password": "not-it",
            "new_password1": "a-new-felt-43",
            "new_password2": "a-new-felt-43",
        },
        HTTP_ACCEPT_LANGUAGE=LANGS["hu"],
    )

    body = response.content.decode()
    assert response.status_code == 200
    assert "Hibás jelszó." in body and "Írja" not in body


def test_the_login_form_still_logs_in_and_shows_the_servers_refusal(new_context):
    # given an account, and a visitor's browser on the log-in page on the way to /matches/
    name = unique_name("door")
    sign_up(new_context().new_page(), name)
    page = new_context(locale="hu-HU").new_page()
    page.goto("/accounts/login/?next=/matches/")

    # when a wrong password is sent: the server's page with its refusal, in Hungarian
    page.fill("#id_username", name)
    page.fill("#id_password", "not-the-password")
    page.click("form button[type=submit]")
    page.locator("main .errorlist").wait_for()
    assert "Hibás felhasználónév vagy jelszó." in page.locator("main").inner_text()

    # then the right one, from the form the answer brought: signed in, where they were going
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_url("**/matches/")
    assert page.locator(".topbar .me").inner_text() == name
