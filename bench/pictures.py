"""Pictures drawn per second against the same phase adjudicated per second, in one run.

    .venv/bin/python bench/pictures.py [--seconds 2] [--rounds 3]

For each phase (the standard opening and bench/adjudicate.py's mid-game; the Mercator world
board's opening once maps/mercator-world.toml exists): the phase adjudicated through the
per-line function of `judge adjudicate --batch` (JSON text in, JSON text out); its picture
kept for its readers' rows, as the processor writes them (JSON); drawn as SVG
(`judge.pictures.source.picture_svg`: the scene and the SVG text, from the case and the
result as the picture step gets them), again and again (what a drawing keeps from the last
one helps) and with nothing kept but what belongs to the board; the SVG of every reader of
the phase from scratch, as a game's first phase is drawn (each power, observers, the GM: on a
board too wide to read whole each power has a picture of his own part); that SVG rendered to
PNG (resvg); and both, as the picture step does for one reader; on a board where each power
has his own picture, every reader's PNG once (the median and the slowest); and a stream of
the world board's phases from its opening, each phase's pictures for every reader against
its adjudication (what a phase keeps for the next kept, as in a game, but nothing from the
last time round the stream). The process keeps the memory it frees, as `judge serve` does
(judge/heap.py). The targets (issues 13 and 18): a phase's pictures for all its readers cost
at most ten adjudications of the phase (SVG), and a PNG of the world board takes at most
0.3 s. Rounds alternate the measurements; each one's best round is kept; times are this
process's CPU time. Figures go to docs/PERFORMANCE.md with the command above.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from adjudicate import midgame_case, opening_case, ours_in_process  # noqa: E402
from adjudicate import rate as adjudicate_rate  # noqa: E402

from judge import PURE_PYTHON_REASON  # noqa: E402
from judge.adjudicate_json import read_variant_case, run_case  # noqa: E402
from judge.compiled import COMPILED_MODULES, is_compiled  # noqa: E402
from judge.heap import keep_freed_memory  # noqa: E402
from judge.map_files import available_maps, load_map  # noqa: E402
from judge.pictures import svg as svg_module  # noqa: E402
from judge.pictures.png import png_of  # noqa: E402
from judge.pictures.source import (  # noqa: E402
    PictureSource,
    case_after,
    forget_phases,
    picture_request,
    picture_svg,
    picture_svgs,
)
from judge.variants import MASTER, OBSERVERS  # noqa: E402

WORLD = "mercator-world"


def world_case() -> dict[str, Any] | None:
    """The world board's opening (every unit holds), when the board exists on this branch."""
    if WORLD not in available_maps():
        return None
    from judge.map_files import start_case

    case = start_case(load_map(WORLD))
    case.update(variant="mercator", map=WORLD)  # its first phase is the board's (JAN1901M)
    try:
        run_case(case)
    except Exception as exc:  # the board is there but not yet playable: say so, measure the rest
        print(f"{WORLD}: not adjudicable here ({exc}); left out")
        return None
    return case


def world_stream(phases: int = 36, seed: int = 1901) -> list[PictureSource]:
    """The world board played from its opening for `phases` phases, each unit ordered to a
    neighbour drawn at random about half the time and to hold otherwise (retreats and
    adjustments left to the rules' defaults): each phase's picture source, as the picture step
    gets it. Most phases of a game leave most provinces with their owners and most readers'
    windows where they were, as these do."""
    case = world_case()
    if case is None:
        return []
    board = load_map(WORLD)
    rng = random.Random(seed)
    out = []
    for _ in range(phases):
        case = {**case, "orders": _random_orders(board, case, rng)}
        result = json.loads(json.dumps(run_case(case)))
        source = PictureSource(case, case["orders"], result)
        out.append(source)
        case = case_after(source)
    return out


def _random_orders(board: Any, case: dict[str, Any], rng: random.Random) -> dict[str, list[str]]:
    if not case["phase"].endswith("M"):
        return {}
    orders: dict[str, list[str]] = {}
    for unit in case["units"]:
        kind, loc = unit["type"], unit["loc"]
        edges = board.fleet_edges.get(loc) if kind == "F" else board.army_edges.get(loc)
        line = f"{kind}({loc}) H"  # the rules' own notation, as the start mail shows it
        if edges and rng.random() < 0.5:
            line = f"{kind}({loc}) - {rng.choice(sorted(edges))}"
        orders.setdefault(unit["power"], []).append(line)
    return orders


def stream_measures(sources: list[PictureSource]) -> dict[str, Callable[[], Any]]:
    """The stream's phases adjudicated one after another, and every reader's pictures of each
    drawn one after another (what a phase keeps for the next is kept, as in a game)."""
    each = [ours_in_process(dict(source.case)) for source in sources]
    board = read_variant_case(sources[0].case).game_map
    readers = [*sorted(board.powers), OBSERVERS, MASTER]

    def adjudicate() -> None:
        for run in each:
            run()

    def draw() -> None:
        # A game of the stream's phases from its start: nothing kept from the last time round
        # (where each power's units stood, the layers as a phase drew them), only from each
        # phase for the next.
        forget_phases(board)
        for source in sources:
            picture_svgs(source, readers)

    return {"adjudication": adjudicate, "SVG for every reader": draw}


def phases() -> list[tuple[str, dict[str, Any]]]:
    found = [
        ("standard opening, S1901M", opening_case()),
        ("standard mid-game, F1905M", midgame_case()),
    ]
    world = world_case()
    if world is not None:
        found.append((f"{WORLD} opening", world))
    return found


