"""The outbox: every mail the judge sends is first a row here, written in the transaction that
caused it, with its Message-ID fixed at that moment so a resend is recognisably the same mail.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP, SMTPUTF8
from email.utils import format_datetime, make_msgid

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session

from judge.clock import now
from judge.mail.loopguard import LOOP_HEADER
from judge.store.db import session_scope
from judge.store.models import AddressState, OutboxMessage, OutboxState


@dataclass(frozen=True)
class Identity:
    """Who the judge's mail comes from."""

    address: str
    name: str = ""

    @property
    def domain(self) -> str:
        """The domain used for the judge's Message-IDs."""
        return self.address.rsplit("@", 1)[-1] or "localhost"


def compose(
    identity: Identity,
    *,
    to: str,
    subject: str,
    body: str,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    auto_submitted: str = "auto-replied",
) -> EmailMessage:
    """Build one mail with every header the judge's mail carries."""
    # A non-ASCII address cannot be written as an encoded word; such mail goes as SMTPUTF8.
    message = EmailMessage(policy=SMTP if to.isascii() else SMTPUTF8)
    local, _, domain = identity.address.rpartition("@")
    message["From"] = Address(identity.name, local, domain) if identity.name else identity.address
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(now())
    message["Message-ID"] = make_msgid(domain=identity.domain)
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        chain = [ref for ref in references if ref != in_reply_to] + [in_reply_to]
        message["References"] = " ".join(chain[-20:])
    message["Auto-Submitted"] = auto_submitted
    message["X-Auto-Response-Suppress"] = "All"
    message[LOOP_HEADER] = identity.address
    message.set_content(body)
    return message


def enqueue(
    session: Session,
    identity: Identity,
    *,
    kind: str,
    to: str,
    subject: str,
    body: str,
    inbox_id: int | None = None,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    auto_submitted: str = "auto-replied",
) -> OutboxMessage:
    """Write one outgoing mail in the caller's transaction; it is sent only if that commits."""
    message = compose(
        identity,
        to=to,
        subject=subject,
        body=body,
        in_reply_to=in_reply_to,
        references=references,
        auto_submitted=auto_submitted,
    )
    moment = now()
    row = OutboxMessage(
        message_id=str(message["Message-ID"]).strip(),
        inbox_id=inbox_id,
        kind=kind,
        envelope_from=identity.address,
        to_addr=to,
        subject=subject,
        raw=message.as_bytes(),
        created_at=moment,
        state=OutboxState.PENDING,
        attempts=0,
        next_attempt_at=moment,
    )
    session.add(row)
    session.flush()
    return row


def claim_due(engine: Engine, *, lease: timedelta) -> OutboxMessage | None:
    """Claim the next mail due for sending for `lease`; committed before the relay is spoken to,
    so a sender that dies mid-send leaves the mail to be sent again (at least once).
    """
    moment = now()
    with session_scope(engine) as session:
        row = session.scalars(
            select(OutboxMessage)
            .where(
                OutboxMessage.state == OutboxState.PENDING,
                OutboxMessage.next_attempt_at <= moment,
                or_(OutboxMessage.claimed_until.is_(None), OutboxMessage.claimed_until <= moment),
            )
            .order_by(OutboxMessage.next_attempt_at, OutboxMessage.id)
            .limit(1)
            .with_for_update(skip_locked=True)
        ).first()
        if row is None:
            return None
        row.attempts += 1
        row.claimed_until = moment + lease
        session.flush()
        session.expunge(row)
        return row


def mark_sent(engine: Engine, outbox_id: int, via: str) -> None:
    """Record that the relay (or the Maildir) took the mail."""
    with session_scope(engine) as session:
        row = session.get(OutboxMessage, outbox_id)
        if row is None:
            return
        row.state = OutboxState.SENT
        row.sent_at = now()
        row.sent_via = via
        row.claimed_until = None
        row.last_error = None


def mark_retry(engine: Engine, outbox_id: int, error: str, at: datetime) -> None:
    """Record a temporary failure and when to try again."""
    with session_scope(engine) as session:
        row = session.get(OutboxMessage, outbox_id)
        if row is None:
            return
        row.last_error = error
        row.next_attempt_at = at
        row.claimed_until = None


def mark_failed(engine: Engine, outbox_id: int, error: str, *, permanent: bool) -> None:
    """Give a mail up; a permanent refusal is also recorded against its address."""
    with session_scope(engine) as session:
        row = session.get(OutboxMessage, outbox_id)
        if row is None:
            return
        row.state = OutboxState.FAILED
        row.last_error = error
        row.claimed_until = None
        record_failure(session, row.to_addr, error, permanent=permanent)


def record_failure(session: Session, address: str, error: str, *, permanent: bool) -> None:
    """Count a failed delivery to `address`, keeping the text of the last permanent refusal."""
    key = address.strip().lower()
    state = session.get(AddressState, key, with_for_update=True)
    if state is None:
        state = AddressState(address=key, failures=0)
        session.add(state)
    state.failures = (state.failures or 0) + 1
    if permanent:
        state.permanent_failure = error
        state.failed_at = now()


def address_state(session: Session, address: str) -> AddressState | None:
    """What is known about deliveries to `address`."""
    return session.get(AddressState, address.strip().lower())
