"""Tables of the mail daemon: the inbox of raw mails, the outbox, and what is known per address.

Every row here is durable work: runners are loops over these rows, so a killed process loses
nothing and a restarted one carries on from what was committed.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """Stores UTC without a zone and hands back aware UTC datetimes, the same on SQLite and PostgreSQL."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the store; use judge.clock.now()")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    """The declarative base of every table the judge keeps."""


class InboxState(StrEnum):
    """Where an inbox row stands: waiting, handled, held after a failure, or deliberately ignored."""

    NEW = "new"
    DONE = "done"
    HELD = "held"
    IGNORED = "ignored"


class OutboxState(StrEnum):
    """Where an outbox row stands: waiting to go, handed to a relay or Maildir, or given up."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"


class InboxMessage(Base):
    """One mail as it arrived, stored raw before anything reads it."""

    __tablename__ = "inbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str | None] = mapped_column(String(998), unique=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(32))
    envelope_from: Mapped[str | None] = mapped_column(String(998))
    envelope_to: Mapped[str | None] = mapped_column(String(998))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    state: Mapped[str] = mapped_column(String(16), default=InboxState.NEW)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    outcome: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (Index("ix_inbox_state_id", "state", "id"),)


class OutboxMessage(Base):
    """One rendered mail for one recipient, with its Message-ID fixed when the row is written."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    inbox_id: Mapped[int | None] = mapped_column(ForeignKey("inbox.id"), index=True)
    kind: Mapped[str] = mapped_column(String(64))
    envelope_from: Mapped[str] = mapped_column(String(998))
    to_addr: Mapped[str] = mapped_column(String(998))
    subject: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    state: Mapped[str] = mapped_column(String(16), default=OutboxState.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    sent_via: Mapped[str | None] = mapped_column(String(32))
    last_error: Mapped[str | None] = mapped_column(Text)
    # What the mail's picture is drawn from (judge/pictures/step.py), until it is drawn and
    # attached; the sender claims no row that still has one. None: nothing to draw.
    picture: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))

    __table_args__ = (Index("ix_outbox_state_next", "state", "next_attempt_at"),)


class AddressState(Base):
    """What the judge has learnt about an address: a permanent delivery failure, if any."""

    __tablename__ = "addresses"

    address: Mapped[str] = mapped_column(String(998), primary_key=True)
    permanent_failure: Mapped[str | None] = mapped_column(Text)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    failures: Mapped[int] = mapped_column(Integer, default=0)


class ReplyCount(Base):
    """Replies sent to one address on one UTC day, for the daily cap and its single notice."""

    __tablename__ = "reply_counts"

    address: Mapped[str] = mapped_column(String(998), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    notice_sent: Mapped[bool] = mapped_column(Boolean, default=False)


class PasswordFailure(Base):
    """Wrong passwords lately against one seat, one game's GM password, or from one sender
    (`key`: "seat:ID", "gm:GAME-ID", "sender:ADDRESS"), for the back-off of judge.desk.passwords."""

    __tablename__ = "password_failures"

    key: Mapped[str] = mapped_column(String(998), primary_key=True)
    failures: Mapped[int] = mapped_column(Integer, default=0)
    last_failed_at: Mapped[datetime] = mapped_column(UTCDateTime)