def measures(case: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    result = run_case(case)
    source = PictureSource(case, case.get("orders") or {}, json.loads(json.dumps(result)))
    svg = picture_svg(source)
    assert svg is not None

    def both() -> bytes:
        drawn = picture_svg(source)
        assert drawn is not None
        return png_of(drawn)

    def requests() -> list[str]:
        # What the processor adds to a phase's transaction: each reader's row keeps the
        # picture's source (the standard game's 7 players, an observer and the GM).
        readers = [*sorted({u["power"] for u in case["units"]}), OBSERVERS, MASTER]
        return [json.dumps(picture_request(source, reader)) for reader in readers]

    board = read_variant_case(case).game_map
    readers = [*sorted(board.powers), OBSERVERS, MASTER]

    def forget_phase() -> None:
        # Nothing kept from the last drawing but what belongs to the board (its layout, links,
        # labels at each size, and its pieces: a province's shape in a fill, a unit at its
        # place): a phase drawn as a game's first, its readers' windows, its layers and orders
        # all new to the drawing (nothing is as the last phase drew it).
        for kept in (svg_module._marker, svg_module._unit_mark):
            kept.cache_clear()
        board.__dict__.pop("_picture_nodes", None)
        forget_phases(board)

    def every_reader() -> list[str | None]:
        # As the picture step draws them: the case read once, each picture once for all the
        # readers shown it, from scratch (what the phase's pictures share is made again).
        forget_phase()
        return list(picture_svgs(source, readers).values())

    player_svg = picture_svg(source, readers[0])
    assert player_svg is not None

    def cold() -> str | None:
        forget_phase()
        return picture_svg(source)

    return {
        "adjudication": ours_in_process(case),
        "the sources kept for 9 readers": requests,
        "SVG": lambda: picture_svg(source),
        "SVG, nothing kept": cold,
        "SVG for every reader": every_reader,
        "PNG from SVG": lambda: png_of(svg),
        "PNG of a player's picture": lambda: png_of(player_svg),
        "SVG and PNG": both,
    }


def rate(work: Callable[[], Any], seconds: float) -> float:
    """Calls per second of `work` over about `seconds` of this process's CPU time: on a machine
    shared with other work, the time others take from it is not counted (resvg draws on one
    thread, so a PNG's CPU time is its time on an idle machine)."""
    return adjudicate_rate(work, seconds, time.process_time)


def each_readers_png(case: dict[str, Any]) -> str:
    """Every reader's PNG of the phase timed (the best of two), as the picture step draws them:
    the median and the slowest, on a board where each power has a picture of his own."""
    result = run_case(case)
    source = PictureSource(case, case.get("orders") or {}, json.loads(json.dumps(result)))
    board = read_variant_case(case).game_map
    pictures = picture_svgs(source, [*sorted(board.powers), MASTER])
    if len(set(pictures.values())) <= 1:
        return ""
    times = {}
    for reader, svg in pictures.items():
        assert svg is not None
        best = min(rate_once(lambda svg=svg: png_of(svg)) for _ in range(2))
        times[reader] = best * 1000
    ordered = sorted(times.values())
    slowest = max(times, key=lambda r: times[r])
    return (
        f"  PNG of each reader's picture: median {ordered[len(ordered) // 2]:,.0f} ms, "
        f"slowest {times[slowest]:,.0f} ms ({slowest}), {sum(t <= 300 for t in ordered)} of "
        f"{len(ordered)} within 0.3 s"
    )


def rate_once(run: Callable[[], Any]) -> float:
    """The CPU seconds one call takes."""
    start = time.process_time()
    run()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement and round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    keep_freed_memory()  # as `judge serve`, where the pictures are drawn, does (judge/heap.py)
    run_case(opening_case())  # the adjudication path imported, to ask how it was loaded
    compiled = [m for m in COMPILED_MODULES if is_compiled(m)]
    build = f"compiled ({len(compiled)} modules)" if compiled else "plain Python"
    print(f"adjudication path: {build} {PURE_PYTHON_REASON or ''}".rstrip())
    for name, case in phases():
        work = measures(case)
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            for what, run in work.items():
                best[what] = max(best.get(what, 0.0), rate(run, args.seconds))
        adjudications = best["adjudication"]
        print(f"\n{name}: {adjudications:,.0f} adjudications/s")
        for what in (
            "the sources kept for 9 readers",
            "SVG",
            "SVG, nothing kept",
            "SVG for every reader",
            "PNG from SVG",
            "PNG of a player's picture",
            "SVG and PNG",
        ):
            cost = adjudications / best[what]
            verdict = "within" if cost < 10 else "over"
            if what.startswith("the sources"):
                print(f"  {what} (in the processor's transaction): {cost:,.2f} adjudications")
                continue
            if what.startswith("PNG"):
                print(
                    f"  {what}: {1000 / best[what]:,.0f} ms a picture ({cost:,.1f} adjudications)"
                )
                continue
            print(
                f"  {what}: {best[what]:,.1f} pictures/s, one costs {cost:,.1f} adjudications "
                f"({verdict} the target of 10)"
            )
        each = each_readers_png(case)
        if each:
            print(each)
    stream = world_stream()
    if stream:
        work = stream_measures(stream)
        best = {}
        for _ in range(args.rounds):
            for what, run in work.items():
                best[what] = max(best.get(what, 0.0), rate(run, args.seconds))
        cost = best["adjudication"] / best["SVG for every reader"]
        verdict = "within" if cost < 10 else "over"
        print(
            f"\n{WORLD}, a stream of {len(stream)} phases from the opening: every reader's SVG "
            f"of a phase costs {cost:,.1f} adjudications of it ({verdict} the target of 10)"
        )


if __name__ == "__main__":
    main()
