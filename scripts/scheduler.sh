#!/usr/bin/env bash
# The scheduler of the production topology (docker-compose.yml's `scheduler`, a supervised
# program of scripts/serve-topology.sh): every END_SECONDS (default 60) it ends the daily games
# still in progress whose day is over (R26a: reads and actions end them too, this keeps lists
# and statistics true meanwhile); at start and then every SCHEDULE_SECONDS (default 3600) it
# creates today's and tomorrow's daily challenges when missing, and empties the address hashes
# older than ADDRESS_HASH_DAYS (fair-play review); every END_SECONDS it also closes the matches
# whose 24 hours are up and tops up the pool of solver-proved match deals (R32: MATCH_POOL_SIZE
# per draw mode, so that opening a match never waits for the solver); meanwhile `review_games` reviews the ended
# ranked games (R35) every REVIEW_SECONDS (default 15), in a process of its own. All are
# idempotent, so several schedulers or a restart do no harm; a failed run (database down) is
# retried next time.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN="${VENV_BIN:-.venv/bin}"
[ -x "$BIN/python" ] || BIN="$(dirname "$(command -v python)")"
sleeper=""
# The fair-play review (R35) of ended ranked games, every REVIEW_SECONDS, in a process of its own.
"$BIN/python" manage.py review_games --every "${REVIEW_SECONDS:-15}" &
reviewer=$!
trap 'kill $sleeper $reviewer 2>/dev/null; exit 0' INT TERM
hourly_due=0
while true; do
    if (( SECONDS >= hourly_due )); then
        hourly_due=$(( SECONDS + ${SCHEDULE_SECONDS:-3600} ))
        "$BIN/python" manage.py create_daily_challenges --days 2 \
            || echo "create_daily_challenges failed; next try in ${SCHEDULE_SECONDS:-3600} s" >&2
        "$BIN/python" manage.py forget_addresses \
            || echo "forget_addresses failed; next try in ${SCHEDULE_SECONDS:-3600} s" >&2
    fi
    "$BIN/python" manage.py end_daily_games \
        || echo "end_daily_games failed; next try in ${END_SECONDS:-60} s" >&2
    "$BIN/python" manage.py close_matches \
        || echo "close_matches failed; next try in ${END_SECONDS:-60} s" >&2
    "$BIN/python" manage.py fill_match_deals \
        || echo "fill_match_deals failed; next try in ${END_SECONDS:-60} s" >&2
    # In the background, so that a stop signal ends the wait at once.
    sleep "${END_SECONDS:-60}" &
    sleeper=$!
    wait $sleeper
done
