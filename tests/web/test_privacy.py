"""Every page of every scripted game against what an observer may know (privacy.py), and the
same check catching a page that shows a maze or a partial press line on purpose."""

from __future__ import annotations

from typing import Any

import pytest

from judge.store import make_engine
from tests.web import privacy
from tests.web.conftest import make_site
from tests.web.scripted import Scripted


def _all_leaks(url: str, found: Scripted) -> tuple[list[str], list[privacy.Shown]]:
    engine = make_engine(url)
    try:
        secrets = privacy.secrets_of(engine, found)
    finally:
        engine.dispose()
    site = make_site(url)
    try:
        pages = list(privacy.crawl(site))
    finally:
        site.engine.dispose()
    leaks = [leak for page in pages for leak in privacy.leaks(page, secrets)]
    return leaks, pages


def test_no_page_shows_what_an_observer_may_not_know(played: tuple[str, Scripted]) -> None:
    url, found = played
    leaks, pages = _all_leaks(url, found)
    assert leaks == []
    paths = {page.path for page in pages}
    # The crawl reached every game's pages, every phase played and every variant.
    for name in found.shown:
        assert {f"/games/{name}", f"/games/{name}/press", f"/games/{name}/feed"} <= paths
    assert "/games/alpha/S1901M" in paths and "/games/maze/F1901M" in paths
    assert {"/variants/standard", "/variants/algernon", "/variants/1885"} <= paths
    assert all(page.status == 200 for page in pages)
    text = "\n".join(page.body for page in pages)
    # What the public may read is there: white press signed, grey press, the players' names.
    for line in found.white_lines | found.grey_lines | found.names:
        if any(hidden.lower() in line.lower() for hidden in found.hidden):
            assert line not in text, line  # the hidden game's press and players: nowhere
        elif line in found.names and "Maze" in line:
            assert line not in text, line  # a secret board's seats are listed to nobody
        else:
            assert line in text, line


def test_a_hidden_game_has_no_pages(played: tuple[str, Scripted]) -> None:
    url, found = played
    site = make_site(url)
    try:
        for name in found.hidden:
            for tail in ("", "/press", "/feed", "/S1901M", "/S1901M?x"):
                assert site.respond(f"/games/{name}{tail}").status == 404
            # As any name that is no game: a hidden game's existence is not told.
            assert site.respond(f"/games/{name}").body == site.respond("/games/nosuch").body
    finally:
        site.engine.dispose()


def test_the_check_finds_a_maze_put_on_a_page(
    played: tuple[str, Scripted], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pictures drawn for the GM instead of the observers: the Algernon pages show the maze."""
    from judge.variants import MASTER
    from judge.web import pages

    monkeypatch.setattr(pages, "OBSERVERS", MASTER)
    leaks, _ = _all_leaks(*played)
    maze = [leak for leak in leaks if leak.startswith("/games/maze")]
    assert maze and any("unknown to" in leak for leak in maze)


def test_the_check_finds_partial_press_put_on_a_page(
    played: tuple[str, Scripted], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The observers' press view taking partial press too: its private lines are found."""
    from judge.desk import history

    def everyone(row: Any, power: Any, *, master: bool = False) -> bool:
        return True

    monkeypatch.setattr(history, "may_read", everyone)
    leaks, _ = _all_leaks(*played)
    assert any("PRIVATE-LINE-alpha" in leak for leak in leaks)
    assert any("PRIVATE-LINE-maze" in leak for leak in leaks)
