"""Pictures as a mail carries them: at most 400 KB of pictures to each reader of a crowded phase
of the world board (the PNG, and the SVG where both fit), the standard board's SVG riding along;
the provinces' labels at least 9 pixels high when the picture is shown 800 pixels wide; on a
board too wide to read whole, each power's picture his own part (his units and all within two
moves) beside the whole board drawn small."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from test_board_pictures import crowded  # type: ignore[import-not-found]

from judge.engine.position import province_of
from judge.map_files import load_map, start_case
from judge.pictures.board import neighbours_of, readable_whole, within_two_moves
from judge.pictures.shapes import load_shapes
from judge.pictures.source import PictureSource, picture_request, picture_svg
from judge.pictures.step import PICTURE_BUDGET, attachments
from judge.variants import MASTER, OBSERVERS

SVG = "{http://www.w3.org/2000/svg}"


def crowded_case(name: str, variant: str) -> dict[str, Any]:
    board = load_map(name)
    position = crowded(board)
    return {
        "variant": variant,
        "map": name,
        "phase": board.start_phase,
        "units": [{"power": u.power, "type": u.kind, "loc": u.loc} for u in position.units],
        "centers": {p: sorted(c) for p, c in position.centers.items()},
    }


@pytest.mark.parametrize(("name", "variant"), [("mercator-world", "mercator")])
def test_a_crowded_world_phase_mails_at_most_400_kb_of_pictures(name: str, variant: str) -> None:
    source = PictureSource(crowded_case(name, variant), game="big")
    board = load_map(name)
    for reader in [*sorted(board.powers), OBSERVERS, MASTER]:
        files = attachments(picture_request(source, reader), {})
        assert sum(len(f.data) for f in files) <= PICTURE_BUDGET, reader
        assert [f.subtype for f in files][-1] == "png"


def test_the_standard_boards_svg_rides_along() -> None:
    source = PictureSource(crowded_case("standard", "standard"), game="big")
    files = attachments(picture_request(source, "FRANCE"), {})
    assert [f.subtype for f in files] == ["svg+xml", "png"]
    assert sum(len(f.data) for f in files) <= PICTURE_BUDGET


def by_shape(name: str) -> set[str]:
    shapes = load_shapes(name)
    return {f"p-{code}" for code in (shapes.provinces if shapes else load_map(name).provinces)}


def shown_label_sizes(svg: str) -> list[float]:
    """Each province label's height in pixels when the whole picture is shown 800 wide."""
    root = ET.fromstring(svg)
    width = float(root.attrib["viewBox"].split()[2])
    scale = 1.0
    view = next((e for e in root.iter() if e.get("id") == "view"), None)
    if view is not None:
        use = view.find(f"{SVG}use")
        assert use is not None
        found = re.search(r"scale\(([0-9.]+)\)", use.attrib["transform"])
        assert found is not None
        scale = float(found.group(1))
    return [
        float(e.attrib["font-size"]) * scale * 800 / width
        for e in root.iter(f"{SVG}text")
        if e.get("id", "").startswith("l-")
    ]


BOARDS = [("standard", "standard"), ("youngstown", "youngstown"), ("1885", "1885")]
BOARDS += [("mercator-world", "mercator")]


@pytest.mark.parametrize(("name", "variant"), BOARDS, ids=[n for n, _ in BOARDS])
def test_labels_read_at_least_nine_pixels_in_a_players_picture_800_wide(
    name: str, variant: str
) -> None:
    board = load_map(name)
    case = start_case(board)
    case.update(variant=variant, map=name)
    for reader in sorted(board.powers):
        svg = picture_svg(PictureSource(case), reader)
        assert svg is not None
        sizes = shown_label_sizes(svg)
        assert sizes and min(sizes) >= 9, (reader, min(sizes))


@pytest.mark.parametrize("name", ["youngstown", "mercator-world"])
def test_a_wide_boards_player_sees_his_part_and_the_whole_small(name: str) -> None:
    board = load_map(name)
    assert not readable_whole(board.canvas[0])
    case = start_case(board)
    case.update(variant="mercator" if name == "mercator-world" else name, map=name)
    for reader in sorted(board.powers)[:4]:
        svg = picture_svg(PictureSource(case), reader)
        assert svg is not None
        root = ET.fromstring(svg)
        ids = {e.get("id"): e for e in root.iter() if e.get("id")}
        assert "view" in ids and "overview" in ids
        mine = {province_of(u.loc) for u in board.powers[reader].starting_units}
        shown = {code for code in mine if f"l-{code}" in ids}
        assert len(shown) * 2 >= len(mine), reader  # most of his units (all, where they fit)
        for code in within_two_moves(board, shown) & set(neighbours_of(board)):
            near = code in shown or any(code in neighbours_of(board)[m] for m in shown)
            if near and f"p-{code}" in by_shape(name):
                assert f"l-{code}" in ids, (reader, code)  # what his units touch is drawn
    whole = picture_svg(PictureSource(case), MASTER)
    assert whole is not None and 'id="view"' not in whole
