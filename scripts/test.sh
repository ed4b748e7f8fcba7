#!/usr/bin/env bash
# The test command (README.md, .ci/run): every test of the workspace.
# The storage tests start a PostgreSQL server of their own from Debian's
# `postgresql` package (bot/tests/common/postgres.rs); when its binaries are
# missing this installs the package first (as root, or through sudo).
# Extra arguments are passed to `cargo test`: scripts/test.sh -- --nocapture
set -euo pipefail
cd "$(dirname "$0")/.."

if ! compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    echo "test.sh: PostgreSQL's server binaries are missing (/usr/lib/postgresql/<version>/bin)."
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    echo "test.sh: installing them: ${sudo:+sudo }apt-get update && ${sudo:+sudo }apt-get install -y postgresql"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql
fi

echo "test.sh: cargo test --workspace --all-targets --locked $*"
"${CARGO:-cargo}" test --workspace --all-targets --locked "$@"
# `--all-targets` leaves out the examples in doc comments; they run here.
echo "test.sh: cargo test --workspace --doc --locked"
exec "${CARGO:-cargo}" test --workspace --doc --locked
