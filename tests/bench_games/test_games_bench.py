"""bench/games.py runs end to end with tiny numbers, so the benchmark cannot rot unnoticed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_games_benchmark_processes_every_game_and_queues_every_mail() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "games.py"), "--games", "5", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    figures = json.loads(out.strip().splitlines()[-1])
    assert figures["games"] == 5
    # Seven players and the GM get results; the one power with no orders misses a move, so the
    # GM hears of it, the six others are asked for a replacement and the power's own player is
    # told one is sought.
    assert figures["mails_by_kind"] == {"results": 40, "missed_turn": 5, "replacement_sought": 35}
    assert figures["seconds"] > 0 and len(figures["round_seconds"]) == 2
