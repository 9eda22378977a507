"""The relay (the private Postfix) is down for a while, then back: every queued reply goes out once.

Dovecot stays up, so the daemon keeps reading mail over IMAP and queueing replies while every
attempt to send fails; when Postfix returns, the queue drains and each reply arrives exactly once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from harness import judge_sections, message_ids
from sqlalchemy import select

from judge.store.db import session_scope
from judge.store.models import OutboxMessage, OutboxState

pytestmark = pytest.mark.e2e

MAILS = 20


def _mail(sender: str, judge: str, n: int, tag: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = judge
    message["Subject"] = f"relay {n}"
    message["Message-ID"] = f"<relay-{n}-{tag}@example.test>"
    message.set_content("HELP\n")
    return bytes(message)


def test_replies_queued_while_the_relay_is_down_all_go_out_once_when_it_is_back(
    mail_servers: Any,
    mail_account: Any,
    new_account: Callable[[], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    judge_box = mail_account
    player = new_account()
    tag = tmp_path.name
    for n in range(MAILS):
        player.send([judge_box.address], _mail(player.address, judge_box.address, n, tag))
    wait_until(lambda: judge_box.count() == MAILS, what="the mails in the judge's mailbox")

    judge = judge_process(
        judge_sections(
            tmp_path,
            database_url,
            judge_box.address,
            mail_servers=mail_servers,
            imap_password=judge_box.password,
        )
    )
    mail_servers.stop_postfix()
    try:
        judge.start()
        judge.wait_ready()

        def all_failed_twice() -> bool:
            judge.assert_alive()
            try:
                with session_scope(judge.engine) as session:
                    rows = session.execute(
                        select(OutboxMessage.state, OutboxMessage.attempts)
                    ).all()
            except Exception:  # the daemon has not created its tables yet
                return False
            return len(rows) == MAILS and all(
                state == OutboxState.PENDING and attempts >= 2 for state, attempts in rows
            )

        # Down for a while: every reply written and tried at least twice without success.
        wait_until(
            all_failed_twice, timeout=180, what="every reply tried twice against the dead relay"
        )
        assert player.count() == 0
    finally:
        mail_servers.start_postfix()

    wait_until(
        lambda: judge.assert_alive() or judge.outbox_states() == {"sent": MAILS},
        timeout=180,
        what="the queue drained once the relay was back",
    )
    with session_scope(judge.engine) as session:
        sent_ids = {m.strip("<>") for m in session.scalars(select(OutboxMessage.message_id))}
    seen = wait_until(
        lambda: (c := Counter(message_ids(player.messages()))) and set(c) == sent_ids and c,
        timeout=120,
        what="every reply in the player's mailbox",
    )
    assert all(count == 1 for count in seen.values()), seen
    judge.assert_alive()
