"""Deadlines drive the phases: the scheduler's reminders, late notices and processing, on SQLite
with the judge's clock moved by the test (the game starts Wednesday 2026-04-01 08:00 UTC, so
with the default timing its first deadline is Saturday 2026-04-04 23:30 UTC)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from typing import Any

import pytest
from sqlalchemy import Engine, func, select
from test_games_by_mail import GM, POWERS, body_of, dislodged, player, send, set_position

from judge import clock, scheduler
from judge.config import Config
from judge.scheduler import Checked, run_due, run_round
from judge.serve import SchedulerLoop, schedule, schedule_round, scheduler_sleep
from judge.store import OutboxMessage, make_engine, session_scope, upgrade
from judge.store.game_queries import create_person, find_game, history
from judge.store.outbox import Identity

IDENTITY = Identity("judge@example.org", "Test Judge")
DEADLINE = datetime(2026, 4, 4, 23, 30, tzinfo=UTC)
GRACE_ENDS = DEADLINE + timedelta(days=7)

# Every unit of the opening position holds: complete orders for each power.
HOLDS = {
    "Austria": "A VIE H\nA BUD H\nF TRI H",
    "England": "F LON H\nF EDI H\nA LVP H",
    "France": "F BRE H\nA PAR H\nA MAR H",
    "Germany": "F KIE H\nA BER H\nA MUN H",
    "Italy": "F NAP H\nA ROM H\nA VEN H",
    "Russia": "A WAR H\nA MOS H\nF SEV H\nF STP/SC H",
    "Turkey": "F ANK H\nA CON H\nA SMY H",
}


def last_outbox_id(engine: Engine) -> int:
    with session_scope(engine) as session:
        return session.scalar(select(func.max(OutboxMessage.id))) or 0


def scheduled(engine: Engine, at: datetime) -> list[OutboxMessage]:
    """Run the scheduler at `at` and return the mails it wrote."""
    clock.set_now(at)
    before = last_outbox_id(engine)
    run_due(engine, IDENTITY)
    with session_scope(engine) as session:
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.id > before).order_by(OutboxMessage.id)
        )
        return list(rows)


def game_state(engine: Engine) -> tuple[str | None, datetime | None, int]:
    """The game's phase, its deadline, and how many phases it has played."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        return game.phase, game.deadline, len(history(session, game))


def test_a_started_game_has_a_deadline_and_the_players_are_told(
    engine: Engine, started: dict[str, str]
) -> None:
    assert game_state(engine) == ("S1901M", DEADLINE, 0)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert game.phase_started_at == datetime(2026, 4, 1, 8, tzinfo=UTC)
        mails = session.scalars(
            select(OutboxMessage).where(OutboxMessage.kind.like("%game_started"))
        )
        bodies = [body_of(row) for row in mails]
    assert len(bodies) == 7
    assert all("orders are due by Sat Apr 04 2026 23:30:00 +0000" in text for text in bodies)


def test_reminders_late_notices_and_processing_when_grace_ends(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, HOLDS["France"], sender=player("France"), to=started["France"])
    send(engine, "F LON H\nF EDI H", sender=player("England"), to=started["England"])

    # Nothing is due before the reminder, 24 hours before the deadline.
    assert scheduled(engine, DEADLINE - timedelta(hours=25)) == []
    rows = scheduled(engine, DEADLINE - timedelta(hours=23))
    assert {r.kind for r in rows} == {"reminder"}
    assert sorted(r.to_addr for r in rows) == sorted(player(p) for p in POWERS if p != "France")
    england = next(body_of(r) for r in rows if r.to_addr == player("England"))
    assert "Still without orders: Army Liverpool." in england
    assert "Sat Apr 04 2026 23:30:00 +0000" in england
    # The same moment again sends nothing twice.
    assert scheduled(engine, DEADLINE - timedelta(hours=23)) == []

    # At the deadline the late seats hear it; the phase waits through grace for their orders.
    rows = scheduled(engine, DEADLINE)
    late = [r for r in rows if r.kind == "late"]
    assert len(late) == 6 and player("France") not in {r.to_addr for r in late}
    assert "Sat Apr 11 2026 23:30:00 +0000" in body_of(late[0])
    # The player on time and the GM hear who is late.
    told = {r.to_addr: body_of(r) for r in rows if r.kind == "late_list"}
    assert set(told) == {player("France"), GM} and len(rows) == 8
    assert "Late: Austria, England, Germany, Italy, Russia, Turkey." in told[GM]
    # Each carries the reply address that acts for its reader: France's seat's, the GM's.
    reply_tos = {
        r.to_addr: message_from_bytes(r.raw)["Reply-To"] for r in rows if r.kind == "late_list"
    }
    assert reply_tos[player("France")] == started["France"]
    assert reply_tos[GM].startswith("judge+") and reply_tos[GM] not in started.values()
    assert scheduled(engine, DEADLINE) == []
    assert game_state(engine) == ("S1901M", DEADLINE, 0)

    # When grace ends the phase is processed (units without orders hold) and results mailed.
    rows = [r for r in scheduled(engine, GRACE_ENDS) if r.kind == "results"]
    assert {r.to_addr for r in rows} == {player(p) for p in POWERS} | {GM}
    next_deadline = datetime(2026, 4, 14, 23, 30, tzinfo=UTC)
    assert game_state(engine) == ("F1901M", next_deadline, 1)
    for row in rows:
        assert "The deadline for orders will be Tue Apr 14 2026 23:30:00 +0000." in body_of(row)
    assert scheduled(engine, GRACE_ENDS) == []


