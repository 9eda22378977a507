"""Password checks at the desk: guessing is slowed down per seat and per sender, and no argon2
hash is ever computed while the mail's transaction holds the store.

A wrong password counts against what it was meant to open (a seat, or a game's GM password)
and against the sender (`judge.mail.loopguard.sender_key`: plus-addresses are one sender).
Each may fail `FREE_FAILURES` times; after that every further failure makes the next attempt
wait, from a minute after the failure, doubling with each failure up to a day. An attempt made
while either must wait is refused without hashing, saying when to try again; it does not count
as a failure. A right password clears the count of what it opened, not the sender's (else a
player could wash away guesses at other seats with the password of his own). A count nobody
added to for `FORGET_AFTER` starts again from nothing. Counts live in the store
(judge.store.models.PasswordFailure), so they hold across mails, restarts and processes.

A seat's count (and a GM password's) slows the guessers, not the seat's holder (nor the
game's GM): a password sent from one of the holder's own addresses (those on record, with which he signed on) is checked whatever strangers
gave before (only that address's own count can hold it back), and the holder is told when
strangers' wrong passwords start to hold his seat's password back (`owner_told`). Since anyone
can forge a From: line, a guesser writing as the holder is still slowed by that address's own
count; the seat's reply address (judge+TOKEN@domain, and the GM's) acts without a password, so
its holder is never locked out, and every refusal says so.

The hashing itself goes through `judge.identity.PasswordWork` (the processor's, on
`Where.passwords`): a password not verified yet rolls the mail back, the processor verifies it
with no transaction open and runs the mail again (on SQLite, whose one writer at a time would
otherwise keep every other mail, the inbound listener and the sender waiting for the hash).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Table, case, delete, literal, select

from judge.clock import now
from judge.desk.mail_state import MailState
from judge.identity import PasswordWork, hash_password, normalise_address
from judge.mail.loopguard import sender_key
from judge.store.db import upsert
from judge.store.games import Game, Person, Seat
from judge.store.models import PasswordFailure, UTCDateTime

# Wrong passwords allowed against one key before attempts have to wait.
FREE_FAILURES = 3
# The wait after the first failure past the free ones; it doubles with each further failure.
FIRST_WAIT = timedelta(minutes=1)
LONGEST_WAIT = timedelta(days=1)
# A key with no failure for this long starts again from nothing.
FORGET_AFTER = timedelta(days=7)

_FAILURES: Table = PasswordFailure.__table__  # type: ignore[assignment]


def wait_after(failures: int) -> timedelta:
    """How long after the last of `failures` failures the next attempt must wait."""
    if failures < FREE_FAILURES:
        return timedelta(0)
    doublings = min(failures - FREE_FAILURES, 20)  # 2**20 minutes is far past LONGEST_WAIT
    return min(FIRST_WAIT * 2**doublings, LONGEST_WAIT)


def seat_key(seat: Seat) -> str:
    return f"seat:{seat.id}"


def gm_key(game: Game) -> str:
    return f"gm:{game.id}"


def secret_seat_key(game: Game, written: str) -> str:
    """A SIGNON's count on a secret board: by the power as written, whether or not it is one,
    so a count that runs out (and the refusal it brings) tells nobody a power exists."""
    return f"secret-seat:{game.id}:{written.strip().upper()}"


@functools.cache
def decoy_hash() -> str:
    """A hash no password opens (its secret is drawn and forgotten): a SIGNON on a secret board
    naming no seat is checked against it, so it costs the same hashing as a wrong password."""
    return hash_password(secrets.token_urlsafe(24))


def sender_password_key(address: str) -> str:
    return f"sender:{sender_key(address)}"


def password_work(state: MailState) -> PasswordWork:
    """The processor's argon2 work for this mail, or work done in place when there is none."""
    return state.where.passwords or PasswordWork(inline=True)


def new_password_hash(state: MailState, password: str) -> str:
    """The hash to store for a new password, computed outside the transaction (see module)."""
    return password_work(state).new_hash(password)


