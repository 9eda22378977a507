"""A board with shapes is drawn as its shapes: each province a path with its id, filled by its
kind and owner, its label and centre at its shape's own points; each unit at its province's
unit point (a fleet on a coast at that coast's); orders between those points; barriers and
crossings drawn; labels readable at 800 pixels. Drawn on a board made by hand for the tests
(tests/pictures/shapes/isles.*)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from hand_shapes import HERE, isles  # type: ignore[import-not-found]
from test_board_pictures import crowded  # type: ignore[import-not-found]

from judge.engine.orders import Move, Support
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.results import SUCCESS
from judge.map_files import load_map
from judge.pictures.board import UNIT_BOX, _label_box, board_scene
from judge.pictures.scene import power_colours
from judge.pictures.shapes import shapes_from_json
from judge.pictures.svg import AREA_WHITE, PALE_LAND, ROCK, SEA_FILL, _tint, draw

SVG = "{http://www.w3.org/2000/svg}"


def by_id(svg: str) -> dict[str, ET.Element]:
    return {e.attrib["id"]: e for e in ET.fromstring(svg).iter() if "id" in e.attrib}


def position() -> Position:
    return Position(
        "S1901M",
        (Unit("WEST", "A", "wes"), Unit("EAST", "F", "mid/nc"), Unit("EAST", "A", "eas")),
        {"WEST": frozenset({"wes", "isl"}), "EAST": frozenset({"eas"})},
        dislodged=(Dislodged(Unit("WEST", "A", "mid"), "eas", False),),
    )


def drawn(orders=()) -> tuple[str, dict[str, ET.Element]]:
    board, shapes = isles()
    svg = draw(board_scene(board, position(), orders, title="t", shapes=shapes))
    return svg, by_id(svg)


def test_every_province_is_its_shape_filled_by_kind_and_owner() -> None:
    _, ids = drawn()
    colours = power_colours(["WEST", "EAST"])
    for code in ("nor", "sou", "wes", "mid", "eas", "isl"):
        assert ids[f"p-{code}"].tag == f"{SVG}path", code
        assert "".join(ids[f"l-{code}"].itertext()) == code.upper()
    assert ids["p-nor"].attrib["d"].count("M") == 2  # the sea with the island's hole
    assert ids["p-nor"].attrib["fill"] == ids["p-sou"].attrib["fill"] == SEA_FILL
    assert ids["p-wes"].attrib["fill"] == _tint(colours["WEST"], AREA_WHITE)
    assert ids["p-isl"].attrib["fill"] == _tint(colours["WEST"], AREA_WHITE)
    assert ids["p-eas"].attrib["fill"] == _tint(colours["EAST"], AREA_WHITE)
    assert ids["p-mid"].attrib["fill"] == PALE_LAND  # an unowned centre
    assert ROCK in ids["impassable"].attrib["fill"]


def test_centres_and_labels_stand_at_their_shapes_points() -> None:
    _, ids = drawn()
    colours = power_colours(["WEST", "EAST"])
    centre = ids["c-mid"]
    assert (float(centre.attrib["cx"]), float(centre.attrib["cy"])) == (350, 150)
    assert centre.attrib["fill"] == "#ffffff"
    assert ids["c-isl"].attrib["fill"] == colours["WEST"]
    label = ids["l-wes"]
    assert float(label.attrib["x"]) == 100
    assert 240 < float(label.attrib["y"]) < 246  # the label point is the text's middle


def unit_centre(group: ET.Element) -> tuple[float, float]:
    shape = group.findall(f"{SVG}rect") or group.findall(f"{SVG}path")
    if shape[0].tag == f"{SVG}rect":
        x, y = float(shape[0].attrib["x"]), float(shape[0].attrib["y"])
        return x + float(shape[0].attrib["width"]) / 2, y + float(shape[0].attrib["height"]) / 2
    x, y = re.match(r"M([-0-9.]+),([-0-9.]+)", shape[0].attrib["d"]).groups()  # type: ignore[union-attr]
    return float(x) + 11, float(y) + 8


def test_each_unit_stands_at_its_provinces_or_coasts_point() -> None:
    _, ids = drawn()
    assert unit_centre(ids["u-WEST-wes"]) == (100, 180)
    assert unit_centre(ids["u-EAST-eas"]) == (500, 180)
    assert unit_centre(ids["u-EAST-mid/nc"]) == (300, 125)  # the north coast's own point
    # A dislodged unit beside its province's point, clear of a unit standing there, inside.
    x, y = unit_centre(ids["d-WEST-mid"])
    assert abs(x - 320) >= UNIT_BOX[0] or abs(y - 200) >= UNIT_BOX[1]
    assert abs(x - 320) < 40 and abs(y - 200) < 40
    assert 200 < x < 400 and 100 < y < 300


def test_orders_run_between_the_units_points() -> None:
    orders = [
        ("EAST", Move("A", "eas", "isl"), SUCCESS, "A Eas - Isl"),
        ("WEST", Support("A", "wes", "A", "eas", "isl"), "cut", "A Wes S A Eas - Isl"),
    ]
    _, ids = drawn(orders)
    move = ids["o-0"].find(f"{SVG}line")
    assert move is not None
    start = (float(move.attrib["x1"]), float(move.attrib["y1"]))
    end = (float(move.attrib["x2"]), float(move.attrib["y2"]))
    assert abs(start[0] - 500) < 1 and start[1] < 180  # from Eastland's unit point up
    assert abs(end[0] - 505) < 3 and end[1] > 50  # towards the isle's, its head short of it
    assert "failed" in ids["o-1"].attrib["class"]


def test_barriers_and_crossings_are_drawn() -> None:
    _, ids = drawn()
    assert len(ids["barriers"]) == 2
    (crossing,) = ids["crossings"]
    assert crossing.attrib["points"] == "520,100 520,75"


def test_labels_read_at_least_nine_pixels_shown_800_wide() -> None:
    svg, ids = drawn()
    root = ET.fromstring(svg)
    width = float(root.attrib["viewBox"].split()[2])
    sizes = [float(e.attrib["font-size"]) for k, e in ids.items() if k.startswith("l-")]
    assert min(sizes) * 800 / width >= 9


def test_a_unit_that_would_cover_its_label_stands_off_it_inside_its_province() -> None:
    board, _ = isles()
    raw = json.loads((HERE / "isles.shapes.json").read_text(encoding="utf-8"))
    raw["provinces"]["wes"]["unit"] = [100, 236]  # on its label (100, 240)
    shapes = shapes_from_json(raw)
    svg = draw(board_scene(board, position(), title="t", shapes=shapes))
    x, y = unit_centre(by_id(svg)["u-WEST-wes"])
    assert (x, y) != (100, 236)
    assert 0 < x < 200 and 100 < y < 300  # still in Westland
    label = _label_box("wes", (100, 240), 11)
    assert not (
        x - UNIT_BOX[0] / 2 < label[2]
        and label[0] < x + UNIT_BOX[0] / 2
        and y - UNIT_BOX[1] / 2 < label[3]
        and label[1] < y + UNIT_BOX[1] / 2
    )


def test_an_owned_province_is_filled_in_its_owners_colour() -> None:
    """Mercator's province ownership: an owned non-centre, and a centre owned by another power
    than the province's owner shows the province's owner; its centre mark the centre's."""
    board, shapes = isles()
    colours = power_colours(["WEST", "EAST"])
    shown = Position("S1901M", (), {"WEST": frozenset({"mid"})}, owners={"mid": "EAST"})
    ids = by_id(draw(board_scene(board, shown, title="t", shapes=shapes)))
    assert ids["p-mid"].attrib["fill"] == _tint(colours["EAST"], AREA_WHITE)
    assert ids["c-mid"].attrib["fill"] == colours["WEST"]


def test_units_carry_their_powers_letter_only_where_colours_are_many() -> None:
    few = draw(board_scene(load_map("standard"), crowded(load_map("standard")), title="t"))
    many_board = load_map("youngstown")
    many = draw(board_scene(many_board, crowded(many_board), title="t"))

    def letters(svg: str) -> set[str]:
        return {
            "".join(t.itertext())
            for g in ET.fromstring(svg).iter(f"{SVG}g")
            if g.get("id", "").startswith("u-")
            for t in g.iter(f"{SVG}text")
            if t.get("font-size") == "8"
        }

    assert letters(few) == set()
    assert letters(many) == {p.letter for p in many_board.powers.values()}
