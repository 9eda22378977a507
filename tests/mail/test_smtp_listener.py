"""The SMTP/LMTP listener, spoken to by a real smtplib client over loopback."""

from __future__ import annotations

import smtplib
import socket
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from judge.config import from_mapping
from judge.mail.smtp_listener import ListenerController, start_listener
from judge.store import InboxMessage, make_engine, session_scope
from tests.migrated import migrated_sqlite

CONFIG = from_mapping({"judge": {"address": "judge@example.org"}})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def mail(body: str = "HELP", message_id: str = "<one@example.org>") -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["To"] = "judge@example.org"
    message["Subject"] = "help"
    message["Message-ID"] = message_id
    message.set_content(body)
    return message.as_bytes(policy=SMTP)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    yield made
    made.dispose()


@pytest.fixture
def listener(engine: Engine) -> Iterator[tuple[ListenerController, list[int]]]:
    stored: list[int] = []
    controller = start_listener(
        engine,
        CONFIG.serves,
        host="127.0.0.1",
        port=free_port(),
        max_message_bytes=4096,
        on_stored=stored.append,
    )
    yield controller, stored
    controller.stop()


def rows(engine: Engine) -> list[InboxMessage]:
    with session_scope(engine) as session:
        return list(session.scalars(select(InboxMessage).order_by(InboxMessage.id)))


def test_mail_is_committed_before_250(
    engine: Engine, listener: tuple[ListenerController, list[int]]
) -> None:
    controller, stored = listener
    raw = mail()
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        client.ehlo()
        client.mail("ann@example.org")
        client.rcpt("judge+game1@example.org")
        code, text = client.data(raw)
        assert code == 250
        # By the time 250 has arrived the row is readable from another connection.
        [row] = rows(engine)
        assert text.decode().endswith(f"stored as {row.id}")
    assert row.raw.replace(b"\r\n", b"\n").rstrip() == raw.replace(b"\r\n", b"\n").rstrip()
    assert row.envelope_from == "ann@example.org"
    assert row.envelope_to == "judge+game1@example.org"
    assert row.source == "smtp"
    assert stored == [row.id]


def test_unknown_address_gets_550(
    engine: Engine, listener: tuple[ListenerController, list[int]]
) -> None:
    controller, _ = listener
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
            client.sendmail("ann@example.org", ["someone@example.org"], mail())
        assert refused.value.recipients["someone@example.org"][0] == 550
    assert rows(engine) == []


def test_oversized_mail_gets_552(
    engine: Engine, listener: tuple[ListenerController, list[int]]
) -> None:
    controller, _ = listener
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        with pytest.raises((smtplib.SMTPSenderRefused, smtplib.SMTPDataError)) as refused:
            client.sendmail("ann@example.org", ["judge@example.org"], mail(("x" * 70 + "\n") * 120))
        assert refused.value.smtp_code == 552
    # Without announcing the size, the limit still holds at DATA.
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        client.ehlo()
        client.mail("ann@example.org")
        client.rcpt("judge@example.org")
        code, _ = client.data(mail(("y" * 70 + "\n") * 120))
        assert code == 552
    assert rows(engine) == []


def test_the_same_mail_twice_is_stored_once(
    engine: Engine, listener: tuple[ListenerController, list[int]]
) -> None:
    controller, stored = listener
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        client.sendmail("ann@example.org", ["judge@example.org"], mail())
        client.sendmail("ann@example.org", ["judge@example.org"], mail())
    assert len(rows(engine)) == 1
    assert len(stored) == 1


def test_bounce_keeps_its_empty_return_path(
    engine: Engine, listener: tuple[ListenerController, list[int]]
) -> None:
    controller, _ = listener
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        client.sendmail("<>", ["judge@example.org"], mail())
    [row] = rows(engine)
    assert row.envelope_from == ""


def test_internal_fault_gets_451_and_stores_nothing(tmp_path: Path) -> None:
    broken = make_engine(f"sqlite:///{tmp_path / 'no-tables.sqlite3'}")  # never upgraded
    controller = start_listener(broken, CONFIG.serves, host="127.0.0.1", port=free_port())
    try:
        with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
            client.ehlo()
            client.mail("ann@example.org")
            client.rcpt("judge@example.org")
            code, _ = client.data(mail())
            assert code == 451
    finally:
        controller.stop()
        broken.dispose()


def test_lmtp_answers_once_per_recipient(engine: Engine) -> None:
    config = from_mapping({"judge": {"served_addresses": ["judge@example.org", "gm@example.org"]}})
    controller = start_listener(
        engine, config.serves, host="127.0.0.1", port=free_port(), lmtp=True
    )
    try:
        with smtplib.LMTP("127.0.0.1", controller.port, timeout=10) as client:
            client.ehlo()  # says LHLO
            client.mail("ann@example.org")
            client.rcpt("judge@example.org")
            client.rcpt("gm@example.org")
            client.putcmd("data")
            assert client.getreply()[0] == 354
            client.send(mail().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") + b".\r\n")
            assert client.getreply()[0] == 250
            assert client.getreply()[0] == 250
    finally:
        controller.stop()
    assert [row.source for row in rows(engine)] == ["lmtp"]
    assert rows(engine)[0].envelope_to == "judge@example.org, gm@example.org"


def test_lines_longer_than_rfc_5321_allows_are_still_taken(
    engine: Engine, listener: tuple[ListenerController, list[int]]
) -> None:
    controller, _ = listener
    raw = (
        b"From: ann@example.org\r\nSubject: "
        + b"s" * 1500
        + b"\r\n\r\nHELP "
        + b"x" * 2000
        + b"\r\n"
    )
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:
        client.sendmail("ann@example.org", ["judge@example.org"], raw)
    [row] = rows(engine)
    assert row.raw.rstrip() == raw.rstrip()
