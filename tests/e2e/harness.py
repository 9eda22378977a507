"""End-to-end helpers: the real `judge serve` as a child process, and reading what it sent.

Imported by tests/e2e/conftest.py and the tests beside it (pytest puts this folder on sys.path).
"""

from __future__ import annotations

import base64
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from email.parser import BytesHeaderParser
from email.policy import compat32
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, select

from judge.store.db import make_engine, session_scope
from judge.store.models import InboxMessage, InboxState, OutboxMessage, OutboxState


def free_port() -> int:
    """A port the kernel just handed out on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def toml_value(value: Any) -> str:
    """A Python value as TOML (only the kinds the judge's config uses)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    escaped = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


class JudgeProcess:
    """One `judge serve` child: start, SIGKILL, restart, and look at its database.

    `only` runs some roles (`judge serve --only`); `prefix` goes before the command (`ip netns
    exec HOST` runs it on a test host); `name` tells its config and log files apart.
    """

    def __init__(
        self,
        directory: Path,
        sections: dict[str, dict[str, Any]],
        *,
        name: str = "judge",
        only: str | None = None,
        prefix: Sequence[str] = (),
    ) -> None:
        self.directory = directory
        self.sections = sections
        self.only = only
        self.prefix = list(prefix)
        self.config_path = directory / f"{name}.toml"
        self.log_path = directory / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.kills = 0
        self._engine: Engine | None = None
        self.write_config()

    @property
    def database_url(self) -> str:
        return str(self.sections["database"]["url"])

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = make_engine(self.database_url)
        return self._engine

    def write_config(self) -> None:
        lines = []
        for name, options in self.sections.items():
            lines.append(f"[{name}]")
            lines.extend(f"{key} = {toml_value(value)}" for key, value in options.items())
            lines.append("")
        self.config_path.write_text("\n".join(lines))

    def start(self) -> None:
        """Start the daemon (its output goes to judge.log in the test's directory)."""
        assert self.process is None or self.process.poll() is not None
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
        env["JUDGE_CONFIG"] = str(self.config_path)
        env["PYTHONUNBUFFERED"] = "1"
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts + 1} ---\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [
                    *self.prefix,
                    sys.executable,
                    "-m",
                    "judge.cli",
                    "serve",
                    *([f"--only={self.only}"] if self.only else []),
                ],
                cwd=self.directory,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1

    def has_schema(self) -> bool:
        """Whether the daemon's migrations have created the tables (so the tests can read them)."""
        try:
            self.inbox_states()
        except Exception:  # no tables yet: the daemon is still starting
            return False
        return True

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait, bounded, until the daemon is up far enough to have its schema."""
        deadline = time.monotonic() + timeout
        while not self.has_schema():
            self.assert_alive()
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the daemon had no schema after {timeout} s:\n{self.log_tail()}"
                )
            time.sleep(0.05)

    def kill(self) -> None:
        """SIGKILL: no clean-up, no flush, exactly what a crash does."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)
            self.kills += 1

    def stop(self) -> int | None:
        """SIGTERM and wait (bounded); a daemon that will not stop is killed and reported."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return self.process.returncode

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def assert_alive(self) -> None:
        if not self.alive():
            raise AssertionError(f"the judge daemon exited; its log:\n{self.log_tail()}")

    def log_tail(self, chars: int = 4000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path.exists() else ""

    # --- what the database says ---------------------------------------------------------------
    def inbox_states(self) -> dict[str, int]:
        with session_scope(self.engine) as session:
            rows = session.execute(
                select(InboxMessage.state, func.count()).group_by(InboxMessage.state)
            ).all()
        return {str(state): int(count) for state, count in rows}

    def outbox_states(self) -> dict[str, int]:
        with session_scope(self.engine) as session:
            rows = session.execute(
                select(OutboxMessage.state, func.count()).group_by(OutboxMessage.state)
            ).all()
        return {str(state): int(count) for state, count in rows}

    def no_held(self) -> bool:
        """True, or an AssertionError with the error of the first held mail (fail fast)."""
        with session_scope(self.engine) as session:
            row = session.scalars(
                select(InboxMessage).where(InboxMessage.state == InboxState.HELD).limit(1)
            ).first()
        if row is not None:
            raise AssertionError(f"inbox {row.id} ({row.message_id}) held: {row.error}")
        return True

    def settled(self, inbox_total: int) -> bool:
        """Every mail out of the inbox queue and nothing left to send."""
        inbox = self.inbox_states()
        outbox = self.outbox_states()
        return (
            sum(inbox.values()) >= inbox_total
            and inbox.get(InboxState.NEW, 0) == 0
            and outbox.get(OutboxState.PENDING, 0) == 0
        )

    def close(self) -> None:
        self.stop()
        if self._engine is not None:
            self._engine.dispose()


def judge_sections(
    directory: Path,
    database_url: str,
    judge_address: str,
    *,
    mail_servers: Any | None = None,
    imap_password: str = "",
    smtp_port: int | None = None,
    relay_port: int | None = None,
) -> dict[str, dict[str, Any]]:
    """A configuration for a test daemon: short polls and retries, a generous reply cap."""
    sections: dict[str, dict[str, Any]] = {
        "judge": {"data_dir": str(directory / "data"), "address": judge_address},
        "database": {"url": database_url},
        "smtp": {"enabled": smtp_port is not None, "port": smtp_port or free_port()},
        "outbound": {
            "first_retry_seconds": 0.5,
            "max_retry_seconds": 2.0,
            "poll_seconds": 0.2,
            "claim_seconds": 60.0,
        },
        "processor": {"poll_seconds": 0.2, "replies_per_day": 1000, "claim_seconds": 60.0},
        "log": {"level": "INFO"},
    }
    if mail_servers is not None:
        sections["imap"] = {
            "host": "127.0.0.1",
            "port": mail_servers.imap_port,
            "ssl": False,
            # The test Dovecot has no TLS; it is on loopback, where a login in clear may be allowed.
            "login_without_tls": True,
            "username": judge_address,
            "password": imap_password,
            # IDLE in use; Dovecot announces a new mail half a second late, a poll sooner.
            "poll_seconds": 0.1,
            "idle": True,
        }
        relay_port = relay_port or mail_servers.smtp_port
    if relay_port is not None:
        sections["relay"] = {
            "host": "127.0.0.1",
            "port": relay_port,
            "starttls": "never",
            "timeout_seconds": 10.0,
        }
    return sections


def header_values(raw: bytes, name: str) -> list[str]:
    """Every value of one header of a raw mail (no decoding)."""
    parsed = BytesHeaderParser(policy=compat32).parsebytes(raw, headersonly=True)
    return [str(v).strip() for v in parsed.get_all(name, [])]


def message_ids(mails: dict[int, bytes]) -> list[str]:
    """The Message-ID of every mail (one entry per copy, so duplicates show)."""
    found = []
    for raw in mails.values():
        values = header_values(raw, "Message-ID")
        found.append(values[0].strip("<>") if values else "")
    return found


def mail_log_lines(servers: Any, needle: str, limit: int = 40) -> str:
    """Postfix's and Dovecot's log lines that mention `needle` (for a failure's message)."""
    found = []
    for log in (servers.postfix_log, servers.dovecot_log):
        if log.exists():
            found += [
                line for line in log.read_text(errors="replace").splitlines() if needle in line
            ]
    return "\n".join(found[-limit:])


def relay_acceptances(postfix_log: Path) -> Counter[str]:
    """How many times Postfix took each Message-ID into its queue (its cleanup logs every one)."""
    found: Counter[str] = Counter()
    for line in postfix_log.read_text(errors="replace").splitlines():
        if "/cleanup[" in line and ": message-id=" in line:
            found[line.split(": message-id=", 1)[1].strip().strip("<>")] += 1
    return found


def wait_port(port: int, timeout: float = 30.0, process: JudgeProcess | None = None) -> None:
    """Wait until something listens on a loopback port (and the process is still alive)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None:
            process.assert_alive()
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


def fuzz_mails(sender: str, judge: str, victim: str, tag: str) -> list[tuple[str, str, bytes]]:
    """Hostile and broken mails: (name, envelope sender, raw bytes), each distinct.

    Truncated MIME, unknown and lying charsets, a 10 MB attachment, HTML only, empty mails,
    binary garbage, and header injection attempts through Subject and From (a CR LF smuggled in
    an encoded word); the injected Bcc always names `victim`, who must never get mail.
    """
    rng = random.Random(tag)

    def head(n: str, extra: str = "", subject: str = "") -> str:
        return (
            f"From: {sender}\r\nTo: {judge}\r\nSubject: {subject or 'fuzz ' + n}\r\n"
            f"Message-ID: <fuzz-{n}-{tag}@example.test>\r\nDate: Sun, 22 Nov 2026 20:00:00 +0000\r\n"
            f"{extra}"
        )

    big = rng.randbytes(10 * 1024 * 1024)
    attachment = base64.encodebytes(big).replace(b"\n", b"\r\n")
    mails: list[tuple[str, str, bytes]] = [
        (
            "truncated-mime",
            sender,
            (
                head(
                    "truncated-mime",
                    'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="XX"\r\n',
                )
                + "\r\n--XX\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--XX\r\nContent-Type: app"
            ).encode(),
        ),
        (
            "unknown-charset",
            sender,
            (
                head(
                    "unknown-charset",
                    "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=x-klingon\r\n",
                )
                + "\r\nHELP \xe9\xe8\r\n"
            ).encode("latin-1"),
        ),
        (
            "lying-utf8",
            sender,
            head(
                "lying-utf8", "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
            ).encode()
            + b"\r\nHELP caf\xe9 \xff\xfe\r\n",
        ),
        (
            "bad-transfer-encoding",
            sender,
            head(
                "bad-cte",
                "MIME-Version: 1.0\r\nContent-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n",
            ).encode()
            + b"\r\n!!!not base64 at all!!!\r\n",
        ),
        (
            "ten-megabytes",
            sender,
            (
                head(
                    "ten-megabytes",
                    'MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="B1"\r\n',
                )
                + "\r\n--B1\r\nContent-Type: text/plain\r\n\r\nHELP\r\n--B1\r\n"
                "Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
                'Content-Disposition: attachment; filename="map.bin"\r\n\r\n'
            ).encode()
            + attachment
            + b"\r\n--B1--\r\n",
        ),
        (
            "html-only",
            sender,
            (
                head("html-only", "MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n")
                + "\r\n<html><body><p>HELP</p><script>alert(1)</script></body></html>\r\n"
            ).encode(),
        ),
        ("headers-only", sender, head("headers-only").encode()),
        ("empty-body", sender, (head("empty-body") + "\r\n").encode()),
        ("zero-bytes", sender, b""),
        ("binary-garbage", sender, rng.randbytes(4096).replace(b"\r\n.\r\n", b"\r\n..\r\n")),
        (
            "nul-bytes",
            sender,
            head("nul-bytes").encode() + b"\r\nHE\x00LP\x00\x00\r\n",
        ),
        (
            "subject-injection-encoded",
            sender,
            (
                head("subject-enc", subject=f"=?utf-8?q?orders=0D=0ABcc:_{victim}?=")
                + "\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "subject-injection-undecodable",
            sender,
            (
                head(
                    "subject-undecodable",
                    subject="=?utf-8?Q?=FF?= =?x-klingon?Q?=0D=0ABcc:_"
                    + victim.replace("@", "=40")
                    + "=0D=0A=0D=0Atext?=",
                )
                + "\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "subject-injection-raw8bit",
            sender,
            (
                head("subject-raw", subject=f"orders \u2028Bcc: {victim} \x0bx") + "\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "from-injection-encoded",
            sender,
            (
                f"From: =?utf-8?q?Evil=0D=0ABcc:_{victim}?= <{sender}>\r\nTo: {judge}\r\n"
                f"Subject: fuzz from-enc\r\nMessage-ID: <fuzz-from-enc-{tag}@example.test>\r\n"
                "\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "from-two-addresses",
            sender,
            (
                f"From: {sender}, {victim}\r\nTo: {judge}\r\nSubject: fuzz from-two\r\n"
                f"Message-ID: <fuzz-from-two-{tag}@example.test>\r\n\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "from-with-newline-in-quoted-name",
            sender,
            (
                f'From: "Eve\r\n Bcc: {victim}" <{sender}>\r\nTo: {judge}\r\n'
                f"Subject: fuzz from-quoted\r\nMessage-ID: <fuzz-from-quoted-{tag}@example.test>\r\n"
                "\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "long-subject",
            sender,
            (head("long-subject", subject="x" * 100_000) + "\r\nHELP\r\n").encode(),
        ),
        (
            "deep-nesting",
            sender,
            (
                head("deep", "MIME-Version: 1.0\r\n")
                + "".join(
                    f'Content-Type: multipart/mixed; boundary="n{i}"\r\n\r\n--n{i}\r\n'
                    for i in range(60)
                )
                + "Content-Type: text/plain\r\n\r\nHELP\r\n"
            ).encode(),
        ),
        (
            "auto-reply",
            sender,
            (
                head("auto-reply", "Auto-Submitted: auto-replied\r\n") + "\r\nI am on holiday.\r\n"
            ).encode(),
        ),
        (
            "bounce",
            "",
            (
                f"From: MAILER-DAEMON@example.test\r\nTo: {judge}\r\nSubject: Undelivered Mail\r\n"
                f"Message-ID: <fuzz-bounce-{tag}@example.test>\r\nMIME-Version: 1.0\r\n"
                'Content-Type: multipart/report; report-type=delivery-status; boundary="R"\r\n\r\n'
                "--R\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n--R\r\n"
                "Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x\r\n\r\n"
                "Final-Recipient: rfc822; x@example.test\r\nAction: failed\r\nStatus: 5.1.1\r\n"
                "--R--\r\n"
            ).encode(),
        ),
    ]
    return mails
