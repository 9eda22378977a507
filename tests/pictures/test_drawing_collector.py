"""A phase's pictures are drawn with Python's cycle collector at rest (it would walk the
process's long-lived tables again and again for nothing), and it is back as it was after,
whatever the drawing did."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from typing import Any

import pytest

from judge.adjudicate_json import run_case
from judge.map_files import load_map
from judge.map_files import start_case as map_start_case
from judge.pictures import source
from judge.pictures.source import PictureSource, picture_svgs
from judge.variants import MASTER, OBSERVERS, start_case


@pytest.fixture
def collector_seen(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Whether the collector ran, at each drawing of a picture."""
    seen: list[bool] = []
    real = source.draw

    def draw(scene):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(scene)

    monkeypatch.setattr(source, "draw", draw)
    was = gc.isenabled()
    yield seen
    gc.enable() if was else gc.disable()


def opening() -> PictureSource:
    return PictureSource(start_case("standard", "standard"))


def test_the_collector_rests_while_the_pictures_are_drawn_and_runs_again_after(
    collector_seen: list[bool],
) -> None:
    gc.enable()
    pictures = picture_svgs(opening(), [MASTER, "ENGLAND"])
    assert collector_seen == [False]  # one picture for both readers of a public board
    assert gc.isenabled()
    assert pictures[MASTER] is not None and pictures[MASTER].startswith("<svg")


def test_a_collector_turned_off_by_its_program_stays_off(collector_seen: list[bool]) -> None:
    gc.disable()
    picture_svgs(opening(), [MASTER])
    assert collector_seen == [False]
    assert not gc.isenabled()


def test_the_collector_runs_again_after_a_drawing_that_failed(
    collector_seen: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.enable()

    def broken(scene):  # type: ignore[no-untyped-def]
        raise RuntimeError("a drawing that failed")

    monkeypatch.setattr(source, "draw", broken)
    with pytest.raises(RuntimeError):
        picture_svgs(opening(), [MASTER])
    assert gc.isenabled()


def world_phase() -> PictureSource:
    """The world board's opening with a move and a hold ordered, adjudicated."""
    board = load_map("mercator-world")
    case = map_start_case(board)
    case.update(variant="mercator", map="mercator-world")
    case["orders"] = {"ENGLAND": ["F(lon) - eng", "F(edi) H"], "FRANCE": ["A(par) - bur"]}
    return PictureSource(case, case["orders"], json.loads(json.dumps(run_case(case))))


@pytest.mark.parametrize("source", [opening, world_phase], ids=["standard", "world"])
def test_a_phases_pictures_leave_nothing_for_the_collector(source: Any) -> None:
    """Every reader's picture drawn, all the drawing made is freed as soon as it is let go
    of: none of it is left in cycles, which the collector would walk the process's tables to
    find after every phase (a phase's shared tables referring back to its scenes, nested
    functions and the frames they close over)."""
    phase = source()
    board = load_map(phase.case["map"]) if "map" in phase.case else load_map("standard")
    readers = [*sorted(board.powers), OBSERVERS, MASTER]
    was = gc.isenabled()
    picture_svgs(phase, readers)  # what is kept for the board, made first
    gc.collect()
    gc.disable()
    try:
        pictures = picture_svgs(phase, readers)
        assert gc.collect() == 0
    finally:
        gc.enable() if was else gc.disable()
    assert all(svg and svg.startswith("<svg") for svg in pictures.values())
