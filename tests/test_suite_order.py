"""tests/long_files.py's LONG_FIRST names files that exist: a long file renamed or moved would
otherwise drop silently to its collection place and lengthen the suite's end again."""

from __future__ import annotations

from pathlib import Path

from tests.long_files import LONG_FIRST

ROOT = Path(__file__).resolve().parent.parent


def test_every_long_file_named_exists() -> None:
    missing = [path for path in LONG_FIRST if not (ROOT / path).is_file()]
    assert not missing, missing
    assert len(set(LONG_FIRST)) == len(LONG_FIRST)
