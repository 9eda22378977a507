"""A seat's order lines and SET WAIT: read on the game's map, checked to be the seat's own units,
stored per unit (the last one wins), echoed in full with the units still without orders."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import read_case
from judge.clock import now
from judge.desk.ledger import apply_at_once
from judge.desk.mail_state import MailState, lock_game, power_title, reply_address
from judge.desk.phase_clock import deadline_words
from judge.desk.replies import Reply
from judge.engine.adjustments import adjustment_counts, free_build_sites
from judge.engine.geography import Map
from judge.engine.position import Position, Unit, province_of
from judge.engine.rules import rules_from_names
from judge.games.seats import OrdersState
from judge.language import command_values as cv
from judge.language.format import format_order
from judge.language.orders import parse_line
from judge.store.game_queries import (
    current_orders,
    set_order,
)
from judge.store.games import Game, GameStatus, Seat
from judge.variants import DeskLine, RetreatTerms, variant
from judge.variants.order_checks import for_the_unit_there, kind_note, standard_order_problems


def unit_name(game: Game, game_map: Map, kind: str, loc: str) -> str:
    """A unit as the desk's sentences name it, in its game's words (Army Venice; an Algernon
    rat is a rat)."""
    word = variant(game.variant).language.unit_words.get(kind, kind)
    return f"{word} {game_map.provinces[province_of(loc)].name}"


def game_position(game: Game) -> tuple[Map, Position]:
    game_map, position, _, _ = read_case(game.position, rules=game.rules)
    return game_map, position


def _order_line(state: MailState, line: cv.OrderLine) -> None:
    """Read one order line for the acting seat and store it per unit (the last one wins)."""
    seat = state.acting
    if seat is None:
        if not any(o.get("refused") for o in state.orders):
            reason = state.refusal or (
                "no seat is named: sign on with SIGNON power game password, or reply to the "
                "judge's last mail about your seat"
            )
            state.orders.append({"refused": reason})
            state.problems.append(f"line {line.line_no}: orders not taken: {reason}")
        return
    game = seat.game
    lock_game(state, game)
    if game.status == GameStatus.PAUSED:
        state.problems.append(
            f"line {line.line_no}: game {game.name} is paused by its GM: orders are taken "
            "again when it resumes"
        )
        return
    if game.status in (GameStatus.FINISHED, GameStatus.TERMINATED):
        state.problems.append(f"line {line.line_no}: game {game.name} is over")
        return
    if game.status != GameStatus.ACTIVE or game.phase is None or game.position is None:
        state.problems.append(f"line {line.line_no}: game {game.name} is not running yet")
        return
    game_map, position = game_position(game)
    read_desk_line = variant(game.variant).language.read_desk_line
    if read_desk_line is not None:
        context = state.reading.get(seat.id)
        if context is None:
            # What the reader may need: the board, the seat, the phase, and the seat's orders
            # standing so far (key -> text; the reader keeps it up to date through the mail).
            standing = dict(current_orders(state.session, game).get(seat.power, {}))
            context = state.reading[seat.id] = {
                "position": position,
                "power": seat.power,
                "phase": game.phase,
                "standing": standing,
            }
        read = read_desk_line(game_map, line.text, line.line_no, context)
        if read is not None:  # otherwise a standard order line, read as below
            _variant_line(state, seat, game, game_map, line, read)
            return
    parsed = parse_line(line.text, game_map, line.line_no)
    entry: dict[str, Any] = {"source": line.text.strip(), "error": None, "full": None}
    entry["replaced"] = None
    entry["note"] = None
    order = parsed.order
    if parsed.error is not None or order is None:
        entry["error"] = str(parsed.error) if parsed.error is not None else "not an order"
    elif parsed.power is not None and parsed.power != seat.power:
        entry["error"] = (
            f"line {line.line_no}, column 1: you play {power_title(game, seat.power)}, "
            f"not {power_title(game, parsed.power)}"
        )
    else:
        loc = getattr(order, "loc", None)
        unit_problem = _unit_problem(game, game_map, position, seat.power, loc)
        note = None
        if not unit_problem and loc is not None:
            there = _ordered_unit(position, game.phase or "", province_of(loc))
            taken = for_the_unit_there(order, there)
            if taken is not order and there is not None:
                note = kind_note(game_map, order.unit_type, there)  # type: ignore[union-attr]
                order = taken
        key = province_of(loc) if loc else f"waive{line.line_no}"
        if not unit_problem:
            unit_problem = refusals(state, game, game_map, position, seat, {key}, [order])[0]
        if unit_problem:
            entry["error"] = f"line {line.line_no}, column 1: {unit_problem}"
        else:
            text = format_order(order, game_map, "short")
            entry["full"] = format_order(order, game_map, "full")
            entry["note"] = note
            entry["replaced"] = set_order(
                state.session, game, seat.power, key, text, inbox_id=state.where.inbox_id
            )
            seat.orders_changed_at = now()
    entry["seat"] = seat.id
    state.orders.append(entry)
    state.ordered_seats.append(seat)


def _variant_line(
    state: MailState, seat: Seat, game: Game, game_map: Map, line: cv.OrderLine, read: DeskLine
) -> None:
    """An order line as the game's variant reads it (Mercator: in its time-scale section),
    stored per key and echoed as the variant writes it; or a change made at once (Mercenary's
    leaving an Alliance of Currency), announced to the whole game."""
    source = line.text.strip()
    entry: dict[str, Any] = {
        "source": source,
        "error": read.error,
        "full": None,
        "replaced": None,
        "note": None,
    }
    if read.at_once is not None and read.error is None:
        try:
            entry["full"] = apply_at_once(state, game, read.at_once) + " (done at once)"
        except ValueError as exc:
            entry["error"] = f"line {line.line_no}: {exc}"
        state.reading.pop(seat.id, None)  # the lines after it read the changed game
    elif read.heading is not None:
        entry["full"] = f"({read.heading})"
    elif read.error is None:
        taken = read.orders
        if read.values:
            position = state.reading[seat.id]["position"]
            keys = {key for key, _stored, _full in read.orders}
            reasons = refusals(state, game, game_map, position, seat, keys, read.values)
            taken = [o for o, why in zip(read.orders, reasons, strict=True) if not why]
            refused = [(o[2], why) for o, why in zip(read.orders, reasons, strict=True) if why]
            if refused and not taken:
                entry["error"] = f"line {line.line_no}: {refused[0][1]}"
            elif refused:
                # Several orders on the line: the good ones are taken, the others named.
                entry["error"] = f"line {line.line_no}: " + "; ".join(
                    f"{full}: {why}" for full, why in refused
                )
                entry["error"] += " (taken: " + "; ".join(o[2] for o in taken) + ")"
        if taken or entry["error"] is None:
            fulls, replaced = [], []
            for key, stored, full in taken:
                fulls.append(full)
                old = set_order(
                    state.session, game, seat.power, key, stored, inbox_id=state.where.inbox_id
                )
                if old:
                    replaced.append(old)
            if entry["error"] is None:
                entry["full"] = "; ".join(fulls)
                entry["note"] = read.note
                entry["replaced"] = "; ".join(replaced) or None
            seat.orders_changed_at = now()
    entry["seat"] = seat.id
    state.orders.append(entry)
    state.ordered_seats.append(seat)


def refusals(
    state: MailState,
    game: Game,
    game_map: Map,
    position: Position,
    seat: Seat,
    replaced_keys: set[str],
    new: list[Any],
) -> list[str | None]:
    """Why each of the new orders can never be carried out, judged when they arrive by the
    variant's own check (the record's `check_orders`, the standard game's by default) over the
    seat's orders as they will stand: those taken already, less the ones the new orders
    replace, then the new ones."""
    found = variant(game.variant)
    check = found.rules.check_orders or standard_order_problems
    stored = current_orders(state.session, game).get(seat.power, {})
    kept = [text for key, text in stored.items() if key not in replaced_keys]
    standing = (
        found.language.read_orders(game_map, {seat.power: kept}).orders.get(seat.power, [])
        if kept
        else []
    )
    rules = rules_from_names(list(game.rules))
    return check(game_map, position, rules, seat.power, [*standing, *new])[len(standing) :]


def _ordered_unit(position: Position, phase: str, province: str) -> Unit | None:
    return next((u for u in orderable(position, phase) if u.province == province), None)


def orderable(position: Position, phase: str) -> list[Unit]:
    """The units that take orders in a movement or retreat phase (the dislodged in a retreat,
    and in an adjustment phase that carries them: 1885 sends retreats with the builds)."""
    if phase.endswith("R") or (phase.endswith("A") and position.dislodged):
        return [d.unit for d in position.dislodged]
    return list(position.units)


def _unit_problem(
    game: Game, game_map: Map, position: Position, power: str, loc: str | None
) -> str | None:
    """Why the order cannot be the power's (no unit of it there), or None."""
    phase = game.phase or ""
    if loc is None or phase.endswith("A"):
        return None  # adjustments: the engine checks build sites and removals
    province = province_of(loc)
    if any(u.power == power and u.province == province for u in orderable(position, phase)):
        return None
    name = game_map.provinces[province].name if province in game_map.provinces else loc
    return f"{power_title(game, power)} has no unit to order in {name} this phase"


