"""What each reader of a game whose board is secret (Algernon) is told of the game's notices.

Every notice the desk or the scheduler mails to someone other than the sender passes
`reader_view`, where it is written: the processor's desk (judge.desk.games) and the scheduler.
The GM reads every notice as written. A player or an observer reads a notice only in the form
`VIEWS` gives its kind; a kind not listed there names powers a reader may not have met, so it is
the GM's alone. The table is the audit of every notice kind (docs/VARIANTS.md, "Algernon, as
built"):

- written per reader, or naming no power: results, the start notice, press, pauses and
  resumptions, the end, setting changes, a reader's own password, address or removal,
  observing: as written;
- about one seat, for its holder (a reminder naming his units, his late notice, his replacement
  sought, his abandoned seat, the seat the GM or a stand-by hands him, the copy of his own
  answer sent to his address of record): to him alone, with any other late power taken out;
- about the game's progress (the phase waits for late orders, a deadline started again after a
  takeover, a start forced by the GM, a roll-back, the start told to observers): to everyone,
  with every power taken out but the reader's own;
- who took, left or lost which seat, missed turns, stand-bys: the GM's alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.desk.replies import Reply
from judge.desk.secret_boards import secret_board_of
from judge.identity import normalise_address
from judge.store.games import Game

# (the notice's context, the reader's power or None) -> the context the reader reads, or None.
View = Callable[[Mapping[str, Any], str | None], Mapping[str, Any] | None]


def _as_written(context: Mapping[str, Any], _own: str | None) -> Mapping[str, Any]:
    return context


def _is_own(context: Mapping[str, Any], own: str | None) -> bool:
    """Whether the notice is about the reader's own seat: it names his power, or was written
    for the seat's holder (`for_holder`: a seat he held until this notice, as an abandoned one)."""
    if context.get("for_holder"):
        return True
    return own is not None and str(context.get("power", "")).upper() == own


def _own_seat(*others: str) -> View:
    """A notice about one seat, to its holder alone, the lists of other powers in it emptied."""

    def view(context: Mapping[str, Any], own: str | None) -> Mapping[str, Any] | None:
        if not _is_own(context, own):
            return None
        return {**context, **{key: [] for key in others}}

    return view


def _only_own(*lists: str) -> View:
    """A notice about the game, to everyone, each list of powers kept to the reader's own."""

    def view(context: Mapping[str, Any], own: str | None) -> Mapping[str, Any]:
        def kept(names: Any) -> list[Any]:
            return [n for n in names or () if own is not None and str(n).upper() == own]

        return {**context, **{key: kept(context.get(key)) for key in lists}}

    return view


def _emptied(*lists: str) -> View:
    """A notice about the game, to everyone, with the lists naming powers emptied."""

    def view(context: Mapping[str, Any], _own: str | None) -> Mapping[str, Any]:
        return {**context, **{key: [] for key in lists}}

    return view


def _rolled_back(context: Mapping[str, Any], own: str | None) -> Mapping[str, Any]:
    """ROLLBACK: the phase and deadline to all; the seats and orders restored, the reader's own
    only. The mail to a holder whom it displaced is about his former seat, so it is his."""
    if context.get("displaced"):
        own = str(context["displaced"]).upper()
    view = _only_own("restored", "seats_restored")(context, own)
    assert view is not None
    return view


VIEWS: dict[str, View] = {
    # Written per reader, or naming no power but the reader's.
    **dict.fromkeys(
        (
            "results",
            "game_started",
            "press",
            "game_paused",
            "game_resumed",
            "game_terminated",
            "setting_notice",
            "press_settings",
            "password_changed",
            "address_changed",
            "removed_from_game",
            "observing",
            "unobserved",
            "game_stuck",  # to the GM and the judge's keeper, never to a player
        ),
        _as_written,
    ),
    # About one seat: its holder's.
    **dict.fromkeys(
        (
            "reminder",
            "seat_open",
            "seat_given",
            "standby_takes_seat",
            "seat_lost",
            "orders_read",
            "draw_vote",
            "concession_vote",
            "claim_made",
            "resigned",
        ),
        _own_seat(),
    ),
    "late": _own_seat("others"),
    # The phase's missed moves, one mail a reader: his own seat's alone, the others taken out.
    "replacement_sought": _own_seat("others"),
    # The game's progress, every power but the reader's taken out.
    "late_list": _only_own("late"),
    "deadline_restarted": _only_own("powers"),
    "game_forced": _emptied("civil_disorder"),
    "game_start_notice": _emptied("players"),
    "rolled_back": _rolled_back,
}


def reader_view(session: Session, notice: Reply) -> Reply | None:
    """The notice as its reader may read it (`VIEWS`), or None when it is not his to read; any
    notice of a game whose board is public, and every notice to the GM, as written."""
    if notice.to is None or notice.game is None:
        return notice
    game = session.scalars(select(Game).where(Game.name == notice.game)).first()
    if game is None or secret_board_of(game) is None:
        return notice
    reader = normalise_address(notice.to).lower()
    gm = game.gm.address_of_record if game.gm is not None else None
    if gm is not None and normalise_address(gm).lower() == reader:
        return notice
    view = VIEWS.get(notice.kind)
    if view is None:
        return None
    context = view(notice.context, _power_of(game, reader))
    if context is None:
        return None
    return notice if context is notice.context else replace(notice, context=dict(context))


def _power_of(game: Game, reader: str) -> str | None:
    """The power whose seat the address holds in the game, if any."""
    for seat in game.seats:
        address = seat.person.address_of_record if seat.person is not None else None
        if address and normalise_address(address).lower() == reader:
            return seat.power
    return None
