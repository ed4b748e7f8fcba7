#!/bin/sh
# `tokar migrate` on a data folder of GAMES games (default 10000): builds the
# folder (the `memory` example's copies of an Arcana game six actions in, each
# with its own players and channel), moves it into the empty PostgreSQL
# database TOKAR_DATABASE_URL, then opens that store and plays one action in
# every game. Prints what migrate checked, the times, and fails if any game
# does not load or play on.
# Usage: TOKAR_DATABASE_URL=postgres://… scripts/migrate-roundtrip.sh [GAMES]
set -eu
cd "$(dirname "$0")/.."
GAMES="${1:-10000}"
URL="${TOKAR_DATABASE_URL:?set TOKAR_DATABASE_URL to an empty PostgreSQL database}"
cargo build -p tokar-bot --bin tokar --example memory
TARGET="${CARGO_TARGET_DIR:-target}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK" "$WORK.template"' EXIT
env -u TOKAR_DATABASE_URL "$TARGET/debug/examples/memory" build --data "$WORK/data" --games "$GAMES"
START=$(date +%s.%N)
env -u TOKAR_DATABASE_URL "$TARGET/debug/tokar" migrate --from "$WORK/data" --to "$URL"
END=$(date +%s.%N)
echo "migrate took $(echo "$END - $START" | bc) s"
TOKAR_DATABASE_URL="$URL" "$TARGET/debug/examples/memory" every --data "$WORK/run" --games "$GAMES"
