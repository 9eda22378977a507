"""The inbox: raw mails are committed here before anything reads them or any server is answered.

Re-delivery is harmless: a mail whose Message-ID or exact bytes are already stored is not stored
again, so its orders are never applied twice.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Any

from sqlalchemy import Engine, Table, bindparam, or_, select, update
from sqlalchemy.orm import Session

from judge.clock import now
from judge.store import notify
from judge.store.db import session_scope, upsert
from judge.store.models import InboxMessage, InboxState

_ANGLE = re.compile(r"<([^<>\s]+)>")
_INBOX: Table = InboxMessage.__table__  # type: ignore[assignment]


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

    The row is durable once the caller commits; only then may the mail be acknowledged. The
    commit also tells processors in other processes (judge.store.notify).
    """
    digest = hashlib.sha256(raw).hexdigest()
    message_id = message_id_of(raw)
    # One statement: a mail whose Message-ID or bytes are already stored (by us earlier, or by
    # another process a moment ago) is not inserted and returns nothing.
    inserted = session.execute(
        _accept_statement(session),
        {
            "message_id": message_id,
            "sha256": digest,
            "raw": raw,
            "size": len(raw),
            "source": source,
            "envelope_from": envelope_from,
            "envelope_to": envelope_to,
            "received_at": now(),
        },
    ).scalar()
    if inserted is not None:
        notify.notify(session, notify.INBOX)
        return inserted, True
    existing = find_duplicate(session, message_id, digest)
    if existing is None:
        raise RuntimeError("the inbox refused a mail that matches no stored mail")
    return existing, False


_ACCEPT: dict[str, Any] = {}


def _accept_statement(session: Session) -> Any:
    """The INSERT ... ON CONFLICT DO NOTHING of `accept`, built once per dialect."""
    name = session.get_bind().dialect.name
    statement = _ACCEPT.get(name)
    if statement is None:
        columns = (
            "message_id",
            "sha256",
            "raw",
            "size",
            "source",
            "envelope_from",
            "envelope_to",
            "received_at",
        )
        statement = _ACCEPT[name] = (
            upsert(session, _INBOX)
            .values(
                {
                    **{column: bindparam(column) for column in columns},
                    "state": InboxState.NEW,
                    "attempts": 0,
                }
            )
            .on_conflict_do_nothing()
            .returning(_INBOX.c.id)
        )
    return statement


@dataclass(frozen=True)
class Claim:
    """A mail claimed for processing: its id and how many times it has been claimed so far."""

    id: int
    attempts: int


def _claim_statement(one: bool) -> Any:
    """UPDATE ... WHERE id = (the oldest waiting row) RETURNING id, attempts: claim in one
    statement; on PostgreSQL rows another processor holds are skipped, not waited for.
    """
    waiting = (
        select(_INBOX.c.id)
        .where(
            _INBOX.c.state == InboxState.NEW,
            or_(_INBOX.c.claimed_until.is_(None), _INBOX.c.claimed_until <= bindparam("moment")),
        )
        .order_by(_INBOX.c.id)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    if one:
        waiting = waiting.where(_INBOX.c.id == bindparam("inbox_id"))
    return (
        update(_INBOX)
        .where(_INBOX.c.id == waiting.scalar_subquery())
        .values(attempts=_INBOX.c.attempts + 1, claimed_until=bindparam("until"))
        .returning(_INBOX.c.id, _INBOX.c.attempts)
    )


# Statements of the processor's hot path, built once (building them costs more than running them).
_CLAIM_OLDEST = _claim_statement(one=False)
_CLAIM_ONE = _claim_statement(one=True)
_LOCK = (
    select(
        _INBOX.c.id,
        _INBOX.c.raw,
        _INBOX.c.envelope_from,
        _INBOX.c.received_at,
        _INBOX.c.envelope_to,
    )
    .where(_INBOX.c.id == bindparam("inbox_id"), _INBOX.c.state == InboxState.NEW)
    .with_for_update()
)
_FINISH = (
    update(_INBOX)
    .where(_INBOX.c.id == bindparam("inbox_id"))
    .values(
        state=bindparam("state"),
        outcome=bindparam("outcome"),
        processed_at=bindparam("processed_at"),
        claimed_until=None,
    )
)
_FINISH_WITH_ERROR = _FINISH.values(error=bindparam("error"))


def _claim(
    session: Session, moment: datetime, lease: timedelta, inbox_id: int | None = None
) -> Claim | None:
    """Claim the oldest waiting mail (or the one given) in the caller's transaction."""
    parameters: dict[str, Any] = {"moment": moment, "until": moment + lease}
    if inbox_id is not None:
        parameters["inbox_id"] = inbox_id
    statement = _CLAIM_OLDEST if inbox_id is None else _CLAIM_ONE
    found = session.execute(statement, parameters).first()
    return None if found is None else Claim(found.id, found.attempts)


def claim_next(
    engine: Engine, *, lease: timedelta, inbox_id: int | None = None
) -> tuple[int, int] | None:
    """Claim the oldest unprocessed mail (or the one given) for `lease`; return (id, attempts so
    far) or None.

    The claim is committed before processing starts, so a mail that kills its processor is
    counted even though the processing transaction never commits.
    """
    with session_scope(engine) as session:
        claim = _claim(session, now(), lease, inbox_id)
    return None if claim is None else (claim.id, claim.attempts)


def claim_following(session: Session, *, lease: timedelta) -> Claim | None:
    """Claim the next waiting mail in the transaction that finishes the one before it.

    The claim is then committed before that mail's own processing starts, as with `claim_next`,
    at no extra commit.
    """
    return _claim(session, now(), lease)


def unclaim(engine: Engine, inbox_id: int) -> None:
    """Give back a claim taken ahead that will not be worked on (the processor is stopping)."""
    with session_scope(engine) as session:
        session.execute(
            update(_INBOX)
            .where(_INBOX.c.id == inbox_id, _INBOX.c.state == InboxState.NEW)
            .values(attempts=_INBOX.c.attempts - 1, claimed_until=None)
        )
        notify.notify(session, notify.INBOX)  # another processor may take it now


@dataclass(frozen=True)
class WaitingMail:
    """What the processor reads of an inbox row it holds."""

    id: int
    raw: bytes
    envelope_from: str | None
    received_at: datetime
    # The envelope recipient (RCPT TO, or Delivered-To as the mail server recorded it): a
    # reply token in it says which seat the mail answers.
    envelope_to: str | None = None


def lock_for_processing(session: Session, inbox_id: int) -> WaitingMail | None:
    """Lock a claimed row for its processing transaction; None if it is no longer waiting.

    This waits for the lock rather than skipping: the row is ours by its claim, and another
    processor's claim query may hold the row lock for a moment after rechecking the claim.
    """
    found = session.execute(_LOCK, {"inbox_id": inbox_id}).first()
    if found is None:
        return None
    return WaitingMail(
        found.id, found.raw, found.envelope_from, found.received_at, found.envelope_to
    )


def finish(
    session: Session, inbox_id: int, state: InboxState, outcome: str, error: str | None = None
) -> None:
    """Mark a row handled (done, ignored or held) in the caller's transaction; a mail done may
    have completed a phase's orders, so the commit tells the scheduler."""
    parameters = {
        "inbox_id": inbox_id,
        "state": state,
        "outcome": outcome,
        "processed_at": now(),
    }
    if state == InboxState.DONE:
        notify.notify(session, notify.PROCESSED)
    if error is None:
        session.execute(_FINISH, parameters)
    else:
        session.execute(_FINISH_WITH_ERROR, {**parameters, "error": error})


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
    notify.notify(session, notify.INBOX)
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
