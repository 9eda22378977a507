"""The game store's small vocabulary for the desk: find, create and change games in one Session.

Each function is thin: it reads or writes rows inside the caller's transaction and never sends
mail or runs the engine, so one mail's changes and the mails they cause commit together.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session, selectinload

from judge.clock import now
from judge.identity import hash_password, new_reply_token, normalise_address
from judge.store.games import (
    CurrentOrder,
    Game,
    GameStatus,
    GeneralOrder,
    LedgerEntry,
    Observer,
    Person,
    PersonAddress,
    PhaseRecord,
    Press,
    Seat,
    SeatStatus,
)


class AddressTaken(ValueError):
    """The address is already on record for another person."""


def game_key(name: str) -> str:
    """The form game names are compared in: without surrounding spaces, in lower case (a game
    is stored as its creator wrote it, and found in any case)."""
    return name.strip().lower()


def _named(name: str) -> Any:
    """The condition that a game is called `name`, in any case (the index on lower(name))."""
    return func.lower(Game.name) == game_key(name)


def create_game(
    session: Session,
    name: str,
    *,
    variant: str = "standard",
    rules: Iterable[str] = (),
    powers: Iterable[str] = (),
    gm: Person | None = None,
    phase: str | None = None,
    position: dict[str, Any] | None = None,
    settings: dict[str, Any] | None = None,
    seed: int | None = None,
) -> Game:
    """A new forming game with an open seat per power; a name already taken fails on flush."""
    game = Game(
        name=name.strip(),
        variant=variant,
        rules=list(rules),
        status=GameStatus.FORMING,
        phase=phase,
        position=position,
        settings=dict(settings or {}),
        gm=gm,
        gm_token=_unused_token(session),
    )
    if seed is not None:
        game.seed = seed
    session.add(game)
    for power in powers:
        session.add(Seat(game=game, power=power, status=SeatStatus.OPEN, absences=[]))
    session.flush()
    return game


def find_game(session: Session, name: str, *, lock: bool = False) -> Game | None:
    """The game of that name (any case); with `lock`, its row is held until the transaction ends.

    Locking the game row serialises the processors that change one game on PostgreSQL, so two
    mails for the same game never interleave their reads and writes.
    """
    query = select(Game).where(_named(name))
    if lock:
        query = query.with_for_update()
    return session.scalars(query).first()


def seat_of(session: Session, game: Game, power: str) -> Seat | None:
    """The seat of `power` in `game` (power names as the map spells them)."""
    return session.scalars(select(Seat).where(Seat.game_id == game.id, Seat.power == power)).first()


def find_person_by_address(session: Session, address: str) -> Person | None:
    """The person with this address on record; the domain is compared without regard to case."""
    return session.scalars(
        select(Person)
        .join(PersonAddress)
        .where(PersonAddress.address == normalise_address(address))
    ).first()


def create_person(session: Session, address: str, name: str | None = None) -> Person:
    """A new person whose address of record is `address`."""
    person = Person(name=name)
    session.add(person)
    add_address(session, person, address)
    return person


def add_address(session: Session, person: Person, address: str) -> PersonAddress:
    """Put `address` on record for `person` (the first one becomes the address of record).

    Adding an address the person already has changes nothing; one on record for someone else
    raises AddressTaken, so an address always names exactly one person.
    """
    key = normalise_address(address)
    existing = session.scalars(select(PersonAddress).where(PersonAddress.address == key)).first()
    if existing is not None:
        if existing.person_id != person.id:
            raise AddressTaken(f"{key} is on record for someone else")
        return existing
    row = PersonAddress(person=person, address=key, is_primary=not person.addresses)
    session.add(row)
    session.flush()
    return row


def seat_for_token(session: Session, token: str) -> Seat | None:
    """The seat whose reply address carries `token`, with its game and holder loaded."""
    return session.scalars(
        select(Seat)
        .where(Seat.reply_token == token.strip().lower())
        .options(selectinload(Seat.game), selectinload(Seat.person).selectinload(Person.addresses))
    ).first()


def game_for_gm_token(session: Session, token: str) -> Game | None:
    """The game whose GM reply address carries `token` (mail to it acts as the game's master)."""
    return session.scalars(select(Game).where(Game.gm_token == token.strip().lower())).first()


def _unused_token(session: Session) -> str:
    """A reply token neither a seat nor a game's GM has: one token names one reader only."""
    # 80 random bits almost never collide; the unique columns are the guarantee, this the courtesy.
    while True:
        token = new_reply_token()
        if (
            session.scalars(select(Seat.id).where(Seat.reply_token == token)).first() is None
            and session.scalars(select(Game.id).where(Game.gm_token == token)).first() is None
            and session.scalars(select(Observer.id).where(Observer.confirm_token == token)).first()
            is None
        ):
            return token


def sign_on(
    session: Session, seat: Seat, person: Person, password: str, password_hash: str | None = None
) -> str:
    """Give `seat` to `person` with `password` (stored hashed) and return the seat's reply token.

    The holder keeps the token when signing on again; a new holder gets a new one, so the old
    holder's reply address stops acting for the seat, and starts with a clean record: no missed
    turns, votes, WAIT or absences of the one before. An empty password raises ValueError.
    `password_hash`, when given, is the password's hash made beforehand (outside the transaction).
    """
    if password_hash is None:
        password_hash = hash_password(password)
    new_holder = seat.person_id is None or seat.person_id != person.id
    if new_holder or seat.reply_token is None:
        seat.reply_token = _unused_token(session)
    if new_holder:
        seat.missed_turns = 0
        seat.wait = False
        seat.draw_vote = None
        seat.concession = None
        seat.absences = []
        seat.replacement_sought = False
        seat.standby = None
    seat.person = person
    seat.password_hash = password_hash
    seat.status = SeatStatus.PLAYING
    seat.signed_on_at = now()
    session.flush()
    return seat.reply_token


def vacate_seat(session: Session, seat: Seat, status: SeatStatus = SeatStatus.OPEN) -> None:
    """Take the seat from its holder (resigned, abandoned, eliminated ...).

    The password and reply token go with the holder, so nothing the old holder sends acts for
    the seat any more; the next holder signs on afresh.
    """
    seat.person = None
    seat.password_hash = None
    seat.reply_token = None
    seat.status = status
    seat.wait = False
    seat.draw_vote = None
    seat.concession = None
    session.flush()


def drop_phases_from(session: Session, game: Game, record: PhaseRecord) -> list[str]:
    """Delete `record` and every phase the game processed after it (ROLLBACK); return their
    names, oldest first. The ledger goes back with them: the payments those phases made, and
    the GM's changes made after `record`'s phase began (those made during it are in the board
    it starts from)."""
    later = [row for row in history(session, game) if row.id >= record.id]
    names = [row.phase for row in later]
    gone_phases = {*names[1:], *([game.phase] if game.phase else [])} - {record.phase}
    session.execute(
        delete(LedgerEntry).where(
            LedgerEntry.game_id == game.id,
            LedgerEntry.phase_record_id.in_([row.id for row in later])
            | (LedgerEntry.phase_record_id.is_(None) & LedgerEntry.phase.in_(gone_phases)),
        )
    )
    for row in later:
        session.delete(row)
    session.flush()
    return names


def add_ledger_entries(
    session: Session,
    game: Game,
    phase: str,
    payments: Iterable[dict[str, Any]],
    record: PhaseRecord | None = None,
) -> list[LedgerEntry]:
    """Write movements of the game's money (payment objects of docs/ADJUDICATE.md: from, to,
    currency, amount, why) into its ledger, in order; `record` is the processed phase that
    made them, None for the opening balances and the GM's changes."""
    rows = [
        LedgerEntry(
            game_id=game.id,
            phase=phase,
            phase_record_id=record.id if record is not None else None,
            payer=str(p["from"]),
            payee=str(p["to"]),
            currency=str(p["currency"]),
            amount=int(p["amount"]),
            why=str(p["why"]),
            made_at=now(),
        )
        for p in payments
    ]
    session.add_all(rows)
    session.flush()
    return rows


def ledger_of(session: Session, game: Game) -> list[LedgerEntry]:
    """The game's ledger, oldest first."""
    return list(
        session.scalars(
            select(LedgerEntry).where(LedgerEntry.game_id == game.id).order_by(LedgerEntry.id)
        )
    )


def clear_game_orders(session: Session, game: Game) -> int:
    """Drop the game's current orders of every phase (a rolled-back game starts its phase anew)."""
    result = session.execute(delete(CurrentOrder).where(CurrentOrder.game_id == game.id))
    return int(getattr(result, "rowcount", 0) or 0)


def set_order(
    session: Session,
    game: Game,
    power: str,
    unit: str,
    text: str,
    *,
    inbox_id: int | None = None,
) -> str | None:
    """Record the order for one unit in the game's current phase; return the text it replaced.

    The last order per unit wins until the phase is processed. `unit` is compared in lower case.
    """
    if game.phase is None:
        raise ValueError(f"game {game.name} has no phase to order for")
    key = unit.strip().lower()
    row = session.scalars(
        select(CurrentOrder).where(
            CurrentOrder.game_id == game.id,
            CurrentOrder.phase == game.phase,
            CurrentOrder.power == power,
            CurrentOrder.unit == key,
        )
    ).first()
    if row is None:
        session.add(
            CurrentOrder(
                game_id=game.id,
                phase=game.phase,
                power=power,
                unit=key,
                text=text,
                written_at=now(),
                inbox_id=inbox_id,
            )
        )
        session.flush()
        return None
    previous = row.text
    row.text = text
    row.written_at = now()
    row.inbox_id = inbox_id
    session.flush()
    return previous


def add_general_order(
    session: Session,
    game: Game,
    power: str,
    text: str,
    *,
    valid_from: str | None = None,
    valid_to: str | None = None,
    conditions: str | None = None,
    inbox_id: int | None = None,
) -> GeneralOrder:
    """File a standing order for `power`, for the phases from `valid_from` to `valid_to`."""
    row = GeneralOrder(
        game_id=game.id,
        power=power,
        text=text,
        valid_from=valid_from,
        valid_to=valid_to,
        conditions=conditions,
        written_at=now(),
        inbox_id=inbox_id,
    )
    session.add(row)
    session.flush()
    return row


def general_orders(session: Session, game: Game, power: str | None = None) -> list[GeneralOrder]:
    """The standing orders on file, oldest first; which apply to a phase is the desk's reading."""
    query = select(GeneralOrder).where(GeneralOrder.game_id == game.id)
    if power is not None:
        query = query.where(GeneralOrder.power == power)
    return list(session.scalars(query.order_by(GeneralOrder.id)))


def current_orders(session: Session, game: Game) -> dict[str, dict[str, str]]:
    """The orders standing for the game's current phase: power -> unit -> order text."""
    orders: dict[str, dict[str, str]] = {}
    if game.phase is None:
        return orders
    rows = session.scalars(
        select(CurrentOrder)
        .where(CurrentOrder.game_id == game.id, CurrentOrder.phase == game.phase)
        .order_by(CurrentOrder.power, CurrentOrder.unit)
    )
    for row in rows:
        orders.setdefault(row.power, {})[row.unit] = row.text
    return orders


def clear_orders(session: Session, game: Game, power: str | None = None) -> int:
    """Drop the current phase's orders (of one power, or all); return how many were dropped."""
    condition = (CurrentOrder.game_id == game.id) & (CurrentOrder.phase == game.phase)
    if power is not None:
        condition = condition & (CurrentOrder.power == power)
    result = session.execute(delete(CurrentOrder).where(condition))
    return int(getattr(result, "rowcount", 0) or 0)


# What settling and processing a phase may change on a seat: the missed-turn rule (missed
# turns, civil disorder, a replacement sought), a volunteer taking the seat or its abandonment
# (holder, password, reply token), the draw and concession votes an ending clears.
SEAT_PHASE_FIELDS = (
    "person_id",
    "password_hash",
    "reply_token",
    "signed_on_at",
    "status",
    "missed_turns",
    "replacement_sought",
    "standby_person_id",
    "draw_vote",
    "concession",
)


def seat_snapshot(game: Game) -> dict[str, Any]:
    """Each seat's SEAT_PHASE_FIELDS, as JSON, keyed by power."""
    return {seat.power: _phase_fields(seat) for seat in game.seats}


def _phase_fields(seat: Seat) -> dict[str, Any]:
    fields = {name: getattr(seat, name) for name in SEAT_PHASE_FIELDS}
    if fields["signed_on_at"] is not None:
        fields["signed_on_at"] = fields["signed_on_at"].isoformat()
    fields["status"] = str(fields["status"])
    return fields


def restore_seats(session: Session, game: Game, snapshot: dict[str, Any]) -> list[str]:
    """Put each seat back as `snapshot` has it; return the powers whose seat changed."""
    changed = []
    for seat in game.seats:
        kept = snapshot.get(seat.power)
        if kept is None or _phase_fields(seat) == kept:
            continue
        changed.append(seat)
        for name in SEAT_PHASE_FIELDS:
            value = kept.get(name)
            if name == "signed_on_at" and value is not None:
                value = datetime.fromisoformat(value)
            setattr(seat, name, value)
    session.flush()
    for seat in changed:
        session.refresh(seat, ["person", "standby"])  # the holders the restored ids name
    return [seat.power for seat in changed]


def record_phase(
    session: Session,
    game: Game,
    phase: str,
    position_before: dict[str, Any],
    orders: dict[str, Any],
    results: dict[str, Any],
    seats_before: dict[str, Any] | None = None,
) -> PhaseRecord:
    """Add one processed phase to the game's history (one row per phase; a repeat fails on flush)."""
    row = PhaseRecord(
        game_id=game.id,
        phase=phase,
        position_before=position_before,
        orders=orders,
        results=results,
        processed_at=now(),
        seats_before=seats_before,
    )
    session.add(row)
    session.flush()
    return row


def history(session: Session, game: Game) -> list[PhaseRecord]:
    """The game's processed phases, oldest first."""
    return list(
        session.scalars(
            select(PhaseRecord).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.id)
        )
    )


