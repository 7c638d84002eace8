"""A browser app on another origin, in a real browser: it reads the API and registers itself as
an OAuth app with a bearer token or no credentials, but never with the visitor's session
cookie, and the site's pages are closed to it (CORS: docs/api.md, "Conventions")."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.web.helpers import api, sign_up, unique_name


@pytest.fixture
def other_origin() -> Iterator[str]:
    """A third-party site: an empty page on another port of this machine (another origin, the
    same site: the browser sends the game site's cookies to a credentialed request from it)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"<!doctype html><title>Third-party app</title><p>app</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()


# What the third-party page's script does: each call's status and body, or the browser's
# refusal (a CORS failure is a TypeError the script sees, nothing more).
CALL = """async ([url, options]) => {
    try {
        const response = await fetch(url, options);
        return {status: response.status, body: await response.text()};
    } catch (error) {
        return {refused: String(error)};
    }
}"""


def test_another_origin_uses_a_token_never_the_session(new_context, base_url, other_origin):
    # given: a player signed in on the site, with a key an app holds
    context = new_context()
    page = context.new_page()
    name = unique_name("cors")
    sign_up(page, name)
    made = api(page, "POST", "account/tokens", {"name": "app", "scopes": ["account:read"]})
    key = made["body"]["token"]

    # when: a page of another origin, in the same browser, calls the API
    page.goto(other_origin)

    def call(path: str, **options: object) -> dict:
        return page.evaluate(CALL, [base_url + path, options])

    with_token = call("/api/v1/account", headers={"Authorization": f"Bearer {key}"})
    with_cookie = call("/api/v1/account", credentials="include")
    registered = call(
        "/oauth/register",
        method="POST",
        headers={"Content-Type": "application/json"},
        body='{"client_name": "Web App", "redirect_uris": ["https://web-app.example/cb"]}',
    )
    metadata = call("/.well-known/oauth-authorization-server")
    keys_page = call("/account/keys/", credentials="include")
    keys_page_plain = call("/account/keys/")

    # then: the token works across origins (a preflight for its header), and so does an app's
    # registration (a preflight for its JSON)
    assert with_token["status"] == 200 and f'"{name}"' in with_token["body"]
    assert registered["status"] == 201 and "client_id" in registered["body"]
    assert metadata["status"] == 200 and "registration_endpoint" in metadata["body"]
    # the session cookie is no use from there: the browser hands the script nothing
    assert "refused" in with_cookie, with_cookie
    # and the site's pages answer no CORS at all
    assert "refused" in keys_page and "refused" in keys_page_plain
