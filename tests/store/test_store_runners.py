"""The processor and sender loops on SQLite and PostgreSQL: several at once share the rows, each
mail is handled once, and a held mail stays held.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from email.message import EmailMessage

import pytest
from sqlalchemy import Engine, func, select

from judge.desk.replies import Reply
from judge.mail.outbound import Outgoing, RetryPolicy, send_one
from judge.processor import ProcessorSettings, process_next
from judge.store import InboxMessage, InboxState, OutboxMessage, OutboxState, session_scope
from judge.store.inbox import accept
from judge.store.outbox import Identity

SETTINGS = ProcessorSettings(identity=Identity("judge@example.org", "Judge"), replies_per_day=0)


def help_mail(n: int) -> bytes:
    message = EmailMessage()
    message["From"] = f"player{n % 5}@example.org"
    message["Subject"] = "help"
    message["Message-ID"] = f"<r{n}@example.org>"
    message.set_content("HELP\n")
    return message.as_bytes()


class Recorder:
    """A transport that keeps what it is given, to count deliveries."""

    name = "recorder"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sent: list[str] = []

    def deliver(self, mail: Outgoing) -> None:
        with self.lock:
            self.sent.append(mail.raw.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode())

    def close(self) -> None:
        pass


def run_in_threads(count: int, work: Callable[[], bool]) -> None:
    errors: list[BaseException] = []

    def body() -> None:
        try:
            while work():
                pass
        except BaseException as error:  # surfaced in the test below
            errors.append(error)

    threads = [threading.Thread(target=body) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_concurrent_processors_and_senders_handle_each_mail_once(engine: Engine) -> None:
    with session_scope(engine) as session:
        for n in range(30):
            accept(session, help_mail(n), source="test", envelope_from="p@example.org")
    run_in_threads(3, lambda: process_next(engine, SETTINGS) is not None)
    with session_scope(engine) as session:
        states = session.scalars(select(InboxMessage.state)).all()
        assert states == [InboxState.DONE] * 30
        replies = session.scalars(select(OutboxMessage.inbox_id)).all()
        assert sorted(replies) == sorted(set(replies)) and len(replies) == 30
    recorder = Recorder()
    policy = RetryPolicy(lease=timedelta(minutes=5))
    run_in_threads(3, lambda: send_one(engine, recorder, policy))
    assert len(recorder.sent) == len(set(recorder.sent)) == 30
    with session_scope(engine) as session:
        pending = session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.state != OutboxState.SENT)
        )
        assert pending == 0


def test_failure_is_held_on_this_backend(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    from judge.desk import commands as desk

    def broken(read: object, where: object = None) -> list[Reply]:
        raise RuntimeError("boom")

    monkeypatch.setattr(desk, "handle", broken)
    with session_scope(engine) as session:
        row_id, _ = accept(session, help_mail(1), source="test", envelope_from="p@example.org")
    assert process_next(engine, SETTINGS) == row_id
    assert process_next(engine, SETTINGS) is None
    with session_scope(engine) as session:
        row = session.get(InboxMessage, row_id)
        assert row is not None and row.state == InboxState.HELD and "boom" in (row.error or "")
        assert session.scalar(select(func.count()).select_from(OutboxMessage)) == 0
