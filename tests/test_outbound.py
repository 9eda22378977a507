"""The sender: mail leaves through a relay (STARTTLS, login) or lands in a Maildir; temporary
refusals are retried later, permanent ones are recorded against the address.
"""

from __future__ import annotations

import logging
import mailbox
import os
import socket
import ssl
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from sqlalchemy import Engine

from judge import clock
from judge.config import from_mapping
from judge.mail.credentials import clear_login_refusal, is_loopback
from judge.mail.outbound import (
    MaildirTransport,
    Outgoing,
    RelaySettings,
    RetryPolicy,
    Sender,
    SmtpRelay,
    send_one,
    transport_for,
)
from judge.store import OutboxMessage, OutboxState, session_scope
from judge.store.outbox import Identity, address_state, enqueue
from tests.migrated import migrated_sqlite

JUDGE = Identity("judge@example.org", "Test Judge")
POLICY = RetryPolicy(
    first=timedelta(minutes=1), maximum=timedelta(hours=1), give_up_after=timedelta(days=2)
)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 5, 1, 9, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Recorder:
    """An aiosmtpd handler that keeps what it receives and answers RCPT as told."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, list[str], bytes]] = []
        self.rcpt_answer: str | None = None
        self.drop_after_data = False

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if self.rcpt_answer:
            return self.rcpt_answer
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


@pytest.fixture
def relay() -> Iterator[tuple[Controller, Recorder]]:
    recorder = Recorder()
    controller = Controller(recorder, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, recorder
    controller.stop()


def write(engine: Engine, to: str = "ann@example.org", **extra: Any) -> int:
    with session_scope(engine) as session:
        row = enqueue(
            session, JUDGE, kind="test", to=to, subject="Orders read", body="A PAR-BUR\n", **extra
        )
        return row.id


def row(engine: Engine, outbox_id: int) -> OutboxMessage:
    with session_scope(engine) as session:
        found = session.get(OutboxMessage, outbox_id)
        assert found is not None
        return found


def test_written_mail_has_the_judges_headers(engine: Engine) -> None:
    outbox_id = write(engine, in_reply_to="<m2@x>", references=("<m0@x>", "<m1@x>"))
    stored = row(engine, outbox_id)
    mail = message_from_bytes(stored.raw)
    assert mail["Message-ID"] == stored.message_id
    assert stored.message_id.endswith("@example.org>")
    assert mail["In-Reply-To"] == "<m2@x>"
    assert mail["References"] == "<m0@x> <m1@x> <m2@x>"
    assert mail["Auto-Submitted"] == "auto-replied"
    assert mail["X-Judge-Loop"] == "judge@example.org"
    assert mail["From"] == "Test Judge <judge@example.org>"
    assert mail["Date"] == "Fri, 01 May 2026 09:00:00 +0000"
    assert stored.raw.count(b"\r\n") >= 8 and b"\r\r" not in stored.raw


def test_without_relay_mail_goes_to_the_maildir(engine: Engine, tmp_path: Path) -> None:
    outbox_id = write(engine)
    config = from_mapping({"judge": {"data_dir": str(tmp_path / "data")}})
    transport = transport_for(config)
    assert isinstance(transport, MaildirTransport)
    assert send_one(engine, transport, POLICY)
    assert not send_one(engine, transport, POLICY)
    box = mailbox.Maildir(str(tmp_path / "data" / "outbox-maildir"), create=False)
    mails = list(box)
    assert len(mails) == 1
    assert mails[0]["Message-ID"] == row(engine, outbox_id).message_id
    assert mails[0]["Return-Path"] == "<judge@example.org>"
    assert row(engine, outbox_id).state == OutboxState.SENT
    assert row(engine, outbox_id).sent_via == "maildir"


def _maildir_copies(box: Path) -> list[str]:
    """The Message-ID of every mail in a Maildir's new/ and cur/ (one entry per file)."""
    return [str(mail["Message-ID"]) for mail in mailbox.Maildir(str(box), create=False)]


