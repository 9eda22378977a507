"""General orders at the desk (seed 004, I.C): filing them (GENERAL ... ENDGENERAL, or njudge's
PHASE phase ...), withdrawing them (GENERAL CLEAR), reading them back (GENERAL LIST: a player
his own, the GM every power's), and the orders they play for a power that sent nothing.

Filing is the seat's: by its reply token or a SIGNON with its password earlier in the mail, as
for orders. A block is read against the game's map when it is filed, its order lines in the
game's own order language (the variant's line reader, as for an orders mail), and is filed
whole or not at all: one bad line refuses it, with every fault named by its line. The store keeps the block
in the judge's own short form (GeneralOrder.text: order lines and IF/ELSE/ENDIF lines), which
the command reader reads back; `conditions` is left empty, the conditions being in the text.
Filing again for the same period replaces what was filed for it; the reading of which general
order applies to a phase, and why orders for lost units are dropped, is in
judge.games.general_orders.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import read_case
from judge.desk.mail_state import MailState, power_named, power_title, reply_address
from judge.desk.replies import Reply
from judge.desk.secret_boards import board_of_game, game_case, secret_board_of
from judge.engine.geography import Map
from judge.engine.position import Position
from judge.engine.rules import rules_from_names
from judge.games import general_orders as go
from judge.games.seats import SeatStatus
from judge.language import command_values as cv
from judge.language.commands import read_mail_commands
from judge.store.game_queries import add_general_order, general_orders
from judge.store.games import Game, GameStatus, GeneralOrder, Seat
from judge.variants import DeskLineReader, variant
from judge.variants.order_checks import standard_order_problems

log = logging.getLogger(__name__)

# Games in which general orders may be filed: before the start too ("at any time", I.C).
_OPEN_STATUSES = (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)
_NO_SEAT = (
    "no seat is named: sign on with SIGNON power game password, or reply to the judge's last "
    "mail about your seat"
)


def _seat(state: MailState, command: cv.Command) -> Seat | None:
    """The acting seat, or None with the refusal written down (as for orders and SET WAIT)."""
    seat = state.acting
    if seat is None:
        reason = state.refusal or _NO_SEAT
        state.problems.append(f"line {command.line_no}: {command.keyword} not taken: {reason}")
        return None
    if seat.game.status not in _OPEN_STATUSES:
        state.problems.append(f"line {command.line_no}: game {seat.game.name} is over")
        return None
    return seat


def _board(game: Game) -> tuple[Map, Position | None]:
    """The game's map, and its position when it has started."""
    if game.position is None:
        return board_of_game(game), None
    game_map, position, _, _ = read_case(game.position, rules=game.rules)
    return game_map, position


def _reader(game: Game) -> DeskLineReader | None:
    """How the game's variant reads an order line (None: the standard language alone)."""
    return variant(game.variant).language.read_desk_line


def _filing_position(game: Game) -> Position | None:
    """The board a block is read beside when filed: the game's, or its opening while it forms."""
    case = game_case(game)
    return read_case(case, rules=game.rules)[1] if case is not None else None


# --- filing -----------------------------------------------------------------------------------
def _file(state: MailState, command: cv.GeneralOrders) -> None:
    """File the block for the acting seat, replacing what was filed for the same period."""
    seat = _seat(state, command)
    if seat is None:
        return
    game = seat.game
    if secret_board_of(game) is not None:
        # Standing orders read against the board (their IF tests name places and units)
        # would answer questions about a board nobody may see.
        state.problems.append(
            f"line {command.line_no}: game {game.name}'s board is secret: it takes no general "
            "orders (write each turn's orders; a rat without one holds)"
        )
        return
    game_map, position = _board(game)
    general, problems = go.bind(
        command, game_map, seat.power, _reader(game), _filing_position(game)
    )
    end = command.valid_to
    if (
        end is not None
        and game.phase is not None
        and go.phase_rank(end) < go.phase_rank(game.phase)
    ):
        problems.append(
            f"line {command.line_no}: the period ends with {end}, before {game.phase}, the "
            "phase the game is in: these orders could never be played"
        )
    context: dict[str, Any] = {
        "game": game.name,
        "power": power_title(game, seat.power),
        "phase": game.phase or "",
        "validity": go.Validity(command.valid_from, command.valid_to).words(),
        "filed": False,
        "replaced": 0,
        "lines": [],
        "problems": problems,
        "written": command.redacted().splitlines(),
        "played_now": None,
    }
    if general is not None and not problems:
        replaced = 0
        for row in general_orders(state.session, game, seat.power):
            if (row.valid_from, row.valid_to) == (command.valid_from, command.valid_to):
                state.session.delete(row)
                replaced += 1
        add_general_order(
            state.session,
            game,
            seat.power,
            "\n".join(go.lines(general.items, game_map)),
            valid_from=command.valid_from,
            valid_to=command.valid_to,
            inbox_id=state.where.inbox_id,
        )
        state.session.flush()
        context.update(
            filed=True,
            replaced=replaced,
            lines=go.lines(general.items, game_map, full=True),
            played_now=_played_now(state.session, game, seat.power, game_map, position),
        )
    state.replies.append(
        Reply(
            "general_orders_filed",
            "general_orders_filed",
            context,
            reply_to=reply_address(state, seat),
        )
    )


def _played_now(
    session: Session, game: Game, power: str, game_map: Map, position: Position | None
) -> list[str] | None:
    """What the power's general orders would play in the current phase if it sent nothing."""
    if position is None or game.phase is None:
        return None
    played = go.play(
        filed_orders(session, game, power, game_map), position, game.phase, _reader(game), game_map
    )
    return None if played is None else [standing.full(game_map) for standing in played]


