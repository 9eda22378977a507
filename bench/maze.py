"""Generating Algernon mazes: the time to generate and check a fair maze for N players.

    .venv/bin/python bench/maze.py [--players 20] [--repeats 20]

Each repeat generates a maze from a new seed (judge.variants.algernon.generator.generate_maze:
the layout, random extra portals, ids, the board check and the fairness check, drawing again
while unfair) and builds its board. The target (issue 12) is a 20-player maze in under a second.
Figures go to docs/PERFORMANCE.md with the command above.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.variants.algernon.generator import fairness, generate_maze  # noqa: E402
from judge.variants.algernon.maze import maze_board  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    for players in sorted({2, 7, 12, args.players}):
        times = []
        for seed in range(args.repeats):
            start = time.perf_counter()
            board = maze_board(generate_maze(players, f"bench{seed}"))
            times.append(time.perf_counter() - start)
            assert not fairness(board).problems
        print(
            f"{players:2d} players: {len(board.provinces):3d} spaces, "
            f"median {statistics.median(times) * 1000:.1f} ms, worst {max(times) * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
