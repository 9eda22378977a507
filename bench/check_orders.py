"""What checking a power's orders on arrival costs (issue: at most 1 ms for a whole power).

    .venv/bin/python bench/check_orders.py [--seconds 2]

The desk checks each order line when it arrives with the engine's own checks
(judge.engine.resolve.never_succeeds: a move the unit cannot make, a support out of reach, a
convoy no route needs), one call per order, the position read once per mail. Measured here for
the opening's orders of each power and for the mid-game position of bench/adjudicate.py, every
power's orders in turn; the figure is the cost of one whole power's orders. Figures go to
docs/PERFORMANCE.md with the command above.

Then the check every variant's orders go through on arrival, asked of the Variant record
(`check_orders`; judge/variants/order_checks.py): a whole power's orders at once, as the desk
gives them (the ones standing, then the new), for the standard game's opening and mid-game and
for Mercator's world board (a month of thirteen powers: time scale 2 moves and supports, a
time scale 3 move and a time scale 1 boarding where the power has a fleet at sea).
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
from judge.variants import start_case as variant_start  # noqa: E402
from judge.variants import variant  # noqa: E402
from judge.variants.order_checks import standard_order_problems  # noqa: E402


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


def per_power_by_record(
    case: dict, orders: dict[str, list[str]], seconds: float
) -> tuple[float, float]:
    """Seconds to check one power's orders through its variant record's `check_orders` (the
    whole list at once), averaged over the powers, and the worst power's."""
    found = variant(case.get("variant", "standard"))
    check = found.rules.check_orders or standard_order_problems
    game_map, position, _, rules = read_case(case)
    read = found.language.read_orders(game_map, orders).orders
    times: dict[str, float] = {}
    for power, values in read.items():
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / len(read):
            check(game_map, position, rules, power, values)
            count += 1
        times[power] = (time.perf_counter() - start) / count
    return sum(times.values()) / len(times), max(times.values())


def mercator_month() -> tuple[dict, dict[str, list[str]]]:
    """The world board's opening with a month of orders for every power: each unit's time
    scale 2 move to its first neighbour, a support of it by the next unit, and a fleet's time
    scale 3 move and an army's time scale 1 boarding where a fleet starts at sea."""
    from judge.engine.resolve import reachable

    case = variant_start("mercator")
    game_map, position, _, _ = read_case(case)
    names = {"A": "A", "F": "F", "AF": "A/F"}
    orders: dict[str, list[str]] = {}
    for power in game_map.powers:
        mine = [u for u in position.units if u.power == power]
        lines = ["TS2"]
        for i, unit in enumerate(mine):
            dest = reachable(game_map, unit)[0]
            lines.append(f"{names[unit.kind]}({unit.province}) - {dest}")
            if i + 1 < len(mine):
                other = mine[i + 1]
                lines.append(
                    f"{names[other.kind]}({other.province}) S {names[unit.kind]}({unit.province}) - {dest}"
                )
        seas = [
            u
            for u in mine
            if u.kind == "F" and game_map.provinces[u.province].terrain.value == "sea"
        ]
        if seas:
            lines += ["TS3", f"F({seas[0].province}) - {reachable(game_map, seas[0])[0]}"]
        orders[power] = lines
    return case, orders


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
    print("through the Variant record's check_orders, one whole power (average, worst):")
    for title, case, orders in (
        ("standard opening", opening, OPENING_ORDERS),
        ("standard mid-game", mid, mid["orders"]),
        ("Mercator world month", *mercator_month()),
    ):
        mean, worst = per_power_by_record(case, orders, args.seconds)
        print(f"  {title}: {mean * 1e6:.0f} µs, worst {worst * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
