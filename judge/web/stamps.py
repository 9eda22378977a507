"""The one read a page request costs: a statement whose answer changes whenever anything the
page shows may have changed (a stamp). A page is built again only when its stamp differs
from the one it was built under; otherwise the page kept in memory is sent as it is.

What no stamp sees: a player's SET NAME changes only the person's row, so the names on the
list and a game's page follow within `Site.names_seconds` (the kept page's age limit) instead.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.desk.game_settings import REPORT, shown_on_web
from judge.store.game_queries import game_key
from judge.store.games import Game, PhaseRecord, Press, Seat


@dataclass(frozen=True)
class GameStamp:
    """A game as one read finds it: whether its pages are shown, and what changes them."""

    shown: bool
    stamp: Hashable


def _seat_columns(game_id: Any) -> list[Any]:
    """Who holds the seats (a sign-on, a seat given up or handed over changes one of these)."""
    seats = Seat.__table__.c
    where = seats.game_id == game_id
    return [
        select(func.count(seats.person_id)).where(where).scalar_subquery(),
        select(func.sum(seats.person_id)).where(where).scalar_subquery(),
        select(func.max(seats.signed_on_at)).where(where).scalar_subquery(),
    ]


def game_stamp(session: Session, name: str) -> GameStamp | None:
    """The stamp of a game's own pages (the board, the press, the feed), None for no such game:
    its row (phase, deadline, status, settings, position all move `updated_at`), its last
    phase kept, the press out and the seats' holders."""
    games = Game.__table__.c
    phases = PhaseRecord.__table__.c
    press = Press.__table__.c
    query = select(
        games.id,
        games.settings,
        games.updated_at,
        select(func.max(phases.id)).where(phases.game_id == games.id).scalar_subquery(),
        select(func.count(phases.id)).where(phases.game_id == games.id).scalar_subquery(),
        select(func.count(press.id))
        .where(press.game_id == games.id, press.published_at.is_not(None))
        .scalar_subquery(),
        select(func.max(press.published_at)).where(press.game_id == games.id).scalar_subquery(),
        *_seat_columns(games.id),
    ).where(func.lower(games.name) == game_key(name))
    row = session.execute(query).first()
    if row is None:
        return None
    return GameStamp(shown_on_web(row[1]), tuple(_plain(value) for value in row))


def phase_stamp(session: Session, name: str, phase: str) -> tuple[GameStamp, int | None] | None:
    """A game and the id of its stored record of `phase` (None: not processed, or no such
    phase). A record is never changed, only deleted by a ROLLBACK and written anew under a new
    id, so the id and the game's report style are all a phase's page depends on."""
    games = Game.__table__.c
    phases = PhaseRecord.__table__.c
    query = select(
        games.settings,
        select(phases.id)
        .where(phases.game_id == games.id, phases.phase == phase.upper())
        .scalar_subquery(),
    ).where(func.lower(games.name) == game_key(name))
    row = session.execute(query).first()
    if row is None:
        return None
    settings = row[0] or {}
    stamp = (row[1], str(settings.get(REPORT, "")))
    return GameStamp(shown_on_web(settings), stamp), row[1]


def list_stamp(session: Session) -> Hashable:
    """The stamp of the list of games: each game's row as the list shows it (its settings too:
    SET WEB), the phases kept and the seats' holders, in one statement."""
    games = Game.__table__.c
    phases = PhaseRecord.__table__.c
    seats = Seat.__table__.c
    query = select(
        games.id,
        games.updated_at,
        games.status,
        games.phase,
        games.deadline,
        games.settings,
        select(func.max(phases.id)).scalar_subquery(),
        select(func.count(phases.id)).scalar_subquery(),
        select(func.count(seats.person_id)).scalar_subquery(),
        select(func.sum(seats.person_id)).scalar_subquery(),
        select(func.max(seats.signed_on_at)).scalar_subquery(),
    ).order_by(games.id)
    return tuple(tuple(_plain(value) for value in row) for row in session.execute(query))


def _plain(value: Any) -> Hashable:
    """A column's value as something hashable (a settings document as its sorted items)."""
    if isinstance(value, dict):
        return tuple(sorted((k, repr(v)) for k, v in value.items()))
    return value  # type: ignore[no-any-return]
