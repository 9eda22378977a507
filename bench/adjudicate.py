"""Phases adjudicated per second, end to end, beside the MILA adjudicator in the same run.

    .venv/bin/pip install -e '.[bench]'      # MILA's adjudicator (PyPI `diplomacy`): required
    .venv/bin/python bench/adjudicate.py [--seconds 3] [--rounds 5] [--games 300] [--other DIR]

Both sides do the same work per phase: set up the position (the phase, units and centres), take
every order as text, process. First a stream of different phases: every movement phase of
`--games` random games played by MILA (bench/random_games.py; made once, kept in bench/.cache),
`judge adjudicate --batch` over the whole stream as one process (start-up included) against MILA
over the same phases; with `--other`, another build's command on the same stream in the same
rounds. Then two fixed phases (an opening and a mid-game), ours as the command over copies of
the phase, as the command on the plain Python source (JUDGE_PURE_PYTHON) where the install
compiled it, with `--jobs`, and as its per-line function in this process (JSON text in, JSON
text out); MILA in this process. Then order lines read per second and a crowded Mercator month
in mid-game phases. Without MILA installed the run stops and says how to install it: every
figure is a ratio to MILA's in the same run. Figures go to docs/PERFORMANCE.md with the command.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge import PURE_PYTHON_REASON  # noqa: E402
from judge.cli_adjudicate import batch_output  # noqa: E402
from judge.compiled import COMPILED_MODULES, PURE_ENV, is_compiled  # noqa: E402
from judge.language.orders import parse_order  # noqa: E402
from judge.map_files import load_map, start_case  # noqa: E402

OPENING_ORDERS = {
    "AUSTRIA": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    "FRANCE": ["A Par - Bur", "A Mar - Spa", "F Bre - Mao"],
    "GERMANY": ["A Ber - Kie", "A Mun - Ruh", "F Kie - Den"],
    "ITALY": ["A Ven H", "A Rom - Apu", "F Nap - Ion"],
    "RUSSIA": ["A War - Gal", "A Mos - Ukr", "F Sev - Bla", "F Stp/sc - Bot"],
    "TURKEY": ["F Ank - Bla", "A Con - Bul", "A Smy - Arm"],
}

MIDGAME_UNITS = {
    "AUSTRIA": ["A ser", "A bud", "A gal", "F gre", "F aeg", "A bul"],
    "ENGLAND": ["F nth", "F eng", "A yor", "F nwy", "F bar", "A edi"],
    "FRANCE": ["A bur", "A pic", "F mao", "F wes", "A gas", "A mar"],
    "GERMANY": ["A ruh", "A mun", "A kie", "F hol", "F den"],
    "ITALY": ["F tys", "F ion", "A tun", "A pie", "A ven"],
    "RUSSIA": ["A war", "A ukr", "A sev", "F bla", "F swe", "A stp"],
    "TURKEY": ["A rum", "A con", "F eas", "A arm", "F ank"],
}
MIDGAME_CENTERS = {
    "AUSTRIA": ["bud", "vie", "tri", "ser", "gre", "bul"],
    "ENGLAND": ["lon", "lvp", "edi", "nwy", "swe"],
    "FRANCE": ["par", "mar", "bre", "spa", "por", "bel"],
    "GERMANY": ["ber", "kie", "mun", "hol", "den"],
    "ITALY": ["rom", "nap", "ven", "tun"],
    "RUSSIA": ["mos", "war", "sev", "stp"],
    "TURKEY": ["ank", "con", "smy", "rum"],
}
MIDGAME_ORDERS = {
    "AUSTRIA": [
        "A Ser S A Rum",
        "A Bud S A Rum",
        "A Gal - War",
        "F Gre S F Aeg",
        "F Aeg H",
        "A Bul - Con",
    ],
    "ENGLAND": [
        "F Nth C A Yor - Bel",
        "A Yor - Bel",
        "F Eng S A Yor - Bel",
        "F Nwy H",
        "F Bar S F Nwy",
        "A Edi - Yor",
    ],
    "FRANCE": [
        "A Pic - Bel",
        "A Bur S A Pic - Bel",
        "F Mao - Eng",
        "F Wes - Tys",
        "A Gas - Bre",
        "A Mar S A Bur",
    ],
    "GERMANY": ["A Ruh - Bel", "F Hol S A Ruh - Bel", "A Mun - Bur", "A Kie - Mun", "F Den - Ska"],
    "ITALY": ["F Ion C A Tun - Gre", "A Tun - Gre", "F Tys - Wes", "A Pie - Mar", "A Ven - Tri"],
    "RUSSIA": [
        "A Ukr - Rum",
        "A Sev S A Ukr - Rum",
        "F Bla S A Ukr - Rum",
        "A War - Gal",
        "F Swe - Ska",
        "A Stp - Nwy",
    ],
    "TURKEY": ["A Rum H", "A Con - Bul", "F Eas - Aeg", "A Arm - Sev", "F Ank - Bla"],
}


def opening_case() -> dict[str, Any]:
    case = start_case(load_map("standard"))
    case["orders"] = OPENING_ORDERS
    return case


def midgame_case() -> dict[str, Any]:
    units = []
    for power, compact in MIDGAME_UNITS.items():
        for unit in compact:
            kind, loc = unit.split()
            units.append({"power": power, "type": kind, "loc": loc})
    return {
        "variant": "standard",
        "phase": "F1905M",
        "units": units,
        "centers": MIDGAME_CENTERS,
        "orders": MIDGAME_ORDERS,
    }


def rate(
    work: Callable[[], Any], seconds: float, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Calls per second of `work` over about `seconds` of wall time (or of `clock`'s)."""
    work()
    count, start = 0, clock()
    while True:
        work()
        count += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return count / elapsed


