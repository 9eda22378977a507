"""The store tells other processes of the rows it commits (PostgreSQL's NOTIFY): which writes send
which channel, only at commit, once per transaction, with the writing process's token; and
nothing at all on SQLite.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage

import psycopg
import pytest
from sqlalchemy import Engine, func, select

from judge.clock import now
from judge.store import InboxMessage, InboxState, make_engine, notify, session_scope, upgrade
from judge.store import inbox as inbox_store
from judge.store import outbox as outbox_store
from judge.store.outbox import Identity

IDENTITY = Identity("judge@example.org", "Judge")
MARKER = "judge_test_marker"


def mail(n: int) -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["Subject"] = "help"
    message["Message-ID"] = f"<n{n}@example.org>"
    message.set_content("HELP\n")
    return message.as_bytes()


@pytest.fixture
def pg_engine(postgres_cluster) -> Iterator[Engine]:  # type: ignore[no-untyped-def]
    made = make_engine(postgres_cluster.new_database())
    upgrade(made)
    yield made
    made.dispose()


class Listener:
    """A plain psycopg connection LISTENing on every channel, as another process would."""

    def __init__(self, engine: Engine) -> None:
        url = engine.url.set(drivername="postgresql")
        self.connection = psycopg.connect(
            url.render_as_string(hide_password=False), autocommit=True
        )
        for channel in (*notify.CHANNELS, MARKER):
            self.connection.execute(f'LISTEN "{channel}"')

    def heard(self, engine: Engine) -> list[tuple[str, str]]:
        """Every notification committed so far: a marker is committed last and read up to, as
        PostgreSQL delivers notifications in commit order."""
        with session_scope(engine) as session:
            session.execute(select(func.pg_notify(MARKER, "")))
        found = []
        for note in self.connection.notifies(timeout=10):
            if note.channel == MARKER:
                return found
            found.append((note.channel, note.payload))
        raise AssertionError(f"the marker never came; heard {found}")

    def close(self) -> None:
        self.connection.close()


@pytest.fixture
def listener(pg_engine: Engine) -> Iterator[Listener]:
    made = Listener(pg_engine)
    yield made
    made.close()


def test_a_stored_mail_notifies_the_processors_at_commit_with_the_process_token(
    pg_engine: Engine, listener: Listener
) -> None:
    with session_scope(pg_engine) as session:
        inbox_store.accept(session, mail(1), source="test")
        inbox_store.accept(session, mail(2), source="test")
    with session_scope(pg_engine) as session:
        _, new = inbox_store.accept(session, mail(1), source="test")  # a duplicate: no row
    assert not new
    assert listener.heard(pg_engine) == [(notify.INBOX, notify.process_token())]


def test_a_transaction_rolled_back_notifies_nobody(pg_engine: Engine, listener: Listener) -> None:
    with pytest.raises(RuntimeError), session_scope(pg_engine) as session:
        inbox_store.accept(session, mail(3), source="test")
        outbox_store.enqueue(session, IDENTITY, kind="t", to="a@example.org", subject="s", body="b")
        raise RuntimeError("rolled back")
    assert listener.heard(pg_engine) == []


def test_each_kind_of_write_sends_its_channel(pg_engine: Engine, listener: Listener) -> None:
    with session_scope(pg_engine) as session:
        for n in range(3):  # three replies, one notification
            outbox_store.enqueue(
                session, IDENTITY, kind="t", to=f"p{n}@example.org", subject="s", body="b"
            )
    assert [channel for channel, _ in listener.heard(pg_engine)] == [notify.OUTBOX]

    with session_scope(pg_engine) as session:
        done, _ = inbox_store.accept(session, mail(4), source="test")
        ignored, _ = inbox_store.accept(session, mail(5), source="test")
    listener.heard(pg_engine)
    with session_scope(pg_engine) as session:
        inbox_store.finish(session, ignored, InboxState.IGNORED, "ignored")
    assert listener.heard(pg_engine) == [], "an ignored mail changes no game"
    with session_scope(pg_engine) as session:
        inbox_store.finish(session, done, InboxState.DONE, "done")
    assert [channel for channel, _ in listener.heard(pg_engine)] == [notify.PROCESSED]


def test_rows_given_back_or_released_notify_the_other_runners(
    pg_engine: Engine, listener: Listener
) -> None:
    with session_scope(pg_engine) as session:
        first, _ = inbox_store.accept(session, mail(6), source="test")
        second, _ = inbox_store.accept(session, mail(7), source="test")
        outbox_store.enqueue(session, IDENTITY, kind="t", to="a@example.org", subject="s", body="b")
    listener.heard(pg_engine)

    claim = inbox_store.claim_next(pg_engine, lease=timedelta(minutes=5), inbox_id=first)
    assert claim is not None
    inbox_store.unclaim(pg_engine, first)
    assert [channel for channel, _ in listener.heard(pg_engine)] == [notify.INBOX]

    row = outbox_store.claim_due(pg_engine, lease=timedelta(minutes=5))
    assert row is not None
    outbox_store.unclaim(pg_engine, row.id)
    assert [channel for channel, _ in listener.heard(pg_engine)] == [notify.OUTBOX]

    with session_scope(pg_engine) as session:
        inbox_store.finish(session, second, InboxState.HELD, "held", error="boom")
    listener.heard(pg_engine)
    with session_scope(pg_engine) as session:
        assert inbox_store.release(session, second)
    assert [channel for channel, _ in listener.heard(pg_engine)] == [notify.INBOX]


def test_mails_woken_from_their_retry_notify_the_senders(
    pg_engine: Engine, listener: Listener
) -> None:
    """A sender that finds the relay back makes the waiting mails due (wake_waiting): senders in
    other processes hear of it too; with nothing waiting, nothing is said."""
    with session_scope(pg_engine) as session:
        outbox_store.enqueue(session, IDENTITY, kind="t", to="a@example.org", subject="s", body="b")
    row = outbox_store.claim_due(pg_engine, lease=timedelta(minutes=5))
    assert row is not None
    outbox_store.mark_retry(pg_engine, row.id, "relay down", now() + timedelta(hours=1))
    listener.heard(pg_engine)

    assert outbox_store.wake_waiting(pg_engine) == 1
    assert [channel for channel, _ in listener.heard(pg_engine)] == [notify.OUTBOX]
    assert outbox_store.wake_waiting(pg_engine) == 0
    assert listener.heard(pg_engine) == []


def test_sqlite_sends_nothing_and_keeps_nothing_pending(tmp_path) -> None:  # type: ignore[no-untyped-def]
    engine = make_engine(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    upgrade(engine)
    try:
        with session_scope(engine) as session:
            inbox_store.accept(session, mail(8), source="test")
            outbox_store.enqueue(
                session, IDENTITY, kind="t", to="a@example.org", subject="s", body="b"
            )
            assert not session.info, "nothing is collected to send on SQLite"
        with session_scope(engine) as session:
            assert session.scalar(select(func.count()).select_from(InboxMessage)) == 1
    finally:
        engine.dispose()
