"""PROCESS, PREVIEW's adjudication, and the one way a phase is run: adjudicate the stored
orders, keep the history, start the next phase's clock, and write the results mail for every
player, observer and the GM. The GM's PROCESS first settles the missed turns by the game's
policy exactly as the scheduler does (judge.desk.settlement); before the deadline a power
without orders has missed nothing (its units hold or play its general orders) unless the GM
writes PROCESS MISSED.

The adjudication is one function (`adjudicate_orders`) for the phase that is processed and the
GM's PREVIEW alike, so a preview shows exactly what PROCESS would do with the same orders; the
preview stores nothing and goes to the GM alone.

A GM who also observes the game gets the results once, as the GM.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import CaseError, read_variant_case, result_json
from judge.clock import now
from judge.desk import endings, general_orders, press_release
from judge.desk.endings import Ending
from judge.desk.mail_state import (
    MailState,
    gm_reply_address,
    gm_required,
    master_game,
    seat_reply_address,
)
from judge.desk.phase_clock import game_timing, start_phase_clock
from judge.desk.replies import Reply
from judge.desk.secret_boards import master_writer, results_visibility
from judge.desk.settlement import settle_missed_turns
from judge.engine.geography import Map
from judge.engine.orders import Order
from judge.engine.position import Position
from judge.engine.results import PhaseResult
from judge.games.seats import OrdersState, SeatStatus
from judge.language import command_values as cv
from judge.pictures.source import PictureSource, picture_request
from judge.reports import (
    MASTER,
    OBSERVER,
    PhaseReport,
    Viewer,
    everything_public,
    mail_context,
    template_name,
)
from judge.store.game_queries import (
    add_ledger_entries,
    clear_orders,
    current_orders,
    game_key,
    history,
    observers_of,
    players_of,
    record_phase,
)
from judge.store.games import Game, GameStatus
from judge.variants import MASTER as MASTER_READER
from judge.variants import OBSERVERS, variant

# The style of results mails of a game that has not chosen one (SET REPORT), and where the
# choice is kept in Game.settings.
RESULTS_STYLE = "judge"
REPORT_STYLE = "report"
# Where a draw or concession that ended the game is kept in Game.settings.
ENDING = "ending"
PREVIEW_TEMPLATE = "results_preview"


def _process(state: MailState, command: cv.Process) -> None:
    """Settle the missed turns as the scheduler does, adjudicate the phase with the stored
    orders, keep the history, move on, mail the results."""
    where = f"line {command.line_no}"
    if command.game is not None and master_game(state) is None:
        state.problems.append(
            f"{where}: PROCESS {command.game} not done: PROCESS is the GM's, and takes the "
            f"phase, not the game: put SIGNON M {command.game} <the GM password> on a line "
            "before it (then PROCESS alone runs the phase being played), or send PROCESS to "
            "the GM reply address of the game"
        )
        return
    game = gm_required(state, command)
    if game is None:
        return
    if command.game is not None and game_key(command.game) != game_key(game.name):
        state.problems.append(
            f"{where}: PROCESS {command.game} not done: this mail acts as the GM of game "
            f"{game.name}, not {command.game}; PROCESS runs the game the SIGNON M line or the "
            f"GM reply address names (write PROCESS, or PROCESS {game.phase or 'phase'})"
        )
        return
    if not _running(state, game, where, command):
        return
    if command.phase is not None and command.phase.upper() != game.phase:
        state.problems.append(f"{where}: game {game.name} is in {game.phase}, not {command.phase}")
        return
    judge_address = state.where.judge_address
    # The game's missed-turn policy, as the scheduler applies it; `force`: an open seat's
    # units fall back instead of the phase waiting for a taker (the GM wants it run). A run
    # before the deadline is no missed deadline unless the GM says so (PROCESS MISSED).
    counted = command.missed or deadline_passed(game)
    settled = settle_missed_turns(state.session, game, judge_address, force=True, counted=counted)
    # A seat handed to the one standing by is his before its results reach him; then the
    # results; the GM's missed-turn notices and the calls for a player follow them.
    state.replies.extend(settled.handovers)
    state.replies.extend(
        process_phase(state.session, game, judge_address, seats_before=settled.seats_before)
    )
    state.replies.extend(settled.mails)


def deadline_passed(game: Game) -> bool:
    """Whether the phase's deadline has come (a game without one has none to miss)."""
    return game.deadline is not None and game.deadline <= now()


def _running(state: MailState, game: Game, where: str, command: cv.Command) -> bool:
    """Whether the game has a phase to run; otherwise the reason is added to the problems."""
    if game.status == GameStatus.PAUSED:
        state.problems.append(
            f"{where}: game {game.name} is paused; RESUME it before {command.keyword}"
        )
        return False
    if game.status != GameStatus.ACTIVE or game.phase is None or game.position is None:
        state.problems.append(f"{where}: game {game.name} is not running ({game.status})")
        return False
    return True


