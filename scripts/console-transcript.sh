#!/bin/sh
# Writes docs/transcripts/NAME.md from docs/transcripts/NAME.input: every line typed on
# `tokar console` over one data folder with a virtual clock and seed 3, each line followed
# by what Tokar printed for it (each line is a fresh console process over the same data, so
# the transcript also shows that nothing is lost between runs).
#
# In the input, lines `# …` (and a lone `#`) are the page's introduction, without the `# `;
# blank lines are skipped, and `#keep PREFIX NEWNAME` saves the last picture whose name
# starts with PREFIX as docs/transcripts/NEWNAME, shown at the end of the page.
#
# Usage: scripts/console-transcript.sh NAME (after `cargo build -p tokar-bot`; TOKAR=path
# picks another binary).
set -eu
cd "$(dirname "$0")/.."
NAME="$1"
IN="docs/transcripts/$NAME.input"
OUT="docs/transcripts/$NAME.md"
TOKAR="${TOKAR:-${CARGO_TARGET_DIR:-target}/debug/tokar}"
DATA="$(mktemp -d)"
trap 'rm -rf "$DATA"' EXIT
mkdir "$DATA/images"
{
    grep -e '^# ' -e '^#$' "$IN" | sed -e 's/^# //' -e 's/^#$//'
    echo
    echo "Made by \`scripts/console-transcript.sh $NAME\` from \`$NAME.input\`."
    echo
    echo '```text'
    grep -v '^#' "$IN" | grep -v '^$' | while IFS= read -r line; do
        echo "$line"
        printf '%s\n' "$line" |
            "$TOKAR" console --data "$DATA/data" --images "$DATA/images" --virtual-clock \
                --seed 3 --robot-iterations 24 2>/dev/null |
            sed -e 's/^/    /' -e "s|$DATA/images/||"
    done
    echo '```'
    grep '^#keep ' "$IN" | while read -r _ prefix newname; do
        picture="$(ls "$DATA/images" | grep -- "-$prefix" | tail -n 1)"
        cp "$DATA/images/$picture" "docs/transcripts/$newname"
        echo
        echo "\`$picture\`, the last picture named \`$prefix…\`:"
        echo
        echo "![$picture]($newname)"
    done
} >"$OUT"
