"""Pictures as a mail carries them: at most 400 KB of pictures to each reader of a crowded phase
of the world board (the PNG, and the SVG where both fit), the standard board's SVG riding along;
the provinces' labels at least 9 pixels high when the picture is shown 800 pixels wide; on a
board too wide to read whole, each power's picture his own part (his units and all within two
moves) beside the whole board drawn small."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from test_board_pictures import crowded  # type: ignore[import-not-found]

from judge.adjudicate_json import run_case
from judge.engine.geography import Map
from judge.engine.position import Unit, province_of
from judge.map_files import load_map, start_case
from judge.pictures.board import neighbours_of, readable_whole, within_two_moves
from judge.pictures.shapes import load_shapes
from judge.pictures.source import PictureSource, forget_phases, picture_request, picture_svg
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


def shown_label_sizes(svg: str, only: str | None = None) -> list[float]:
    """Each province label's height in pixels when the whole picture is shown 800 wide: its
    size, times the scale its board group is shown at (each window of a reader's part its own,
    from the `use` that shows it; the whole board drawn as it is). `only`: the labels of that
    board group alone."""
    root = ET.fromstring(svg)
    width = float(root.attrib["viewBox"].split()[2])
    scales = {board: k for board, (k, _) in views(root).items()}
    groups = [g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith("board")]
    if only is not None:
        groups = [g for g in groups if g.get("id") == only]
    elif not scales:
        groups = groups[:1]
    return [
        float(e.attrib["font-size"]) * scales.get(group.attrib["id"], 1.0) * 800 / width
        for group in groups
        for e in group.iter(f"{SVG}text")
        if e.get("id", "").startswith("l-")
    ]


def opening_pictures(name: str, variant: str) -> list[tuple[str, str]]:
    """Each power's picture of the board's opening position."""
    board = load_map(name)
    case = start_case(board)
    case.update(variant=variant, map=name)
    out = []
    for reader in sorted(board.powers):
        svg = picture_svg(PictureSource(case), reader)
        assert svg is not None
        out.append((reader, svg))
    return out


BOARDS = [("standard", "standard"), ("youngstown", "youngstown"), ("1885", "1885")]
BOARDS += [("mercator-world", "mercator")]


@pytest.mark.parametrize(("name", "variant"), BOARDS, ids=[n for n, _ in BOARDS])
def test_labels_read_at_least_nine_pixels_in_a_players_picture_800_wide(
    name: str, variant: str
) -> None:
    for reader, svg in opening_pictures(name, variant):
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


def two_moves(board: Map, unit: Unit) -> set[str]:
    """Every province a unit may reach in one or two moves without a convoy, read from the
    board's adjacency here: an army by army moves, a fleet by fleet moves from its own coast,
    an army/fleet by either."""
    places = {unit.loc}
    for _ in range(2):
        step = set()
        for place in places:
            if unit.kind in ("A", "AF"):
                step |= set(board.army_edges.get(province_of(place), ()))
            if unit.kind in ("F", "AF"):
                fleet = [place] if place in board.fleet_edges else []
                fleet += [loc for loc in board.fleet_edges if province_of(loc) == place]
                for loc in fleet:
                    step |= set(board.fleet_edges[loc])
        places |= step
    return {province_of(p) for p in places}


def views(root: ET.Element) -> dict[str, tuple[float, list[tuple[float, float, float, float]]]]:
    """Each board group a picture shows enlarged (a window of a reader's part, the whole's
    crowded part), by its id: the scale it is shown at and the part of the canvas it shows,
    (x, y, w, h), once for each place the group is drawn at (a board that wraps is drawn twice
    at its edge). A window is a group moved and scaled onto the canvas, or a pattern (or
    nested viewport) with the canvas's part as its view box."""
    number = r"([-0-9.]+)"
    out: dict[str, tuple[float, list[tuple[float, float, float, float]]]] = {}
    for view in root.iter():
        if not (view.get("id") or "").startswith("view"):
            continue
        if view.tag in (f"{SVG}svg", f"{SVG}pattern"):
            x, y, w, h = (float(v) for v in view.attrib["viewBox"].split())
            k = float(view.attrib["width"]) / w
        else:
            move = re.search(
                rf"scale\({number}\) translate\({number},{number}\)", view.attrib["transform"]
            )
            assert move is not None
            k, x, y = float(move.group(1)), -float(move.group(2)), -float(move.group(3))
            ground = view.find(f"{SVG}rect")
            assert ground is not None
            w, h = float(ground.attrib["width"]), float(ground.attrib["height"])
        for use in view.iter(f"{SVG}use"):
            shift = re.search(rf"translate\({number},0\)", use.get("transform", ""))
            dx = float(shift.group(1)) if shift else 0.0
            board = use.attrib["href"].lstrip("#")
            out.setdefault(board, (k, []))[1].append((x - dx, y, w, h))
    return out


