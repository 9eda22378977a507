"""The game's settings by mail through the processor on SQLite, with the clock moved: the GM's
SET DEADLINE, GRACE, START, per-phase timing, NMR and REPORT, and a player's SET ABSENCE.

The game starts Wednesday 2026-04-01 08:00 UTC; with the default timing its first deadline is
Saturday 2026-04-04 23:30 UTC and grace ends a week later."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email import message_from_bytes

from sqlalchemy import Engine
from test_deadlines import DEADLINE, GRACE_ENDS, HOLDS, game_state, scheduled
from test_games_by_mail import GM, POWERS, body_of, player, send

from judge import clock
from judge.store import session_scope
from judge.store.game_queries import find_game

SIGNON_GM = "SIGNON M alpha gmsecret\n"


def settings(engine: Engine) -> dict:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        return dict(game.settings)


def problems(rows: list) -> str:
    return "\n".join(body_of(r) for r in rows if r.kind == "desk_problems")


def test_set_deadline_moves_the_phase_and_tells_everyone(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, SIGNON_GM + "SET DEADLINE 2026-04-06 18:00", sender=GM)
    reply = [r for r in rows if r.kind == "game_setting"]
    assert len(reply) == 1 and reply[0].to_addr == GM
    text = body_of(reply[0])
    assert "SET DEADLINE Mon Apr 06 2026 18:00:00 +0000" in text
    assert "S1901M: orders are due by Mon Apr 06 2026 18:00:00 +0000." in text
    assert "The deadline of S1901M was Sat Apr 04 2026 23:30:00 +0000." in text
    notices = [r for r in rows if r.kind == "setting_notice"]
    assert sorted(r.to_addr for r in notices) == sorted(player(p) for p in POWERS)
    # A player's notice carries the seat's reply address, so answering it acts for the seat.
    france = next(r for r in notices if r.to_addr == player("France"))
    assert started["France"] in france.raw.decode()
    assert "The GM of game alpha changed a setting" in body_of(france)
    new_deadline = datetime(2026, 4, 6, 18, tzinfo=UTC)
    assert game_state(engine)[1] == new_deadline
    # Grace follows the later deadline: the old deadline passes quietly, the new one counts.
    assert scheduled(engine, DEADLINE + timedelta(hours=1)) == []
    late = scheduled(engine, new_deadline)
    assert {r.kind for r in late} == {"late", "late_list"}
    assert "Mon Apr 13 2026 18:00:00 +0000" in body_of(late[0])


def test_a_day_without_a_time_is_the_phase_s_deadline_hour(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, SIGNON_GM + "SET DEADLINE 7 Apr 2026", sender=GM)
    assert game_state(engine)[1] == datetime(2026, 4, 7, 23, 30, tzinfo=UTC)


def test_a_deadline_in_the_past_or_from_a_non_gm_is_refused(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, SIGNON_GM + "SET DEADLINE 2026-03-30 18:00", sender=GM)
    assert "has already passed; nothing was changed" in problems(rows)
    # A player, even with a seat's reply address, is not the GM.
    rows = send(engine, "SET DEADLINE +10d", sender=player("France"), to=started["France"])
    assert "SET DEADLINE is the GM's: put SIGNON M game password" in problems(rows)
    rows = send(engine, "SIGNON M alpha wrong\nSET DEADLINE +10d", sender=GM)
    assert "the GM password of game alpha is not right" in problems(rows)
    assert game_state(engine)[1] == DEADLINE


def test_an_earlier_deadline_keeps_grace_where_it_was(
    engine: Engine, started: dict[str, str]
) -> None:
    earlier = datetime(2026, 4, 3, 12, tzinfo=UTC)
    rows = send(engine, SIGNON_GM + "SET DEADLINE 2026-04-03 12:00", sender=GM)
    assert "Late orders are taken until Sat Apr 11 2026 23:30:00 +0000." in body_of(rows[0])
    assert game_state(engine)[1] == earlier
    assert {r.kind for r in scheduled(engine, earlier)} == {"late", "late_list"}
    assert game_state(engine)[2] == 0
    processed = scheduled(engine, GRACE_ENDS)
    assert any(r.kind == "results" for r in processed)


def test_set_grace_ends_the_grace_of_this_phase(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, SIGNON_GM + "SET GRACE 2026-04-05 12:00", sender=GM)
    assert "Late orders for S1901M are taken until Sun Apr 05 2026 12:00:00 +0000." in body_of(
        rows[0]
    )
    assert scheduled(engine, datetime(2026, 4, 5, 11, 59, tzinfo=UTC)) != []  # the late notice
    assert game_state(engine)[2] == 0
    rows = scheduled(engine, datetime(2026, 4, 5, 12, tzinfo=UTC))
    assert any(r.kind == "results" for r in rows)
    phase, deadline, played = game_state(engine)
    assert (phase, played) == ("F1901M", 1)
    # The next phase has its usual grace again.
    assert settings(engine)["current_phase"]["phase"] == "S1901M"


def test_grace_cannot_end_before_the_deadline(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, SIGNON_GM + "SET GRACE 2026-04-03 12:00", sender=GM)
    assert "grace cannot end before the deadline" in problems(rows)


def test_phase_timing_applies_from_the_next_phase_and_is_echoed_whole(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine,
        SIGNON_GM + "SET MOVE CLOCK 18:00 NEXT 48 GRACE 1d DELAY 1h DAYS -MTWTF-",
        sender=GM,
    )
    text = body_of(rows[0])
    assert "SET MOVE CLOCK 18:00 NEXT 2d GRACE 1d DELAY 1h DAYS -MTWTF-" in text
    assert "Move    clock 18:00 min 0h next 48h grace 24h delay 1h days -MTWTF-" in text
    assert "Retreat clock 23:30 min 0h next 24h grace 48h delay 0.5h days SMTWTFS" in text
    assert "S1901M: orders are due by Sat Apr 04 2026 23:30:00 +0000." in text
    # The phase being played keeps its terms: its grace is still a week.
    assert [r.kind for r in scheduled(engine, DEADLINE + timedelta(days=2))] != []
    assert game_state(engine)[2] == 0
    scheduled(engine, GRACE_ENDS)
    # Processed Sat Apr 11 23:30: 48 hours on is Mon Apr 13 23:30, and 18:00 falls on Tue.
    assert game_state(engine)[:2] == ("F1901M", datetime(2026, 4, 14, 18, tzinfo=UTC))
    # The new phase runs on the new terms: a day of grace.
    rows = scheduled(engine, datetime(2026, 4, 15, 18, tzinfo=UTC))
    assert any(r.kind == "results" for r in rows)


def test_clock_minus_one_and_min_hold_a_phase_back(engine: Engine, started: dict[str, str]) -> None:
    send(engine, SIGNON_GM + "SET MOVE CLOCK -1 NEXT 36 MIN 12", sender=GM)
    clock.set_now(datetime(2026, 4, 2, 9, tzinfo=UTC))
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    scheduled(engine, datetime(2026, 4, 2, 10, tzinfo=UTC))  # early: S1901M runs
    assert game_state(engine) == ("F1901M", datetime(2026, 4, 3, 22, tzinfo=UTC), 1)
    # F1901M: every order in at once, but MIN keeps it until 12 hours after its start.
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    assert scheduled(engine, datetime(2026, 4, 2, 21, 59, tzinfo=UTC)) == []
    assert any(r.kind == "results" for r in scheduled(engine, datetime(2026, 4, 2, 22, tzinfo=UTC)))


def test_bad_timing_is_refused_by_name(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, SIGNON_GM + "SET MOVE DAYS -------", sender=GM)
    assert "allows no day for deadlines" in problems(rows)
    assert "timing" not in settings(engine)


def test_set_nmr_chooses_the_missed_turn_policy(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, SIGNON_GM + "SET NONMR", sender=GM)
    reply = next(r for r in rows if r.kind == "game_setting")
    assert "njudge NoNMR" in body_of(reply)
    assert settings(engine)["missed_turns"] == "njudge"
    # The reply carries the GM's reply address: mail to it acts as the GM, no password needed.
    gm_address = str(message_from_bytes(reply.raw)["Reply-To"])
    assert gm_address.startswith("judge+")
    rows = send(engine, "SET NMR", sender=GM, to=gm_address)
    assert [r.kind for r in rows if r.to_addr == GM] == ["game_setting"]
    assert settings(engine)["missed_turns"] == "njudge-no-wait"
    send(engine, SIGNON_GM + "SET NMR postal", sender=GM)
    assert settings(engine)["missed_turns"] == "postal"
    rows = send(engine, SIGNON_GM + "SET NMR lenient", sender=GM)
    assert "there is no missed-turn policy lenient" in problems(rows)
    assert settings(engine)["missed_turns"] == "postal"


def test_set_report_changes_the_results_style(engine: Engine, started: dict[str, str]) -> None:
    send(engine, SIGNON_GM + "SET REPORT POSTAL", sender=GM)
    assert settings(engine)["report"] == "postal"
    results = [r for r in scheduled(engine, GRACE_ENDS) if r.kind == "results"]
    assert results and body_of(results[0]).startswith("Game alpha: Spring 1901 Movement")


def test_set_start_on_a_forming_game_holds_its_first_phase(engine: Engine) -> None:
    send(engine, "CREATE beta gmsecret standard", sender=GM)
    rows = send(engine, "SIGNON M beta gmsecret\nSET START 2026-04-20 12:00", sender=GM)
    assert "starts no earlier than Mon Apr 20 2026 12:00:00 +0000" in body_of(rows[0])
    addresses = {}
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} beta pw-{power}", sender=player(power))
        addresses[power] = next(r for r in rows if r.kind.startswith("signed_on"))
    # game_started names the start as the first deadline.
    started_mails = [r for r in rows if r.kind.endswith("game_started")]
    assert len(started_mails) == len(POWERS)
    assert "Mon Apr 20 2026 12:00:00 +0000" in body_of(started_mails[0])
    # Every order in at once: still nothing runs before the start.
    for power in POWERS:
        token = message_from_bytes(addresses[power].raw)["Reply-To"]
        send(engine, HOLDS[power], sender=player(power), to=str(token))
    rows = scheduled(engine, datetime(2026, 4, 10, tzinfo=UTC))
    assert not any(r.kind in ("results", "setting_notice") for r in rows)
    with session_scope(engine) as session:
        game = find_game(session, "beta")
        assert game is not None
        assert game.deadline == datetime(2026, 4, 20, 12, tzinfo=UTC)
        assert game.phase == "S1901M"
    rows = scheduled(engine, datetime(2026, 4, 20, 12, tzinfo=UTC))
    assert any(r.kind == "results" for r in rows)


def test_a_player_s_absence_moves_the_next_deadline_and_the_gm_is_told(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine,
        "SET ABSENCE 2026-04-06 TO 2026-04-08",
        sender=player("France"),
        to=started["France"],
    )
    kinds = {r.kind: r for r in rows}
    assert set(kinds) == {"absence", "absence_notice"}
    assert kinds["absence_notice"].to_addr == GM
    text = body_of(kinds["absence"])
    assert "absence granted" in text and "2026-04-06 to 2026-04-08" in text
    assert "S1901M stays due by Sat Apr 04 2026 23:30:00 +0000" in text
    # Processed at the deadline: the next would fall Tue Apr 07, inside the absence; it moves
    # to the first deadline hour a full day after it ends (the end of Apr 08 plus 24 hours).
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    scheduled(engine, DEADLINE)
    assert game_state(engine)[:2] == ("F1901M", datetime(2026, 4, 10, 23, 30, tzinfo=UTC))


def test_absences_are_refused_with_the_reason_and_withdrawn(
    engine: Engine, started: dict[str, str]
) -> None:
    france = started["France"]
    rows = send(engine, "SET ABSENCE 2026-04-05 TO 2026-04-25", sender=player("France"), to=france)
    assert "may be away 15 days in this game" in problems(rows)
    rows = send(engine, "SET ABSENCE 2026-03-20", sender=player("France"), to=france)
    assert "cannot start in the past" in problems(rows)
    # A From: line alone grants nothing.
    rows = send(engine, "SET ABSENCE 2026-04-06", sender=player("France"))
    assert "SET ABSENCE 2026-04-06 not taken" in problems(rows)
    send(
        engine,
        "SET ABSENCE 2026-04-06\nSET ABSENCE 2026-04-10 TO 2026-04-11",
        sender=player("France"),
        to=france,
    )
    rows = send(engine, "SET NOABSENCE 2026-04-06", sender=player("France"), to=france)
    text = body_of(next(r for r in rows if r.kind == "absence"))
    assert "absence withdrawn" in text and "2026-04-10 to 2026-04-11" in text
    rows = send(engine, "SET NOABSENCE", sender=player("France"), to=france)
    assert "France has no absence now." in body_of(next(r for r in rows if r.kind == "absence"))
    rows = send(engine, "SET NOABSENCE", sender=player("France"), to=france)
    assert "France has no absence to withdraw" in problems(rows)


def test_a_change_of_settings_alone_is_seen_by_a_scheduler_that_found_nothing_to_do(
    engine: Engine, started: dict[str, str]
) -> None:
    assert {r.kind for r in scheduled(engine, DEADLINE)} == {"late", "late_list"}
    # An hour on, nothing is due until tomorrow's notice: the scheduler remembers that.
    clock.set_now(DEADLINE + timedelta(hours=1))
    assert scheduled(engine, DEADLINE + timedelta(hours=1)) == []
    # At that same moment the GM ends grace sooner: only the game's settings change.
    send(engine, SIGNON_GM + "SET GRACE +1h", sender=GM)
    rows = scheduled(engine, DEADLINE + timedelta(hours=2))
    assert any(r.kind == "results" for r in rows)


def test_dates_beyond_a_year_are_refused_not_crashed_on(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine,
        SIGNON_GM
        + "SET DEADLINE 2031-01-01 12:00\nSET GRACE 2027-06-01\nSET START 2099-12-31 23:59 -1400",
        sender=GM,
    )
    assert problems(rows).count("more than a year ahead; nothing was changed") == 3
    rows = send(engine, "SET ABSENCE 2028-12-30", sender=player("France"), to=started["France"])
    assert "it ends more than a year ahead" in problems(rows)
    assert game_state(engine)[1] == DEADLINE
