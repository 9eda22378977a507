"""Reading the store for the pages without ever holding up the mail.

The judge's own engine begins every SQLite transaction with BEGIN IMMEDIATE and takes the
process's write gate (judge.store.db), which would queue every page behind the mail. The pages
read through an engine of their own: on SQLite a plain deferred BEGIN on a query-only
connection (in WAL mode a reader sees one snapshot and never blocks a writer), on PostgreSQL a
read-only transaction that sees one snapshot of the whole page.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from judge.store.db import SQLITE_BUSY_TIMEOUT, normalise_url


def reading_engine(url: str) -> Engine:
    """An engine over the store at `url` for reading alone."""
    url = normalise_url(url)
    if make_url(url).get_backend_name() != "sqlite":
        return create_engine(
            url,
            pool_pre_ping=True,
            execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True},
        )
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT}
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the BEGIN below is the only one
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA query_only=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT * 1000}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN")  # deferred: a snapshot, no lock on the writers

    return engine


@contextmanager
def read_scope(engine: Engine) -> Iterator[Connection]:
    """One reading transaction on a connection (rolled back at the end: nothing is written).
    The cheap path of a request reads its stamp here with plain SQL; a page that has to be
    built reads through `session_on` in the same transaction, so it sees the same snapshot."""
    with engine.connect() as connection, connection.begin() as transaction:
        try:
            yield connection
        finally:
            transaction.rollback()


def session_on(connection: Connection) -> Session:
    """An ORM session inside a `read_scope`'s transaction."""
    return Session(bind=connection, expire_on_commit=False)
