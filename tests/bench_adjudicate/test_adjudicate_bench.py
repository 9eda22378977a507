"""bench/adjudicate.py measures MILA's adjudicator in the same run or not at all, and
bench/random_games.py's stream reads in this judge as MILA plays it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import random_games  # noqa: E402


def test_without_mila_the_benchmark_stops_and_says_how_to_install_it(tmp_path: Path) -> None:
    # A `diplomacy` that cannot be imported, ahead of any installed one.
    (tmp_path / "diplomacy.py").write_text("raise ImportError('not here')\n")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "adjudicate.py"), "--seconds", "0.1"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        timeout=120,
    )
    assert done.returncode != 0
    assert "pip install -e '.[bench]'" in done.stderr
    assert "ratio" not in done.stdout


def test_the_stream_writes_convoyed_moves_as_this_judge_reads_them_and_mila_gets_its_own() -> None:
    assert random_games.ours("A LON - NWY VIA") == "A LON - NWY VIA CONVOY"
    assert random_games.mila("A LON - NWY VIA CONVOY") == "A LON - NWY VIA"
    assert random_games.ours("F NTH C A LON - NWY") == "F NTH C A LON - NWY"


def test_a_random_game_gives_readable_movement_phases_that_mila_and_this_judge_both_take() -> None:
    pytest.importorskip("diplomacy", reason="MILA's adjudicator: pip install -e '.[bench]'")
    from judge.adjudicate_json import run_case

    cases = random_games.play(seed=7, years=3)
    assert [c["phase"] for c in cases] == [f"{s}{y}M" for y in (1901, 1902, 1903) for s in "SF"]
    for case in cases:
        json.dumps(case)
        out = run_case(case)
        illegal = [
            r for lines in out["results"].values() for r in lines if "cannot read" in r["reason"]
        ]
        assert illegal == []
        assert out["next_phase"] != case["phase"]
