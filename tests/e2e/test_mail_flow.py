"""A player's mail to the judge and the judge's answer, over real Postfix and Dovecot.

In through IMAP (Postfix delivers to the judge's mailbox, the daemon's poller reads it) or through
the daemon's own SMTP listener; out through the private Postfix into the player's IMAP mailbox.
"""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from pathlib import Path
from typing import Any

import pytest
from harness import free_port, header_values, judge_sections, mail_log_lines, wait_port

pytestmark = pytest.mark.e2e


def _orders_mail(sender: str, to: str, ident: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = "help, please"
    message["Message-ID"] = f"<{ident}>"
    message.set_content("HELP\n")
    return bytes(message)


def _replies_to(account: Any, ident: str) -> list[bytes]:
    return [
        raw
        for raw in account.messages().values()
        if ident in [v.strip().strip("<>") for v in header_values(raw, "In-Reply-To")]
    ]


def _body(raw: bytes) -> str:
    """The decoded text of a single-part reply (quoted-printable may split words across lines)."""
    message = BytesParser(policy=default).parsebytes(raw)
    return str(message.get_content())


def _check_reply(raw: bytes, judge_address: str, player: str) -> None:
    assert judge_address in header_values(raw, "From")[0]
    assert header_values(raw, "To") == [player]
    assert header_values(raw, "Auto-Submitted") == ["auto-replied"]
    assert len(header_values(raw, "Message-ID")) == 1


def test_mail_in_by_imap_and_reply_out_by_postfix(
    mail_servers: Any,
    mail_account: Any,
    make_account: Callable[[str], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    judge_box = mail_account
    player = make_account("player1")
    local, _, domain = judge_box.address.partition("@")
    sections = judge_sections(
        tmp_path,
        database_url,
        judge_box.address,
        mail_servers=mail_servers,
        imap_password=judge_box.password,
    )
    judge = judge_process(sections)
    judge.start()
    judge.wait_ready()

    ident = f"flow-imap-{tmp_path.name}@example.test"
    # A plus-address, as a player replying to a token address would use.
    player.send([f"{local}+g1@{domain}"], _orders_mail(player.address, judge_box.address, ident))

    try:
        replies = wait_until(
            lambda: judge.assert_alive() or judge.no_held() and _replies_to(player, ident),
            timeout=120,
            what="the judge's reply in the player's mailbox",
        )
    except AssertionError as error:
        raise AssertionError(
            f"{error}\njudge: {judge.inbox_states()} {judge.outbox_states()}\n{judge.log_tail()}\n"
            f"mail logs:\n{mail_log_lines(mail_servers, local)}"
        ) from None
    assert len(replies) == 1
    _check_reply(replies[0], judge_box.address, player.address)
    assert "HELP" in _body(replies[0]).upper()
    # The mail left the judge's inbox for the processed folder once stored.
    wait_until(lambda: judge_box.count("INBOX") == 0, what="the judge's INBOX emptied")
    assert judge_box.count("Processed") == 1
    inbox = judge.inbox_states()
    assert inbox == {"done": 1}
    assert judge.outbox_states() == {"sent": 1}


def test_mail_in_by_the_smtp_listener_and_reply_out_by_postfix(
    mail_servers: Any,
    make_account: Callable[[str], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    player = make_account("player2")
    judge_address = "judge@example.test"
    port = free_port()
    judge = judge_process(
        judge_sections(
            tmp_path, database_url, judge_address, smtp_port=port, relay_port=mail_servers.smtp_port
        )
    )
    judge.start()
    wait_port(port, process=judge)
    judge.wait_ready()

    import smtplib

    ident = f"flow-smtp-{tmp_path.name}@example.test"
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.sendmail(
            player.address, [judge_address], _orders_mail(player.address, judge_address, ident)
        )
        # The listener takes mail for the judge only: relaying through it is refused.
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            smtp.sendmail(player.address, ["someone@elsewhere.test"], b"Subject: x\r\n\r\nx\r\n")

    replies = wait_until(
        lambda: judge.assert_alive() or judge.no_held() and _replies_to(player, ident),
        timeout=120,
        what="the judge's reply in the player's mailbox",
    )
    assert len(replies) == 1
    _check_reply(replies[0], judge_address, player.address)
    assert judge.inbox_states() == {"done": 1}
    assert judge.outbox_states() == {"sent": 1}


def test_postfix_hands_mail_to_the_lmtp_listener_and_the_reply_comes_back(
    mail_servers: Any,
    mail_account: Any,
    make_account: Callable[[str], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    """The Mailman-style setup: Postfix delivers the judge's mail over LMTP straight to the judge."""
    judge_address = mail_account.address  # an address Postfix accepts, routed away from Dovecot
    player = make_account("player3")
    port = free_port()
    sections = judge_sections(
        tmp_path, database_url, judge_address, smtp_port=port, relay_port=mail_servers.smtp_port
    )
    sections["smtp"]["lmtp"] = True
    judge = judge_process(sections)
    judge.start()
    wait_port(port, process=judge)
    judge.wait_ready()
    mail_servers.route(judge_address, f"lmtp:inet:127.0.0.1:{port}")
    try:
        ident = f"flow-lmtp-{tmp_path.name}@example.test"
        local, _, domain = judge_address.partition("@")
        player.send([f"{local}+t9@{domain}"], _orders_mail(player.address, judge_address, ident))
        replies = wait_until(
            lambda: judge.assert_alive() or judge.no_held() and _replies_to(player, ident),
            timeout=120,
            what="the judge's reply in the player's mailbox",
        )
    finally:
        mail_servers.route(judge_address, None)
    assert len(replies) == 1
    _check_reply(replies[0], judge_address, player.address)
    assert mail_account.count() == 0  # it went to the judge, not to the Dovecot mailbox
    assert judge.inbox_states() == {"done": 1}


def test_orders_to_a_seat_reply_address_act_for_the_seat_over_imap(
    mail_servers: Any,
    mail_account: Any,
    make_account: Callable[[str], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    """A seat's reply token survives Postfix and Dovecot: the Delivered-To of the stored copy
    carries judge+TOKEN, so a mail to that address acts for the seat without a password."""
    from judge.map_files import load_map, start_case
    from judge.store import session_scope
    from judge.store.game_queries import create_game, create_person, seat_of, sign_on
    from judge.store.games import GameStatus

    judge_box = mail_account
    player = make_account("player4")
    local, _, domain = judge_box.address.partition("@")
    judge = judge_process(
        judge_sections(
            tmp_path,
            database_url,
            judge_box.address,
            mail_servers=mail_servers,
            imap_password=judge_box.password,
        )
    )
    judge.start()
    judge.wait_ready()
    game_map = load_map("standard")
    with session_scope(judge.engine) as session:
        game = create_game(
            session,
            "e2e",
            powers=game_map.powers,
            phase=game_map.start_phase,
            position=start_case(game_map),
        )
        game.status = GameStatus.ACTIVE
        seat = seat_of(session, game, "FRANCE")
        assert seat is not None
        token = sign_on(session, seat, create_person(session, player.address), "secret")

    ident = f"flow-token-{tmp_path.name}@example.test"
    message = EmailMessage()
    message["From"] = player.address
    message["To"] = f"{local}+{token}@{domain}"
    message["Subject"] = "orders"
    message["Message-ID"] = f"<{ident}>"
    message.set_content("A PAR-BUR\n")
    player.send([f"{local}+{token}@{domain}"], bytes(message))
    replies = wait_until(
        lambda: judge.assert_alive() or judge.no_held() and _replies_to(player, ident),
        timeout=120,
        what="the judge's answer to the orders in the player's mailbox",
    )
    assert len(replies) == 1
    assert header_values(replies[0], "Reply-To") == [f"{local}+{token}@{domain}"]
    text = _body(replies[0])
    assert "= Army Paris -> Burgundy" in text
    assert "Army Marseilles" in text  # still without an order
