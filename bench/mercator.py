"""A crowded Mercator month against standard movement phases, in one run.

    .venv/bin/python bench/mercator.py [--seconds 3] [--rounds 3]

The month has army/fleets at work in all three time scales (landings with the carrier's
support, boardings, a fast ferry, an extended convoy, moves and supports of A/Fs, embarkations,
disembarkations and supplementary moves) on the standard board, 36 units; the standard phase
is bench/adjudicate.py's mid-game movement phase (39 units, supports, a convoy). Both go
through the same per-line function as `judge adjudicate --batch` (JSON text in, JSON text out).
The target (issue: a month costs no more than about three standard movement phases) is a ratio,
so both are measured in the same run, each round alternating, the best round of each kept.
Figures go to docs/PERFORMANCE.md with the command above.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from adjudicate import midgame_case, ours_in_process, rate  # noqa: E402

from judge import PURE_PYTHON_REASON  # noqa: E402
from judge.cli_adjudicate import batch_output  # noqa: E402

MONTH_UNITS = {
    "ENGLAND": ["AF eng", "A lon", "F nth", "A yor", "F iri", "AF nwg"],
    "FRANCE": ["A par", "A bur", "F mao", "A gas", "F bre", "AF wes"],
    "GERMANY": ["AF hel", "A kie", "A mun", "F bal", "A ber", "A ruh"],
    "ITALY": ["F tys", "A ven", "AF ion", "A rom", "A pie"],
    "AUSTRIA": ["A vie", "A bud", "F tri", "A ser", "A gal"],
    "RUSSIA": ["F bot", "A war", "A mos", "F sev", "A ukr"],
    "TURKEY": ["F bla", "A con", "A smy", "AF aeg"],
}
MONTH_ORDERS = {
    "ENGLAND": [
        "TS1",
        "A(ENC) L Pic",
        "F(ENC) S A(ENC) L Pic",
        "A(Yor) B F(NTH)",
        "A(NWG) L Nwy",
        "TS2",
        "F(NTH) F/F A(Yor) - Hol",
        "F(IRI) - MAO",
        "F(NWG) - NAO",
        "TS3",
        "A(Lon) E F(ENC)",
        "A/F(ENC) - NTH",
    ],
    "FRANCE": [
        "TS1",
        "A(WES) L Spa",
        "A(Gas) B F(MAO)",
        "TS2",
        "A/F(MAO) S F(Bre) - ENC",
        "F(Bre) - ENC",
        "A(Par) - Pic",
        "A(Bur) S A(Par) - Pic",
        "F(WES) - Tun",
        "TS3",
        "A(MAO) D Por",
        "F(MAO) - NAO",
    ],
    "GERMANY": [
        "TS1",
        "A(HEL) L Hol",
        "A(Kie) B F(BAL)",
        "TS2",
        "A(Mun) - Bur",
        "A(Ruh) S A(Mun) - Bur",
        "A(Ber) - Kie",
        "A/F(BAL) H",
        "TS3",
        "A(BAL) D Pru",
        "F(BAL) - Bot",
    ],
    "ITALY": [
        "TS1",
        "A(Rom) B F(TYS)",
        "A(ION) L Tun",
        "TS2",
        "F(ION) - Eas",
        "A/F(TYS) - Wes",
        "A(Ven) - Tri",
        "A(Pie) - Tyr",
        "TS3",
        "A(WES) D Naf",
    ],
    "AUSTRIA": [
        "TS2",
        "A(Vie) - Gal",
        "A(Gal) - Ukr",
        "F(Tri) H",
        "A(Bud) S F(Tri)",
        "A(Ser) - Bul",
    ],
    "RUSSIA": [
        "TS2",
        "A(War) - Gal",
        "A(Ukr) S A(War) - Gal",
        "F(Sev) - Rum",
        "A(Mos) - Sev",
        "F(BOT) - Bal",
    ],
    "TURKEY": [
        "TS1",
        "A(AEG) L Gre",
        "A(Con) B F(BLA)",
        "TS2",
        "A/F(BLA) H",
        "F(AEG) H",
        "TS3",
        "A(BLA) D Rum",
        "A(Smy) E F(AEG)",
        "A/F(AEG) - Eas",
    ],
}


def month_case() -> dict[str, Any]:
    units = []
    for power, compact in MONTH_UNITS.items():
        for unit in compact:
            kind, loc = unit.split()
            units.append({"power": power, "type": kind, "loc": loc})
    return {
        "variant": "mercator",
        "map": "standard",
        "phase": "MAR1905M",
        "units": units,
        "orders": MONTH_ORDERS,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    month_line = json.dumps(month_case())
    out = json.loads(batch_output(month_line, None, None))
    scales = sorted({r.get("time_scale", 0) for rs in out["results"].values() for r in rs})
    assert scales == [1, 2, 3], f"the month must work in all three time scales: {scales}"
    month = ours_in_process(month_case())
    standard = ours_in_process(midgame_case())
    best = {"month": 0.0, "standard": 0.0}
    for _ in range(args.rounds):
        best["month"] = max(best["month"], rate(month, args.seconds))
        best["standard"] = max(best["standard"], rate(standard, args.seconds))
    build = "plain Python" if PURE_PYTHON_REASON else "compiled"
    print(f"build: {build}")
    print(f"Mercator month (36 units, TS1-TS3): {best['month']:,.0f} months/s")
    print(f"standard mid-game movement phase (39 units): {best['standard']:,.0f} phases/s")
    print(f"a month costs {best['standard'] / best['month']:.2f} standard movement phases")
    counts: dict[str, int] = {}
    for rs in out["results"].values():
        for r in rs:
            counts[r["result"]] = counts.get(r["result"], 0) + 1
    print(f"the month's results: {counts}")


if __name__ == "__main__":
    main()
