"""The processor: one inbox row, one transaction, which also writes every mail the row causes.

A mail that makes the processor fail is held with its error (and the keeper told) in a second
transaction, after the first was rolled back: never lost, never retried in a loop. A mail whose
processing was cut short (its claim taken before and never finished: the process died, was
killed or restarted) is no poison mail for that: it is run again in a child process of its own
(`_process_isolated`), and held only when that child dies or overruns the lease while the
processor lives on, which is the mail's own doing. Interruptions by the processor's own death
are never counted against a mail (a storm of kills holds nothing).
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.context
import os
import threading
import traceback
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from judge.config import Config
from judge.desk import commands as desk
from judge.desk.answer import render_reply
from judge.desk.replies import Reply, Where
from judge.identity import PasswordsNeeded, PasswordWork, reply_to_address
from judge.mail.loopguard import ReplyDecision, automated_reason
from judge.mail.mime import ReadMail, read_mail
from judge.render import render_mail
from judge.store.db import make_engine, session_scope
from judge.store.game_queries import observer_leave_token
from judge.store.inbox import (
    Claim,
    WaitingMail,
    claim_following,
    claim_next,
    finish,
    lock_for_processing,
    unclaim,
)
from judge.store.models import InboxState
from judge.store.outbox import Identity, count_mails, count_reply, enqueue

log = logging.getLogger("judge.processor")


@dataclass(frozen=True)
class ProcessorSettings:
    """What the processor needs to know about the judge and its limits."""

    identity: Identity
    keeper: str = ""
    replies_per_day: int = 100
    lease: timedelta = timedelta(minutes=5)

    @classmethod
    def from_config(cls, config: Config) -> ProcessorSettings:
        p = config.processor
        return cls(
            identity=Identity(config.judge.address, config.judge.name),
            keeper=config.judge.keeper,
            replies_per_day=p.replies_per_day,
            lease=timedelta(seconds=p.claim_seconds),
        )

    @property
    def template_context(self) -> dict[str, str]:
        """What every template may use about the judge itself."""
        return {"judge_name": self.identity.name, "judge_address": self.identity.address}


def process_next(
    engine: Engine, settings: ProcessorSettings, inbox_id: int | None = None
) -> int | None:
    """Process the oldest waiting mail (or the one given); return its id, or None if none waited."""
    claim = claim_next(engine, lease=settings.lease, inbox_id=inbox_id)
    if claim is None:
        return None
    process_claimed(engine, settings, Claim(*claim))
    return claim[0]


class Processor:
    """`process_next` for a loop that runs while mail waits: the transaction that finishes one
    mail also claims the next, so each mail costs one commit instead of two while its claim is
    still committed before its processing starts (a mail that kills the process is counted).
    """

    def __init__(self, engine: Engine, settings: ProcessorSettings) -> None:
        self.engine = engine
        self.settings = settings
        self.claimed: Claim | None = None

    def step(self) -> int | None:
        """Process the next waiting mail; return its id, or None if none waited."""
        claim, self.claimed = self.claimed, None
        if claim is None:
            found = claim_next(self.engine, lease=self.settings.lease)
            if found is None:
                return None
            claim = Claim(*found)
        self.claimed = process_claimed(self.engine, self.settings, claim, then_claim=True)
        return claim.id

    def release(self) -> None:
        """Give back the claim taken ahead, so a stopping processor leaves no mail waiting on it."""
        claim, self.claimed = self.claimed, None
        if claim is not None:
            unclaim(self.engine, claim.id)


def process_claimed(
    engine: Engine, settings: ProcessorSettings, claim: Claim, *, then_claim: bool = False
) -> Claim | None:
    """Process one claimed mail in one transaction; with `then_claim`, that transaction also
    claims the next waiting mail, which is returned. A mail that needs passwords verified or
    hashed is rolled back, the argon2 work done with no transaction open, and run again.
    """
    if claim.attempts > 1:
        _process_isolated(engine, settings, claim)
        return None
    return _process_here(engine, settings, claim, then_claim=then_claim)


# Exit codes of an isolated child: done (or held by itself), or the database failed.
_CHILD_DONE = 0
_CHILD_DATABASE = 75
_CHILD_BROKEN = 70
# The least time a mail run alone is given before it counts as never ending: a fresh child
# may first wait for the database's writer lock and read the grammars and maps, whatever the
# claim's lease (tests run with leases of two seconds).
_ISOLATED_SECONDS = 60.0
_LOG_FORMAT = "%(asctime)s %(name)s %(levelname)s %(message)s"


def _isolation() -> multiprocessing.context.BaseContext:
    """How a child is made: forked directly where this process runs no other thread (nothing
    can hold a lock the child would need), else from a fork server started clean, since a
    thread of the daemon (the sender, the scheduler) may hold a lock at any instant."""
    method = "fork" if threading.active_count() == 1 else "forkserver"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(["judge.processor"])
    return context


def _isolated_child(url: str, settings: ProcessorSettings, claim: Claim, level: int) -> None:
    """The child's work: its own engine, then the ordinary processing of the one mail."""
    logging.basicConfig(level=level, format=_LOG_FORMAT)
    code = _CHILD_DONE
    try:
        engine = make_engine(url)
        _process_here(engine, settings, claim, then_claim=False)
        engine.dispose()
    except OperationalError:
        code = _CHILD_DATABASE
    except BaseException:  # noqa: BLE001 - the exit code is all a child can say
        log.exception("inbox %d: the process of its own failed", claim.id)
        code = _CHILD_BROKEN
    finally:
        logging.shutdown()
        os._exit(code)


