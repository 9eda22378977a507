"""What checking a power's orders on arrival costs (issue: at most 1 ms for a whole power).

    .venv/bin/python bench/check_orders.py [--seconds 2]

The desk checks each order line when it arrives with the engine's own checks
(judge.engine.resolve.never_succeeds: a move the unit cannot make, a support out of reach, a
convoy no route needs), one call per order, the position read once per mail. Measured here for
the opening's orders of each power and for the mid-game position of bench/adjudicate.py, every
power's orders in turn; the figure is the cost of one whole power's orders. Figures go to
docs/PERFORMANCE.md with the command above.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from adjudicate import OPENING_ORDERS, midgame_case  # noqa: E402

from judge import PURE_PYTHON_REASON  # noqa: E402
from judge.adjudicate_json import read_case  # noqa: E402
from judge.engine.resolve import never_succeeds  # noqa: E402
from judge.language.orders import parse_order  # noqa: E402
from judge.map_files import load_map, start_case  # noqa: E402


def per_power(case: dict, orders: dict[str, list[str]], seconds: float) -> float:
    """Seconds to check one power's orders, averaged over every power, best of the run."""
    game_map, position, _, rules = read_case(case)
    parsed = {p: [parse_order(o, game_map) for o in os_] for p, os_ in orders.items()}
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for power, power_orders in parsed.items():
            for order in power_orders:
                never_succeeds(game_map, position, power, order, rules)
            count += 1
    return (time.perf_counter() - start) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    build = "plain Python" if PURE_PYTHON_REASON else "compiled"
    opening = start_case(load_map("standard"))
    mid = midgame_case()
    print(f"build: {build}")
    print(
        f"opening, one power's orders: {per_power(opening, OPENING_ORDERS, args.seconds) * 1e6:.0f} µs"
    )
    print(
        f"mid-game, one power's orders: {per_power(mid, mid['orders'], args.seconds) * 1e6:.0f} µs"
    )


if __name__ == "__main__":
    main()
