#!/bin/sh
# Install the Debian packages the test suite needs (real Postfix, Dovecot and PostgreSQL on
# loopback; a C compiler and Python's headers, with which the install compiles the adjudication
# path with mypyc; the DejaVu fonts the pictures' labels are drawn in; Chromium, which opens the
# web pages headless in tests/web/). Idempotent and quiet: when every package is already installed, apt is not touched,
# so the test command can call this on every run. Needs root (or sudo) only when something is missing.
set -eu

PACKAGES="postfix dovecot-imapd dovecot-lmtpd postgresql gcc python3-dev fonts-dejavu-core chromium"

missing=""
for pkg in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
        "install ok installed") ;;
        *) missing="$missing $pkg" ;;
    esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    # Without root the tests that need these servers skip themselves; under CI they must not.
    echo "install-test-packages: missing:$missing (run as root to install them)" >&2
    [ -n "${CI:-}" ] && exit 1
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# Postfix asks a debconf question on install; answer it so the install never blocks.
echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
$SUDO apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
