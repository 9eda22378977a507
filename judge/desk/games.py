"""Games by mail at the desk: CREATE, SIGNON, JOIN, OBSERVE, LIST, PROCESS and a seat's orders.

One mail is read with the command grammar (judge.language.commands) and applied in mail order
inside the processor's transaction, so the game's changes and every mail they cause commit
together. Who may act for a seat is judge.identity's decision: the seat's reply token (the
+TOKEN of the envelope recipient) or its password on a SIGNON line of the same mail; a From:
line never does, since anyone can type any From: line. The GM proves the GM password with
`SIGNON M game password` before PROCESS (the hash is kept in the game's settings).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.adjudicate_json import CaseError, parse_power_orders, read_case, result_json
from judge.clock import now
from judge.desk.commands import HELP_WORDS, MAX_LINES, Reply, Where, plain_words
from judge.engine.adjudicate import adjudicate
from judge.engine.geography import Map
from judge.engine.position import Position, Unit, province_of
from judge.engine.rules import UnknownRuleSet, rules_from_names
from judge.games.seats import OrdersState, SeatStatus
from judge.games.timing import Absence, GameTiming, next_deadline, timing_from_settings
from judge.identity import (
    SeatCredentials,
    authenticate,
    hash_password,
    reply_to_address,
    token_from_recipients,
    verify_password,
)
from judge.language import command_values as cv
from judge.language.commands import read_mail_commands
from judge.language.format import format_order
from judge.language.orders import parse_line
from judge.mail.mime import ReadMail
from judge.map_files import available_maps, load_map, start_case
from judge.reports import MASTER, OBSERVER, PhaseReport, Viewer, mail_context, template_name
from judge.reports.judge_style import deadline_text
from judge.store.game_queries import (
    add_observer,
    clear_orders,
    create_game,
    create_person,
    current_orders,
    find_game,
    find_person_by_address,
    history,
    observers_of,
    players_of,
    record_phase,
    seat_for_token,
    seat_of,
    set_order,
    sign_on,
)
from judge.store.games import GAME_NAME_LENGTH, Game, GameStatus, Person, Seat

# The commands this module applies; any other command is answered as not handled yet.
GAME_COMMANDS = (
    cv.Create,
    cv.SignOn,
    cv.Join,
    cv.Observe,
    cv.ListGames,
    cv.Process,
    cv.SetWait,
)
# Where the GM password's hash is kept in Game.settings (there is no column for it).
GM_PASSWORD = "gm_password_hash"
# The map whose names tell order lines from mistyped commands before any game is known.
READING_MAP = "standard"
# The style of results mails until games carry a setting for it.
RESULTS_STYLE = "judge"
# Where a game's timing is kept in Game.settings (judge.games.timing's settings format); a game
# without it runs on the default GameTiming.
TIMING = "timing"


@dataclass
class _Mail:
    """What one mail has done so far: the seat it acts for, the GM's game, and its answers."""

    mail: ReadMail
    where: Where
    acting: Seat | None = None
    gm_game: Game | None = None
    refusal: str | None = None  # why order lines are not taken, when no seat is acting
    problems: list[str] = field(default_factory=list)
    replies: list[Reply] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)
    ordered_seats: list[Seat] = field(default_factory=list)
    # Seat id -> the holder's address of record, when the mail acted for the seat from another
    # address: the orders reply is copied there, so a holder learns at once of any use of it.
    copies: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # Games whose row this mail holds locked (and read fresh), so orders never land in a phase
    # the scheduler is processing at the same moment.
    locked: set[int] = field(default_factory=set)

    @property
    def session(self) -> Session:
        return self.where.session

    @property
    def sender(self) -> str:
        assert self.mail.sender is not None
        return self.mail.sender