def windows(root: ET.Element) -> dict[str, list[tuple[float, float, float, float]]]:
    """Each window of a reader's part, by the board group it shows (`views`)."""
    return {board: places for board, (_, places) in views(root).items()}


@pytest.mark.parametrize(("name", "variant"), [("mercator-world", "mercator")])
def test_a_players_part_holds_every_province_within_two_moves_of_his_units(
    name: str, variant: str
) -> None:
    board = load_map(name)
    for reader, svg in opening_pictures(name, variant):
        root = ET.fromstring(svg)
        shown = windows(root)
        assert shown, reader
        near = set()
        for unit in board.powers[reader].starting_units:
            near |= two_moves(board, unit)
        for code in sorted(near & by_code(name)):
            inside = any(
                x <= lx <= x + w and y <= ly <= y + h
                for group, places in shown.items()
                for lx, ly in labels_in(root, group, code)
                for x, y, w, h in places
            )
            assert inside, (reader, code)


def close_windows(root: ET.Element) -> list[str]:
    """The board groups of a picture that show the first window's ground (a power's own units
    close): those whose ground is a use of the first's."""
    return [
        g.get("id", "")
        for g in root.iter(f"{SVG}g")
        if (g.get("id") or "").startswith("board-")
        and any(u.get("href") == "#ground" for u in g.iter(f"{SVG}use"))
    ]


def unit_marks(root: ET.Element, group: str) -> dict[str, tuple[float, float, float]]:
    """Each unit drawn in a board group, by its id: its point on the canvas and its scale."""
    board_group = next(e for e in root.iter(f"{SVG}g") if e.get("id") == group)
    out = {}
    for g in board_group.iter(f"{SVG}g"):
        if not (g.get("id") or "").startswith("u-"):
            continue
        move = re.match(
            r"translate\(([-0-9.]+),([-0-9.]+)\) scale\(([-0-9.]+)\)", g.attrib["transform"]
        )
        assert move is not None
        out[g.attrib["id"]] = (float(move.group(1)), float(move.group(2)), float(move.group(3)))
    return out


def world_opening() -> dict[str, Any]:
    """The world board's opening position, as a Mercator game on it starts."""
    case = start_case(load_map("mercator-world"))
    case.update(variant="mercator", map="mercator-world")
    return case


def world_opening_picture(reader: str) -> ET.Element:
    """`reader`'s picture of the world board's opening, parsed."""
    svg = picture_svg(PictureSource(world_opening()), reader)
    assert svg is not None
    return ET.fromstring(svg)


