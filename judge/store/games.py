"""Tables of games by mail: persons and their addresses, games, seats, orders, history and press.

They share `Base` with the mail tables, so one metadata and one alembic chain cover the whole
store. Positions, orders and results are kept as JSON in the format of docs/ADJUDICATE.md, so the
engine's input and output go in and out unchanged. JSON columns are not watched for changes made
in place: assign a new value (`game.settings = {**game.settings, "press": "white"}`). Where a JSON
column may be empty, None is stored as SQL NULL, so `column.is_(None)` finds it.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from judge.clock import now
from judge.games.seats import OrdersState, SeatStatus
from judge.identity import SeatCredentials
from judge.store.models import Base, UTCDateTime

# Longest game name, power name, phase name and unit key the store accepts.
GAME_NAME_LENGTH = 64
POWER_LENGTH = 32
PHASE_LENGTH = 16
UNIT_LENGTH = 32
ADDRESS_LENGTH = 320
PERSON_NAME_LENGTH = 200


def new_seed() -> int:
    """A random seed for a game's random choices, positive and within a signed 64-bit column."""
    return secrets.randbits(62)


class GameStatus(StrEnum):
    """Where a game stands: taking players, running, stopped by its GM, over, or called off."""

    FORMING = "forming"
    ACTIVE = "active"
    PAUSED = "paused"
    FINISHED = "finished"
    TERMINATED = "terminated"


class Person(Base):
    """Someone the judge knows, by the addresses on record for them."""

    __tablename__ = "persons"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(PERSON_NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    addresses: Mapped[list[PersonAddress]] = relationship(
        back_populates="person", order_by="PersonAddress.id"
    )

    @property
    def address_of_record(self) -> str | None:
        """The address the person first gave (mail about their seats goes there)."""
        primary = [a.address for a in self.addresses if a.is_primary]
        if primary:
            return primary[0]
        return self.addresses[0].address if self.addresses else None


class PersonAddress(Base):
    """One address of a person, stored with its domain in lower case (judge.identity)."""

    __tablename__ = "person_addresses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), index=True)
    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), unique=True)
    is_primary: Mapped[bool] = mapped_column(Boolean, default=False)
    added_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    person: Mapped[Person] = relationship(back_populates="addresses")