def handle(mail: ReadMail, where: Where) -> list[Reply] | None:
    """The replies and mails a game mail calls for; None when the mail is none of the games'
    business (no game command, no reply token, and a sender who holds no seat), so the desk's
    HELP-and-echo answers it as before.
    """
    lines = mail.text.splitlines()[:MAX_LINES] if mail.text else []
    reading_map = load_map(READING_MAP)
    values = read_mail_commands(
        "\n".join(lines),
        known_powers=list(reading_map.powers),
        known_provinces=_province_words(reading_map),
    )
    session = where.session
    token = token_from_recipients(
        [where.envelope_to, mail.headers.get("delivered-to")], where.judge_address
    )
    for_games = any(
        isinstance(v, cv.CommandError)
        or (isinstance(v, cv.Command) and not isinstance(v, cv.Help | cv.SignOff))
        for v in values
    )
    held = _seats_held_by(session, mail.sender) if mail.sender else []
    if not for_games and token is None and not held:
        return None
    state = _Mail(mail, where)
    if token is not None:
        seat = seat_for_token(session, token)
        if seat is None:
            state.refusal = (
                "this mail was sent to a reply address that belongs to no seat now (the seat "
                "may have passed to another player); sign on with the password instead"
            )
        else:
            decision = authenticate(mail.sender, token, None, _credentials(seat))
            state.acting = seat if decision.authorised else None
            state.refusal = decision.reason or None
            if decision.authorised and decision.copy_to:
                state.copies[seat.id] = decision.copy_to
    elif held:
        # Ask judge.identity why the sender's own address is not enough, in its words.
        state.refusal = authenticate(mail.sender, None, None, _credentials(held[0])).reason
    if plain_words(mail.subject) in HELP_WORDS and not any(isinstance(v, cv.Help) for v in values):
        state.replies.append(Reply("help", "help"))  # a Subject: of HELP asks for it too
    for value in values:
        _apply(state, value)
    return _answers(state)


def _credentials(seat: Seat) -> SeatCredentials:
    """The seat's credentials with the power spelled for people, as authenticate's reasons quote it."""
    return replace(seat.credentials(), power=seat.power.title())


def _province_words(game_map: Map) -> list[str]:
    words: list[str] = []
    for code, province in game_map.provinces.items():
        words.extend((code, province.name, *province.aliases))
    return words


def _seats_held_by(session: Session, address: str) -> list[Seat]:
    """The seats in running games held by the person with this address on record."""
    person = find_person_by_address(session, address)
    if person is None:
        return []
    return list(
        session.scalars(
            select(Seat)
            .join(Game)
            .where(Seat.person_id == person.id, Game.status == GameStatus.ACTIVE)
            .order_by(Seat.id)
        )
    )


def _apply(state: _Mail, value: cv.CommandLine) -> None:
    """Apply one command, order line or error of the mail."""
    if isinstance(value, cv.OrderLine):
        _order_line(state, value)
    elif isinstance(value, cv.CommandError):
        state.problems.append(str(value))
    elif isinstance(value, cv.Help):
        state.replies.append(Reply("help", "help"))
    elif isinstance(value, cv.SignOff):
        return
    elif isinstance(value, cv.Create):
        _create(state, value)
    elif isinstance(value, cv.SignOn):
        _sign_on(state, value)
    elif isinstance(value, cv.Join):
        _join(state, value)
    elif isinstance(value, cv.Observe):
        _observe(state, value)
    elif isinstance(value, cv.ListGames):
        _list(state, value)
    elif isinstance(value, cv.Process):
        _process(state, value)
    elif isinstance(value, cv.SetWait):
        _set_wait(state, value)
    else:
        state.problems.append(
            f"line {value.line_no}: {value.keyword} is not handled by this judge yet; "
            "nothing was changed by it"
        )


def _answers(state: _Mail) -> list[Reply]:
    """The mail's replies in a fixed order: what was done, the orders read, then the problems."""
    replies = list(state.replies)
    for seat in dict.fromkeys(state.ordered_seats):
        reply = _orders_reply(state, seat)
        replies.append(reply)
        replies.extend(replace(reply, to=copy) for copy in state.copies.get(seat.id, ()))
    if state.problems:
        replies.append(
            Reply(
                "desk_problems",
                "desk_problems",
                {"subject": state.mail.subject, "problems": state.problems},
            )
        )
    if not replies:
        replies.append(Reply("nothing", "nothing_read", {"subject": state.mail.subject}))
    return replies


