"""The movement resolver of this checkout against another checkout's, interleaved in one process.

    git archive COMMIT | tar -x -C /tmp/other
    JUDGE_PURE_PYTHON=1 .venv/bin/python bench/resolve_ab.py --other /tmp/other [--rounds 7]

Times `resolve_movement` alone on bench/adjudicate.py's opening and mid-game phases (orders read
once), the two modules taking turns round after round so that the machine's noise falls on both;
prints each side's median round and their ratio. For a change to judge/engine/resolve.py that
must leave the standard game's path as it was (Mercenary's tie-breaker hook).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import adjudicate as phases  # noqa: E402

import judge.engine.resolve as here  # noqa: E402
from judge.adjudicate_json import read_variant_case  # noqa: E402


def _other_resolver(checkout: Path) -> ModuleType:
    """The other checkout's resolve.py, loaded beside this one (its imports are this one's)."""
    spec = importlib.util.spec_from_file_location(
        "other_resolve", checkout / "judge" / "engine" / "resolve.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["other_resolve"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _median_us(module: Any, args: tuple[Any, ...], count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        module.resolve_movement(*args)
    return (time.perf_counter() - started) / count * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the other checkout")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--count", type=int, default=3000, help="phases a round")
    options = parser.parse_args()
    other = _other_resolver(options.other)
    for name, case in (("opening", phases.opening_case()), ("mid-game", phases.midgame_case())):
        checked = read_variant_case(case)
        read = checked.variant.language.read_orders(checked.game_map, checked.orders)
        args = (checked.game_map, checked.position, read.orders, checked.rules)
        times: dict[str, list[float]] = {"here": [], "other": []}
        for number in range(options.rounds):
            sides = [("here", here), ("other", other)]
            for label, module in sides if number % 2 == 0 else sides[::-1]:
                times[label].append(_median_us(module, args, options.count))
        mine = sorted(times["here"])[options.rounds // 2]
        theirs = sorted(times["other"])[options.rounds // 2]
        print(
            f"{name}: resolve_movement, median of {options.rounds} rounds: this checkout "
            f"{mine:.1f} µs, the other {theirs:.1f} µs, ratio {mine / theirs:.3f}"
        )


if __name__ == "__main__":
    main()
