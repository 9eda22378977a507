"""The processor: each inbox row in one transaction with the mails it causes; failures are held."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from judge import clock
from judge.desk import commands as desk
from judge.desk.replies import Reply
from judge.processor import ProcessorSettings, process_next
from judge.store import InboxMessage, InboxState, OutboxMessage, session_scope
from judge.store.inbox import accept, claim_next, release
from judge.store.outbox import Identity
from tests.migrated import migrated_sqlite

SETTINGS = ProcessorSettings(
    identity=Identity("judge@example.org", "Test Judge"),
    keeper="keeper@example.org",
    replies_per_day=3,
    lease=timedelta(minutes=5),
)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


counter = iter(range(10_000))


def mail(
    body: str, *, subject: str = "orders", sender: str = "ann@example.org", **headers: str
) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = subject
    message["Message-ID"] = f"<m{next(counter)}@example.org>"
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body)
    return message.as_bytes()


def deliver(engine: Engine, raw: bytes, envelope_from: str | None = "ann@example.org") -> int:
    with session_scope(engine) as session:
        row_id, _ = accept(session, raw, source="test", envelope_from=envelope_from)
        return row_id


def inbox(engine: Engine, row_id: int) -> InboxMessage:
    with session_scope(engine) as session:
        row = session.get(InboxMessage, row_id)
        assert row is not None
        return row


def outbox(engine: Engine) -> list[OutboxMessage]:
    with session_scope(engine) as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def run_all(engine: Engine) -> None:
    while process_next(engine, SETTINGS) is not None:
        pass


def test_help_is_answered_in_reply_to_the_mail(engine: Engine) -> None:
    raw = mail("help\n\n-- \nAnn", subject="Re: question")
    row_id = deliver(engine, raw)
    run_all(engine)
    row = inbox(engine, row_id)
    assert row.state == InboxState.DONE
    assert row.outcome is not None and "help" in row.outcome
    [reply] = outbox(engine)
    assert (reply.kind, reply.to_addr, reply.inbox_id) == ("help", "ann@example.org", row_id)
    sent = message_from_bytes(reply.raw)
    assert sent["In-Reply-To"] == message_from_bytes(raw)["Message-ID"]
    assert sent["Subject"] == "Help from Test Judge"
    assert "HELP" in sent.get_payload(decode=True).decode()


def test_a_mail_is_processed_once_however_often_it_arrives(engine: Engine) -> None:
    raw = mail("HELP")
    deliver(engine, raw)
    deliver(engine, raw)
    deliver(engine, b"Received: by relay2\r\n" + raw)
    run_all(engine)
    assert len(outbox(engine)) == 1


def test_unreadable_mail_gets_a_reply_saying_why(engine: Engine) -> None:
    raw = (
        b"From: ann@example.org\r\nMessage-ID: <img@x>\r\nSubject: map\r\n"
        b"Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
    )
    row_id = deliver(engine, raw)
    run_all(engine)
    [reply] = outbox(engine)
    assert reply.kind == "unreadable"
    assert b"no text part" in message_from_bytes(reply.raw).get_payload(decode=True)
    assert inbox(engine, row_id).state == InboxState.DONE


def test_nothing_to_do_gets_a_short_answer(engine: Engine) -> None:
    deliver(engine, mail("> A PAR-BUR\n-- \nAnn"))
    run_all(engine)
    assert [r.kind for r in outbox(engine)] == ["nothing"]


@pytest.mark.parametrize(
    ("headers", "envelope_from"),
    [
        ({"Auto_Submitted": "auto-replied"}, "ann@example.org"),
        ({"Precedence": "bulk"}, "ann@example.org"),
        ({"List_Id": "<l.example.org>"}, "ann@example.org"),
        ({"X_Judge_Loop": "judge@example.org"}, "ann@example.org"),
        ({}, ""),
    ],
)
def test_automated_mail_is_not_answered(
    engine: Engine, headers: dict[str, str], envelope_from: str
) -> None:
    row_id = deliver(engine, mail("HELP", **headers), envelope_from=envelope_from)
    run_all(engine)
    assert outbox(engine) == []
    row = inbox(engine, row_id)
    assert row.state == InboxState.IGNORED
    assert row.outcome is not None and row.outcome.startswith("ignored")


def test_daily_cap_sends_one_notice_then_nothing(engine: Engine) -> None:
    ids = [deliver(engine, mail("HELP")) for _ in range(6)]
    run_all(engine)
    assert [r.kind for r in outbox(engine)] == ["help", "help", "help", "reply_limit"]
    assert (
        inbox(engine, ids[3]).outcome
        == "replied: reply_limit (outbox 4); withheld by the daily cap: help"
    )
    assert inbox(engine, ids[5]).outcome == "withheld by the daily cap: help"
    assert inbox(engine, ids[5]).state == InboxState.DONE
    clock.advance(timedelta(days=1))
    deliver(engine, mail("HELP"))
    run_all(engine)
    assert [r.kind for r in outbox(engine)][-1] == "help"


def test_failure_holds_the_mail_writes_nothing_and_tells_the_keeper(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(read: object, where: object = None) -> list[Reply]:
        # The first reply renders; the second names a template variable it does not give.
        return [Reply("help", "help"), Reply("unreadable", "unreadable", {"subject": "x"})]

    monkeypatch.setattr(desk, "handle", broken)
    row_id = deliver(engine, mail("HELP"))
    assert process_next(engine, SETTINGS) == row_id
    row = inbox(engine, row_id)
    assert row.state == InboxState.HELD
    assert row.error is not None and "problem" in row.error
    [notice] = outbox(engine)  # the half-written help reply was rolled back
    assert (notice.kind, notice.to_addr) == ("held_notice", "keeper@example.org")
    assert message_from_bytes(notice.raw)["Auto-Submitted"] == "auto-generated"
    assert (
        f"judge mail retry {row_id}"
        in message_from_bytes(notice.raw).get_payload(decode=True).decode()
    )
    assert process_next(engine, SETTINGS) is None  # held mail is not looped on

    monkeypatch.undo()
    with session_scope(engine) as session:
        assert release(session, row_id)
    run_all(engine)
    assert inbox(engine, row_id).state == InboxState.DONE
    assert [r.kind for r in outbox(engine)] == ["held_notice", "help"]


def test_a_mail_cut_short_by_restarts_is_processed_not_held(engine: Engine) -> None:
    """Three claims never finished (the processor killed each time, as in a storm of kills)
    say nothing against the mail: it is run again, in a process of its own, and answered."""
    row_id = deliver(engine, mail("HELP"))
    lease = SETTINGS.lease
    for _ in range(5):
        assert claim_next(engine, lease=lease) is not None  # claimed, then the process "dies"
        clock.advance(lease)
    assert process_next(engine, SETTINGS) == row_id
    row = inbox(engine, row_id)
    assert row.state == InboxState.DONE, row.error
    assert [r.kind for r in outbox(engine)] == ["help"]


def test_a_mail_that_kills_its_own_process_is_held(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run again after an interruption, a mail whose processing kills the process that runs
    it (here: SIGKILL from inside, as a crash in a library would) kills only its child process:
    the processor lives on and holds it, and tells the keeper."""
    import os
    import signal

    def crash(read: object, where: object = None) -> list[Reply]:
        os.kill(os.getpid(), signal.SIGKILL)
        raise AssertionError("not reached")

    row_id = deliver(engine, mail("HELP"))
    assert claim_next(engine, lease=SETTINGS.lease) is not None  # the first run died on it
    clock.advance(SETTINGS.lease)
    monkeypatch.setattr(desk, "handle", crash)
    parent = os.getpid()
    assert process_next(engine, SETTINGS) == row_id
    assert os.getpid() == parent
    row = inbox(engine, row_id)
    assert row.state == InboxState.HELD
    assert row.error is not None and "killed by signal 9" in row.error
    assert [r.kind for r in outbox(engine)] == ["held_notice"]