def test_a_player_whose_units_crowd_sees_them_close_in_a_window_of_their_own() -> None:
    """England's three units on the world board stand in provinces a unit's width apart in
    the first window of his part: his picture shows them again, enlarged at least 1.5 times
    more, each drawn apart from the others, in a window inside the first (whose provinces'
    shapes it shows again rather than drawing its own)."""
    board = load_map("mercator-world")
    root = world_opening_picture("ENGLAND")
    (close,) = close_windows(root)
    shown = views(root)
    (first_scale, [first]), (scale, [view]) = shown["board"], shown[close]
    assert scale >= 1.5 * first_scale
    fx, fy, fw, fh = first
    x, y, w, h = view
    assert fx <= x and fy <= y and x + w <= fx + fw and y + h <= fy + fh
    suffix = close.removeprefix("board")
    marks = unit_marks(root, close)
    own = [
        marks[f"u-ENGLAND-{province_of(u.loc)}{suffix}"]
        for u in board.powers["ENGLAND"].starting_units
    ]
    for i, (ax, ay, k) in enumerate(own):
        assert x <= ax <= x + w and y <= ay <= y + h
        for bx, by, _ in own[i + 1 :]:
            wide = 22 * k  # a unit's mark on the canvas at its scale
            assert max(abs(ax - bx), abs(ay - by)) >= wide, (ax, ay, bx, by)


def test_an_order_s_arrow_is_drawn_to_the_size_of_the_units_of_its_window() -> None:
    """The first window of England's part and the close window of his units draw his fleet's
    move each at the size of that window's units: as thick on the picture in both, not four
    times thicker where the window is enlarged four times."""
    board = load_map("mercator-world")
    case = start_case(board)
    case.update(variant="mercator", map="mercator-world", orders={"ENGLAND": ["F(lon) - eng"]})
    result = json.loads(json.dumps(run_case(case)))
    svg = picture_svg(PictureSource(case, case["orders"], result), "ENGLAND")
    assert svg is not None
    root = ET.fromstring(svg)
    (close,) = close_windows(root)
    shown = views(root)
    widths = {}
    for group in ("board", close):
        board_group = next(e for e in root.iter(f"{SVG}g") if e.get("id") == group)
        (line,) = [e for e in board_group.iter(f"{SVG}line") if e.get("stroke-width")]
        # the window's size of units: that of those not drawn smaller where they crowd
        size = max(scale for _, _, scale in unit_marks(root, group).values())
        assert float(line.attrib["stroke-width"]) == pytest.approx(2.6 * size, abs=0.01)
        widths[group] = float(line.attrib["stroke-width"]) * shown[group][0]  # on the picture
    assert widths[close] == pytest.approx(widths["board"], rel=0.5)


def test_a_close_window_draws_the_provinces_borders_as_wide_as_the_first_window() -> None:
    """The close window of England's units shows the first window's provinces again, enlarged
    more: their borders (and the barriers' and crossings' lines) stand as wide on the picture
    there as in the first window, not as many times wider as the window is enlarged. The
    ground's lines are widths in ems (of the board group's font size, which the close window's
    use of the ground sets smaller); the GM's crowded part keeps them enlarged."""
    root = world_opening_picture("ENGLAND")
    (close,) = close_windows(root)
    shown = views(root)
    first = next(e for e in root.iter(f"{SVG}g") if e.get("id") == "board")
    ground = next(e for e in first.iter(f"{SVG}g") if e.get("id") == "ground")
    widths = {
        g.get("id"): float(g.attrib["stroke-width"].removesuffix("em"))
        for g in ground
        if g.get("stroke-width")
    }
    assert {"provinces", "barriers"} <= set(widths)
    assert all(g.attrib["stroke-width"].endswith("em") for g in ground if g.get("stroke-width"))
    close_group = next(e for e in root.iter(f"{SVG}g") if e.get("id") == close)
    (use,) = [u for u in close_group.iter(f"{SVG}use") if u.get("href") == "#ground"]
    em = {"board": float(first.attrib["font-size"]), close: float(use.attrib["font-size"])}
    for name, width in widths.items():  # on the picture: width x font size x window scale
        on_first = width * em["board"] * shown["board"][0]
        assert width * em[close] * shown[close][0] == pytest.approx(on_first, rel=0.01), name
    assert shown[close][0] >= 1.5 * shown["board"][0]  # while the window is enlarged more
    master = world_opening_picture(MASTER)
    (detail,) = close_windows(master)
    detail_group = next(e for e in master.iter(f"{SVG}g") if e.get("id") == detail)
    (use,) = [u for u in detail_group.iter(f"{SVG}use") if u.get("href") == "#ground"]
    assert float(use.attrib["font-size"]) == pytest.approx(float(first.attrib["font-size"]))


