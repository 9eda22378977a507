"""End-to-end fixtures: `judge serve` children wired to the private mail servers.

The daemon reads its mail from a fresh IMAP account (or takes it on its own SMTP listener) and sends
its replies through the private Postfix, so a test sees exactly what a player would: mail in the
player's IMAP mailbox.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import JudgeProcess
from scripted_game import played


@pytest.fixture
def judge_process(tmp_path: Path) -> Iterator[Callable[..., JudgeProcess]]:
    """Make `judge serve` children for a test; each is stopped when the test ends."""
    made: list[JudgeProcess] = []

    def make(sections: dict[str, dict[str, Any]], **options: Any) -> JudgeProcess:
        process = JudgeProcess(options.pop("directory", tmp_path), sections, **options)
        made.append(process)
        return process

    yield make
    for process in made:
        process.close()


@pytest.fixture
def scripted(
    mail_servers: Any,
    new_account: Callable[[], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., JudgeProcess],
) -> Callable[..., Any]:
    """`with scripted(GAME, "title") as (script, prefix):` plays a scripted game by mail on this
    test's store (scripted_game.played: every mail checked at the end, kept under tmp_path)."""

    def play(game: str, title: str) -> Any:
        return played(
            game,
            title,
            mail_servers=mail_servers,
            new_account=new_account,
            database_url=database_url,
            tmp_path=tmp_path,
            judge_process=judge_process,
        )

    return play