def test_order_echo_lists_each_line_in_full_or_its_error(engine: Engine) -> None:
    deliver(engine, mail("A PAR-BUR\nF LON S A YOR-NWY\nA XYZ-BUR\n> A MUN-BER\n"))
    run_all(engine)
    [reply] = outbox(engine)
    assert reply.kind == "echo"
    text = message_from_bytes(reply.raw).get_payload(decode=True).decode()
    assert "not attached to any game" in text
    assert "Paris" in text and "Burgundy" in text and "London" in text
    assert "ERROR" in text and "XYZ" in text
    assert "MUN" not in text
    assert "1 of 3 lines had errors" in text
    assert "= Army Paris -> Burgundy" in text


def test_help_and_orders_in_one_mail_get_both_answers(engine: Engine) -> None:
    deliver(engine, mail("England: F LON-NTH\nhelp\nEND\nA PAR-BUR"))
    run_all(engine)
    [answer] = outbox(engine)  # one mail answers both
    assert answer.kind == "help+echo"
    text = message_from_bytes(answer.raw).get_payload(decode=True).decode()
    assert text.index("CREATE game password variant") < text.index("Fleet London -> North Sea")
    assert "England: Fleet London -> North Sea" in text
    assert "Paris" not in text  # after END nothing is read
    assert "held 1 order line;" in text