def _preview(state: MailState, command: cv.Preview) -> None:
    """PREVIEW: what the phase would give with the orders so far, to the GM alone."""
    game = gm_required(state, command)
    if game is None or not _running(state, game, f"line {command.line_no}", command):
        return
    state.replies.append(preview_phase(state.session, game, state.where.judge_address))


@dataclass(frozen=True)
class Adjudication:
    """The current phase adjudicated with the orders standing now: what the engine was given
    (the board, the order texts, the orders read from them) and what it gave back."""

    game_map: Map
    position: Position
    texts: dict[str, list[str]]
    orders: dict[str, list[Order]]
    result: PhaseResult
    results: dict[str, Any]  # the result as docs/ADJUDICATE.md writes it
    general: frozenset[str] = frozenset()  # powers that sent nothing and played general orders
    results_text: Any = None  # the variant's own results layout, if it has one


def adjudicate_orders(session: Session, game: Game) -> Adjudication:
    """Adjudicate the game's phase with the stored orders (units without orders hold; a power
    that sent nothing plays its general orders where some apply). Changes nothing."""
    assert game.phase is not None and game.position is not None
    try:
        case = read_variant_case(case_with_disorder(game), rules=game.rules)
    except CaseError as exc:  # a stored position the engine refuses is the keeper's business
        raise RuntimeError(f"game {game.name}: stored position unreadable: {exc}") from exc
    texts = {power: list(units.values()) for power, units in current_orders(session, game).items()}
    general: set[str] = set()
    for power, standing in general_orders.standing_orders(session, game, texts).items():
        if power not in texts:
            texts[power] = standing
            general.add(power)
    game_map, position = case.game_map, case.position
    read = case.variant.language.read_orders(game_map, texts)
    result = case.variant.rules.adjudicate(game_map, position, read.orders, case.rules)
    results = result_json(
        result, texts, read.unreadable, read.headings, read.parts, case.variant.rules.case_fields
    )
    return Adjudication(
        game_map,
        position,
        texts,
        dict(read.orders),
        result,
        results,
        frozenset(general),
        case.variant.report.results_text,
    )


def case_with_disorder(game: Game) -> dict[str, Any]:
    """The stored position with the powers now in civil disorder written in, so the engine
    treats their units as the rules say (under postal-1972 a dislodged one is removed, not
    retreated) and the phase's history keeps what the engine saw (HISTORY, `judge game replay`)."""
    assert game.position is not None
    case = {k: v for k, v in game.position.items() if k != "civil_disorder"}
    disorder = sorted(s.power for s in game.seats if s.status == SeatStatus.CIVIL_DISORDER)
    if disorder:
        case["civil_disorder"] = disorder
    return case


def _report(
    game: Game,
    done: Adjudication,
    sequence: int,
    ending: Ending | None = None,
    *,
    next_deadline: bool = True,
    claims_not_won: tuple[tuple[str, ...], ...] = (),
) -> PhaseReport:
    return PhaseReport(
        game_map=done.game_map,
        before=done.position,
        orders=done.orders,
        result=done.result,
        game=game.name,
        sequence=sequence,
        draw=ending.draw if ending is not None else (),
        concession=ending.concession if ending is not None else None,
        claimed=ending.claimed if ending is not None else (),
        claims_not_won=claims_not_won,
        civil_disorder=frozenset(
            s.power for s in game.seats if s.status == SeatStatus.CIVIL_DISORDER
        ),
        general_orders=done.general,
        text_writer=(
            master_writer(secret)
            if (secret := variant(game.variant).secret_board)
            else done.results_text
        ),
        next_deadline=(
            game.deadline.astimezone(game_timing(game).tz)
            if next_deadline and game.deadline is not None
            else None
        ),
    )


def _variant_title(game: Game) -> str:
    """njudge's "Variant:" word in the results header: the variant's own title."""
    return variant(game.variant).title


def _style(game: Game) -> str:
    return str(game.settings.get(REPORT_STYLE, RESULTS_STYLE))


def preview_phase(session: Session, game: Game, judge_address: str) -> Reply:
    """The GM's private preview of the phase: the results the orders so far would give, in the
    game's results style, headed as a preview. Nothing is stored and nobody else is mailed."""
    done = adjudicate_orders(session, game)
    sequence = len(history(session, game)) + 1
    report = _report(game, done, sequence, next_deadline=False)
    context = mail_context(report, _style(game), MASTER, variant=_variant_title(game))
    context["deadline"] = ""
    # Back to the sender, who proved to be the GM: nobody else sees it.
    return Reply(
        "preview", PREVIEW_TEMPLATE, context, reply_to=gm_reply_address(judge_address, game)
    )


