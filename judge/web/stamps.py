"""The one read a page request costs: a statement whose answer changes whenever anything the
page shows may have changed (a stamp). A page is built again only when its stamp differs
from the one it was built under; otherwise the page kept in memory is sent as it is.

The statements are plain SQL, written once (the same on SQLite and PostgreSQL), so the cheap
path of a request spends its time in the database and not in building a query.

What no stamp sees: a player's SET NAME changes only the person's row, so the names on the
list and a game's page follow within `Site.names_seconds` (the kept page's age limit) instead.
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, text

from judge.desk.game_settings import REPORT, shown_on_web
from judge.store.game_queries import game_key

# Who holds a game's seats: a sign-on, a seat given up or handed over changes one of these.
_SEATS = """
  (SELECT count(s.person_id) FROM seats s WHERE s.game_id = g.id),
  (SELECT sum(s.person_id) FROM seats s WHERE s.game_id = g.id),
  (SELECT max(s.signed_on_at) FROM seats s WHERE s.game_id = g.id)"""

# A game's own pages (the board, the press, the feed): its row (phase, deadline, status,
# settings and position all move `updated_at`; the settings are read whole, as SET WEB and
# SET REPORT may land within one clock tick), its last phase kept, the press out, the seats.
GAME = text(
    f"""SELECT g.id, g.settings, g.updated_at, g.status, g.phase, g.deadline,
  (SELECT max(p.id) FROM phases p WHERE p.game_id = g.id),
  (SELECT count(p.id) FROM phases p WHERE p.game_id = g.id),
  (SELECT count(r.id) FROM press r WHERE r.game_id = g.id AND r.published_at IS NOT NULL),
  (SELECT max(r.published_at) FROM press r WHERE r.game_id = g.id),{_SEATS}
FROM games g WHERE lower(g.name) = :key"""
)

# One processed phase: the game's settings and the id of the phase's record.
PHASE = text(
    """SELECT g.settings,
  (SELECT p.id FROM phases p WHERE p.game_id = g.id AND p.phase = :phase)
FROM games g WHERE lower(g.name) = :key"""
)

# The list: each game's row as the list shows it, with its phases and seats.
LIST = text(
    f"""SELECT g.id, g.settings, g.updated_at, g.status, g.phase, g.deadline,
  (SELECT max(p.id) FROM phases p WHERE p.game_id = g.id),{_SEATS}
FROM games g ORDER BY g.id"""
)


@dataclass(frozen=True)
class GameStamp:
    """A game as one read finds it: whether its pages are shown, and what changes them."""

    shown: bool
    stamp: Hashable


def _settings(value: Any) -> dict[str, Any]:
    """A settings column as read by plain SQL: JSON text on SQLite, a document on PostgreSQL."""
    if isinstance(value, str):
        value = json.loads(value)
    return value if isinstance(value, dict) else {}


def game_stamp(connection: Connection, name: str) -> GameStamp | None:
    """The stamp of a game's own pages, None for no such game."""
    row = connection.execute(GAME, {"key": game_key(name)}).first()
    if row is None:
        return None
    return GameStamp(shown_on_web(_settings(row[1])), tuple(map(_plain, row)))


def phase_stamp(
    connection: Connection, name: str, phase: str
) -> tuple[GameStamp, int | None] | None:
    """A game and the id of its stored record of `phase` (None: not processed, or no such
    phase). A record is never changed, only deleted by a ROLLBACK and written anew under a new
    id, so the id and the game's report style are all a phase's page depends on."""
    row = connection.execute(PHASE, {"key": game_key(name), "phase": phase.upper()}).first()
    if row is None:
        return None
    settings = _settings(row[0])
    stamp = (row[1], str(settings.get(REPORT, "")))
    return GameStamp(shown_on_web(settings), stamp), row[1]


def list_stamp(connection: Connection) -> Hashable:
    """The stamp of the list of games."""
    return tuple(tuple(map(_plain, row)) for row in connection.execute(LIST))


def _plain(value: Any) -> Hashable:
    """A column's value as something hashable (a settings document as its JSON text)."""
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return value  # type: ignore[no-any-return]
