"""Telling the judge's other processes that rows wait for them: PostgreSQL's NOTIFY, sent by the
transaction that wrote the rows, so a listener hears of them exactly when they become visible.

Within one process the runners wake each other directly (judge.serve); this is for the roles run
as separate processes on one PostgreSQL (`judge serve --only ROLE`), which otherwise learn of each
other's rows only at their next poll. Nothing is sent on SQLite, where one process runs every
role. A notification is only a hint to look now: the rows themselves are the truth, and the
runners still poll, so a notification lost (a listener reconnecting) costs latency, never mail.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session, sessionmaker

# A mail is waiting for the processor: newly stored, released from hold, or given back.
INBOX = "judge_inbox"
# A mail is waiting for the sender: newly written, or given back by a stopping sender.
OUTBOX = "judge_outbox"
# A mail was processed: it may have completed a phase's orders, which the scheduler acts on.
PROCESSED = "judge_processed"
CHANNELS = (INBOX, OUTBOX, PROCESSED)

_PENDING = "judge_notify_pending"
_token: tuple[int, str] | None = None


def process_token() -> str:
    """What this process writes as the payload of its notifications, so that its own listener
    can pass them over (its runners were already woken in-process). New after a fork."""
    global _token
    pid = os.getpid()
    if _token is None or _token[0] != pid:
        _token = (pid, f"{pid}-{secrets.token_hex(6)}")
    return _token[1]


def notify(session: Session, channel: str) -> None:
    """Send `channel` when the session's transaction commits (once, however often asked); not at
    all if it rolls back, nor on SQLite."""
    if session.get_bind().dialect.name != "postgresql":
        return
    session.info.setdefault(_PENDING, set()).add(channel)


def _send_pending(session: Session) -> None:
    pending: set[str] | None = session.info.pop(_PENDING, None)
    if not pending:
        return
    token = process_token()
    # pg_notify inside the transaction: PostgreSQL delivers it at the commit, and only then.
    for channel in sorted(pending):
        session.execute(select(func.pg_notify(channel, token)))


def _forget_pending(session: Session, *_: Any) -> None:
    session.info.pop(_PENDING, None)


def install(maker: sessionmaker[Session]) -> None:
    """Make the sessions of `maker` send their pending notifications as they commit."""
    event.listen(maker, "before_commit", _send_pending)
    event.listen(maker, "after_rollback", _forget_pending)
