"""The scheduler: deadlines move the games. Reminders before a deadline, late notices after it,
and the phase processed when it is due or when every player's orders are in.

What is due is judge.games.timing's decision (`due_actions`) over the seats as the desk left
them (`Seat.orders_state`, `orders_changed_at`, `wait`) and the moment the scheduler last looked
at the phase (`Game.checked_at`). Each game is checked in a transaction of its own, with its row
locked, and the mails it causes are outbox rows written in that transaction together with the
new `checked_at`: a scheduler that dies before the commit sends nothing and is asked again, and
one that runs twice at the same moment finds nothing new to send.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from sqlalchemy import Engine, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from judge.adjudicate_json import read_case
from judge.clock import now
from judge.desk import Reply
from judge.desk.mail_state import seat_reply_address
from judge.desk.orders import units_without_orders
from judge.desk.phase_clock import deadline_words, game_timing, phase_kind
from judge.desk.processing import process_phase
from judge.engine.calendar import ADJUSTMENTS, RETREATS
from judge.engine.geography import Map
from judge.engine.position import Position
from judge.games.missed_turns import (
    AnnounceOpenSeat,
    PostalPolicy,
    SeatRecord,
    TellGM,
    settle_phase,
)
from judge.games.seats import OrdersState, SeatOrders, SeatStatus, owes_orders
from judge.games.timing import LateNotice, ProcessPhase, Reminder, due_actions
from judge.render import render_mail
from judge.store.db import session_scope
from judge.store.game_queries import observers_of
from judge.store.games import Game, GameStatus, Seat
from judge.store.outbox import Identity, enqueue

log = logging.getLogger("judge.scheduler")


@dataclass(frozen=True)
class Checked:
    """What one look at one game did, for the log and the tests."""

    game: str
    phase: str
    reminded: tuple[str, ...] = ()
    late: tuple[str, ...] = ()
    processed: str | None = None  # the ProcessReason, when the phase was processed
    mails: int = 0


def run_due(engine: Engine, identity: Identity) -> list[Checked]:
    """Check every running game with a deadline, each in its own transaction; return what was
    done in the games where something was."""
    with session_scope(engine) as session:
        ids = list(
            session.scalars(
                select(Game.id)
                .where(Game.status == GameStatus.ACTIVE, Game.deadline.is_not(None))
                .order_by(Game.id)
            )
        )
    done: list[Checked] = []
    for game_id in ids:
        try:
            with session_scope(engine) as session:
                # Another scheduler (or a processor on the game's mail) holding the row has it
                # in hand; the next round looks again.
                game = session.scalars(
                    select(Game).where(Game.id == game_id).with_for_update(skip_locked=True)
                ).first()
                if game is None or game.status != GameStatus.ACTIVE or game.deadline is None:
                    continue
                checked = check_game(session, game, identity)
        except OperationalError:
            raise  # the database itself failed: the loop pauses and tries every game again
        except Exception:
            # One game the judge cannot run (settings it refuses, a position the engine
            # cannot read) is the keeper's to mend; it must not stop the other games.
            log.exception("game id %d: the scheduler could not check it", game_id)
            continue
        if checked.mails or checked.processed:
            log.info(
                "game %s %s: reminded %s, late %s, processed %s, %d mails",
                checked.game,
                checked.phase,
                ",".join(checked.reminded) or "-",
                ",".join(checked.late) or "-",
                checked.processed or "no",
                checked.mails,
            )
            done.append(checked)
    return done


def check_game(session: Session, game: Game, identity: Identity) -> Checked:
    """Do what is due in one game now, in the caller's transaction (the game's row locked)."""
    assert game.phase is not None and game.position is not None and game.deadline is not None
    moment = now()
    phase = game.phase
    timing = game_timing(game).for_kind(phase_kind(phase))
    game_map, position, _, _ = read_case(game.position, rules=game.rules)
    seats = [_seat_orders(game_map, position, phase, seat) for seat in game.seats]
    since = game.checked_at or game.phase_started_at or moment
    due = due_actions(since, moment, game.deadline, seats, timing)
    mails: list[Reply] = []
    reminded: tuple[str, ...] = ()
    late: tuple[str, ...] = ()
    processed: str | None = None
    for action in due.actions:
        if isinstance(action, Reminder):
            reminded = action.powers
            mails.extend(_reminders(session, game, action, identity))
        elif isinstance(action, LateNotice):
            late = action.powers
            mails.extend(_late_notices(game, action, identity))
        elif isinstance(action, ProcessPhase):
            late, processed = action.late, str(action.reason)
            mails.extend(_settle_missed_turns(session, game, seats))
            mails.extend(process_phase(session, game, identity.address))
    if processed is None:
        game.checked_at = moment  # a processed phase started the next one's clock already
    for mail in mails:
        _write(session, identity, mail)
    return Checked(game.name, phase, reminded, late, processed, len(mails))


def _settle_missed_turns(session: Session, game: Game, seats: list[SeatOrders]) -> list[Reply]:
    """Apply the postal missed-turn rule (judge.games.missed_turns) before the phase is
    adjudicated: a first missed move has the units stand and a replacement sought, a second
    puts the power in civil disorder. Seats with complete or partial orders come through
    unchanged. The rulebook's defaults for unordered units are the engine's own (units hold,
    dislodged units without a retreat are disbanded, builds are waived, owed removals follow the
    civil-disorder rule), so the fallbacks need no orders written here. The mails are returned
    for the GM and the game.
    """
    assert game.phase is not None
    by_power = {seat.power: seat for seat in game.seats}
    records = [
        SeatRecord(
            power=seat.power,
            player=(seat.person.address_of_record if seat.person is not None else None),
            status=SeatStatus(seat.status),
            missed=seat.missed_turns,
            replacement_sought=seat.replacement_sought,
            # No command names a stand-by or files general orders yet: the second miss is
            # civil disorder, and the units of a first miss stand.
            standby=None,
            general_orders=False,
        )
        for seat in game.seats
    ]
    settlement = settle_phase(
        PostalPolicy(), records, {s.power: s for s in seats}, phase_kind(game.phase)
    )
    for record in settlement.records:
        seat = by_power[record.power]
        seat.status = record.status
        seat.missed_turns = record.missed
        seat.replacement_sought = record.replacement_sought
    mails: list[Reply] = []
    gm = game.gm.address_of_record if game.gm is not None else None
    for event in settlement.events:
        if isinstance(event, TellGM) and gm:
            context = {
                "game": game.name,
                "phase": game.phase,
                "power": event.power.title(),
                "player": event.player or "nobody",
                "reason": event.reason,
            }
            mails.append(Reply("missed_turn", "missed_turn", context, to=gm))
        elif isinstance(event, AnnounceOpenSeat):
            context = {"game": game.name, "phase": game.phase, "power": event.power.title()}
            others = [s.power for s in game.seats if s.power != event.power]
            readers = [address for _, address in _holders(game, tuple(others))]
            readers.extend(
                p.address_of_record for p in observers_of(session, game) if p.address_of_record
            )
            mails.extend(
                Reply("replacement_sought", "replacement_sought", context, to=address)
                for address in readers
            )
    return mails


def _seat_orders(game_map: Map, position: Position, phase: str, seat: Seat) -> SeatOrders:
    """The seat as judge.games.timing sees it: who holds it, whether it owes anything this phase,
    and how far its orders are (the desk's judgement when they arrived)."""
    return SeatOrders(
        power=seat.power,
        status=SeatStatus(seat.status),
        owes_orders=_owes(game_map, position, phase, seat.power),
        orders=OrdersState(seat.orders_state),
        wait=seat.wait,
        changed_at=seat.orders_changed_at,
    )


def _owes(game_map: Map, position: Position, phase: str, power: str) -> bool:
    """Whether the power has anything to order: units in movement, a dislodged unit in retreats,
    a build it can make (a free home centre it owns) or a disband due in adjustments."""
    kind = phase_kind(phase)
    units = [u for u in position.units if u.power == power]
    dislodged = sum(1 for d in position.dislodged if d.unit.power == power)
    adjustment = 0
    if kind == ADJUSTMENTS:
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


def _holders(game: Game, powers: tuple[str, ...]) -> list[tuple[Seat, str]]:
    """The seats of `powers` with the address their holder gave (seats without one are skipped)."""
    wanted = set(powers)
    found: list[tuple[Seat, str]] = []
    for seat in game.seats:
        if seat.power in wanted and seat.person is not None:
            address = seat.person.address_of_record
            if address:
                found.append((seat, address))
    return found


def _reminders(session: Session, game: Game, action: Reminder, identity: Identity) -> list[Reply]:
    """One reminder to each seat still missing orders, naming its units without an order."""
    mails: list[Reply] = []
    for seat, address in _holders(game, action.powers):
        reply_to = seat_reply_address(identity.address, seat)
        context = {
            "game": game.name,
            "power": seat.power.title(),
            "phase": game.phase,
            "deadline": deadline_words(game, action.deadline),
            "missing": units_without_orders(session, seat),
            "reply_address": reply_to,
        }
        mails.append(Reply("reminder", "orders_reminder", context, to=address, reply_to=reply_to))
    return mails


def _late_notices(game: Game, action: LateNotice, identity: Identity) -> list[Reply]:
    """A late notice to each late seat, naming the other late powers; the players on time and
    the GM get the list of who is late, so everyone knows why the phase waits."""
    grace_ends = deadline_words(game, action.grace_ends)
    late = [p.title() for p in action.powers]
    mails: list[Reply] = []
    for seat, address in _holders(game, action.powers):
        reply_to = seat_reply_address(identity.address, seat)
        context = {
            "game": game.name,
            "power": seat.power.title(),
            "phase": game.phase,
            "grace_ends": grace_ends,
            "others": [p for p in late if p != seat.power.title()],
            "reply_address": reply_to,
        }
        mails.append(Reply("late", "late_notice", context, to=address, reply_to=reply_to))
    on_time = tuple(s.power for s in game.seats if s.power not in action.powers)
    told = [address for _, address in _holders(game, on_time)]
    if game.gm is not None and game.gm.address_of_record:
        told.append(game.gm.address_of_record)
    context = {"game": game.name, "phase": game.phase, "grace_ends": grace_ends, "late": late}
    mails.extend(Reply("late_list", "late_powers", context, to=address) for address in told)
    return mails


def _write(session: Session, identity: Identity, mail: Reply) -> None:
    """Render one mail and put it in the outbox, in the game's transaction."""
    assert mail.to is not None
    rendered = render_mail(
        mail.template, judge_name=identity.name, judge_address=identity.address, **mail.context
    )
    enqueue(
        session,
        identity,
        kind=mail.kind,
        to=mail.to,
        subject=rendered.subject,
        body=rendered.body,
        auto_submitted="auto-generated",
        reply_to=mail.reply_to,
    )
