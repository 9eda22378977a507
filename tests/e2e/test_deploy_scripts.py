"""The deploy scripts do what an operator and the tests rely on: private servers that relay nothing."""

from __future__ import annotations

import os
import shutil
import smtplib
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from harness import header_values

pytestmark = pytest.mark.e2e

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_postfix_refuses_relaying_and_unknown_users(mail_servers: Any, mail_account: Any) -> None:
    with smtplib.SMTP("127.0.0.1", mail_servers.smtp_port, timeout=30) as smtp:
        refused = {}
        for rcpt in ("someone@elsewhere.test", f"nobody@{mail_servers.domain}"):
            try:
                smtp.sendmail(mail_account.address, [rcpt], b"Subject: x\r\n\r\nx\r\n")
            except smtplib.SMTPRecipientsRefused as error:
                refused.update({r: code for r, (code, _) in error.recipients.items()})
    assert refused == {"someone@elsewhere.test": 554, f"nobody@{mail_servers.domain}": 550}


def test_plus_addresses_reach_the_mailbox_with_their_token(
    mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    local, _, domain = mail_account.address.partition("@")
    mail_account.send(
        [f"{local}+game42@{domain}"],
        b"Subject: token\r\nMessage-ID: <tok@example.test>\r\n\r\nx\r\n",
    )
    mails = wait_until(mail_account.messages, what="the plus-addressed mail")
    (raw,) = mails.values()
    assert header_values(raw, "Delivered-To") == [f"{local}+game42@{domain}"]


@pytest.mark.skipif(os.geteuid() != 0, reason="the private mail servers need root")
def test_mailservers_command_line_starts_and_stops_a_second_pair(
    mailservers_module: Any, tmp_path: Path
) -> None:
    if mailservers_module.missing_requirements():
        pytest.skip(mailservers_module.missing_requirements())
    script = DEPLOY / "mailservers.py"
    started = subprocess.run(
        [sys.executable, str(script), "start", "--user", "op:secret", "--domain", "ops.test"],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    values = dict(line.split("=", 1) for line in started.stdout.split())
    directory = Path(values["MAIL_DIR"])
    try:
        assert values["MAIL_DOMAIN"] == "ops.test"
        from imapclient import IMAPClient

        with IMAPClient("127.0.0.1", port=int(values["IMAP_PORT"]), ssl=False, timeout=10) as c:
            c.login("op@ops.test", "secret")
        with smtplib.SMTP("127.0.0.1", int(values["SMTP_PORT"]), timeout=10) as smtp:
            assert smtp.noop()[0] == 250
    finally:
        subprocess.run(
            [sys.executable, str(script), "stop", str(directory), "--remove"],
            timeout=180,
            check=True,
        )
    assert not directory.exists()
    with pytest.raises(OSError), smtplib.SMTP("127.0.0.1", int(values["SMTP_PORT"]), timeout=5):
        pass


def test_postgres_script_starts_a_cluster_with_a_judge_database(tmp_path: Path) -> None:
    if not (shutil.which("pg_ctl") or list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))):
        pytest.skip("PostgreSQL binaries not installed")
    directory = Path("/tmp") / f"jpgt{os.getpid()}"
    started = subprocess.run(
        [str(DEPLOY / "postgres.sh"), "start", "--fast", str(directory)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    values = dict(line.split("=", 1) for line in started.stdout.split())
    try:
        with psycopg.connect(values["DATABASE_URL"], connect_timeout=10) as connection:
            assert connection.execute("SELECT current_database()").fetchone() == ("judge",)
    finally:
        subprocess.run(
            [str(DEPLOY / "postgres.sh"), "stop", str(directory)], timeout=120, check=True
        )
        shutil.rmtree(directory, ignore_errors=True)


def test_install_script_is_quiet_when_everything_is_there() -> None:
    if os.geteuid() != 0 and not shutil.which("sudo"):
        pytest.skip("installing packages needs root")
    first = subprocess.run(
        [str(DEPLOY / "install-test-packages.sh")], capture_output=True, text=True, timeout=600
    )
    assert first.returncode == 0, first.stderr
    again = subprocess.run(
        [str(DEPLOY / "install-test-packages.sh")], capture_output=True, text=True, timeout=60
    )
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
