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

import json
import logging
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, selectinload

from judge.adjudicate_json import read_case
from judge.clock import now
from judge.desk.mail_state import (
    game_readers,
    gm_reply_address,
    power_title,
    seat_reply_address,
)
from judge.desk.orders import still_owed, units_without_orders
from judge.desk.phase_clock import deadline_words, game_timing, phase_kind
from judge.desk.phase_terms import (
    WAITING,
    grace_override,
    missed_turn_policy,
    not_before,
    phase_timing,
    set_grace_end,
)
from judge.desk.processing import process_phase
from judge.desk.replies import Reply
from judge.desk.secret_notices import reader_view
from judge.desk.settlement import seat_orders, settle_missed_turns
from judge.games.seats import SeatOrders, SeatStatus
from judge.games.timing import (
    Absence,
    Due,
    LateNotice,
    ProcessPhase,
    Reminder,
    due_actions,
    next_deadline,
)
from judge.render import render_mail
from judge.store.db import session_scope
from judge.store.games import Game, GameStatus, Person, Seat
from judge.store.outbox import Identity, enqueue

log = logging.getLogger("judge.scheduler")

# A game's seats, their holders' addresses and the GM's, read with the game in a few queries:
# every check reads them, and one lazy load per seat was most of a check's time (bench/games.py).
GAME_LOADS = (
    selectinload(Game.seats).selectinload(Seat.person).selectinload(Person.addresses),
    selectinload(Game.gm).selectinload(Person.addresses),
)


@dataclass(frozen=True)
class Checked:
    """What one look at one game did, for the log and the tests."""

    game: str
    phase: str
    reminded: tuple[str, ...] = ()
    late: tuple[str, ...] = ()
    processed: str | None = None  # the ProcessReason, when the phase was processed
    mails: int = 0
    # njudge NoNMR: the abandoned seats the phase waits for a taker of.
    waiting: tuple[str, ...] = ()
    # The next moment anything can fall due in the game by time alone (None: nothing will).
    next_check: datetime | None = None


@dataclass(frozen=True)
class Round:
    """One look at every running game: what was done where something was, and the earliest
    moment anything can next fall due by time alone (None: nothing will; new mail may still
    make early processing due, which the loop's poll cap catches)."""

    done: list[Checked]
    next_check: datetime | None


def run_due(engine: Engine, identity: Identity) -> list[Checked]:
    """Check every running game with a deadline, each in its own transaction; return what was
    done in the games where something was."""
    return run_round(engine, identity).done


def run_round(engine: Engine, identity: Identity, keeper: str = "") -> Round:
    """`run_due`, also saying when the next look is needed (the scheduler loop sleeps until
    then). Paused, forming and finished games are not looked at: only ACTIVE games run.

    A game whose last look found nothing to do is skipped while nothing about it has changed
    (`_fingerprints`: its phase, deadline, settings, and each seat's holder, status and
    orders) and its next check has not come, so an idle round costs two queries rather than a
    transaction per game.
    """
    moment = now()
    with session_scope(engine) as session:
        prints = _fingerprints(session)
    memo = _looked.setdefault(engine, {})
    for stale in set(memo) - set(prints):
        del memo[stale]
    done: list[Checked] = []
    earliest: datetime | None = None

    def wake_at(when: datetime | None) -> None:
        nonlocal earliest
        if when is not None:
            earliest = when if earliest is None else min(earliest, when)

    for game_id, fingerprint in prints.items():
        looked = memo.get(game_id)
        if looked is not None and looked.still_idle(fingerprint, moment):
            wake_at(looked.next_check)
            continue
        memo.pop(game_id, None)
        try:
            with session_scope(engine) as session:
                # Another scheduler (or a processor on the game's mail) holding the row has it
                # in hand; the next round looks again.
                game = session.scalars(
                    select(Game)
                    .where(Game.id == game_id)
                    .with_for_update(skip_locked=True)
                    .options(*GAME_LOADS)
                ).first()
                if game is None or game.status != GameStatus.ACTIVE or game.deadline is None:
                    continue
                checked = check_game(session, game, identity)
                session.flush()
                after = _fingerprint_of(game) if game.status == GameStatus.ACTIVE else None
        except OperationalError:
            raise  # the database itself failed: the loop pauses and tries every game again
        except Exception as exc:
            # One game the judge cannot run (settings it refuses, a position the engine
            # cannot read) is the keeper's to mend; it must not stop the other games.
            log.exception("game id %d: the scheduler could not check it", game_id)
            _report_fault(engine, identity, keeper, game_id, exc)
            continue
        wake_at(checked.next_check)
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
            # What the look left, once it needs no look before its next check.
            if after is not None and checked.next_check is not None and checked.next_check > moment:
                memo[game_id] = _Looked(after, moment, checked.next_check)
        else:
            memo[game_id] = _Looked(fingerprint, moment, checked.next_check)
    return Round(done, earliest)


