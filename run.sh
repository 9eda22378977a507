#!/usr/bin/env bash
# Run the judge on its embedded default on a fresh Debian machine with Python 3.11: makes .venv,
# installs the judge, brings the SQLite store in ./judge-data up to date and starts `judge serve`
# (SMTP listener on 127.0.0.1:2525, outgoing mail written to ./judge-data/outbox-maildir).
# Arguments go to `judge serve` (e.g. --config judge.toml).
set -euo pipefail
cd "$(dirname "$0")"

PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e .
exec .venv/bin/judge serve "$@"
