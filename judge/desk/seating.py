"""CREATE, SIGNON and JOIN: games made, seats taken, and the game started when the last seat
is (OBSERVE and LIST, the readers who play no seat: observing.py).

A seat nobody holds in a running or paused game (its holder ejected by the GM, resigned, or
dropped) is taken over by the first SIGNON to it with a password of the taker's own: the taker
gets the seat and a new reply address, and the game is told who now plays the power (by name,
never by address). A power in civil disorder is never taken over again (seed 004, I: "Once a
country has gone into civil disorder, it may not be taken over by a replacement"), and its
units take no orders, so a SIGNON to it is refused with that reason, its old holder's included.
"""

from __future__ import annotations

import random
from typing import Any

from judge.adjudicate_json import read_case
from judge.desk.mail_state import (
    MailState,
    game_named,
    game_readers,
    gm_reply_address,
    is_master_word,
    power_named,
    power_title,
    reply_address,
    seat_credentials,
    sender_person,
)
from judge.desk.orders import unit_name
from judge.desk.passwords import (
    decoy_hash,
    gm_key,
    is_owner,
    new_password_hash,
    owner_addresses,
    owner_told,
    password_refusal,
    record_password,
    retry_words,
    seat_key,
    secret_seat_key,
    verify,
    verify_for,
)
from judge.desk.phase_clock import deadline_words, start_phase_clock
from judge.desk.replies import Reply
from judge.desk.secret_boards import (
    OPENING,
    board_of_game,
    power_written,
    seat_knowledge,
    secret_board_of,
)
from judge.engine.geography import Map
from judge.engine.rules import UnknownRuleSet, rules_from_names
from judge.games.missed_turns import PostalPolicy, SeatRecord, SeatRefused, take_over
from judge.games.seats import SeatStatus
from judge.identity import authenticate, reply_to_address
from judge.language import command_values as cv
from judge.store.game_queries import (
    add_ledger_entries,
    create_game,
    find_game,
    seat_of,
    sign_on,
)
from judge.store.games import (
    GAME_NAME_LENGTH,
    Game,
    GameStatus,
    Person,
    Seat,
    new_seed,
)
from judge.variants import (
    UnknownVariant,
    board_of,
    game_board,
    opening_payments,
    start_case,
    variant_names,
)
from judge.variants import variant as find_variant

# Where the GM password's hash is kept in Game.settings (there is no column for it).
GM_PASSWORD = "gm_password_hash"
# Wrong passwords one mail may give before its further SIGNON passwords go unchecked: each check
# is a deliberately slow hash, and a mail of hundreds of guesses must not cost hundreds.
MAX_PASSWORD_FAILURES = 3


def _create(state: MailState, command: cv.Create) -> None:
    """A new forming game, one open seat per power, the sender its GM; on the variant's default
    board, or another of its boards named after the variant (kept as the game's opening)."""
    where = f"line {command.line_no}"
    name = command.game  # kept as written; found in any case
    if len(name) > GAME_NAME_LENGTH:
        state.problems.append(f"{where}: a game name has at most {GAME_NAME_LENGTH} characters")
        return
    existing = find_game(state.session, name)
    if existing is not None:
        state.problems.append(f"{where}: a game named {existing.name} exists already")
        return
    try:
        chosen = find_variant(command.variant)
    except UnknownVariant:
        known = ", ".join(variant_names())
        state.problems.append(f"{where}: no variant {command.variant}; this judge has {known}")
        return
    variant = chosen.name
    settings: dict[str, Any] = {GM_PASSWORD: new_password_hash(state, command.password)}
    rule_sets = command.rule_sets
    seed = new_seed()
    if chosen.rules.new_game is not None:  # a game with a board of its own (Algernon's maze)
        try:
            opening = chosen.rules.new_game(command.rule_sets, seed)
        except ValueError as exc:
            state.problems.append(f"{where}: {exc}")
            return
        settings[OPENING] = opening
        rule_sets = ()
        game_map = game_board(variant, opening)
    else:
        # A word naming another board the variant plays on chooses it (`mercator standard`).
        boards = [w for w in command.rule_sets if w.strip().lower() in chosen.maps]
        if len(boards) > 1:
            state.problems.append(f"{where}: name one board, not {', '.join(boards)}")
            return
        board = boards[0].strip().lower() if boards else chosen.default_map
        rule_sets = tuple(w for w in command.rule_sets if w not in boards)
        try:
            rules_from_names(list(rule_sets))
        except UnknownRuleSet as exc:
            others = ", ".join(chosen.maps) if len(chosen.maps) > 1 else ""
            more = f"; {chosen.title} plays on the boards {others}" if others else ""
            state.problems.append(f"{where}: {exc}{more}")
            return
        if board != chosen.default_map:
            settings[OPENING] = start_case(variant, board)
        game_map = board_of(variant, board)
    game = create_game(
        state.session,
        name,
        variant=variant,
        rules=rule_sets,
        powers=game_map.powers,
        gm=sender_person(state),
        settings=settings,
        seed=seed,
    )
    state.replies.append(
        Reply(
            "game_created",
            "game_created",
            {
                "game": game.name,
                "variant": game_map.title
                if chosen.default_map == chosen.name or chosen.rules.new_game is not None
                else f"{chosen.title}, on the board of {game_map.title}",
                "rules": list(rule_sets),
                "powers": [power_title(game, power) for power in game_map.powers],
                "reply_address": gm_reply_address(state.where.judge_address, game),
                # A secret board's seats are taken with JOIN alone (a SIGNON for an open seat
                # is answered as a wrong password, so it tells nobody which initials exist).
                "secret": chosen.secret_board is not None,
            },
            reply_to=gm_reply_address(state.where.judge_address, game),
        )
    )