def _process_isolated(engine: Engine, settings: ProcessorSettings, claim: Claim) -> None:
    """Process a mail whose earlier processing was cut short in a child process of its own, so
    that a mail that kills its process (a crash in a library, the memory exhausted) or never
    ends kills the child alone: the processor, alive, holds it. A processor killed meanwhile
    (its child with it, or the child finishing alone) is a restart's interruption, not the
    mail's fault, and counts for nothing."""
    url = engine.url.render_as_string(hide_password=False)
    level = logging.getLogger().getEffectiveLevel()
    child = _isolation().Process(
        target=_isolated_child, args=(url, settings, claim, level), daemon=True
    )
    child.start()
    allowed = max(settings.lease.total_seconds(), _ISOLATED_SECONDS)
    child.join(allowed)
    if child.exitcode is None:
        child.kill()
        child.join()
        hold(
            engine,
            claim.id,
            f"processing this mail took longer than {allowed:.0f} s in a process of its own, "
            "which was stopped; it is held rather than tried again",
            settings,
        )
        return
    if child.exitcode == _CHILD_DONE:
        return
    if child.exitcode == _CHILD_DATABASE:
        log.warning("inbox %d: database error; the mail waits for another try", claim.id)
        return
    how = (
        f"was killed by signal {-child.exitcode}"
        if child.exitcode < 0
        else f"exited with status {child.exitcode}"
    )
    hold(
        engine,
        claim.id,
        f"processing this mail was cut short before ({claim.attempts - 1} times); run again "
        f"in a process of its own, that process {how} while the processor lived on, so the "
        "mail itself stops its processing: it is held rather than tried again",
        settings,
    )


def _process_here(
    engine: Engine, settings: ProcessorSettings, claim: Claim, *, then_claim: bool
) -> Claim | None:
    """process_claimed's work in this process."""
    passwords = PasswordWork()
    try:
        while True:
            try:
                with session_scope(engine) as session:
                    row = lock_for_processing(session, claim.id)
                    if row is not None:
                        process_row(session, row, settings, passwords)
                    if then_claim:
                        return claim_following(session, lease=settings.lease)
                    return None
            except PasswordsNeeded as needed:
                # Rolled back: hash outside any transaction (no writer waits on argon2), then
                # run the mail again with the answers.
                passwords.work_out(needed)
    except OperationalError:
        # The database itself failed (gone, locked, out of space), not this mail: leave the
        # claim to expire so the mail is tried again (in a process of its own: see above).
        log.warning(
            "inbox %d: database error; the mail waits for another try", claim.id, exc_info=True
        )
        raise
    except Exception:
        hold(engine, claim.id, traceback.format_exc(), settings)
    return None


