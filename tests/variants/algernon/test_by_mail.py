"""An Algernon game by mail: CREATE for N players, the orders checked against each player's
knowledge, MAP, and the desk's other paths (LIST, SUMMARY, press, general orders) giving away
nothing of the maze or the powers a player has not met."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine

from judge import clock
from judge.store import session_scope
from judge.store.game_queries import find_game
from judge.variants.algernon import case_board
from tests.migrated import migrated_sqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

from tests.variants.algernon import leakcheck  # noqa: E402

GM = "gm@example.org"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def started(engine: Engine, players: int = 3) -> dict[str, tuple[str, str]]:
    """A running game `maze`: power -> (address, reply address)."""
    rows = mail.send(engine, f"CREATE maze secret algernon {players}", sender=GM)
    assert [r.kind for r in rows] == ["game_created"]
    for i in range(players):
        mail.send(engine, f"JOIN maze pw{i}", sender=f"p{i}@example.org")
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None and game.status == "active"
        return {
            s.power: (s.person.address_of_record, f"judge+{s.reply_token}@example.org")
            for s in game.seats
        }


def board(engine: Engine):  # type: ignore[no-untyped-def]
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        return case_board(game.position)


def test_create_needs_a_player_count(engine: Engine) -> None:
    rows = mail.send(engine, "CREATE maze secret algernon", sender=GM)
    assert "names its number of players" in mail.body_of(rows[0])
    rows = mail.send(engine, "CREATE maze secret algernon 40", sender=GM)
    assert "2 to 24 players" in mail.body_of(rows[0])


def test_the_maze_is_generated_from_the_game_s_seed(engine: Engine) -> None:
    seats = started(engine, 4)
    maze = board(engine)
    assert sorted(seats) == sorted(maze.powers) and len(maze.powers) == 4


def test_orders_are_checked_against_the_player_s_knowledge(engine: Engine) -> None:
    seats = started(engine)
    maze = board(engine)
    power = sorted(seats)[0]
    home = sorted(maze.powers[power].home_centres)[0]
    count = len(maze.provinces[home].portals)
    stranger = next(s for s in sorted(maze.provinces) if s not in maze.powers[power].home_centres)
    text = "\n".join(
        [
            f"{home.upper()} to {count + 1}",
            f"{home.upper()} s 1 ({stranger.upper()} to 1)",
            f"{home.upper()} s 1 (QQQ to 1)",
            f"{stranger.upper()} h",
            f"{home.upper()} to 1",
        ]
    )
    rows = mail.send(engine, text, sender=seats[power][0], to=seats[power][1])
    body = mail.body_of(rows[0])
    assert f"{home.upper()} has {count} portals: there is no portal {count + 1}" in body
    assert f"{stranger.upper()} is unknown to you" in body
    assert "QQQ is unknown to you" in body
    # Nothing but what he wrote himself: the stranger's id is his own word echoed.
    found = leakcheck.leaks(maze, leakcheck.start(maze)[power], body)
    assert all(stranger.upper() in f for f in found)


def test_map_shows_only_what_the_player_learned(engine: Engine) -> None:
    seats = started(engine)
    maze = board(engine)
    power = sorted(seats)[1]
    rows = mail.send(engine, "MAP", sender=seats[power][0], to=seats[power][1])
    assert [r.kind for r in rows] == ["own_map"]
    body = mail.body_of(rows[0])
    for home in maze.powers[power].home_centres:
        assert f"{home.upper()} HSC, {len(maze.provinces[home].portals)} portals" in body
    assert leakcheck.leaks(maze, leakcheck.start(maze)[power], body) == []
    rows = mail.send(engine, "MAP maze", sender="nobody@example.org")
    assert "MAP shows your own map" in mail.body_of(rows[0])


def test_the_gm_s_summary_lists_every_seat_that_a_player_s_does_not(engine: Engine) -> None:
    seats = started(engine)
    power = sorted(seats)[0]
    rows = mail.send(engine, "SIGNON M maze secret\nSUMMARY maze", sender=GM)
    told = mail.body_of(next(r for r in rows if "summary" in r.kind.split("+")))
    for name in seats:  # the initials as written, and who plays them (no name set: says so)
        assert f"  {name}        name not given" in told
    rows = mail.send(engine, "SUMMARY maze", sender=seats[power][0], to=seats[power][1])
    text = mail.body_of(next(r for r in rows if "summary" in r.kind.split("+")))
    assert not any(name in text for name in seats)


def test_list_summary_press_and_general_orders_name_no_stranger(engine: Engine) -> None:
    seats = started(engine)
    maze = board(engine)
    power, other = sorted(seats)[:2]
    rows = mail.send(engine, "LIST maze\nSUMMARY maze", sender="someone@example.org")
    for row in rows:
        for name in maze.powers:
            assert name.title() not in mail.body_of(row) and name not in mail.body_of(row)
    rows = mail.send(
        engine,
        f"PRESS TO {other}\nhello\nENDPRESS\nPRESS TO ZZZ\nhi\nENDPRESS",
        sender=seats[power][0],
        to=seats[power][1],
    )
    text = "\n".join(mail.body_of(r) for r in rows)
    assert f"{other} unknown to you" in text and "ZZZ unknown to you" in text
    found = leakcheck.leaks(maze, leakcheck.start(maze)[power], text)
    assert all(other in f for f in found)  # his own word, echoed
    rows = mail.send(engine, "GENERAL\nENDGENERAL", sender=seats[power][0], to=seats[power][1])
    assert "takes no general orders" in mail.body_of(rows[0])