def _person(state: _Mail) -> Person:
    """The sender as a person on record, created at first contact."""
    person = find_person_by_address(state.session, state.sender)
    if person is None:
        name = (state.mail.sender_name or "")[:200] or None  # the column holds 200 characters
        person = create_person(state.session, state.sender, name)
    return person


def _game(state: _Mail, name: str, line_no: int) -> Game | None:
    game = find_game(state.session, name, lock=True)
    if game is None:
        state.problems.append(f"line {line_no}: there is no game named {name.lower()}")
    return game


def _power_named(game_map: Map, written: str) -> str | None:
    """The map's power for a SIGNON word: its name, a unique prefix of it, or its letter."""
    word = written.strip().upper()
    if word in game_map.powers:
        return word
    if len(word) == 1:
        for power in game_map.powers.values():
            if power.letter.upper() == word:
                return power.name
        return None
    matches = [name for name in game_map.powers if name.startswith(word)]
    return matches[0] if len(matches) == 1 else None


def _reply_address(state: _Mail, seat: Seat) -> str:
    return seat_reply_address(state.where.judge_address, seat)


def seat_reply_address(judge_address: str, seat: Seat) -> str:
    """The seat's reply address (judge+TOKEN@domain): mail to it acts for the seat."""
    assert seat.reply_token is not None
    return reply_to_address(judge_address, seat.reply_token)


# --- deadlines ------------------------------------------------------------------------------------
def game_timing(game: Game) -> GameTiming:
    """The game's timing from its settings; the defaults when it has none."""
    return timing_from_settings(dict(game.settings.get(TIMING) or {}))


def deadline_words(game: Game, when: datetime) -> str:
    """A deadline as the players read it: njudge's date form on the game's own wall clock."""
    return deadline_text(when.astimezone(game_timing(game).tz))


def phase_kind(phase: str) -> str:
    """The kind of a phase name (S1901M -> "M"), as judge.games.timing keys its timings."""
    return phase[-1]


def start_phase_clock(game: Game) -> None:
    """A phase starts now: store when, its deadline, and that the scheduler has seen nothing of
    it yet. Called once per phase, so an absence granted during a phase moves the next deadline,
    not this one (judge.games.timing.next_deadline)."""
    started = now()
    game.phase_started_at = started
    game.checked_at = started
    if game.status != GameStatus.ACTIVE or game.phase is None:
        game.deadline = None
        return
    playing = [s.power for s in game.seats if s.status == SeatStatus.PLAYING]
    absences = [
        Absence(s.power, date.fromisoformat(a["first"]), date.fromisoformat(a["last"]))
        for s in game.seats
        for a in s.absences or ()
    ]
    game.deadline = next_deadline(
        phase_kind(game.phase), started, game_timing(game), absences, playing=playing
    )


# --- CREATE, SIGNON, JOIN, OBSERVE, LIST -----------------------------------------------------------
def _create(state: _Mail, command: cv.Create) -> None:
    """A new forming game, one open seat per power, the sender its GM."""
    where = f"line {command.line_no}"
    name = command.game.lower()
    if len(name) > GAME_NAME_LENGTH:
        state.problems.append(f"{where}: a game name has at most {GAME_NAME_LENGTH} characters")
        return
    if find_game(state.session, name) is not None:
        state.problems.append(f"{where}: a game named {name} exists already")
        return
    variant = command.variant.lower()
    if variant not in available_maps():
        known = ", ".join(available_maps())
        state.problems.append(f"{where}: no variant {variant}; this judge has {known}")
        return
    try:
        rules_from_names(list(command.rule_sets))
    except UnknownRuleSet as exc:
        state.problems.append(f"{where}: {exc}")
        return
    game_map = load_map(variant)
    game = create_game(
        state.session,
        name,
        variant=variant,
        rules=command.rule_sets,
        powers=game_map.powers,
        gm=_person(state),
        settings={GM_PASSWORD: hash_password(command.password)},
    )
    state.replies.append(
        Reply(
            "game_created",
            "game_created",
            {
                "game": game.name,
                "variant": game_map.title,
                "rules": list(command.rule_sets),
                "powers": [power.title() for power in game_map.powers],
            },
        )
    )