def published_press(session: Session, game: Game) -> list[Press]:
    """The game's press that is out (not held, not waiting for the results), oldest first."""
    return list(
        session.scalars(
            select(Press)
            .where(Press.game_id == game.id, Press.published_at.is_not(None))
            .order_by(Press.published_at, Press.id)
        )
    )


def add_press(
    session: Session,
    game: Game,
    author: Person,
    text: str,
    *,
    from_power: str | None = None,
    to_powers: Iterable[str] | None = None,
    dateline: str | None = None,
    held: bool = False,
) -> Press:
    """Store one press message; unless the GM holds it, it counts as published now."""
    row = Press(
        game_id=game.id,
        author=author,
        from_power=from_power,
        to_powers=None if to_powers is None else list(to_powers),
        dateline=dateline,
        text=text,
        created_at=now(),
        phase=game.phase,
        published_at=None if held else now(),
        held=held,
    )
    session.add(row)
    session.flush()
    return row


def ask_to_observe(session: Session, game: Game, person: Person) -> Observer:
    """Record that `person` asked to follow `game`: a row that receives nothing until the token
    mailed to the person comes back (`confirm_observer`). Asking again keeps the row and its
    token, so a second OBSERVE mails the same confirmation address."""
    existing = session.scalars(
        select(Observer).where(Observer.game_id == game.id, Observer.person_id == person.id)
    ).first()
    if existing is not None:
        if existing.confirmed_at is None and existing.confirm_token is None:
            existing.confirm_token = _unused_token(session)
        return existing
    row = Observer(
        game_id=game.id, person=person, created_at=now(), confirm_token=_unused_token(session)
    )
    session.add(row)
    session.flush()
    return row


