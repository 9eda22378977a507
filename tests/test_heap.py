"""`judge serve` keeps the memory it frees for its next allocations (judge/heap.py): a phase's
pictures, texts of 100 to 300 KB each, then reuse the same pages instead of asking the kernel
for new ones every time."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Twenty texts of about 150 KB made and dropped, fifty times over (a stream of phases' pictures),
# after a first round: the kernel's page faults counted.
PICTURES = """
import resource, sys
sys.path.insert(0, {root!r})
if {keep}:
    from judge.heap import keep_freed_memory
    assert keep_freed_memory()
def phases():
    for _ in range(50):
        pictures = ["x" * (150_000 + i) for i in range(20)]
        del pictures
phases()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
phases()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def faults(keep: bool) -> int:
    code = PICTURES.format(root=str(ROOT), keep=keep)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc")
def test_freed_pictures_pages_are_kept_for_the_next_ones() -> None:
    assert faults(keep=False) > 5_000  # every picture's pages asked of the kernel again
    assert faults(keep=True) < 500


def test_judge_serve_keeps_its_freed_memory_before_its_loops_start(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import judge.heap
    import judge.serve
    from judge.cli import main

    happened: list[str] = []
    monkeypatch.setattr(judge.heap, "keep_freed_memory", lambda: happened.append("kept") or True)

    class Daemon:
        def __init__(self, config: object, roles: object) -> None:
            pass

        def run(self) -> None:
            happened.append("loops")

    monkeypatch.setattr(judge.serve, "Daemon", Daemon)
    config = tmp_path / "judge.toml"
    config.write_text("")
    assert main(["serve", "--config", str(config)]) == 0
    assert happened == ["kept", "loops"]
