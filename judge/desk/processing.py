"""PROCESS and the one way a phase is run: adjudicate the stored orders, keep the history, start
the next phase's clock, and write the results mail for every player, observer and the GM."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import CaseError, parse_power_orders, read_case, result_json
from judge.desk import endings, general_orders, press
from judge.desk.commands import Reply
from judge.desk.mail_state import MailState, seat_reply_address
from judge.desk.phase_clock import game_timing, start_phase_clock
from judge.engine.adjudicate import adjudicate
from judge.engine.geography import Map
from judge.games.seats import OrdersState, SeatStatus
from judge.language import command_values as cv
from judge.reports import MASTER, OBSERVER, PhaseReport, Viewer, mail_context, template_name
from judge.store.game_queries import (
    clear_orders,
    current_orders,
    history,
    observers_of,
    players_of,
    record_phase,
)
from judge.store.games import Game, GameStatus

# The style of results mails of a game that has not chosen one (SET REPORT), and where the
# choice is kept in Game.settings.
RESULTS_STYLE = "judge"
REPORT_STYLE = "report"


def _process(state: MailState, command: cv.Process) -> None:
    """Adjudicate the phase with the stored orders, keep the history, move on, mail the results."""
    where = f"line {command.line_no}"
    game = state.gm_game
    if game is None:
        state.problems.append(
            f"{where}: PROCESS is the GM's: put SIGNON M game password (the GM password given "
            "at CREATE) on a line before it"
        )
        return
    if game.status != GameStatus.ACTIVE or game.phase is None or game.position is None:
        state.problems.append(f"{where}: game {game.name} is not running")
        return
    if command.phase is not None and command.phase.upper() != game.phase:
        state.problems.append(f"{where}: game {game.name} is in {game.phase}, not {command.phase}")
        return
    state.replies.extend(process_phase(state.session, game, state.where.judge_address))


def process_phase(session: Session, game: Game, judge_address: str) -> list[Reply]:
    """Adjudicate the game's phase with the stored orders (units without orders hold), keep the
    history, move to the next phase with its deadline, and return the results mails for every
    player, observer and the GM. PROCESS and the scheduler both come here, so a phase run by
    the GM and one run by its deadline are the same. The caller holds the game's row locked.
    """
    assert game.phase is not None and game.position is not None
    try:
        game_map, position, _, rules = read_case(game.position, rules=game.rules)
    except CaseError as exc:  # a stored position the engine refuses is the keeper's business
        raise RuntimeError(f"game {game.name}: stored position unreadable: {exc}") from exc
    texts = {power: list(units.values()) for power, units in current_orders(session, game).items()}
    # A power that sent nothing plays its general orders, where it filed some that apply now.
    for power, standing in general_orders.standing_orders(session, game, texts).items():
        texts.setdefault(power, standing)
    parsed, unreadable = parse_power_orders(game_map, texts)
    result = adjudicate(game_map, position, parsed, rules)
    results = result_json(result, texts, unreadable)
    sequence = len(history(session, game)) + 1
    record_phase(session, game, game.phase, game.position, texts, results)
    clear_orders(session, game)
    for seat in game.seats:
        seat.orders_state = OrdersState.NONE
        seat.orders_changed_at = None
        seat.wait = False  # WAIT is for one phase
    game.position = _next_case(game_map, results)
    game.phase = result.next_phase
    ending = endings.game_ending(session, game, result)
    if result.victory or ending is not None:
        game.status = GameStatus.FINISHED
    start_phase_clock(game)
    report = PhaseReport(
        game_map=game_map,
        before=position,
        orders=parsed,
        result=result,
        game=game.name,
        sequence=sequence,
        draw=ending.draw if ending is not None else (),
        concession=ending.concession if ending is not None else None,
        civil_disorder=frozenset(
            s.power for s in game.seats if s.status == SeatStatus.CIVIL_DISORDER
        ),
        next_deadline=(
            game.deadline.astimezone(game_timing(game).tz) if game.deadline is not None else None
        ),
    )
    # (address, viewer, reply address): a player's results carry the seat's reply address.
    readers: list[tuple[str, Viewer, str | None]] = []
    for seat in players_of(session, game):
        assert seat.person is not None
        if seat.person.address_of_record:
            readers.append(
                (
                    seat.person.address_of_record,
                    Viewer.of_power(seat.power),
                    seat_reply_address(judge_address, seat),
                )
            )
    for person in observers_of(session, game):
        if person.address_of_record:
            readers.append((person.address_of_record, OBSERVER, None))
    if game.gm is not None and game.gm.address_of_record:
        readers.append((game.gm.address_of_record, MASTER, None))
    style = game.settings.get(REPORT_STYLE, RESULTS_STYLE)
    template = template_name(style)
    replies: list[Reply] = []
    for address, viewer, reply_to in readers:
        context = mail_context(report, style, viewer)
        replies.append(Reply("results", template, context, to=address, reply_to=reply_to))
    replies.extend(press.press_with_results(session, game, judge_address))
    return replies


def _next_case(game_map: Map, results: dict[str, Any]) -> dict[str, Any]:
    """The board after a phase, as an adjudicate case (docs/ADJUDICATE.md) to store on the game."""
    return {
        "variant": game_map.name,
        "phase": results["next_phase"],
        "units": results["units_after"],
        "centers": results["centers_after"],
        "dislodged": [
            {k: d[k] for k in ("power", "type", "loc", "attacker_from", "attacker_convoyed")}
            for d in results["dislodged"]
        ],
        "contested": results["contested"],
        "orders": {},
    }


HANDLERS = {cv.Process: _process}
