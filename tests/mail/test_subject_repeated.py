"""The answer's Subject repeats the incoming one only so far: capped, on one line, with no
control or bidirectional character, so nobody writes a header under the judge's name."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from judge import clock
from judge.mail.mime import SUBJECT_REPEATED, read_mail
from judge.processor import ProcessorSettings, process_next
from judge.store import OutboxMessage, make_engine, session_scope, upgrade
from judge.store.inbox import accept
from judge.store.outbox import Identity

SETTINGS = ProcessorSettings(identity=Identity("judge@example.org", "Test Judge"))


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    upgrade(made)
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def test_a_huge_subject_is_repeated_capped_and_without_bidi_or_controls(engine: Engine) -> None:
    forged = "\u202eyour account is closed, call +1 555\u202c \u0007" + "x" * 500_000
    raw = (
        f"From: ann@example.org\r\nTo: judge@example.org\r\nSubject: {forged}\r\n"
        "Message-ID: <huge@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "A PAR-BUR\r\n"
    ).encode()
    with session_scope(engine) as session:
        accept(session, raw, source="test", envelope_from="ann@example.org")
    while process_next(engine, SETTINGS) is not None:
        pass
    with session_scope(engine) as session:
        [reply] = session.scalars(select(OutboxMessage)).all()
        written = reply.raw
    head = written.split(b"\r\n\r\n", 1)[0]
    assert len(head) < 2_000, len(head)
    subject = str(message_from_bytes(written, policy=default_policy)["Subject"])
    assert subject.startswith("Orders read: ") and subject.endswith("…")
    assert "\u202e" not in subject and "\u202c" not in subject and "\x07" not in subject
    assert len(subject) <= len("Orders read: ") + SUBJECT_REPEATED
    assert len(written) < 5_000  # the body repeats no more of it either


def test_a_short_subject_is_repeated_whole() -> None:
    mail = read_mail(b"From: ann@example.org\r\nSubject: Re: Spring orders\r\n\r\nHELP\r\n")
    assert mail.subject == "Spring orders"