def require_mila() -> None:
    """Stop the run, saying how to install it, where MILA's adjudicator is missing: every
    figure here is a ratio to it, taken in the same run."""
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        raise SystemExit(
            "bench/adjudicate.py measures MILA's adjudicator (PyPI `diplomacy`) in the same run "
            "and it is not installed: .venv/bin/pip install -e '.[bench]'"
        ) from None


def mila_setup(case: dict[str, Any]) -> Callable[[], Any]:
    """MILA's work for one case: a game set to the case's phase, units and centres, the
    orders given as text (in MILA's notation), the phase processed."""
    from diplomacy import Game
    from random_games import mila

    units: dict[str, list[str]] = {}
    for u in case["units"]:
        units.setdefault(u["power"], []).append(f"{u['type']} {u['loc'].upper()}")
    centers = {p: [c.upper() for c in cs] for p, cs in case.get("centers", {}).items()}
    orders = {p: [mila(o.upper()) for o in lines] for p, lines in case["orders"].items()}
    phase = case["phase"]

    def run() -> Any:
        game = Game()
        if phase != "S1901M":
            game.set_current_phase(phase)
        game.clear_units()
        for power, us in units.items():
            game.set_units(power, us, reset=True)
        if centers:
            game.clear_centers()
            for power, cs in centers.items():
                game.set_centers(power, cs, reset=True)
        for power, lines in orders.items():
            game.set_orders(power, lines)
        game.process()
        return game

    return run


def mila_stream(cases: list[dict[str, Any]]) -> float:
    """Phases a second of MILA's set-up, orders and processing over every case of a stream."""
    runs = [mila_setup(case) for case in cases]  # the cases turned into MILA's notation first
    start = time.perf_counter()
    for run in runs:
        run()
    return len(runs) / (time.perf_counter() - start)


def ours_in_process(case: dict[str, Any]) -> Callable[[], Any]:
    line = json.dumps(case)
    assert '"results"' in batch_output(line, None, None)

    def run() -> str:
        return batch_output(line, None, None)

    return run


