"""The store keeps each mail once, in its raw bytes, whichever way and however often it arrives."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine, func, select

from judge import clock
from judge.store import InboxMessage, InboxState, session_scope, upgrade
from judge.store.db import MIGRATIONS, current_revision, head_revision, make_engine
from judge.store.inbox import accept, claim_next, held, message_id_of, release

MAIL = b"Message-ID: <one@example.org>\r\nFrom: a@example.org\r\nSubject: x\r\n\r\nA PAR-BUR\r\n"


def count(engine: Engine) -> int:
    with session_scope(engine) as session:
        return session.scalar(select(func.count()).select_from(InboxMessage)) or 0


def test_upgrade_reaches_head_and_is_idempotent(engine: Engine) -> None:
    head = head_revision()
    assert head is not None and current_revision(engine) == head
    upgrade(engine)
    assert current_revision(engine) == head


def test_migrations_ship_inside_the_package() -> None:
    package = Path(__import__("judge").__file__).resolve().parent
    assert MIGRATIONS.is_relative_to(package)
    assert (MIGRATIONS / "env.py").is_file()
    assert list((MIGRATIONS / "versions").glob("0001_*.py"))


def test_accept_stores_raw_bytes_and_envelope(engine: Engine) -> None:
    with session_scope(engine) as session:
        row_id, new = accept(
            session, MAIL, source="smtp", envelope_to="judge@example.org", envelope_from="a@b"
        )
    assert new
    with session_scope(engine) as session:
        row = session.get(InboxMessage, row_id)
        assert row is not None
        assert row.raw == MAIL
        assert row.message_id == "one@example.org"
        assert row.envelope_to == "judge@example.org"
        assert row.envelope_from == "a@b"
        assert row.state == InboxState.NEW
        assert row.received_at.tzinfo is not None


def test_same_message_id_with_other_bytes_is_a_duplicate(engine: Engine) -> None:
    with session_scope(engine) as session:
        first, _ = accept(session, MAIL, source="smtp")
    relayed = b"Received: from relay\r\n" + MAIL
    with session_scope(engine) as session:
        again, new = accept(session, relayed, source="imap")
    assert (again, new) == (first, False)
    assert count(engine) == 1


def test_same_bytes_without_message_id_is_a_duplicate(engine: Engine) -> None:
    bare = b"From: a@example.org\r\n\r\nHELP\r\n"
    with session_scope(engine) as session:
        first, new1 = accept(session, bare, source="smtp")
        second, new2 = accept(session, bare, source="smtp")
        third, new3 = accept(session, bare + b"\r\n", source="smtp")
    assert new1 and not new2 and new3
    assert first == second != third


def test_rolled_back_accept_leaves_nothing(engine: Engine) -> None:
    try:
        with session_scope(engine) as session:
            accept(session, MAIL, source="smtp")
            raise RuntimeError("disk full")
    except RuntimeError:
        pass
    assert count(engine) == 0


def test_concurrent_deliveries_of_one_mail_store_it_once(engine: Engine) -> None:
    results: list[tuple[int, bool]] = []
    barrier = threading.Barrier(4)

    def deliver() -> None:
        barrier.wait()
        with session_scope(engine) as session:
            results.append(accept(session, MAIL, source="smtp"))

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert count(engine) == 1
    assert sorted(new for _, new in results) == [False, False, False, True]
    assert len({row_id for row_id, _ in results}) == 1


def test_message_id_parsing() -> None:
    assert message_id_of(b"Message-Id:  <x.y@z>  (comment)\r\n\r\n") == "x.y@z"
    assert message_id_of(b"Message-ID: bare@id\r\n\r\n") == "bare@id"
    assert message_id_of(b"Message-ID:\r\n\r\n") is None
    assert message_id_of(b"From: a\r\n\r\n") is None


def test_claims_hand_each_mail_to_one_processor_until_the_lease_ends(engine: Engine) -> None:
    clock.set_now(datetime(2026, 1, 1, tzinfo=UTC))
    with session_scope(engine) as session:
        first, _ = accept(session, MAIL, source="smtp")
        second, _ = accept(session, b"From: b\r\n\r\nHELP\r\n", source="smtp")
    lease = timedelta(minutes=5)
    assert claim_next(engine, lease=lease) == (first, 1)
    assert claim_next(engine, lease=lease) == (second, 1)
    assert claim_next(engine, lease=lease) is None
    clock.advance(timedelta(minutes=6))
    assert claim_next(engine, lease=lease) == (first, 2)


def test_held_and_release(engine: Engine) -> None:
    with session_scope(engine) as session:
        row_id, _ = accept(session, MAIL, source="smtp")
        row = session.get(InboxMessage, row_id)
        assert row is not None
        row.state = InboxState.HELD
        row.error = "Traceback ..."
    with session_scope(engine) as session:
        assert [row.id for row in held(session)] == [row_id]
        assert release(session, row_id)
        assert not release(session, row_id + 100)
    with session_scope(engine) as session:
        assert held(session) == []
        assert session.get(InboxMessage, row_id).state == InboxState.NEW  # type: ignore[union-attr]


def test_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    made = make_engine(f"sqlite:///{tmp_path / 'deep' / 'judge.sqlite3'}")
    upgrade(made)
    with made.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    assert (tmp_path / "deep" / "judge.sqlite3").is_file()
