"""The outbox: every mail the judge sends is first a row here, written in the transaction that
caused it, with its Message-ID fixed at that moment so a resend is recognisably the same mail.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP, SMTPUTF8
from email.utils import format_datetime, make_msgid
from functools import lru_cache
from typing import Any

from sqlalchemy import Engine, Table, bindparam, insert, or_, select, update
from sqlalchemy.orm import Session

from judge.clock import now
from judge.mail.headers import DISPLAY_NAME, header_value
from judge.mail.loopguard import LOOP_HEADER, ReplyDecision, sender_key
from judge.store import notify
from judge.store.db import session_scope, upsert
from judge.store.models import AddressState, OutboxMessage, OutboxState, ReplyCount

_OUTBOX: Table = OutboxMessage.__table__  # type: ignore[assignment]
_REPLY_COUNTS: Table = ReplyCount.__table__  # type: ignore[assignment]


@dataclass(frozen=True)
class Identity:
    """Who the judge's mail comes from."""

    address: str
    name: str = ""

    @property
    def domain(self) -> str:
        """The domain used for the judge's Message-IDs."""
        return self.address.rsplit("@", 1)[-1] or "localhost"


def _safe_values(
    identity: Identity,
    to: str,
    subject: str,
    in_reply_to: str | None,
    reply_to: str | None,
    references: Iterable[str],
) -> tuple[str, str, str | None, str | None, tuple[str, ...]]:
    """The caller's header values through `header_value` (text cleaned, addresses and ids
    checked); the judge's own address is checked too, as it comes from the configuration."""
    header_value("From", identity.address)
    return (
        header_value("To", to),
        header_value("Subject", subject),
        header_value("In-Reply-To", in_reply_to) if in_reply_to else None,
        header_value("Reply-To", reply_to) if reply_to else None,
        tuple(header_value("References", ref) for ref in references),
    )


def _references(in_reply_to: str, references: Iterable[str]) -> str:
    """The References header of an answer: the chain so far ending with the mail answered,
    its last 20 entries (long threads must not grow the header without end)."""
    chain = [ref for ref in references if ref != in_reply_to] + [in_reply_to]
    return " ".join(chain[-20:])


def compose(
    identity: Identity,
    *,
    to: str,
    subject: str,
    body: str,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    auto_submitted: str = "auto-replied",
    reply_to: str | None = None,
    unsubscribe: str | None = None,
) -> EmailMessage:
    """Build one mail with every header the judge's mail carries; `reply_to` is a seat's reply
    address (judge+TOKEN@domain), so the player's answer acts for the seat; `unsubscribe` an
    observer's leave address, offered as a one-click List-Unsubscribe (RFC 2369, RFC 8058).

    Every value passes `header_value` first, so nothing read from a mail becomes a header.
    """
    to, subject, in_reply_to, reply_to, references = _safe_values(
        identity, to, subject, in_reply_to, reply_to, references
    )
    # A non-ASCII address cannot be written as an encoded word; such mail goes as SMTPUTF8.
    message = EmailMessage(policy=SMTP if (to + (reply_to or "")).isascii() else SMTPUTF8)
    local, _, domain = identity.address.rpartition("@")
    name = header_value(DISPLAY_NAME, identity.name)
    message["From"] = Address(name, local, domain) if name else identity.address
    message["To"] = to
    if reply_to:
        message["Reply-To"] = reply_to
    if unsubscribe:
        message["List-Unsubscribe"] = f"<mailto:{unsubscribe}?subject=unobserve>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Subject"] = subject
    message["Date"] = format_datetime(now())
    message["Message-ID"] = make_msgid(domain=identity.domain)
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = _references(in_reply_to, references)
    message["Auto-Submitted"] = header_value("Auto-Submitted", auto_submitted)
    message["X-Auto-Response-Suppress"] = "All"
    message[LOOP_HEADER] = header_value(LOOP_HEADER, identity.address)
    message.set_content(body)
    return message


# A recipient the header needs no quoting or encoding for: dot-atom local part, ASCII domain.
_PLAIN_ADDRESS = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9.-]+"
)
# Characters splitlines() breaks an ASCII text at besides "\n"; such bodies take the slow path.
_ODD_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e]")
# Lines are folded to this length, as the stdlib's SMTP policy does (RFC 5322's soft limit).
_FOLD_AT = 78
_CONTENT_HEADERS = (
    'Content-Type: text/plain; charset="utf-8"\r\n'
    "Content-Transfer-Encoding: 7bit\r\n"
    "MIME-Version: 1.0\r\n"
)


