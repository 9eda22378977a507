"""Guessing passwords by mail: no argon2 hash is computed while the processor holds the store
(so a guessing mail holds no other mail back), and repeated wrong passwords slow down per seat
and per sender (judge.desk.passwords). Through the processor, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool
from test_games_by_mail import GM, SETTINGS, body_of, player, send

from judge import clock, identity
from judge.processor import process_next
from judge.store import InboxMessage, InboxState, make_engine, session_scope, upgrade
from judge.store.db import write_gate
from judge.store.inbox import accept


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """The desk's store on SQLite and on PostgreSQL (the `started` game is made in it)."""
    made = make_engine(database_url)
    upgrade(made)
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


class CountingHasher:
    """The real hasher, counting its verifications and running `during` inside each one."""

    def __init__(self, during: Any = None) -> None:
        self.real = identity._HASHER
        self.calls = 0
        self.during = during

    def verify(self, stored: str, password: str) -> bool:
        self.calls += 1
        if self.during is not None:
            self.during()
        return self.real.verify(stored, password)

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


@pytest.fixture
def hasher(monkeypatch: pytest.MonkeyPatch) -> CountingHasher:
    counting = CountingHasher()
    monkeypatch.setattr(identity, "_HASHER", counting)
    return counting


def deliver(engine: Engine, body: str, sender: str) -> int:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = "x"
    message["Message-ID"] = f"<{sender}.{body[:20].replace(' ', '.')}@example.org>"
    message.set_content(body)
    with session_scope(engine) as session:
        row_id, _ = accept(session, message.as_bytes(), source="test", envelope_from=sender)
        return row_id


