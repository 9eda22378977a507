"""The pictures' fixtures: the desk's SQLite store with the clock set (`engine`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desk"))

from test_games_by_mail import engine  # noqa: E402

__all__ = ["engine"]