def _plain(value: str) -> bool:
    """Whether a header value is printable ASCII that no reader would decode as encoded words."""
    return value.isascii() and value.isprintable() and "=?" not in value


def _fold(name: str, value: str) -> str | None:
    """`Name: value` folded at spaces into lines of at most 78 characters, or None where that
    cannot be done without changing the value (leading, trailing or doubled spaces, long words).
    """
    line = f"{name}: {value}" if value else f"{name}:"
    if len(line) <= _FOLD_AT:
        return line + "\r\n"
    if value != value.strip() or "  " in value:
        return None
    if len(value) + 1 <= _FOLD_AT:  # a value that fits on a line of its own goes there whole
        return f"{name}:\r\n {value}\r\n"
    lines: list[str] = []
    current = f"{name}:"
    for word in value.split(" "):
        if len(current) + 1 + len(word) <= _FOLD_AT:
            current += " " + word
        elif len(word) + 1 > _FOLD_AT or current == f"{name}:":
            return None
        else:
            lines.append(current)
            current = " " + word
    lines.append(current)
    return "\r\n".join(lines) + "\r\n"


@lru_cache(maxsize=16)
def _from_header(identity: Identity) -> str:
    """The judge's From: line, folded and encoded by the stdlib once per identity."""
    local, _, domain = identity.address.rpartition("@")
    name = header_value(DISPLAY_NAME, identity.name)
    value = Address(name, local, domain) if name else header_value("From", identity.address)
    message = EmailMessage(policy=SMTP)
    message["From"] = value  # compose checked the address and cleaned the name
    return SMTP.fold("From", message["From"])


def _fast_bytes(
    identity: Identity,
    to: str,
    subject: str,
    body: str,
    in_reply_to: str | None,
    references: Iterable[str],
    auto_submitted: str,
    reply_to: str | None = None,
) -> tuple[str, bytes] | None:
    """`compose_bytes` written by hand, or None where the stdlib must do it."""
    to, subject, in_reply_to, reply_to, references = _safe_values(
        identity, to, subject, in_reply_to, reply_to, references
    )
    if not (
        _PLAIN_ADDRESS.fullmatch(to)
        and (not reply_to or _PLAIN_ADDRESS.fullmatch(reply_to))
        and identity.address.isascii()
        and body.isascii()
        and _ODD_LINE_BREAKS.search(body) is None
    ):
        return None
    lines = body.splitlines()
    if any(len(line) > _FOLD_AT for line in lines):
        return None  # the stdlib would choose quoted-printable or base64
    message_id = make_msgid(domain=identity.domain)
    fields = [("Subject", subject)]
    if in_reply_to:
        fields += [
            ("In-Reply-To", in_reply_to),
            ("References", _references(in_reply_to, references)),
        ]
    fields.append(("Auto-Submitted", header_value("Auto-Submitted", auto_submitted)))
    folded: dict[str, str] = {}
    for name, value in fields:
        line = _fold(name, value) if _plain(value) else None
        if line is None:
            return None
        folded[name] = line
    if not _plain(message_id) or not _plain(identity.address):
        return None
    text = "".join(
        (
            _from_header(identity),
            f"To: {to}\r\n",
            f"Reply-To: {reply_to}\r\n" if reply_to else "",
            folded["Subject"],
            f"Date: {format_datetime(now())}\r\n",
            f"Message-ID: {message_id}\r\n",
            folded.get("In-Reply-To", ""),
            folded.get("References", ""),
            folded["Auto-Submitted"],
            "X-Auto-Response-Suppress: All\r\n",
            f"{LOOP_HEADER}: {identity.address}\r\n",
            _CONTENT_HEADERS,
            "\r\n",
            "".join(line + "\r\n" for line in lines) or "\r\n",
        )
    )
    return message_id, text.encode("ascii")


def compose_bytes(
    identity: Identity,
    *,
    to: str,
    subject: str,
    body: str,
    in_reply_to: str | None = None,
    references: Iterable[str] = (),
    auto_submitted: str = "auto-replied",
    reply_to: str | None = None,
    unsubscribe: str | None = None,
) -> tuple[str, bytes]:
    """The mail `compose` builds, as (Message-ID, bytes), written directly where every header is
    plain ASCII and the body is short-lined ASCII text (the usual reply), which is the same bytes
    the stdlib writes at a fraction of its cost; anything else goes through `compose`.
    """
    fast = (
        None
        if unsubscribe
        else _fast_bytes(
            identity, to, subject, body, in_reply_to, references, auto_submitted, reply_to
        )
    )
    if fast is not None:
        return fast
    message = compose(
        identity,
        to=to,
        subject=subject,
        body=body,
        in_reply_to=in_reply_to,
        references=references,
        auto_submitted=auto_submitted,
        reply_to=reply_to,
        unsubscribe=unsubscribe,
    )
    return str(message["Message-ID"]).strip(), message.as_bytes()


