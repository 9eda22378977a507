"""The durable store: SQLAlchemy models, sessions and alembic migrations (SQLite or PostgreSQL)."""

from judge.store.db import make_engine, session_scope, upgrade
from judge.store.models import (
    AddressState,
    Base,
    InboxMessage,
    InboxState,
    OutboxMessage,
    OutboxState,
    ReplyCount,
)

__all__ = [
    "AddressState",
    "Base",
    "InboxMessage",
    "InboxState",
    "OutboxMessage",
    "OutboxState",
    "ReplyCount",
    "make_engine",
    "session_scope",
    "upgrade",
]
