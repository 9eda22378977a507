"""The judge stays silent to robots and stops answering one address after its daily allowance."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from judge import clock
from judge.mail.loopguard import ReplyDecision, automated_reason, sender_key
from judge.store import session_scope
from judge.store.outbox import count_reply
from tests.migrated import migrated_sqlite

JUDGE = "judge@example.org"
HUMAN = {"from": "Ann <ann@example.org>", "subject": "orders"}


def test_a_person_gets_an_answer() -> None:
    assert automated_reason(HUMAN, "ann@example.org", JUDGE) is None
    assert automated_reason({**HUMAN, "auto-submitted": "No"}, None, JUDGE) is None
    assert automated_reason({**HUMAN, "precedence": "first-class"}, None, JUDGE) is None
    assert automated_reason({"from": "notjudge@example.org"}, None, JUDGE) is None


@pytest.mark.parametrize(
    ("extra", "envelope_from"),
    [
        ({}, ""),
        ({}, "<>"),
        ({"return-path": "<>"}, None),
        ({"auto-submitted": "auto-replied"}, None),
        ({"auto-submitted": " Auto-Generated ; comment"}, None),
        ({"precedence": "bulk"}, None),
        ({"precedence": "Junk"}, None),
        ({"precedence": "list"}, None),
        ({"list-id": "<players.example.org>"}, None),
        ({"list-unsubscribe": "<mailto:x@y>"}, None),
        ({"x-judge-loop": JUDGE}, None),
        ({"x-autoreply": "yes"}, None),
        ({"x-auto-response-suppress": "All"}, None),
        ({"content-type": "multipart/report; report-type=delivery-status"}, None),
        ({"from": "MAILER-DAEMON@mx.example.org"}, None),
        ({"from": "Mail Delivery <postmaster@example.net>"}, None),
        ({"from": f"Judge <{JUDGE}>"}, None),
    ],
)
def test_robots_get_no_answer(extra: dict[str, str], envelope_from: str | None) -> None:
    assert automated_reason({**HUMAN, **extra}, envelope_from, JUDGE) is not None


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 3, 1, 12, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def decisions(engine: Engine, address: str, times: int, limit: int) -> list[ReplyDecision]:
    result = []
    for _ in range(times):
        with session_scope(engine) as session:
            result.append(count_reply(session, address, limit))
    return result


def test_daily_cap_then_one_notice_then_silence(engine: Engine) -> None:
    got = decisions(engine, "Ann@Example.org", 5, limit=2)
    assert got == [
        ReplyDecision.SEND,
        ReplyDecision.SEND,
        ReplyDecision.NOTICE,
        ReplyDecision.SILENT,
        ReplyDecision.SILENT,
    ]
    # The cap is per address, case-insensitively.
    assert decisions(engine, "ann@example.org", 1, limit=2) == [ReplyDecision.SILENT]
    assert decisions(engine, "bob@example.org", 1, limit=2) == [ReplyDecision.SEND]


def test_the_cap_starts_again_the_next_day(engine: Engine) -> None:
    decisions(engine, "ann@example.org", 4, limit=1)
    clock.advance(timedelta(days=1))
    assert decisions(engine, "ann@example.org", 1, limit=1) == [ReplyDecision.SEND]


def test_a_rolled_back_mail_is_not_counted(engine: Engine) -> None:
    with pytest.raises(RuntimeError), session_scope(engine) as session:
        count_reply(session, "ann@example.org", 1)
        raise RuntimeError("processor failed")
    assert decisions(engine, "ann@example.org", 1, limit=1) == [ReplyDecision.SEND]


def test_plus_addresses_are_one_sender_for_the_cap(engine: Engine) -> None:
    got = decisions(engine, "ann+games@example.org", 1, limit=2)
    got += decisions(engine, "Ann+other@Example.ORG", 1, limit=2)
    got += decisions(engine, "ann@example.org", 1, limit=2)
    assert got == [ReplyDecision.SEND, ReplyDecision.SEND, ReplyDecision.NOTICE]
    assert sender_key("Ann+x@Example.ORG") == "ann@example.org"
    assert sender_key("+x@example.org") == "+x@example.org"  # no mailbox name before the +


@pytest.mark.parametrize(
    ("content_type", "reason"),
    [
        ("multipart/report; report-type=disposition-notification; boundary=x", "read receipt"),
        ("multipart/report; report-type=feedback-report; boundary=x", "feedback-loop report"),
        ("multipart/report; report-type=delivery-status; boundary=x", "delivery status"),
        ("message/rfc822", "only another mail"),
    ],
)
def test_reports_and_carried_mails_are_automated(content_type: str, reason: str) -> None:
    headers = {"from": "ann@example.org", "content-type": content_type}
    found = automated_reason(headers, "ann@example.org", "judge@example.org")
    assert found is not None and reason in found
