
"""A player's own settings and his way out of a game: SET PASSWORD, SET ADDRESS, SET NAME and
RESIGN (the votes that end a game, SET DRAW, CLAIM and CONCEDE: votes.py).

Each acts for the seat the mail acts for (`MailState.acting`: the seat's reply token, or a
SIGNON with its password earlier in the mail); a From: line alone never does. A reply about the
seat goes to the sender and, when the mail acted for the seat from an address not on record, a
copy goes to the address of record too, so a holder learns at once of any use of the seat.

Readings chosen where the issue and njudge leave room:
- SET PASSWORD keeps the seat's reply address: the player's open mails keep working. The
  password is never echoed. The GM acting for the power (BECOME) may reset it for a player who
  lost it; the player is told at the address of record. A vote, SET ADDRESS and RESIGN are the
  player's own: the GM acting for the power may not make them (the GM has EJECT and REPLACE).
- SET ADDRESS changes the *person's* address of record (a person is known by their addresses,
  and holds every seat of theirs under one record), so mail about every game they play,
  observe or master goes to the new address. The old address stays on record as one of theirs
  (mail from it is still known to be theirs, though a From: line never acts for a seat). With
  several addresses the first becomes the address of record and the others are put on record.
  The notice goes to the old address and the new one, so a change made by someone else is
  seen where the holder reads. An address on record for another person, the judge's own
  addresses and text that is no address are refused, and nothing changes.
- SET NAME is the *person's* name as every game shows it (SUMMARY, LIST, the notice when a
  seat changes hands): the postal rules ask for real names, and a From: display name is only
  what a mail program put there. It is kept as written, its blanks evened out; a name that
  holds an address is refused (no mail the judge writes shows anyone's address). The GM,
  signed on as GM, names itself so (SUMMARY's GM line); the GM acting for a power may not name
  its player.
- RESIGN follows the game's missed-turn policy (judge.games.missed_turns.resign): postal, the
  seat is announced and the first replacement to sign on takes it, civil disorder if its next
  phase is processed with nobody found; njudge, the seat is open to any taker. A volunteer
  standing by takes the seat at once. The seat's orders for the phase are withdrawn (the
  resigning player no longer answers for them; a replacement sends new ones, else the units
  stand). In a forming game RESIGN simply frees the seat. Nothing after RESIGN in the same
  mail acts for the seat.
"""

from __future__ import annotations

import secrets

from judge.desk.mail_state import (
    MailState,
    game_readers,
    gm_reply_address,
    lock_game,
    master_game,
    power_title,
    reply_address,
    seat_reply_address,
)
from judge.desk.passwords import new_password_hash
from judge.desk.phase_terms import missed_turn_policy
from judge.desk.replies import Reply
from judge.desk.secret_boards import (
    seat_knowledge,
)
from judge.games.missed_turns import (
    PostalPolicy,
    SeatRecord,
    SeatRefused,
    TakenOver,
    TellGM,
    resign,
)
from judge.games.seats import OrdersState, SeatStatus
from judge.identity import normalise_address
from judge.language import command_values as cv
from judge.store.game_queries import (
    add_address,
    clear_orders,
    find_person_by_address,
    sign_on,
    vacate_seat,
)
from judge.store.games import (
    ADDRESS_LENGTH,
    PERSON_NAME_LENGTH,
    Game,
    GameStatus,
    Person,
    Seat,
)

NO_SEAT = (
    "no seat is named: sign on with SIGNON power game password on a line before it, or reply "
    "to the judge's last mail about your seat"
)
# Games in which the board stands and votes and resignations mean something.
RUNNING = (GameStatus.ACTIVE, GameStatus.PAUSED)
OVER = (GameStatus.FINISHED, GameStatus.TERMINATED)


# --- shared ------------------------------------------------------------------------------------
def _acting_seat(state: MailState, command: cv.Command) -> Seat | None:
    """The seat the mail acts for, or None with the reason among the mail's problems."""
    seat = state.acting
    if seat is None:
        reason = state.refusal or NO_SEAT
        state.problems.append(f"line {command.line_no}: {command.redacted()} not taken: {reason}")
    return seat


def _players_own(state: MailState, command: cv.Command, seat: Seat) -> bool:
    """Whether the mail acts for the seat as its player. The GM acting for a power (BECOME)
    may order for it and reset its password, but a vote, the player's address and giving the
    seat up are the player's own (the GM has EJECT and REPLACE)."""
    if state.became != seat.id:
        return True
    state.problems.append(
        f"line {command.line_no}: {command.redacted()} not taken: it is the player's own "
        f"choice; the GM acting for {power_title(seat.game, seat.power)} (BECOME) may not make it"
    )
    return False


def running_seat(state: MailState, command: cv.Command) -> Seat | None:
    """The acting seat of a game with a board (running or paused), its row locked; else None
    with the reason among the problems."""
    seat = _acting_seat(state, command)
    if seat is None or not _players_own(state, command, seat):
        return None
    game = seat.game
    lock_game(state, game)
    if game.status not in RUNNING or game.phase is None or game.position is None:
        state.problems.append(
            f"line {command.line_no}: {command.redacted()} not taken: game {game.name} "
            f"{_not_running(game)}"
        )
        return None
    return seat