def test_a_window_draws_the_orders_that_reach_it_and_the_gm_draws_every_order() -> None:
    """England's picture draws his fleet's move in the Channel and Russia's in the Baltic, in
    his part and the close window of his units where they reach it, but not America's move on
    the Pacific coast; the GM's whole board draws all three."""
    board = load_map("mercator-world")
    case = start_case(board)
    orders = {"ENGLAND": ["F(lon) - eng"], "AMERICA": ["F(sfr) - ore"], "RUSSIA": ["A(war) - pru"]}
    case.update(variant="mercator", map="mercator-world", orders=orders)
    source = PictureSource(case, orders, json.loads(json.dumps(run_case(case))))

    def ordered(svg: str | None, group: str) -> set[str]:
        assert svg is not None
        root = ET.fromstring(svg)
        layer = next(e for e in root.iter(f"{SVG}g") if e.get("id") == group)
        return {e.findtext(f"{SVG}title") or "" for e in layer if e.tag == f"{SVG}g"}

    england = picture_svg(source, "ENGLAND")
    assert ordered(england, "orders") == {"F(lon) - eng", "A(war) - pru"}
    assert "F(sfr) - ore" not in ordered(england, "orders-2")
    assert ordered(picture_svg(source, MASTER), "orders") == {
        "F(lon) - eng",
        "F(sfr) - ore",
        "A(war) - pru",
    }


def test_what_a_phase_draws_as_the_last_did_is_taken_and_what_changed_is_drawn_anew() -> None:
    """The world drawn small and England's part (his windows, their layers), drawn for a phase
    after another: as they are drawn with nothing kept from a phase before, whether the phase
    changed an owner and moved a unit or not."""
    board = load_map("mercator-world")
    opening = start_case(board)
    opening.update(variant="mercator", map="mercator-world")
    changed = json.loads(json.dumps(opening))
    changed["centers"]["FRANCE"].append("lon")  # London France's, England's fleet off to Wales
    changed["centers"]["ENGLAND"].remove("lon")
    changed["units"] = [u if u["loc"] != "lon" else {**u, "loc": "wal"} for u in changed["units"]]

    def parts(case: dict[str, Any]) -> tuple[str, str]:
        svg = picture_svg(PictureSource(case), "ENGLAND")
        assert svg is not None
        root = ET.fromstring(svg)
        found = {e.get("id"): ET.tostring(e) for e in root.iter(f"{SVG}g")}
        return found["overview"].decode(), found["board"].decode()

    for first, then in ((opening, changed), (changed, opening), (opening, opening)):
        parts(first)
        after = parts(then)
        forget_phases(board)  # nothing kept from the phase before
        assert after == parts(then)
    assert parts(opening) != parts(changed)


def test_a_close_window_is_only_as_close_as_its_units_need() -> None:
    """On Youngstown, whose provinces are larger on its canvas than the world board's, France's
    units crowd only a little in the first window of his part: his close window enlarges them
    enough to stand apart, not the four times that Britain on the world board needs; Russia's,
    in a first window drawn a little under the canvas's size, do not crowd at all."""
    pictures = dict(opening_pictures("youngstown", "youngstown"))
    root = ET.fromstring(pictures["FRANCE"])
    (close,) = close_windows(root)
    shown = views(root)
    first_scale, scale = shown["board"][0], shown[close][0]
    assert 1.5 * first_scale <= scale < 3.0
    assert close_windows(ET.fromstring(pictures["RUSSIA"])) == []


