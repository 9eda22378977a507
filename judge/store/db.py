"""Engines, sessions and schema upgrades for the store, on SQLite (embedded) or PostgreSQL.

SQLite runs in WAL mode and every transaction starts with BEGIN IMMEDIATE, so two threads of one
process never meet a busy error halfway through a transaction: the second waits its turn. Within
one process the turns are handed out in order by a `WriteGate`, since SQLite's own busy handler
sleeps and retries, which lets a thread that writes in a tight loop starve the others.
"""

from __future__ import annotations

import threading
import weakref
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Table, create_engine, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from judge.store import notify

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# How long a SQLite writer waits for another to finish before giving up, in seconds.
SQLITE_BUSY_TIMEOUT = 60


def normalise_url(url: str) -> str:
    """Give a bare postgresql:// URL the psycopg 3 driver, the one the judge installs."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, **kwargs: Any) -> Engine:
    """Create an engine for `url`; for SQLite also create the file's folder and set WAL mode."""
    url = normalise_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        kwargs.setdefault("pool_pre_ping", True)
        return create_engine(url, **kwargs)
    database = parsed.database or ""
    in_memory = database in ("", ":memory:")
    connect_args = kwargs.pop("connect_args", {})
    connect_args.setdefault("check_same_thread", False)
    connect_args.setdefault("timeout", SQLITE_BUSY_TIMEOUT)
    if in_memory:
        kwargs.setdefault("poolclass", StaticPool)
    else:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args=connect_args, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the driver so BEGIN IMMEDIATE below is the only BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not in_memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            # Every commit reaches the disk before it returns: mail is acknowledged after it.
            cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT * 1000}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def upsert(session: Session, table: Table) -> Any:
    """An INSERT into `table` that knows ON CONFLICT, in the dialect of the session's database."""
    if session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)


def is_sqlite(engine: Engine) -> bool:
    """Whether the engine speaks to SQLite (one writer at a time, no row locks)."""
    return engine.dialect.name == "sqlite"


class WriteGate:
    """One writing transaction at a time among the threads of this process, first come first
    served; a thread may enter again while it holds the gate.
    """

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._owner: int | None = None
        self._depth = 0
        self._waiting: deque[tuple[int, threading.Lock]] = deque()

    def acquire(self) -> None:
        me = threading.get_ident()
        with self._mutex:
            if self._owner in (None, me):
                self._owner = me
                self._depth += 1
                return
            turn = threading.Lock()
            turn.acquire()
            self._waiting.append((me, turn))
        try:
            turn.acquire()  # released by the thread that hands the gate over to this one
        except BaseException:
            with self._mutex:
                handed_over = (me, turn) not in self._waiting
                if not handed_over:
                    self._waiting.remove((me, turn))
            if handed_over:
                self.release()
            raise

    def release(self) -> None:
        with self._mutex:
            self._depth -= 1
            if self._depth:
                return
            if self._waiting:
                self._owner, turn = self._waiting.popleft()
                self._depth = 1
                turn.release()
            else:
                self._owner = None

    def __enter__(self) -> WriteGate:
        self.acquire()
        return self

    def __exit__(self, *_: object) -> None:
        self.release()


_gates: weakref.WeakKeyDictionary[Engine, WriteGate] = weakref.WeakKeyDictionary()
_gates_lock = threading.Lock()


def write_gate(engine: Engine) -> WriteGate | None:
    """The gate of a SQLite engine (None for PostgreSQL, whose writers do not exclude each other)."""
    if not is_sqlite(engine):
        return None
    with _gates_lock:
        gate = _gates.get(engine)
        if gate is None:
            gate = _gates[engine] = WriteGate()
        return gate


_makers: weakref.WeakKeyDictionary[Engine, sessionmaker[Session]] = weakref.WeakKeyDictionary()


def session_factory(engine: Engine) -> sessionmaker[Session]:
    """One sessionmaker per engine (forgotten with the engine); objects stay readable after commit,
    and a commit sends the notifications its transaction asked for (judge.store.notify)."""
    maker = _makers.get(engine)
    if maker is None:
        maker = sessionmaker(bind=engine, expire_on_commit=False)
        notify.install(maker)
        _makers[engine] = maker
    return maker


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One transaction: commit when the block ends, roll back if it raises.

    On SQLite the block holds the engine's write gate, so the threads of one process take turns
    in the order they asked.
    """
    gate = write_gate(engine)
    if gate is not None:
        gate.acquire()
    session = session_factory(engine)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
        if gate is not None:
            gate.release()


def alembic_config(engine: Engine) -> Any:
    """An alembic Config that finds the migrations shipped inside the package."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return config


def upgrade(engine_or_url: Engine | str, revision: str = "head") -> None:
    """Bring the database up to `revision` (the newest by default); safe to run at every start."""
    from alembic import command

    engine = make_engine(engine_or_url) if isinstance(engine_or_url, str) else engine_or_url
    config = alembic_config(engine)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
    finally:
        if isinstance(engine_or_url, str):
            engine.dispose()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or None before the first upgrade."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    """The newest revision the package ships."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config).get_current_head()
