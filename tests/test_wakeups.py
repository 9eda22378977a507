"""Wake-ups across processes (judge.wakeups, judge.store.notify): a row committed by one process
wakes the loop of another at once, not at its next poll. Every poll here is 600 s, so only a
wake-up can make the work happen within the tests' limits.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import Engine, delete, func, select, text

from judge import serve, wakeups
from judge.config import from_mapping
from judge.store import (
    InboxMessage,
    InboxState,
    OutboxMessage,
    OutboxState,
    ReplyCount,
    make_engine,
    notify,
    session_scope,
    upgrade,
)
from judge.store.inbox import accept, finish
from judge.store.outbox import Identity, enqueue
from judge.wakeups import WakeupListener

LONG_POLL = 600.0
LIMIT = 15.0  # seconds a wake-up may take here at most, load included (polls are 600 s)
OTHER = "another-process"  # a payload that is not this process's token


def wait_for(condition: Callable[[], object], what: str, limit: float = LIMIT) -> None:
    """Poll `condition` (bounded): the limit only stops a broken test from hanging."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {limit} s waiting for {what}")
        time.sleep(0.02)


def help_mail(n: int) -> bytes:
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message["To"] = "judge@example.org"
    message["Subject"] = "help"
    message["Message-ID"] = f"<w{n}-{os.getpid()}@example.org>"
    message.set_content("HELP\n")
    return bytes(message)


@pytest.fixture
def pg_engine(postgres_cluster) -> Iterator[Engine]:  # type: ignore[no-untyped-def]
    made = make_engine(postgres_cluster.new_database())
    upgrade(made)
    yield made
    made.dispose()


def send_notification(engine: Engine, channel: str, payload: str = OTHER) -> None:
    with session_scope(engine) as session:
        session.execute(select(func.pg_notify(channel, payload)))


# --- the listener --------------------------------------------------------------------------------
class Woken:
    """Wake functions that record which channel woke them."""

    def __init__(self, *channels: str) -> None:
        self.events = {channel: threading.Event() for channel in channels}

    def wakes(self) -> dict[str, Callable[[], None]]:
        return {channel: event.set for channel, event in self.events.items()}

    def wait_all_then_clear(self) -> None:
        for channel, event in self.events.items():
            assert event.wait(LIMIT), f"{channel} was not woken"
            event.clear()


@pytest.fixture
def listening(pg_engine: Engine) -> Iterator[tuple[WakeupListener, Woken]]:
    woken = Woken(notify.INBOX, notify.OUTBOX)
    stop = threading.Event()
    listener = WakeupListener(pg_engine, woken.wakes(), stop)
    listener.start()
    assert listener.listening.wait(LIMIT)
    woken.wait_all_then_clear()  # every loop is woken once on connecting
    yield listener, woken
    stop.set()
    listener.join(timeout=LIMIT)
    assert not listener.is_alive()


def test_a_notification_wakes_its_channels_loop_only(
    pg_engine: Engine, listening: tuple[WakeupListener, Woken]
) -> None:
    _, woken = listening
    send_notification(pg_engine, notify.INBOX)
    assert woken.events[notify.INBOX].wait(LIMIT)
    assert not woken.events[notify.OUTBOX].is_set()


def test_the_processs_own_notifications_are_passed_over(
    pg_engine: Engine, listening: tuple[WakeupListener, Woken]
) -> None:
    # Its loops were woken in-process already; the outbox one afterwards shows the inbox one
    # was read (PostgreSQL delivers in commit order) and passed over.
    send_notification(pg_engine, notify.INBOX, notify.process_token())
    send_notification(pg_engine, notify.OUTBOX)
    assert woken_set(listening, notify.OUTBOX)
    assert not listening[1].events[notify.INBOX].is_set()


def woken_set(listening: tuple[WakeupListener, Woken], channel: str) -> bool:
    return listening[1].events[channel].wait(LIMIT)


def test_a_lost_connection_is_made_again_and_every_loop_woken_once(
    pg_engine: Engine, listening: tuple[WakeupListener, Woken]
) -> None:
    listener, woken = listening
    with session_scope(pg_engine) as session:
        ended = session.scalar(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND query LIKE 'LISTEN%'"
            )
        )
    assert ended == 1
    wait_for(lambda: listener.connects == 2, "the listener to connect again")
    woken.wait_all_then_clear()  # what was sent while it was away is looked for
    assert listener.listening.wait(LIMIT)
    send_notification(pg_engine, notify.OUTBOX)
    assert woken.events[notify.OUTBOX].wait(LIMIT)


