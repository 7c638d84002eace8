#!/usr/bin/env bash
# Production WebSocket server for the live boards: uvicorn on ASGI (uvloop, httptools and the
# websockets sans-I/O protocol), one process; more processes scale it. bench/live.py measures
# why: asyncio's transports send a frame at once (one system call), where daphne's Twisted
# registered every socket for writing, sent on the next loop turn and unregistered it (three);
# with 2,000 listeners that write path was most of a process's time.
#   WS_BIND  address:port, default 127.0.0.1:8001; more uvicorn options may follow the script's
#            name (the tests pass `--fd N`, a socket they bound, and shorter ping intervals)
#   ASGI_APP the application, default canfield_site.asgi:application (the browser tests' server
#            with a clock of its own: tests/web/clocked.py)
# - A listen backlog that absorbs a crowd of listeners connecting at once.
# - No per-message compression: it would compress every batch once per listener (zlib, one
#   context per socket), the CPU the listeners are served with; daphne did not compress either.
# - A client frame or message over 4 KiB (WS_MAX_MESSAGE in settings.py) closes its socket with
#   1009 as soon as its header announces the length: nothing of it is buffered. Clients never
#   need to send anything; uvicorn's default (16 MiB) let 80 sockets take 2.6 GiB.
# - WebSocket pings every 20 s; a client that has not answered one in 20 s is closed (1011).
#   Idle listeners that answer stay up for hours; the pings keep them through proxies.
# - No proxy headers (the app reads X-Forwarded-For itself, by PROXY_COUNT), no lifespan (the
#   Channels router has none), no access log (a line per socket would cost as much as a batch).
#   WS_NICE  the process's niceness, default 0; a negative one (root or CAP_SYS_NICE; `nice`
#            warns and runs it at 0 without) lets a batch's fan-out run before the request
#            workers when the cores are busy (docs/deploy.md, "Live boards under CPU load")
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/uvicorn" ] || BIN="$(dirname "$(command -v uvicorn)")"
bind="${WS_BIND:-127.0.0.1:8001}"
source scripts/metrics-dir.sh
# Each HTTP request (a stream's opening) borrows a database connection from the process's pool
# instead of opening one (canfield_site/settings.py, DATABASE_POOL_SIZE).
export DATABASE_POOL_SIZE="${DATABASE_POOL_SIZE:-16}"
exec nice -n "${WS_NICE:-0}" "$BIN/uvicorn" "${ASGI_APP:-canfield_site.asgi:application}" \
    --host "${bind%:*}" --port "${bind##*:}" \
    --backlog 2048 \
    --ws websockets-sansio --ws-per-message-deflate false --ws-max-size 4096 \
    --ws-ping-interval 20 --ws-ping-timeout 20 \
    --no-proxy-headers --lifespan off \
    --no-access-log --log-level warning \
    --timeout-graceful-shutdown 5 \
    "$@"
