"""How a game ends other than by victory: a draw every surviving power voted for (SET DRAW) or a
concession every other power agreed to (SET CONCEDE). Not built yet: neither command is taken,
so no game ends so."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from judge.engine.results import PhaseResult
from judge.store.games import Game


@dataclass(frozen=True)
class Ending:
    """A game over without a victory: the powers in the draw, or the power conceded to."""

    draw: tuple[str, ...] = ()
    concession: str | None = None


def game_ending(session: Session, game: Game, result: PhaseResult) -> Ending | None:
    """The draw or concession the seats have agreed, as the phase just adjudicated ends; None
    while the game goes on."""
    return None
