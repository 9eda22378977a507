"""A player whose address is not ASCII, over real Postfix both ways (SMTPUTF8, RFC 6531).

Dovecot 2.3's LMTP does not offer SMTPUTF8, so Postfix cannot store such mail in a Dovecot
mailbox (it bounces it: "SMTPUTF8 is required, but was not offered"). So here Postfix hands the
judge's mail to the judge's own LMTP listener, and the player's mail to a small LMTP server
standing in for the player's provider; both ways pass through the private Postfix.
"""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from harness import free_port, judge_sections, mail_log_lines, wait_port

pytestmark = pytest.mark.e2e


class LmtpController(Controller):
    """aiosmtpd's controller speaking LMTP (the private Postfix's only client transport)."""

    def factory(self) -> LMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


class PlayersProvider:
    """A mail server's handler keeping each mail with the options of its MAIL command."""

    def __init__(self) -> None:
        self.mails: list[tuple[str, list[str], list[str], bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.mails.append(
            (
                envelope.mail_from,
                list(envelope.rcpt_tos),
                [option.upper() for option in envelope.mail_options],
                envelope.original_content,
            )
        )
        return "250 OK"


def test_a_non_ascii_address_is_answered_exactly_as_sent_through_postfix(
    mail_servers: Any,
    mail_account: Any,
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    judge_address = mail_account.address
    player = f"jörg.{tmp_path.name[-12:]}@{mail_servers.domain}"
    provider = PlayersProvider()
    sink = LmtpController(provider, hostname="127.0.0.1", port=free_port(), enable_SMTPUTF8=True)
    sink.start()
    port = free_port()
    sections = judge_sections(
        tmp_path, database_url, judge_address, smtp_port=port, relay_port=mail_servers.smtp_port
    )
    sections["smtp"]["lmtp"] = True
    judge = judge_process(sections)
    judge.start()
    wait_port(port, process=judge)
    judge.wait_ready()
    recipients = mail_servers.postfix_config / "recipients"
    listed = recipients.read_text()
    recipients.write_text(listed + f"{player} ok\n")
    mail_servers.route(player, f"lmtp:inet:127.0.0.1:{sink.port}")
    mail_servers.route(judge_address, f"lmtp:inet:127.0.0.1:{port}")
    try:
        ident = f"utf8-{tmp_path.name}@exämple.test"
        raw = (
            f"From: Jörg Müller <{player}>\r\nTo: {judge_address}\r\nSubject: Grüße, HELP\r\n"
            f"Message-ID: <{ident}>\r\nMIME-Version: 1.0\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n\r\nHELP\r\n"
        ).encode()
        with smtplib.SMTP("127.0.0.1", mail_servers.smtp_port, timeout=30) as smtp:
            smtp.ehlo()
            assert smtp.has_extn("smtputf8")
            smtp.sendmail(player, [judge_address], raw, mail_options=["SMTPUTF8"])
        try:
            wait_until(
                lambda: judge.assert_alive() or provider.mails,
                timeout=60,
                what="the judge's reply at the player's provider",
            )
        except AssertionError as error:
            raise AssertionError(
                f"{error}\n{mail_log_lines(mail_servers, 'status=')}\n{judge.log_tail()}"
            ) from None
    finally:
        recipients.write_text(listed)
        mail_servers.route(player, None)
        mail_servers.route(judge_address, None)
        sink.stop()
    [(mail_from, rcpt_tos, options, content)] = provider.mails
    assert rcpt_tos == [player]
    assert "SMTPUTF8" in options
    reply = BytesParser(policy=default).parsebytes(content)
    assert reply["To"] == player
    assert reply["In-Reply-To"] == f"<{ident}>"
    assert f"To: {player}".encode() in content  # the address as sent, in UTF-8
    assert judge.inbox_states() == {"done": 1}
    assert judge.outbox_states() == {"sent": 1}
