#!/bin/sh
# Commands a second through the console with pictures, for GAMES parallel Arcana
# games of up to ACTIONS actions each (docs/bench/render.md, "50 parallel games").
# Usage: scripts/parallel-games.sh [GAMES] [ACTIONS] [SEED] [PARALLEL]   (defaults 50 60 1 1)
# PARALLEL: how many commands of different games the console runs at once
# (`tokar console --parallel`; 1 is one at a time).
# The input is written by the render crate's `arcana_games` example (every action
# legal, from the engine's own games) and fed to `tokar console` on a fresh data
# folder; every turn's picture is drawn as on Discord and saved (`--images`, in
# /dev/shm when there is one). Prints the
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
# The pictures go to a memory file system when there is one: making thousands
# of files costs the file system, not Tokar, and on some (ext4 without a journal,
# just after a run deleted as many) it takes longer than drawing them. The store
# stays in WORK, on disk, flushed as always.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    IMAGES="$(mktemp -d -p /dev/shm)"
else
    IMAGES="$WORK/images"
fi
trap 'rm -rf "$WORK" "$IMAGES"' EXIT
# The games are played in the console's channel, as before threads per game (ruling T21).
{
    echo "@op /server threads:off"
    "$TARGET/release/examples/arcana_games" "$GAMES" "$ACTIONS" "$SEED"
} >"$WORK/input"
COMMANDS=$(wc -l <"$WORK/input")
START=$(date +%s.%N)
"$TARGET/release/tokar" console --data "$WORK/data" --images "$IMAGES" --seed "$SEED" --json --parallel "$PARALLEL" \
    <"$WORK/input" >"$WORK/output" 2>"$WORK/log"
END=$(date +%s.%N)
REFUSED=$(grep -c '"ok":false' "$WORK/output" || true)
PICTURES=$(ls "$IMAGES" | wc -l)
echo "$COMMANDS commands, $PICTURES pictures, $REFUSED refused" \
    "in $(echo "$END - $START" | bc) s:" \
    "$(echo "scale=1; $COMMANDS / ($END - $START)" | bc) commands a second"
if [ "$REFUSED" != 0 ]; then
    grep '"ok":false' "$WORK/output" | head -3
    exit 1
fi
