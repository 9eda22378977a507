#!/usr/bin/env bash
# Run the whole test suite on a fresh Debian machine with Python 3.11: installs the Debian
# packages the tests need (Postfix, Dovecot, PostgreSQL, a C compiler; root or sudo), makes .venv,
# installs the judge with its test extras (compiling the adjudication path with mypyc), then runs
# pytest. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"

sh deploy/install-test-packages.sh

PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

.venv/bin/ruff check .
# With the compiler installed above the build must have compiled (tests/test_compiled.py).
if command -v gcc >/dev/null 2>&1; then export JUDGE_REQUIRE_COMPILED=1; fi
status=0
# Two workers (JUDGE_TEST_WORKERS), a test file to a worker: each starts its own Postfix, Dovecot
# and PostgreSQL on free ports, and the e2e tests wait on mail far more than on the processor.
.venv/bin/python -m pytest -n "${JUDGE_TEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder "$@" || status=$?
if [ "$status" -eq 5 ]; then
    echo "test.sh: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
