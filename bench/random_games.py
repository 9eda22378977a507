"""Movement phases of random standard games played by MILA's adjudicator, as adjudicate cases.

    .venv/bin/python bench/random_games.py [--games 300] [--seed 1] [--years 12]

Each game starts at Spring 1901 and every unit gets an order drawn at random from the orders
MILA lists as possible for it (moves twice as often as any other kind, so that the board
changes), retreats and adjustments the same way, until the game ends or `--years` have passed.
Every movement phase is kept as a case of docs/ADJUDICATE.md: the phase, the units, the centres
and each power's orders in MILA's notation ("A PAR - BUR", "F STP/SC S A MOS - SEV",
"A LON - NWY VIA CONVOY": MILA's bare "VIA" is not this judge's notation, and
bench/adjudicate.py gives MILA its own back). The stream is written once to bench/.cache/ (not in git) and read from
there by later runs with the same settings; bench/adjudicate.py measures both adjudicators on it.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

CACHE = Path(__file__).resolve().parent / ".cache"


def _unit(power: str, text: str) -> dict[str, str]:
    kind, loc = text.lstrip("*").split()
    return {"power": power, "type": kind, "loc": loc.lower()}


def ours(line: str) -> str:
    """A MILA order line in this judge's notation (a convoyed move says "via convoy")."""
    return line + " CONVOY" if line.endswith(" VIA") else line


def mila(line: str) -> str:
    """One of the stream's order lines in MILA's notation."""
    return line.removesuffix(" CONVOY") if line.endswith(" VIA CONVOY") else line


def _pick(rng: random.Random, possible: list[str]) -> str:
    moves = [o for o in possible if " - " in o and " S " not in o and " C " not in o]
    if moves and rng.random() < 0.5:
        return rng.choice(moves)
    return rng.choice(possible)


def _orders(game: Any, rng: random.Random) -> dict[str, list[str]]:
    """An order drawn for every orderable location of every power (a unit left without one now
    and then); an adjustment phase's builds are capped by what is due."""
    possible = game.get_all_possible_orders()
    orders: dict[str, list[str]] = {}
    for power in game.powers:
        chosen = []
        for loc in game.get_orderable_locations(power):
            options = [o for o in possible.get(loc, []) if o != "WAIVE"]
            if options and rng.random() > 0.03:
                chosen.append(_pick(rng, options))
        if game.phase_type == "A":
            due = len(game.get_centers(power)) - len(game.get_units(power))
            chosen = chosen[: max(0, due)] if due >= 0 else chosen
        orders[power] = chosen
    return orders


def play(seed: int, years: int) -> list[dict[str, Any]]:
    """The movement phases of one random game, as cases, its orders included."""
    from diplomacy import Game

    rng = random.Random(seed)
    game = Game()
    cases: list[dict[str, Any]] = []
    last_year = 1900 + years
    while not game.is_game_done:
        phase = game.get_current_phase()
        if int(phase[1:5]) > last_year:
            break
        orders = _orders(game, rng)
        if game.phase_type == "M":
            cases.append(
                {
                    "variant": "standard",
                    "phase": phase,
                    "units": [
                        _unit(power, u) for power in game.powers for u in game.get_units(power)
                    ],
                    "centers": {
                        power: [c.lower() for c in game.get_centers(power)]
                        for power in game.powers
                        if game.get_centers(power)
                    },
                    "orders": {
                        power: [ours(line) for line in lines]
                        for power, lines in orders.items()
                        if lines
                    },
                }
            )
        for power, lines in orders.items():
            game.set_orders(power, lines)
        game.process()
    return cases


def stream_path(games: int, seed: int, years: int) -> Path:
    return CACHE / f"random-games-{games}-seed{seed}-{years}y.jsonl"


def movement_phases(games: int = 300, seed: int = 1, years: int = 12) -> Path:
    """The JSON-lines file of every movement phase of `games` random games (made once)."""
    path = stream_path(games, seed, years)
    if path.exists():
        return path
    CACHE.mkdir(exist_ok=True)
    partial = path.with_suffix(".partial")
    with partial.open("w", encoding="utf-8") as out:
        for number in range(games):
            for case in play(seed * 1_000_003 + number, years):
                out.write(json.dumps(case, separators=(",", ":")) + "\n")
    partial.rename(path)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--years", type=int, default=12, help="a game stops after this many years")
    args = ap.parse_args()
    path = movement_phases(args.games, args.seed, args.years)
    with path.open(encoding="utf-8") as stream:
        count = sum(1 for _ in stream)
    print(f"{path}: {count:,} movement phases of {args.games} random games")


if __name__ == "__main__":
    main()
