#!/usr/bin/env bash
# The production topology of docker-compose.yml without Docker, on this machine's PostgreSQL
# and Redis: a one-shot migrate (+ collectstatic), then under supervisord (which restarts any of
# them that dies) the HTTP server (gunicorn, scripts/serve-http.sh), the heavy pool for hints,
# password doors and guest creation (scripts/serve-heavy.sh), the ASGI process(es) for WebSockets (uvicorn,
# scripts/serve-ws.sh), the scheduler (scripts/scheduler.sh), the Prometheus metrics
# (`manage.py serve_metrics`, on a loopback port of its own that nginx never proxies) and nginx
# in front, all on loopback.
#
#   DATABASE_URL   default postgres://postgres@127.0.0.1:5432/canfield
#   REDIS_URL      default redis://127.0.0.1:6379/0
#   PUBLIC_PORT    the one public port (nginx), default 8080
#   BALANCER_PORT  behind a load balancer (scripts/serve-balancer.sh): nginx's second port, for
#                  the balancer only, where each connection starts with the PROXY protocol
#                  header (HAProxy's send-proxy-v2) naming the client: its address is the
#                  client's for nginx and the app when the connection comes from one of
#                  BALANCER_ADDRESSES (space-separated addresses or networks, default 127.0.0.1).
#                  Default none (no balancer: PUBLIC_PORT only)
#   WEB_WORKERS    gunicorn workers, default 2;  WS_PROCESSES  WebSocket processes, default 1
#   PGBOUNCER      1: the app's processes reach PostgreSQL through PgBouncer in transaction mode
#                  (scripts/serve-pgbouncer.sh, a program here on a free loopback port;
#                  migrate goes straight to the server), as in docker-compose.yml; default 0
#   PGBOUNCER_URL  a PgBouncer (transaction mode) shared with other nodes: the app's processes
#                  use it (DATABASE_POOLER=pgbouncer), migrate goes straight to DATABASE_URL
#   DRAIN_SECONDS  behind a load balancer (several nodes, deploy/haproxy.cfg.template): on stop,
#                  how long /readyz answers 503 ("drain") before any app process is stopped, so
#                  that the balancer's health check takes the node out first; more than its
#                  check interval times `fall`. Default 0 (no balancer in front)
#   METRICS_PORT   the metrics' port on 127.0.0.1 (internal: never through nginx), default a
#                  free one; each process group counts into RUN_DIR/metrics/<program>
#   STATIC_COLLECTED  1: STATIC_ROOT holds this checkout's static files already, collected by
#                  the caller (a test run collects them once for all its topologies: ~5
#                  CPU-seconds a collect); default 0: collected here at each start
#   RUN_DIR        supervisord's config and socket, nginx config and temp files, default a new
#                  temp directory
#   DJANGO_SECRET_KEY  default: a random one for this run (sessions end with it)
#   DAILY_SECRET       default: a random one for this run (days created in it keep their deals)
#   MATCH_SECRET       default: a random one for this run (the match deals' key, R32)
#
# Runs in the foreground until interrupted; stops every process it started. Prints
# "topology ready on http://127.0.0.1:PORT" once the proxy answers /readyz (from gunicorn) and
# /ws/readyz (from a ws process), and the heavy pool /readyz and the metrics /metrics on their
# own ports. The programs are web, heavy, ws-1..ws-N, scheduler, metrics, proxy (and pgbouncer):
#   supervisorctl -c "$RUN_DIR/supervisord.conf" status   (or pid web, ...)
#   python scripts/programs.py "$RUN_DIR/supervisor.sock" stop ws-1   (or start: see the script)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
BIN="${VENV_BIN:-$PWD/.venv/bin}"
export PATH="$BIN:$PATH:/usr/sbin"
export VENV_BIN="$BIN"

export DJANGO_DEBUG=0
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/canfield}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
export DJANGO_SECRET_KEY="${DJANGO_SECRET_KEY:-$(python -c 'import secrets; print(secrets.token_urlsafe(50))')}"
export DAILY_SECRET="${DAILY_SECRET:-$(python -c 'import secrets; print(secrets.token_urlsafe(50))')}"
export MATCH_SECRET="${MATCH_SECRET:-$(python -c 'import secrets; print(secrets.token_urlsafe(50))')}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-localhost,127.0.0.1}"
# Loopback speaks plain HTTP: no redirect to HTTPS, cookies without the Secure flag.
export SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-0}"
export SECURE_COOKIES="${SECURE_COOKIES:-0}"
# The app is behind exactly one proxy, nginx below, which overwrites X-Forwarded-For.
export PROXY_COUNT=1
PUBLIC_PORT="${PUBLIC_PORT:-8080}"
export WEB_WORKERS="${WEB_WORKERS:-2}"
WS_PROCESSES="${WS_PROCESSES:-1}"
RUN_DIR="${RUN_DIR:-$(mktemp -d -t canfield-topology.XXXXXX)}"
export METRICS_DIR="$RUN_DIR/metrics"
# While it exists every app process answers /readyz 503 (core/health.py).
export DRAIN_FILE="$RUN_DIR/drain"
DRAIN_SECONDS="${DRAIN_SECONDS:-0}"
# Every WebSocket is an open file of a ws process (and two of nginx): as many as this shell may
# have.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
mkdir -p "$RUN_DIR"