def _without_orders(state: MailState, seat: Seat) -> list[str]:
    return units_without_orders(state.session, seat)


def units_without_orders(session: Session, seat: Seat) -> list[str]:
    """The units of the seat that have no order yet (they hold if the phase is processed so; a
    dislodged unit whose variant keeps an order standing for it owes none)."""
    game = seat.game
    assert game.phase is not None
    game_map, position = game_position(game)
    if game.phase.endswith("A") and not position.dislodged:
        return []
    # An order's key ends with its unit's province (a variant may put more before it:
    # Mercator's "ts2 eng").
    ordered = {key.split()[-1] for key in current_orders(session, game).get(seat.power, {})}
    ordered |= standing_retreats(game, game_map, position)
    return [
        unit_name(game, game_map, u.kind, u.loc)
        for u in orderable(position, game.phase)
        if u.power == seat.power and u.province not in ordered
    ]


def standing_retreats(game: Game, game_map: Map, position: Position) -> set[str]:
    """The provinces of the dislodged units for which the variant keeps a retreat order
    standing already (1885: one sent with the move), so that they owe none."""
    terms_of = variant(game.variant).desk.retreat_terms
    if terms_of is None:
        return set()
    return {d.unit.province for d in position.dislodged if terms_of(game_map, position, d).standing}


