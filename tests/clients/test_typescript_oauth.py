"""The TypeScript SDK's OAuth helpers (clients/typescript/src/oauth.ts) against a real server: the
node:test program clients/typescript/test/oauth.test.ts, built with the package
(tests/clients/conftest.py's `compiled`), checks the authorization URL (S256 challenge, state),
then signs a player in with the login form, allows an app on the consent page, gets tokens with
PKCE, plays, refreshes once on the 401 of an expired access token (rotation: the old refresh
token refused) and answers 401 after revocation; its live account events refresh an expired
token and reopen. The program asks for the expiry on stdout
(`expire: <token>`); this test expires the token in the server's database and answers
`expired` on its stdin."""

from __future__ import annotations

import os
import subprocess

from tests.clients.consent import access_token_expire
from tests.web.helpers import unique_name


def test_the_sdk_authorizes_refreshes_and_revokes_against_the_server(
    compiled, base_url, run_on_server
):
    env = {
        "PATH": os.environ["PATH"],
        "CANFIELD_URL": base_url,
        "CANFIELD_NAME": unique_name("tsoa"),
    }
    # (--test-force-exit: the program exits once its tests ended, even if a failed one left a
    # socket open, which would keep node's event loop alive and this loop reading)
    program = subprocess.Popen(
        ["node", "--test-reporter=tap", "--test-force-exit", "test/oauth.test.js"],
        cwd=compiled, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert program.stdin and program.stdout
    printed = []
    expired = 0
    for line in program.stdout:  # (each node:test has a timeout: the program ends)
        printed.append(line)
        if line.startswith("expire: "):
            access_token_expire(run_on_server, line.removeprefix("expire: ").strip())
            program.stdin.write("expired\n")
            program.stdin.flush()
            expired += 1
    program.stdin.close()
    stdout = "".join(printed)
    stderr = program.stderr.read() if program.stderr else ""

    assert program.wait(timeout=60) == 0, stdout + stderr
    assert "# pass 4" in stdout and "# fail 0" in stdout, stdout
    assert expired == 2, stdout
