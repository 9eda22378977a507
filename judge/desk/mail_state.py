"""What one mail has done so far at the games desk, and the lookups every command needs:
the sender as a person, a game by name, a power by the word written, a seat's reply address,
the game the mail may act for as GM, and the readers a game's announcements go to.

The GM of a game is proven like a player: by `SIGNON MASTER game password` (also GM, and M when
no power of the game's map is lettered M, so a variant with such a power keeps its letter) on a
line before the GM's commands, or by writing to the game's GM reply address
(judge+TOKEN@domain, the Reply-To of every mail the judge sends the GM about the game). A From:
line alone never makes anyone the GM.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.desk.replies import Reply, Where
from judge.engine.geography import Map
from judge.identity import (
    SeatCredentials,
    reply_to_address,
    token_from_recipients,
)
from judge.mail.mime import ReadMail
from judge.store.game_queries import (
    create_person,
    find_game,
    find_person_by_address,
    game_for_gm_token,
    observers_of,
    players_of,
)
from judge.store.games import Game, GameStatus, Person, Seat
from judge.variants import power_title as variant_power_title


@dataclass
class MailState:
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
    # The seat the GM acts for after BECOME (its id), so replies about it carry the GM's reply
    # address rather than the player's.
    became: int | None = None
    # Whether the mail's recipient was looked at for a GM reply token yet (looked up once).
    gm_token_checked: bool = False
    # Wrong passwords this mail gave so far: past MAX_PASSWORD_FAILURES the rest are not checked,
    # so one mail of many guesses costs a few hashes, not one each.
    password_failures: int = 0
    # Seat id -> what the variant's order reader carries from one line of the mail to the next
    # (Mercator: the time scale a heading opened).
    reading: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def session(self) -> Session:
        return self.where.session

    @property
    def sender(self) -> str:
        assert self.mail.sender is not None
        return self.mail.sender


def seat_credentials(seat: Seat) -> SeatCredentials:
    """The seat's credentials with the power spelled for people, as authenticate's reasons quote it."""
    return replace(seat.credentials(), power=power_title(seat.game, seat.power))


def power_title(game: Game, power: str) -> str:
    """`power` as the sentences about `game` write it, asked of its variant (England for
    ENGLAND; Algernon's initials as the maze writes them, TAG)."""
    return variant_power_title(game.variant, power)


def seats_held_by(session: Session, address: str) -> list[Seat]:
    """The seats in running or paused games held by the person with this address on record
    (so a forged From: line to a paused game is refused with the reason too)."""
    person = find_person_by_address(session, address)
    if person is None:
        return []
    return list(
        session.scalars(
            select(Seat)
            .join(Game)
            .where(
                Seat.person_id == person.id,
                Game.status.in_((GameStatus.ACTIVE, GameStatus.PAUSED)),
            )
            .order_by(Seat.id)
        )
    )


def sender_person(state: MailState) -> Person:
    """The sender as a person on record, created at first contact."""
    person = find_person_by_address(state.session, state.sender)
    if person is None:
        name = (state.mail.sender_name or "")[:200] or None  # the column holds 200 characters
        person = create_person(state.session, state.sender, name)
    return person


def game_named(state: MailState, name: str, line_no: int) -> Game | None:
    game = find_game(state.session, name, lock=True)
    if game is None:
        state.problems.append(f"line {line_no}: there is no game named {name}")
    return game


def power_named(game_map: Map, written: str) -> str | None:
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


def reply_address(state: MailState, seat: Seat) -> str | None:
    """The Reply-To of a mail about the seat: the GM's reply address when the GM acts for it
    (BECOME), else the seat's own, None for a seat nobody holds."""
    if state.became == seat.id:
        return gm_reply_address(state.where.judge_address, seat.game)
    if seat.reply_token is None:
        return None
    return seat_reply_address(state.where.judge_address, seat)


def gm_reply_address(judge_address: str, game: Game) -> str | None:
    """The GM's reply address for the game (judge+TOKEN@domain): mail to it acts as its GM."""
    if game.gm_token is None:
        return None
    return reply_to_address(judge_address, game.gm_token)


MASTER_WORDS = ("MASTER", "GM")


def is_master_word(word: str, game_map: Map) -> bool:
    """Whether a SIGNON's power word names the GM: MASTER and GM always, M unless a power of
    the game's map has the letter M (then M is that power, as njudge's letters go)."""
    written = word.strip().upper()
    if written in MASTER_WORDS:
        return True
    if written != "M":
        return False
    return not any(power.letter.upper() == "M" for power in game_map.powers.values())


def master_game(state: MailState) -> Game | None:
    """The game this mail may act for as GM: the one proven by SIGNON MASTER earlier in the
    mail, else the one whose GM reply address the mail was sent to (its row locked)."""
    if state.gm_game is not None or state.gm_token_checked:
        return state.gm_game
    state.gm_token_checked = True
    token = token_from_recipients(
        [state.where.envelope_to, state.mail.headers.get("delivered-to")],
        state.where.judge_address,
    )
    if token is None:
        return None
    game = game_for_gm_token(state.session, token)
    if game is not None:
        state.gm_game = find_game(state.session, game.name, lock=True)
    return state.gm_game


def gm_required(state: MailState, command: Any) -> Game | None:
    """The game a GM command acts on, or None with the reason added to the mail's problems."""
    game = master_game(state)
    if game is None:
        state.problems.append(
            f"line {command.line_no}: {command.keyword} is the GM's: put SIGNON M game "
            "password (the GM password given at CREATE; SIGNON MASTER where a power of the "
            "game's map has the letter M) on a line before it, or send it to the GM reply "
            "address the judge's mails to you about the game carry"
        )
    return game


@dataclass(frozen=True)
class Reader:
    """One address a game's announcement goes to, and the Reply-To its mail carries."""

    address: str
    reply_to: str | None
    power: str | None = None  # the power the reader plays, if any
    master: bool = False


def game_readers(session: Session, game: Game, judge_address: str) -> list[Reader]:
    """Everyone a game's announcements go to, each address once: the players (with their
    seat's reply address), the GM (with the GM's), then the observers not already named, so a
    GM or player who also observes is not told twice."""
    readers: list[Reader] = []
    seen: set[str] = set()
    for seat in players_of(session, game):
        address = seat.person.address_of_record if seat.person is not None else None
        if address and address not in seen:
            seen.add(address)
            readers.append(
                Reader(address, seat_reply_address(judge_address, seat), power=seat.power)
            )
    gm = game.gm.address_of_record if game.gm is not None else None
    if gm and gm not in seen:
        seen.add(gm)
        readers.append(Reader(gm, gm_reply_address(judge_address, game), master=True))
    for person in observers_of(session, game):
        address = person.address_of_record
        if address and address not in seen:
            seen.add(address)
            readers.append(Reader(address, None))
    return readers


def seat_reply_address(judge_address: str, seat: Seat) -> str:
    """The seat's reply address (judge+TOKEN@domain): mail to it acts for the seat."""
    assert seat.reply_token is not None
    return reply_to_address(judge_address, seat.reply_token)


def province_words(game_map: Map) -> list[str]:
    words: list[str] = []
    for code, province in game_map.provinces.items():
        words.extend((code, province.name, *province.aliases))
    return words


def lock_game(state: MailState, game: Game) -> None:
    """Hold the game's row (read fresh) for the rest of the mail, so orders, votes or a
    resignation never land in a phase the scheduler is processing at the same moment."""
    if game.id in state.locked:
        return
    state.session.execute(
        select(Game)
        .where(Game.id == game.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    state.locked.add(game.id)
