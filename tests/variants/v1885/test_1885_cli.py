"""`judge map 1885` and `judge adjudicate` on a "variant": "1885" case, as a user runs them: the
January 1885 position from `--start`, Italy's Rome made a fleet, the result fed on."""

from __future__ import annotations

import json
import subprocess
import sys

JUDGE = [sys.executable, "-m", "judge.cli"]


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(JUDGE + args, input=stdin, capture_output=True, text=True, timeout=60)


def test_the_map_summary() -> None:
    proc = run(["map", "1885"])
    assert proc.returncode == 0, proc.stderr
    assert "23 of 45 supply centres win" in proc.stdout
    assert "SPAIN" in proc.stdout and "SWEDEN" in proc.stdout


def test_january_1885_from_the_start_position() -> None:
    proc = run(["map", "1885", "--start"])
    assert proc.returncode == 0, proc.stderr
    case = json.loads(proc.stdout)
    assert case["variant"] == "1885" and case["phase"] == "JAN1885M"
    case["orders"] = {
        "ITALY": ["Rome: Fleet", "F Rom - Tys"],
        "FRANCE": ["A Mar - Pie"],
        "SPAIN": ["F Val - WMed"],
    }
    proc = run(["adjudicate"], json.dumps(case))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [r["result"] for r in out["results"]["ITALY"]] == ["success", "success"]
    assert out["results"]["ITALY"][0]["reason"] == "revealed: a fleet"
    assert {"power": "ITALY", "type": "F", "loc": "tys"} in out["units_after"]
    assert out["next_phase"] == "FEB1885M"
    assert out["state_after"]["months"] == 1
    # The next case: Rome's choice is made once only.
    nxt = {
        "variant": "1885",
        "phase": out["next_phase"],
        "units": out["units_after"],
        "centers": out["centers_after"],
        "owners": out["owners_after"],
        "state": out["state_after"],
        "orders": {"ITALY": ["Rome: Army"]},
    }
    proc = run(["adjudicate"], json.dumps(nxt))
    assert proc.returncode == 0, proc.stderr
    again = json.loads(proc.stdout)
    assert again["results"]["ITALY"][0]["result"] == "illegal"


def test_rome_chosen_as_a_field_of_the_case() -> None:
    proc = run(["map", "1885", "--start"])
    case = json.loads(proc.stdout)
    case["state"] = {"chosen": {"rom": "F"}}
    case["orders"] = {"ITALY": ["F Rom - Tys"]}
    out = json.loads(run(["adjudicate"], json.dumps(case)).stdout)
    assert out["results"]["ITALY"][0]["result"] == "success"
    assert {"power": "ITALY", "type": "F", "loc": "tys"} in out["units_after"]
    assert out["state_after"]["chosen"] == {"rom": "F"}
    case["state"] = {"months": 1, "chosen": {"rom": "F"}}  # not the first move: no choice
    out = json.loads(run(["adjudicate"], json.dumps(case)).stdout)
    assert out["results"]["ITALY"][0]["result"] == "illegal"
