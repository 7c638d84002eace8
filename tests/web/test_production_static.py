"""With DEBUG off the static files come from `collectstatic`'s output through whitenoise's
manifest storage (hashed names): a page served that way still loads its CSS and its JavaScript
modules, the modules' own imports included."""

import re
import secrets
import subprocess
import sys

from tests.web.conftest import ROOT, asgi_server


def test_pages_load_their_css_and_scripts_with_debug_off(server_env, base_url, browser, tmp_path):
    # given the static files collected into a fresh STATIC_ROOT, and a server with DEBUG off
    env = dict(
        server_env,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DAILY_SECRET=secrets.token_urlsafe(50),
        DJANGO_SETTINGS_MODULE="tests.production_settings",
        STATIC_ROOT=str(tmp_path / "static"),
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
    )
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    assert (tmp_path / "static" / "staticfiles.json").exists()
    with asgi_server(env, tmp_path / "server.log") as url:
        context = browser.new_context(base_url=url)
        context.set_default_timeout(10_000)
        page = context.new_page()
        static = []
        page.on(
            "response",
            lambda response: (
                "/static/" in response.url and static.append((response.url, response.status))
            ),
        )
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))

        # when the home page is opened
        page.goto("/")

        # then the stylesheet and the script have hashed names and were served ...
        css = page.locator('link[rel="stylesheet"]').get_attribute("href")
        script = page.locator('script[type="module"][src*="/home."]').get_attribute("src")
        assert re.fullmatch(r"/static/web/app\.[0-9a-f]{12}\.css", css)
        assert re.fullmatch(r"/static/web/home\.[0-9a-f]{12}\.js", script)
        # ... the modules ran (the daily boards were filled from the API and the WebSocket) ...
        page.wait_for_function(
            "() => document.querySelector('.board[data-draw=\"3\"] .top10 li') !== null"
        )
        players = page.locator('.board[data-draw="3"] .players-count').inner_text()
        assert re.fullmatch(r"\d+ players?", players)
        # ... and the CSS is applied
        background = page.evaluate(
            "() => getComputedStyle(document.querySelector('.topbar')).backgroundColor"
        )
        assert background == "rgb(10, 58, 36)"
        assert errors == []
        assert static and all(status == 200 for _url, status in static), static
        context.close()
