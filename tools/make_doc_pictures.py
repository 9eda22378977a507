"""Write docs/pictures/: each board's picture at its start and after a crowded phase, as the
results mails draw them, so that a reader of the docs sees what a player is sent.

    .venv/bin/python tools/make_doc_pictures.py [--check]

For each board of maps/ (standard, Youngstown, 1885, the Mercator world) and a generated
Algernon maze: the opening as the game master sees it, and a crowded phase after its
adjudication: a unit on about every other space (the powers taking turns, fleets at sea and on
coasts, armies inland), every centre owned, each unit ordered to move to a neighbour chosen by
a seeded random draw or to hold, so that moves succeed, bounce and dislodge. On a board too wide
to read whole (the world) a player's picture of the opening is written too: his own part (two
moves round his units) and the whole small. (In the crowded phase every power has units all over
the world, so a player's part would be nearly the whole: no game looks like that.) Each PNG is drawn by the judge's own `picture_svg` and `png_of`; nothing is downloaded.
--check writes nothing and lists the pictures that are missing (the pictures' bytes follow the
renderer's version, so they are not compared).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.adjudicate_json import run_case  # noqa: E402
from judge.engine.geography import Map, Terrain  # noqa: E402
from judge.map_files import load_map  # noqa: E402
from judge.pictures.png import png_of  # noqa: E402
from judge.pictures.source import PictureSource, picture_svg  # noqa: E402
from judge.variants import MASTER, start_case, variant  # noqa: E402

OUT = ROOT / "docs" / "pictures"
SEED = 1901

# (the variant, its board, a power whose own picture is written too where the board gives each
# power his own part)
BOARDS = (
    ("standard", "standard", None),
    ("youngstown", "youngstown", None),
    ("1885", "1885", None),
    ("mercator", "mercator-world", "ENGLAND"),
)


def crowded_orders(
    board: Map, rng: random.Random
) -> tuple[list[dict[str, Any]], dict[str, list[str]]]:
    """A unit on about every other space, powers taking turns, and each one's order."""
    powers = sorted(board.powers)
    units: list[dict[str, Any]] = []
    orders: dict[str, list[str]] = {p: [] for p in powers}
    for i, (code, province) in enumerate(sorted(board.provinces.items())):
        if province.terrain is Terrain.IMPASSABLE or rng.random() < 0.5:
            continue
        power = powers[i % len(powers)]
        if province.coasts:
            kind, loc = "F", f"{code}/{province.coasts[0]}"
        elif board.fleet_may_be_at(code) and province.terrain is not Terrain.LAND:
            kind, loc = "F", code
        elif board.army_may_be_at(code):
            kind, loc = "A", code
        else:
            continue
        units.append({"power": power, "type": kind, "loc": loc})
        if kind == "F":
            targets = sorted(board.fleet_edges.get(loc, ()))
        else:
            targets = sorted(board.army_edges.get(code, ()))
        if targets and rng.random() < 0.8:
            orders[power].append(f"{kind} {loc} - {rng.choice(targets)}")
        else:
            orders[power].append(f"{kind} {loc} H")
    return units, orders


def centres_owned(board: Map) -> dict[str, list[str]]:
    powers = sorted(board.powers)
    owned: dict[str, list[str]] = {}
    for i, code in enumerate(sorted(board.supply_centres())):
        owned.setdefault(powers[i % len(powers)], []).append(code)
    return owned


def pictures() -> dict[str, tuple[PictureSource, str]]:
    """File name -> what it draws and for whom."""
    rng = random.Random(SEED)
    out: dict[str, tuple[PictureSource, str]] = {}
    for name, board_name, player in BOARDS:
        board = load_map(board_name)
        opening = start_case(name, board_name)
        out[f"{board_name}-start.png"] = (PictureSource(opening), MASTER)
        if player is not None:
            out[f"{board_name}-start-{player.lower()}.png"] = (PictureSource(opening), player)
        units, orders = crowded_orders(board, rng)
        case = {**opening, "units": units, "centers": centres_owned(board), "orders": orders}
        result = json.loads(json.dumps(run_case(case)))
        crowded = PictureSource(case, orders, result)
        out[f"{board_name}-crowded.png"] = (crowded, MASTER)
    rules = variant("algernon").rules
    assert rules.new_game is not None
    maze = rules.new_game(["4"], SEED)
    out["algernon-start.png"] = (PictureSource(maze), MASTER)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list missing pictures, write none")
    args = parser.parse_args()
    wanted = pictures()
    if args.check:
        missing = [name for name in wanted if not (OUT / name).is_file()]
        for name in missing:
            print(f"missing: docs/pictures/{name}")
        return 1 if missing else 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (source, reader) in wanted.items():
        svg = picture_svg(source, reader)
        assert svg is not None, name
        data = png_of(svg)
        (OUT / name).write_bytes(data)
        print(f"docs/pictures/{name}: {len(data) // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