def _sign_on(state: _Mail, command: cv.SignOn) -> None:
    """Take an open seat, or prove the password of a held one so the mail's orders count."""
    where = f"line {command.line_no}"
    game = _game(state, command.game, command.line_no)
    if game is None:
        return
    if command.power.upper() in ("M", "MASTER", "GM"):
        if verify_password(game.settings.get(GM_PASSWORD), command.password):
            state.gm_game = game
        else:
            state.problems.append(f"{where}: the GM password of game {game.name} is not right")
        return
    game_map = load_map(game.variant)
    power = _power_named(game_map, command.power)
    seat = seat_of(state.session, game, power) if power else None
    if seat is None:
        powers = ", ".join(p.title() for p in game_map.powers)
        state.problems.append(
            f"{where}: game {game.name} has no power {command.power}; its powers are {powers}"
        )
        return
    if seat.person_id is None:
        _take_seat(state, game, seat, command.password)
        return
    decision = authenticate(state.sender, None, command.password, _credentials(seat))
    if not decision.authorised:
        state.problems.append(f"{where}: {decision.reason}")
        return
    state.acting = seat
    state.refusal = None
    if decision.copy_to:
        state.copies[seat.id] = decision.copy_to
    state.replies.append(_signed_on_reply(state, game, seat, started=False))


def _join(state: _Mail, command: cv.Join) -> None:
    """The first open seat of the sender's preferences, else one drawn with the game's seed."""
    game = _game(state, command.game, command.line_no)
    if game is None:
        return
    if game.status != GameStatus.FORMING:
        state.problems.append(f"line {command.line_no}: game {game.name} is not taking players")
        return
    open_seats = [seat for seat in game.seats if seat.person_id is None]
    game_map = load_map(game.variant)
    wanted = [_power_named(game_map, p) for p in command.preferences]
    chosen = next((s for w in wanted for s in open_seats if s.power == w), None)
    if chosen is None:
        # Seeded per game and per seat taken, so the draw can be replayed from the store.
        draw = random.Random(game.seed + len(game.seats) - len(open_seats))  # noqa: S311
        chosen = draw.choice(open_seats)
    _take_seat(state, game, chosen, command.password)


def _take_seat(state: _Mail, game: Game, seat: Seat, password: str) -> None:
    """Give the seat to the sender; when it was the last open one, start the game."""
    sign_on(state.session, seat, _person(state), password)
    state.acting = seat
    state.refusal = None
    started = all(s.person_id is not None for s in game.seats)
    if started and game.status == GameStatus.FORMING:
        _start(state, game)
    state.replies.append(_signed_on_reply(state, game, seat, started=started))


def _signed_on_reply(state: _Mail, game: Game, seat: Seat, *, started: bool) -> Reply:
    return Reply(
        "signed_on",
        "signed_on",
        {
            "game": game.name,
            "power": seat.power.title(),
            "reply_address": _reply_address(state, seat),
            "open_powers": [s.power.title() for s in game.seats if s.person_id is None],
            "started": started,
            "phase": game.phase or "",
        },
        reply_to=_reply_address(state, seat),
    )