def store_is_free(engine: Engine) -> str:
    """ "" when another writer could write right now, else who holds the store.

    SQLite: this process's write gate has no owner and a second connection gets BEGIN
    IMMEDIATE at once. PostgreSQL: the game's row and every inbox row can be locked at once.
    """
    if engine.dialect.name == "sqlite":
        gate = write_gate(engine)
        if gate is not None and gate._owner is not None:
            return "the write gate is held"
        database = engine.url.database
        assert database is not None
        probe = sqlite3.connect(database, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
        except sqlite3.OperationalError as error:
            return f"SQLite is locked: {error}"
        finally:
            probe.close()
        return ""
    other = create_engine(engine.url, poolclass=NullPool)
    try:
        with other.begin() as connection:
            connection.execute(text("SET LOCAL lock_timeout = '1ms'"))
            connection.execute(text("SELECT id FROM games FOR UPDATE NOWAIT")).all()
            connection.execute(text("SELECT id FROM inbox FOR UPDATE NOWAIT")).all()
    except OperationalError as error:
        return f"a row is locked: {error.orig}"
    finally:
        other.dispose()
    return ""


def test_a_guessing_mail_holds_nothing_while_its_passwords_are_hashed(
    engine: Engine, started: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the guesses are hashed, the store is free: another processor takes a mail that
    arrived after the guessing one and finishes it before the first hash returns."""
    guesses = "\n".join(f"SIGNON Germany alpha guess{n}" for n in range(299))
    guessing = deliver(engine, guesses, "thief@example.net")
    other = deliver(engine, "HELP", "ann@example.org")
    seen: list[str] = []

    def during() -> None:
        held = store_is_free(engine)
        seen.append(held or "free")
        if held or len(seen) > 1:
            return  # a second processor would wait for the store (forever, in this thread)
        second = threading.Thread(target=process_next, args=(engine, SETTINGS, other))
        second.start()
        second.join()
        with session_scope(engine) as session:
            row = session.get(InboxMessage, other)
            assert row is not None
            seen.append(f"other mail {row.state}")

    counting = CountingHasher(during)
    monkeypatch.setattr(identity, "_HASHER", counting)
    assert process_next(engine, SETTINGS, guessing) == guessing
    assert seen[:2] == ["free", f"other mail {InboxState.DONE}"]
    assert seen[2:] == ["free", "free"]  # every hash with the store free
    assert counting.calls == 3  # a mail's fourth wrong password is not read
    with session_scope(engine) as session:
        row = session.get(InboxMessage, guessing)
        assert row is not None and row.state == InboxState.DONE


def test_wrong_passwords_for_one_seat_slow_down_whoever_sends_them(
    engine: Engine, started: dict[str, str], hasher: CountingHasher
) -> None:
    for n in range(3):
        rows = send(engine, f"SIGNON Germany alpha wrong{n}", sender=f"guesser{n}@example.net")
        # A stranger is told first that the seat is taken, then that the password is wrong.
        told = " ".join(body_of(rows[-1]).split())
        assert "Germany in game alpha is taken" in told
        assert "the password given for it is not the right one" in told
        if n == 2:  # the third stranger's guess makes the seat wait: its holder is told
            [told_owner] = [r for r in rows if r.kind == "password_guessed"]
            assert told_owner.to_addr == player("Germany")
            notice = " ".join(body_of(told_owner).split())
            assert "guesser2@example.net" in notice and "3 wrong passwords" in notice
            assert "from 2026-04-01 08:01:00 UTC on" in notice
        else:
            assert not [r for r in rows if r.kind == "password_guessed"]
    assert hasher.calls == 3
    # The fourth try at the seat from a stranger, even with the right password, waits a minute.
    for sender, password in (
        ("guesser9@example.net", "wrong"),
        ("guesser8@example.net", "pw-Germany"),
    ):
        rows = send(engine, f"SIGNON Germany alpha {password}", sender=sender)
        reason = body_of(rows[-1])
        assert (
            "line 1: not checked: the password of Germany in game alpha has been given wrongly "
            "3 times lately, so the next try is read from 2026-04-01 08:01:00 UTC on" in reason
        )
        assert "mail to the seat's reply address acts without a password meanwhile" in reason
    assert hasher.calls == 3
    # The seat's reply address needs no password, so its player is never locked out.
    rows = send(engine, "A Mun H", sender=player("Germany"), to=started["Germany"])
    assert [r.kind for r in rows] == ["orders_read"]
    # Nor is its holder from his own address: strangers' guesses slow the strangers alone.
    rows = send(engine, "SIGNON Germany alpha pw-Germany\nA Mun H", sender=player("Germany"))
    assert [r.kind for r in rows] == ["signed_on+orders_read"]  # one answer to the mail
    assert hasher.calls == 4
    # After the wait the next guess is read; a wrong one doubles the wait (the count was
    # cleared by the holder's right password, so it starts again).
    clock.advance(timedelta(minutes=1))
    for n in range(3):
        rows = send(engine, f"SIGNON Germany alpha again{n}", sender=f"other{n}@example.net")
        assert "not the right one" in body_of(rows[-1])
    assert hasher.calls == 7
    rows = send(engine, "SIGNON Germany alpha wrong3", sender="guesser3@example.net")
    assert "from 2026-04-01 08:02:00 UTC on" in body_of(rows[-1])
    assert hasher.calls == 7


def test_strangers_wrong_gm_passwords_slow_the_strangers_not_the_gm(
    engine: Engine, started: dict[str, str], hasher: CountingHasher
) -> None:
    """Three strangers' wrong GM passwords make the GM password wait for strangers; the GM,
    from his own address, signs on at once, and is told once when the wait starts."""
    for n in range(3):
        rows = send(engine, f"SIGNON M alpha wrong{n}", sender=f"guesser{n}@example.net")
        assert "the GM password of game alpha is not right" in body_of(rows[-1])
        told = [r for r in rows if r.kind == "password_guessed"]
        if n < 2:
            assert not told
            continue
        [notice] = told
        assert notice.to_addr == GM
        words = " ".join(body_of(notice).split())
        assert "guesser2@example.net" in words and "3 wrong GM passwords" in words
        assert "the GM password sent from any other address is read only from" in words
        assert "wrong GM password for game alpha" in words
        assert "2026-04-01 08:01:00 UTC" in words and "SET PASSWORD" not in words
    rows = send(engine, "SIGNON M alpha gmsecret", sender="guesser9@example.net")
    assert "not checked: the GM password of game alpha has been given wrongly 3 times" in (
        body_of(rows[-1])
    )
    assert hasher.calls == 3
    rows = send(engine, "SIGNON M alpha gmsecret\nPAUSE", sender=GM)
    assert "desk_problems" not in [r.kind for r in rows]
    assert hasher.calls == 4


def test_wrong_passwords_from_one_sender_slow_it_down_at_every_seat(
    engine: Engine, started: dict[str, str], hasher: CountingHasher
) -> None:
    """Three wrong passwords, at three seats and the GM's, from one mailbox's plus-addresses:
    its next try anywhere waits, while everybody else signs on as before."""
    tries = (
        ("thief+1@example.net", "SIGNON Germany alpha x"),
        ("thief+2@Example.NET", "SIGNON France alpha y"),
        ("THIEF@example.net", "SIGNON M alpha z"),
    )
    for sender, line in tries:
        rows = send(engine, line, sender=sender)
        assert "not the right one" in body_of(rows[-1]) or "is not right" in body_of(rows[-1])
    assert hasher.calls == 3
    rows = send(engine, "SIGNON Italy alpha pw-Italy", sender="thief+4@example.net")
    reason = body_of(rows[-1])
    assert (
        "not checked: this address has given a wrong password 3 times lately, so the next try "
        "is read from 2026-04-01 08:01:00 UTC on" in reason
    )
    assert hasher.calls == 3
    # Italy's player, and the GM, are not slowed down by the thief.
    rows = send(engine, "SIGNON Italy alpha pw-Italy", sender=player("Italy"))
    assert [r.kind for r in rows] == ["signed_on"]
    rows = send(engine, "SIGNON M alpha gmsecret\nPAUSE", sender=GM)
    assert "desk_problems" not in [r.kind for r in rows]
    assert hasher.calls == 5
    # After the wait the thief's next guess is read; a wrong one doubles the wait.
    clock.advance(timedelta(minutes=1))
    rows = send(engine, "SIGNON Austria alpha nope", sender="thief@example.net")
    assert "not the right one" in body_of(rows[-1])
    rows = send(engine, "SIGNON Austria alpha nope2", sender="thief@example.net")
    assert "from 2026-04-01 08:03:00 UTC on" in body_of(rows[-1])
    assert hasher.calls == 6


def test_a_week_without_failures_forgets_them(
    engine: Engine, started: dict[str, str], hasher: CountingHasher
) -> None:
    for n in range(3):
        send(engine, f"SIGNON Germany alpha wrong{n}", sender="thief@example.net")
    clock.advance(timedelta(days=7))
    for n in range(3):
        rows = send(engine, f"SIGNON Germany alpha late{n}", sender="thief@example.net")
        assert "not the right one" in body_of(rows[-1])
    assert hasher.calls == 6