def test_a_player_whose_units_stand_apart_has_no_close_window() -> None:
    for reader, svg in opening_pictures("mercator-world", "mercator"):
        if reader in ("AMERICA", "ARGENTINA", "BRAZIL", "CHINA"):
            assert close_windows(ET.fromstring(svg)) == [], reader


def by_code(name: str) -> set[str]:
    return {p[2:] for p in by_shape(name)}


def labels_in(root: ET.Element, group: str, code: str) -> list[tuple[float, float]]:
    """Where the province's label stands in a board group (none: not drawn there)."""
    board_group = next(e for e in root.iter(f"{SVG}g") if e.get("id") == group)
    suffix = group.removeprefix("board")  # a further window's ids end as its group's
    return [
        (float(t.attrib["x"]), float(t.attrib["y"]))
        for t in board_group.iter(f"{SVG}text")
        if t.get("id") == f"l-{code}{suffix}"
    ]


def test_the_whole_world_shows_its_crowded_part_again_readable_at_800() -> None:
    """The GM's and observers' picture of the world board: the whole board, and under it the
    board's crowded part (Europe, the map's `inset`) drawn again larger, every province there
    labelled at least 9 pixels high when the picture is shown 800 pixels wide."""
    name = "mercator-world"
    board = load_map(name)
    assert board.inset is not None
    case = start_case(board)
    case.update(variant="mercator", map=name)
    for reader in (MASTER, OBSERVERS):
        svg = picture_svg(PictureSource(case), reader)
        assert svg is not None
        root = ET.fromstring(svg)
        detail = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "board-2")
        shown = windows(root)["board-2"]
        x, y, w, h = board.inset
        assert any(abs(v[0] - x) < 1 and abs(v[2] - w) < 1 for v in shown)
        labelled = {
            t.attrib["id"][2:].removesuffix("-2")
            for t in detail.iter(f"{SVG}text")
            if t.get("id", "").startswith("l-")
        }
        every = [e.get("id") for e in root.iter() if e.get("id")]
        assert len(every) == len(set(every))  # no id twice: the part's own end in "-2"
        shapes = load_shapes(name)
        assert shapes is not None
        inside = {
            code
            for code, shape in shapes.provinces.items()
            if x <= shape.label[0] <= x + w and y <= shape.label[1] <= y + h
        }
        assert inside and inside <= labelled
        sizes = shown_label_sizes(svg, only="board-2")
        assert len(sizes) == len(labelled) and min(sizes) >= 9, min(sizes)
        # Its heading reads at 800 too.
        width = float(root.attrib["viewBox"].split()[2])
        (heading,) = [t for t in root.iter(f"{SVG}text") if "dashed frame" in (t.text or "")]
        assert float(heading.attrib["font-size"]) * 800 / width >= 9


def _scale_of(transform: str) -> float:
    found = re.search(r"scale\(([0-9.]+)\)", transform)
    return float(found.group(1)) if found else 1.0


@pytest.mark.parametrize(("name", "variant"), BOARDS, ids=[n for n, _ in BOARDS])
def test_the_legend_of_a_whole_picture_reads_at_800(name: str, variant: str) -> None:
    """The GM's picture of every board, shown 800 pixels wide: the legend's title, notes and
    every power's counts are at least 9 pixels high (the world board's 2000-pixel picture draws
    its legend larger to be so)."""
    board = load_map(name)
    case = start_case(board)
    case.update(variant=variant, map=name)
    svg = picture_svg(PictureSource(case), MASTER)
    assert svg is not None
    root = ET.fromstring(svg)
    shrink = 800 / float(root.attrib["width"])
    parents = {child: parent for parent in root.iter() for child in parent}
    legend = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "legend")
    scale, element = 1.0, legend
    while element in parents:
        element = parents[element]
        scale *= _scale_of(element.get("transform", ""))
    texts = list(legend.iter(f"{SVG}text"))
    assert len(texts) >= 1 + len(board.powers)
    shown = [float(t.attrib["font-size"]) * scale * shrink for t in texts]
    assert min(shown) >= 9, (name, min(shown))
