"""The values whose `__init__` is written out rather than made by `dataclass` (the engine's,
Mercator's, a picture's arrows: judge/engine/orders.py says why): each takes its fields in
order, by position or by name, with the dataclass's defaults, and still compares and hashes
by value."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from judge.adjudicate_json import Case
from judge.engine.calendar import Phase
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.resolve import MovementOutcome
from judge.engine.results import BANK, OrderResult, Payment, PhaseResult
from judge.engine.rules import rules_from_names
from judge.map_files import load_map
from judge.pictures.scene import Arrow
from judge.variants import variant
from judge.variants.mercator.month import _Boarding, _Landing
from judge.variants.mercator.orders import (
    Board,
    Disembark,
    Embark,
    FastFerry,
    Land,
    Scaled,
    SupportLanding,
)
from judge.variants.mercator.reading import LineReading

WRITTEN_OUT = [
    Hold,
    Move,
    Support,
    Convoy,
    Retreat,
    Disband,
    Build,
    OrderResult,
    Phase,
    Dislodged,
    MovementOutcome,
    PhaseResult,
    Case,
    # Mercator's, which a month makes by the hundred
    Board,
    Embark,
    Land,
    SupportLanding,
    Disembark,
    FastFerry,
    Scaled,
    LineReading,
    _Landing,
    _Boarding,
    # a picture's, one for each order of a phase (a scene's: tests/pictures/test_scene.py)
    Arrow,
]


# A value of each field's type unlike its default (the compiled classes check the types; the
# fields' declared types differ between the source and the compiled build, their names do not;
# CLASS.field where two classes give one name to fields of different types).
_SAMPLES: dict[str, Any] = {
    "via_convoy": True,
    "attacker_convoyed": True,
    "time_scale": 3,
    "year": 1905,
    "retreats": ("pic", "bur"),
    "unit": Unit("FRANCE", "A", "par"),
    "results": {"FRANCE": (OrderResult("success"),)},
    "units_after": (Unit("FRANCE", "A", "bur"),),
    "dislodged": (Dislodged(Unit("GERMANY", "A", "bur"), "par"),),
    "contested": frozenset({"pic"}),
    "evenly_opposed": frozenset({("FRANCE", 0)}),
    "centers_after": {"FRANCE": frozenset({"par"})},
    "disbanded": (Unit("ITALY", "F", "nap"),),
    "victory": ("FRANCE",),
    "notes": ("a note",),
    "owners_after": {"bur": "FRANCE"},
    "state_after": {"money": {}},
    "payments": (Payment("FRANCE", BANK, "FRANCE", 2, "income"),),
    "variant": variant("standard"),
    "game_map": load_map("standard"),
    "position": Position("S1901M", ()),
    "orders": {"FRANCE": ["A Par - Bur"]},
    "rules": rules_from_names([]),
    "strength": 2,
    "state": 1,
    "_Landing.result": True,
    "_Boarding.result": True,
    "LineReading.orders": [Scaled(2, Hold("A", "par"))],
    "heading_only": True,
    "section": 2,
    "keys": [("FRANCE", 0)],
    "key": ("FRANCE", 1),
    "texts": ["A Par - Bur"],
    "Arrow.points": ((1.0, 2.0), (3.0, 4.0)),
    "Arrow.ok": False,
}


def _values(cls: type) -> tuple[Any, ...]:
    return tuple(
        _SAMPLES.get(f"{cls.__name__}.{f.name}", _SAMPLES.get(f.name, f"{cls.__name__}.{f.name}"))
        for f in dataclasses.fields(cls)
    )


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda cls: cls.__name__)
def test_every_field_is_taken_in_order_by_position_and_by_name(cls: type) -> None:
    assert not cls.__dataclass_params__.init  # type: ignore[attr-defined]
    names = [f.name for f in dataclasses.fields(cls)]
    values = _values(cls)
    by_position = cls(*values)
    by_name = cls(**dict(zip(names, values, strict=True)))
    assert tuple(getattr(by_position, n) for n in names) == values
    assert by_name == by_position
    if cls.__hash__ is not None:  # the values that hash (those that are not results)
        assert hash(by_name) == hash(by_position)
    assert (
        repr(by_position)
        == f"{cls.__name__}({', '.join(f'{n}={v!r}' for n, v in zip(names, values, strict=True))})"
    )
    with pytest.raises(TypeError):
        cls(*values, "one too many")


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda cls: cls.__name__)
def test_the_fields_left_out_take_the_dataclass_defaults(cls: type) -> None:
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING]
    assert all(f.default_factory is dataclasses.MISSING for f in fields)
    made = cls(*_values(cls)[: len(required)])
    for f in fields[len(required) :]:
        assert getattr(made, f.name) == f.default
    if required:
        with pytest.raises(TypeError):
            cls(*_values(cls)[: len(required) - 1])


def test_a_unit_made_again_is_the_unit_made_before() -> None:
    """Phases make the same units again (a unit is a tuple, never changed): each once."""
    from judge.engine.position import Unit, make_unit

    unit = make_unit("FRANCE", "A", "par")
    assert unit is make_unit("FRANCE", "A", "par")
    assert unit == Unit("FRANCE", "A", "par") and type(unit) is Unit
    assert make_unit("FRANCE", "F", "bre") is not make_unit("FRANCE", "F", "bre", "GERMANY")
