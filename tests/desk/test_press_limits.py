"""How much press one sender can make the judge send: the sender's daily cap counts every mail a
mail causes (press to each reader included), and the GM's SET PRESS LIMIT caps releases a day.
A refused release reaches nobody; its writer is told why. Through the processor on SQLite.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta

from sqlalchemy import Engine, select
from test_games_by_mail import (
    GM,
    POWERS,
    SETTINGS,
    body_of,
    observe_by_reply,
    player,
    send,
)
from test_press import GM_SIGNON, by_reader, press_rows, problems

from judge import clock
from judge.config import ProcessorSection
from judge.store import InboxMessage, OutboxMessage, session_scope

STRANGER = "stranger@example.net"
# The cap the judge ships with.
SHIPPED = replace(SETTINGS, replies_per_day=ProcessorSection().replies_per_day)


def parts(rows: list[OutboxMessage]) -> list[str]:
    """The kinds of every mail written: an answer of several parts names each ("a+b")."""
    return [kind for row in rows for kind in row.kind.split("+")]


def rows_per_sender(engine: Engine) -> Counter[str]:
    """Outbox rows by the sender of the mail that caused them."""
    with session_scope(engine) as session:
        senders = session.execute(
            select(InboxMessage.envelope_from).join(
                OutboxMessage, OutboxMessage.inbox_id == InboxMessage.id
            )
        )
        return Counter(sender for (sender,) in senders)


def strangers_press(engine: Engine, n: int, **kwargs: object) -> list[OutboxMessage]:
    body = f"OBSERVE alpha\nPRESS\nBuy cheap watches, offer {n}.\nENDPRESS"
    return send(engine, body, sender=STRANGER, **kwargs)  # type: ignore[arg-type]


def test_a_hundred_press_mails_from_an_observer_cost_the_observer_not_the_players(
    engine: Engine, started: dict[str, str]
) -> None:
    """The stranger's 100 mails made 900 before (8 readers and a confirmation each); now every
    mail they cause counts against the stranger's daily cap, so at most the cap goes out, plus
    the one notice that the cap is reached."""
    observe_by_reply(engine, STRANGER)
    cap = SHIPPED.replies_per_day
    before = rows_per_sender(engine)[STRANGER]
    accepted = 0
    for n in range(100):
        rows = strangers_press(engine, n, settings=SHIPPED)
        kinds = parts(rows)
        if "press_sent" in kinds:
            accepted += 1
            assert kinds.count("press") == len(POWERS) + 1  # every player and the GM
        else:
            # Refused: nothing to anybody else, only the reason (or, past the cap, silence).
            assert all(r.to_addr == STRANGER for r in rows), kinds
            if "desk_problems" in kinds:
                assert "send at most" in problems(rows) and "plus-addresses" in problems(rows)
    sent = rows_per_sender(engine)[STRANGER]
    assert sent <= cap + 1, sent
    assert 0 < accepted <= cap // (len(POWERS) + 2)
    assert len(press_rows(engine)) == accepted
    assert sent - before < 100 * (len(POWERS) + 2) / 5  # 900 before, a tenth now
    # The count is the sender's, with every mail it caused; the players' own mail is unaffected.
    rows = send(
        engine, "PRESS TO England\nHello.\nENDPRESS", sender=player("France"), to=started["France"]
    )
    assert sorted(r.kind for r in rows) == ["press", "press", "press_sent"]
    # A new day, a new count.
    clock.advance(timedelta(days=1))
    assert "press_sent" in parts(strangers_press(engine, 101, settings=SHIPPED))


def test_press_that_does_not_fit_the_cap_is_refused_and_reaches_nobody(
    engine: Engine, started: dict[str, str]
) -> None:
    small = replace(SETTINGS, replies_per_day=13)
    france = {"sender": player("France"), "to": started["France"], "settings": small}
    # France's sign-on was answered today (1). A broadcast makes 7 mails (six players and the
    # GM) and a confirmation: 9 of 13.
    rows = send(engine, "BROADCAST\nFirst.\nENDPRESS", **france)  # type: ignore[arg-type]
    assert Counter(r.kind for r in rows) == {"press": 7, "press_sent": 1}
    # The next would make 8 more: 17 > 13, so it is refused with the reason.
    rows = send(engine, "BROADCAST\nSecond.\nENDPRESS", **france)  # type: ignore[arg-type]
    assert [r.kind for r in rows] == ["desk_problems"]
    assert [r.to_addr for r in rows] == [player("France")]
    reason = problems(rows)
    assert "line 1: BROADCAST not sent: it would make the judge send 8 mails" in reason
    assert "at most 13 a day; 9 are counted for yours today" in reason
    assert "2026-04-02 00:00 UTC" in reason
    assert [row.text for row in press_rows(engine)] == ["First."]
    # Press to one power (and the GM: two mails and the confirmation) still fits: 10 + 3 = 13.
    rows = send(engine, "PRESS TO Italy\nThird.\nENDPRESS", **france)  # type: ignore[arg-type]
    assert sorted(r.to_addr for r in rows if r.kind == "press") == sorted([GM, player("Italy")])


def test_a_plus_address_is_the_same_sender_for_the_press_cap(
    engine: Engine, started: dict[str, str]
) -> None:
    small = replace(SETTINGS, replies_per_day=12)
    observe_by_reply(engine, STRANGER)  # two mails counted against the stranger
    rows = send(engine, "HELP", sender="stranger+a@Example.NET", settings=small)
    assert [r.kind for r in rows] == ["help"]  # 3
    assert rows[0].to_addr == "stranger+a@Example.NET"  # answered as written
    # OBSERVE's answer with the press's confirmation (one mail) and eight readers: 3 + 9 = 12,
    # which fits.
    rows = strangers_press(engine, 1, settings=small)
    assert "press_sent" in parts(rows)
    rows = strangers_press(engine, 2, settings=small)
    assert [r.kind for r in rows] == ["reply_limit"]
    rows = send(engine, "HELP", sender="Stranger+b@example.net", settings=small)
    assert rows == []  # one notice a day, then silence, whichever plus-address writes


def test_the_gm_limits_press_a_day_per_player_and_per_observer(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, f"{GM_SIGNON}\nSET PRESS LIMIT 2", sender=GM)
    mails = by_reader(rows)
    assert "press a day:        at most 2 releases" in body_of(mails[GM][0])
    assert "at most 2 releases" in body_of(mails[player("Italy")][0])  # announced
    france = {"sender": player("France"), "to": started["France"]}
    for n in (1, 2):
        rows = send(engine, f"PRESS TO Italy\nNote {n}.\nENDPRESS", **france)  # type: ignore[arg-type]
        assert "press_sent" in parts(rows)
    rows = send(engine, "BROADCAST\nNote 3.\nENDPRESS", **france)  # type: ignore[arg-type]
    assert [r.kind for r in rows] == ["desk_problems"]
    reason = problems(rows)
    assert "game alpha takes at most 2 press releases a day from each player and observer" in (
        reason
    )
    assert "2 came from you as France today" in reason
    assert "from 2026-04-02 00:00 UTC" in reason
    # Press to the GM alone is never limited, nor is the GM's press; other players have their own.
    rows = send(engine, "PRESS TO M\nTo the GM.\nENDPRESS", **france)  # type: ignore[arg-type]
    assert "press_sent" in parts(rows)
    released = len(press_rows(engine))
    rows = send(engine, f"{GM_SIGNON}\n" + "BROADCAST\nGM.\nENDPRESS\n" * 3, sender=GM)
    assert "press_sent" in parts(rows) and len(press_rows(engine)) == released + 3
    rows = send(engine, "BROADCAST\nItaly.\nENDPRESS", sender=player("Italy"), to=started["Italy"])
    assert "press_sent" in parts(rows)
    # Observers are limited each by themselves.
    observe_by_reply(engine, STRANGER)
    for n in (1, 2):
        assert "press_sent" in parts(strangers_press(engine, n))
    assert [r.kind for r in strangers_press(engine, 3)] == ["observing+desk_problems"]
    # A new day: France may write again; SET PRESS LIMIT NONE lifts the limit.
    clock.advance(timedelta(days=1))
    rows = send(engine, "BROADCAST\nNext day.\nENDPRESS", **france)  # type: ignore[arg-type]
    assert "press_sent" in parts(rows)
    send(engine, f"{GM_SIGNON}\nSET PRESS LIMIT NONE", sender=GM)
    for n in range(3):
        rows = send(engine, f"PRESS TO Italy\nMore {n}.\nENDPRESS", **france)  # type: ignore[arg-type]
        assert "press_sent" in parts(rows)


def test_press_limit_is_the_gms_and_must_be_a_number(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "SET PRESS LIMIT 3", sender=player("France"), to=started["France"])
    assert "SET PRESS LIMIT is the GM's" in problems(rows)
    rows = send(engine, f"{GM_SIGNON}\nSET PRESS LIMIT 0", sender=GM)
    assert "expected a number of press releases a day (1 to 1000) or NONE" in problems(rows)