def test_a_crash_between_the_maildir_and_the_commit_leaves_one_copy(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The row is marked sent only after the file is in new/: a kill between the two hands the
    mail over again, which must replace the first copy, not add a second."""
    import judge.mail.outbound as outbound

    outbox_id = write(engine)
    box = tmp_path / "box"

    def killed(*_: Any, **__: Any) -> None:
        raise SystemExit("killed before the row was marked sent")

    monkeypatch.setattr(outbound, "mark_sent", killed)
    with pytest.raises(SystemExit):
        send_one(engine, MaildirTransport(box), POLICY)
    monkeypatch.undo()
    assert row(engine, outbox_id).state == OutboxState.PENDING
    clock.advance(POLICY.lease)  # the dead sender's claim runs out; a new sender takes the row
    assert send_one(engine, MaildirTransport(box), POLICY)
    assert row(engine, outbox_id).state == OutboxState.SENT
    assert _maildir_copies(box) == [row(engine, outbox_id).message_id]
    assert list((box / "tmp").iterdir()) == []


def test_a_repeat_leaves_alone_the_copy_a_mail_program_moved_to_cur(tmp_path: Path) -> None:
    box = tmp_path / "box"
    transport = MaildirTransport(box)
    mail = Outgoing("judge@example.org", "ann@example.org", b"Message-ID: <a@x>\r\n\r\nhi\r\n",
                    key="outbox-7-abc", attempt=1)  # fmt: skip
    transport.deliver(mail)
    transport.deliver(mail)  # the same row again: replaces
    assert [p.name for p in (box / "new").iterdir()] == ["outbox-7-abc"]
    # A mail program reads it: new/NAME becomes cur/NAME:2,S.
    (box / "new" / "outbox-7-abc").rename(box / "cur" / "outbox-7-abc:2,S")
    transport.deliver(Outgoing(mail.envelope_from, mail.to, mail.raw, mail.key, attempt=2))
    assert list((box / "new").iterdir()) == []
    assert _maildir_copies(box) == ["<a@x>"]
    # Another row's mail is another file.
    transport.deliver(Outgoing(mail.envelope_from, mail.to, mail.raw, "outbox-8-abd", attempt=1))
    assert [p.name for p in (box / "new").iterdir()] == ["outbox-8-abd"]


def test_unfinished_maildir_writes_are_removed_at_start(tmp_path: Path) -> None:
    box = tmp_path / "box"
    MaildirTransport(box)
    (box / "tmp" / "outbox-3-abc").write_bytes(b"Return-Path: <judge@exa")  # cut by a kill
    stale = box / "tmp" / "1700000000.M1P2.host"
    stale.write_bytes(b"partial")
    old = datetime.now(UTC).timestamp() - 40 * 3600
    os.utime(stale, (old, old))
    fresh = box / "tmp" / "1800000000.M1P3.host"  # another program's write under way
    fresh.write_bytes(b"partial")
    MaildirTransport(box)
    assert [p.name for p in (box / "tmp").iterdir()] == [fresh.name]


def test_relay_receives_the_mail_once(engine: Engine, relay: tuple[Controller, Recorder]) -> None:
    controller, recorder = relay
    first, second = write(engine), write(engine, to="bob@example.org")
    transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=controller.port, timeout=5))
    assert send_one(engine, transport, POLICY)
    assert send_one(engine, transport, POLICY)
    assert not send_one(engine, transport, POLICY)
    transport.close()
    assert [(m[0], m[1]) for m in recorder.mails] == [
        ("judge@example.org", ["ann@example.org"]),
        ("judge@example.org", ["bob@example.org"]),
    ]
    assert recorder.mails[0][2] == row(engine, first).raw
    assert row(engine, second).state == OutboxState.SENT


def test_temporary_refusal_is_retried_later(
    engine: Engine, relay: tuple[Controller, Recorder]
) -> None:
    controller, recorder = relay
    recorder.rcpt_answer = "451 4.3.0 try later"
    outbox_id = write(engine)
    transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=controller.port, timeout=5))
    assert send_one(engine, transport, POLICY)
    stored = row(engine, outbox_id)
    assert stored.state == OutboxState.PENDING
    assert "451" in (stored.last_error or "")
    assert stored.next_attempt_at == clock.now() + timedelta(minutes=1)
    assert not send_one(engine, transport, POLICY)  # not due yet
    recorder.rcpt_answer = None
    clock.advance(timedelta(minutes=1))
    assert send_one(engine, transport, POLICY)
    transport.close()
    assert row(engine, outbox_id).state == OutboxState.SENT
    assert row(engine, outbox_id).attempts == 2
    assert len(recorder.mails) == 1
    assert recorder.mails[0][2] == row(engine, outbox_id).raw  # same mail, same Message-ID


def test_permanent_refusal_is_recorded_against_the_address(
    engine: Engine, relay: tuple[Controller, Recorder]
) -> None:
    controller, recorder = relay
    recorder.rcpt_answer = "550 5.1.1 no such user"
    outbox_id = write(engine, to="Gone@Example.org")
    transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=controller.port, timeout=5))
    assert send_one(engine, transport, POLICY)
    transport.close()
    assert row(engine, outbox_id).state == OutboxState.FAILED
    with session_scope(engine) as session:
        state = address_state(session, "gone@example.org")
        assert state is not None and "550" in (state.permanent_failure or "")


def test_relay_down_backs_off_then_gives_up(engine: Engine) -> None:
    outbox_id = write(engine)
    transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=free_port(), timeout=5))
    waits = []
    for _ in range(12):
        before = clock.now()
        if not send_one(engine, transport, POLICY):
            break
        stored = row(engine, outbox_id)
        if stored.state != OutboxState.PENDING:
            break
        waits.append(stored.next_attempt_at - before)
        clock.set_now(stored.next_attempt_at)
    assert waits[:3] == [timedelta(minutes=1), timedelta(minutes=2), timedelta(minutes=4)]
    assert max(waits) == timedelta(hours=1)
    clock.advance(timedelta(days=2))
    assert send_one(engine, transport, POLICY)
    stored = row(engine, outbox_id)
    assert stored.state == OutboxState.FAILED
    assert "given up" in (stored.last_error or "")


def test_a_dropped_kept_connection_is_reopened(
    engine: Engine, relay: tuple[Controller, Recorder]
) -> None:
    controller, recorder = relay
    transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=controller.port, timeout=5))
    write(engine)
    assert send_one(engine, transport, POLICY)
    assert transport._connection is not None
    transport._connection.sock.close()  # the relay side has gone away
    write(engine)
    assert send_one(engine, transport, POLICY)
    transport.close()
    assert len(recorder.mails) == 2


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return key, cert


def test_starttls_and_login_when_the_relay_asks(
    engine: Engine, certificate: tuple[Path, Path]
) -> None:
    key, cert = certificate
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(
        server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password))
        return AuthResult(success=data.password == b"s3cret")

    recorder = Recorder()
    controller = Controller(
        recorder,
        hostname="127.0.0.1",
        port=free_port(),
        tls_context=server_context,
        require_starttls=True,
        auth_required=True,
        authenticator=authenticator,
    )
    controller.start()
    try:
        client_context = ssl.create_default_context(cafile=str(cert))
        settings = RelaySettings(
            host="127.0.0.1", port=controller.port, starttls="always", username="judge",
            password="s3cret", timeout=5, tls_context=client_context,
        )  # fmt: skip
        transport = SmtpRelay(settings)
        outbox_id = write(engine)
        assert send_one(engine, transport, POLICY)
        transport.close()
        assert row(engine, outbox_id).state == OutboxState.SENT
        assert logins == [(b"judge", b"s3cret")]
        assert len(recorder.mails) == 1
    finally:
        controller.stop()


def test_starttls_always_refuses_a_plain_relay(
    engine: Engine, relay: tuple[Controller, Recorder]
) -> None:
    controller, recorder = relay
    transport = SmtpRelay(
        RelaySettings(host="127.0.0.1", port=controller.port, starttls="always", timeout=5)
    )
    outbox_id = write(engine)
    assert send_one(engine, transport, POLICY)
    assert row(engine, outbox_id).state == OutboxState.PENDING
    assert "STARTTLS" in (row(engine, outbox_id).last_error or "")
    assert recorder.mails == []


def test_non_ascii_address_goes_by_smtputf8_or_not_at_all(
    engine: Engine, relay: tuple[Controller, Recorder]
) -> None:
    controller, recorder = relay  # offers SMTPUTF8
    first = write(engine, to="jürgen@example.de")
    transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=controller.port, timeout=5))
    assert send_one(engine, transport, POLICY)
    transport.close()
    assert row(engine, first).state == OutboxState.SENT
    assert recorder.mails[0][1] == ["jürgen@example.de"]

    plain = Recorder()
    old = Controller(plain, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=False)
    old.start()
    try:
        second = write(engine, to="jürgen@example.de")
        transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=old.port, timeout=5))
        assert send_one(engine, transport, POLICY)
        transport.close()
    finally:
        old.stop()
    assert row(engine, second).state == OutboxState.FAILED
    assert "SMTPUTF8" in (row(engine, second).last_error or "")
    assert plain.mails == []


def test_an_unexpected_error_is_retried_later(engine: Engine) -> None:
    class Broken:
        name = "broken"

        def deliver(self, mail: Outgoing) -> None:
            raise KeyError("surprise")

        def close(self) -> None:
            pass

    outbox_id = write(engine)
    assert send_one(engine, Broken(), POLICY)
    stored = row(engine, outbox_id)
    assert stored.state == OutboxState.PENDING
    assert "surprise" in (stored.last_error or "")
    assert stored.next_attempt_at > clock.now()


def test_implicit_tls_relay(engine: Engine, certificate: tuple[Path, Path]) -> None:
    key, cert = certificate
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_context.load_cert_chain(cert, key)
    recorder = Recorder()
    controller = Controller(
        recorder, hostname="127.0.0.1", port=free_port(), ssl_context=server_context
    )
    controller.start()
    try:
        settings = RelaySettings(
            host="127.0.0.1",
            port=controller.port,
            use_ssl=True,
            timeout=5,
            tls_context=ssl.create_default_context(cafile=str(cert)),
        )
        transport = SmtpRelay(settings)
        outbox_id = write(engine)
        assert send_one(engine, transport, POLICY)
        transport.close()
    finally:
        controller.stop()
    assert row(engine, outbox_id).state == OutboxState.SENT
    assert len(recorder.mails) == 1


def test_the_sender_notices_the_relay_coming_back_before_the_mails_own_retry(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    """A relay outage: the mail's own retry would wait `POLICY.first` (a minute); the sender
    looks for the relay on its short backoff instead and sends the mail at the first look that
    finds it back, long before that retry was due."""
    port = free_port()
    outbox_id = write(engine)
    sender = Sender(
        engine, SmtpRelay(RelaySettings(host="127.0.0.1", port=port, timeout=5)), POLICY
    )
    caplog.set_level(logging.INFO, logger="judge.sender")
    assert sender.step()  # the relay is down: the mail fails and waits for its own retry
    retry_at = row(engine, outbox_id).next_attempt_at
    assert retry_at == clock.now() + POLICY.first
    assert sender.outage is not None
    assert not sender.step()  # no look before the first reconnect wait is over
    clock.advance(POLICY.reconnect_first)
    assert not sender.step()  # looked: still down
    assert row(engine, outbox_id).state == OutboxState.PENDING

    recorder = Recorder()
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        clock.advance(2 * POLICY.reconnect_first)  # the next look
        assert sender.step()  # the relay answers: the waiting mail is due again
        assert sender.outage is None
        assert sender.step()  # and goes out
        sender.transport.close()
    finally:
        controller.stop()
    sent = row(engine, outbox_id)
    assert sent.state == OutboxState.SENT
    assert sent.sent_at is not None and sent.sent_at < retry_at
    assert len(recorder.mails) == 1
    messages = [r.getMessage() for r in caplog.records]
    assert any("no mail is sent until it answers" in m and f":{port}" in m for m in messages)
    assert any("still unreachable" in m for m in messages)
    assert any("reachable again after 3 s; 1 mails waiting for a retry made due" in m
               for m in messages), messages  # fmt: skip
    assert any(f"relay 127.0.0.1:{port} (" in m and "connected" in m for m in messages)


def test_a_new_senders_first_successful_send_makes_the_waiting_mails_due(
    engine: Engine, relay: tuple[Controller, Recorder]
) -> None:
    """Mails left waiting by an outage a stopped sender saw go out at the first successful send
    of the next, not at their own (hours long) retry."""
    controller, recorder = relay
    waiting = [write(engine, to=f"p{n}@example.org") for n in range(3)]
    dead = SmtpRelay(RelaySettings(host="127.0.0.1", port=free_port(), timeout=5))
    for _ in waiting:
        assert send_one(engine, dead, POLICY)
    clock.advance(timedelta(seconds=5))
    fresh = write(engine, to="new@example.org")
    sender = Sender(
        engine, SmtpRelay(RelaySettings(host="127.0.0.1", port=controller.port, timeout=5)), POLICY
    )
    while sender.step():
        pass
    sender.transport.close()
    assert [row(engine, n).state for n in [*waiting, fresh]] == [OutboxState.SENT] * 4
    assert all(row(engine, n).sent_at == clock.now() for n in waiting)
    assert len(recorder.mails) == 4


@pytest.fixture
def plain_relay_with_login() -> Iterator[tuple[Controller, Recorder, list[tuple[bytes, bytes]]]]:
    """A relay on loopback that offers AUTH but no STARTTLS, and records every login it gets."""
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(
        server: Any, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        logins.append((data.login, data.password))
        return AuthResult(success=True)

    recorder = Recorder()
    controller = Controller(
        recorder,
        hostname="127.0.0.1",
        port=free_port(),
        auth_require_tls=False,
        authenticator=authenticator,
    )
    controller.start()
    yield controller, recorder, logins
    controller.stop()


@pytest.mark.parametrize("starttls", ["auto", "never"])
def test_no_password_goes_in_clear_to_a_relay_without_starttls(
    engine: Engine,
    plain_relay_with_login: tuple[Controller, Recorder, list[tuple[bytes, bytes]]],
    caplog: pytest.LogCaptureFixture,
    starttls: str,
) -> None:
    controller, recorder, logins = plain_relay_with_login
    settings = RelaySettings(
        host="127.0.0.1", port=controller.port, starttls=starttls, username="judge",
        password="s3cret", timeout=5,
    )  # fmt: skip
    outbox_id = write(engine)
    sender = Sender(engine, SmtpRelay(settings), POLICY)
    caplog.set_level(logging.INFO, logger="judge.sender")
    assert sender.step()
    assert logins == [] and recorder.mails == []
    stored = row(engine, outbox_id)
    assert stored.state == OutboxState.PENDING  # kept: it goes once the relay is set right
    assert "never sent in clear" in (stored.last_error or "")
    assert sender.outage is not None
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any(
        f"relay 127.0.0.1:{controller.port}: not logging in: the connection is not encrypted" in m
        and "login_without_tls" in m
        for m in warnings
    ), warnings


def test_login_in_clear_to_a_loopback_relay_only_when_the_operator_allows_it(
    engine: Engine,
    plain_relay_with_login: tuple[Controller, Recorder, list[tuple[bytes, bytes]]],
) -> None:
    controller, recorder, logins = plain_relay_with_login
    settings = RelaySettings(
        host="127.0.0.1", port=controller.port, username="judge", password="s3cret", timeout=5,
        login_without_tls=True,
    )  # fmt: skip
    outbox_id = write(engine)
    transport = SmtpRelay(settings)
    assert send_one(engine, transport, POLICY)
    transport.close()
    assert row(engine, outbox_id).state == OutboxState.SENT
    assert logins == [(b"judge", b"s3cret")]
    assert len(recorder.mails) == 1


def test_the_clear_login_option_holds_only_for_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.8.9.10") and is_loopback("::1")
    assert is_loopback("::ffff:127.0.0.1")
    assert not is_loopback("192.0.2.7") and not is_loopback("2001:db8::1")
    assert not is_loopback("relay.example.org")
    assert clear_login_refusal("127.0.0.1", allowed=True, section="relay",
                               unencrypted_because="x") is None  # fmt: skip
    refusal = clear_login_refusal(
        "192.0.2.7", allowed=True, section="relay", unencrypted_because="x"
    )
    assert refusal is not None and "192.0.2.7 is not on loopback" in refusal
    refusal = clear_login_refusal(
        "127.0.0.1", allowed=False, section="relay", unencrypted_because="x"
    )
    assert refusal is not None and "[relay] login_without_tls = true" in refusal
