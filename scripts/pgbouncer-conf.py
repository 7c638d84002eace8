"""Writes PgBouncer's configuration (pgbouncer.ini, userlist.txt) into the directory given, for
scripts/serve-pgbouncer.sh: transaction pooling in front of the PostgreSQL server named by
PGBOUNCER_UPSTREAM (a URL), else POSTGRES_HOST and its parts (compose), else DATABASE_URL.
Standard library only: it runs in the app image and on a bare host alike.

Every database name a client asks for goes to the same server under the same name (the tests'
test_ databases too). Server connections start in UTC (`timezone=UTC`): Django then has no
`SET TIME ZONE` to send, session state a transaction pooler would hand to another client.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit


def upstream() -> dict[str, str]:
    url = os.environ.get("PGBOUNCER_UPSTREAM")
    if not url and not os.environ.get("POSTGRES_HOST"):
        url = os.environ.get("DATABASE_URL")
    if url:
        parts = urlsplit(url)
        return {
            "host": parts.hostname or "127.0.0.1",
            "port": str(parts.port or 5432),
            "user": unquote(parts.username or "postgres"),
            "password": unquote(parts.password or ""),
            "dbname": unquote(parts.path.lstrip("/")) or "postgres",
        }
    return {
        "host": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
        "port": os.environ.get("POSTGRES_PORT", "5432"),
        "user": os.environ.get("POSTGRES_USER", "canfield"),
        "password": os.environ.get("POSTGRES_PASSWORD", ""),
        "dbname": os.environ.get("POSTGRES_DB", "canfield"),
    }


def quoted(value: str) -> str:
    """A value in PgBouncer's connection string: in single quotes, each one inside doubled."""
    return "'" + value.replace("'", "''") + "'"


def main(directory: Path) -> None:
    server = upstream()
    host, _, port = os.environ.get("PGBOUNCER_BIND", "127.0.0.1:6432").rpartition(":")
    target = f"host={server['host']} port={server['port']} user={server['user']} timezone=UTC"
    if server["password"]:
        target += f" password={quoted(server['password'])}"
    pool = int(os.environ.get("PGBOUNCER_POOL_SIZE", "20"))
    ini = f"""[databases]
* = {target}

[pgbouncer]
listen_addr = {host}
listen_port = {port}
unix_socket_dir =
; The app's clients log in as the server's user: with its password when the server has one.
auth_type = {"scram-sha-256" if server["password"] else "trust"}
auth_file = {directory / "userlist.txt"}
; A server connection serves one transaction, then the next client's: no session state
; survives (see docs/deploy.md, "Connection pooling").
pool_mode = transaction
default_pool_size = {pool}
max_db_connections = {int(os.environ.get("PGBOUNCER_SERVER_CONNECTIONS", str(pool)))}
max_client_conn = {int(os.environ.get("PGBOUNCER_MAX_CLIENTS", "2000"))}
server_reset_query =
ignore_startup_parameters = extra_float_digits,options
; Clients wait this long for a server connection, then get an error the app answers 503
; `unavailable`: a pool busy that long is overload, and while the server is down every client
; would otherwise wait (PgBouncer does not fail them when its server logins fail) past
; gunicorn's 30 s timeout, into the proxy's 502.
query_wait_timeout = {int(os.environ.get("PGBOUNCER_WAIT_SECONDS", "5"))}
log_connections = 0
log_disconnections = 0
admin_users = {server["user"]}
"""
    directory.mkdir(parents=True, exist_ok=True)
    users = directory / "userlist.txt"
    users.write_text(f'"{server["user"]}" "{server["password"].replace(chr(34), chr(34) * 2)}"\n')
    users.chmod(0o600)
    (directory / "pgbouncer.ini").write_text(ini)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
