"""Where the IMAP poller stands in each mailbox folder: its UIDVALIDITY and the last UID stored.

The row is updated in the same transaction that stores the fetched mails, so after a crash the
poller knows exactly which UIDs are already in the inbox and only has to move them, not fetch them.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, String, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from judge.store.db import upsert
from judge.store.models import Base


class ImapFolderState(Base):
    """One watched folder of one account on one server."""

    __tablename__ = "imap_state"

    mailbox: Mapped[str] = mapped_column(String(512), primary_key=True)
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    last_uid: Mapped[int] = mapped_column(BigInteger, default=0)


def lock_state(session: Session, mailbox: str) -> ImapFolderState | None:
    """The folder's row, locked for this transaction (PostgreSQL) so two pollers take turns."""
    return session.scalars(
        select(ImapFolderState)
        .where(ImapFolderState.mailbox == mailbox)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).first()


def read_state(session: Session, mailbox: str) -> tuple[int, int] | None:
    """(uidvalidity, last_uid) for the folder, or None before its first sync."""
    row = session.get(ImapFolderState, mailbox)
    return None if row is None else (row.uidvalidity, row.last_uid)


def record(session: Session, mailbox: str, uidvalidity: int, last_uid: int) -> None:
    """Remember that every UID up to `last_uid` under `uidvalidity` is stored (never goes back).

    The folder's first row is inserted unless it exists: two readers of one mailbox (the judge on
    two hosts) may both store their first mails at once, and the second then waits for the
    first's row instead of failing on it.
    """
    session.execute(
        upsert(session, ImapFolderState.__table__)  # type: ignore[arg-type]
        .values(mailbox=mailbox, uidvalidity=uidvalidity, last_uid=last_uid)
        .on_conflict_do_nothing()
    )
    row = lock_state(session, mailbox)
    assert row is not None
    if row.uidvalidity != uidvalidity:
        row.uidvalidity = uidvalidity
        row.last_uid = last_uid
    else:
        row.last_uid = max(row.last_uid, last_uid)
