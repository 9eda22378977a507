"""Wake-ups across processes: one PostgreSQL connection per judge process LISTENs on the channels
of the roles it runs (judge.store.notify) and wakes those roles' loops when another process
commits rows for them, so roles run as separate processes answer as fast as one process.

The loops still poll: a notification is a hint, never the only way to find work. While the
connection is down nothing is heard; after every (re)connection every loop is woken once, since
what was sent meanwhile is lost. TCP keepalives notice a server that vanished without a word.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Engine

from judge.store.notify import process_token

log = logging.getLogger("judge.wakeups")

# How often the listener looks whether it was asked to stop (seconds).
STOP_CHECK_SECONDS = 0.5
# After a lost connection: first wait before connecting again, doubling up to the ceiling.
RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 30.0
# A server that takes the connection but does not answer is given up after this (seconds).
CONNECT_TIMEOUT_SECONDS = 10
# Keepalives on the listening connection: a silent server is given up after about a minute.
KEEPALIVE = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
}


class WakeupListener(threading.Thread):
    """LISTENs on `wakes`' channels and calls each channel's function when it is notified."""

    def __init__(
        self,
        engine: Engine,
        wakes: Mapping[str, Callable[[], None]],
        stop: threading.Event,
    ) -> None:
        super().__init__(name="judge-wakeups", daemon=True)
        self.engine = engine
        self.wakes = dict(wakes)
        self.stopping = stop
        self.listening = threading.Event()  # set while LISTEN is in force
        self.connects = 0  # successful connections, for the log and tests
        self.heard = 0  # notifications from other processes acted on
        self._connection: Any = None

    def run(self) -> None:
        backoff = RECONNECT_FIRST_SECONDS
        while not self.stopping.is_set():
            try:
                self._listen()
                backoff = RECONNECT_FIRST_SECONDS
                self._wake_all()  # anything committed while nobody listened is found now
                self._receive()
            except Exception as error:  # the server or the network went away: try again
                self.listening.clear()
                log.warning(
                    "wake-ups: lost the PostgreSQL connection (%s); polling until it is back, "
                    "reconnecting in %.1f s",
                    str(error).strip() or type(error).__name__,
                    backoff,
                )
                self._close()
                if self.stopping.wait(backoff):
                    break
                backoff = min(backoff * 2, RECONNECT_MAX_SECONDS)
        self.listening.clear()
        self._close()

    def _listen(self) -> None:
        import psycopg

        args, kwargs = self.engine.dialect.create_connect_args(self.engine.url)
        options = {**KEEPALIVE, "connect_timeout": CONNECT_TIMEOUT_SECONDS, **kwargs}
        connection = psycopg.connect(*args, **options, autocommit=True)
        self._connection = connection
        for channel in self.wakes:
            connection.execute(f'LISTEN "{channel}"')
        self.connects += 1
        self.listening.set()
        log.info(
            "wake-ups: listening on PostgreSQL for %s%s",
            ", ".join(self.wakes),
            " (reconnected)" if self.connects > 1 else "",
        )

    def _receive(self) -> None:
        own = process_token()
        while not self.stopping.is_set():
            for note in self._connection.notifies(timeout=STOP_CHECK_SECONDS):
                if note.payload == own:
                    continue  # this process's own rows: its loops were woken directly
                wake = self.wakes.get(note.channel)
                if wake is not None:
                    self.heard += 1
                    wake()

    def _wake_all(self) -> None:
        for wake in self.wakes.values():
            wake()

    def _close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()
