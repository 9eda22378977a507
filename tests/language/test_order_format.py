"""Orders written back: the full form players read, the short form that reads back the same."""

from __future__ import annotations

import pytest

from judge.engine.geography import Map
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Order, Retreat, Support, Waive
from judge.language.format import format_order, location_name
from judge.language.orders import parse_order

# One of every order kind, with and without a unit type, with coasts and convoys.
EVERY_KIND: list[Order] = [
    Hold("A", "ven"),
    Hold(None, "ven"),
    Hold("F", "bul/ec"),
    Move("A", "par", "bur"),
    Move(None, "par", "bur"),
    Move("A", "lon", "nwy", via_convoy=True),
    Move("F", "mao", "spa/nc"),
    Move("F", "stp/sc", "bot"),
    Support("A", "bur", "A", "par", "mar"),
    Support("A", "tyr", "A", "ven"),
    Support("F", "nwy", None, "nth"),
    Support(None, "tyr", None, "ven", "tri"),
    Convoy("F", "nth", "lon", "nwy"),
    Convoy(None, "nth", "lon", "nwy"),
    Retreat("A", "mun", "boh"),
    Retreat(None, "mun", "boh"),
    Disband("F", "nth"),
    Disband(None, "nth"),
    Build("F", "stp/nc"),
    Build("A", "par"),
    Build(None, "par"),
    Waive(),
]


@pytest.mark.parametrize("order", EVERY_KIND, ids=repr)
@pytest.mark.parametrize("style", ["short", "full"])
def test_written_orders_read_back_the_same(standard: Map, order: Order, style: str) -> None:
    assert parse_order(format_order(order, standard, style), standard) == order  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("order", "short", "full"),
    [
        (Move("A", "par", "bur"), "A PAR - BUR", "Army Paris -> Burgundy"),
        (
            Convoy("F", "nth", "lon", "nwy"),
            "F NTH C A LON - NWY",
            "Fleet North Sea convoys Army London -> Norway",
        ),
        (Build("F", "stp/nc"), "F STP/NC B", "Fleet St Petersburg (north coast) build"),
        (
            Move("A", "lon", "nwy", True),
            "A LON - NWY VIA CONVOY",
            "Army London -> Norway via convoy",
        ),
        (
            Support("A", "bur", "A", "par", "mar"),
            "A BUR S A PAR - MAR",
            "Army Burgundy supports Army Paris -> Marseilles",
        ),
        (Support("A", "tyr", "A", "ven"), "A TYR S A VEN", "Army Tyrolia supports Army Venice"),
        (Hold("A", "ven"), "A VEN H", "Army Venice holds"),
        (Retreat("A", "mun", "boh"), "A MUN R BOH", "Army Munich retreats to Bohemia"),
        (Disband("F", "nth"), "F NTH D", "Fleet North Sea disband"),
        (
            Move("F", "mao", "spa/sc"),
            "F MAO - SPA/SC",
            "Fleet Mid-Atlantic Ocean -> Spain (south coast)",
        ),
        (Waive(), "WAIVE", "waive"),
    ],
)
def test_the_two_styles(standard: Map, order: Order, short: str, full: str) -> None:
    assert format_order(order, standard, "short") == short
    assert format_order(order, standard) == full


def test_an_unknown_style_is_refused(standard: Map) -> None:
    with pytest.raises(ValueError, match="unknown order style"):
        format_order(Waive(), standard, "long")  # type: ignore[arg-type]


def test_location_names(standard: Map) -> None:
    assert location_name("stp/nc", standard) == "St Petersburg (north coast)"
    assert location_name("bul/ec", standard) == "Bulgaria (east coast)"
    assert location_name("lyo", standard) == "Gulf of Lyon"
