#!/bin/sh
# Commands a second through the console with pictures, for GAMES parallel Arcana
# games of up to ACTIONS actions each (render/README.md, "50 parallel games").
# Usage: scripts/parallel-games.sh [GAMES] [ACTIONS] [SEED] [PARALLEL]   (defaults 50 60 1 1)
# PARALLEL: how many commands of different games the console runs at once
# (`tokar console --parallel`; 1 is one at a time).
# The input is written by the render crate's `arcana_games` example (every action
# legal, from the engine's own games) and fed to `tokar console` on a fresh data
# folder; every turn's picture is drawn as on Discord and saved (`--images`). Prints the
# number of commands, the seconds taken and commands a second, and checks that
# no command was refused. With TOKAR_DATABASE_URL set, the store is that PostgreSQL
# database (which must be empty).
set -eu
cd "$(dirname "$0")/.."
GAMES="${1:-50}"
ACTIONS="${2:-60}"
SEED="${3:-1}"
PARALLEL="${4:-1}"
cargo build --release -p tokar-render --example arcana_games
cargo build --release -p tokar-bot --bin tokar
TARGET="${CARGO_TARGET_DIR:-target}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# The games are played in the console's channel, as before threads per game (ruling T21).
{
    echo "@op /server threads:off"
    "$TARGET/release/examples/arcana_games" "$GAMES" "$ACTIONS" "$SEED"
} >"$WORK/input"
COMMANDS=$(wc -l <"$WORK/input")
START=$(date +%s.%N)
"$TARGET/release/tokar" console --data "$WORK/data" --images "$WORK/images" --seed "$SEED" --json --parallel "$PARALLEL" \
    <"$WORK/input" >"$WORK/output" 2>"$WORK/log"
END=$(date +%s.%N)
REFUSED=$(grep -c '"ok":false' "$WORK/output" || true)
PICTURES=$(ls "$WORK/images" | wc -l)
echo "$COMMANDS commands, $PICTURES pictures, $REFUSED refused" \
    "in $(echo "$END - $START" | bc) s:" \
    "$(echo "scale=1; $COMMANDS / ($END - $START)" | bc) commands a second"
if [ "$REFUSED" != 0 ]; then
    grep '"ok":false' "$WORK/output" | head -3
    exit 1
fi