# Below the kernel's ephemeral range, never a port another caller got (scripts/ports.py).
free_port() {
    python "$ROOT/scripts/ports.py"
}

supervisor_pid=""
stop_all() {
    trap - EXIT INT TERM
    # A graceful drain, in this order: /readyz fails (the balancer stops sending new requests
    # and WebSockets here), DRAIN_SECONDS for it to notice; then the app processes stop
    # gracefully while nginx still carries their answers: gunicorn finishes the requests in
    # flight, uvicorn closes its WebSockets with 1012 (service restart: clients reconnect, to
    # the other node); then nginx (SIGQUIT: graceful) and the rest.
    if [ -n "$supervisor_pid" ] && kill -0 "$supervisor_pid" 2>/dev/null; then
        touch "$DRAIN_FILE"
        if [ "$DRAIN_SECONDS" != 0 ]; then
            echo "draining: /readyz answers 503 for $DRAIN_SECONDS s before the app stops"
            sleep "$DRAIN_SECONDS"
        fi
        # (scripts/programs.py, not `supervisorctl stop`: supervisord spins while that waits)
        python scripts/programs.py "$RUN_DIR/supervisor.sock" stop web heavy $ws_names \
            >/dev/null || true
        echo "app processes stopped"
    fi
    # supervisord stops its programs (each one's whole process group) before it exits.
    [ -n "$supervisor_pid" ] && kill -TERM "$supervisor_pid" 2>/dev/null
    wait 2>/dev/null || true
}
trap stop_all EXIT
trap 'exit 143' INT TERM

# One-shot step, as the `migrate` service of docker-compose.yml.
python manage.py migrate --noinput
if [ "${STATIC_COLLECTED:-0}" != 1 ]; then
    python manage.py collectstatic --noinput --verbosity 0
fi

conf="$RUN_DIR/supervisord.conf"
cat >"$conf" <<EOF
[supervisord]
nodaemon=true
logfile=$RUN_DIR/supervisord.log
pidfile=$RUN_DIR/supervisord.pid
childlogdir=$RUN_DIR

[unix_http_server]
file=$RUN_DIR/supervisor.sock

[supervisorctl]
serverurl=unix://$RUN_DIR/supervisor.sock

[rpcinterface:supervisor]
supervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface
EOF

# A program supervisord restarts whenever it exits, its output on this script's stdout.
program() {
    local name="$1" command="$2"
    cat >>"$conf" <<EOF

[program:$name]
command=$command
directory=$ROOT
autorestart=true
startsecs=1
startretries=1000
stopasgroup=true
killasgroup=true
stopwaitsecs=20
redirect_stderr=true
stdout_logfile=/dev/stdout
stdout_logfile_maxbytes=0
EOF
}

web_port="$(free_port)"
program web "bash scripts/serve-http.sh"
echo "environment=HTTP_BIND=\"127.0.0.1:$web_port\",METRICS_NAME=\"web\"" >>"$conf"
web_servers="server 127.0.0.1:$web_port;"

heavy_port="$(free_port)"
program heavy "bash scripts/serve-heavy.sh"
echo "environment=HEAVY_BIND=\"127.0.0.1:$heavy_port\",METRICS_NAME=\"heavy\"" >>"$conf"
heavy_servers="server 127.0.0.1:$heavy_port;"

ws_servers=""
ws_names=""
ws_ports=""
for n in $(seq "$WS_PROCESSES"); do
    ws_names="$ws_names ws-$n"
    ws_port="$(free_port)"
    program "ws-$n" "bash scripts/serve-ws.sh"
    echo "environment=WS_BIND=\"127.0.0.1:$ws_port\",METRICS_NAME=\"ws-$n\"" >>"$conf"
    ws_servers="$ws_servers server 127.0.0.1:$ws_port;"
    ws_ports="$ws_ports $ws_port"
