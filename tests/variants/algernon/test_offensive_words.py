"""Generated initials and space ids are checked against the package's list of offensive words:
seed 17 drew FUK as a seven-player maze's initials before the list, and draws none now."""

from __future__ import annotations

import pytest

from judge.variants.algernon import generator, offensive


def words_of(maze: dict) -> set[str]:  # type: ignore[type-arg]
    return {p.lower() for p in maze["powers"]} | set(maze["provinces"])


def test_seed_17_drew_fuk_without_the_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generator, "OFFENSIVE", frozenset())
    assert "FUK" in generator.generate_maze(7, 17)["powers"]


@pytest.mark.parametrize("seed", [3, 5, 10, 17])
def test_no_maze_uses_an_offensive_word(seed: int) -> None:
    for players in (3, 7):
        assert not words_of(generator.generate_maze(players, seed)) & offensive.OFFENSIVE
