"""The relay (the private Postfix) is down for a while, then back: every queued reply goes out once,
and soon after the relay returns.

Dovecot stays up, so the daemon keeps reading mail over IMAP and queueing replies while the relay
cannot be reached; the sender stops trying mails and looks for the relay on its own short
backoff. When Postfix returns, the queue drains before the tried reply's own retry was due (a
minute after it failed, the old fixed wait), and each reply arrives exactly once.
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

    sections = judge_sections(
        tmp_path,
        database_url,
        judge_box.address,
        mail_servers=mail_servers,
        imap_password=judge_box.password,
    )
    # A failed mail's own retry waits a minute (the old fixed wait); the relay is looked for
    # every second.
    sections["outbound"].update(first_retry_seconds=60.0, max_retry_seconds=60.0)
    sections["relay"]["reconnect_max_seconds"] = 1.0
    judge = judge_process(sections)
    mail_servers.stop_postfix()
    try:
        judge.start()
        judge.wait_ready()

        def written_and_watched() -> bool:
            judge.assert_alive()
            looks = judge.log_path.read_text(errors="replace").count("still unreachable")
            states = judge.outbox_states()
            return looks >= 2 and states == {OutboxState.PENDING: MAILS}

        # Down for a while: every reply written, none sent, the relay looked for again and again.
        wait_until(written_and_watched, timeout=180, what="every reply waiting for the dead relay")
        assert player.count() == 0
        with session_scope(judge.engine) as session:
            own_retries = session.scalars(
                select(OutboxMessage.next_attempt_at).where(OutboxMessage.attempts > 0)
            ).all()
        assert own_retries, "no reply was tried against the dead relay"
    finally:
        mail_servers.start_postfix()

    wait_until(
        lambda: judge.assert_alive() or judge.outbox_states() == {"sent": MAILS},
        timeout=180,
        what="the queue drained once the relay was back",
    )
    with session_scope(judge.engine) as session:
        sent_ids = {m.strip("<>") for m in session.scalars(select(OutboxMessage.message_id))}
        sent_at = session.scalars(select(OutboxMessage.sent_at)).all()
    # Every reply went out before the first failed one's own retry was due: the relay's
    # return was noticed by the sender, not waited out by each mail.
    assert max(sent_at) < min(own_retries), (max(sent_at), min(own_retries))
    log = judge.log_path.read_text(errors="replace")
    assert "reachable again after" in log and "mails waiting for a retry made due" in log
    seen = wait_until(
        lambda: (c := Counter(message_ids(player.messages()))) and set(c) == sent_ids and c,
        timeout=120,
        what="every reply in the player's mailbox",
    )
    assert all(count == 1 for count in seen.values()), seen
    judge.assert_alive()
