"""A phase's pictures are drawn with Python's cycle collector at rest (it would walk the
process's long-lived tables again and again for nothing), and it is back as it was after,
whatever the drawing did."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from judge.pictures import source
from judge.pictures.source import PictureSource, picture_svgs
from judge.variants import MASTER, start_case


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
