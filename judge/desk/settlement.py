"""Missed turns settled in the store: the game's chosen policy (judge.games.missed_turns, pure)
applied to its seats before a phase is adjudicated, and the mails it calls for.

The policy is the game's (`SET NMR` / `SET NONMR`, judge.desk.phase_terms.missed_turn_policy;
postal when the GM chose none):

- postal (seed 004): a first missed move has the units stand, a replacement sought
  (`replacement_sought` to the other players and the observers) and the GM told
  (`missed_turn`); a second, with nobody standing by, puts the power in civil disorder.
- njudge: a seat still late when grace ends is abandoned. The holder loses it with its
  password and reply address (judge.store.game_queries.vacate_seat), so the seat is open to any
  taker's SIGNON (judge.desk.seating), and the game, the observers and the old holder are told
  how to take it (`seat_open`); the GM gets `missed_turn`. Under NoNMR ("njudge") the phase
  waits: nothing is adjudicated, and the waiting seats are kept in `Game.settings` so the
  scheduler can give a taker a fresh deadline. Under "njudge-no-wait" the phase goes on, the
  abandoned seat's units holding (orders it sent stand).

The scheduler calls this at every ProcessPhase, and the GM's PROCESS with `force=True` (an open
seat's units fall back instead of the phase waiting; a late njudge seat is abandoned all the
same, as when grace ends).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import read_case
from judge.desk.general_orders import standing_orders
from judge.desk.mail_state import game_readers, gm_reply_address, power_title, seat_reply_address
from judge.desk.phase_clock import phase_kind
from judge.desk.phase_terms import WAITING, missed_turn_policy
from judge.desk.replies import Reply
from judge.desk.secret_boards import board_of_game, seat_knowledge, secret_board_of
from judge.engine.calendar import ADJUSTMENTS, RETREATS
from judge.engine.geography import Map
from judge.engine.position import Position
from judge.games.missed_turns import (
    AnnounceOpenSeat,
    Fallback,
    NjudgePolicy,
    Policy,
    SeatRecord,
    TakenOver,
    TellGM,
    UnitsFallBack,
    WaitForTaker,
    settle_phase,
)
from judge.games.seats import OrdersState, SeatOrders, SeatStatus, owes_orders
from judge.store.game_queries import seat_snapshot, sign_on, vacate_seat
from judge.store.games import Game, Person, Seat
from judge.variants import variant


@dataclass(frozen=True)
class Settled:
    """The mails the settlement calls for, and the seats the phase must wait for a taker of
    (none: adjudicate now)."""

    mails: list[Reply]
    waiting: tuple[str, ...]
    # The seats as they stood before this settlement (store.game_queries.seat_snapshot), for
    # the phase's record: ROLLBACK puts them back.
    seats_before: dict[str, Any]
    # The mails that hand a seat to its new holder: sent before the phase's results, so the new
    # holder learns the seat is his before he reads its results.
    handovers: list[Reply] = field(default_factory=list)


def settle_missed_turns(
    session: Session,
    game: Game,
    judge_address: str,
    seats: list[SeatOrders] | None = None,
    *,
    force: bool = False,
    counted: bool = True,
) -> Settled:
    """Apply the game's missed-turn policy to every seat before the phase is adjudicated.

    Seats with complete orders come through unchanged; partial orders stand. The rulebook's
    defaults for unordered units are the engine's own (units hold, dislodged units without a
    retreat are disbanded, builds are waived, owed removals follow the civil-disorder rule),
    so the fallbacks need no orders written here. `seats` is the seats' state this phase when
    the caller has it. `counted` False: the phase runs before its deadline (the GM's early
    PROCESS), so a holder without orders has missed nothing (judge.games.missed_turns).
    """
    assert game.phase is not None and game.position is not None
    seats_before = seat_snapshot(game)
    if seats is None:
        game_map, position, _, _ = read_case(game.position, rules=game.rules)
        seats = [seat_orders(game_map, position, game.phase, seat) for seat in game.seats]
    policy = missed_turn_policy(game)
    by_power = {seat.power: seat for seat in game.seats}
    # The powers whose general orders would be played if they sent nothing this phase: the GM
    # is told a missed move is covered by them rather than that the units stand.

    covered = standing_orders(session, game, {})
    records = [
        SeatRecord(
            power=seat.power,
            player=(seat.person.address_of_record if seat.person is not None else None),
            status=SeatStatus(seat.status),
            missed=seat.missed_turns,
            replacement_sought=seat.replacement_sought,
            # Postal: the volunteer standing by takes the seat at a second missed move.
            standby=(seat.standby.address_of_record if seat.standby is not None else None),
            general_orders=bool(covered.get(seat.power)),
        )
        for seat in game.seats
    ]
    settlement = settle_phase(
        policy,
        records,
        {s.power: s for s in seats},
        phase_kind(game.phase),
        force=force,
        counted=counted,
    )
    old_holders = {r.power: r.player for r in records}
    old_persons = {seat.power: seat.person for seat in game.seats}
    for record in settlement.records:
        seat = by_power[record.power]
        if record.status == SeatStatus.OPEN and seat.person_id is not None:
            vacate_seat(session, seat, SeatStatus.OPEN)  # abandoned: open to any taker
        else:
            seat.status = record.status
        seat.missed_turns = record.missed
        seat.replacement_sought = record.replacement_sought
    mails: list[Reply] = []
    handovers: list[Reply] = []
    waiting: list[str] = []
    fallbacks = {e.power: e.fallback for e in settlement.events if isinstance(e, UnitsFallBack)}
    told = [e for e in settlement.events if isinstance(e, TellGM)]
    if told:
        mails.extend(_tell_gm(game, told, fallbacks, judge_address, by_master=force))
    sought = [
        by_power[e.power]
        for e in settlement.events
        if isinstance(e, AnnounceOpenSeat) and e.standby
    ]
    if sought:
        mails.extend(_replacement_sought(session, game, sought, judge_address))
    opened = [
        e.power for e in settlement.events if isinstance(e, AnnounceOpenSeat) and not e.standby
    ]
    if opened:
        mails.extend(_seat_open(session, game, opened, old_holders, policy, judge_address))
    for event in settlement.events:
        if isinstance(event, WaitForTaker):
            waiting.append(event.power)
        elif isinstance(event, TakenOver):
            seat = by_power[event.power]
            given, told = _standby_takes_over(session, seat, old_persons[seat.power], judge_address)
            handovers.extend(given)
            mails.extend(told)
    if waiting:
        game.settings = {**game.settings, WAITING: {"phase": game.phase, "powers": waiting}}
    return Settled(mails, tuple(waiting), seats_before, handovers)


def _tell_gm(
    game: Game,
    told: list[TellGM],
    fallbacks: Mapping[str, Fallback],
    judge_address: str,
    *,
    by_master: bool,
) -> list[Reply]:
    """The GM's one `missed_turn` mail of the phase: every seat the settlement touched, each
    with its player and what happened to it."""
    gm = game.gm.address_of_record if game.gm is not None else None
    if not gm:
        return []
    seats = [
        {
            "power": power_title(game, event.power),
            "player": event.player or "nobody",
            "reason": event.reason,
            "general_orders": fallbacks.get(event.power) == Fallback.GENERAL_ORDERS,
        }
        for event in told
    ]
    context = {
        "game": game.name,
        "phase": game.phase,
        "seats": seats,
        "by_master": by_master,  # the GM's PROCESS, which need not wait for grace to end
    }
    return [
        Reply(
            "missed_turn",
            "missed_turn",
            context,
            to=gm,
            reply_to=gm_reply_address(judge_address, game),
        )
    ]


def _replacement_sought(
    session: Session, game: Game, seats: list[Seat], judge_address: str
) -> list[Reply]:
    """Postal, first missed moves: one mail to each reader of the game but the GM (who has
    `missed_turn`) naming every power of the phase for which a replacement is sought; a reader
    whose own seat is among them is told what keeps it (`power`, `for_holder`), the others are
    listed apart (`others`)."""
    missing = {seat.power: power_title(game, seat.power) for seat in seats}
    base = {"game": game.name, "phase": game.phase}
    mails: list[Reply] = []
    readers = [r for r in game_readers(session, game, judge_address) if not r.master]
    for reader in readers:
        own = reader.power if reader.power in missing else None
        context = {
            **base,
            "power": missing[own] if own is not None else "",
            "for_holder": own is not None,
            "others": [title for power, title in missing.items() if power != own],
        }
        mails.append(
            Reply(
                "replacement_sought",
                "replacement_sought",
                context,
                to=reader.address,
                reply_to=reader.reply_to,
            )
        )
    return mails


def _standby_takes_over(
    session: Session, seat: Seat, old: Person | None, judge_address: str
) -> tuple[list[Reply], list[Reply]]:
    """Postal, a second missed move with someone standing by: the seat passes to them, with a
    new reply address and a password nobody knows (they set one with SET PASSWORD), and the
    game is told who plays the power now. No command files stand-by orders yet, so the units
    stand this phase (UseStandbyOrders finds none). (The mail that hands the seat over, the
    mails that tell the others): the player who lost the seat is told so, not left to find out.
    """
    standby = seat.standby
    if standby is None:
        return [], []
    sign_on(session, seat, standby, secrets.token_urlsafe(18))
    game = seat.game
    context = {
        "game": game.name,
        "phase": game.phase or "",
        "power": power_title(game, seat.power),
        "player": standby.name or "a new player",
        "old_player": (old.name or "") if old is not None else "",
        "reply_address": "",
        "for_holder": False,
        "board": "",
    }
    reply_to = seat_reply_address(judge_address, seat)
    mails: list[Reply] = []
    if standby.address_of_record:
        mails.append(
            Reply(
                "standby_takes_seat",
                "standby_replaces",
                {
                    **context,
                    "reply_address": reply_to,
                    "for_holder": True,
                    "board": seat_knowledge(game, seat.power),
                },
                to=standby.address_of_record,
                reply_to=reply_to,
            )
        )
    told = [
        Reply("seat_taken_over", "standby_replaces", context, to=r.address, reply_to=r.reply_to)
        for r in game_readers(session, game, judge_address)
        if r.power != seat.power
    ]
    gone = old.address_of_record if old is not None else None
    if gone and gone not in {r.to for r in told}:
        told.append(Reply("seat_lost", "seat_lost", {**context, "for_holder": True}, to=gone))
    return mails, told


def _seat_open(
    session: Session,
    game: Game,
    powers: list[str],
    old_holders: dict[str, str | None],
    policy: Policy,
    judge_address: str,
) -> list[Reply]:
    """njudge: tell the game (players and observers, one mail each naming every power the
    phase abandoned; each player who lost a seat, his own) how anyone may take them over. The
    GM has `missed_turn`."""
    game_map = board_of_game(game)
    secret = secret_board_of(game) is not None

    def signon(power: str) -> str:
        if secret:  # a secret board's open seats are taken with JOIN
            return f"JOIN {game.name} <a password of your own>"
        letter = game_map.powers[power].letter if power in game_map.powers else power[0]
        return f"SIGNON {letter.upper()}{game.name} <a password of your own>"

    seats = [{"power": power_title(game, p), "signon": signon(p)} for p in powers]
    context = {
        "game": game.name,
        "phase": game.phase,
        "seats": seats,
        "power": seats[0]["power"] if len(seats) == 1 else "",
        "waits": isinstance(policy, NjudgePolicy) and policy.wait_for_takeover,
        "for_holder": False,
    }
    readers = [r for r in game_readers(session, game, judge_address) if not r.master]
    mails = [
        Reply("seat_open", "seat_open", context, to=r.address, reply_to=r.reply_to) for r in readers
    ]
    for power, seat in zip(powers, seats, strict=True):
        old = old_holders.get(power)
        if old and old not in {r.address for r in readers}:
            own = {**context, "seats": [seat], "power": seat["power"], "for_holder": True}
            mails.append(Reply("seat_open", "seat_open", own, to=old))
    return mails


def seat_orders(game_map: Map, position: Position, phase: str, seat: Seat) -> SeatOrders:
    """The seat as judge.games.timing and missed_turns see it: who holds it, whether it owes
    anything this phase, and how far its orders are (the desk's judgement when they arrived)."""
    found = variant(seat.game.variant)
    counted = found.rules.adjustments_due
    due = counted(game_map, position) if counted is not None and phase.endswith("A") else None
    terms = found.desk.retreat_terms
    standing = frozenset(
        d.unit.province
        for d in position.dislodged
        if terms is not None and terms(game_map, position, d).standing
    )
    return SeatOrders(
        power=seat.power,
        status=SeatStatus(seat.status),
        owes_orders=owes(game_map, position, phase, seat.power, due, standing),
        orders=OrdersState(seat.orders_state),
        wait=seat.wait,
        changed_at=seat.orders_changed_at,
    )


def owes(
    game_map: Map,
    position: Position,
    phase: str,
    power: str,
    due: Mapping[str, int] | None = None,
    standing: frozenset[str] = frozenset(),
) -> bool:
    """Whether the power has anything to order: units in movement, a dislodged unit in retreats
    (or in an adjustment phase that carries them), a build it can make (a free home centre it
    owns) or a disband due in adjustments; `due` is the variant's count of the builds and
    removals (its record's `adjustments_due`) where it has its own; `standing` the provinces of
    dislodged units with a retreat order standing already (1885's sent with the move), which
    owe none."""
    kind = phase_kind(phase)
    units = [u for u in position.units if u.power == power]
    dislodged = sum(
        1 for d in position.dislodged if d.unit.power == power and d.unit.province not in standing
    )
    adjustment = 0
    if kind == ADJUSTMENTS and dislodged:
        return True
    if kind == ADJUSTMENTS and due is not None:
        adjustment = due.get(power, 0)
    elif kind == ADJUSTMENTS:
        centres = position.centers.get(power, ())
        adjustment = len(centres) - len(units)
        if adjustment > 0:
            occupied = {u.province for u in position.units}
            homes = game_map.powers[power].home_centres
            free = sum(1 for c in centres if c in homes and c not in occupied)
            adjustment = min(adjustment, free)
    elif kind == RETREATS:
        return owes_orders(kind, units=len(units), dislodged=dislodged)
    return owes_orders(kind, units=len(units), adjustment=adjustment)