def _sign_on(state: MailState, command: cv.SignOn) -> None:
    """Take an open seat, or prove the password of a held one so the mail's orders count."""
    where = f"line {command.line_no}"
    if state.password_failures >= MAX_PASSWORD_FAILURES:
        state.problems.append(
            f"{where}: not checked: this mail already gave {MAX_PASSWORD_FAILURES} wrong "
            "passwords, so the rest of its SIGNON lines are not read"
        )
        return
    if command.spelled_power and find_game(state.session, command.game) is None:
        state.problems.append(f"{where}: {_two_readings(state, command)}")
        return
    game = game_named(state, command.game, command.line_no)
    if game is None:
        return
    game_map = board_of_game(game)
    if is_master_word(command.power, game_map):
        owners = owner_addresses(game.gm)
        refusal = password_refusal(
            state,
            gm_key(game),
            f"the GM password of game {game.name}",
            "the GM reply address",
            owners,
        )
        if refusal:
            state.problems.append(f"{where}: {refusal}")
            return
        right = verify(state, game.settings.get(GM_PASSWORD), command.password)
        failures = record_password(state, gm_key(game), right)
        if owner_told(failures, is_owner(state, owners)):
            _tell_gm_of_guesses(state, game, failures)
        if right:
            state.gm_game = game
        else:
            state.password_failures += 1
            state.problems.append(f"{where}: the GM password of game {game.name} is not right")
        return
    if secret_board_of(game) is not None:
        _secret_sign_on(state, game, game_map, command)
        return
    power = power_named(game_map, command.power)
    seat = seat_of(state.session, game, power) if power else None
    if seat is None:
        powers = ", ".join(power_title(game, p) for p in game_map.powers)
        state.problems.append(
            f"{where}: game {game.name} has no power {command.power}; its powers are {powers}"
        )
        return
    if seat.status == SeatStatus.CIVIL_DISORDER:
        state.problems.append(f"{where}: {takeover_refusal(seat)}")
        return
    if seat.person_id is None:
        refusal = _second_seat(state, game)
        if refusal:
            state.problems.append(f"{where}: {power_title(game, seat.power)} not taken: {refusal}")
            return
        if game.status == GameStatus.FORMING:
            _take_seat(state, game, seat, command.password)
        elif game.status in (GameStatus.ACTIVE, GameStatus.PAUSED):
            _take_over(state, game, seat, command.password)
        else:
            state.problems.append(f"{where}: game {game.name} is over ({game.status})")
        return
    owners = owner_addresses(seat.person)
    refusal = password_refusal(
        state,
        seat_key(seat),
        f"the password of {power_title(game, seat.power)} in game {game.name}",
        "the seat's reply address",
        owners,
    )
    if refusal:
        state.problems.append(f"{where}: {refusal}")
        return
    decision = authenticate(
        state.sender, None, command.password, seat_credentials(seat), verify=verify_for(state)
    )
    failures = record_password(state, seat_key(seat), decision.authorised)
    if owner_told(failures, is_owner(state, owners)):
        _tell_owner_of_guesses(state, game, seat, failures)
    if not decision.authorised:
        state.password_failures += 1
        state.problems.append(f"{where}: {_held_refusal(state, game, seat, decision.reason)}")
        return
    _signed_on(state, game, seat, decision.copy_to)