def _start(state: _Mail, game: Game) -> None:
    """Every seat is taken: the opening position, the first phase, and a mail to every player."""
    game_map = load_map(game.variant)
    game.position = start_case(game_map)
    game.phase = game_map.start_phase
    game.status = GameStatus.ACTIVE
    start_phase_clock(game)
    state.session.flush()
    assert game.deadline is not None
    _, position, _, _ = read_case(game.position, rules=game.rules)
    for seat in players_of(state.session, game):
        assert seat.person is not None and seat.person.address_of_record is not None
        units = [
            _unit_name(game_map, u.kind, u.loc) for u in position.units if u.power == seat.power
        ]
        state.replies.append(
            Reply(
                "game_started",
                "game_started",
                {
                    "game": game.name,
                    "power": seat.power.title(),
                    "phase": game.phase,
                    "reply_address": _reply_address(state, seat),
                    "units": units,
                    "deadline": deadline_words(game, game.deadline),
                },
                to=seat.person.address_of_record,
                reply_to=_reply_address(state, seat),
            )
        )


def _observe(state: _Mail, command: cv.Observe) -> None:
    game = _game(state, command.game, command.line_no)
    if game is None:
        return
    add_observer(state.session, game, _person(state))
    state.replies.append(
        Reply("observing", "observing", {"game": game.name, "phase": game.phase or ""})
    )


def _list(state: _Mail, command: cv.ListGames) -> None:
    """LIST: the games and their status; LIST game: its seats (holders without addresses)."""
    session = state.session
    if command.game is None:
        games = session.scalars(select(Game).order_by(Game.name))
        rows = [
            {"name": g.name, "status": str(g.status), "phase": g.phase or "", "variant": g.variant}
            for g in games
        ]
        state.replies.append(Reply("game_list", "game_list", {"games": rows}))
        return
    game = _game(state, command.game, command.line_no)
    if game is None:
        return
    seats = [
        {
            "power": seat.power.title(),
            "holder": (seat.person.name or "taken") if seat.person is not None else "open",
        }
        for seat in game.seats
    ]
    state.replies.append(
        Reply(
            "game_detail",
            "game_detail",
            {
                "game": game.name,
                "status": str(game.status),
                "phase": game.phase or "",
                "variant": game.variant,
                "rules": list(game.rules),
                "seats": seats,
                "observers": len(observers_of(session, game)),
            },
        )
    )


# --- orders ---------------------------------------------------------------------------------------
def _unit_name(game_map: Map, kind: str, loc: str) -> str:
    word = {"A": "Army", "F": "Fleet"}.get(kind, kind)
    return f"{word} {game_map.provinces[province_of(loc)].name}"


def _position(game: Game) -> tuple[Map, Position]:
    game_map, position, _, _ = read_case(game.position, rules=game.rules)
    return game_map, position