@dataclass(frozen=True)
class _Looked:
    """A look at a game that found nothing to do: what the game was like, when, and when
    anything can next fall due in it by time alone."""

    fingerprint: tuple[Any, ...]
    at: datetime
    next_check: datetime | None

    def still_idle(self, fingerprint: tuple[Any, ...], moment: datetime) -> bool:
        """Nothing changed and the next check has not come (a clock set back looks again)."""
        if fingerprint != self.fingerprint or moment < self.at:
            return False
        return self.next_check is None or moment < self.next_check


# Per store, the games whose last look found nothing to do (this process's memory only: another
# scheduler's work changes the game's row, and so its fingerprint).
_looked: WeakKeyDictionary[Engine, dict[int, _Looked]] = WeakKeyDictionary()


def _fingerprints(session: Session) -> dict[int, tuple[Any, ...]]:
    """Every running game with a deadline, by id, with what the scheduler's answer depends on
    besides the clock: the game's phase, deadline, clock marks and settings, and each seat's
    holder, status, orders state, last orders and WAIT. Two queries for all games."""
    running = (Game.status == GameStatus.ACTIVE, Game.deadline.is_not(None))
    games = session.execute(
        select(
            Game.id,
            Game.phase,
            Game.deadline,
            Game.phase_started_at,
            Game.checked_at,
            Game.settings,
        )
        .where(*running)
        .order_by(Game.id)
    ).all()
    seats: dict[int, list[tuple[Any, ...]]] = {}
    for game_id, power, person_id, status, state, changed_at, wait in session.execute(
        select(
            Seat.game_id,
            Seat.power,
            Seat.person_id,
            Seat.status,
            Seat.orders_state,
            Seat.orders_changed_at,
            Seat.wait,
        )
        .join(Game, Game.id == Seat.game_id)
        .where(*running)
        .order_by(Seat.game_id, Seat.power)
    ):
        seats.setdefault(game_id, []).append(
            (power, person_id, str(status), str(state), changed_at, bool(wait))
        )
    return {
        game_id: _fingerprint(phase, deadline, started, checked, settings, seats.get(game_id, []))
        for game_id, phase, deadline, started, checked, settings in games
    }


def _fingerprint(
    phase: str | None,
    deadline: datetime | None,
    started: datetime | None,
    checked: datetime | None,
    settings: Any,
    seats: list[tuple[Any, ...]],
) -> tuple[Any, ...]:
    text = json.dumps(settings, sort_keys=True, default=str)
    return (phase, deadline, started, checked, text, tuple(sorted(seats, key=lambda s: s[0])))


def _fingerprint_of(game: Game) -> tuple[Any, ...]:
    """The fingerprint of a game as loaded (after a flush), equal to what `_fingerprints` reads
    back from the store once it is committed."""
    seats = [
        (
            s.power,
            s.person_id,
            str(s.status),
            str(s.orders_state),
            s.orders_changed_at,
            bool(s.wait),
        )
        for s in game.seats
    ]
    return _fingerprint(
        game.phase, game.deadline, game.phase_started_at, game.checked_at, game.settings, seats
    )


# Where a fault that stops the scheduler running a game is kept in Game.settings, so the GM and
# the keeper are told once per fault, not at every round.
FAULT = "scheduler_fault"