def ours_as_command(
    case: dict[str, Any], count: int, jobs: int = 1, pure_python: bool = False
) -> float:
    """Phases a second of `judge adjudicate --batch [--jobs N]` over `count` copies of the case
    (with `pure_python`, the adjudication path's source rather than its compiled build)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        line = json.dumps(case)
        for _ in range(count):
            f.write(line + "\n")
        path = Path(f.name)
    try:
        return command_rate(path, count, jobs=jobs, pure_python=pure_python)
    finally:
        path.unlink()


def command_rate(
    path: Path, count: int, *, jobs: int = 1, pure_python: bool = False, checkout: Path = ROOT
) -> float:
    """Phases a second of `judge adjudicate --batch [--jobs N]` over the `count` lines of
    `path`, process start-up included; `checkout`: the judge of another checkout (its source
    imported ahead of the installed one, as `python -m` run in its folder does)."""
    # The results go to a file, as a batch run's usually do: through a pipe the benchmark's own
    # reading (about 15 MB a run) would compete with the command for this machine's two cores.
    with tempfile.TemporaryFile("w+") as out:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "judge.cli", "adjudicate", "--batch", "--jobs", str(jobs)]
            + [str(path)],
            cwd=checkout,
            stdout=out,
            check=True,
            env={**os.environ, PURE_ENV: "1"} if pure_python else None,
        )
        elapsed = time.perf_counter() - start
        out.seek(0)
        assert '"results"' in out.readline()
        assert 1 + sum(1 for _ in out) == count
        return count / elapsed


def parse_rate(seconds: float) -> float:
    game_map = load_map("standard")
    lines = [
        line for case in (OPENING_ORDERS, MIDGAME_ORDERS) for ls in case.values() for line in ls
    ]
    lines += [
        "A Paris -> Burgundy",
        "army paris move to burgundy",
        "F North Sea convoys A London - Norway",
        "A Lon-Nwy via convoy",
        "F(ENC) - MAO",
        "Build F StP/NC",
        "F StP(nc) B",
        "waive",
        "F Nth D",
        "A Mun R Boh",
        "A Liverpool Supports F Edinburgh - Yorkshire",
    ]

    def run() -> None:
        for line in lines:
            parse_order(line, game_map)

    return rate(run, seconds) * len(lines)


def _keeper(best: dict[str, float]) -> Callable[[str, float], None]:
    """A function that keeps in `best` the highest value given for each key."""

    def keep(key: str, value: float) -> None:
        best[key] = max(best.get(key, 0.0), value)

    return keep


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time spent on each measurement")
    ap.add_argument("--batch-count", type=int, default=5000, help="phases fed to the command")
    ap.add_argument("--rounds", type=int, default=5, help="alternating rounds per side")
    ap.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        help="worker processes for the extra `--batch --jobs N` figure (default: the cores)",
    )
    ap.add_argument(
        "--games",
        type=int,
        default=300,
        help="random games whose every movement phase makes the stream (bench/random_games.py)",
    )
    ap.add_argument(
        "--other",
        type=Path,
        help="another build of the judge (a checkout, or an unpacked wheel of one): its command "
        "on the stream too, in each round beside this one's (JUDGE_PURE_PYTHON=1 for the "
        "whole run: both on their plain Python source)",
    )
    args = ap.parse_args()
    require_mila()
    print(
        f"command: python bench/adjudicate.py --seconds {args.seconds} "
        f"--batch-count {args.batch_count} --rounds {args.rounds} --jobs {args.jobs} "
        f"--games {args.games}"
        + (f" --other {args.other}" if args.other else "")
        + f"  ({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})"
    )
    # Bytecode for the judge's own modules, as `pip install` of a wheel writes it: where
    # PYTHONDONTWRITEBYTECODE is set (this project's machines set it) every start of the command
    # would otherwise compile them again. The MILA package is installed, so it has its bytecode.
    for checkout in [ROOT] + ([args.other] if args.other else []):
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(checkout / "judge")], check=True
        )
    import importlib

    import judge.adjudicate_json  # noqa: F401  (the group, imported as the command imports it)

    compiled = [m for m in COMPILED_MODULES if is_compiled(importlib.import_module(m).__name__)]
    if compiled:
        print(f"adjudication path: compiled by mypyc ({len(compiled)} modules, judge/compiled.py)")
    else:
        print(f"adjudication path: plain Python ({PURE_PYTHON_REASON or 'not compiled'})")
    stream_figures(args, bool(compiled))
    for name, case in (
        ("opening (22 units)", opening_case()),
        ("mid-game (39 units)", midgame_case()),
    ):
        # Rounds alternate between the sides and the best round of each is kept, so a burst of
        # load on this shared machine hurts neither side more than the other. Each round runs
        # every form of ours once: the command, the command on plain Python, with --jobs.
        best: dict[str, float] = {}
        keep = _keeper(best)
        for _ in range(args.rounds):
            keep("ours", rate(ours_in_process(case), args.seconds / args.rounds))
            keep("mila", rate(mila_setup(case), args.seconds / args.rounds))
            keep("command", ours_as_command(case, args.batch_count))
            if compiled:
                keep("pure", ours_as_command(case, args.batch_count, pure_python=True))
            if args.jobs > 1:
                keep("jobs", ours_as_command(case, args.batch_count, args.jobs))
        ours, command, mila = best["ours"], best["command"], best["mila"]
        print(
            f"{name}: ours {ours:,.0f}/s in process, {command:,.0f}/s as `judge adjudicate "
            f"--batch`; MILA {mila:,.0f}/s; ratio {command / mila:.1f}x (command), "
            f"{ours / mila:.1f}x (in process)"
        )
        if compiled:
            # The same command on the plain Python source: what an install without a compiler
            # runs (a separate figure).
            print(
                f"{name}: ours {best['pure']:,.0f}/s as `judge adjudicate --batch` on plain "
                f"Python; ratio {best['pure'] / mila:.1f}x"
            )
        if args.jobs > 1:
            # Several processes: a separate figure, never the only one (it needs free cores).
            jobs = best["jobs"]
            print(
                f"{name}: ours {jobs:,.0f}/s as `judge adjudicate --batch --jobs {args.jobs}`; "
                f"ratio {jobs / mila:.1f}x (command, {args.jobs} processes)"
            )
    print(f"order lines read: {parse_rate(args.seconds):,.0f}/s")
    # A crowded Mercator month (bench/mercator.py's, A/Fs in all three time scales) against the
    # mid-game movement phase, alternating rounds, in process: the target is a ratio.
    from mercator import month_case

    month, standard = ours_in_process(month_case()), ours_in_process(midgame_case())
    best = {"month": 0.0, "standard": 0.0}
    for _ in range(args.rounds):
        best["month"] = max(best["month"], rate(month, args.seconds / args.rounds))
        best["standard"] = max(best["standard"], rate(standard, args.seconds / args.rounds))
    print(
        f"Mercator month (36 units, TS1-TS3): {best['month']:,.0f} months/s in process; "
        f"a month costs {best['standard'] / best['month']:.2f} mid-game movement phases"
    )


def stream_figures(args: argparse.Namespace, compiled: bool) -> None:
    """Every movement phase of `args.games` random games (bench/random_games.py): the command
    over the stream, start-up included, against MILA over the same phases, alternating rounds."""
    from random_games import movement_phases

    path = movement_phases(args.games)
    with path.open(encoding="utf-8") as stream:
        cases = [json.loads(line) for line in stream]
    count = len(cases)
    best: dict[str, float] = {}
    keep = _keeper(best)
    for _ in range(args.rounds):
        keep("command", command_rate(path, count))
        keep("mila", mila_stream(cases))
        if compiled:
            keep("pure", command_rate(path, count, pure_python=True))
        if args.other:
            keep("other", command_rate(path, count, checkout=args.other))
    mila = best["mila"]
    label = f"stream of {count:,} movement phases of {args.games} random games"
    print(
        f"{label}: ours {best['command']:,.0f}/s as `judge adjudicate --batch` (start-up "
        f"included); MILA {mila:,.0f}/s; ratio {best['command'] / mila:.1f}x"
    )
    if "pure" in best:
        print(
            f"{label}: ours {best['pure']:,.0f}/s on plain Python; ratio {best['pure'] / mila:.1f}x"
        )
    if args.other:
        print(
            f"{label}: {args.other} {best['other']:,.0f}/s as its `judge adjudicate --batch`; "
            f"ratio {best['other'] / mila:.1f}x; this checkout / that one: "
            f"{best['command'] / best['other']:.2f}"
        )


if __name__ == "__main__":
    main()
