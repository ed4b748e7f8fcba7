#!/bin/sh
# The `tokar` binary killed with SIGKILL mid-stream and restarted, KILLS
# times (bot/tests/crash.rs): 400 by default. Usage: scripts/crash.sh [KILLS]
# Every acknowledged action must be stored after each restart; the figures
# are printed at the end.
set -eu
cd "$(dirname "$0")/.."
TOKAR_CRASH_KILLS="${1:-400}" \
    exec cargo test --release -p tokar-bot --test crash -- --nocapture
