"""The powers' colours stay apart as people see them: on every board every two at least
CIEDE2000 15 apart, and on boards of up to nine powers at least 10 apart also as seen with
protanopia and deuteranopia (Machado 2009's simulation). The colour science itself is checked
against published figures."""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path

import pytest
from colour_vision import (  # type: ignore[import-not-found]
    DEUTERANOPIA,
    PROTANOPIA,
    ciede2000,
    difference,
)

from judge.map_files import available_maps, load_map, load_map_file
from judge.pictures.scene import COLOUR_ONLY, PALETTE, power_colours
from judge.variants.algernon.maze import maze_board

CASES = Path(__file__).resolve().parents[1] / "cases" / "maps"


def boards() -> list[tuple[str, list[str]]]:
    found = [(name, list(load_map(name).powers)) for name in available_maps()]
    found += [(n, list(load_map_file(CASES / f"{n}.toml").powers)) for n in ("features",)]
    maze = tomllib.loads((CASES / "algernon_demo.toml").read_text(encoding="utf-8"))
    found.append(("algernon_demo", list(maze_board(maze).powers)))
    return found


# Sharma, Wu and Dalal (2005), table 1: (L, a, b) pairs and their CIEDE2000.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (50.0, 3.1736, 0.5854), 1.0),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0009), 7.1792),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("one", "other", "expected"), SHARMA)
def test_ciede2000_gives_the_published_differences(one, other, expected) -> None:
    assert ciede2000(one, other) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(other, one) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_confuse_the_colours_each_deficiency_confuses() -> None:
    red, green, blue = "#d62728", "#2ca02c", "#1f77b4"
    for vision in (PROTANOPIA, DEUTERANOPIA):
        assert difference(red, green, vision) < difference(red, green) / 2
        assert difference(red, blue, vision) > 20  # blue stays apart from red
    assert difference("#ffffff", "#ffffff", DEUTERANOPIA) == pytest.approx(0, abs=0.5)


@pytest.mark.parametrize(("name", "powers"), boards(), ids=[n for n, _ in boards()])
def test_every_boards_colours_stay_apart(name: str, powers: list[str]) -> None:
    colours = list(power_colours(powers).values())
    assert len(set(colours)) == len(powers)
    for one, other in itertools.combinations(colours, 2):
        assert difference(one, other) >= 15, (one, other)
        if len(powers) <= COLOUR_ONLY:
            assert difference(one, other, PROTANOPIA) >= 10, (one, other, "protanopia")
            assert difference(one, other, DEUTERANOPIA) >= 10, (one, other, "deuteranopia")


def test_any_board_of_up_to_nine_powers_gets_colours_apart_under_both_simulations() -> None:
    first = PALETTE[:COLOUR_ONLY]
    worst = min(
        difference(a, b, vision)
        for a, b in itertools.combinations(first, 2)
        for vision in (None, PROTANOPIA, DEUTERANOPIA)
    )
    assert worst >= 10
    assert min(difference(a, b) for a, b in itertools.combinations(PALETTE, 2)) >= 15
