"""How many order lines a second the order parser reads, over a mix of the notations players use.

Run: .venv/bin/python bench/parse.py [--seconds N]
Each line is parsed afresh (the parser keeps no cache of whole lines), in a plain loop.
"""

from __future__ import annotations

import argparse
import sys
import time

import lark

from judge.language.orders import parse_order
from judge.map_files import load_map

# Weighted like real mail and test data: mostly short forms, then DATC's full names,
# then the longer spellings and the njudge forms.
MIX: list[str] = [
    "A PAR - BUR",
    "F NTH C A LON - NWY",
    "A BUR S A PAR - MAR",
    "A VEN H",
    "F LON - NTH",
    "A MUN - RUH",
    "F STP/SC - BOT",
    "A TYR S A VEN",
    "A LON - NWY VIA CONVOY",
    "F Spain(nc) - Gascony",
    "F North Sea Convoys A London - Belgium",
    "A Liverpool Supports F Edinburgh - Yorkshire",
    "A Venice Hold",
    "A Munich Supports A Ruhr",
    "A Berlin - Prussia via Convoy",
    "F Mid-Atlantic Ocean - English Channel",
    "A Paris -> Burgundy",
    "army paris move to burgundy",
    "A Par-Bur",
    "F Nth Convoys A Lon-Nwy",
    "F Nwy S F Nth",
    "Par-Bur",
    "England: F Lon - Nth",
    "F(ENC) - MAO",
    "A Mun R Boh",
    "F Nth D",
    "Build F StP/NC",
    "F StP(nc) B",
    "waive",
    "Remove A Paris",
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="how long to run (default 3)")
    args = parser.parse_args(argv)
    game_map = load_map("standard")
    for line in MIX:  # warm up: builds the map's name table and parser, checks every line
        parse_order(line, game_map)
    lines = MIX * 100
    rates: list[float] = []
    count = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        round_start = time.perf_counter()
        for line in lines:
            parse_order(line, game_map)
        rates.append(len(lines) / (time.perf_counter() - round_start))
        count += len(lines)
    elapsed = time.perf_counter() - start
    print(f"command: {' '.join([sys.executable.rsplit('/', 1)[-1], *sys.argv])}")
    print(
        f"python {sys.version.split()[0]}, lark {lark.__version__}, {len(MIX)} notations, "
        f"{count} lines in {elapsed:.2f} s, {len(rates)} rounds"
    )
    print(f"{count / elapsed:,.0f} order lines parsed per second (mean)")
    print(f"{max(rates):,.0f} order lines parsed per second (best round: least disturbed)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
