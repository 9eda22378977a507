"""What one mail has done so far at the games desk, and the lookups every command needs:
the sender as a person, a game by name, a power by the word written, a seat's reply address."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.desk.commands import Reply, Where
from judge.engine.geography import Map
from judge.identity import (
    SeatCredentials,
    reply_to_address,
)
from judge.mail.mime import ReadMail
from judge.store.game_queries import (
    create_person,
    find_game,
    find_person_by_address,
)
from judge.store.games import Game, GameStatus, Person, Seat


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

    @property
    def session(self) -> Session:
        return self.where.session

    @property
    def sender(self) -> str:
        assert self.mail.sender is not None
        return self.mail.sender


def seat_credentials(seat: Seat) -> SeatCredentials:
    """The seat's credentials with the power spelled for people, as authenticate's reasons quote it."""
    return replace(seat.credentials(), power=seat.power.title())


def seats_held_by(session: Session, address: str) -> list[Seat]:
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
        state.problems.append(f"line {line_no}: there is no game named {name.lower()}")
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


def reply_address(state: MailState, seat: Seat) -> str:
    return seat_reply_address(state.where.judge_address, seat)


def seat_reply_address(judge_address: str, seat: Seat) -> str:
    """The seat's reply address (judge+TOKEN@domain): mail to it acts for the seat."""
    assert seat.reply_token is not None
    return reply_to_address(judge_address, seat.reply_token)


def province_words(game_map: Map) -> list[str]:
    words: list[str] = []
    for code, province in game_map.provinces.items():
        words.extend((code, province.name, *province.aliases))
    return words
