"""The store's tests run on both backends: the `database_url` fixture of tests/conftest.py hands
out a fresh SQLite file or a fresh database on the session's real PostgreSQL server.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine

from judge import clock
from judge.store import make_engine, upgrade


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    """An engine on a database brought up to the newest schema."""
    made = make_engine(database_url)
    upgrade(made)
    yield made
    made.dispose()


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    """Every test starts and ends with the clock following real time."""
    clock.reset()
    yield
    clock.reset()