def _places(game_map: Map, places: tuple[str, ...]) -> str:
    names = [game_map.provinces[province_of(p)].name for p in places]
    if not names:
        return "nowhere"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def retreats_owed(session: Session, seat: Seat) -> list[dict[str, str]]:
    """The seat's dislodged units still without a retreat order, in a retreat phase or an
    adjustment phase that carries retreats (1885 sends them with the builds, rule 10 a): each
    with where it may go and what becomes of it without an order, as the variant says."""
    game = seat.game
    assert game.phase is not None
    game_map, position = game_position(game)
    if not (game.phase.endswith("R") or game.phase.endswith("A")) or not position.dislodged:
        return []
    ordered = {key.split()[-1] for key in current_orders(session, game).get(seat.power, {})}
    terms_of = variant(game.variant).desk.retreat_terms
    owed = []
    for d in position.dislodged:
        if d.unit.power != seat.power or d.unit.province in ordered:
            continue
        terms = (
            terms_of(game_map, position, d) if terms_of is not None else RetreatTerms(d.retreats)
        )
        owed.append(
            {
                "unit": unit_name(game, game_map, d.unit.kind, d.unit.loc),
                "places": _places(game_map, terms.places),
                "otherwise": terms.without_order,
            }
        )
    return owed


def adjustments_owed(game: Game, power: str) -> str:
    """The builds or removals the power is due this adjustment phase, in a sentence: the
    variant's count where it has one, else centres less units (builds no more than free home
    centres); with retreats still to come (1885), as the board stands before them."""
    game_map, position = game_position(game)
    counted = variant(game.variant).rules.adjustments_due
    if counted is not None:
        due = counted(game_map, position).get(power, 0)
    else:
        due = adjustment_counts(position.units, position.centers).get(power, 0)
        if due > 0:
            due = min(due, len(free_build_sites(game_map, power, position.units, position.centers)))
    name = power_title(game, power)
    if due > 0:
        text = f"{name} is due {due} build{'' if due == 1 else 's'}"
    elif due < 0:
        text = f"{name} is due {-due} removal{'' if due == -1 else 's'}"
    else:
        text = f"{name} is due no builds or removals"
    if position.dislodged:
        text += (
            " as the board stands before the retreats: a unit that survives its retreat "
            "counts as well, and one that retreats into a supply centre takes it"
        )
    return text + "."


