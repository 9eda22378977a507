"""Missed turns under the postal rule of seed 004 and under njudge's (judge.games.missed_turns)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.games.missed_turns import (
    Abandoned,
    AnnounceOpenSeat,
    CivilDisorder,
    Fallback,
    NjudgePolicy,
    PostalPolicy,
    RestartClock,
    SeatRecord,
    SeatRefused,
    StandbyAccepted,
    TakenOver,
    TellGM,
    UnitsFallBack,
    UseStandbyOrders,
    WaitForTaker,
    fallback_for,
    policy_named,
    resign,
    settle_phase,
    settle_seat,
    take_over,
    withdraw_standby,
)
from judge.games.seats import OrdersState, SeatOrders, SeatStatus
from judge.games.timing import (
    GameTiming,
    PhaseTiming,
    ProcessPhase,
    ProcessReason,
    due_actions,
    may_process_early,
    next_deadline,
)

POSTAL = PostalPolicy()
NJUDGE = NjudgePolicy()
NONE, PARTIAL, DONE = OrdersState.NONE, OrdersState.PARTIAL, OrdersState.COMPLETE


def orders(**states: OrdersState) -> dict[str, SeatOrders]:
    return {power: SeatOrders(power, orders=state) for power, state in states.items()}


def kinds(events: tuple[object, ...]) -> list[type]:
    return [type(event) for event in events]


def by_power(records: tuple[SeatRecord, ...]) -> dict[str, SeatRecord]:
    return {record.power: record for record in records}


# --- postal ------------------------------------------------------------------------------------


def test_postal_story_first_miss_replaced_then_a_second_seat_into_civil_disorder() -> None:
    seats = (
        SeatRecord("ENGLAND", "layh"),
        SeatRecord("FRANCE", "weidmark", general_orders=True),
        SeatRecord("GERMANY", "phillips"),
    )
    # Spring 1901: England sends nothing. Its units stand; the GM is told; the seat is announced.
    spring = settle_phase(POSTAL, seats, orders(ENGLAND=NONE, FRANCE=DONE, GERMANY=DONE), MOVEMENT)
    assert spring.process
    assert spring.events == (
        UnitsFallBack("ENGLAND", Fallback.HOLD),
        TellGM(
            "ENGLAND",
            "layh",
            "first missed move: units follow general orders or stand; replacement sought",
        ),
        AnnounceOpenSeat("ENGLAND", standby=True),
    )
    england = by_power(spring.records)["ENGLAND"]
    assert (england.status, england.player, england.missed) == (SeatStatus.PLAYING, "layh", 1)
    assert england.replacement_sought

    # A volunteer stands by and sends stand-by orders; Layh still plays.
    offer = take_over(POSTAL, england, "warnick")
    assert offer.events[0] == StandbyAccepted("ENGLAND", "warnick")
    assert offer.record.standby == "warnick" and offer.record.player == "layh"
    with pytest.raises(SeatRefused, match="already stands by"):
        take_over(POSTAL, offer.record, "falconer")
    seats = (offer.record, *spring.records[1:])

    # Fall 1901 on time: nothing happens. Spring 1902: Layh misses again; Warnick takes over.
    fall = settle_phase(POSTAL, seats, orders(ENGLAND=DONE, FRANCE=DONE, GERMANY=DONE), MOVEMENT)
    assert fall.events == () and fall.records == seats
    second = settle_phase(POSTAL, seats, orders(ENGLAND=NONE, FRANCE=DONE, GERMANY=DONE), MOVEMENT)
    assert kinds(second.events) == [TakenOver, UseStandbyOrders, TellGM]
    assert second.events[:2] == (
        TakenOver("ENGLAND", "layh", "warnick"),
        UseStandbyOrders("ENGLAND", "warnick"),
    )
    assert by_power(second.records)["ENGLAND"] == SeatRecord("ENGLAND", "warnick")

    # France misses twice with nobody standing by. First miss: its general orders are followed.
    seats = second.records
    first = settle_phase(POSTAL, seats, orders(ENGLAND=DONE, FRANCE=NONE, GERMANY=DONE), MOVEMENT)
    assert first.events[0] == UnitsFallBack("FRANCE", Fallback.GENERAL_ORDERS)
    assert AnnounceOpenSeat("FRANCE", standby=True) in first.events
    seats = first.records
    cd = settle_phase(POSTAL, seats, orders(ENGLAND=DONE, FRANCE=NONE, GERMANY=DONE), MOVEMENT)
    assert cd.process
    assert cd.events[:2] == (CivilDisorder("FRANCE"), UnitsFallBack("FRANCE", Fallback.HOLD))
    france = by_power(cd.records)["FRANCE"]
    assert france.status is SeatStatus.CIVIL_DISORDER
    assert not france.general_orders and france.standby is None

    # Never taken over again.
    with pytest.raises(SeatRefused, match="civil disorder"):
        take_over(POSTAL, france, "pulsipher")

    # Later phases: its units stand (general orders or not), are removed instead of retreating,
    # and it never blocks early processing.
    later = settle_phase(
        POSTAL, cd.records, orders(ENGLAND=DONE, FRANCE=NONE, GERMANY=DONE), RETREATS
    )
    assert later.events == (UnitsFallBack("FRANCE", Fallback.REMOVE),)
    assert later.records == cd.records
    assert may_process_early(
        [
            SeatOrders("ENGLAND", orders=DONE),
            SeatOrders("FRANCE", status=SeatStatus.CIVIL_DISORDER),
            SeatOrders("GERMANY", orders=DONE),
        ]
    )


def test_postal_misses_need_not_be_consecutive_and_a_new_holder_starts_afresh() -> None:
    record = SeatRecord("ITALY", "falconer", missed=1, replacement_sought=True)
    again = settle_seat(POSTAL, record, SeatOrders("ITALY"), MOVEMENT)
    assert again.record.status is SeatStatus.CIVIL_DISORDER
    # A replacement who took a seat after two misses has a clean slate: a miss is a first miss.
    fresh = settle_seat(POSTAL, SeatRecord("ITALY", "warnick"), SeatOrders("ITALY"), MOVEMENT)
    assert fresh.record.missed == 1 and fresh.record.status is SeatStatus.PLAYING


def test_postal_partial_orders_are_not_a_missed_move() -> None:
    record = SeatRecord("ITALY", "falconer")
    partial = settle_seat(POSTAL, record, SeatOrders("ITALY", orders=PARTIAL), MOVEMENT)
    assert partial.record == record
    assert partial.events == (UnitsFallBack("ITALY", Fallback.HOLD, partial=True),)


def test_postal_missed_retreats_and_builds_take_the_rulebook_default_and_do_not_count() -> None:
    record = SeatRecord("TURKEY", "van de graaf")
    retreat = settle_seat(POSTAL, record, SeatOrders("TURKEY"), RETREATS)
    assert retreat.record == record
    assert kinds(retreat.events) == [UnitsFallBack, TellGM]
    assert retreat.events[0] == UnitsFallBack("TURKEY", Fallback.DISBAND)
    builds = settle_seat(POSTAL, record, SeatOrders("TURKEY"), ADJUSTMENTS)
    assert builds.events[0] == UnitsFallBack("TURKEY", Fallback.DEFAULT_ADJUSTMENT)
    # A game may count them as misses too.
    strict = PostalPolicy(counted_kinds=frozenset({MOVEMENT, RETREATS, ADJUSTMENTS}))
    assert settle_seat(strict, record, SeatOrders("TURKEY"), RETREATS).record.missed == 1


def test_postal_seat_not_open_cannot_be_offered_and_a_standby_may_withdraw() -> None:
    with pytest.raises(SeatRefused, match="not open"):
        take_over(POSTAL, SeatRecord("RUSSIA", "pulsipher"), "warnick")
    standing = SeatRecord("RUSSIA", "pulsipher", missed=1, replacement_sought=True, standby="x")
    gone = withdraw_standby(standing)
    assert gone.record.standby is None and gone.record.replacement_sought
    assert AnnounceOpenSeat("RUSSIA", standby=True) in gone.events
    with pytest.raises(SeatRefused):
        withdraw_standby(gone.record)


def test_seats_owing_nothing_or_eliminated_never_miss() -> None:
    record = SeatRecord("AUSTRIA", "a")
    nothing = settle_seat(POSTAL, record, SeatOrders("AUSTRIA", owes_orders=False), MOVEMENT)
    assert nothing.events == () and nothing.record == record
    out = SeatRecord("AUSTRIA", "a", status=SeatStatus.ELIMINATED)
    assert settle_phase(NJUDGE, [out], {}, MOVEMENT).events == ()
    with pytest.raises(ValueError, match="no orders state"):
        settle_phase(NJUDGE, [record], {}, MOVEMENT)


def test_fallbacks_by_phase_kind() -> None:
    playing = SeatRecord("ITALY", "p")
    general = SeatRecord("ITALY", "p", general_orders=True)
    cd = SeatRecord("ITALY", None, status=SeatStatus.CIVIL_DISORDER, general_orders=True)
    assert [fallback_for(playing, k) for k in (MOVEMENT, RETREATS, ADJUSTMENTS)] == [
        Fallback.HOLD,
        Fallback.DISBAND,
        Fallback.DEFAULT_ADJUSTMENT,
    ]
    assert fallback_for(general, RETREATS) is Fallback.GENERAL_ORDERS
    assert [fallback_for(cd, k) for k in (MOVEMENT, RETREATS, ADJUSTMENTS)] == [
        Fallback.HOLD,
        Fallback.REMOVE,
        Fallback.DEFAULT_ADJUSTMENT,
    ]


# --- njudge ------------------------------------------------------------------------------------


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_njudge_seat_abandoned_at_end_of_grace_waits_and_is_taken_over() -> None:
    timing = GameTiming(movement=PhaseTiming(hour=time(23, 30), grace=timedelta(days=2)))
    deadline = utc(2026, 1, 8, 23, 30)
    grace_ends = deadline + timedelta(days=2)
    records = (SeatRecord("ENGLAND", "e"), SeatRecord("ITALY", "i"))
    phase = [SeatOrders("ENGLAND", orders=DONE), SeatOrders("ITALY", orders=PARTIAL)]

    # Grace ends with Italy's orders short: the phase is due, Italy late.
    due = due_actions(grace_ends - timedelta(hours=1), grace_ends, deadline, phase, timing.movement)
    assert due.actions == (ProcessPhase(ProcessReason.GRACE_ENDED, ("ITALY",)),)

    settled = settle_phase(NJUDGE, records, {s.power: s for s in phase}, MOVEMENT)
    assert not settled.process
    assert settled.events == (
        Abandoned("ITALY", "i"),
        AnnounceOpenSeat("ITALY", standby=False),
        TellGM("ITALY", "i", "late at the end of grace: abandoned, open to any taker"),
        WaitForTaker("ITALY"),
    )
    italy = by_power(settled.records)["ITALY"]
    assert (italy.status, italy.missed) == (SeatStatus.OPEN, 1)

    # While it is open the phase keeps waiting, even with every playing seat in.
    waiting = [SeatOrders("ENGLAND", orders=DONE), SeatOrders("ITALY", status=SeatStatus.OPEN)]
    assert not may_process_early(waiting, open_seats_block=NJUDGE.open_seats_block)
    again = settle_phase(NJUDGE, settled.records, {s.power: s for s in waiting}, MOVEMENT)
    assert again.events == (WaitForTaker("ITALY"),) and not again.process
    # Complete orders for the open seat (its holder came back) leave nothing to wait for.
    back = [waiting[0], SeatOrders("ITALY", status=SeatStatus.OPEN, orders=DONE)]
    returned = settle_phase(NJUDGE, settled.records, {s.power: s for s in back}, MOVEMENT)
    assert returned.events == () and returned.process

    # Anyone takes it; the phase gets a fresh deadline from the moment of the take-over.
    taken = take_over(NJUDGE, italy, "newcomer")
    assert taken.record == SeatRecord("ITALY", "newcomer")
    assert taken.events[0] == TakenOver("ITALY", "i", "newcomer")
    assert RestartClock("ITALY") in taken.events
    joined = utc(2026, 1, 12, 9)
    assert next_deadline(MOVEMENT, joined, timing) == utc(2026, 1, 15, 23, 30)
    with pytest.raises(SeatRefused, match="already plays"):
        take_over(NJUDGE, taken.record, "newcomer")
    with pytest.raises(SeatRefused, match="not open"):
        take_over(NJUDGE, taken.record, "someone")


def test_njudge_without_waiting_processes_with_the_open_seat_holding() -> None:
    policy = NjudgePolicy(wait_for_takeover=False)
    record = SeatRecord("ITALY", "i")
    miss = settle_seat(policy, record, SeatOrders("ITALY"), MOVEMENT)
    assert kinds(miss.events) == [Abandoned, AnnounceOpenSeat, TellGM, UnitsFallBack]
    assert miss.events[-1] == UnitsFallBack("ITALY", Fallback.HOLD)
    assert miss.record.status is SeatStatus.OPEN
    # Next phase it is still open, its units hold, and the phase does not wait.
    later = settle_phase(policy, [miss.record], orders(ITALY=NONE), MOVEMENT)
    assert later.process and later.events == (UnitsFallBack("ITALY", Fallback.HOLD),)
    taken = take_over(policy, miss.record, "newcomer")
    assert RestartClock("ITALY") not in taken.events


def test_gm_may_force_a_waiting_phase() -> None:
    record = SeatRecord("ITALY", "i")
    forced = settle_phase(NJUDGE, [record], orders(ITALY=NONE), MOVEMENT, force=True)
    assert forced.process
    assert UnitsFallBack("ITALY", Fallback.HOLD) in forced.events


def test_orders_must_match_their_seat() -> None:
    with pytest.raises(ValueError):
        settle_seat(POSTAL, SeatRecord("ITALY", "i"), SeatOrders("FRANCE"), MOVEMENT)


# --- resigning, policies by name ---------------------------------------------------------------


def test_postal_resignation_hands_the_seat_to_the_standby_or_opens_it() -> None:
    standing = SeatRecord("RUSSIA", "pulsipher", missed=1, replacement_sought=True, standby="w")
    handed = resign(POSTAL, standing)
    assert handed.record == SeatRecord("RUSSIA", "w")
    assert handed.events[0] == TakenOver("RUSSIA", "pulsipher", "w")

    gone = resign(POSTAL, SeatRecord("RUSSIA", "pulsipher"))
    assert gone.record.status is SeatStatus.RESIGNED
    # A resigned seat does not hold up the phase; the first replacement takes it at once.
    assert may_process_early([SeatOrders("RUSSIA", status=SeatStatus.RESIGNED)])
    taken = take_over(POSTAL, gone.record, "phillips")
    assert taken.record == SeatRecord("RUSSIA", "phillips")
    # Nobody found by the time its next phase is processed: civil disorder.
    cd = settle_seat(POSTAL, gone.record, SeatOrders("RUSSIA"), MOVEMENT)
    assert cd.record.status is SeatStatus.CIVIL_DISORDER
    assert cd.events[:2] == (CivilDisorder("RUSSIA"), UnitsFallBack("RUSSIA", Fallback.HOLD))
    with pytest.raises(SeatRefused):
        resign(POSTAL, cd.record)


def test_njudge_resignation_opens_the_seat_without_a_miss() -> None:
    gone = resign(NJUDGE, SeatRecord("ITALY", "i", missed=1))
    assert gone.record.status is SeatStatus.OPEN and gone.record.missed == 1
    assert AnnounceOpenSeat("ITALY", standby=False) in gone.events


def test_policies_by_name() -> None:
    assert policy_named("Postal") == PostalPolicy()
    assert policy_named("njudge") == NjudgePolicy(wait_for_takeover=True)
    assert policy_named("njudge-no-wait") == NjudgePolicy(wait_for_takeover=False)
    with pytest.raises(ValueError, match="not known"):
        policy_named("strict")


def test_a_phase_run_before_its_deadline_counts_no_missed_move() -> None:
    """The GM's early PROCESS (counted=False): the holder who sent nothing has missed nothing,
    under either policy; his units fall back, nobody is told, the seat stays his."""
    record = SeatRecord("ITALY", "warnick")
    for policy in (POSTAL, NJUDGE):
        early = settle_seat(policy, record, SeatOrders("ITALY"), MOVEMENT, counted=False)
        assert early.record == record
        assert early.events == (UnitsFallBack("ITALY", Fallback.HOLD),)
    counted = settle_seat(POSTAL, record, SeatOrders("ITALY"), MOVEMENT)
    assert counted.record.missed == 1 and counted.record.replacement_sought
