"""The tests' one-off HTTP requests (a page, a probe, a burst from many threads): `net.get(...)`
where `httpx.get(...)` would make a client of its own, and load the CA bundle into it (~20 ms
of CPU), at each call. One client for the process, thread-safe, that keeps what those calls
kept: nothing. Each request opens a connection of its own, and no cookie an answer sets is
sent again (the answer's `.cookies` still hold them)."""

from __future__ import annotations

from http.cookiejar import CookieJar, DefaultCookiePolicy

import httpx

CLIENT = httpx.Client(
    limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
    cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),
)

get = CLIENT.get
post = CLIENT.post
request = CLIENT.request
stream = CLIENT.stream
