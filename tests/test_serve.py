"""`judge serve` and the daemon subcommands: the roles together, one role alone, and the CLI."""

from __future__ import annotations

import mailbox
import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.cli import main
from judge.config import Config, from_mapping, load
from judge.desk import commands as desk
from judge.desk.replies import Reply
from judge.serve import ROLES, Daemon, ServeError, describe, parse_roles
from judge.store import InboxMessage, InboxState, OutboxMessage, OutboxState, session_scope
from judge.store.db import make_engine, upgrade
from judge.store.inbox import accept


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(condition: Callable[[], bool], what: str, limit: float = 30.0) -> None:
    """Poll until `condition` holds; the limit only stops a broken test from hanging."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def help_mail(message_id: str = "<h1@example.org>") -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["To"] = "judge@example.org"
    message["Subject"] = "help"
    message["Message-ID"] = message_id
    message.set_content("HELP\n")
    return message.as_bytes(policy=SMTP)


def config_for(tmp_path: Path, **smtp: object) -> Config:
    return from_mapping(
        {
            "judge": {"data_dir": str(tmp_path / "data"), "address": "judge@example.org"},
            "smtp": {"port": free_port(), **smtp},
            "processor": {"poll_seconds": 0.2},
            "outbound": {"poll_seconds": 0.2},
        }
    )


def test_no_configuration_says_it_runs_the_embedded_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lines = describe(load(None, env={}), ROLES)
    assert "embedded default" in lines[0]
    assert any(f"SQLite file {tmp_path / 'judge-data' / 'judge.sqlite3'}" in line for line in lines)
    assert any("SMTP listener on 127.0.0.1:2525" in line for line in lines)
    assert any("Maildir" in line and "outbox-maildir" in line for line in lines)


def test_the_first_lines_say_how_mail_comes_and_goes(tmp_path: Path) -> None:
    config = from_mapping(
        {
            "imap": {"host": "mail.example.org", "username": "judge@example.org"},
            "relay": {"host": "mail.example.org", "username": "judge"},
        }
    )
    lines = describe(config, ROLES)
    assert "inbound: IMAP judge@example.org@mail.example.org:993 folder INBOX" in lines
    assert any("an IMAP-only judge sets [smtp] enabled = false" in line for line in lines)
    assert "outbound: relay mail.example.org:587 (STARTTLS auto, login as judge)" in lines
    config.smtp.enabled = False
    assert not any("[smtp] enabled" in line for line in describe(config, ROLES))


def test_roles() -> None:
    assert parse_roles(None) == ROLES
    assert parse_roles(["processor"]) == ("processor",)
    assert parse_roles(["sender,processor", "sender"]) == ("sender", "processor")
    with pytest.raises(ValueError, match="unknown role"):
        parse_roles(["everything"])


def test_all_roles_answer_a_mail_into_the_maildir(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    daemon = Daemon(config)
    daemon.start()
    try:
        with smtplib.SMTP("127.0.0.1", config.smtp.port, timeout=10) as client:
            client.sendmail("ann@example.org", ["judge@example.org"], help_mail())
        box = tmp_path / "data" / "outbox-maildir"
        wait_for(lambda: (box / "new").is_dir() and any((box / "new").iterdir()), "the reply")
    finally:
        daemon.stop()
    [reply] = list(mailbox.Maildir(str(box), create=False))
    assert reply["To"] == "ann@example.org"
    assert reply["In-Reply-To"] == "<h1@example.org>"
    assert reply["Auto-Submitted"] == "auto-replied"


def test_only_the_processor_runs_when_asked(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    engine = make_engine(config.database_url)
    upgrade(engine)
    with session_scope(engine) as session:
        accept(session, help_mail(), source="test", envelope_from="ann@example.org")
    daemon = Daemon(config, ("processor",))
    daemon.start()
    try:
        assert daemon.listener is None
        assert set(daemon.loops) == {"processor"}

        def processed() -> bool:
            with session_scope(engine) as session:
                return session.scalars(select(InboxMessage.state)).one() == InboxState.DONE

        wait_for(processed, "the processor")
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", config.smtp.port), timeout=1).close()
    finally:
        daemon.stop()
    with session_scope(engine) as session:
        [row] = session.scalars(select(OutboxMessage)).all()
        assert row.state == OutboxState.PENDING  # no sender in this process
    engine.dispose()


def test_judge_serve_process_starts_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env["JUDGE_SMTP_PORT"] = str(port)
    process = subprocess.Popen(
        [sys.executable, "-m", "judge.cli", "serve"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines: list[str] = []
    try:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            if line.rstrip().endswith("running"):
                break
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
            client.sendmail("ann@example.org", ["judge@localhost"], help_mail())
        wait_for(
            lambda: any((tmp_path / "judge-data" / "outbox-maildir" / "new").glob("*")), "the reply"
        )
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0
    assert "embedded default" in lines[0]
    assert "judge-data" in "".join(lines)
    assert "replied: help" in rest and "sent via maildir" in rest
    assert rest.rstrip().endswith("stopped")


@pytest.fixture
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in list(os.environ):
        if name.startswith("JUDGE_"):
            monkeypatch.delenv(name)
    path = tmp_path / "judge.toml"
    path.write_text(
        f'[judge]\ndata_dir = "{tmp_path / "data"}"\naddress = "judge@example.org"\n'
        'keeper = "keeper@example.org"\n',
        encoding="utf-8",
    )
    yield path


def test_db_upgrade_held_and_retry(
    config_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["db", "upgrade", "--config", str(config_file)]) == 0
    assert "database at revision" in capsys.readouterr().out
    config = load(config_file, env={})
    engine = make_engine(config.database_url)
    with session_scope(engine) as session:
        row_id, _ = accept(session, help_mail(), source="test", envelope_from="ann@example.org")

    def broken(read: object, where: object = None) -> list[Reply]:
        raise RuntimeError("the desk fell over")

    monkeypatch.setattr(desk, "handle", broken)
    assert main(["mail", "retry", "--config", str(config_file), str(row_id)]) == 1  # not held yet
    from judge.processor import ProcessorSettings, process_next

    process_next(engine, ProcessorSettings.from_config(config))
    capsys.readouterr()
    assert main(["mail", "held", "--config", str(config_file)]) == 0
    listing = capsys.readouterr().out
    assert listing.startswith(f"{row_id}\t")
    assert "ann@example.org" in listing and "RuntimeError: the desk fell over" in listing

    monkeypatch.undo()
    assert main(["mail", "retry", "--config", str(config_file), str(row_id)]) == 0
    assert "done" in capsys.readouterr().out
    assert main(["mail", "held", "--config", str(config_file)]) == 0
    assert capsys.readouterr().out.strip() == "no held mails"
    with session_scope(engine) as session:
        kinds = [
            row.kind for row in session.scalars(select(OutboxMessage).order_by(OutboxMessage.id))
        ]
    assert kinds == ["held_notice", "help"]
    engine.dispose()


def test_a_port_in_use_is_reported_and_nothing_runs(tmp_path: Path) -> None:
    config = config_for(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", config.smtp.port))
        taken.listen()
        daemon = Daemon(config)
        with pytest.raises(ServeError, match=f"cannot listen on 127.0.0.1:{config.smtp.port}"):
            daemon.start()
        daemon.stop()
    assert all(not loop.is_alive() for loop in daemon.loops.values())


def test_scheduler_forgets_old_reply_counts(tmp_path: Path) -> None:
    from datetime import UTC, date, datetime

    from judge import clock
    from judge.serve import housekeeping
    from judge.store import ReplyCount

    config = config_for(tmp_path)
    engine = make_engine(config.database_url)
    upgrade(engine)
    with session_scope(engine) as session:
        for day in (date(2026, 1, 1), date(2026, 1, 20), date(2026, 1, 25)):
            session.add(ReplyCount(address="ann@example.org", day=day, count=1, notice_sent=False))
    clock.set_now(datetime(2026, 1, 27, tzinfo=UTC))
    try:
        assert housekeeping(engine, config) is False
    finally:
        clock.reset()
    with session_scope(engine) as session:
        days = sorted(session.scalars(select(ReplyCount.day)))
    assert days == [date(2026, 1, 20), date(2026, 1, 25)]
    engine.dispose()