def _tell_owner_of_guesses(state: MailState, game: Game, seat: Seat, failures: int) -> None:
    """Tell a seat's holder that strangers' wrong passwords now hold its password back."""
    reply_to = (
        reply_to_address(state.where.judge_address, seat.reply_token) if seat.reply_token else None
    )
    words = {"power": power_title(game, seat.power), "gm": False}
    _tell_of_guesses(state, game, seat.person, seat_key(seat), reply_to, words, failures)


def _tell_gm_of_guesses(state: MailState, game: Game, failures: int) -> None:
    """Tell a game's GM that strangers' wrong passwords now hold the GM password back."""
    reply_to = gm_reply_address(state.where.judge_address, game)
    _tell_of_guesses(state, game, game.gm, gm_key(game), reply_to, {"gm": True}, failures)


def _tell_of_guesses(
    state: MailState,
    game: Game,
    holder: Person | None,
    key: str,
    reply_to: str | None,
    words: dict[str, Any],
    failures: int,
) -> None:
    """The password_guessed mail to `holder` (a seat's or the GM's), about the count at `key`."""
    owner = holder.address_of_record if holder else None
    if not owner:
        return
    context = {
        "game": game.name,
        **words,
        "failures": failures,
        "sender": state.sender,
        "retry_at": retry_words(state, key),
    }
    state.replies.append(Reply("password_guessed", "password_guessed", context, owner, reply_to))


def _signed_on(state: MailState, game: Game, seat: Seat, copy_to: tuple[str, ...]) -> None:
    """The mail acts for the seat from here on, its answers copied where the holder reads."""
    state.acting = seat
    state.refusal = None
    if copy_to:
        state.copies[seat.id] = copy_to
    state.replies.append(_signed_on_reply(state, game, seat, started=False))


def _secret_sign_on(state: MailState, game: Game, game_map: Map, command: cv.SignOn) -> None:
    """SIGNON to a game whose board is secret: the seat of the initials written, held, and its
    password. Every other case (no such power, a letter or a prefix, a seat open, in civil
    disorder or held by someone else, a wrong password) gets one answer, counted and hashed
    alike, so no reply tells anyone whether a power exists. Open seats are taken with JOIN."""
    where = f"line {command.line_no}"
    written = command.power.strip().upper()
    key = secret_seat_key(game, written)
    refusal = password_refusal(
        state, key, f"a password for {written} in game {game.name}", "your seat's reply address"
    )
    if refusal:
        state.problems.append(f"{where}: {refusal}")
        return
    power = power_written(game, game_map, written, None)
    seat = seat_of(state.session, game, power) if power else None
    held = seat if seat is not None and seat.person_id is not None else None
    if held is not None and held.status != SeatStatus.CIVIL_DISORDER:
        decision = authenticate(
            state.sender, None, command.password, seat_credentials(held), verify=verify_for(state)
        )
        right, copy_to = decision.authorised, decision.copy_to
    else:
        held, copy_to = None, ()
        right = verify(state, decoy_hash(), command.password)
    record_password(state, key, right)
    if not right or held is None:
        state.password_failures += 1
        state.problems.append(
            f"{where}: not signed on: that password opens no seat {written} in game "
            f"{game.name}. The board of {game.name} is secret, so the judge does not say "
            f"whether {written} is one of its powers (a wrong power and a wrong password are "
            f"answered alike). Mail to your seat's reply address acts without a password; "
            f"JOIN {game.name} <a password of your own> takes a seat"
        )
        return
    _signed_on(state, game, held, copy_to)


