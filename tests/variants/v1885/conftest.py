"""1885's tests by mail use the desk's fixtures: a SQLite store with the clock set."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))

from test_games_by_mail import engine  # noqa: E402

__all__ = ["engine"]