class Game(Base):
    """One game: its map and rules, where it stands, its board, and its settings."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(GAME_NAME_LENGTH), unique=True)
    variant: Mapped[str] = mapped_column(String(64), default="standard")
    rules: Mapped[list[str]] = mapped_column(JSON, default=list)
    status: Mapped[str] = mapped_column(String(16), default=GameStatus.FORMING)
    phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH))
    # The board in the adjudicate format: variant, phase, units, centers, dislodged, contested.
    position: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, index=True)
    # When the current phase began (deadlines count from it) and when the scheduler last
    # looked at the game (reminders falling after it are still to send).
    phase_started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    checked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    seed: Mapped[int] = mapped_column(BigInteger, default=new_seed)
    gm_person_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))
    # The GM's reply token: mail to judge+TOKEN@domain acts as the game's master, as a seat's
    # token acts for its power (Reply-To of every mail the judge sends the GM about the game).
    gm_token: Mapped[str | None] = mapped_column(String(32), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now, onupdate=now)

    gm: Mapped[Person | None] = relationship()
    seats: Mapped[list[Seat]] = relationship(back_populates="game", order_by="Seat.power")


# Judges have always treated game names without regard to case: a name is stored as its creator
# wrote it (Rm1 is printed Rm1), and is unique, and found, in lower case (migration 0007).
Index("uq_games_name_lower", func.lower(Game.name), unique=True)


class Seat(Base):
    """One power in one game: who holds it, how they prove it, and how they have kept it."""

    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    person_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"), index=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    reply_token: Mapped[str | None] = mapped_column(String(32), unique=True)
    status: Mapped[str] = mapped_column(String(16), default=SeatStatus.OPEN)
    wait: Mapped[bool] = mapped_column(Boolean, default=False)
    # None: no vote; otherwise the powers of the draw this seat accepts.
    draw_vote: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))
    # The power this seat concedes to, if any.
    concession: Mapped[str | None] = mapped_column(String(POWER_LENGTH))
    missed_turns: Mapped[int] = mapped_column(Integer, default=0)
    # Granted absences, days in the game's zone: [{"first": "2026-12-01", "last": "2026-12-08"}].
    absences: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
    signed_on_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # This phase's orders as the desk judged them when they arrived (none, partial, complete),
    # and when they last changed: the scheduler decides on early processing from these alone.
    orders_state: Mapped[str] = mapped_column(String(16), default=OrdersState.NONE)
    orders_changed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # Postal missed-turn rule: a replacement is being sought, and who stands by to take over.
    replacement_sought: Mapped[bool] = mapped_column(Boolean, default=False)
    standby_person_id: Mapped[int | None] = mapped_column(ForeignKey("persons.id"))

    game: Mapped[Game] = relationship(back_populates="seats")
    person: Mapped[Person | None] = relationship(foreign_keys=[person_id])
    standby: Mapped[Person | None] = relationship(foreign_keys=[standby_person_id])

    __table_args__ = (UniqueConstraint("game_id", "power", name="uq_seats_game_power"),)

    def credentials(self) -> SeatCredentials:
        """What judge.identity.authenticate needs to decide whether a mail acts for this seat."""
        addresses: tuple[str, ...] = ()
        if self.person is not None:
            record = self.person.address_of_record
            others = [a.address for a in self.person.addresses if a.address != record]
            addresses = (record, *others) if record else tuple(others)
        return SeatCredentials(
            game=self.game.name,
            power=self.power,
            password_hash=self.password_hash,
            reply_token=self.reply_token,
            addresses=addresses,
        )


class Observer(Base):
    """A person who follows a game's broadcasts without a power.

    Observing is asked for, not imposed: OBSERVE makes a row with `confirm_token` and no
    `confirmed_at`, and only a mail to the judge+TOKEN address mailed to the person confirms it,
    so a forged From: cannot make anyone an observer. Unconfirmed rows receive nothing."""

    __tablename__ = "observers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    confirm_token: Mapped[str | None] = mapped_column(String(16), unique=True, nullable=True)
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    person: Mapped[Person] = relationship()

    __table_args__ = (UniqueConstraint("game_id", "person_id", name="uq_observers_game_person"),)


class CurrentOrder(Base):
    """The standing order of one unit for the phase being played; a newer one replaces it.

    `unit` is the key of what is ordered: the province the unit stands in (map code, lower case,
    no coast), or for adjustments the place built on or a key the desk chooses for waives.
    """

    __tablename__ = "current_orders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(PHASE_LENGTH))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    unit: Mapped[str] = mapped_column(String(UNIT_LENGTH))
    text: Mapped[str] = mapped_column(Text)
    written_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    inbox_id: Mapped[int | None] = mapped_column(ForeignKey("inbox.id"))

    __table_args__ = (
        UniqueConstraint("game_id", "phase", "power", "unit", name="uq_current_orders_unit"),
    )


class GeneralOrder(Base):
    """A standing (general) order a power leaves for later phases, with the phases it holds for."""

    __tablename__ = "general_orders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(POWER_LENGTH))
    text: Mapped[str] = mapped_column(Text)
    valid_from: Mapped[str | None] = mapped_column(String(PHASE_LENGTH))
    valid_to: Mapped[str | None] = mapped_column(String(PHASE_LENGTH))
    conditions: Mapped[str | None] = mapped_column(Text)
    written_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    inbox_id: Mapped[int | None] = mapped_column(ForeignKey("inbox.id"))

    __table_args__ = (Index("ix_general_orders_game_power", "game_id", "power"),)


class PhaseRecord(Base):
    """One processed phase: the board before it, every order given and every result.

    The rows of a game, in order, are its history (HISTORY, SUMMARY, export); the board after the
    last one is the game's current position.
    """

    __tablename__ = "phases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(PHASE_LENGTH))
    position_before: Mapped[dict[str, Any]] = mapped_column(JSON)
    orders: Mapped[dict[str, Any]] = mapped_column(JSON)
    results: Mapped[dict[str, Any]] = mapped_column(JSON)
    processed_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    # Each seat as it stood before the phase was settled and processed (game_queries.
    # seat_snapshot), for ROLLBACK; None for phases recorded before it was kept or imported.
    seats_before: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))

    __table_args__ = (UniqueConstraint("game_id", "phase", name="uq_phases_game_phase"),)


class LedgerEntry(Base):
    """One movement of a game's money (a variant that keeps a ledger: Mercenary), so the money
    can be audited and replayed: the payer and payee (a power, or BANK), whole pounds of one
    currency, why, and the phase it belongs to. `phase_record_id` is the processed phase that
    paid it; None for the opening balances and the GM's changes (LEDGER), made during `phase`.
    The rows of a game in id order replay its money from nothing.
    """

    __tablename__ = "ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase: Mapped[str] = mapped_column(String(PHASE_LENGTH))
    phase_record_id: Mapped[int | None] = mapped_column(
        ForeignKey("phases.id", ondelete="CASCADE"), nullable=True
    )
    payer: Mapped[str] = mapped_column(String(POWER_LENGTH))
    payee: Mapped[str] = mapped_column(String(POWER_LENGTH))
    currency: Mapped[str] = mapped_column(String(POWER_LENGTH))
    amount: Mapped[int] = mapped_column(Integer)
    why: Mapped[str] = mapped_column(Text)
    made_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)

    __table_args__ = (Index("ix_ledger_game_id", "game_id", "id"),)


class Press(Base):
    """One press message: who wrote it, as which power (or none), to whom, and whether it is out.

    `to_powers` None means everyone; otherwise power names, and the desk may add its own markers
    for the GM and the observers. A message held by the GM has `held` set and no `published_at`.
    """

    __tablename__ = "press"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    author_person_id: Mapped[int] = mapped_column(ForeignKey("persons.id"), index=True)
    from_power: Mapped[str | None] = mapped_column(String(POWER_LENGTH))
    to_powers: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))
    dateline: Mapped[str | None] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=now)
    published_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    held: Mapped[bool] = mapped_column(Boolean, default=False)
    # The game's phase when it was written (HISTORY files it there); None before migration 0005.
    phase: Mapped[str | None] = mapped_column(String(PHASE_LENGTH))

    author: Mapped[Person] = relationship()

    __table_args__ = (Index("ix_press_game_created", "game_id", "created_at"),)