@dataclass(frozen=True)
class Attachment:
    """A file sent with a mail: its name (shown by mail programs), MIME type and bytes."""

    filename: str
    maintype: str
    subtype: str
    data: bytes


# Header lines of a single-part mail that describe its body: they move into the body's own part
# when the mail becomes multipart.
_BODY_HEADERS = (b"content-type:", b"content-transfer-encoding:", b"mime-version:")
_FILENAME_WORD = re.compile(r"[^A-Za-z0-9._-]")


def with_attachments(raw: bytes, attachments: Iterable[Attachment]) -> bytes:
    """A composed mail (`compose_bytes`'s bytes) with files attached: the same headers, byte for
    byte (the same Message-ID, so the mail is still the one its row promised), and a
    multipart/mixed body whose first part is the text as it was. Each attachment's name passes
    `header_value` like every other header value, and is kept to letters, digits, dots,
    hyphens and underscores, so no quoting or encoding is needed."""
    files = list(attachments)
    if not files:
        return raw
    head, separator, body = raw.partition(b"\r\n\r\n")
    if not separator:
        raise ValueError("not a composed mail: no blank line after the headers")
    fields: list[list[bytes]] = []
    for line in head.split(b"\r\n"):
        if line[:1] in (b" ", b"\t") and fields:
            fields[-1].append(line)  # a folded header's continuation
        else:
            fields.append([line])
    kept = [b"\r\n".join(f) for f in fields if not f[0].lower().startswith(_BODY_HEADERS)]
    body_headers = [
        b"\r\n".join(f)
        for f in fields
        if f[0].lower().startswith(_BODY_HEADERS) and not f[0].lower().startswith(b"mime-version:")
    ]
    boundary = "=_judge_" + hashlib.sha256(raw).hexdigest()[:32]
    parts = [
        b"\r\n".join([*kept, b"MIME-Version: 1.0"]),
        f'Content-Type: multipart/mixed; boundary="{boundary}"'.encode("ascii"),
        b"",
        b"This is a multi-part message in MIME format.",
        f"--{boundary}".encode("ascii"),
        *body_headers,
        b"",
        body,  # its last line break is the one the boundary line takes (RFC 2046)
    ]
    for file in files:
        name = _FILENAME_WORD.sub("-", header_value("Subject", file.filename))[:80] or "picture"
        content = f"{file.maintype}/{file.subtype}"
        if not re.fullmatch(r"[a-z]+/[a-z0-9.+-]+", content):
            raise ValueError(f"not a MIME type: {content!r}")
        encoded = base64.encodebytes(file.data).replace(b"\n", b"\r\n").rstrip(b"\r\n")
        parts += [
            f"--{boundary}".encode("ascii"),
            f'Content-Type: {content}; name="{name}"'.encode("ascii"),
            b"Content-Transfer-Encoding: base64",
            f'Content-Disposition: attachment; filename="{name}"'.encode("ascii"),
            b"",
            encoded,
        ]
    parts += [f"--{boundary}--".encode("ascii"), b""]
    return b"\r\n".join(parts)


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
    reply_to: str | None = None,
    thread: str | None = None,
    unsubscribe: str | None = None,
    picture: dict[str, Any] | None = None,
) -> OutboxMessage:
    """Write one outgoing mail in the caller's transaction; it is sent only if that commits.

    `thread` names the game the mail is about: its mails all reference the game's thread root
    (`game_thread_id`), so a reader's mail program files the game's mails together, answers to
    the reader's own mails included. `picture` is what the mail's picture is drawn from: the
    row waits for the picture step (judge/pictures/step.py), which attaches it, before it is
    sent.
    """
    if thread is not None:
        root = game_thread_id(identity, thread)
        references = [root, *(r for r in references if r != root)]
        in_reply_to = in_reply_to or root
    message_id, raw = compose_bytes(
        identity,
        to=to,
        subject=subject,
        body=body,
        in_reply_to=in_reply_to,
        references=references,
        auto_submitted=auto_submitted,
        reply_to=reply_to,
        unsubscribe=unsubscribe,
    )
    moment = now()
    values: dict[str, Any] = {
        "message_id": message_id,
        "inbox_id": inbox_id,
        "kind": kind,
        "envelope_from": identity.address,
        "to_addr": to,
        "subject": subject,
        "raw": raw,
        "created_at": moment,
        "state": OutboxState.PENDING,
        "attempts": 0,
        "next_attempt_at": moment,
        "picture": picture,
    }
    # A Core INSERT: the ORM's unit of work costs more than the rest of a reply together.
    values["id"] = session.execute(_INSERT, values).scalar_one()
    notify.notify(session, notify.OUTBOX)  # senders in other processes hear of it at the commit
    return OutboxMessage(**values)