def test_a_database_that_never_answers_does_not_hold_the_listener(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server that takes the connection and says nothing (a host gone behind a firewall):
    the listener gives up within its connect timeout, tries again, and stops when asked."""
    monkeypatch.setattr(wakeups, "CONNECT_TIMEOUT_SECONDS", 1)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nobody ever reads or answers
        port = silent.getsockname()[1]
        engine = make_engine(f"postgresql://judge@127.0.0.1:{port}/judge")
        stop = threading.Event()
        listener = WakeupListener(engine, {notify.INBOX: lambda: None}, stop)
        listener.start()
        try:
            assert not listener.listening.wait(3.0)
            assert listener.is_alive() and listener.connects == 0
        finally:
            stop.set()
            listener.join(timeout=5.0)
            engine.dispose()
    assert not listener.is_alive(), "the listener hung on a database that never answered"


# --- `judge serve --only ROLE` in another process ------------------------------------------------
class Serve:
    """`judge serve --only ROLE` as a child process on the test's database."""

    def __init__(self, tmp_path: Path, database_url: str, role: str) -> None:
        self.log = tmp_path / f"{role}.log"
        config = tmp_path / f"{role}.toml"
        config.write_text(
            f'[judge]\ndata_dir = "{tmp_path / "data"}"\naddress = "judge@example.org"\n'
            f'[database]\nurl = "{database_url}"\n'
            "[smtp]\nenabled = false\n"
            f"[processor]\npoll_seconds = {LONG_POLL}\n"
            f"[outbound]\npoll_seconds = {LONG_POLL}\n"
            f"[scheduler]\npoll_seconds = {LONG_POLL}\n"
            '[log]\nlevel = "INFO"\n'
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
        env["JUDGE_CONFIG"] = str(config)
        env["PYTHONUNBUFFERED"] = "1"
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "judge.cli", "serve", f"--only={role}"],
                env=env,
                cwd=tmp_path,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        wait_for(self.running, f"`judge serve --only {role}` to start", limit=60)
        # Let its loop end its first look and go idle, so that only a wake-up finds new rows.
        time.sleep(0.5)

    def running(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"judge serve exited:\n{self.log.read_text()}")
        return "running" in self.log.read_text()

    def stop(self) -> str:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.log.read_text()


@pytest.fixture
def serve_only(tmp_path: Path, pg_engine: Engine) -> Iterator[Callable[[str], Serve]]:
    made: list[Serve] = []

    def start(role: str) -> Serve:
        made.append(Serve(tmp_path, pg_engine.url.render_as_string(hide_password=False), role))
        return made[-1]

    yield start
    for process in made:
        process.stop()


def test_a_mail_stored_by_another_process_wakes_the_processor(
    pg_engine: Engine, serve_only: Callable[[str], Serve]
) -> None:
    serve = serve_only("processor")
    assert "wake-ups: listening on PostgreSQL for judge_inbox" in serve.log.read_text()
    with session_scope(pg_engine) as session:
        accept(session, help_mail(1), source="test", envelope_from="ann@example.org")

    def processed() -> bool:
        with session_scope(pg_engine) as session:
            return session.scalars(select(InboxMessage.state)).one() == InboxState.DONE

    wait_for(processed, "the processor in the other process")


def test_a_reply_written_by_another_process_wakes_the_sender(
    pg_engine: Engine, serve_only: Callable[[str], Serve]
) -> None:
    serve_only("sender")
    with session_scope(pg_engine) as session:
        enqueue(
            session,
            Identity("judge@example.org", "Judge"),
            kind="test",
            to="ann@example.org",
            subject="hello",
            body="hello\n",
        )

    def sent() -> bool:
        with session_scope(pg_engine) as session:
            return session.scalars(select(OutboxMessage.state)).one() == OutboxState.SENT

    wait_for(sent, "the sender in the other process")


def test_a_mail_processed_by_another_process_wakes_the_scheduler(
    pg_engine: Engine, serve_only: Callable[[str], Serve]
) -> None:
    # The scheduler's rounds are seen by its housekeeping: it forgets old daily reply counts.
    old = datetime.now(UTC).date() - timedelta(days=30)

    def old_count(address: str) -> None:
        with session_scope(pg_engine) as session:
            session.add(ReplyCount(address=address, day=old, count=1, notice_sent=False))

    def forgotten() -> bool:
        with session_scope(pg_engine) as session:
            return not session.scalar(select(func.count()).select_from(ReplyCount))

    old_count("first@example.org")
    serve_only("scheduler")
    wait_for(forgotten, "the scheduler's first round")
    old_count("second@example.org")
    with session_scope(pg_engine) as session:
        row, _ = accept(session, help_mail(2), source="test")
    with session_scope(pg_engine) as session:
        finish(session, row, InboxState.DONE, "done")  # as a processor elsewhere would
    wait_for(forgotten, "a round of the scheduler in the other process")


# --- the scheduler's wake, within one process ----------------------------------------------------
def test_a_mail_processed_just_after_a_round_still_wakes_the_scheduler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most one round per SCHEDULER_WAKE_SECONDS, but a wake inside that time is deferred to
    its end, never dropped: the mail may have completed a phase's orders."""
    monkeypatch.setattr(serve, "SCHEDULER_WAKE_SECONDS", 0.5)
    config = from_mapping(
        {
            "judge": {"data_dir": str(tmp_path / "data"), "address": "judge@example.org"},
            "scheduler": {"poll_seconds": LONG_POLL},
        }
    )
    engine = make_engine(config.database_url)
    upgrade(engine)
    old = datetime.now(UTC).date() - timedelta(days=30)

    def old_count(address: str) -> None:
        with session_scope(engine) as session:
            session.add(ReplyCount(address=address, day=old, count=1, notice_sent=False))

    def forgotten() -> bool:
        with session_scope(engine) as session:
            return not session.scalar(select(func.count()).select_from(ReplyCount))

    stop = threading.Event()
    loop = serve.SchedulerLoop(engine, config, stop, on_acted=lambda: None)
    old_count("first@example.org")
    loop.start()
    try:
        wait_for(forgotten, "the first round")
        old_count("second@example.org")
        loop.wake_soon()
        wait_for(forgotten, "the round a processed mail asked for")
        old_count("third@example.org")
        loop.wake_soon()  # well within SCHEDULER_WAKE_SECONDS of that round
        wait_for(forgotten, "the deferred round")
    finally:
        stop.set()
        loop.stop()
        loop.join(timeout=LIMIT)
        with session_scope(engine) as session:
            session.execute(delete(ReplyCount))
        engine.dispose()