def _two_readings(state: MailState, command: cv.SignOn) -> str:
    """Why `SIGNON Germany alpha` signed on nobody: read as njudge's glued form it names a game
    that does not exist; read as a power and a game, it gives no password. The word after the
    power is named only when it is a game (else it may be the password)."""
    written = command.spelled_power
    letter, glued_game = command.power, command.game
    meant = find_game(state.session, command.password)
    ending = (
        f"if you meant {written} in game {meant.name}, the password is missing: write "
        f"SIGNON {written} {meant.name} <your password>"
        if meant is not None
        else f"if you meant {written}, write SIGNON {written} <game> <your password>"
    )
    return (
        f"SIGNON {written} ... can be read two ways, and neither signs on: as njudge's power "
        f"letter glued to the game (SIGNON {letter}{glued_game} <password>) it names game "
        f"{glued_game}, and there is no game named {glued_game}; as a power and a game it "
        f"gives no password. So {ending}"
    )


def _held_refusal(state: MailState, game: Game, seat: Seat, reason: str) -> str:
    """Why a SIGNON to a seat someone holds acted for nobody: to a sender who is not its
    holder, first that the seat is taken (a wrong password is the lesser news)."""
    holder = seat.person
    addresses = {a.address.lower() for a in holder.addresses} if holder is not None else set()
    if state.sender.lower() in addresses:
        return reason
    power = power_title(game, seat.power)
    join = (
        f"JOIN {game.name} <a password of your own> takes one"
        if game.status == GameStatus.FORMING
        else f"JOIN {game.name} <a password of your own> stands you by for a power whose "
        "replacement is sought"
    )
    return (
        f"{power} in game {game.name} is taken: {player_name(holder, 'another player')} plays "
        f"it, and the password given for it is not the right one. If {power} is yours, check the "
        f"password (or reply to the judge's last mail about your seat); to play in "
        f"{game.name}, LIST {game.name} shows its open seats, and {join}"
    )


def _join(state: MailState, command: cv.Join) -> None:
    """The first open seat of the sender's preferences, else one drawn with the game's seed."""
    game = game_named(state, command.game, command.line_no)
    if game is None:
        return
    refusal = _second_seat(state, game)
    if refusal:
        state.problems.append(f"line {command.line_no}: JOIN {game.name} not taken: {refusal}")
        return
    if game.status in (GameStatus.ACTIVE, GameStatus.PAUSED):
        _join_running(state, game, command)
        return
    if game.status != GameStatus.FORMING:
        state.problems.append(f"line {command.line_no}: game {game.name} is not taking players")
        return
    open_seats = [seat for seat in game.seats if seat.person_id is None]
    game_map = board_of_game(game)
    wanted = [power_named(game_map, p) for p in command.preferences]
    if secret_board_of(game) is not None and command.preferences:
        # Nobody knows a secret board's powers before the start, and a preference taken or
        # passed over would tell whether the power exists: the seat is drawn.
        wanted = []
        state.problems.append(
            f"line {command.line_no}: the preferences {', '.join(command.preferences)} were "
            f"not read: the board of {game.name} is secret, so its seats are drawn"
        )
    chosen = next((s for w in wanted for s in open_seats if s.power == w), None)
    if chosen is None:
        # Seeded per game and per seat taken, so the draw can be replayed from the store.
        draw = random.Random(game.seed + len(game.seats) - len(open_seats))  # noqa: S311
        chosen = draw.choice(open_seats)
    _take_seat(state, game, chosen, command.password)


def _second_seat(state: MailState, game: Game) -> str | None:
    """Why the sender may take no seat of `game`: he holds one already. One player, one seat
    (REPLACE refuses a second too): two would give one player two powers' say, and on a secret
    board two seats' knowledge of the maze."""
    person = sender_person(state)
    held = next((s for s in game.seats if s.person_id == person.id), None)
    if held is None:
        return None
    return (
        f"you play {power_title(game, held.power)} in {game.name} already, and a player holds "
        "one seat"
    )