def _order_line(state: _Mail, line: cv.OrderLine) -> None:
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
    if game.id not in state.locked:
        state.session.execute(
            select(Game)
            .where(Game.id == game.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        state.locked.add(game.id)
    if game.status != GameStatus.ACTIVE or game.phase is None or game.position is None:
        state.problems.append(f"line {line.line_no}: game {game.name} is not running yet")
        return
    game_map, position = _position(game)
    parsed = parse_line(line.text, game_map, line.line_no)
    entry: dict[str, Any] = {"source": line.text.strip(), "error": None, "full": None}
    entry["replaced"] = None
    order = parsed.order
    if parsed.error is not None or order is None:
        entry["error"] = str(parsed.error) if parsed.error is not None else "not an order"
    elif parsed.power is not None and parsed.power != seat.power:
        entry["error"] = (
            f"line {line.line_no}, column 1: you play {seat.power.title()}, "
            f"not {parsed.power.title()}"
        )
    else:
        loc = getattr(order, "loc", None)
        unit_problem = _unit_problem(game_map, position, seat.power, loc, game.phase)
        if unit_problem:
            entry["error"] = f"line {line.line_no}, column 1: {unit_problem}"
        else:
            key = province_of(loc) if loc else f"waive{line.line_no}"
            text = format_order(order, game_map, "short")
            entry["full"] = format_order(order, game_map, "full")
            entry["replaced"] = set_order(
                state.session, game, seat.power, key, text, inbox_id=state.where.inbox_id
            )
            seat.orders_changed_at = now()
    entry["seat"] = seat.id
    state.orders.append(entry)
    state.ordered_seats.append(seat)


def _orderable(position: Position, phase: str) -> list[Unit]:
    """The units that take orders in a movement or retreat phase (the dislodged in a retreat)."""
    if phase.endswith("R"):
        return [d.unit for d in position.dislodged]
    return list(position.units)


def _unit_problem(
    game_map: Map, position: Position, power: str, loc: str | None, phase: str
) -> str | None:
    """Why the order cannot be the power's (no unit of it there), or None."""
    if loc is None or phase.endswith("A"):
        return None  # adjustments: the engine checks build sites and removals
    province = province_of(loc)
    if any(u.power == power and u.province == province for u in _orderable(position, phase)):
        return None
    name = game_map.provinces[province].name if province in game_map.provinces else loc
    return f"{power.title()} has no unit to order in {name} this phase"


def _without_orders(state: _Mail, seat: Seat) -> list[str]:
    return units_without_orders(state.session, seat)


def units_without_orders(session: Session, seat: Seat) -> list[str]:
    """The units of the seat that have no order yet (they hold if the phase is processed so)."""
    game = seat.game
    assert game.phase is not None
    if game.phase.endswith("A"):
        return []
    game_map, position = _position(game)
    ordered = current_orders(session, game).get(seat.power, {})
    return [
        _unit_name(game_map, u.kind, u.loc)
        for u in _orderable(position, game.phase)
        if u.power == seat.power and u.province not in ordered
    ]


def _owed_state(state: _Mail, seat: Seat, missing: list[str]) -> OrdersState:
    """How much of what the seat owes this phase is in: the scheduler's early processing reads
    `Seat.orders_state` alone. In adjustments a seat owes one order per build or removal due."""
    game = seat.game
    ordered = current_orders(state.session, game).get(seat.power, {})
    if game.phase is not None and game.phase.endswith("A"):
        _, position = _position(game)
        units = sum(1 for u in position.units if u.power == seat.power)
        owed = abs(len(position.centers.get(seat.power, ())) - units)
        if len(ordered) >= owed:
            return OrdersState.COMPLETE
    elif not missing:
        return OrdersState.COMPLETE
    return OrdersState.PARTIAL if ordered else OrdersState.NONE


def _orders_reply(state: _Mail, seat: Seat) -> Reply:
    lines = [
        {k: v for k, v in entry.items() if k != "seat"}
        for entry in state.orders
        if entry.get("seat") == seat.id
    ]
    missing = _without_orders(state, seat)
    seat.orders_state = _owed_state(state, seat, missing)
    return Reply(
        "orders_read",
        "orders_read",
        {
            "game": seat.game.name,
            "power": seat.power.title(),
            "phase": seat.game.phase or "",
            "lines": lines,
            "errors": sum(1 for line in lines if line["error"]),
            "missing": missing,
            "adjustment": (seat.game.phase or "").endswith("A"),
        },
        reply_to=_reply_address(state, seat),
    )


# --- SET WAIT -------------------------------------------------------------------------------------
def _set_wait(state: _Mail, command: cv.SetWait) -> None:
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
                "power": seat.power.title(),
                "phase": game.phase,
                "wait": command.wait,
                "deadline": deadline_words(game, game.deadline) if game.deadline else "",
            },
            reply_to=_reply_address(state, seat),
        )
    )


# --- PROCESS --------------------------------------------------------------------------------------
def _process(state: _Mail, command: cv.Process) -> None:
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
    if result.victory:
        game.status = GameStatus.FINISHED
    start_phase_clock(game)
    report = PhaseReport(
        game_map=game_map,
        before=position,
        orders=parsed,
        result=result,
        game=game.name,
        sequence=sequence,
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
    template = template_name(RESULTS_STYLE)
    replies: list[Reply] = []
    for address, viewer, reply_to in readers:
        context = mail_context(report, RESULTS_STYLE, viewer)
        replies.append(Reply("results", template, context, to=address, reply_to=reply_to))
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