def _not_running(game: Game) -> str:
    if game.status == GameStatus.FORMING:
        return "has not started yet"
    return f"is over ({game.status})"


def tell_seat(state: MailState, seat: Seat, reply: Reply) -> None:
    """A reply about the seat: to the sender, and copied to the address of record when the mail
    acted for the seat from another address."""
    state.replies.append(reply)
    for copy in state.copies.get(seat.id, ()):
        state.replies.append(Reply(reply.kind, reply.template, reply.context, copy, reply.reply_to))


def _set_password(state: MailState, command: cv.SetPassword) -> None:
    """The acting seat's password becomes the new one (kept hashed); it is never echoed."""
    seat = _acting_seat(state, command)
    if seat is None:
        return
    try:
        seat.password_hash = new_password_hash(state, command.password)
    except ValueError:
        state.problems.append(f"line {command.line_no}: a password may not be empty")
        return
    game = seat.game
    by_gm = state.became == seat.id
    context = {
        "game": game.name,
        "power": power_title(seat.game, seat.power),
        "reply_address": "" if by_gm else reply_address(state, seat) or "",
        "by_gm": by_gm,
    }
    tell_seat(
        state,
        seat,
        Reply("password_changed", "password_changed", context, reply_to=reply_address(state, seat)),
    )
    holder = seat.person.address_of_record if seat.person is not None else None
    if by_gm and holder:
        # The player learns that the GM reset the seat's password (not the password itself).
        state.replies.append(
            Reply(
                "password_changed",
                "password_changed",
                {**context, "reply_address": seat_reply_address(state.where.judge_address, seat)},
                holder,
                seat_reply_address(state.where.judge_address, seat),
            )
        )


# --- SET ADDRESS -------------------------------------------------------------------------------
def _address_problem(state: MailState, address: str, holder: Person) -> str | None:
    """Why `address` cannot be the holder's (or None)."""
    bare = normalise_address(address)
    local, at, domain = bare.rpartition("@")
    if not at or not local or not domain or "." not in domain.strip(".") or " " in bare:
        return f"{address} is not a mail address"
    if len(bare) > ADDRESS_LENGTH:
        return f"an address has at most {ADDRESS_LENGTH} characters"
    judge = normalise_address(state.where.judge_address)
    judge_local, _, judge_domain = judge.rpartition("@")
    if domain.lower() == judge_domain.lower() and local.split("+", 1)[0] == judge_local:
        return f"{bare} is the judge's own address"
    other = find_person_by_address(state.session, bare)
    if other is not None and other.id != holder.id:
        return (
            f"{bare} is on record for another person of this judge; an address names one "
            "person only, so ask from that address to leave it, or choose another"
        )
    return None


def _set_name(state: MailState, command: cv.SetName) -> None:
    """SET NAME name: the name the games show for the player (or, signed on as GM, the GM)."""
    where = f"line {command.line_no}: {command.redacted()}"
    seat = state.acting
    game = master_game(state) if seat is None else None
    if seat is None and game is None:
        _acting_seat(state, command)  # the reason no seat is named
        return
    if seat is not None and not _players_own(state, command, seat):
        return
    name = command.name
    if len(name) > PERSON_NAME_LENGTH:
        state.problems.append(
            f"line {command.line_no}: SET NAME not taken: a name has at most "
            f"{PERSON_NAME_LENGTH} characters"
        )
        return
    if "@" in name or not name.isprintable():
        state.problems.append(
            f"{where} not taken: a name is shown to everyone in the game, so it may hold no "
            "mail address (and no control characters)"
        )
        return
    person = seat.person if seat is not None else (game.gm if game is not None else None)
    if person is None:
        _acting_seat(state, command)
        return
    old = person.name
    person.name = name
    shown = seat.game if seat is not None else game
    assert shown is not None
    context = {
        "game": shown.name,
        "power": power_title(shown, seat.power) if seat is not None else "",
        "new_name": name,
        "old_name": old or "",
    }
    reply_to = (
        reply_address(state, seat)
        if seat is not None
        else gm_reply_address(state.where.judge_address, shown)
    )
    state.replies.append(Reply("name_set", "name_set", context, reply_to=reply_to))


