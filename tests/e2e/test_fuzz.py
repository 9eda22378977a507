"""Hostile and broken mails through Postfix and IMAP, and straight to the daemon's SMTP listener.

The daemon must never stop, and each mail must end answered (a reply to its sender), ignored as
automated, or held with its error; nobody named in an injected header may get any mail.
"""

from __future__ import annotations

import smtplib
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from harness import free_port, fuzz_mails, header_values, judge_sections, wait_port
from sqlalchemy import select

from judge.store.db import session_scope
from judge.store.models import InboxMessage, InboxState, OutboxMessage, OutboxState

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def _send(port: int, sender: str, to: str, raw: bytes) -> str:
    """Submit one mail; return 'accepted' or the refusal's code and text."""
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
            smtp.sendmail(sender, [to], raw)
    except smtplib.SMTPResponseException as error:
        return f"{error.smtp_code} {error.smtp_error!r}"
    except smtplib.SMTPRecipientsRefused as error:
        return f"refused {error.recipients!r}"
    return "accepted"


def test_fuzzed_mails_never_stop_the_daemon_and_each_is_answered_ignored_or_held(
    mail_servers: Any,
    mail_account: Any,
    new_account: Callable[[], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
    wait_until: Callable[..., Any],
) -> None:
    judge_box = mail_account
    sender = new_account()
    victim = new_account()
    listener = free_port()
    sections = judge_sections(
        tmp_path,
        database_url,
        judge_box.address,
        mail_servers=mail_servers,
        imap_password=judge_box.password,
        smtp_port=listener,
    )
    sections["smtp"]["max_message_bytes"] = 20 * 1024 * 1024
    judge = judge_process(sections)
    judge.start()
    wait_port(listener, process=judge)
    judge.wait_ready()

    outcomes: dict[str, str] = {}
    for name, envelope, raw in fuzz_mails(
        sender.address, judge_box.address, victim.address, f"pf-{tmp_path.name}"
    ):
        outcomes[f"postfix {name}"] = _send(
            mail_servers.smtp_port, envelope, judge_box.address, raw
        )
    for name, envelope, raw in fuzz_mails(
        sender.address, judge_box.address, victim.address, f"ls-{tmp_path.name}"
    ):
        outcomes[f"listener {name}"] = _send(listener, envelope, judge_box.address, raw)
    judge.assert_alive()
    # Postfix takes all of them (it is no judge of content). The listener may refuse a mail at
    # once, which is a clear error to the sender too, but only permanently and with a reason.
    refused = {k: v for k, v in outcomes.items() if v != "accepted"}
    assert not {k for k in refused if k.startswith("postfix ")}, refused
    for name, answer in refused.items():
        code, _, text = answer.partition(" ")
        assert code.isdigit() and code.startswith("5") and len(text) > 5, (name, answer)
    listener_stored = sum(
        1 for k, v in outcomes.items() if k.startswith("listener ") and v == "accepted"
    )
    postfix_stored = sum(1 for k in outcomes if k.startswith("postfix "))

    wait_until(lambda: judge_box.count("INBOX") == 0, timeout=180, what="the IMAP copies stored")

    def settled() -> bool:
        judge.assert_alive()
        inbox = judge.inbox_states()
        return inbox.get(InboxState.NEW, 0) == 0 and judge.outbox_states().get("pending", 0) == 0

    wait_until(settled, timeout=180, what="every fuzzed mail handled and every reply sent")

    with session_scope(judge.engine) as session:
        inbox = list(session.scalars(select(InboxMessage)))
        outbox = list(session.scalars(select(OutboxMessage)))
    replied = {row.inbox_id for row in outbox}
    by_state: dict[str, list[str]] = {}
    for row in inbox:
        by_state.setdefault(row.state, []).append(row.message_id or f"#{row.id}")
        if row.state == InboxState.DONE:
            assert row.id in replied, f"inbox {row.id} ({row.message_id}) done without an answer"
        elif row.state == InboxState.HELD:
            assert row.error, f"inbox {row.id} held without its error"
        else:
            assert row.state == InboxState.IGNORED, (row.id, row.state)
            assert row.outcome
    # Every mail either side accepted was stored (mails without a Message-ID may merge by content).
    assert len(inbox) >= postfix_stored + listener_stored - 2, (len(inbox), outcomes)
    ignored = " ".join(by_state.get(InboxState.IGNORED, []))
    assert "fuzz-auto-reply" in ignored and "fuzz-bounce" in ignored, by_state

    # Every answer went to the sender alone, and was sent.
    ids = {row.id: row.message_id for row in inbox}
    misdirected = {
        ids[row.inbox_id]: row.to_addr for row in outbox if row.to_addr != sender.address
    }
    assert not misdirected, f"answers sent to someone other than the sender: {misdirected}"
    assert {row.state for row in outbox} <= {OutboxState.SENT}
    for row in outbox:
        for name in ("To", "Cc", "Bcc"):
            assert victim.address not in " ".join(header_values(row.raw, name))
    wait_until(
        lambda: sender.count() == len(outbox), timeout=120, what="every answer in the sender's box"
    )
    assert victim.count() == 0, "an injected header reached its victim"

    # Still alive and still answering after all that.
    good = EmailMessage()
    good["From"] = sender.address
    good["To"] = judge_box.address
    good["Subject"] = "after the storm"
    good["Message-ID"] = f"<after-{tmp_path.name}@example.test>"
    good.set_content("HELP\n")
    assert (
        _send(mail_servers.smtp_port, sender.address, judge_box.address, bytes(good)) == "accepted"
    )
    wait_until(
        lambda: sender.count() == len(outbox) + 1, timeout=120, what="the answer to a normal mail"
    )
    judge.assert_alive()
