"""The proxy's password-door limit counts an IPv6 client per /64 (deploy/nginx.conf.template's
`$client_block`): the template's own map, run by a real nginx that takes the client address
from a header (realip) and answers the key it counts under."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from scripts.ports import free_port
from tests import net

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin")
MAP = re.search(
    r"^ *map \$remote_addr \$client_block \{.*?^ *\}",
    (ROOT / "deploy" / "nginx.conf.template").read_text(),
    re.MULTILINE | re.DOTALL,
)

pytestmark = pytest.mark.skipif(NGINX is None, reason="no nginx")


@pytest.fixture(scope="module")
def proxy(tmp_path_factory) -> Iterator[str]:
    assert MAP is not None
    run = tmp_path_factory.mktemp("nginx")
    port = free_port()
    temp = " ".join(
        f"{name}_temp_path {run}/{name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (run / "nginx.conf").write_text(
        f"""pid {run}/nginx.pid;
error_log stderr warn;
events {{}}
http {{
    access_log off;
    {temp}
    {MAP.group(0)}
    server {{
        listen 127.0.0.1:{port};
        set_real_ip_from 127.0.0.1;
        real_ip_header X-Real-IP;
        location / {{ return 200 "$client_block"; }}
    }}
}}
"""
    )
    process = subprocess.Popen(
        [NGINX, "-e", "stderr", "-c", str(run / "nginx.conf"), "-g", "daemon off;"],
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        for _ in range(100):
            try:
                net.get(url, timeout=1)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stderr.read()
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def block(url: str, address: str) -> str:
    return net.get(url, headers={"X-Real-IP": address}, timeout=5).text


@pytest.mark.parametrize(
    ("addresses", "key"),
    [
        # the first four groups written out: they are the key
        (
            ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::7", "2001:0db8:0001:0002:ffff::1"],
            "2001:db8:1:2",
        ),
        # zero groups in the /64 written as `::`, whatever the last 64 bits
        (
            ["2001:db8::1:2:3:4", "2001:db8::1:0:2:3", "2001:db8::5", "2001:db8::1:2:3"],
            "2001:db8::",
        ),
        (["2001::5:1:2:3:4", "2001:0:0:5:a:b:c:d"], "2001::5:"),
    ],
)
def test_addresses_of_one_64_share_one_key(proxy, addresses, key):
    assert {block(proxy, address) for address in addresses} == {key}


def test_other_64s_have_other_keys(proxy):
    keys = {block(proxy, f"2001:db8:0:{n:x}::1") for n in range(1, 5)}

    assert len(keys) == 4
