"""Alembic environment: runs on the connection judge.store.db.upgrade hands it."""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

from judge.store import games as _games  # noqa: F401  (registers the game tables)
from judge.store import imap_state as _imap_state  # noqa: F401  (registers the IMAP state)
from judge.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    """Migrate over the given connection; on PostgreSQL hold a lock so two starts never race."""
    connection = config.attributes.get("connection")
    if connection is None:
        from judge.store.db import make_engine

        engine = make_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.begin() as conn:
            _run(conn)
        return
    _run(connection)


def _run(connection: object) -> None:
    if connection.dialect.name == "postgresql":  # type: ignore[attr-defined]
        connection.execute(text("SELECT pg_advisory_xact_lock(727274)"))  # type: ignore[attr-defined]
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run `judge db upgrade`")
run_migrations_online()
