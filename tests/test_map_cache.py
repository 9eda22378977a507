"""A board of maps/ read once is kept beside it as marshal data (judge/map_files.py), so the next
`judge adjudicate` starts without tomllib; the kept data serves only the very text it was read
from."""

from __future__ import annotations

import os
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge import map_files
from judge.map_files import board_cache_path, load_map, load_map_file, map_summary, maps_dir

WHERE = "maps/standard.toml"


@pytest.fixture
def board(tmp_path: Path) -> Path:
    folder = tmp_path / "maps"
    folder.mkdir()
    path = folder / "standard.toml"
    shutil.copy(maps_dir() / "standard.toml", path)
    return path


def _read(path: Path) -> dict[str, Any]:
    return map_files._cached_board_data(str(path), WHERE)


def _no_toml(text: str, where: str) -> dict[str, Any]:
    raise AssertionError("the TOML was read again")


def test_the_first_reading_keeps_the_data_and_the_next_reads_it(
    board: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = tomllib.loads(board.read_text(encoding="utf-8"))
    assert _read(board) == expected
    assert os.path.isfile(board_cache_path(str(board)))
    monkeypatch.setattr(map_files, "_toml_data", _no_toml)
    assert _read(board) == expected


def test_an_edited_board_is_read_again(board: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _read(board)
    text = board.read_text(encoding="utf-8")
    edited = text.replace(f'title = "{first["map"]["title"]}"', 'title = "Edited"', 1)
    assert edited != text
    board.write_text(edited, encoding="utf-8")
    assert _read(board)["map"]["title"] == "Edited"
    monkeypatch.setattr(map_files, "_toml_data", _no_toml)  # the new text was kept in its turn
    assert _read(board)["map"]["title"] == "Edited"


def test_a_damaged_cache_is_read_past_and_written_again(board: Path) -> None:
    expected = _read(board)
    cache = Path(board_cache_path(str(board)))
    for damage in (b"", b"not marshal data", cache.read_bytes()[:100]):
        cache.write_bytes(damage)
        assert _read(board) == expected
        assert cache.read_bytes() not in (b"", b"not marshal data")


def test_a_folder_that_cannot_be_written_reads_the_toml_every_time(board: Path) -> None:
    (board.parent / "__pycache__").write_text("a file where the folder would go")
    expected = tomllib.loads(board.read_text(encoding="utf-8"))
    assert _read(board) == expected
    assert _read(board) == expected
    assert not [p for p in board.parent.iterdir() if p.name.endswith(".tmp")]


def test_load_map_gives_the_board_the_toml_gives() -> None:
    cached = load_map.__wrapped__("standard")  # type: ignore[attr-defined]
    again = load_map.__wrapped__("standard")  # type: ignore[attr-defined]
    direct = load_map_file(maps_dir() / "standard.toml")
    assert cached == direct == again
    assert map_summary(cached) == map_summary(direct)