def _report_fault(
    engine: Engine, identity: Identity, keeper: str, game_id: int, exc: Exception
) -> None:
    """Keep the fault on the game and, when it is new, mail the GM and the keeper: a game that
    stops moving must not wait for somebody to read the log."""
    lines = (str(exc) or type(exc).__name__).strip().splitlines() or [type(exc).__name__]
    fault = f"{type(exc).__name__}: {lines[-1]}"[:500]
    try:
        with session_scope(engine) as session:
            game = session.get(Game, game_id, with_for_update=True)
            if game is None or game.settings.get(FAULT) == fault:
                return
            game.settings = {**game.settings, FAULT: fault}
            readers = [game.gm.address_of_record] if game.gm is not None else []
            readers += [keeper] if keeper else []
            context = {"game": game.name, "phase": game.phase or "", "fault": fault}
            for address in dict.fromkeys(a for a in readers if a):
                _write(session, identity, Reply("game_stuck", "game_stuck", context, to=address))
    except Exception:  # the notice is a courtesy; the log has the fault already
        log.exception("game id %d: the scheduler could not report its fault", game_id)


def check_game(session: Session, game: Game, identity: Identity) -> Checked:
    """Do what is due in one game now, in the caller's transaction (the game's row locked)."""
    assert game.phase is not None and game.position is not None and game.deadline is not None
    if FAULT in game.settings:  # mended: a later fault is news again
        game.settings = {k: v for k, v in game.settings.items() if k != FAULT}
    moment = now()
    phase = game.phase
    mails: list[Reply] = _restart_for_takers(session, game, moment, identity)
    due, seats = _due_now(game, moment)
    reminded: tuple[str, ...] = ()
    late: tuple[str, ...] = ()
    processed: str | None = None
    waiting: tuple[str, ...] = ()
    for action in due.actions:
        if isinstance(action, Reminder):
            reminded = action.powers
            mails.extend(_reminders(session, game, action, identity))
        elif isinstance(action, LateNotice):
            late = action.powers
            mails.extend(_late_notices(game, action, identity))
        elif isinstance(action, ProcessPhase):
            late = action.late
            settled = settle_missed_turns(session, game, identity.address, seats)
            mails.extend(settled.handovers)
            mails.extend(settled.mails)
            waiting = settled.waiting
            if not waiting:
                processed = str(action.reason)
                mails.extend(
                    process_phase(
                        session, game, identity.address, seats_before=settled.seats_before
                    )
                )
    if processed is None and mails:
        # What was sent is sent: the next look counts timed mails from here. A look that sent
        # nothing leaves the mark alone, so an idle game's row is not written every round.
        # (A processed phase started the next one's clock already.)
        game.checked_at = moment
    for mail in mails:
        _write(session, identity, mail)
    next_check = due.next_check
    if processed is not None:
        # The new phase, as the next look would see it: due at once (a phase nobody owes
        # anything in) means looking again now; otherwise the round need not come back to it.
        next_check = moment
        if game.status == GameStatus.ACTIVE and game.deadline is not None:
            after, _ = _due_now(game, moment)
            next_check = moment if after.actions else after.next_check
    return Checked(game.name, phase, reminded, late, processed, len(mails), waiting, next_check)


def _due_now(game: Game, moment: datetime) -> tuple[Due, list[SeatOrders]]:
    """What is due in the game's current phase at `moment`, and its seats as timing sees them."""
    assert game.phase is not None and game.position is not None and game.deadline is not None
    game_map, position, _, _ = read_case(game.position, rules=game.rules)
    seats = [seat_orders(game_map, position, game.phase, seat) for seat in game.seats]
    due = due_actions(
        game.checked_at or game.phase_started_at or moment,
        moment,
        game.deadline,
        seats,
        phase_timing(game),
        open_seats_block=missed_turn_policy(game).open_seats_block,
        grace_ends=grace_override(game),
        not_before=not_before(game),
    )
    return due, seats


