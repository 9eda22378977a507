"""The inbox: raw mails are committed here before anything reads them or any server is answered.

Re-delivery is harmless: a mail whose Message-ID or exact bytes are already stored is not stored
again, so its orders are never applied twice.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32

from sqlalchemy import Engine, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.clock import now
from judge.store.db import session_scope
from judge.store.models import InboxMessage, InboxState

_ANGLE = re.compile(r"<([^<>\s]+)>")


def message_id_of(raw: bytes) -> str | None:
    """The mail's Message-ID without angle brackets, or None if it has none worth trusting."""
    try:
        headers = BytesHeaderParser(policy=compat32).parsebytes(raw, headersonly=True)
        value = headers.get("Message-ID")
    except Exception:  # a header block too broken to parse has no usable Message-ID
        return None
    if value is None:
        return None
    text = str(value).strip()
    found = _ANGLE.search(text)
    ident = found.group(1) if found else text.split()[0] if text.split() else ""
    return ident[:998] or None


def find_duplicate(session: Session, message_id: str | None, digest: str) -> int | None:
    """The id of a stored mail with this Message-ID or these bytes, if there is one."""
    condition = InboxMessage.sha256 == digest
    if message_id is not None:
        condition = or_(condition, InboxMessage.message_id == message_id)
    return session.scalars(select(InboxMessage.id).where(condition).limit(1)).first()


def accept(
    session: Session,
    raw: bytes,
    *,
    source: str,
    envelope_to: str | None = None,
    envelope_from: str | None = None,
) -> tuple[int, bool]:
    """Store one raw mail in the caller's transaction; return (row id, whether it was new).

    The row is durable once the caller commits; only then may the mail be acknowledged.
    """
    digest = hashlib.sha256(raw).hexdigest()
    message_id = message_id_of(raw)
    existing = find_duplicate(session, message_id, digest)
    if existing is not None:
        return existing, False
    row = InboxMessage(
        message_id=message_id,
        sha256=digest,
        raw=raw,
        size=len(raw),
        source=source,
        envelope_from=envelope_from,
        envelope_to=envelope_to,
        received_at=now(),
        state=InboxState.NEW,
        attempts=0,
    )
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
    except IntegrityError:
        # Another process stored the same mail between our look-up and our insert.
        existing = find_duplicate(session, message_id, digest)
        if existing is None:
            raise
        return existing, False
    return row.id, True


def claim_next(
    engine: Engine, *, lease: timedelta, inbox_id: int | None = None
) -> tuple[int, int] | None:
    """Claim the oldest unprocessed mail (or the one given) for `lease`; return (id, attempts so
    far) or None.

    The claim is committed before processing starts, so a mail that kills its processor is
    counted even though the processing transaction never commits.
    """
    moment = now()
    with session_scope(engine) as session:
        query = select(InboxMessage).where(
            InboxMessage.state == InboxState.NEW,
            or_(InboxMessage.claimed_until.is_(None), InboxMessage.claimed_until <= moment),
        )
        if inbox_id is not None:
            query = query.where(InboxMessage.id == inbox_id)
        row = session.scalars(
            query.order_by(InboxMessage.id).limit(1).with_for_update(skip_locked=True)
        ).first()
        if row is None:
            return None
        row.attempts += 1
        row.claimed_until = moment + lease
        return row.id, row.attempts


def lock_for_processing(session: Session, inbox_id: int) -> InboxMessage | None:
    """Lock a claimed row for its processing transaction; None if it is no longer waiting.

    This waits for the lock rather than skipping: the row is ours by its claim, and another
    processor's claim query may hold the row lock for a moment after rechecking the claim.
    """
    return session.scalars(
        select(InboxMessage)
        .where(InboxMessage.id == inbox_id, InboxMessage.state == InboxState.NEW)
        .with_for_update()
    ).first()


def held(session: Session) -> list[InboxMessage]:
    """Mails the processor failed on, oldest first."""
    return list(
        session.scalars(
            select(InboxMessage)
            .where(InboxMessage.state == InboxState.HELD)
            .order_by(InboxMessage.id)
        )
    )


def release(session: Session, inbox_id: int) -> bool:
    """Put a held mail back in the queue for another try; False if there is no such held mail."""
    row = session.get(InboxMessage, inbox_id, with_for_update=True)
    if row is None or row.state != InboxState.HELD:
        return False
    row.state = InboxState.NEW
    row.attempts = 0
    row.claimed_until = None
    row.error = None
    row.outcome = None
    row.processed_at = None
    return True


def release_claims(session: Session) -> int:
    """Drop every claim: used at start on SQLite, where no other judge process can hold one."""
    rows = session.scalars(
        select(InboxMessage).where(
            InboxMessage.state == InboxState.NEW, InboxMessage.claimed_until.is_not(None)
        )
    ).all()
    for row in rows:
        row.claimed_until = None
    return len(rows)
