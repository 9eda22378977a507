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
# Install (and compile) only when what the install is made from changed since the last one:
# pyproject.toml, the build hook, the compiled modules' list and their sources
# (judge/compiled.py's install_fingerprint). A `git pull` that changes any of them installs
# again; any other source is imported in place by the editable install.
stamp=.venv/judge-install.fingerprint
fingerprint="$(.venv/bin/python -c 'import runpy; print(runpy.run_path("judge/compiled.py")["install_fingerprint"]())')"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$fingerprint" ]; then
    rm -f "$stamp"
    .venv/bin/python -m pip install -q --disable-pip-version-check -e .
    echo "$fingerprint" >"$stamp"
fi
exec .venv/bin/judge serve "$@"
