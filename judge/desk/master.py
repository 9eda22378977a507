"""The GM's commands on a game beyond PROCESS and PREVIEW (judge.desk.processing): PAUSE, RESUME,
TERMINATE, FORCE BEGIN, EJECT, REPLACE, BECOME and ROLLBACK.

Each acts on the game the mail proved to be the GM's (`SIGNON MASTER game password` on a line
before it, or the mail sent to the game's GM reply address) and tells the game what changed:
every player (with the seat's reply address), the GM (with the GM's) and every observer, each
address once. Readings chosen where the classic judges and seed 004 leave room:

- PAUSE stops the clock (no deadline, the scheduler leaves the game alone) and orders are not
  taken; RESUME gives the phase a fresh deadline from now by the game's timing.
- FORCE BEGIN starts a forming game with at least one player; the open seats go into civil
  disorder (their units stand, are removed rather than retreated, and are never taken over).
- EJECT power vacates the seat; it is open for a replacement, and the first SIGNON to it with a
  password of the taker's own takes it (judge.desk.seating). EJECT address vacates every seat
  that person holds in the game and stops them observing it. A power in civil disorder stays in
  civil disorder when its holder is ejected.
- REPLACE power address gives the seat to that address (the person on record for it, or a new
  one) with a new password mailed to them with the seat's new reply address; the old holder's
  password and reply address stop acting for it. A power in civil disorder is not handed on.
- BECOME power lets the GM's mail act for the power (its order lines, SET WAIT) for the rest of
  that mail, without the power's password; replies about it carry the GM's reply address. Not
  for a power in civil disorder, whose units may never move.
- ROLLBACK [phase] puts the game back at the start of that phase (the last processed one by
  default) from the history: the board before it, the orders as they were given standing again
  as current orders (so the GM can correct one and PROCESS), the later history deleted, and a
  fresh deadline. Seat records (missed turns, civil disorder) are not rolled back: the history
  does not keep them.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from judge.adjudicate_json import read_case
from judge.desk.mail_state import (
    MailState,
    game_readers,
    gm_reply_address,
    gm_required,
    power_named,
    power_title,
    reply_address,
)
from judge.desk.orders import owed_state, unit_name, units_without_orders
from judge.desk.phase_clock import deadline_words, start_phase_clock
from judge.desk.replies import Reply
from judge.desk.seating import player_name, seat_changed_hands, start_game, takeover_refusal
from judge.desk.secret_boards import board_of_game, seat_knowledge
from judge.engine.position import province_of
from judge.games.seats import OrdersState, SeatStatus
from judge.identity import TOKEN_ALPHABET, normalise_address
from judge.language import command_values as cv
from judge.language.orders import parse_line
from judge.store.game_queries import (
    clear_game_orders,
    create_person,
    drop_phases_from,
    find_person_by_address,
    history,
    remove_observer,
    restore_seats,
    set_order,
    sign_on,
    vacate_seat,
)
from judge.store.games import Game, GameStatus, Person, Seat
from judge.variants import variant

# Length of the password REPLACE makes for the new player (letters and digits: easy to type).
NEW_PASSWORD_LENGTH = 10


def _announce(state: MailState, game: Game, kind: str, context: dict[str, Any]) -> None:
    """Mail `kind` (its template of the same name) to everyone in the game, each address once."""
    for reader in game_readers(state.session, game, state.where.judge_address):
        state.replies.append(
            Reply(kind, kind, context, to=reader.address, reply_to=reader.reply_to)
        )


def _deadline(game: Game) -> str:
    return deadline_words(game, game.deadline) if game.deadline is not None else ""


def _refuse(state: MailState, command: cv.Command, why: str) -> None:
    state.problems.append(f"line {command.line_no}: {command.keyword} not done: {why}")


def _not_over(game: Game) -> bool:
    return game.status not in (GameStatus.FINISHED, GameStatus.TERMINATED)


def _gm_game(
    state: MailState, command: cv.Command, fits: Callable[[Game], bool], otherwise: str
) -> Game | None:
    """The game the mail acts as GM for (SIGNON MASTER earlier in the mail, or the GM's reply
    address), when `fits` says the command may act on it now; else the refusal, naming its
    status ("game alpha is paused, not running")."""
    game = gm_required(state, command)
    if game is None:
        return None
    if not fits(game):
        why = f"game {game.name} is {game.status}"
        _refuse(state, command, f"{why}, {otherwise}" if otherwise else why)
        return None
    return game


def _pause(state: MailState, command: cv.Pause) -> None:
    """PAUSE: the clock stops and orders wait until RESUME."""
    game = _gm_game(state, command, lambda g: g.status == GameStatus.ACTIVE, "not running")
    if game is None:
        return
    game.status = GameStatus.PAUSED
    game.deadline = None
    _announce(state, game, "game_paused", {"game": game.name, "phase": game.phase or ""})


def _resume(state: MailState, command: cv.Resume) -> None:
    """RESUME: the game goes on in the same phase, with a fresh deadline from now."""
    game = _gm_game(state, command, lambda g: g.status == GameStatus.PAUSED, "not paused")
    if game is None:
        return
    game.status = GameStatus.ACTIVE
    start_phase_clock(game)
    context = {"game": game.name, "phase": game.phase or "", "deadline": _deadline(game)}
    _announce(state, game, "game_resumed", context)


def _terminate(state: MailState, command: cv.Terminate) -> None:
    """TERMINATE: the game ends here, without a result."""
    game = _gm_game(state, command, _not_over, "")
    if game is None:
        return
    game.status = GameStatus.TERMINATED
    game.deadline = None
    _announce(state, game, "game_terminated", {"game": game.name, "phase": game.phase or ""})


def _force_begin(state: MailState, command: cv.ForceBegin) -> None:
    """FORCE BEGIN: a forming game starts now; its open seats are in civil disorder."""
    game = _gm_game(state, command, lambda g: g.status == GameStatus.FORMING, "not forming")
    if game is None:
        return
    if all(seat.person_id is None for seat in game.seats):
        _refuse(state, command, f"nobody has signed on to game {game.name} yet")
        return
    disorder = [seat for seat in game.seats if seat.person_id is None]
    for seat in disorder:
        seat.status = SeatStatus.CIVIL_DISORDER
    start_game(state, game, tell_readers=False)  # game_forced tells everyone
    context = {
        "game": game.name,
        "phase": game.phase or "",
        "deadline": _deadline(game),
        "civil_disorder": [power_title(game, seat.power) for seat in disorder],
    }
    _announce(state, game, "game_forced", context)


def _seat_named(state: MailState, game: Game, written: str, command: cv.Command) -> Seat | None:
    power = power_named(board_of_game(game), written)
    seat = next((s for s in game.seats if s.power == power), None)
    if seat is None:
        powers = ", ".join(power_title(game, s.power) for s in game.seats)
        _refuse(state, command, f"game {game.name} has no power {written}; its powers are {powers}")
    return seat


def _eject(state: MailState, command: cv.Eject) -> None:
    """EJECT power|address: the holder is out and the seat open for a replacement; an address
    also stops observing the game."""
    game = _gm_game(state, command, _not_over, "")
    if game is None:
        return
    if "@" in command.target:
        person = find_person_by_address(state.session, command.target)
        seats = [s for s in game.seats if person is not None and s.person_id == person.id]
        observed = person is not None and remove_observer(state.session, game, person)
        standing_by = [
            s for s in game.seats if person is not None and s.standby_person_id == person.id
        ]
        for seat in standing_by:
            seat.standby = None  # a volunteer no longer waiting for the seat
        if not seats and not observed and not standing_by:
            _refuse(
                state,
                command,
                f"{command.target} neither plays, stands by for nor observes {game.name}",
            )
            return
        if (observed or standing_by) and person is not None and person.address_of_record:
            removed = _removed(game, None, person, "ejected")
            removed.context.update(observed=observed, stood_by=bool(standing_by))
            state.replies.append(removed)
    else:
        seat = _seat_named(state, game, command.target, command)
        if seat is None:
            return
        if seat.person is None:
            _refuse(state, command, f"nobody holds {power_title(game, seat.power)} in {game.name}")
            return
        seats = [seat]
    for seat in seats:
        _vacate(state, game, seat)


def _vacate(state: MailState, game: Game, seat: Seat) -> None:
    """Take the seat from its holder, tell the holder, and announce it open (unless it is in
    civil disorder, which no replacement may take)."""
    holder = seat.person
    disorder = seat.status == SeatStatus.CIVIL_DISORDER
    vacate_seat(state.session, seat, SeatStatus.CIVIL_DISORDER if disorder else SeatStatus.OPEN)
    seat.orders_state = OrdersState.NONE
    if holder is not None and holder.address_of_record:
        state.replies.append(_removed(game, seat, holder, "ejected"))
    context = {
        "game": game.name,
        "phase": game.phase or "",
        "power": power_title(game, seat.power),
        "civil_disorder": disorder,
        "forming": game.status == GameStatus.FORMING,
    }
    _announce(state, game, "seat_vacated", context)


def _removed(game: Game, seat: Seat | None, person: Person, how: str) -> Reply:
    """`removed_from_game` to a former holder, observer or volunteer standing by: what they no
    longer have (a volunteer is not told which seat: on a secret board that is the maze's)."""
    assert person.address_of_record is not None
    context = {
        "game": game.name,
        "power": power_title(game, seat.power) if seat is not None else "",
        "how": how,
        "observed": seat is None,  # what else a person without the seat had: EJECT says
        "stood_by": False,
    }
    return Reply("removed_from_game", "removed_from_game", context, to=person.address_of_record)


def new_password() -> str:
    """A password for a player the GM puts in a seat; they may change it with SET PASSWORD."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(NEW_PASSWORD_LENGTH))


def _replace(state: MailState, command: cv.Replace) -> None:
    """REPLACE power address: the seat goes to that address with a new password."""
    game = _gm_game(state, command, _not_over, "")
    if game is None:
        return
    seat = _seat_named(state, game, command.power, command)
    if seat is None:
        return
    address = normalise_address(command.address)
    local, _, domain = address.rpartition("@")
    if not local or not domain:
        _refuse(state, command, f"{command.address} is not a mail address (name@domain)")
        return
    refusal = takeover_refusal(seat)
    if refusal:
        _refuse(state, command, refusal)
        return
    person = find_person_by_address(state.session, address)
    held = [s for s in game.seats if person is not None and s.person_id == person.id]
    if held:
        _refuse(state, command, f"{address} plays {power_title(game, held[0].power)} already")
        return
    if person is None:
        person = create_person(state.session, address)
    old = seat.person
    password = new_password()
    sign_on(state.session, seat, person, password)
    seat.orders_state = OrdersState.NONE
    if old is not None and old.address_of_record:
        state.replies.append(_removed(game, seat, old, "replaced"))
    mark = len(state.replies)
    if game.status == GameStatus.FORMING and all(s.person_id is not None for s in game.seats):
        start_game(state, game)  # the last open seat: the game starts (game_started to all)
    # The new player learns of the seat before the game's start.
    state.replies.insert(mark, _seat_given(state, game, seat, address, password))
    state.replies.extend(seat_changed_hands(state, game, seat, old=old, by_gm=True))


def _seat_given(state: MailState, game: Game, seat: Seat, address: str, password: str) -> Reply:
    """`seat_given` to the new holder: the seat's password, reply address, units and deadline."""
    units: list[str] = []
    if game.position is not None:
        game_map, position, _, _ = read_case(game.position, rules=game.rules)
        units = [
            unit_name(game, game_map, u.kind, u.loc)
            for u in position.units
            if u.power == seat.power
        ]
    seat_address = reply_address(state, seat)
    context = {
        "game": game.name,
        "power": power_title(game, seat.power),
        "phase": game.phase or "",
        "status": str(game.status),
        "password": password,
        "reply_address": seat_address,
        "units": units,
        "deadline": _deadline(game),
        "board": seat_knowledge(game, seat.power),
    }
    return Reply("seat_given", "seat_given", context, to=address, reply_to=seat_address)


def _become(state: MailState, command: cv.Become) -> None:
    """BECOME power: the rest of the GM's mail acts for the power."""
    game = gm_required(state, command)
    if game is None:
        return
    seat = _seat_named(state, game, command.power, command)
    if seat is None:
        return
    if seat.status in (SeatStatus.CIVIL_DISORDER, SeatStatus.ELIMINATED):
        _refuse(
            state,
            command,
            f"{power_title(game, seat.power)} is in {seat.status}: it takes no orders",
        )
        return
    state.acting = seat
    state.became = seat.id
    state.refusal = None
    context = {
        "game": game.name,
        "power": power_title(game, seat.power),
        "phase": game.phase or "",
        "holder": player_name(seat.person, "its player"),
    }
    state.replies.append(
        Reply(
            "became",
            "became",
            context,
            reply_to=gm_reply_address(state.where.judge_address, game),
        )
    )


def _rollback(state: MailState, command: cv.Rollback) -> None:
    """ROLLBACK [phase]: back to the start of that phase, the orders given then standing again."""
    game = gm_required(state, command)
    if game is None:
        return
    if game.status in (GameStatus.FORMING, GameStatus.TERMINATED):
        _refuse(state, command, f"game {game.name} is {game.status}")
        return
    records = history(state.session, game)
    if not records:
        _refuse(state, command, f"game {game.name} has no processed phase to go back to")
        return
    wanted = command.phase.upper() if command.phase else records[-1].phase
    record = next((r for r in records if r.phase == wanted), None)
    if record is None:
        done = ", ".join(r.phase for r in records)
        _refuse(state, command, f"game {game.name} has not processed {wanted}; it has {done}")
        return
    position, given = dict(record.position_before), dict(record.orders)
    seats_before = record.seats_before
    dropped = drop_phases_from(state.session, game, record)
    clear_game_orders(state.session, game)
    # The seats as the phase found them: missed turns, civil disorder, a holder replaced or
    # gone since then (nothing for a phase recorded without them, e.g. one imported).
    holders_then = {seat.power: seat.person for seat in game.seats}
    seats_restored = restore_seats(state.session, game, seats_before) if seats_before else []
    displaced = {
        seat.power: then
        for seat in game.seats
        if (then := holders_then.get(seat.power)) is not None and seat.person is not then
    }
    game.position = position
    game.phase = record.phase
    game.status = GameStatus.ACTIVE
    restored = _restore_orders(state, game, given)
    start_phase_clock(game)
    context = {
        "game": game.name,
        "phase": game.phase,
        "dropped": dropped,
        "restored": sorted(power_title(game, p) for p in restored),
        "seats_restored": sorted(power_title(game, p) for p in seats_restored),
        "deadline": _deadline(game),
        "displaced": "",
    }
    _announce(state, game, "rolled_back", context)
    # Whoever held a seat that went back to its earlier holder is told so, once.
    for power, person in sorted(displaced.items()):
        state.replies.append(
            Reply(
                "rolled_back",
                "rolled_back",
                {**context, "displaced": power_title(game, power)},
                to=person.address_of_record,
            )
        )


def _restore_orders(state: MailState, game: Game, given: dict[str, Any]) -> set[str]:
    """Put the orders given for the phase back as its current orders (each read again on the
    game's map, keyed per unit as the desk keys them); return the powers that had some."""
    assert game.phase is not None
    game_map = board_of_game(game)
    read_desk_line = variant(game.variant).language.read_desk_line
    restored: set[str] = set()
    for power, texts in given.items():
        context: dict[str, Any] = {
            "position": read_case(game.position or {}, rules=game.rules)[1],
            "power": power,
            "phase": game.phase,
        }
        for number, text in enumerate(texts, start=1):
            read = read_desk_line(game_map, str(text), number, context) if read_desk_line else None
            if read is not None:  # a line the variant keys itself (Mercenary's money lines)
                for key, stored, _full in read.orders if read.error is None else ():
                    set_order(state.session, game, power, key, stored)
                    restored.add(power)
                continue
            parsed = parse_line(str(text), game_map, number)
            if parsed.order is None:
                continue  # an unreadable order was void then and is left out now
            loc = getattr(parsed.order, "loc", None)
            key = province_of(loc) if loc else f"waive{number}"
            set_order(state.session, game, power, key, str(text))
            restored.add(power)
    for seat in game.seats:
        seat.wait = False
        seat.orders_changed_at = None
        seat.orders_state = OrdersState.NONE
        if seat.power in restored:
            missing = units_without_orders(state.session, seat)
            seat.orders_state = owed_state(state.session, seat, missing)
    return restored


HANDLERS: dict[type, Callable[[MailState, Any], None]] = {
    cv.Pause: _pause,
    cv.Resume: _resume,
    cv.Terminate: _terminate,
    cv.ForceBegin: _force_begin,
    cv.Eject: _eject,
    cv.Replace: _replace,
    cv.Become: _become,
    cv.Rollback: _rollback,
}
