"""The web tests' shared fixtures: the scripted games played once into a SQLite store, and the
pages' Site over it (read through the pages' own reading engine, as `judge serve` does)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from judge import clock
from judge.store import make_engine, upgrade
from judge.web.reading import reading_engine
from judge.web.site import Site
from tests.web import scripted


@pytest.fixture(scope="session")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, scripted.Scripted]]:
    """The store's URL and what the script played into it."""
    path = tmp_path_factory.mktemp("web") / "judge.sqlite3"
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    upgrade(engine)
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    try:
        found = scripted.play_all(engine)
    finally:
        clock.reset()
        engine.dispose()
    yield url, found


def make_site(url: str) -> Site:
    return Site(
        reading_engine(url),
        judge_name="Test Judge",
        judge_address="judge@example.org",
        domain="example.org",
    )


@pytest.fixture
def site(played: tuple[str, scripted.Scripted]) -> Iterator[Site]:
    made = make_site(played[0])
    yield made
    made.engine.dispose()


__all__ = ["played", "site", "make_site", "Path"]