def owed_state(session: Session, seat: Seat, missing: list[str]) -> OrdersState:
    """How much of what the seat owes this phase is in: the scheduler's early processing reads
    `Seat.orders_state` alone. In adjustments a seat owes orders for the builds or removals due,
    one each unless the variant says an order uses more (Mercator's premium build uses two)."""
    game = seat.game
    ordered = current_orders(session, game).get(seat.power, {})
    if game.phase is not None and game.phase.endswith("A"):
        game_map, position = game_position(game)
        record = variant(game.variant)
        if record.rules.adjustments_due is not None:
            owed = abs(record.rules.adjustments_due(game_map, position).get(seat.power, 0))
        else:
            units = sum(1 for u in position.units if u.power == seat.power)
            owed = abs(len(position.centers.get(seat.power, ())) - units)
        used = record.desk.adjustments_used
        given = (
            sum(used(game_map, position, seat.power, text) for text in ordered.values())
            if used is not None
            else len(ordered)
        )
        if given >= owed and not missing:  # retreats sent with the builds (1885)
            return OrdersState.COMPLETE
    elif not missing:
        return OrdersState.COMPLETE
    return OrdersState.PARTIAL if ordered else OrdersState.NONE


def orders_reply(state: MailState, seat: Seat) -> Reply:
    lines = [
        {k: v for k, v in entry.items() if k != "seat"}
        for entry in state.orders
        if entry.get("seat") == seat.id
    ]
    missing = _without_orders(state, seat)
    seat.orders_state = owed_state(state.session, seat, missing)
    return Reply(
        "orders_read",
        "orders_read",
        {
            "game": seat.game.name,
            "power": power_title(seat.game, seat.power),
            "phase": seat.game.phase or "",
            "lines": lines,
            "errors": sum(1 for line in lines if line["error"]),
            **still_owed(state.session, seat, missing),
        },
        reply_to=reply_address(state, seat),
    )


def still_owed(session: Session, seat: Seat, missing: list[str]) -> dict[str, Any]:
    """What the seat still owes this phase, as its echo and its reminder say it: `missing`, the
    units without an order in a move; `retreats`, each dislodged unit still to retreat with where
    it may go and what becomes of it otherwise; `adjustment` and `due`, the builds or removals
    due in an adjustment phase."""
    phase = seat.game.phase or ""
    adjustment = phase.endswith("A")
    return {
        "missing": [] if phase.endswith("R") else missing,  # the dislodged are in `retreats`
        "retreats": retreats_owed(session, seat),
        "adjustment": adjustment,
        "due": adjustments_owed(seat.game, seat.power) if adjustment else "",
    }


def _set_wait(state: MailState, command: cv.SetWait) -> None:
    """SET WAIT: the seat's phase is not processed early, even with every order in; it runs at
    its deadline (WAIT holds no longer). SET NOWAIT takes it back. Cleared at each new phase."""
    where = f"line {command.line_no}"
    seat = state.acting
    if seat is None:
        reason = state.refusal or (
            "no seat is named: sign on with SIGNON power game password, or reply to the "
            "judge's last mail about your seat"
        )
        state.problems.append(f"{where}: {command.redacted()} not taken: {reason}")
        return
    game = seat.game
    if game.status != GameStatus.ACTIVE or game.phase is None:
        state.problems.append(f"{where}: game {game.name} is not running")
        return
    seat.wait = command.wait
    state.replies.append(
        Reply(
            "wait_set",
            "wait_set",
            {
                "game": game.name,
                "power": power_title(game, seat.power),
                "phase": game.phase,
                "wait": command.wait,
                "deadline": deadline_words(game, game.deadline) if game.deadline else "",
            },
            reply_to=reply_address(state, seat),
        )
    )


HANDLERS = {cv.OrderLine: _order_line, cv.SetWait: _set_wait}