def add_observer(session: Session, game: Game, person: Person) -> Observer:
    """Let `person` follow `game` at once (the GM's and the judge's own doing; a person asking by
    mail goes through `ask_to_observe`). A second call returns the existing row, confirmed."""
    row = ask_to_observe(session, game, person)
    if row.confirmed_at is None:
        row.confirmed_at = now()
        session.flush()
    return row


def observer_for_token(session: Session, token: str) -> Observer | None:
    """The observer row whose confirmation address carries `token`, game and person loaded."""
    return session.scalars(
        select(Observer)
        .where(Observer.confirm_token == token.strip().lower())
        .options(selectinload(Observer.person).selectinload(Person.addresses))
    ).first()


def confirm_observer(session: Session, row: Observer) -> bool:
    """Confirm an observer by the token mailed to them; whether it was unconfirmed until now."""
    if row.confirmed_at is not None:
        return False
    row.confirmed_at = now()
    # The token becomes the leave address: a second reply to the confirmation does nothing, and
    # only the address in the observer's own List-Unsubscribe header stops the observing.
    row.confirm_token = _unused_token(session)
    session.flush()
    return True


def observer_leave_token(session: Session, game_name: str, address: str) -> str | None:
    """The token of the leave address of the confirmed observer of `game_name` at `address`
    (the List-Unsubscribe of the game's mails to them), or None when the address observes not."""
    person = find_person_by_address(session, address)
    if person is None:
        return None
    return session.scalars(
        select(Observer.confirm_token)
        .join(Game, Game.id == Observer.game_id)
        .where(
            Observer.person_id == person.id,
            Observer.confirmed_at.is_not(None),
            _named(game_name),
        )
    ).first()


def remove_observer(session: Session, game: Game, person: Person) -> bool:
    """Stop `person` following `game` (confirmed or only asked); whether there was a row."""
    result = session.execute(
        delete(Observer).where(Observer.game_id == game.id, Observer.person_id == person.id)
    )
    return bool(getattr(result, "rowcount", 0))


def observers_of(session: Session, game: Game) -> list[Person]:
    """The people observing `game`, in the order they joined, with their addresses loaded."""
    return list(
        session.scalars(
            select(Person)
            .join(Observer, Observer.person_id == Person.id)
            .where(Observer.game_id == game.id, Observer.confirmed_at.is_not(None))
            .order_by(Observer.id)
            .options(selectinload(Person.addresses))
        )
    )


def players_of(session: Session, game: Game) -> list[Seat]:
    """The seats of `game` that someone holds, by power, with holders and addresses loaded."""
    return list(
        session.scalars(
            select(Seat)
            .where(Seat.game_id == game.id, Seat.person_id.is_not(None))
            .order_by(Seat.power)
            .options(selectinload(Seat.person).selectinload(Person.addresses))
        )
    )