def test_every_order_in_runs_the_phase_early_after_the_delay(
    engine: Engine, started: dict[str, str]
) -> None:
    clock.set_now(datetime(2026, 4, 2, 9, tzinfo=UTC))
    for power in POWERS[:-1]:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    # Six of seven complete: not early, and no reminder is due yet.
    assert scheduled(engine, datetime(2026, 4, 2, 12, tzinfo=UTC)) == []
    send(engine, HOLDS["Turkey"], sender=player("Turkey"), to=started["Turkey"])
    # The last orders arrived at 12:00; the phase waits the 30 minutes' delay for corrections.
    assert scheduled(engine, datetime(2026, 4, 2, 12, 29, tzinfo=UTC)) == []
    rows = scheduled(engine, datetime(2026, 4, 2, 12, 30, tzinfo=UTC))
    assert {r.kind for r in rows} == {"results"} and len(rows) == 8
    phase, deadline, played = game_state(engine)
    assert (phase, played) == ("F1901M", 1)
    # The next phase's deadline counts from the moment it started, not from the old deadline.
    assert deadline == datetime(2026, 4, 5, 23, 30, tzinfo=UTC)
    assert scheduled(engine, datetime(2026, 4, 2, 12, 30, tzinfo=UTC)) == []


def test_orders_completed_just_before_the_deadline_are_processed_at_it(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in POWERS:
        clock.set_now(DEADLINE - timedelta(minutes=10))
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    # Within the delay, but the deadline itself comes first: processed at it, on time.
    assert scheduled(engine, DEADLINE - timedelta(minutes=1)) == []
    rows = scheduled(engine, DEADLINE)
    assert {r.kind for r in rows} == {"results"}
    assert game_state(engine)[2] == 1


def test_the_scheduler_role_processes_due_games_and_says_when_it_acted(
    engine: Engine, started: dict[str, str]
) -> None:
    config = Config()
    config.judge.address = IDENTITY.address
    clock.set_now(DEADLINE - timedelta(days=2))
    assert schedule(engine, config) is False  # nothing due: the loop may sleep
    clock.set_now(GRACE_ENDS)
    assert schedule(engine, config) is True  # processed: the loop looks again at once
    assert game_state(engine)[:1] == ("F1901M",)
    assert schedule(engine, config) is False


def test_deadlines_fall_on_the_game_s_wall_clock_and_are_written_in_its_zone(
    engine: Engine, started: dict[str, str]
) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.settings = {**game.settings, "timing": {"zone": "America/New_York"}}
    rows = [r for r in scheduled(engine, GRACE_ENDS) if r.kind == "results"]  # 19:30 there
    # Three days on, 23:30 in New York (daylight time) is 03:30 UTC the day after.
    assert game_state(engine)[1] == datetime(2026, 4, 15, 3, 30, tzinfo=UTC)
    assert "The deadline for orders will be Tue Apr 14 2026 23:30:00 -0400." in body_of(rows[0])


def seats(engine: Engine) -> dict[str, tuple[str, int, bool]]:
    """Each power's seat status, missed turns, and whether a replacement is sought."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        return {
            s.power.title(): (str(s.status), s.missed_turns, s.replacement_sought)
            for s in game.seats
        }


def test_postal_missed_moves_seek_a_replacement_then_civil_disorder(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, HOLDS["France"], sender=player("France"), to=started["France"])
    send(engine, "F LON H", sender=player("England"), to=started["England"])
    rows = scheduled(engine, GRACE_ENDS)
    # Partial orders are not a missed move; nothing at all is, and the GM hears of each.
    state = seats(engine)
    assert state["France"] == state["England"] == ("playing", 0, False)
    assert state["Austria"] == ("playing", 1, True)
    # The phase's five misses are one mail to the GM, and one to each player.
    to_gm = [body_of(r) for r in rows if r.kind == "missed_turn"]
    assert len(to_gm) == 1 and all(r.to_addr == GM for r in rows if r.kind == "missed_turn")
    assert "Austria (austria@example.org)" in to_gm[0] and "Turkey (turkey@" in to_gm[0]
    sought = [r for r in rows if r.kind == "replacement_sought"]
    assert sorted(r.to_addr for r in sought) == sorted(player(p) for p in POWERS)
    to_austria = [body_of(r) for r in sought if r.to_addr == player("Austria")]
    assert sum("You play Austria in game alpha and sent no orders" in t for t in to_austria) == 1

    # Fall: the same five send nothing again and go into civil disorder.
    send(engine, "F BRE H\nA PIC H\nA MAR H", sender=player("France"), to=started["France"])
    _, deadline, _ = game_state(engine)
    assert deadline is not None
    rows = scheduled(engine, deadline + timedelta(days=7))
    state = seats(engine)
    assert state["Austria"] == ("civil disorder", 2, False)
    assert state["England"] == ("playing", 1, True)  # England's first missed move
    assert state["France"] == ("playing", 0, False)
    assert any("civil disorder" in body_of(r) for r in rows if r.kind == "missed_turn")
    # The fall results' centre count marks the powers in civil disorder, as njudge did.
    results = next(body_of(r) for r in rows if r.kind == "results" and r.to_addr == GM)
    marked = {line.split(":")[0] for line in results.splitlines() if line.endswith("(* CD *)")}
    assert marked == {"Austria", "Germany", "Italy", "Russia", "Turkey"}
    phase, deadline, played = game_state(engine)
    assert played == 2 and deadline is not None
    # Powers in civil disorder are neither reminded nor waited for.
    rows = scheduled(engine, deadline - timedelta(hours=1))
    reminded = {r.to_addr for r in rows if r.kind == "reminder"}
    assert player("Austria") not in reminded and player("England") in reminded


def test_wait_holds_a_complete_phase_until_its_deadline_and_ends_with_it(
    engine: Engine, started: dict[str, str]
) -> None:
    clock.set_now(datetime(2026, 4, 2, 9, tzinfo=UTC))
    rows = send(engine, "SET WAIT", sender=player("Italy"), to=started["Italy"])
    assert [r.kind for r in rows] == ["wait_set"]
    assert "not processed before its" in body_of(rows[0])
    # WAIT needs the seat: a From: line alone does not set it.
    rows = send(engine, "SET WAIT", sender=player("Austria"))
    assert [r.kind for r in rows] == ["desk_problems"]
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    # Every order is in, but Italy waits: nothing early, the phase runs at its deadline.
    assert scheduled(engine, datetime(2026, 4, 3, 9, tzinfo=UTC)) == []
    rows = scheduled(engine, DEADLINE)
    assert {r.kind for r in rows} == {"results"}
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert not any(seat.wait for seat in game.seats)  # WAIT was for that phase alone

    # SET NOWAIT takes it back within a phase.
    send(engine, "SET WAIT", sender=player("Italy"), to=started["Italy"])
    send(engine, "SET NOWAIT", sender=player("Italy"), to=started["Italy"])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert not any(seat.wait for seat in game.seats)


@pytest.fixture
def pg_engine(postgres_cluster: Any) -> Iterator[Engine]:
    """A fresh PostgreSQL store, where row locks are real and several schedulers may run."""
    made = make_engine(postgres_cluster.new_database())
    upgrade(made)
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def test_a_game_another_transaction_holds_is_left_for_the_next_round(pg_engine: Engine) -> None:
    send(pg_engine, "CREATE alpha gmsecret standard", sender=GM)
    for power in POWERS:
        send(pg_engine, f"SIGNON {power} alpha pw-{power}", sender=player(power))
    clock.set_now(GRACE_ENDS)
    done: list[list[Checked]] = []
    with session_scope(pg_engine) as holder:
        assert find_game(holder, "alpha", lock=True) is not None
        # Run in a thread, so a scheduler that waited for the lock fails the test, not hangs it.
        worker = threading.Thread(target=lambda: done.append(run_due(pg_engine, IDENTITY)))
        worker.start()
        worker.join(timeout=20)
        finished_while_held = not worker.is_alive()
    worker.join()
    assert finished_while_held and done == [[]]
    processed = run_due(pg_engine, IDENTITY)
    assert [c.processed for c in processed] == ["grace ended"]
    assert run_due(pg_engine, IDENTITY) == []


def test_late_orders_arriving_in_grace_run_the_phase_at_once(
    engine: Engine, started: dict[str, str]
) -> None:
    assert {r.kind for r in scheduled(engine, DEADLINE)} == {"late", "late_list"}
    clock.set_now(DEADLINE + timedelta(hours=2))
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    # After the deadline there is no delay for corrections: the last late orders run it.
    checked = run_due(engine, IDENTITY)
    assert [c.processed for c in checked] == ["late orders in"]
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert all(seat.missed_turns == 0 for seat in game.seats)  # late is not missed


def test_a_game_the_judge_cannot_run_does_not_stop_the_others(
    engine: Engine, started: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    send(engine, "CREATE beta gmsecret standard", sender=GM)
    for power in POWERS:
        send(engine, f"SIGNON {power} beta pw-{power}", sender=player(power))
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.settings = {**game.settings, "timing": {"zone": "Nowhere/Land"}}
    clock.set_now(GRACE_ENDS)
    before = last_outbox_id(engine)
    checked = run_round(engine, IDENTITY, keeper="keeper@example.org").done
    assert [(c.game, c.processed) for c in checked] == [("beta", "grace ended")]
    assert "could not check it" in caplog.text
    assert game_state(engine)[2] == 0  # alpha waits, unchanged, for the keeper
    # The GM and the keeper hear of it once, not at every round.
    with session_scope(engine) as session:
        stuck = session.scalars(
            select(OutboxMessage).where(
                OutboxMessage.id > before, OutboxMessage.kind == "game_stuck"
            )
        ).all()
        assert sorted(r.to_addr for r in stuck) == sorted([GM, "keeper@example.org"])
        assert "Nowhere/Land" in stuck[0].raw.decode()
    before = last_outbox_id(engine)
    run_round(engine, IDENTITY, keeper="keeper@example.org")
    assert last_outbox_id(engine) == before
    # Mended by the GM's setting: the fault is gone, and a new one would be news again.
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.settings = {k: v for k, v in game.settings.items() if k != "timing"}
    run_round(engine, IDENTITY)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and "scheduler_fault" not in game.settings


def seat_holder(engine: Engine, power: str) -> tuple[str, str | None]:
    """The seat's status and its holder's address (None: nobody holds it)."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        seat = next(s for s in game.seats if s.power == power.upper())
        holder = seat.person.address_of_record if seat.person is not None else None
        return str(seat.status), holder


def test_njudge_nonmr_abandons_a_late_seat_and_waits_for_a_taker(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, "SIGNON M alpha gmsecret\nSET NONMR", sender=GM)
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    send(engine, "A ROM H", sender=player("Italy"), to=started["Italy"])  # partial is late too
    rows = scheduled(engine, GRACE_ENDS)
    assert not any(r.kind == "results" for r in rows)
    assert game_state(engine) == ("S1901M", DEADLINE, 0)
    # Abandoned: the holder loses the seat, everyone is told how to take it, the GM why.
    assert seat_holder(engine, "Italy") == ("open", None)
    opened = {r.to_addr: body_of(r) for r in rows if r.kind == "seat_open"}
    assert set(opened) == {player(p) for p in POWERS}  # the six, and the player who lost it
    assert "SIGNON Ialpha <a password of your own>" in opened[player("Austria")]
    assert "The game waits" in opened[player("Austria")]
    to_gm = [body_of(r) for r in rows if r.kind == "missed_turn"]
    assert len(to_gm) == 1 and "abandoned, open to any taker" in to_gm[0]
    # Asking again while it waits sends nothing new, and the old reply address is dead.
    assert scheduled(engine, GRACE_ENDS + timedelta(hours=1)) == []
    rows = send(engine, "A ROM H\nA VEN H\nF NAP H", sender=player("Italy"), to=started["Italy"])
    assert "belongs to no seat now" in body_of(rows[0])

    # Anyone may take it; the phase then gets a fresh deadline from that moment.
    clock.set_now(GRACE_ENDS + timedelta(hours=2))
    rows = send(engine, "SIGNON Italy alpha newpw", sender="newcomer@example.org")
    taker = next(r for r in rows if r.kind == "signed_on")
    assert seat_holder(engine, "Italy") == ("playing", "newcomer@example.org")
    rows = scheduled(engine, GRACE_ENDS + timedelta(hours=2))
    restarted = {r.to_addr: body_of(r) for r in rows if r.kind == "deadline_restarted"}
    fresh = datetime(2026, 4, 15, 23, 30, tzinfo=UTC)  # three days on, at the deadline hour
    assert "newcomer@example.org" in restarted and GM in restarted
    assert "orders are due by\nWed Apr 15 2026 23:30:00 +0000" in restarted[GM].replace("\r", "")
    assert game_state(engine) == ("S1901M", fresh, 0)
    # The newcomer's orders complete the phase: it runs after the usual delay.
    reply_to = str(message_from_bytes(taker.raw)["Reply-To"])
    send(engine, HOLDS["Italy"], sender="newcomer@example.org", to=reply_to)
    rows = scheduled(engine, GRACE_ENDS + timedelta(hours=2, minutes=30))
    assert any(r.kind == "results" for r in rows)
    assert game_state(engine)[0] == "F1901M"


def test_njudge_nmr_abandons_a_late_seat_and_goes_on(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, "SIGNON M alpha gmsecret\nSET NONMR\nSET NMR", sender=GM)
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    rows = scheduled(engine, GRACE_ENDS)
    assert any(r.kind == "results" for r in rows)
    assert seat_holder(engine, "Italy") == ("open", None)
    opened = [body_of(r) for r in rows if r.kind == "seat_open"]
    assert opened and "The game goes on" in opened[0]
    # The open seat holds nothing up in the next phase.
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    phase, deadline, played = game_state(engine)
    assert (phase, played) == ("F1901M", 1)
    rows = scheduled(engine, clock.now() + timedelta(minutes=31))
    assert any(r.kind == "results" for r in rows)


def test_a_paused_game_is_never_processed(engine: Engine, started: dict[str, str]) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.status = "paused"
    assert scheduled(engine, DEADLINE - timedelta(hours=1)) == []
    assert scheduled(engine, GRACE_ENDS + timedelta(days=30)) == []
    assert game_state(engine) == ("S1901M", DEADLINE, 0)


def test_the_scheduler_says_when_to_look_next(engine: Engine, started: dict[str, str]) -> None:
    config = Config()
    config.judge.address = IDENTITY.address
    clock.set_now(datetime(2026, 4, 2, 9, tzinfo=UTC))
    assert schedule_round(engine, config).next_check == DEADLINE - timedelta(hours=24)
    # Orders change it: the last of them makes early processing due after the delay.
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    clock.set_now(datetime(2026, 4, 2, 9, 10, tzinfo=UTC))
    round_ = schedule_round(engine, config)
    assert round_.done == [] and round_.next_check == datetime(2026, 4, 2, 9, 30, tzinfo=UTC)
    # The loop sleeps until then, capped by the poll, never for nothing.
    at = datetime(2026, 4, 2, 9, 10, tzinfo=UTC)
    assert scheduler_sleep(round_.next_check, at, 60.0) == 60.0
    assert scheduler_sleep(round_.next_check, at, 3600.0) == 1200.0
    assert scheduler_sleep(at - timedelta(seconds=5), at, 60.0) == 0.1
    assert scheduler_sleep(None, at, 60.0) == 60.0


def test_the_scheduler_loop_sleeps_until_the_next_check(
    engine: Engine, started: dict[str, str]
) -> None:
    config = Config()
    config.judge.address = IDENTITY.address
    config.scheduler.poll_seconds = 7200.0
    clock.set_now(datetime(2026, 4, 2, 9, tzinfo=UTC))
    loop = SchedulerLoop(engine, config, threading.Event(), on_acted=lambda: None)
    assert loop.idle_seconds == 7200.0  # nothing known yet: the cap
    assert loop.step() is False
    # The reminder is due 2026-04-03 23:30, more than the cap away; one hour before, one hour.
    assert loop.idle_seconds == 7200.0
    clock.set_now(DEADLINE - timedelta(hours=25))
    assert loop.idle_seconds == 3600.0


def test_a_game_with_nothing_due_is_not_read_again_until_something_changes(
    engine: Engine, started: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    looks: list[str] = []
    real = scheduler.check_game

    def counted(session: Any, game: Any, identity: Identity) -> Checked:
        looks.append(game.phase)
        return real(session, game, identity)

    monkeypatch.setattr(scheduler, "check_game", counted)
    clock.set_now(datetime(2026, 4, 2, 9, tzinfo=UTC))
    run_due(engine, IDENTITY)
    run_due(engine, IDENTITY)
    assert looks == ["S1901M"]  # the second round trusted the first: nothing changed
    send(engine, HOLDS["France"], sender=player("France"), to=started["France"])
    run_due(engine, IDENTITY)
    assert looks == ["S1901M", "S1901M"]  # France's orders changed the game
    # A processed phase is looked at in its own transaction; the next round leaves it be.
    clock.set_now(GRACE_ENDS)
    assert [c.processed for c in run_due(engine, IDENTITY)] == ["grace ended"]
    run_due(engine, IDENTITY)
    assert looks == ["S1901M", "S1901M", "S1901M"]
    # Its next check comes (the reminder a day before the new deadline): looked at again.
    _, deadline, _ = game_state(engine)
    assert deadline is not None
    clock.set_now(deadline - timedelta(hours=23))
    run_due(engine, IDENTITY)
    assert looks[-1] == "F1901M"


def test_a_second_missed_move_passes_the_seat_to_the_one_standing_by(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in POWERS:
        if power != "Austria":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    scheduled(engine, GRACE_ENDS)  # Austria's first missed move: a replacement is sought
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        volunteer = create_person(session, "stands.by@example.net", "Van De Graaf")
        seat = next(s for s in game.seats if s.power == "AUSTRIA")
        seat.standby = volunteer  # no command names a stand-by yet: the store does
    for power in POWERS:
        if power != "Austria":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    _, deadline, _ = game_state(engine)
    assert deadline is not None
    rows = scheduled(engine, deadline + timedelta(days=7))
    assert any(r.kind == "results" for r in rows)
    assert seat_holder(engine, "Austria") == ("playing", "stands.by@example.net")
    mine = next(r for r in rows if r.kind == "standby_takes_seat")
    assert mine.to_addr == "stands.by@example.net"
    reply_to = str(message_from_bytes(mine.raw)["Reply-To"])
    assert reply_to in body_of(mine) and reply_to != started["Austria"]
    told = {r.to_addr: body_of(r) for r in rows if r.kind == "seat_taken_over"}
    assert player("France") in told and GM in told and player("Austria") not in told
    assert "Van De Graaf" in told[GM] and "stands.by@example.net" not in told[GM]
    # The new holder's reply address acts for the seat; the old one no longer does.
    rows = send(engine, "A VIE H", sender="stands.by@example.net", to=reply_to)
    assert [r.kind for r in rows] == ["orders_read"]
    rows = send(engine, "A VIE H", sender=player("Austria"), to=started["Austria"])
    assert "belongs to no seat now" in body_of(rows[0])


def test_a_reminder_in_a_retreat_phase_names_the_retreats_owed_not_units_that_hold(
    engine: Engine, started: dict[str, str]
) -> None:
    set_position(
        engine,
        "S1901R",
        units=[{"power": "RUSSIA", "type": "A", "loc": "gal"}],
        dislodged=[dislodged("AUSTRIA", "A", "bud", "gal")],
    )
    rows = scheduled(engine, DEADLINE - timedelta(hours=23))
    assert {r.to_addr for r in rows if r.kind == "reminder"} == {player("Austria")}
    text = next(body_of(r) for r in rows if r.kind == "reminder").replace("\r\n", "\n")
    assert "Still to retreat:\n  Army Budapest: may retreat to " in text
    assert "without a retreat order it is disbanded." in text
    assert "hold" not in text  # a dislodged unit never holds
    assert "Still without orders" not in text
