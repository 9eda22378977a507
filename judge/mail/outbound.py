"""The sender: takes due outbox rows and hands them to an SMTP relay, or to a Maildir when none is
configured. Temporary failures are retried with growing waits for days; permanent refusals are
recorded against the address.
"""

from __future__ import annotations

import logging
import mailbox
import smtplib
import ssl
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Protocol

from sqlalchemy import Engine

from judge.clock import now
from judge.config import Config
from judge.mail.headers import UnsafeHeader, header_value
from judge.store.models import OutboxMessage
from judge.store.outbox import claim_due, mark_failed, mark_retry, mark_sent, unclaim

log = logging.getLogger("judge.sender")


class TemporaryFailure(Exception):
    """The mail may go through later: keep it and retry."""


class PermanentFailure(Exception):
    """The relay refused the mail for good (a 5xx answer about the recipient or the mail)."""


class Transport(Protocol):
    """Something that takes one mail for one recipient, or raises one of the failures above."""

    name: str

    def deliver(self, envelope_from: str, to: str, raw: bytes) -> None: ...

    def close(self) -> None: ...


class MaildirTransport:
    """Writes each mail into a Maildir (tmp/ then an atomic rename into new/), for reading by hand."""

    name = "maildir"

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.box = mailbox.Maildir(str(path), create=True)

    def deliver(self, envelope_from: str, to: str, raw: bytes) -> None:
        # The two delivery headers pass the same gate as every other header the judge writes.
        try:
            sender, recipient = header_value("Return-Path", envelope_from), header_value("To", to)
        except UnsafeHeader as error:
            raise PermanentFailure(str(error)) from error
        header = f"Return-Path: <{sender}>\nDelivered-To: {recipient}\n".encode()
        try:
            self.box.add(header + raw.replace(b"\r\n", b"\n"))
        except OSError as error:
            raise TemporaryFailure(f"Maildir {self.path}: {error}") from error

    def close(self) -> None:
        """Nothing to close: every mail is its own file."""


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


class SmtpRelay:
    """Relays by SMTP over one connection kept open between mails; STARTTLS and login as asked."""

    name = "smtp"

    def __init__(self, settings: RelaySettings) -> None:
        self.settings = settings
        self._connection: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        context = s.tls_context or ssl.create_default_context()
        connection: smtplib.SMTP
        if s.use_ssl:
            connection = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            connection = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        try:
            connection.ehlo()
            if not s.use_ssl and s.starttls != "never":
                if connection.has_extn("starttls"):
                    connection.starttls(context=context)
                    connection.ehlo()
                elif s.starttls == "always":
                    raise TemporaryFailure("the relay does not offer STARTTLS, which is required")
            if s.username:
                connection.login(s.username, s.password)
        except BaseException:
            _quietly_close(connection)
            raise
        return connection

    def deliver(self, envelope_from: str, to: str, raw: bytes) -> None:
        for fresh in (False, True):
            try:
                if self._connection is None:
                    self._connection = self._connect()
                    fresh = True
                options: list[str] = []
                if not (envelope_from + to).isascii():
                    if not self._connection.has_extn("smtputf8"):
                        raise PermanentFailure(
                            f"the relay does not take non-ASCII addresses (SMTPUTF8) such as {to}"
                        )
                    options.append("SMTPUTF8")
                self._connection.sendmail(envelope_from, [to], raw, mail_options=options)
                return
            except smtplib.SMTPServerDisconnected as error:
                self.close()
                if fresh:
                    raise TemporaryFailure(f"relay closed the connection: {error}") from error
                # A kept connection the relay had dropped: try once more on a new one.
            except smtplib.SMTPRecipientsRefused as error:
                code, text = next(iter(error.recipients.values()))
                _raise_for(code, text, "recipient refused")
            except smtplib.SMTPAuthenticationError as error:
                self.close()
                raise TemporaryFailure(
                    f"relay login failed: {error.smtp_code} {_text(error.smtp_error)}"
                ) from error
            except smtplib.SMTPResponseException as error:
                self.close()
                _raise_for(error.smtp_code, error.smtp_error, "relay refused")
            except (smtplib.SMTPException, OSError) as error:
                self.close()
                raise TemporaryFailure(f"relay unreachable: {error}") from error

    def close(self) -> None:
        if self._connection is not None:
            _quietly_close(self._connection)
            self._connection = None


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
            )
        )
    return MaildirTransport(config.maildir_path)


@dataclass(frozen=True)
class RetryPolicy:
    """Waits between attempts double from `first` up to `maximum`; after `give_up_after`, stop."""

    first: timedelta = timedelta(minutes=1)
    maximum: timedelta = timedelta(hours=4)
    give_up_after: timedelta = timedelta(days=5)
    lease: timedelta = timedelta(minutes=5)

    @classmethod
    def from_config(cls, config: Config) -> RetryPolicy:
        o = config.outbound
        return cls(
            first=timedelta(seconds=o.first_retry_seconds),
            maximum=timedelta(seconds=o.max_retry_seconds),
            give_up_after=timedelta(hours=o.retry_hours),
            lease=timedelta(seconds=o.claim_seconds),
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


class Sender:
    """`send_one` for a loop that runs while mail is due: the transaction that records one mail as
    sent (after the relay's 250) also claims the next, so each mail costs one commit, not two,
    and its claim is still committed before the relay is spoken to.
    """

    def __init__(self, engine: Engine, transport: Transport, policy: RetryPolicy) -> None:
        self.engine = engine
        self.transport = transport
        self.policy = policy
        self.claimed: OutboxMessage | None = None

    def step(self) -> bool:
        """Send the next due mail, if any; return whether there was one."""
        row, self.claimed = self.claimed, None
        if row is None:
            row = claim_due(self.engine, lease=self.policy.lease)
            if row is None:
                return False
        self.claimed = send_claimed(self.engine, self.transport, self.policy, row, then_claim=True)
        return True

    def release(self) -> None:
        """Give back the claim taken ahead, so a stopping sender leaves no mail waiting on it."""
        row, self.claimed = self.claimed, None
        if row is not None:
            unclaim(self.engine, row.id)


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
    try:
        transport.deliver(row.envelope_from, row.to_addr, row.raw)
    except PermanentFailure as error:
        log.warning("outbox %d to %s: refused for good: %s", row.id, row.to_addr, error)
        mark_failed(engine, row.id, str(error), permanent=True)
    except Exception as error:  # anything unforeseen is retried later like a temporary failure
        if not isinstance(error, TemporaryFailure):
            log.exception("outbox %d to %s: unexpected error", row.id, row.to_addr)
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
        else:
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
    else:
        log.info(
            "outbox %d to %s: sent via %s (%s)", row.id, row.to_addr, transport.name, row.message_id
        )
        return mark_sent(
            engine, row.id, transport.name, claim_next=policy.lease if then_claim else None
        )
    return None
