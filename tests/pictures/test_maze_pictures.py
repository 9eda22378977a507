"""A maze's pictures (Algernon) read cleanly: no text stands on another (labels, notes, portal
numbers, the stubs' labels), in the GM's whole maze and in a player's own, after a few phases
of play; rats are drawn as rats, not as armies."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from judge.adjudicate_json import run_case
from judge.pictures.source import PictureSource, picture_svg
from judge.pictures.svg import text_box
from judge.variants import MASTER, variant

SVG = "{http://www.w3.org/2000/svg}"


def played(players: int, seed: int, phases: int) -> PictureSource:
    """A new maze after `phases` phases of every rat trying its first portal."""
    case = variant("algernon").rules.new_game([str(players)], seed)
    source = PictureSource(case)
    for _ in range(phases):
        orders = {}
        for unit in case["units"]:
            orders.setdefault(unit["power"], []).append(f"{unit['loc'].upper()} to 1")
        result = json.loads(json.dumps(run_case({**case, "orders": orders})))
        source = PictureSource(case, orders, result)
        if not result["next_phase"].endswith("M"):
            break
        case = {
            **case,
            "phase": result["next_phase"],
            "units": result["units_after"],
            "centers": result["centers_after"],
            "state": result.get("state_after") or case.get("state") or {},
        }
    return source


def boxes(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    root = ET.fromstring(svg)
    board = next(e for e in root.iter() if e.get("id") == "board")
    found = []
    for text in board.iter(f"{SVG}text"):
        words = "".join(text.itertext())
        box = text_box(
            float(text.attrib["x"]),
            float(text.attrib["y"]),
            float(text.attrib["font-size"]),
            words,
            text.attrib.get("text-anchor", "start"),
        )
        found.append((words, box))
    return found


def overlapping(svg: str) -> list[tuple[str, str]]:
    return [
        (a, b)
        for (a, one), (b, other) in combinations(boxes(svg), 2)
        if one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]
    ]


@pytest.mark.parametrize(("players", "seed"), [(3, 7), (3, 11), (5, 2), (7, 3)])
def test_no_text_stands_on_another(players: int, seed: int) -> None:
    source = played(players, seed, 2)
    readers = [MASTER, *sorted({u["power"] for u in source.case["units"]})]
    for reader in readers:
        svg = picture_svg(source, reader)
        assert svg is not None
        assert overlapping(svg) == [], reader


def test_rats_are_drawn_as_rats() -> None:
    source = played(3, 7, 1)
    for reader in (MASTER, source.case["units"][0]["power"]):
        svg = picture_svg(source, reader)
        assert svg is not None
        root = ET.fromstring(svg)
        rats = [e for e in root.iter(f"{SVG}g") if e.get("id", "").startswith("u-")]
        assert rats
        for rat in rats:
            title = rat.find(f"{SVG}title")
            assert title is not None and " rat in " in (title.text or "")
            assert rat.find(f"{SVG}text") is None  # no letter: not an "A"