def test_a_huge_mail_is_read_only_up_to_the_line_limit(engine: Engine) -> None:
    from judge.desk.replies import MAX_LINES

    deliver(engine, mail("A PAR H\n" * (MAX_LINES + 50)))
    run_all(engine)
    [reply] = outbox(engine)
    text = message_from_bytes(reply.raw).get_payload(decode=True).decode()
    assert text.count("= Army Paris holds") == MAX_LINES
    assert "The last 50 lines of your mail were not read" in text


def test_a_database_failure_leaves_the_mail_for_another_try(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    def database_gone(read: object, where: object = None) -> list[Reply]:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    monkeypatch.setattr(desk, "handle", database_gone)
    row_id = deliver(engine, mail("HELP"))
    with pytest.raises(OperationalError):
        process_next(engine, SETTINGS)
    row = inbox(engine, row_id)
    assert (row.state, row.attempts) == (InboxState.NEW, 1)
    monkeypatch.undo()
    assert process_next(engine, SETTINGS) is None  # still claimed by the failed attempt
    clock.advance(SETTINGS.lease)
    assert process_next(engine, SETTINGS) == row_id
    assert inbox(engine, row_id).state == InboxState.DONE


def test_a_huge_subject_is_repeated_capped_and_without_bidi_or_controls(engine: Engine) -> None:
    """The answer's Subject repeats at most SUBJECT_REPEATED characters of the incoming one, on
    one line with no control or bidirectional character: no header an attacker fills goes out
    under the judge's name (a 500 KB Subject made a 616 KB header)."""
    from judge.mail.mime import SUBJECT_REPEATED

    forged = "\u202eyour account is closed, call +1 555\u202c \u0007" + "x" * 500_000
    raw = (
        f"From: ann@example.org\r\nTo: judge@example.org\r\nSubject: {forged}\r\n"
        "Message-ID: <huge@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        "A PAR-BUR\r\n"
    ).encode()
    deliver(engine, raw)
    run_all(engine)
    [reply] = outbox(engine)
    head = reply.raw.split(b"\r\n\r\n", 1)[0]
    assert len(head) < 2_000, len(head)
    subject = str(message_from_bytes(reply.raw, policy=default_policy)["Subject"])
    assert subject.startswith("Orders read: ") and subject.endswith("…")
    assert "\u202e" not in subject and "\u202c" not in subject and "\x07" not in subject
    assert len(subject) <= len("Orders read: ") + SUBJECT_REPEATED
    assert len(reply.raw) < 5_000  # the body repeats no more of it either