_INSERT = insert(_OUTBOX).returning(_OUTBOX.c.id)
_THREAD_WORD = re.compile(r"[^A-Za-z0-9_-]")


def game_thread_id(identity: Identity, game: str) -> str:
    """The Message-ID every mail of a game refers to as its thread's root. No mail carries it
    as its own Message-ID; mail programs thread by References and keep a missing root as the
    thread's head (RFC 5256's REFERENCES threading, JWZ's algorithm)."""
    return f"<game.{_THREAD_WORD.sub('-', game.lower())}@{identity.domain}>"


# What the sender needs of a claimed row (the raw mail, where it goes, how often it was tried).
_CLAIMED = (
    _OUTBOX.c.id,
    _OUTBOX.c.message_id,
    _OUTBOX.c.envelope_from,
    _OUTBOX.c.to_addr,
    _OUTBOX.c.raw,
    _OUTBOX.c.created_at,
    _OUTBOX.c.attempts,
)


# The sender's statements, built once (building them costs more than running them). The claim
# is one UPDATE ... WHERE id = (the next due row); on PostgreSQL rows another sender holds are
# skipped, not waited for.
_DUE = (
    select(_OUTBOX.c.id)
    .where(
        _OUTBOX.c.state == OutboxState.PENDING,
        _OUTBOX.c.next_attempt_at <= bindparam("moment"),
        or_(_OUTBOX.c.claimed_until.is_(None), _OUTBOX.c.claimed_until <= bindparam("moment")),
        _OUTBOX.c.picture.is_(None),  # a mail whose picture is not drawn yet waits for it
    )
    .order_by(_OUTBOX.c.next_attempt_at, _OUTBOX.c.id)
    .limit(1)
    .with_for_update(skip_locked=True)
)
_CLAIM = (
    update(_OUTBOX)
    .where(_OUTBOX.c.id == _DUE.scalar_subquery())
    .values(attempts=_OUTBOX.c.attempts + 1, claimed_until=bindparam("until"))
    .returning(*_CLAIMED)
)
_MARK_SENT = (
    update(_OUTBOX)
    .where(_OUTBOX.c.id == bindparam("outbox_id"))
    .values(
        state=OutboxState.SENT,
        sent_at=bindparam("sent_at"),
        sent_via=bindparam("sent_via"),
        claimed_until=None,
        last_error=None,
    )
)


def _claim_due(session: Session, lease: timedelta) -> OutboxMessage | None:
    """Claim the next due mail in one statement, in the caller's transaction."""
    moment = now()
    found = session.execute(_CLAIM, {"moment": moment, "until": moment + lease}).first()
    return None if found is None else OutboxMessage(**found._mapping)


def claim_due(engine: Engine, *, lease: timedelta) -> OutboxMessage | None:
    """Claim the next mail due for sending for `lease`; committed before the relay is spoken to,
    so a sender that dies mid-send leaves the mail to be sent again (at least once).
    """
    with session_scope(engine) as session:
        return _claim_due(session, lease)


def mark_sent(
    engine: Engine, outbox_id: int, via: str, *, claim_next: timedelta | None = None
) -> OutboxMessage | None:
    """Record that the relay (or the Maildir) took the mail.

    With `claim_next` (a lease) the same transaction also claims the next due mail and returns
    it, so a busy sender commits once per mail; the claim is still committed before that mail
    goes to the relay.
    """
    with session_scope(engine) as session:
        session.execute(_MARK_SENT, {"outbox_id": outbox_id, "sent_at": now(), "sent_via": via})
        return None if claim_next is None else _claim_due(session, claim_next)


def unclaim(engine: Engine, outbox_id: int) -> None:
    """Give back a claim taken ahead that will not be sent now (the sender is stopping)."""
    with session_scope(engine) as session:
        session.execute(
            update(_OUTBOX)
            .where(_OUTBOX.c.id == outbox_id, _OUTBOX.c.state == OutboxState.PENDING)
            .values(attempts=_OUTBOX.c.attempts - 1, claimed_until=None)
        )
        notify.notify(session, notify.OUTBOX)  # another sender may take it now


