"""The desk's shared fixtures: a SQLite store with the clock set (`engine`) and a started
standard game (`started`), defined beside the games-by-mail tests and used by the deadline tests.
"""

from test_games_by_mail import engine, started

__all__ = ["engine", "started"]
