#!/usr/bin/env bash
# The scheduler of the production topology (docker-compose.yml's `scheduler`, a supervised
# program of scripts/serve-topology.sh): `manage.py scheduler`, one long-lived process for the
# periodic jobs (canfield_site/management/commands/scheduler.py says which and when:
# SCHEDULE_SECONDS, default 3600, and END_SECONDS, default 60), and beside it `review_games`,
# which reviews the ended ranked games (R35) every REVIEW_SECONDS (default 15) in a process of
# its own (a review takes about half a second of CPU: the jobs do not wait for it). All are
# idempotent, so several schedulers or a restart do no harm; a failed run (database down) is
# retried next time. Beside them, `analyse_games` computes the analyses (R37) that reads of
# `GET games/{id}/analysis` queued, looking for more every ANALYSIS_POLL_SECONDS (default 2),
# at niceness ANALYSIS_NICE (default 19: requests first); each takes up to a few seconds of
# CPU, so it has a process of its own too. SIGTERM or SIGINT stops all three.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python)")"
"$BIN/python" manage.py review_games --every "${REVIEW_SECONDS:-15}" &
reviewer=$!
nice -n "${ANALYSIS_NICE:-19}" "$BIN/python" manage.py analyse_games \
    --every "${ANALYSIS_POLL_SECONDS:-2}" &
analyser=$!
"$BIN/python" manage.py scheduler &
jobs=$!
trap 'kill -TERM $jobs $reviewer $analyser 2>/dev/null' INT TERM
wait $jobs
kill -TERM $reviewer $analyser 2>/dev/null
wait
