"""How Mercator's own orders look on the picture (judge/pictures): boarding and embarking as a
move of the army onto its fleet, landings, disembarkations, fast ferries and extended convoys
as the army's move to its destination, a supported landing as a support, a spare unit as a
build. The engine's orders and the time-scale wrapper are drawn by judge/pictures itself."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.position import Position
from judge.variants.mercator.adjustments import unit_counts
from judge.variants.mercator.orders import (
    Board,
    ChainConvoy,
    Disembark,
    Embark,
    FastFerry,
    Land,
    PlaceSpare,
    SupportLanding,
)


def picture_order(order: Any) -> tuple[str, tuple[str, ...]] | None:
    """(kind of arrow, locations first to last) of one of Mercator's own order values."""
    if isinstance(order, Board | Embark):
        return "move", (order.army_loc, order.fleet_loc)
    if isinstance(order, Land | Disembark):
        return "move", (order.army_loc, order.dest)
    if isinstance(order, FastFerry):
        return "move", (order.army_loc, order.fleet_loc, order.dest)
    if isinstance(order, ChainConvoy):
        return "move", (order.army_loc, *order.fleet_locs, order.dest)
    if isinstance(order, SupportLanding):
        return "support", (order.fleet_loc, order.army_loc, order.dest)
    if isinstance(order, PlaceSpare):
        return "build", (order.loc,)
    return None


def legend_units(position: Position) -> Mapping[str, int]:
    """Each power's units as the picture's legend counts them: by the rules' count."""
    return unit_counts(position.units, position.state)