# --- withdrawing ------------------------------------------------------------------------------
def _clear(state: MailState, command: cv.ClearGeneral) -> None:
    """GENERAL CLEAR: every general order of the seat, or those filed for exactly that period."""
    seat = _seat(state, command)
    if seat is None:
        return
    exact = command.valid_from is not None or command.valid_to is not None
    dropped = 0
    for row in general_orders(state.session, seat.game, seat.power):
        if not exact or (row.valid_from, row.valid_to) == (command.valid_from, command.valid_to):
            state.session.delete(row)
            dropped += 1
    state.session.flush()
    state.replies.append(
        Reply(
            "general_orders_cleared",
            "general_orders_cleared",
            {
                "game": seat.game.name,
                "power": power_title(seat.game, seat.power),
                "validity": go.Validity(command.valid_from, command.valid_to).words()
                if exact
                else None,
                "dropped": dropped,
                "left": len(general_orders(state.session, seat.game, seat.power)),
            },
            reply_to=reply_address(state, seat),
        )
    )


# --- reading back -----------------------------------------------------------------------------
def _list(state: MailState, command: cv.ListGeneral) -> None:
    """GENERAL LIST [power]: the GM (SIGNON M game password) reads every power's general orders,
    or one power's; a player reads his own."""
    where = f"line {command.line_no}"
    game = state.gm_game
    seat = state.acting
    reply_to: str | None = None
    if game is not None:
        game_map, position = _board(game)
        if command.power is not None:
            power = power_named(game_map, command.power)
            if power is None:
                state.problems.append(f"{where}: game {game.name} has no power {command.power}")
                return
            powers = [power]
        else:
            powers = sorted(game_map.powers)
        reader = "the GM"
    elif seat is not None:
        game = seat.game
        game_map, position = _board(game)
        if command.power is not None and power_named(game_map, command.power) != seat.power:
            state.problems.append(
                f"{where}: you play {power_title(game, seat.power)}: a player reads only his own general "
                "orders (the GM reads every power's)"
            )
            return
        powers = [seat.power]
        reader = power_title(game, seat.power)
        reply_to = reply_address(state, seat)
    else:
        state.problems.append(f"{where}: {command.keyword} not taken: {state.refusal or _NO_SEAT}")
        return
    listed = [_power_listing(state.session, game, p, game_map, position) for p in powers]
    state.replies.append(
        Reply(
            "general_orders_list",
            "general_orders_list",
            {"game": game.name, "phase": game.phase or "", "reader": reader, "powers": listed},
            reply_to=reply_to,
        )
    )


def _power_listing(
    session: Session, game: Game, power: str, game_map: Map, position: Position | None
) -> dict[str, Any]:
    filed = filed_orders(session, game, power, game_map)
    current = go.applicable(filed, game.phase) if game.phase is not None else None
    return {
        "power": power_title(game, power),
        "orders": [
            {
                "validity": general.validity.words(),
                "lines": go.lines(general.items, game_map, full=True),
                "applies_now": general is current,
            }
            for general in filed
        ],
        "played_now": _played_now(session, game, power, game_map, position),
    }


# --- reading the store ------------------------------------------------------------------------
def read_filed(
    row: GeneralOrder, game_map: Map, read_line: DeskLineReader | None = None
) -> go.GeneralOrder | None:
    """A stored general order read back (by the variant's line reader where the game's variant
    has one); None (and a log line) if the map no longer reads it."""
    values = read_mail_commands(f"GENERAL\n{row.text}\nENDGENERAL")
    block = values[0] if len(values) == 1 else None
    if isinstance(block, cv.GeneralOrders):
        general, problems = go.bind(block, game_map, row.power, read_line)
        if general is not None:
            return go.GeneralOrder(
                row.power, go.Validity(row.valid_from, row.valid_to), general.items
            )
    else:
        problems = [str(v) for v in values]
    log.warning("general order %s of %s cannot be read back: %s", row.id, row.power, problems)
    return None


def filed_orders(session: Session, game: Game, power: str, game_map: Map) -> list[go.GeneralOrder]:
    """The power's general orders on file, oldest first."""
    out = []
    read_line = _reader(game)
    for row in general_orders(session, game, power):
        general = read_filed(row, game_map, read_line)
        if general is not None:
            out.append(general)
    return out


def standing_orders(
    session: Session, game: Game, sent: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """The order texts each power that sent nothing (not in `sent`) plays from its general
    orders this phase. Only seats still played count: a power in civil disorder stands (seed
    004: its units "may never move, support or convoy"), whatever it filed before."""
    if game.phase is None or game.position is None:
        return {}
    waiting = [
        seat.power
        for seat in game.seats
        if seat.status == SeatStatus.PLAYING and not sent.get(seat.power)
    ]
    if not waiting:
        return {}
    game_map, position = _board(game)
    assert position is not None
    out: dict[str, list[str]] = {}
    found = variant(game.variant)
    arrival_check = found.rules.check_orders or standard_order_problems
    rules = rules_from_names(list(game.rules))
    for power in waiting:
        filed = filed_orders(session, game, power, game_map)

        def check(values: Sequence[Any], power: str = power) -> list[str | None]:
            return arrival_check(game_map, position, rules, power, list(values))

        texts = (
            go.orders_for(filed, position, game.phase, game_map, _reader(game), check)
            if filed
            else None
        )
        if texts:  # nothing left to play: the power is left out, as one that sent nothing
            out[power] = texts
    return out


HANDLERS = {
    cv.GeneralOrders: _file,
    cv.ClearGeneral: _clear,
    cv.ListGeneral: _list,
}
