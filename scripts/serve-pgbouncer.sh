#!/usr/bin/env bash
# PgBouncer in transaction mode in front of PostgreSQL (docker-compose.yml's `pgbouncer`, and
# a supervised program of scripts/serve-topology.sh with PGBOUNCER=1): the app's processes, on
# any number of machines, hold client connections to it, and PostgreSQL sees at most
# PGBOUNCER_POOL_SIZE server connections per database from it. The app's settings for it:
# DATABASE_POOLER=pgbouncer (docs/deploy.md, "Connection pooling").
#   PGBOUNCER_BIND        address:port it listens on, default 127.0.0.1:6432
#   PGBOUNCER_UPSTREAM    the server's URL; default POSTGRES_HOST and its parts, else DATABASE_URL
#   PGBOUNCER_POOL_SIZE   server connections per database, default 20
#   PGBOUNCER_MAX_CLIENTS client connections at most, default 2000
#   PGBOUNCER_WAIT_SECONDS how long a client waits for a server connection, default 5
#   PGBOUNCER_DIR         where its configuration is written, default a new temp directory
# PgBouncer refuses to run as root: as root (a bare host's topology) it runs as `nobody`.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python)")"
PGBOUNCER="$(command -v pgbouncer || echo /usr/sbin/pgbouncer)"
dir="${PGBOUNCER_DIR:-$(mktemp -d -t canfield-pgbouncer.XXXXXX)}"
"$BIN/python" scripts/pgbouncer-conf.py "$dir"
# A file per client connection: as many as this shell may have.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
if [ "$(id -u)" = 0 ]; then
    chown -R nobody "$dir"
    exec runuser -u nobody -- "$PGBOUNCER" "$dir/pgbouncer.ini"
fi
exec "$PGBOUNCER" "$dir/pgbouncer.ini"
