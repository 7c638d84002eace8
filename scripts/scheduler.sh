#!/usr/bin/env bash
# The scheduler of the production topology (docker-compose.yml's `scheduler`, a supervised
# program of scripts/serve-topology.sh): `manage.py scheduler`, one long-lived process for the
# periodic jobs (canfield_site/management/commands/scheduler.py says which and when:
# SCHEDULE_SECONDS, default 3600, and END_SECONDS, default 60), and beside it `review_games`,
# which reviews the ended ranked games (R35) every REVIEW_SECONDS (default 15) in a process of
# its own (a review takes about half a second of CPU: the jobs do not wait for it). All are
# idempotent, so several schedulers or a restart do no harm; a failed run (database down) is
# retried next time. SIGTERM or SIGINT stops both.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python)")"
"$BIN/python" manage.py review_games --every "${REVIEW_SECONDS:-15}" &
reviewer=$!
"$BIN/python" manage.py scheduler &
jobs=$!
trap 'kill -TERM $jobs $reviewer 2>/dev/null' INT TERM
wait $jobs
kill -TERM $reviewer 2>/dev/null
wait
