"""The home page's new-game form takes CF2 codes (R4a) as the API does, and shows the API's
reason for a bad one."""

from tests.engine.test_deal import vectors
from tests.web.helpers import sign_up, unique_name


def test_new_game_form_deals_a_cf2_code_and_explains_a_bad_one(new_context):
    # given a signed-up player on the home page, and a CF2 test vector
    vector = vectors("deal_vectors_cf2.json")[3]
    page = new_context().new_page()
    sign_up(page, unique_name("coder"))

    # when they type a code whose first character is beyond H
    page.fill("#deal-code", "CF2-D3-I" + "A" * 25)
    page.click("#new-game button[type=submit]")

    # then the form says why, and stays on the page
    error = page.locator("#new-game-error")
    error.wait_for(state="visible")
    assert "A-H" in error.inner_text()
    assert page.url.endswith("/")

    # when they type the vector's code in lowercase
    page.fill("#deal-code", vector["code"].lower())
    page.click("#new-game button[type=submit]")

    # then the table shows exactly that deal, with its code
    page.wait_for_url("**/play/**")
    for column, cards in enumerate(vector["tableau"], start=1):
        page.wait_for_selector(f'[data-pile="tableau:{column}"] [data-card="{cards[0]}"]')
    page.wait_for_selector(f'[data-pile="reserve"] [data-card="{vector["reserve_top"]}"]')
    assert page.locator("#deal-code").inner_text() == vector["code"]