def _join_running(state: MailState, game: Game, command: cv.Join) -> None:
    """JOIN a running game: a seat nobody holds is taken over at once; else the sender stands by
    for a power whose replacement is sought (seed 004: a first missed move), and takes it if the
    power misses another move (judge.desk.settlement hands it over, with a new reply address)."""
    game_map = board_of_game(game)
    secret = secret_board_of(game) is not None
    wanted = [power_written(game, game_map, p, None) for p in command.preferences]
    if secret and command.preferences:
        # As before the start: a preference taken or passed over would tell a stranger whether
        # the power exists, and whose replacement is sought.
        wanted = []
        state.problems.append(
            f"line {command.line_no}: the preferences {', '.join(command.preferences)} were "
            f"not read: the board of {game.name} is secret, so no seat is chosen by its power"
        )
    person = sender_person(state)

    def preferred(seats: list[Seat]) -> Seat | None:
        if not wanted:
            return seats[0] if seats else None
        return next((s for w in wanted for s in seats if s.power == w), None)

    open_seat = preferred(
        [s for s in game.seats if s.person_id is None and not takeover_refusal(s)]
    )
    if open_seat is not None:
        _take_over(state, game, open_seat, command.password)
        return
    sought = preferred(
        [
            s
            for s in game.seats
            if s.replacement_sought
            and s.status == SeatStatus.PLAYING
            and s.standby_person_id is None
            and s.person_id != person.id
        ]
    )
    if sought is None:
        asked = (
            f" for {', '.join(power_title(game, p) for p in command.preferences)}" if wanted else ""
        )
        state.problems.append(
            f"line {command.line_no}: game {game.name} has no open seat and seeks no "
            f"replacement{asked}; LIST {game.name} shows its seats"
        )
        return
    sought.standby = person
    context = {
        "game": game.name,
        "power": power_title(game, sought.power),
        "phase": game.phase or "",
    }
    # A secret board's seat is not named to the volunteer, who does not hold it yet: he learns
    # it, and what its player knows, in the mail that hands it to him (settlement).
    told = {**context, "power": ""} if secret else context
    state.replies.append(Reply("standing_by", "standing_by", told))
    if game.gm is not None and game.gm.address_of_record:
        notice = {**context, "player": player_name(person), "address": state.sender}
        state.replies.append(
            Reply(
                "standby_notice",
                "standby_notice",
                notice,
                to=game.gm.address_of_record,
                reply_to=gm_reply_address(state.where.judge_address, game),
            )
        )


def _take_seat(state: MailState, game: Game, seat: Seat, password: str) -> None:
    """Give the seat to the sender; when it was the last open one, start the game (the
    sender's "you play" first, then the game's start)."""
    sign_on(state.session, seat, sender_person(state), password, new_password_hash(state, password))
    state.acting = seat
    state.refusal = None
    started = all(s.person_id is not None for s in game.seats)
    mark = len(state.replies)
    if started and game.status == GameStatus.FORMING:
        start_game(state, game)
    state.replies.insert(mark, _signed_on_reply(state, game, seat, started=started))


def takeover_refusal(seat: Seat) -> str:
    """Why the seat cannot change hands, in judge.games.missed_turns' words; "" if it can.

    Only the seat's standing counts here (civil disorder, out of the game): whether a seat
    nobody holds is open to a taker is the desk's reading (any taker), and the GM may hand on
    any other seat."""
    if seat.status not in (SeatStatus.CIVIL_DISORDER, SeatStatus.ELIMINATED):
        return ""
    record = SeatRecord(power_title(seat.game, seat.power), None, status=SeatStatus(seat.status))
    try:
        take_over(PostalPolicy(), record, "a replacement")
    except SeatRefused as refused:
        if seat.status == SeatStatus.CIVIL_DISORDER:
            return f"{refused}: a power in civil disorder is never taken over again"
        return str(refused)
    return ""


def _take_over(state: MailState, game: Game, seat: Seat, password: str) -> None:
    """A seat nobody holds in a running game goes to the sender; the game is told who plays it."""
    sign_on(state.session, seat, sender_person(state), password, new_password_hash(state, password))
    state.acting = seat
    state.refusal = None
    # The taker is told what the seat's player knew of a secret board, now his to know.
    board = seat_knowledge(game, seat.power)
    state.replies.append(_signed_on_reply(state, game, seat, started=False, board=board))
    state.replies.extend(seat_changed_hands(state, game, seat, old=None, by_gm=False))


