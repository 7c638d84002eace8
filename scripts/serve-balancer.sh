#!/usr/bin/env bash
# The load balancer in front of several app nodes (HAProxy, deploy/haproxy.cfg.template), in the
# foreground. Each node is a topology of its own (scripts/serve-topology.sh with DRAIN_SECONDS,
# or a compose stack), all on one PostgreSQL (through one PgBouncer) and one Redis.
#   BALANCER_LISTEN  address:port, default 0.0.0.0:80
#   NODES            the nodes' balancer addresses (each node's BALANCER_PORT, where its nginx
#                    takes the PROXY protocol), space-separated: "10.0.0.11:8081 10.0.0.12:8081"
#   CHECK_INTERVAL   how often each node's /readyz is asked, default 1s (HAProxy's units)
#   RUN_DIR          where the rendered configuration and the stats socket (haproxy.sock) go,
#                    default a new temp directory
# Reload without dropping a connection: kill -USR2 <pid> (master-worker mode).
set -euo pipefail
cd "$(dirname "$0")/.."
HAPROXY="$(command -v haproxy || echo /usr/sbin/haproxy)"
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python3)")"
RUN_DIR="${RUN_DIR:-$(mktemp -d -t canfield-balancer.XXXXXX)}"
mkdir -p "$RUN_DIR"
[ -n "${NODES:-}" ] || { echo "NODES is empty: give the nodes' addresses" >&2; exit 2; }
servers=""
socket_servers=""
n=0
for node in $NODES; do
    n=$((n + 1))
    servers="$servers
    server node-$n $node"
    socket_servers="$socket_servers
    server node-$n $node track nodes/node-$n"
done
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
LISTEN="${BALANCER_LISTEN:-0.0.0.0:80}" NODE_SERVERS="$servers" SOCKET_SERVERS="$socket_servers" \
    CHECK_INTERVAL="${CHECK_INTERVAL:-1s}" DEPLOY_DIR="$PWD/deploy" RUN_DIR="$RUN_DIR" \
    "$BIN/python" - deploy/haproxy.cfg.template >"$RUN_DIR/haproxy.cfg" <<'PY'
import os, string, sys
names = ("LISTEN", "NODE_SERVERS", "SOCKET_SERVERS", "CHECK_INTERVAL", "DEPLOY_DIR", "RUN_DIR")
template = string.Template(open(sys.argv[1]).read())
print(template.safe_substitute({name: os.environ[name] for name in names}))
PY
"$HAPROXY" -c -q -f "$RUN_DIR/haproxy.cfg"
echo "balancer on ${BALANCER_LISTEN:-0.0.0.0:80} for $NODES"
exec "$HAPROXY" -W -db -f "$RUN_DIR/haproxy.cfg"
