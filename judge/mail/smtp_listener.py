"""The SMTP/LMTP listener: a mail server hands mail to the judge, which answers 250 only after the
raw bytes are committed to the inbox. Unknown addresses get 550, an internal fault 451 (so the
server keeps the mail and tries again), and mail over the size limit 552.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from sqlalchemy import Engine

from judge.store.db import session_scope
from judge.store.inbox import accept

log = logging.getLogger("judge.smtp")

# The longest line accepted inside DATA (bytes); longer lines are refused with 500.
LONG_LINE_LIMIT = 1_048_576


class InboxHandler:
    """aiosmtpd handler that stores each accepted mail in the inbox before saying 250."""

    def __init__(
        self,
        engine: Engine,
        serves: Callable[[str], bool],
        *,
        lmtp: bool = False,
        on_stored: Callable[[int], None] | None = None,
    ) -> None:
        self.engine = engine
        self.serves = serves
        self.lmtp = lmtp
        self.on_stored = on_stored

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        if not self.serves(address):
            log.info("refused RCPT %s from %s: not an address of the judge", address, session.peer)
            return f"550 5.1.1 <{address}>: no such judge address here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    def _store(self, raw: bytes, envelope: Envelope) -> tuple[int, bool]:
        with session_scope(self.engine) as session:
            return accept(
                session,
                raw,
                source="lmtp" if self.lmtp else "smtp",
                envelope_to=", ".join(envelope.rcpt_tos)[:998] or None,
                envelope_from=_return_path(envelope.mail_from),
            )

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        try:
            row_id, new = await asyncio.get_running_loop().run_in_executor(
                None, self._store, raw, envelope
            )
        except Exception:
            log.exception(
                "could not store mail from %s to %s", envelope.mail_from, envelope.rcpt_tos
            )
            return self._each("451 4.3.0 internal error; please try again later", envelope)
        log.info(
            "stored mail from <%s> to %s as inbox %d%s",
            envelope.mail_from,
            ", ".join(envelope.rcpt_tos),
            row_id,
            "" if new else " (a copy of one already stored)",
        )
        if new and self.on_stored is not None:
            self.on_stored(row_id)
        return self._each(f"250 2.0.0 stored as {row_id}", envelope)

    def _each(self, status: str, envelope: Envelope) -> str:
        """LMTP answers once per recipient (RFC 2033); SMTP once."""
        if self.lmtp:
            return "\r\n".join([status] * max(1, len(envelope.rcpt_tos)))
        return status


def _return_path(mail_from: str | None) -> str | None:
    """The envelope sender without brackets; '' for the null sender of bounces."""
    if mail_from is None:
        return None
    return mail_from.strip().strip("<>")


class _LongLineSMTP(SMTP):
    """RFC 5321 caps lines at 1000 octets, but real mail breaks it and Postfix passes such mail
    on; refusing it would only bounce a player's orders. Commands and the size limit still hold.
    """

    line_length_limit = LONG_LINE_LIMIT


class _LongLineLMTP(LMTP):
    """LMTP with the same tolerance of long lines."""

    line_length_limit = LONG_LINE_LIMIT


class ListenerController(Controller):
    """aiosmtpd's threaded controller speaking SMTP or LMTP, with the size limit applied."""

    def __init__(
        self,
        handler: InboxHandler,
        *,
        hostname: str,
        port: int,
        max_message_bytes: int,
        **kwargs: Any,
    ) -> None:
        self.use_lmtp = handler.lmtp
        super().__init__(
            handler,
            hostname=hostname,
            port=port,
            data_size_limit=max_message_bytes,
            ident="Diplomacy judge",
            enable_SMTPUTF8=True,
            **kwargs,
        )

    def factory(self) -> SMTP:
        kind = _LongLineLMTP if self.use_lmtp else _LongLineSMTP
        return kind(self.handler, **self.SMTP_kwargs)


def _check_port(host: str, port: int) -> None:
    """Fail at once on a port in use (aiosmtpd would only say so after its ready timeout)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)


def start_listener(
    engine: Engine,
    serves: Callable[[str], bool],
    *,
    host: str,
    port: int,
    lmtp: bool = False,
    max_message_bytes: int = 10_485_760,
    on_stored: Callable[[int], None] | None = None,
) -> ListenerController:
    """Start listening in a background thread; stop with `.stop()`."""
    _check_port(host, port)
    handler = InboxHandler(engine, serves, lmtp=lmtp, on_stored=on_stored)
    controller = ListenerController(
        handler, hostname=host, port=port, max_message_bytes=max_message_bytes
    )
    controller.start()
    return controller
