"""What suggesting a name for a mistyped one costs (judge.language.spelling), beside the plain
similarity ratio (difflib) it replaced, in one run.

    .venv/bin/python bench/suggestions.py [--seconds 2]

Only an order or command the judge cannot read pays for a suggestion. Measured here: the
nearest provinces of the standard map for a set of realistic typos and for random garbage words
(a hostile mail's worst case: nothing near, every name looked at), each uncached; and the
nearest commands for mistyped command words. Figures go to docs/PERFORMANCE.md with the
command above, as ratios to difflib in the same run.
"""

from __future__ import annotations

import argparse
import difflib
import random
import string
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.language.commands import COMMAND_SPELLINGS, suggest_commands  # noqa: E402
from judge.language.names import compact  # noqa: E402
from judge.language.spelling import nearest  # noqa: E402
from judge.map_files import load_map  # noqa: E402

TYPOS = (
    "Galicya", "Trisete", "Tuscanny", "Nrth Sea", "Holkand", "Gascogne", "Ioanian",
    "Sevastapol", "Edinborough", "Mid Atlantik", "Bohmeia", "Englsh Channel",
)  # fmt: skip
COMMAND_TYPOS = ("SINGON", "PORCESS", "SUMARY", "HISOTRY", "BRODCAST", "SET DEDLINE")


def per_call(function: object, words: list[str], seconds: float) -> float:
    """Seconds per call of `function` over `words`, best of the run's rounds."""
    best = float("inf")
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        for word in words:
            function(word)  # type: ignore[operator]
        best = min(best, (time.perf_counter() - start) / len(words))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    game_map = load_map("standard")
    pool: dict[str, str] = {}
    spelled: list[str] = []
    for code, province in game_map.provinces.items():
        pool[compact(code)] = code
        spelled.append(code)
        for name in (province.name, *province.aliases):
            pool.setdefault(compact(name), code)
            spelled.append(name.lower())
    random.seed(1)
    garbage = [
        "".join(random.choice(string.ascii_lowercase) for _ in range(random.randint(4, 12)))
        for _ in range(200)
    ]
    glued = [s.replace(" ", "") for s in COMMAND_SPELLINGS]
    rows = [
        (
            "province typos",
            per_call(lambda w: nearest(compact(w), pool, prefix=True), list(TYPOS), args.seconds),
            per_call(
                lambda w: difflib.get_close_matches(w.lower(), spelled, n=6, cutoff=0.6),
                list(TYPOS),
                args.seconds,
            ),
        ),
        (
            "garbage words",
            per_call(lambda w: nearest(w, pool, prefix=True), garbage, args.seconds),
            per_call(
                lambda w: difflib.get_close_matches(w, spelled, n=6, cutoff=0.6),
                garbage,
                args.seconds,
            ),
        ),
        (
            "command typos",
            per_call(suggest_commands, list(COMMAND_TYPOS), args.seconds),
            per_call(
                lambda w: difflib.get_close_matches(w.replace(" ", ""), glued, n=3, cutoff=0.7),
                list(COMMAND_TYPOS),
                args.seconds,
            ),
        ),
    ]
    print(f"{'':16}{'spelling':>12}{'difflib':>12}{'ratio':>8}")
    for name, ours, theirs in rows:
        print(f"{name:16}{ours * 1e6:>10.0f}µs{theirs * 1e6:>10.0f}µs{ours / theirs:>8.1f}")


if __name__ == "__main__":
    main()