def player_name(person: Person | None, unnamed: str = "a new player") -> str:
    """How the game is told who plays a power: the name given, never the address."""
    if person is None:
        return "nobody"
    return person.name or unnamed


def seat_changed_hands(
    state: MailState, game: Game, seat: Seat, *, old: Person | None, by_gm: bool
) -> list[Reply]:
    """`seat_taken_over` to every player but the new holder, the GM and the observers."""
    context = {
        "game": game.name,
        "phase": game.phase or "",
        "power": power_title(game, seat.power),
        "player": player_name(seat.person),
        "old_player": player_name(old, "the former player") if old is not None else "",
        "by_gm": by_gm,
    }
    return [
        Reply(
            "seat_taken_over",
            "seat_taken_over",
            context,
            to=reader.address,
            reply_to=reader.reply_to,
        )
        for reader in game_readers(state.session, game, state.where.judge_address)
        if reader.power != seat.power
    ]


def _signed_on_reply(
    state: MailState, game: Game, seat: Seat, *, started: bool, board: str = ""
) -> Reply:
    # Open seats matter to a forming game only; a running game just says its phase. A secret
    # board's are counted, not named (LIST counts them too).
    open_seats = [power_title(game, s.power) for s in game.seats if s.person_id is None]
    if game.status != GameStatus.FORMING:
        open_seats = []
    secret = secret_board_of(game) is not None
    return Reply(
        "signed_on",
        "signed_on",
        {
            "game": game.name,
            "power": power_title(game, seat.power),
            "reply_address": reply_address(state, seat),
            "open_powers": [] if secret else open_seats,
            "open_seats": len(open_seats),
            "started": started,
            "phase": game.phase or "",
            "board": board,
        },
        reply_to=reply_address(state, seat),
    )


def start_game(state: MailState, game: Game, *, tell_readers: bool = True) -> None:
    """Every seat is taken: the opening position, the first phase, a mail to every player
    (its units and reply address) and, unless `tell_readers` is False (FORCE BEGIN says it
    its own way), a start notice to the GM and every observer."""
    game_map = board_of_game(game)
    opening = game.settings.get(OPENING)
    game.position = dict(opening) if opening is not None else start_case(game.variant)
    game.phase = game.position["phase"]
    # The money the game starts with, as the ledger's first entries (a variant with money).
    add_ledger_entries(state.session, game, game.phase, opening_payments(game.variant))
    game.status = GameStatus.ACTIVE
    start_phase_clock(game)
    state.session.flush()
    assert game.deadline is not None
    _, position, _, _ = read_case(game.position, rules=game.rules)
    secret = secret_board_of(game)
    notes = find_variant(game.variant).desk.start_notes

    def notes_for(power: str | None) -> str:
        """What the variant's start mail says to this reader (its record's `start_notes`)."""
        return notes(game.position or {}, power) if notes is not None else ""

    context = {
        "game": game.name,
        "phase": game.phase,
        "deadline": deadline_words(game, game.deadline),
        "players": [
            {
                "power": power_title(game, seat.power),
                "player": player_name(seat.person, "name not given"),
            }
            for seat in game.seats
            if seat.person is not None
        ],
    }
    for reader in game_readers(state.session, game, state.where.judge_address):
        if reader.power is None:
            if tell_readers:
                state.replies.append(
                    Reply(
                        "game_start_notice",
                        "game_started",
                        {
                            **context,
                            "power": "",
                            "units": [],
                            "reply_address": "",
                            "notes": notes_for(None),
                        },
                        to=reader.address,
                        reply_to=reader.reply_to,
                    )
                )
            continue
        units = [
            unit_name(game, game_map, u.kind, u.loc)
            for u in position.units
            if u.power == reader.power
        ]
        state.replies.append(
            Reply(
                "game_started",
                "game_started",
                {
                    **context,
                    "power": power_title(game, reader.power),
                    "reply_address": reader.reply_to,
                    "units": units,
                    "board": secret.board_text(game.position, reader.power) if secret else "",
                    "notes": notes_for(reader.power),
                },
                to=reader.address,
                reply_to=reader.reply_to,
            )
        )


HANDLERS = {
    cv.Create: _create,
    cv.SignOn: _sign_on,
    cv.Join: _join,
}