def process_phase(
    session: Session,
    game: Game,
    judge_address: str,
    *,
    seats_before: dict[str, Any] | None = None,
) -> list[Reply]:
    """Adjudicate the game's phase with the stored orders (units without orders hold), keep the
    history, move to the next phase with its deadline, and return the results mails for every
    player, observer and the GM. PROCESS and the scheduler both come here, so a phase run by
    the GM and one run by its deadline are the same. The caller holds the game's row locked
    and has settled the missed turns first (`settle_missed_turns`), whose `seats_before` the
    phase's record keeps for ROLLBACK.
    """
    assert game.phase is not None and game.position is not None
    done = adjudicate_orders(session, game)
    sequence = len(history(session, game)) + 1
    record = record_phase(
        session,
        game,
        game.phase,
        case_with_disorder(game),
        done.texts,
        done.results,
        seats_before=seats_before,
    )
    # Every pound the phase moved goes into the game's ledger (a variant with money).
    add_ledger_entries(session, game, game.phase, done.results.get("payments", ()), record)
    clear_orders(session, game)
    for seat in game.seats:
        seat.orders_state = OrdersState.NONE
        seat.orders_changed_at = None
        seat.wait = False  # WAIT is for one phase
    game.position = _next_case(game.position, done.results)
    game.phase = done.result.next_phase
    claims = dict(game.settings.get(endings.CLAIMS, {}))
    ending = endings.game_ending(session, game, done.result)
    not_won = endings.claims_not_won(claims, ending)
    if done.result.victory or ending is not None:
        game.status = GameStatus.FINISHED
    if ending is not None:  # kept for SUMMARY: the board alone does not show an agreed end
        game.settings = {**game.settings, ENDING: ending.as_settings()}
    start_phase_clock(game)
    report = _report(game, done, sequence, ending, claims_not_won=not_won)
    style = _style(game)
    template = template_name(style)
    secret_board = variant(game.variant).secret_board
    visibility = results_visibility(secret_board) if secret_board else everything_public
    picture = PictureSource(record.position_before, done.texts, done.results, game.name)
    replies = [
        Reply(
            "results",
            template,
            mail_context(report, style, viewer, visibility, variant=_variant_title(game)),
            to=address,
            reply_to=to,
            picture=picture_request(picture, reader_of(viewer)),
        )
        for address, viewer, to in _results_readers(session, game, judge_address)
    ]
    replies.extend(press_release.press_with_results(session, game, judge_address))
    return replies


def reader_of(viewer: Viewer) -> str:
    """A viewer as the variant record names readers: a power, OBSERVERS or MASTER."""
    if viewer.power is not None:
        return viewer.power
    return MASTER_READER if viewer == MASTER else OBSERVERS


def _results_readers(
    session: Session, game: Game, judge_address: str
) -> list[tuple[str, Viewer, str | None]]:
    """(address, viewer, Reply-To) of each results mail: every player as that power with the
    seat's reply address, every observer, and the GM with the GM's reply address. An observer
    who is also the GM gets the GM's mail only."""
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
    gm = game.gm.address_of_record if game.gm is not None else None
    for person in observers_of(session, game):
        if person.address_of_record and person.address_of_record != gm:
            readers.append((person.address_of_record, OBSERVER, None))
    if gm:
        readers.append((gm, MASTER, gm_reply_address(judge_address, game)))
    return readers


def _next_case(before: dict[str, Any], results: dict[str, Any]) -> dict[str, Any]:
    """The board after a phase, as an adjudicate case (docs/ADJUDICATE.md) to store on the game:
    the same variant and board as the case before it."""
    case = {
        "variant": before.get("variant", "standard"),
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
    for key in ("map", "maze"):  # the board: a named one, or the game's own (Algernon)
        if key in before:
            case[key] = before[key]
    fields = variant(str(case["variant"])).rules.case_fields
    if fields is not None:  # a variant's own fields (Mercenary's money) go on to the next phase
        case.update(fields.carry(results))
    if "owners_after" in results:
        case["owners"] = results["owners_after"]
        case["state"] = results["state_after"]
    for d, out in zip(results["dislodged"], case["dislodged"], strict=True):
        if "time_scale" in d:  # a variant's own retreat rules: keep what it worked out
            out["time_scale"], out["retreats"] = d["time_scale"], d["retreats"]
    return case


# --- the seats as the missed-turn and timing rules read them ------------------------------------
HANDLERS = {cv.Process: _process, cv.Preview: _preview}