def _restart_for_takers(
    session: Session, game: Game, moment: datetime, identity: Identity
) -> list[Reply]:
    """njudge NoNMR: when someone has taken a seat the phase was waiting for, the phase gets a
    fresh deadline from now, so the newcomer has the game's usual time (RestartClock), and the
    game is told. A waiting record of a phase already processed (the GM forced it) lapses."""
    waiting = game.settings.get(WAITING)
    if not isinstance(waiting, dict):
        return []
    if waiting.get("phase") != game.phase or game.phase is None:
        game.settings = {k: v for k, v in game.settings.items() if k != WAITING}
        return []
    by_power = {seat.power: seat for seat in game.seats}
    powers = [p for p in waiting.get("powers", ()) if p in by_power]
    taken = [p for p in powers if by_power[p].status == SeatStatus.PLAYING]
    if not taken:
        return []
    still = [p for p in powers if by_power[p].status == SeatStatus.OPEN]
    settings = {k: v for k, v in game.settings.items() if k != WAITING}
    if still:
        settings[WAITING] = {"phase": game.phase, "powers": still}
    game.settings = settings
    playing = [s.power for s in game.seats if s.status == SeatStatus.PLAYING]
    absences = [
        Absence(s.power, date.fromisoformat(a["first"]), date.fromisoformat(a["last"]))
        for s in game.seats
        for a in s.absences or ()
    ]
    game.deadline = next_deadline(
        phase_kind(game.phase), moment, game_timing(game), absences, playing=playing
    )
    set_grace_end(game, None)  # a grace the GM set ended before this fresh deadline
    game.checked_at = moment
    context = {
        "game": game.name,
        "phase": game.phase,
        "powers": [power_title(game, p) for p in taken],
        "deadline": deadline_words(game, game.deadline),
    }
    return [
        Reply(
            "deadline_restarted", "deadline_restarted", context, to=r.address, reply_to=r.reply_to
        )
        for r in game_readers(session, game, identity.address)
    ]


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
            "power": power_title(game, seat.power),
            "phase": game.phase,
            "deadline": deadline_words(game, action.deadline),
            **still_owed(session, seat, units_without_orders(session, seat)),
            "reply_address": reply_to,
        }
        mails.append(Reply("reminder", "orders_reminder", context, to=address, reply_to=reply_to))
    return mails


def _late_notices(game: Game, action: LateNotice, identity: Identity) -> list[Reply]:
    """A late notice to each late seat, naming the other late powers; the players on time and
    the GM get the list of who is late, so everyone knows why the phase waits."""
    grace_ends = deadline_words(game, action.grace_ends)
    late = [power_title(game, p) for p in action.powers]
    mails: list[Reply] = []
    for seat, address in _holders(game, action.powers):
        reply_to = seat_reply_address(identity.address, seat)
        context = {
            "game": game.name,
            "power": power_title(game, seat.power),
            "phase": game.phase,
            "grace_ends": grace_ends,
            "others": [p for p in late if p != power_title(game, seat.power)],
            "reply_address": reply_to,
        }
        mails.append(Reply("late", "late_notice", context, to=address, reply_to=reply_to))
    on_time = tuple(s.power for s in game.seats if s.power not in action.powers)
    # Each with the reply address that acts for them: the seat's, or the GM's.
    told = [
        (address, seat_reply_address(identity.address, seat))
        for seat, address in _holders(game, on_time)
        if seat.reply_token is not None
    ]
    if game.gm is not None and game.gm.address_of_record:
        told.append((game.gm.address_of_record, gm_reply_address(identity.address, game)))
    context = {"game": game.name, "phase": game.phase, "grace_ends": grace_ends, "late": late}
    mails.extend(
        Reply("late_list", "late_powers", context, to=address, reply_to=reply_to)
        for address, reply_to in told
    )
    return mails


def _write(session: Session, identity: Identity, mail: Reply) -> None:
    """Render one mail and put it in the outbox, in the game's transaction."""
    assert mail.to is not None
    seen = reader_view(session, mail)  # a secret board's notice as its reader may read it
    if seen is None:
        return
    mail = seen
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
        thread=mail.game,
        picture=mail.picture,
    )
