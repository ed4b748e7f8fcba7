#!/bin/sh
# Hostile command lines through the table (bot/tests/fuzz.rs), more than CI
# runs: 100,000 by default. Usage: scripts/fuzz.sh [LINES] [SEED]
# The same seed gives the same lines; the figures are printed at the end.
set -eu
cd "$(dirname "$0")/.."
TOKAR_FUZZ_LINES="${1:-100000}" TOKAR_FUZZ_SEED="${2:-20261124}" \
    exec cargo test --release -p tokar-bot --test fuzz -- --nocapture
