"""The sender: mail leaves through a relay (STARTTLS, login) or lands in a Maildir; temporary
refusals are retried later, permanent ones are recorded against the address.
"""

from __future__ import annotations

import mailbox
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
from judge.mail.outbound import (
    MaildirTransport,
    RelaySettings,
    RetryPolicy,
    SmtpRelay,
    send_one,
    transport_for,
)
from judge.store import OutboxMessage, OutboxState, make_engine, session_scope, upgrade
from judge.store.outbox import Identity, address_state, enqueue

JUDGE = Identity("judge@example.org", "Test Judge")
POLICY = RetryPolicy(
    first=timedelta(minutes=1), maximum=timedelta(hours=1), give_up_after=timedelta(days=2)
)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    upgrade(made)
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

        def deliver(self, envelope_from: str, to: str, raw: bytes) -> None:
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
