"""Mail nobody handled before: a sender whose address is not ASCII (SMTPUTF8, RFC 6531/6532)
and a mail whose MIME parts are nested too deeply for the parser to take apart.

Both come in through the real SMTP listener (a real smtplib client over loopback) and go
through the processor; the SMTPUTF8 reply leaves through the relay code to an SMTP server.
(A relay that does not offer SMTPUTF8 fails such a reply for good: tests/test_outbound.py.)
"""

from __future__ import annotations

import smtplib
import socket
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import Engine, select

from judge import clock
from judge.config import from_mapping
from judge.mail.mime import read_mail
from judge.mail.outbound import RelaySettings, RetryPolicy, SmtpRelay, send_one
from judge.mail.smtp_listener import ListenerController, start_listener
from judge.processor import ProcessorSettings, process_next
from judge.store import InboxMessage, InboxState, OutboxMessage, session_scope
from judge.store.outbox import Identity
from tests.migrated import migrated_sqlite

CONFIG = from_mapping({"judge": {"address": "judge@example.org"}})
SETTINGS = ProcessorSettings(identity=Identity("judge@example.org", "Test Judge"))
POLICY = RetryPolicy(first=timedelta(minutes=1))
JOERG = "jörg@exämple.org"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


@pytest.fixture
def listener(engine: Engine) -> Iterator[ListenerController]:
    controller = start_listener(
        engine, CONFIG.serves, host="127.0.0.1", port=free_port(), max_message_bytes=1 << 20
    )
    yield controller
    controller.stop()


class Recorder:
    """An SMTP server's handler that keeps each mail with the options of its MAIL command."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, list[str], list[str], bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(
            (
                envelope.mail_from,
                list(envelope.rcpt_tos),
                list(envelope.mail_options),
                envelope.original_content,
            )
        )
        return "250 OK"


def processed(engine: Engine) -> tuple[InboxMessage, list[OutboxMessage]]:
    while process_next(engine, SETTINGS) is not None:
        pass
    with session_scope(engine) as session:
        [row] = session.scalars(select(InboxMessage)).all()
        return row, list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_a_non_ascii_sender_is_answered_at_the_address_exactly_as_sent(
    engine: Engine, listener: ListenerController
) -> None:
    raw = (
        f"From: Jörg Müller <{JOERG}>\r\nTo: judge@example.org\r\nSubject: Grüße\r\n"
        "Message-ID: <utf8-1@exämple.org>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n"
    ).encode()
    with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
        client.ehlo()
        assert client.has_extn("smtputf8")
        client.sendmail(JOERG, ["judge@example.org"], raw, mail_options=["SMTPUTF8"])
    row, [reply] = processed(engine)
    assert row.envelope_from == JOERG
    assert row.state == InboxState.DONE
    assert reply.to_addr == JOERG
    written = message_from_bytes(reply.raw, policy=default_policy)
    assert written["To"] == JOERG
    assert f"To: {JOERG}\r\n".encode() in reply.raw  # as UTF-8, not mangled or encoded

    recorder = Recorder()
    relay = Controller(recorder, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=True)
    relay.start()
    try:
        transport = SmtpRelay(RelaySettings(host="127.0.0.1", port=relay.port, timeout=5))
        assert send_one(engine, transport, POLICY)
        transport.close()
    finally:
        relay.stop()
    [(mail_from, rcpt_tos, options, content)] = recorder.mails
    assert rcpt_tos == [JOERG] and "SMTPUTF8" in [o.upper() for o in options]
    assert f"To: {JOERG}".encode() in content


def test_a_non_ascii_display_name_and_subject_are_read_as_utf8() -> None:
    mail = read_mail(f"From: Jörg Müller <{JOERG}>\r\nSubject: Re: Grüße\r\n\r\nHELP\r\n".encode())
    assert (mail.sender, mail.sender_name, mail.subject) == (JOERG, "Jörg Müller", "Grüße")


def nested(depth: int) -> bytes:
    head = (
        "From: Ann <ann@example.org>\r\nTo: judge@example.org\r\nSubject: deep\r\n"
        "Message-ID: <deep-1@example.org>\r\nMIME-Version: 1.0\r\n"
    )
    parts = "".join(
        f'Content-Type: multipart/mixed; boundary="n{i}"\r\n\r\n--n{i}\r\n' for i in range(depth)
    )
    return (head + parts + "Content-Type: text/plain\r\n\r\nHELP\r\n").encode()


def test_a_mail_too_deeply_nested_to_parse_is_answered_from_its_headers(
    engine: Engine, listener: ListenerController
) -> None:
    with smtplib.SMTP("127.0.0.1", listener.port, timeout=10) as client:
        client.sendmail("ann@example.org", ["judge@example.org"], nested(2000))
    row, [reply] = processed(engine)
    assert row.state == InboxState.DONE
    assert (reply.kind, reply.to_addr) == ("unreadable", "ann@example.org")
    written = message_from_bytes(reply.raw, policy=default_policy)
    assert written["In-Reply-To"] == "<deep-1@example.org>"
    assert written["Subject"] == "Your mail could not be read: deep"
    assert "could not be taken apart" in written.get_content()


def test_a_mail_nested_within_reason_is_still_read() -> None:
    mail = read_mail(nested(60))
    assert (mail.sender, mail.problem, mail.text) == ("ann@example.org", None, "HELP")


def test_ids_and_addresses_the_judge_could_not_write_back_are_not_taken() -> None:
    mail = read_mail(
        b"From: \xff\xfe@example.org\r\nMessage-ID: <a\x1bb@x>\r\n"
        b"References: <ok@x> <=?utf-8?q?x?=@y> <c\x00d@x>\r\n\r\nHELP\r\n"
    )
    assert (mail.sender, mail.message_id, mail.references) == (None, None, ("<ok@x>",))
