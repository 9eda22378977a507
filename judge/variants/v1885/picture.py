"""How 1885's own orders look on the picture (judge/pictures): boarding as the army's move onto
its fleet, disembarking as its move ashore, a contingent build as a build. Rome's choice of unit
draws nothing (the unit itself shows it). The engine's orders are drawn by judge/pictures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.position import Position
from judge.variants.v1885.orders import Board, ContingentBuild, Disembark, RetreatOnFile
from judge.variants.v1885.removals import unit_counts


def picture_order(order: Any) -> tuple[str, tuple[str, ...]] | None:
    """(kind of arrow, locations first to last) of one of 1885's own order values."""
    if isinstance(order, Board):
        return "move", (order.army_loc, order.fleet_loc)
    if isinstance(order, Disembark):
        return "move", (order.army_loc, order.dest)
    if isinstance(order, ContingentBuild):
        return "build", (order.loc,)
    if isinstance(order, RetreatOnFile):  # a retreat kept on file should the move dislodge it
        return "retreat", (order.loc, order.dest)
    return None


def legend_units(position: Position) -> Mapping[str, int]:
    """Each power's units as the picture's legend counts them: by the rules' count."""
    return unit_counts(position.units)