def mark_retry(engine: Engine, outbox_id: int, error: str, at: datetime) -> None:
    """Record a temporary failure and when to try again."""
    with session_scope(engine) as session:
        row = session.get(OutboxMessage, outbox_id)
        if row is None:
            return
        row.last_error = error
        row.next_attempt_at = at
        row.claimed_until = None


def wake_waiting(engine: Engine) -> int:
    """Make every mail waiting for a retry due now (the relay answers again); return how many.

    Only mails tried before are moved: a row is never written with a later first attempt.
    """
    moment = now()
    with session_scope(engine) as session:
        result = session.execute(
            update(_OUTBOX)
            .where(
                _OUTBOX.c.state == OutboxState.PENDING,
                _OUTBOX.c.attempts > 0,
                _OUTBOX.c.next_attempt_at > moment,
            )
            .values(next_attempt_at=moment)
        )
        woken = int(result.rowcount or 0)  # type: ignore[attr-defined]
        if woken:
            notify.notify(session, notify.OUTBOX)  # senders in other processes take them now
        return woken


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


def count_reply(session: Session, address: str, limit: int) -> ReplyDecision:
    """Count one reply to `address` today and say whether it may go, or the one notice, or
    nothing (the daily cap, in one statement while under the cap). Runs in the caller's transaction, so a rolled-back mail leaves the count unchanged.
    The count is the sender's (`sender_key`: plus-addresses are one), whatever address is answered.
    """
    key = sender_key(address)
    day = now().date()
    statement = _count_statement(session, capped=limit > 0)
    counted = session.execute(statement, {"address": key, "day": day, "limit": limit}).first()
    if counted is not None:
        return ReplyDecision.SEND
    noticed = session.execute(_NOTICE, {"key_address": key, "key_day": day}).first()
    return ReplyDecision.SILENT if noticed is None else ReplyDecision.NOTICE


def count_mails(session: Session, address: str, mails: int) -> None:
    """Add `mails` the judge sends to others because of a mail from `address` (a game's start,
    results, notices) to the sender's count for today. They are never held back (they follow
    from a change the mail made), but they use up the cap, so the sender's own replies and
    press stop sooner."""
    if mails <= 0:
        return
    statement = _add_statement(session)
    session.execute(statement, {"address": sender_key(address), "day": now().date(), "n": mails})


def mails_counted(session: Session, address: str) -> int:
    """The mails counted today against the sender of `address` (0 before the first)."""
    count = session.scalar(
        select(_REPLY_COUNTS.c.count).where(
            _REPLY_COUNTS.c.address == sender_key(address),
            _REPLY_COUNTS.c.day == now().date(),
        )
    )
    return int(count or 0)


_ADD: dict[str, Any] = {}


def _add_statement(session: Session) -> Any:
    """INSERT (count n) ON CONFLICT DO UPDATE count + n, built once per dialect."""
    key = session.get_bind().dialect.name
    statement = _ADD.get(key)
    if statement is None:
        statement = _ADD[key] = (
            upsert(session, _REPLY_COUNTS)
            .values(
                address=bindparam("address"),
                day=bindparam("day"),
                count=bindparam("n"),
                notice_sent=False,
            )
            .on_conflict_do_update(
                index_elements=[_REPLY_COUNTS.c.address, _REPLY_COUNTS.c.day],
                set_={"count": _REPLY_COUNTS.c.count + bindparam("n")},
            )
        )
    return statement


_COUNT: dict[tuple[str, bool], Any] = {}
_NOTICE = (
    update(_REPLY_COUNTS)
    .where(
        _REPLY_COUNTS.c.address == bindparam("key_address"),
        _REPLY_COUNTS.c.day == bindparam("key_day"),
        _REPLY_COUNTS.c.notice_sent.is_(False),
    )
    .values(notice_sent=True)
    .returning(_REPLY_COUNTS.c.address)
)


def _count_statement(session: Session, *, capped: bool) -> Any:
    """INSERT (count 1) ON CONFLICT DO UPDATE count + 1 [while under the cap] RETURNING count,
    built once per dialect: returns a row exactly when the reply may go.
    """
    key = (session.get_bind().dialect.name, capped)
    statement = _COUNT.get(key)
    if statement is None:
        statement = _COUNT[key] = (
            upsert(session, _REPLY_COUNTS)
            .values(address=bindparam("address"), day=bindparam("day"), count=1, notice_sent=False)
            .on_conflict_do_update(
                index_elements=[_REPLY_COUNTS.c.address, _REPLY_COUNTS.c.day],
                set_={"count": _REPLY_COUNTS.c.count + 1},
                where=_REPLY_COUNTS.c.count < bindparam("limit") if capped else None,
            )
            .returning(_REPLY_COUNTS.c.count)
        )
    return statement
