"""core/words.py: one name for each card on the server and the pages, Hungarian articles
chosen by the sound of the next word, Polish "empty" agreeing with its pile."""

import pytest
from django.utils import translation

from core.errors import reason_message
from core.words import choose_articles, hu_article, page_words
from games.engine.text import card_words


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("1.", "az"), ("2.", "a"), ("3.", "a"), ("4.", "a"), ("5.", "az"), ("10.", "a"),
        ("11.", "a"), ("15.", "a"), ("50.", "az"), ("51", "az"), ("100.", "a"), ("150", "a"),
        ("500", "az"), ("1000", "az"), ("1999", "az"), ("10000", "a"), ("1000000", "az"),
        ("ász", "az"), ("Ötös", "az"), ("oszlop", "az"), ("kőr", "a"), ("treff", "a"),
    ],
)  # fmt: skip
def test_the_hungarian_article_follows_the_sound_of_the_next_word(word, article):
    assert hu_article(word) == article


def test_every_a_z_of_a_text_is_chosen():
    text = "A(z) 1. oszlop, a(z) 2. oszlopra, a(z) 5. oldal; Ha(z) marad"

    assert choose_articles(text) == "Az 1. oszlop, a 2. oszlopra, az 5. oldal; Ha(z) marad"


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_the_page_and_the_server_name_a_card_alike(lang):
    with translation.override(lang):
        words = page_words()
        message = reason_message("no_destination", {"card": "10C"})

    # the page's names are the description's (R28), and the API's messages use the same
    assert len(words["cards"]) == 52
    assert words["cards"]["10C"] == card_words("10C", lang)
    assert words["cards"]["10C"].lower() in message.lower()


def test_hungarian_moves_go_to_a_or_az_and_polish_piles_agree_with_empty():
    with translation.override("hu"):
        hu = page_words()
    with translation.override("pl"):
        pl = page_words()

    assert [hu["to"][f"tableau:{n}"] for n in (1, 2, 3, 4)] == [
        "az 1. oszlopra", "a 2. oszlopra", "a 3. oszlopra", "a 4. oszlopra",
    ]  # fmt: skip
    assert pl["empty"] == {
        "stock": "pusty", "waste": "puste", "reserve": "pusta", "foundation": "pusta",
        "tableau": "pusta",
    }  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "message"), [(5, "Az 5. oldal"), (2, "A 2. oldal")])
def test_a_hungarian_api_message_chooses_its_article(auth_client, page, message):
    response = auth_client.get(f"/api/v1/games?page={page}", HTTP_ACCEPT_LANGUAGE="hu")

    assert response.status_code == 404
    assert response.json()["error"]["message"].startswith(message)
