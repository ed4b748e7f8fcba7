#!/bin/sh
# One /play end to end from PROCESSES bench processes at once on one PostgreSQL
# database (docs/bench/play.md). Usage:
#   TOKAR_DATABASE_URL=postgres://... scripts/play-bench-processes.sh [PROCESSES] [SECONDS]
# (defaults 2 and 5). The database should be empty: the first process makes the
# schema. Each process is the `play` bench with players of its own
# (TOKAR_BENCH_PROCESS=k); each prints its calls, median, p99 and calls a second,
# and the script adds the calls a second of all of them. Their measurements
# overlap but are not aligned to the millisecond: run for several seconds.
set -eu
cd "$(dirname "$0")/.."
PROCESSES="${1:-2}"
SECONDS_EACH="${2:-5}"
if [ -z "${TOKAR_DATABASE_URL:-}" ]; then
    echo "play-bench-processes.sh: set TOKAR_DATABASE_URL to an empty PostgreSQL database" >&2
    exit 2
fi
BENCH=$(cargo bench -p tokar-bot --bench play --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
if [ ! -x "$BENCH" ]; then
    echo "play-bench-processes.sh: the play bench did not build" >&2
    exit 1
fi
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
k=0
while [ "$k" -lt "$PROCESSES" ]; do
    TOKAR_BENCH_PROCESS=$k "$BENCH" --bench --warm-up-time 1 --measurement-time "$SECONDS_EACH" \
        >"$WORK/out.$k" 2>&1 &
    k=$((k + 1))
done
wait
k=0
while [ "$k" -lt "$PROCESSES" ]; do
    echo "process $k: $(grep '^play end to end over' "$WORK/out.$k" || cat "$WORK/out.$k")"
    k=$((k + 1))
done
cat "$WORK"/out.* | sed -n 's/.* \([0-9][0-9]*\) calls a second$/\1/p' |
    awk -v n="$PROCESSES" '{ s += $1 } END { printf "%d processes: %d calls a second together\n", n, s }'