done

program scheduler "bash scripts/scheduler.sh"

if [ -n "${PGBOUNCER_URL:-}" ]; then
    # A PgBouncer of the whole cluster (several nodes): every program here through it.
    export DATABASE_URL="$PGBOUNCER_URL" DATABASE_POOLER=pgbouncer
elif [ "${PGBOUNCER:-0}" = 1 ]; then
    pgbouncer_port="$(free_port)"
    program pgbouncer "bash scripts/serve-pgbouncer.sh"
    # (supervisord reads % as its own: doubled.)
    echo "environment=PGBOUNCER_BIND=\"127.0.0.1:$pgbouncer_port\",PGBOUNCER_UPSTREAM=\"${DATABASE_URL//%/%%}\"" >>"$conf"
    # Every other program (started by supervisord with this environment) through it.
    DATABASE_URL="$(python -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); user = p.netloc.rpartition("@")[0]; print(p._replace(netloc=f"{user}@127.0.0.1:{sys.argv[2]}").geturl())' "$DATABASE_URL" "$pgbouncer_port")"
    export DATABASE_URL DATABASE_POOLER=pgbouncer
    echo "pgbouncer on 127.0.0.1:$pgbouncer_port"
fi

metrics_port="${METRICS_PORT:-$(free_port)}"
program metrics "python manage.py serve_metrics --bind 127.0.0.1:$metrics_port"

balancer=""
if [ -n "${BALANCER_PORT:-}" ]; then
    balancer="listen 127.0.0.1:$BALANCER_PORT proxy_protocol; real_ip_header proxy_protocol;"
    for address in ${BALANCER_ADDRESSES:-127.0.0.1}; do
        balancer="$balancer set_real_ip_from $address;"
    done
fi
LISTEN="127.0.0.1:$PUBLIC_PORT" BALANCER="$balancer" WEB_SERVERS="$web_servers" \
    WS_SERVERS="$ws_servers" HEAVY_SERVERS="$heavy_servers" RUN_DIR="$RUN_DIR" \
    python - deploy/nginx.conf.template >"$RUN_DIR/nginx.conf" <<'PY'
import os, string, sys
# Only our own names: nginx's $variables stay as they are.
names = ("LISTEN", "BALANCER", "WEB_SERVERS", "HEAVY_SERVERS", "WS_SERVERS", "RUN_DIR")
template = string.Template(open(sys.argv[1]).read())
print(template.safe_substitute({name: os.environ[name] for name in names}))
PY
program proxy "$(command -v nginx) -e stderr -c $RUN_DIR/nginx.conf -g \"daemon off;\""
# SIGQUIT: nginx finishes the answers it is carrying before it exits (SIGTERM drops them).
echo "stopsignal=QUIT" >>"$conf"

supervisord -c "$conf" &
supervisor_pid=$!

answers() {
    python -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "$1" \
        2>/dev/null
}
# Every ws process answers itself before anything asks nginx's ws upstream: nginx takes a server
# it could not connect to out of the upstream for 10 s (max_fails=1, fail_timeout=10s, its
# defaults), so a probe through nginx while one ws process was still starting sent every socket
# of those 10 s to the other, and one more failure there left none ("no live upstreams": 2,000
# sockets opening took 16 s and 74 failed, bench/live.py, 2026-12-06, once the processes
# started 0.3 s sooner).
ws_answer() {
    local port
    for port in $ws_ports; do answers "http://127.0.0.1:$port/readyz" || return 1; done
}
ready=0
for _ in $(seq 360); do
    if ws_answer \
        && answers "http://127.0.0.1:$PUBLIC_PORT/readyz" \
        && answers "http://127.0.0.1:$PUBLIC_PORT/ws/readyz" \
        && answers "http://127.0.0.1:$heavy_port/readyz" \
        && answers "http://127.0.0.1:$metrics_port/metrics"; then
        ready=1
        break
    fi
    kill -0 "$supervisor_pid" 2>/dev/null || break
    sleep 0.5
done
if [ "$ready" != 1 ]; then
    echo "topology not ready after 3 minutes: see the output above" >&2
    exit 1
fi
echo "metrics on http://127.0.0.1:$metrics_port/metrics"
if [ -n "${BALANCER_PORT:-}" ]; then
    echo "balancer port 127.0.0.1:$BALANCER_PORT (PROXY protocol from ${BALANCER_ADDRESSES:-127.0.0.1})"
fi
echo "topology ready on http://127.0.0.1:$PUBLIC_PORT (run dir $RUN_DIR)"

wait "$supervisor_pid"
