"""Messages that read as a person writes them, in each language (issue 32, item 10): the OAuth
error page in the player's language, Hungarian in the informal "te" form and without
template-like wording, and a wait in minutes or hours rather than 1634 seconds."""

import pytest
from django.test import Client
from django.utils.translation import override
from rest_framework.test import APIClient

from core.errors import reason_message, retry_in_words


@pytest.mark.parametrize(
    ("lang", "unknown_app", "wrong_redirect"),
    [
        (
            "en",
            "No app is registered here with this client_id",
            "The app asks to send you back to an address it did not register",
        ),
        (
            "hu",
            "Ezzel a client_id-vel nincs itt regisztrált alkalmazás",
            "Az alkalmazás olyan címre küldene vissza, amelyet nem regisztrált",
        ),
        (
            "pl",
            "Żadna aplikacja nie jest tu zarejestrowana z tym client_id",
            "Aplikacja chce odesłać cię pod adres, którego nie zarejestrowała",
        ),
    ],
)
def test_the_oauth_error_page_speaks_the_players_language(user, lang, unknown_app, wrong_redirect):
    from oauth2_provider.models import get_application_model

    app = get_application_model().objects.create(
        name="Solver Buddy",
        client_type="public",
        authorization_grant_type="authorization-code",
        redirect_uris="https://buddy.example/back",
    )
    browser = Client(HTTP_ACCEPT_LANGUAGE=lang)
    browser.force_login(user)
    query = "response_type=code&code_challenge=x&code_challenge_method=S256"
    unknown = browser.get(f"/oauth/authorize?client_id=nope&{query}")
    mismatched = browser.get(
        f"/oauth/authorize?client_id={app.client_id}&redirect_uri=https://evil.example/&{query}"
    )
    for page, words in ((unknown, unknown_app), (mismatched, wrong_redirect)):
        text = page.content.decode()
        assert page.status_code == 400 and words in text, text
        assert "Invalid client_id parameter value" not in text
        assert "Mismatching redirect URI" not in text


@pytest.mark.parametrize(
    ("seconds", "en", "hu", "pl"),
    [
        (45, "Try again in 45 seconds.", "Próbáld újra 45 másodperc múlva.",
         "Spróbuj ponownie za 45 sekund."),
        (1634, "Try again in 28 minutes.", "Próbáld újra 28 perc múlva.",
         "Spróbuj ponownie za 28 minut."),
        (3 * 3600, "Try again in 3 hours.", "Próbáld újra 3 óra múlva.",
         "Spróbuj ponownie za 3 godziny."),
    ],
)  # fmt: skip
def test_a_wait_is_said_in_seconds_minutes_or_hours(seconds, en, hu, pl):
    for lang, words in (("en", en), ("hu", hu), ("pl", pl)):
        with override(lang):
            assert retry_in_words(seconds) == words


@pytest.mark.parametrize(
    ("reason", "params", "hu"),
    [
        ("foundation_start", {"card": "9S", "foundation": "foundation:S", "next": "4S"},
         "A pikk alap első lapja csak a pikk 4 lehet, nem a pikk 9."),
        ("foundation_next", {"card": "9S", "onto": "4S", "next": "5S"},
         "A pikk 4 után a pikk 5 következik, nem a pikk 9."),
        ("same_colour", {"card": "10H", "onto": "JD"},
         "A kőr 10 és a káró bubi azonos színű, nem rakhatod egymásra."),
        ("pile_empty", {"pile": "tableau:1"}, "Az 1. oszlop üres."),
        ("top_card_only", {"pile": "waste"}, "A dobópakli lapjai közül csak a felsőt mozdíthatod."),
    ],
)  # fmt: skip
def test_hungarian_reasons_read_as_sentences(reason, params, hu):
    with override("hu"):
        message = reason_message(reason, params)
    assert message == hu
    assert "ezzel kezdődik" not in message and "erre a lapra:" not in message


def test_api_messages_speak_informally_in_hungarian(db):
    """DRF's own formal Hungarian ("Nincs jogosultsága", "Használja") is reworded."""
    answer = APIClient(HTTP_ACCEPT_LANGUAGE="hu").get("/api/v1/players/x/games?since=tegnap")
    message = answer.json()["error"]["message"]
    assert answer.status_code == 400 and message.startswith("A since értéke"), message
    with override("hu"):
        from django.utils.translation import gettext

        denied = gettext("You do not have permission to perform this action.")
        datetime_format = gettext(
            "Datetime has wrong format. Use one of these formats instead: {format}."
        )
    assert denied == "Ehhez nincs jogosultságod." and "Használd" in datetime_format
