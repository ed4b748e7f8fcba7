#!/bin/sh
# Writes docs/transcripts/server.md from docs/transcripts/server.input: every line typed on
# `tokar console` over one data folder with a virtual clock, each line followed by what
# Tokar printed for it. Usage: scripts/server-transcript.sh (after `cargo build -p tokar-bot`;
# TOKAR=path picks another binary).
set -eu
cd "$(dirname "$0")/.."
TOKAR="${TOKAR:-${CARGO_TARGET_DIR:-target}/debug/tokar}"
DATA="$(mktemp -d)"
trap 'rm -rf "$DATA"' EXIT
OUT=docs/transcripts/server.md
{
    echo "# One server, three games at once"
    echo
    echo "Typed on the console (one server: every channel belongs to it), with a virtual"
    echo "clock. Each button is printed with the line that clicks it; \`/button custom_id:…\`"
    echo "is that click. Made by \`scripts/server-transcript.sh\` from \`server.input\`."
    echo
    echo '```text'
    grep -v '^#' docs/transcripts/server.input | grep -v '^$' | while IFS= read -r line; do
        echo "$line"
        printf '%s\n' "$line" |
            "$TOKAR" console --data "$DATA" --virtual-clock --seed 3 --robot-iterations 24 2>/dev/null |
            sed 's/^/    /'
    done
    echo '```'
} >"$OUT"