def _set_address(state: MailState, command: cv.SetAddress) -> None:
    """The seat holder's address of record becomes the address given (the sender's, when none
    is), told to the old address and the new one."""
    where = f"line {command.line_no}"
    seat = _acting_seat(state, command)
    if seat is None or not _players_own(state, command, seat):
        return
    holder = seat.person
    assert holder is not None  # an acting seat is held
    written = list(command.addresses) or [state.sender]
    problems = [p for p in (_address_problem(state, a, holder) for a in written) if p]
    if problems:
        state.problems.append(f"{where}: SET ADDRESS not taken: {'; '.join(problems)}")
        return
    old = holder.address_of_record
    addresses = list(dict.fromkeys(normalise_address(a) for a in written))
    for address in addresses:
        add_address(state.session, holder, address)
    new = addresses[0]
    for row in holder.addresses:
        row.is_primary = row.address == new
    state.session.flush()
    context = {
        "game": seat.game.name,
        "power": power_title(seat.game, seat.power),
        "old_address": old or "",
        "new_address": new,
        "also": addresses[1:],
        "changed": old != new,
    }
    reply_to = reply_address(state, seat)
    sender = normalise_address(state.sender)
    state.replies.append(Reply("address_changed", "address_changed", context, reply_to=reply_to))
    told = {sender}
    for address in (old, new):
        if address and address not in told:
            told.add(address)
            state.replies.append(
                Reply("address_changed", "address_changed", context, address, reply_to)
            )


# --- SET DRAW / NODRAW, SET CONCEDE / NOCONCEDE --------------------------------------------------
def _resign(state: MailState, command: cv.Resign) -> None:
    """The holder gives the seat up, by the game's missed-turn policy; the game is told a
    replacement is sought."""
    where = f"line {command.line_no}"
    seat = _acting_seat(state, command)
    if seat is None or not _players_own(state, command, seat):
        return
    game = seat.game
    lock_game(state, game)
    if game.status in OVER:
        state.problems.append(f"{where}: RESIGN not taken: game {game.name} is over")
        return
    holder = seat.person
    assert holder is not None  # an acting seat is held
    player = holder.address_of_record
    power = power_title(seat.game, seat.power)
    reply_to = reply_address(state, seat)
    copies = state.copies.get(seat.id, ())
    context = {
        "game": game.name,
        "power": power,
        "phase": game.phase or "",
        "forming": game.status == GameStatus.FORMING,
        "policy": "postal",
        "taken_over": False,
    }
    events: tuple[object, ...] = ()
    if game.status == GameStatus.FORMING:
        vacate_seat(state.session, seat, SeatStatus.OPEN)
    else:
        policy = missed_turn_policy(game)
        record = SeatRecord(
            power=seat.power,
            player=player,
            status=SeatStatus(seat.status),
            missed=seat.missed_turns,
            replacement_sought=seat.replacement_sought,
            standby=seat.standby.address_of_record if seat.standby is not None else None,
        )
        try:
            transition = resign(policy, record)
        except SeatRefused as exc:
            state.problems.append(f"{where}: RESIGN not taken: {exc}")
            return
        events = transition.events
        context["policy"] = "postal" if isinstance(policy, PostalPolicy) else "njudge"
        clear_orders(state.session, game, seat.power)
        seat.orders_state = OrdersState.NONE
        seat.orders_changed_at = None
        if any(isinstance(event, TakenOver) for event in events) and seat.standby is not None:
            _hand_to_standby(state, seat)
            context["taken_over"] = True
        else:
            vacate_seat(state.session, seat, transition.record.status)
            seat.replacement_sought = transition.record.replacement_sought
            seat.missed_turns = transition.record.missed
    if state.acting is seat:
        state.acting = None
        state.refusal = f"{power} was resigned at {where} of this mail"
    resigned = Reply("resigned", "resigned", context, reply_to=reply_to)
    state.replies.append(resigned)
    state.replies.extend(
        Reply(resigned.kind, resigned.template, context, copy, reply_to) for copy in copies
    )
    reasons = [event.reason for event in events if isinstance(event, TellGM)]
    for reader in game_readers(state.session, game, state.where.judge_address):
        if reader.power == seat.power or reader.address == player:
            continue
        if game.status == GameStatus.FORMING and not reader.master:
            continue  # before the start only the GM need know
        told = {
            **context,
            "master": reader.master,
            "player": player if reader.master else "",
            "reason": "; ".join(reasons) if reader.master else "",
        }
        state.replies.append(
            Reply("seat_resigned", "seat_resigned", told, reader.address, reader.reply_to)
        )


def _hand_to_standby(state: MailState, seat: Seat) -> None:
    """Postal: the volunteer standing by takes the seat at once. They get a new reply address
    (told in their mail) and a password nobody knows, to replace with SET PASSWORD."""
    standby = seat.standby
    assert standby is not None
    sign_on(state.session, seat, standby, secrets.token_urlsafe(18))
    address = standby.address_of_record
    if address:
        state.replies.append(
            Reply(
                "standby_takes_seat",
                "standby_takes_seat",
                {
                    "game": seat.game.name,
                    "power": power_title(seat.game, seat.power),
                    "phase": seat.game.phase or "",
                    "reply_address": reply_address(state, seat) or "",
                    "board": seat_knowledge(seat.game, seat.power),
                },
                address,
                reply_address(state, seat),
            )
        )


HANDLERS = {
    cv.SetPassword: _set_password,
    cv.SetAddress: _set_address,
    cv.SetName: _set_name,
    cv.Resign: _resign,
}
