"""PRESS and BROADCAST, and the GM's press settings (SET PRESS, PARTIAL, OBSERVER).
Not built yet: each is answered "not handled by this judge yet"."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from judge.store.games import Game

if TYPE_CHECKING:
    from judge.desk.commands import Reply

HANDLERS: dict[type, Callable[[Any, Any], None]] = {}


def press_with_results(session: Session, game: Game, judge_address: str) -> list[Reply]:
    """The press releases kept for the results (SET PUBLISH RESULTS), as mails to their readers."""
    return []
