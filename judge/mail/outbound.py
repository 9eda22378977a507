"""The sender: takes due outbox rows and hands them to an SMTP relay, or to a Maildir when none is
configured. Temporary failures are retried with growing waits for days; permanent refusals are
recorded against the address. A relay that cannot be reached at all stops the sender until it
answers again (looked for after 1 s, then twice as long each time up to a ceiling), and its
return makes every mail waiting for a retry due at once.

How often a mail can arrive twice: a row is marked sent only after the transport took it, so a
crash between the two hands it over again. The Maildir names each file after its outbox row, so
the second hand-over replaces the first (exactly once). An SMTP relay has queued the mail once it
answered the final "." with 250, before the judge can record anything; the copy sent again after
a crash carries the same Message-ID (the row's raw bytes are sent as written), so it is the
same mail to every reader that collapses duplicates. That is the one gap no SMTP client closes.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import smtplib
import ssl
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Protocol

from sqlalchemy import Engine

from judge.clock import now
from judge.config import Config
from judge.mail.credentials import clear_login_refusal, trusting
from judge.mail.headers import UnsafeHeader, header_value
from judge.store.models import OutboxMessage
from judge.store.outbox import (
    claim_due,
    mark_failed,
    mark_retry,
    mark_sent,
    unclaim,
    wake_waiting,
)

log = logging.getLogger("judge.sender")


class TemporaryFailure(Exception):
    """The mail may go through later: keep it and retry."""


class PermanentFailure(Exception):
    """The relay refused the mail for good (a 5xx answer about the recipient or the mail)."""


class Unreachable(TemporaryFailure):
    """No mail can go now, whichever it is: the relay cannot be reached, will not greet, will not
    take the login, or would take the password only in clear. The sender stops and watches for it.
    """


@dataclass(frozen=True)
class Outgoing:
    """One mail to hand over. `key` names its outbox row and is the same at every attempt, so a
    transport can tell a repeat from a new mail; `attempt` is 1 the first time the row is tried.
    """

    envelope_from: str
    to: str
    raw: bytes
    key: str
    attempt: int = 1

    @classmethod
    def of(cls, row: OutboxMessage) -> Outgoing:
        digest = hashlib.sha256(row.message_id.encode("utf-8", "surrogateescape")).hexdigest()
        return cls(
            envelope_from=row.envelope_from,
            to=row.to_addr,
            raw=row.raw,
            key=f"outbox-{row.id}-{digest[:20]}",
            attempt=row.attempts,
        )


class Transport(Protocol):
    """Something that takes one mail for one recipient, or raises one of the failures above."""

    name: str

    def deliver(self, mail: Outgoing) -> None: ...

    def probe(self) -> None:
        """Return when a mail could be handed over now; raise Unreachable when not."""
        ...

    def close(self) -> None: ...


# Maildir file names the judge writes start so; a file of ours in tmp/ at start is a write a
# crash cut short (a new/ or cur/ copy of it, if any, is whole).
MAILDIR_PREFIX = "outbox-"
# The Maildir convention: anyone may remove a file older than this from tmp/.
MAILDIR_TMP_STALE_SECONDS = 36 * 3600


class MaildirTransport:
    """Writes each mail into a Maildir, for reading by hand: the file is written and synced in
    tmp/, then renamed into new/ under its outbox row's name, so a mail handed over twice (a crash
    after the rename, before the row was marked sent) replaces its first copy instead of adding one,
    and a copy a mail program already moved to cur/ is left as it is.
    """

    name = "maildir"

    def __init__(self, path: Path) -> None:
        self.path = path
        for sub in ("tmp", "new", "cur"):
            (path / sub).mkdir(parents=True, exist_ok=True)
        self._clean_tmp()

    def _clean_tmp(self) -> None:
        """Remove what crashed writes left in tmp/ (ours, and anything past the Maildir's 36 h).

        A second sender process on the same Maildir that is writing a file just now loses it
        and retries that mail later, as after any temporary failure.
        """
        removed = 0
        cutoff = time.time() - MAILDIR_TMP_STALE_SECONDS
        with os.scandir(self.path / "tmp") as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    if entry.name.startswith(MAILDIR_PREFIX) or entry.stat().st_mtime < cutoff:
                        os.unlink(entry.path)
                        removed += 1
        if removed:
            log.info("Maildir %s: removed %d unfinished files from tmp/", self.path, removed)

    def deliver(self, mail: Outgoing) -> None:
        # The two delivery headers pass the same gate as every other header the judge writes.
        try:
            sender = header_value("Return-Path", mail.envelope_from)
            recipient = header_value("To", mail.to)
        except UnsafeHeader as error:
            raise PermanentFailure(str(error)) from error
        if not mail.key.startswith(MAILDIR_PREFIX) or "/" in mail.key or ":" in mail.key:
            raise ValueError(f"not a Maildir name of the judge's: {mail.key!r}")
        header = f"Return-Path: <{sender}>\nDelivered-To: {recipient}\n".encode()
        data = header + mail.raw.replace(b"\r\n", b"\n")
        tmp = self.path / "tmp" / mail.key
        try:
            # A mail tried before may have been delivered before the crash that kept its row
            # from being marked sent, and read since. (A reader moving it between this look and
            # the rename below would see it twice: that needs a crash and a read in the same
            # instant.)
            if mail.attempt > 1 and self._in_cur(mail.key):
                return
            descriptor = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(descriptor, view) :]
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
            # rename() replaces a new/ copy of the same mail atomically: one file, never two.
            os.rename(tmp, self.path / "new" / mail.key)
            _sync_directory(self.path / "new")
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise Unreachable(str(error)) from error

    def _in_cur(self, key: str) -> bool:
        """Whether a mail program moved this mail to cur/ (as `key:2,FLAGS`)."""
        with os.scandir(self.path / "cur") as entries:
            return any(entry.name.split(":", 1)[0] == key for entry in entries)

    def probe(self) -> None:
        if not os.access(self.path / "tmp", os.W_OK) or not os.access(self.path / "new", os.W_OK):
            raise Unreachable("tmp/ or new/ is not writable")

    def close(self) -> None:
        """Nothing to close: every mail is its own file."""

    def __str__(self) -> str:
        return f"Maildir {self.path}"


def _sync_directory(path: Path) -> None:
    """fsync a directory, so a rename into it outlives a power cut, as the row marked sent does."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


@dataclass
class RelaySettings:
    """How to reach the relay (from the [relay] section)."""

    host: str
    port: int = 587
    starttls: str = "auto"
    use_ssl: bool = False
    username: str = ""
    password: str = ""
    timeout: float = 30.0
    tls_context: ssl.SSLContext | None = None
    login_without_tls: bool = False

    @property
    def where(self) -> str:
        return f"relay {self.host}:{self.port}"


# SMTP's "service not available, closing the channel": the relay, not the mail, is the matter.
SERVICE_NOT_AVAILABLE = 421


class SmtpRelay:
    """Relays by SMTP over one connection kept open between mails; STARTTLS and login as asked,
    and never a password in clear (judge.mail.credentials)."""

    name = "smtp"

    def __init__(self, settings: RelaySettings) -> None:
        self.settings = settings
        self._connection: smtplib.SMTP | None = None
        # The first connection, and the first after a failure, is logged at INFO; the routine
        # reconnections after a pause at DEBUG.
        self._announce = True

    def _connect(self) -> smtplib.SMTP:
        """A ready connection (greeted, TLS as configured, logged in), or Unreachable."""
        s = self.settings
        try:
            return self._open()
        except Unreachable:
            self._announce = True
            raise
        except smtplib.SMTPAuthenticationError as error:
            self._announce = True
            raise Unreachable(
                f"login as {s.username} refused: {error.smtp_code} {_text(error.smtp_error)}"
            ) from error
        except smtplib.SMTPResponseException as error:
            self._announce = True
            raise Unreachable(f"{error.smtp_code} {_text(error.smtp_error)}") from error
        except (smtplib.SMTPException, OSError) as error:
            self._announce = True
            raise Unreachable(f"unreachable: {error}") from error

    def _open(self) -> smtplib.SMTP:
        s = self.settings
        context = s.tls_context or ssl.create_default_context()
        connection: smtplib.SMTP
        if s.use_ssl:
            connection = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            connection = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        try:
            connection.ehlo()
            tls = "TLS" if s.use_ssl else ""
            if not s.use_ssl and s.starttls != "never":
                if connection.has_extn("starttls"):
                    connection.starttls(context=context)
                    connection.ehlo()
                    tls = "STARTTLS"
                elif s.starttls == "always":
                    raise Unreachable(
                        'no STARTTLS offered, which [relay] starttls = "always" requires'
                    )
            if s.username:
                if not tls:
                    because = (
                        'starttls = "never"' if s.starttls == "never" else "it offers no STARTTLS"
                    )
                    refusal = clear_login_refusal(
                        str(connection.sock.getpeername()[0]),
                        allowed=s.login_without_tls,
                        section="relay",
                        unencrypted_because=because,
                    )
                    if refusal is not None:
                        raise Unreachable(refusal)
                connection.login(s.username, s.password)
        except BaseException:
            _quietly_close(connection)
            raise
        self._log_connected(connection, tls)
        return connection

    def _log_connected(self, connection: smtplib.SMTP, tls: str) -> None:
        s = self.settings
        level = logging.INFO if self._announce else logging.DEBUG
        self._announce = False
        if not log.isEnabledFor(level):
            return
        greeting = _text(connection.ehlo_resp or b"").split("\n", 1)[0].strip()
        if tls:
            version = (
                connection.sock.version() if isinstance(connection.sock, ssl.SSLSocket) else ""
            )
            tls = f"{tls} {version}".strip()
        log.log(
            level,
            "%s (%s): connected, %s, %s",
            s.where,
            greeting or "no name given",
            tls or "no TLS",
            f"logged in as {s.username}" if s.username else "no login",
        )

    def probe(self) -> None:
        """Open the connection the next mail will use, or raise Unreachable."""
        if self._connection is None:
            self._connection = self._connect()

    def deliver(self, mail: Outgoing) -> None:
        envelope_from, to = mail.envelope_from, mail.to
        for fresh in (False, True):
            if self._connection is None:
                self._connection = self._connect()  # Unreachable goes to the sender as it is
                fresh = True
            try:
                options: list[str] = []
                if not (envelope_from + to).isascii():
                    if not self._connection.has_extn("smtputf8"):
                        raise PermanentFailure(
                            f"the relay does not take non-ASCII addresses (SMTPUTF8) such as {to}"
                        )
                    options.append("SMTPUTF8")
                self._connection.sendmail(envelope_from, [to], mail.raw, mail_options=options)
                return
            except smtplib.SMTPServerDisconnected as error:
                self.close()
                if fresh:
                    raise TemporaryFailure(f"relay closed the connection: {error}") from error
                # A kept connection the relay had dropped: try once more on a new one.
            except smtplib.SMTPRecipientsRefused as error:
                code, text = next(iter(error.recipients.values()))
                _raise_for(code, text, "recipient refused")
            except smtplib.SMTPResponseException as error:
                self.close()
                if error.smtp_code == SERVICE_NOT_AVAILABLE:
                    self._announce = True
                    raise Unreachable(f"{error.smtp_code} {_text(error.smtp_error)}") from error
                _raise_for(error.smtp_code, error.smtp_error, "relay refused")
            except (smtplib.SMTPException, OSError) as error:
                self.close()
                raise TemporaryFailure(f"relay connection failed: {error}") from error

    def close(self) -> None:
        if self._connection is not None:
            _quietly_close(self._connection)
            self._connection = None

    def __str__(self) -> str:
        return self.settings.where


def _text(value: bytes | str) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _raise_for(code: int, text: bytes | str, what: str) -> None:
    message = f"{what}: {code} {_text(text)}"
    if 500 <= code < 600:
        raise PermanentFailure(message)
    raise TemporaryFailure(message)


def _quietly_close(connection: smtplib.SMTP) -> None:
    try:
        connection.quit()
    except Exception:  # closing a broken connection may fail in any way; it is gone either way
        connection.close()


def transport_for(config: Config) -> Transport:
    """The relay if one is configured, else the Maildir under the data directory."""
    if config.relay.host:
        r = config.relay
        return SmtpRelay(
            RelaySettings(
                host=r.host,
                port=r.port,
                starttls=r.starttls,
                use_ssl=r.ssl,
                username=r.username,
                password=r.password,
                timeout=r.timeout_seconds,
                login_without_tls=r.login_without_tls,
                tls_context=trusting(r.ca_file),
            )
        )
    return MaildirTransport(config.maildir_path)


@dataclass(frozen=True)
class RetryPolicy:
    """Waits between attempts of one mail double from `first` up to `maximum`; after
    `give_up_after`, stop. While the transport cannot be reached at all, the sender looks for it
    after `reconnect_first`, doubling up to `reconnect_max`.
    """

    first: timedelta = timedelta(seconds=10)
    maximum: timedelta = timedelta(hours=4)
    give_up_after: timedelta = timedelta(days=5)
    lease: timedelta = timedelta(minutes=5)
    reconnect_first: timedelta = timedelta(seconds=1)
    reconnect_max: timedelta = timedelta(seconds=10)

    @classmethod
    def from_config(cls, config: Config) -> RetryPolicy:
        o = config.outbound
        return cls(
            first=timedelta(seconds=o.first_retry_seconds),
            maximum=timedelta(seconds=o.max_retry_seconds),
            give_up_after=timedelta(hours=o.retry_hours),
            lease=timedelta(seconds=o.claim_seconds),
            reconnect_max=timedelta(seconds=config.relay.reconnect_max_seconds),
        )

    def wait(self, attempts: int) -> timedelta:
        """How long to wait after the `attempts`-th failed attempt."""
        return min(self.first * (2 ** max(0, attempts - 1)), self.maximum)


def send_one(engine: Engine, transport: Transport, policy: RetryPolicy) -> bool:
    """Send the next due mail, if any; return whether there was one."""
    row = claim_due(engine, lease=policy.lease)
    if row is None:
        return False
    send_claimed(engine, transport, policy, row)
    return True


@dataclass
class Outage:
    """The transport could not be reached: since when, why, and when to look for it next."""

    since: datetime
    reason: str
    wait: timedelta
    next_look: datetime
    looks: int = 0


class Sender:
    """`send_one` for a loop that runs while mail is due: the transaction that records one mail as
    sent (after the relay's 250) also claims the next, so each mail costs one commit, not two,
    and its claim is still committed before the relay is spoken to.

    When the transport cannot be reached (`Unreachable`), the sender claims no mail and only looks
    for it (`Transport.probe`) on its own backoff, capped by `policy.reconnect_max`; the first
    successful contact after that, and the first after the sender starts, makes every mail waiting
    for a retry due at once (`wake_waiting`), so a relay's return is noticed within that ceiling
    instead of each mail's own growing wait.
    """

    def __init__(self, engine: Engine, transport: Transport, policy: RetryPolicy) -> None:
        self.engine = engine
        self.transport = transport
        self.policy = policy
        self.claimed: OutboxMessage | None = None
        self.outage: Outage | None = None
        # Waiting mails are made due at the first successful contact (a start may follow an
        # outage another process saw); then again only after an outage.
        self._wake_on_contact = True
        self._last_recovery: tuple[datetime, timedelta] | None = None

    def step(self) -> bool:
        """Send the next due mail, if any; return whether there was one (or the transport came
        back). During an outage, look for the transport when that is due, and send nothing."""
        if self.outage is not None:
            return self._look()
        row, self.claimed = self.claimed, None
        if row is None:
            row = claim_due(self.engine, lease=self.policy.lease)
            if row is None:
                return False
        error = hand_over(self.transport, row)
        if isinstance(error, Unreachable):
            self._lost(error)
        self.claimed = record_outcome(
            self.engine, self.transport, self.policy, row, error, then_claim=True
        )
        if error is None and self._wake_on_contact:
            self._wake("reachable")
        return True

    def _lost(self, error: Unreachable) -> None:
        """Begin an outage: no mail is claimed until the transport answers again."""
        moment = now()
        wait = self.policy.reconnect_first
        if self._last_recovery is not None:
            # Back again soon after the last recovery: a flapping transport (or one that takes
            # connections and fails every mail) is not hammered every second.
            recovered_at, last_wait = self._last_recovery
            if moment - recovered_at < self.policy.reconnect_max:
                wait = min(last_wait * 2, self.policy.reconnect_max)
        self.outage = Outage(since=moment, reason=str(error), wait=wait, next_look=moment + wait)
        self._wake_on_contact = True
        log.warning(
            "%s: %s; no mail is sent until it answers (next look in %s)",
            self.transport,
            error,
            _seconds(wait),
        )

    def _look(self) -> bool:
        outage = self.outage
        assert outage is not None
        moment = now()
        if moment < outage.next_look:
            return False
        outage.looks += 1
        try:
            self.transport.probe()
        except Exception as error:  # any failure to reach it is the outage going on
            outage.wait = min(outage.wait * 2, self.policy.reconnect_max)
            outage.next_look = moment + outage.wait
            outage.reason = str(error)
            log.info(
                "%s: still unreachable (%s); next look in %s",
                self.transport,
                error,
                _seconds(outage.wait),
            )
            return False
        self.outage = None
        self._last_recovery = (moment, outage.wait)
        self._wake(f"reachable again after {_seconds(moment - outage.since)}")
        return True

    def _wake(self, what: str) -> None:
        """Make every mail waiting for a retry due now; say so when there were any."""
        self._wake_on_contact = False
        woken = wake_waiting(self.engine)
        if woken or what != "reachable":
            log.info("%s: %s; %d mails waiting for a retry made due", self.transport, what, woken)

    def release(self) -> None:
        """Give back the claim taken ahead, so a stopping sender leaves no mail waiting on it."""
        row, self.claimed = self.claimed, None
        if row is not None:
            unclaim(self.engine, row.id)


def _seconds(wait: timedelta) -> str:
    return (
        f"{wait.total_seconds():.0f} s"
        if wait >= timedelta(seconds=1)
        else f"{wait.total_seconds():.1f} s"
    )


def hand_over(transport: Transport, row: OutboxMessage) -> Exception | None:
    """Give one claimed mail to the transport: None when it took it, else what went wrong."""
    try:
        transport.deliver(Outgoing.of(row))
    except Exception as error:  # recorded by record_outcome, whatever it was
        return error
    return None


def send_claimed(
    engine: Engine,
    transport: Transport,
    policy: RetryPolicy,
    row: OutboxMessage,
    *,
    then_claim: bool = False,
) -> OutboxMessage | None:
    """Hand one claimed mail to the transport and record the outcome; with `then_claim`, a mail
    the relay took is recorded in a transaction that also claims the next due mail, returned.
    """
    error = hand_over(transport, row)
    return record_outcome(engine, transport, policy, row, error, then_claim=then_claim)


def record_outcome(
    engine: Engine,
    transport: Transport,
    policy: RetryPolicy,
    row: OutboxMessage,
    error: Exception | None,
    *,
    then_claim: bool = False,
) -> OutboxMessage | None:
    """Record what `hand_over` said: sent (claiming the next due mail with `then_claim`, which
    is returned), refused for good, or to be tried again later (or given up after days)."""
    if error is None:
        log.info(
            "outbox %d to %s: sent via %s (%s)", row.id, row.to_addr, transport.name, row.message_id
        )
        return mark_sent(
            engine, row.id, transport.name, claim_next=policy.lease if then_claim else None
        )
    if isinstance(error, PermanentFailure):
        log.warning("outbox %d to %s: refused for good: %s", row.id, row.to_addr, error)
        mark_failed(engine, row.id, str(error), permanent=True)
        return None
    if not isinstance(error, TemporaryFailure):  # anything unforeseen is retried later
        log.error("outbox %d to %s: unexpected error", row.id, row.to_addr, exc_info=error)
        error = TemporaryFailure(f"unexpected error: {error!r}")
    moment = now()
    if moment - row.created_at >= policy.give_up_after:
        log.warning(
            "outbox %d to %s: given up after %d tries: %s",
            row.id,
            row.to_addr,
            row.attempts,
            error,
        )
        mark_failed(
            engine, row.id, f"given up after {row.attempts} tries: {error}", permanent=False
        )
        return None
    at = moment + policy.wait(row.attempts)
    log.info(
        "outbox %d to %s: try %d failed (%s); next at %s",
        row.id,
        row.to_addr,
        row.attempts,
        error,
        at.isoformat(),
    )
    mark_retry(engine, row.id, str(error), at)
    return None