def owner_addresses(holder: Person | None) -> frozenset[str]:
    """The addresses of a seat's holder or a game's GM, as `is_owner` compares them."""
    if holder is None:
        return frozenset()
    return frozenset(normalise_address(a.address).lower() for a in holder.addresses)


def is_owner(state: MailState, owners: frozenset[str]) -> bool:
    """Whether the mail's sender is one of the holder's own addresses."""
    return bool(state.sender) and normalise_address(state.sender).lower() in owners


def password_refusal(
    state: MailState,
    key: str,
    what: str,
    reply_address_words: str,
    owners: frozenset[str] = frozenset(),
) -> str:
    """Why a password for `key` (described as `what`) is not checked now, or "" when it may be.

    `reply_address_words` names the address that acts without a password ("the seat's reply
    address"), which the refusal points to. A sender among `owners` (the holder's addresses)
    is held back only by the count of its own address, never by strangers' guesses at `key`.
    """
    moment = now()
    counts = [(sender_password_key(state.sender), "this address has given a wrong password")]
    if not is_owner(state, owners):
        counts.insert(0, (key, f"{what} has been given wrongly"))
    for counted, whose in counts:
        found = _count(state, counted, moment)
        if found is None:
            continue
        failures, retry_at = found
        if retry_at > moment:
            return (
                f"not checked: {whose} {failures} times lately, so the next try is read from "
                f"{_words(retry_at)} on (each further wrong one doubles the wait, up to a "
                f"day); mail to {reply_address_words} acts without a password meanwhile"
            )
    return ""


def verify(state: MailState, stored_hash: str | None, password: str | None) -> bool:
    """Whether `password` matches `stored_hash` (argon2 outside the transaction; see module)."""
    return password_work(state).verify(stored_hash, password)


def verify_for(state: MailState) -> Callable[[str | None, str | None], bool]:
    """`verify` for this mail, as judge.identity.authenticate takes it."""
    return password_work(state).verify


def record_password(state: MailState, key: str, right: bool) -> int:
    """Count a wrong password against `key` and the sender, or clear `key` after a right one;
    return the failures now counted against `key` (0 after a right one)."""
    session = state.session
    if right:
        session.execute(delete(_FAILURES).where(_FAILURES.c.key == key))
        return 0
    moment = now()
    forget_before = literal(moment - FORGET_AFTER, UTCDateTime())
    for counted in (key, sender_password_key(state.sender)):
        statement = upsert(session, _FAILURES).values(
            key=counted, failures=1, last_failed_at=moment
        )
        session.execute(
            statement.on_conflict_do_update(
                index_elements=[_FAILURES.c.key],
                set_={
                    "failures": case(
                        (_FAILURES.c.last_failed_at <= forget_before, 1),
                        else_=_FAILURES.c.failures + 1,
                    ),
                    "last_failed_at": statement.excluded.last_failed_at,
                },
            )
        )
    found = _count(state, key, moment)
    return found[0] if found else 0


def owner_told(failures: int, owner: bool) -> bool:
    """Whether a stranger's wrong password just made the seat's password wait: the holder is
    told once, when the wait starts (not at every further guess)."""
    return not owner and failures == FREE_FAILURES


def retry_words(state: MailState, key: str) -> str:
    """When the next try at `key` is read, in the refusals' words."""
    found = _count(state, key, now())
    return _words(found[1]) if found else _words(now())


def _count(state: MailState, key: str, moment: datetime) -> tuple[int, datetime] | None:
    """The failures still counted against `key` and when its next attempt may come."""
    found = state.session.execute(
        select(_FAILURES.c.failures, _FAILURES.c.last_failed_at).where(_FAILURES.c.key == key)
    ).first()
    if found is None or moment - found.last_failed_at >= FORGET_AFTER:
        return None
    return found.failures, found.last_failed_at + wait_after(found.failures)


def _words(moment: datetime) -> str:
    """A moment as the refusal says it: to the next whole second, in UTC."""
    if moment.microsecond:
        moment = moment.replace(microsecond=0) + timedelta(seconds=1)
    return f"{moment:%Y-%m-%d %H:%M:%S} UTC"
