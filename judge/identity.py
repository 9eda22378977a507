"""Who may act for a power: argon2 passwords, secret reply tokens, and the decision for one mail.

A From: header is whatever the sender typed, so it never authorises anything by itself. A mail
acts for a seat when it carries that seat's password or arrives at that seat's reply address
(judge+TOKEN@domain, the Reply-To of every mail the judge sends the player). Nothing here touches
the database or mail; the desk hands in what it found and gets back a decision it can explain.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from email.utils import getaddresses, parseaddr
from typing import ClassVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# Argon2id at the OWASP minimum (19 MiB, two passes, one lane): a small judge verifies a password
# on every mail that carries one, so the cost is bounded; each hash records its own parameters,
# so raising them later still verifies old hashes and `password_needs_rehash` says which to renew.
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)

# Reply tokens: lower-case base32 letters and digits, 16 of them (80 bits). Mail servers may fold
# the case of a local part and some forbid punctuation, so nothing else is used.
TOKEN_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"
TOKEN_LENGTH = 16
_TOKEN = re.compile(rf"[{TOKEN_ALPHABET}]{{{TOKEN_LENGTH}}}")
# What separates the judge's own local part from a token: judge+TOKEN@domain.
TOKEN_DELIMITER = "+"


def hash_password(password: str) -> str:
    """The argon2id hash to store for `password` (spaces around it are not part of it).

    An empty password is refused: it would let anyone who guesses "nothing" act for the seat.
    """
    if not password.strip():
        raise ValueError("a password cannot be empty")
    return _HASHER.hash(password.strip())


def verify_password(stored_hash: str | None, password: str | None) -> bool:
    """Whether `password` matches the stored hash; False (never an exception) for any mismatch.

    A missing hash or password, a wrong password and a damaged hash all say no: the caller only
    needs to know whether the mail may act, and says why in words of its own.
    """
    if not stored_hash or password is None or not password.strip():
        return False
    try:
        return _HASHER.verify(stored_hash, password.strip())
    except (VerificationError, InvalidHashError):
        return False


class PasswordsNeeded(Exception):
    """Raised inside the processor's transaction when a mail needs argon2 work not done yet: the
    processor rolls the transaction back, does the work outside any transaction (`PasswordWork`)
    and runs the mail again, so no writer waits behind a slow hash.
    """

    def __init__(self, verify: Sequence[tuple[str, str]] = (), hash: Sequence[str] = ()) -> None:
        super().__init__(f"{len(verify)} password(s) to verify, {len(hash)} to hash")
        self.verify = tuple(verify)
        self.hash = tuple(hash)


@dataclass
class PasswordWork:
    """The argon2 work of one mail, done outside the write transaction between runs of the mail.

    `verify` answers from what was worked out, and raises PasswordsNeeded for a pair not seen yet
    (the answer decides what the mail does next, so the run cannot go on without it); `new_hash`
    hands out a placeholder and notes the password, and `check_hashed` raises for all of them at
    the end of the run (a new hash changes nothing else the run does). `inline` work is done in
    place: for callers without a processor to run the mail again, and after `MAX_RUNS` runs, so
    a mail always ends.
    """

    MAX_RUNS: ClassVar[int] = 8

    inline: bool = False
    runs: int = 0
    verified: dict[tuple[str, str], bool] = field(default_factory=dict)
    hashed: dict[str, str] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)

    def verify(self, stored_hash: str | None, password: str | None) -> bool:
        """verify_password, from the work done outside the transaction."""
        if not stored_hash or password is None or not password.strip():
            return False
        key = (stored_hash, password.strip())
        known = self.verified.get(key)
        if known is not None:
            return known
        if self.inline:
            known = self.verified[key] = verify_password(*key)
            return known
        raise PasswordsNeeded(verify=[key], hash=self.pending)

    def new_hash(self, password: str) -> str:
        """hash_password, from the work done outside the transaction (a placeholder until then:
        `check_hashed` must run before the transaction commits)."""
        if not password.strip():
            raise ValueError("a password cannot be empty")
        key = password.strip()
        known = self.hashed.get(key)
        if known is not None:
            return known
        if self.inline:
            known = self.hashed[key] = hash_password(key)
            return known
        if key not in self.pending:
            self.pending.append(key)
        return _PLACEHOLDER

    def check_hashed(self) -> None:
        """Raise for the new passwords this run used placeholders for, before anything commits."""
        if self.pending:
            raise PasswordsNeeded(hash=self.pending)

    def work_out(self, needed: PasswordsNeeded) -> None:
        """Do the slow part (call it outside any transaction) and get ready for the next run."""
        self.runs += 1
        for stored_hash, password in needed.verify:
            self.verified[(stored_hash, password)] = verify_password(stored_hash, password)
        for password in needed.hash:
            self.hashed[password] = hash_password(password)
        self.pending = []
        if self.runs >= self.MAX_RUNS:
            self.inline = True


# Stands in for a new hash during a run that is then rolled back; never verifies anything.
_PLACEHOLDER = "$pending$"


def password_needs_rehash(stored_hash: str) -> bool:
    """Whether a hash was made with weaker parameters than today's, so it should be renewed."""
    try:
        return _HASHER.check_needs_rehash(stored_hash)
    except InvalidHashError:
        return True