def process_row(
    session: Session,
    row: WaitingMail,
    settings: ProcessorSettings,
    passwords: PasswordWork | None = None,
) -> None:
    """Decide what the mail calls for and write it, all in the caller's transaction; raise
    PasswordsNeeded when `passwords` lacks argon2 work the mail needs (see process_claimed)."""
    mail = read_mail(row.raw)
    where = f"inbox {row.id} from {mail.sender or '(no sender)'} {mail.message_id or ''}".rstrip()
    reason = automated_reason(mail.headers, row.envelope_from, settings.identity.address)
    if reason is None and mail.only_carries_a_mail:
        reason = "a mail that is only another mail (a complaint or feedback loop's copy)"
    if reason is None and mail.sender is None:
        reason = "no From: address to answer"
    if reason is not None:
        finish(session, row.id, InboxState.IGNORED, f"ignored: {reason}")
        log.info("%s: ignored (%s)", where, reason)
        return
    assert mail.sender is not None
    if mail.problem:
        replies = [
            Reply("unreadable", "unreadable", {"problem": mail.problem, "subject": mail.subject})
        ]
    else:
        at_desk = Where(
            session,
            settings.identity.address,
            row.envelope_to,
            row.id,
            passwords=passwords,
            mails_per_day=settings.replies_per_day,
        )
        replies = desk.handle(mail, at_desk)
        if passwords is not None:
            passwords.check_hashed()
    # Mails to others (a game's start, its results, press) follow from what the mail did, so the
    # sender's daily cap does not hold them back (press checks the cap before it is sent), but
    # they count against it, after the sender's own replies. They are written in the desk's
    # order, so the sender's answer ("you play France") goes out before the game's start it
    # caused.
    sent: list[str] = []
    notices = 0
    withheld: list[str] = []
    for wanted in replies:
        if wanted.to is not None:
            notices += 1
            outbox_id = write_notice(
                session, row, wanted, settings, mail if wanted.answering else None
            )
            sent.append(f"{wanted.kind} to {wanted.to} (outbox {outbox_id})")
            continue
        decision = count_reply(session, mail.sender, settings.replies_per_day)
        if decision is ReplyDecision.SEND:
            outbox_id = write_reply(session, row, mail, wanted, settings)
            sent.append(f"{wanted.kind} (outbox {outbox_id})")
            continue
        withheld.append(wanted.kind)
        if decision is ReplyDecision.NOTICE:
            notice = Reply(
                "reply_limit",
                "reply_limit",
                {"limit": settings.replies_per_day, "address": mail.sender},
            )
            outbox_id = write_reply(session, row, mail, notice, settings)
            sent.append(f"reply_limit (outbox {outbox_id})")
    count_mails(session, mail.sender, notices)
    parts = []
    if sent:
        parts.append("replied: " + ", ".join(sent))
    if withheld:
        parts.append("withheld by the daily cap: " + ", ".join(withheld))
    outcome = "; ".join(parts) or "no reply"
    finish(session, row.id, InboxState.DONE, outcome)
    log.info("%s: %s", where, outcome)


def write_reply(
    session: Session, row: WaitingMail, mail: ReadMail, reply: Reply, settings: ProcessorSettings
) -> int:
    """Render one reply to the mail's sender and put it in the outbox, threaded to the mail."""
    assert mail.sender is not None
    return _write(session, row, reply, settings, to=mail.sender, answering=mail)


def write_notice(
    session: Session,
    row: WaitingMail,
    notice: Reply,
    settings: ProcessorSettings,
    answering: ReadMail | None = None,
) -> int:
    """Render one mail the desk sends to someone other than the sender (or to the sender, not
    counted by the daily cap, `answering` the mail when it is its answer) into the outbox."""
    assert notice.to is not None
    return _write(session, row, notice, settings, to=notice.to, answering=answering)


def _write(
    session: Session,
    row: WaitingMail,
    reply: Reply,
    settings: ProcessorSettings,
    *,
    to: str,
    answering: ReadMail | None,
) -> int:
    """One outbox row: an answer to `answering` (auto-replied), or a notice (auto-generated)."""
    rendered = render_reply(reply, settings.template_context)
    written = enqueue(
        session,
        settings.identity,
        kind=reply.kind,
        to=to,
        subject=rendered.subject,
        body=rendered.body,
        inbox_id=row.id,
        in_reply_to=answering.message_id if answering else None,
        references=answering.references if answering else (),
        auto_submitted="auto-replied" if answering else "auto-generated",
        reply_to=reply.reply_to,
        thread=reply.game,
        unsubscribe=_observer_unsubscribe(session, reply, to, settings),
        picture=reply.picture,
    )
    return written.id


def _observer_unsubscribe(
    session: Session, reply: Reply, to: str, settings: ProcessorSettings
) -> str | None:
    """An observer's leave address for a game's mail to a confirmed observer (List-Unsubscribe);
    None for every other mail (players and the GM have their own reply addresses)."""
    if reply.game is None or reply.reply_to is not None:
        return None
    token = observer_leave_token(session, reply.game, to)
    return reply_to_address(settings.identity.address, token) if token else None


def hold(engine: Engine, inbox_id: int, error: str, settings: ProcessorSettings) -> None:
    """Keep a mail the processor failed on, with the error, and tell the keeper."""
    with session_scope(engine) as session:
        row = lock_for_processing(session, inbox_id)
        if row is None:
            return
        finish(session, inbox_id, InboxState.HELD, "held", error=error)
        last_line = error.strip().splitlines()[-1] if error.strip() else "unknown error"
        log.error("inbox %d: held after an error: %s", inbox_id, last_line)
        if not settings.keeper:
            return
        mail = read_mail(row.raw)
        rendered = render_mail(
            "held_notice",
            **settings.template_context,
            inbox_id=inbox_id,
            sender=mail.sender,
            subject=mail.subject,
            message_id=mail.message_id,
            received_at=row.received_at.isoformat(),
            error=error.rstrip(),
        )
        enqueue(
            session,
            settings.identity,
            kind="held_notice",
            to=settings.keeper,
            subject=rendered.subject,
            body=rendered.body,
            inbox_id=inbox_id,
            auto_submitted="auto-generated",
        )
