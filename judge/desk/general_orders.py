"""General orders (seed 004, I.C): standing orders a player files for a period, with conditions
on the position, played when the player sends nothing. Not built yet: nobody can file them, so
no power has any."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy.orm import Session

from judge.store.games import Game


def standing_orders(
    session: Session, game: Game, sent: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """The order texts each power that sent nothing (not in `sent`) plays from its general
    orders this phase."""
    return {}