def new_reply_token() -> str:
    """A fresh secret token for one seat's reply address (lower case, letters and digits)."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def is_token(text: str) -> bool:
    """Whether `text` has the shape of a reply token (so a stray +tag is not mistaken for one)."""
    return _TOKEN.fullmatch(text) is not None


def normalise_address(address: str) -> str:
    """The bare address with its domain in lower case: the form addresses are stored and compared in.

    Domains are case-insensitive everywhere; a local part may in principle be case-sensitive,
    so it is kept as written. A display name or angle brackets around the address are dropped.
    """
    _, bare = parseaddr(address)
    bare = (bare or address).strip().strip("<>").strip()
    local, at, domain = bare.rpartition("@")
    if not at:
        return bare
    return f"{local}@{domain.lower()}"


def reply_to_address(judge_address: str, token: str) -> str:
    """The seat's reply address: judge+TOKEN@domain for the judge address judge@domain."""
    bare = normalise_address(judge_address)
    local, at, domain = bare.rpartition("@")
    if not at or not local:
        raise ValueError(f"not a mail address: {judge_address!r}")
    if not is_token(token):
        raise ValueError(f"not a reply token: {token!r}")
    base = local.split(TOKEN_DELIMITER, 1)[0]
    return f"{base}{TOKEN_DELIMITER}{token}@{domain}"


def token_from_recipients(
    recipients: Iterable[str | None], judge_address: str | None = None
) -> str | None:
    """The reply token in the first recipient that carries one, or None.

    `recipients` are envelope recipients or Delivered-To header values, in the order to trust
    them (the envelope first); a value may hold several addresses separated by commas. With
    `judge_address`, only the judge's own address with a +TOKEN counts, so a token-shaped tag on
    some other address named in the mail is not taken for one.
    """
    judge_local = judge_domain = None
    if judge_address is not None:
        judge_local, _, judge_domain = normalise_address(judge_address).rpartition("@")
        judge_local = judge_local.split(TOKEN_DELIMITER, 1)[0].lower()
    values = [value for value in recipients if value]
    for _, address in getaddresses(values):
        local, at, domain = address.strip().rpartition("@")
        if not at or TOKEN_DELIMITER not in local:
            continue
        base, _, tag = local.partition(TOKEN_DELIMITER)
        if judge_local is not None and (
            base.lower() != judge_local or domain.lower() != judge_domain
        ):
            continue
        tag = tag.lower()
        if is_token(tag):
            return tag
    return None


@dataclass(frozen=True)
class SeatCredentials:
    """What authentication needs to know of one seat: whose it is and how it is unlocked."""

    game: str
    power: str
    password_hash: str | None
    reply_token: str | None
    # The holder's addresses, the address of record first; empty when nobody holds the seat.
    addresses: Sequence[str] = ()


@dataclass(frozen=True)
class Decision:
    """Whether a mail may act for a seat, how it proved it, and otherwise why not.

    `copy_to` holds the address of record, to which the reply is also sent when the mail came
    from an address the holder never gave, so a player learns at once if someone else has used
    the seat's password.
    """

    authorised: bool
    method: str | None  # "token" or "password" when authorised
    reason: str = ""
    copy_to: tuple[str, ...] = field(default_factory=tuple)


def _same_token(found: str | None, expected: str | None) -> bool:
    if not found or not expected:
        return False
    return hmac.compare_digest(found.lower().encode(), expected.lower().encode())


def authenticate(
    sender: str | None,
    token: str | None,
    password: str | None,
    seat: SeatCredentials,
    verify: Callable[[str | None, str | None], bool] = verify_password,
) -> Decision:
    """Decide whether a mail from `sender`, with the reply token and password it carries, acts for `seat`.

    The token or the password authorises; the sender's address never does. When the sender is
    none of the holder's addresses, an authorised mail's reply is copied to the address of record.
    `verify` checks the password (the processor's `PasswordWork.verify` keeps argon2 out of its
    transaction).
    """
    who = f"{seat.power} in game {seat.game}"
    on_record = [normalise_address(a) for a in seat.addresses]
    from_address = normalise_address(sender) if sender else ""
    known_sender = bool(from_address) and from_address in on_record
    copy_to = () if known_sender or not on_record else (on_record[0],)

    if _same_token(token, seat.reply_token):
        return Decision(True, "token", copy_to=copy_to)
    if verify(seat.password_hash, password):
        return Decision(True, "password", copy_to=copy_to)

    if seat.password_hash is None and seat.reply_token is None:
        reason = f"nobody holds {who} at present, so there is no password to check"
    elif password is not None and password.strip():
        reason = f"the password given for {who} is not the right one"
    elif token:
        reason = (
            f"this mail was sent to a reply address that is not the one for {who}, "
            "and carries no password"
        )
    elif known_sender:
        reason = (
            f"this mail came from your address for {who} but carries neither the password "
            "nor your reply address; a From: line alone can be forged, so reply to the "
            "judge's last mail or give the password"
        )
    else:
        reason = (
            f"this mail came from an address not on record for {who} and carries neither "
            "the password nor your reply address"
        )
    return Decision(False, None, reason=reason)
