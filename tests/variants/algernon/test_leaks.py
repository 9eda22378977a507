"""The leak test: generated Algernon games played by random orders for ten years through the
judge's own mail path (the processor and the desk on a real SQLite store), every outbox row to
each player checked against what that player may know by the rules, worked out here from the
moves (leakcheck.py). And the same check catching a report that leaks on purpose.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select

from judge import clock
from judge.pictures.step import render_pending
from judge.store import OutboxMessage, make_engine, session_scope, upgrade
from judge.store.game_queries import find_game, history
from judge.variants.algernon import case_board

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

from tests.variants.algernon import leakcheck  # noqa: E402

GM = "gm@example.org"
YEARS = 10


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    upgrade(made)
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def _rows_to(rows: list[OutboxMessage], seats: dict[str, str]) -> list[tuple[str, str]]:
    """(power, body) of every row addressed to a player."""
    by_address = {address: power for power, address in seats.items()}
    return [(by_address[r.to_addr], mail.body_of(r)) for r in rows if r.to_addr in by_address]


def _pictures_to(
    engine: Engine, rows: list[OutboxMessage], seats: dict[str, str]
) -> list[tuple[str, str]]:
    """(power, SVG) of every picture attached to a row addressed to a player, drawn by the
    picture step as the daemon draws them before sending."""
    by_address = {address: power for power, address in seats.items()}
    ids = [r.id for r in rows if r.to_addr in by_address and r.picture is not None]
    if not ids:
        return []
    render_pending(engine, limit=len(ids) + 100)
    with session_scope(engine) as session:
        done = list(session.scalars(select(OutboxMessage).where(OutboxMessage.id.in_(ids))))
    out = []
    for row in done:
        assert row.picture is None, "a player's picture left undrawn"
        message = message_from_bytes(row.raw)
        for part in message.walk():
            if part.get_content_type() == "image/svg+xml":
                payload = part.get_payload(decode=True)
                assert isinstance(payload, bytes)
                out.append((by_address[row.to_addr], payload.decode()))
    return out


def _check(
    engine: Engine,
    board: Any,
    allowed: dict[str, leakcheck.Allowed],
    rows: list[OutboxMessage],
    seats: dict[str, str],
) -> list[str]:
    """The leaks in the players' mails of `rows`: their texts, then their pictures."""
    found: list[str] = []
    for who, text in _rows_to(rows, seats):
        found += leakcheck.leaks(board, allowed[who], text)
    for who, svg in _pictures_to(engine, rows, seats):
        found += leakcheck.svg_leaks(board, allowed[who], svg)
    return found


def _random_orders(rng: random.Random, case: dict[str, Any], power: str) -> list[str]:
    board = case_board(case)
    lines = []
    for unit in case["units"]:
        if unit["power"] != power:
            continue
        space = unit["loc"]
        count = len(board.provinces[space].portals)
        pick = rng.random()
        if pick < 0.55:
            lines.append(f"{space.upper()} to {rng.randint(1, count)}")
        elif pick < 0.75:
            lines.append(f"{space.upper()} s {rng.randint(1, count)}")
        elif pick < 0.85:
            lines.append(f"{space.upper()} h")
        if rng.random() < 0.3:
            portals = list(range(1, count + 1))
            rng.shuffle(portals)
            lines.append(f"{space.upper()}({','.join(map(str, portals))})")
    if case["phase"].startswith("F") and rng.random() < 0.7:
        homes = sorted(board.powers[power].home_centres)
        rng.shuffle(homes)
        lines.append("Build " + ", ".join(h.upper() for h in homes))
    return lines


def play_and_check(engine: Engine, players: int, seed: int, years: int = YEARS) -> list[str]:
    """Play a generated game by mail and return every leak found in the players' mails."""
    rng = random.Random(seed)
    name = f"maze{players}x{seed}"
    found: list[str] = []
    rows = mail.send(engine, f"CREATE {name} secret algernon {players}", sender=GM)
    assert [r.kind for r in rows] == ["game_created"]
    seats: dict[str, str] = {}
    start_rows: list[OutboxMessage] = []
    for i in range(players):
        start_rows += mail.send(engine, f"JOIN {name} pw{i}", sender=f"p{i}.{name}@example.org")
    with session_scope(engine) as session:
        game = find_game(session, name)
        assert game is not None and game.position is not None
        seats = {s.power: s.person.address_of_record for s in game.seats}
        tokens = {s.power: s.reply_token for s in game.seats}
        board = case_board(game.position)
    allowed = leakcheck.start(board)
    pictures = 0
    found += _check(engine, board, allowed, start_rows, seats)
    for _ in range(2 * years):
        with session_scope(engine) as session:
            game = find_game(session, name)
            assert game is not None and game.position is not None
            case = dict(game.position)
            if game.status != "active":
                break
        sent: dict[str, list[str]] = {}
        for power in sorted(seats):
            lines = _random_orders(rng, case, power)
            if not lines:
                continue
            sent[power] = lines
            rows = mail.send(
                engine,
                "\n".join(lines),
                sender=seats[power],
                to=f"judge+{tokens[power]}@example.org",
            )
            found += _check(engine, board, allowed, rows, seats)
        rows = mail.send(engine, f"SIGNON MASTER {name} secret\nPROCESS", sender=GM)
        with session_scope(engine) as session:
            game = find_game(session, name)
            assert game is not None
            record = history(session, game)[-1]
            stored = {p: list(v) for p, v in record.orders.items()}
            units_after = record.results["units_after"]
        leakcheck.after_turn(
            board, allowed, case["units"], stored, units_after, case["phase"].startswith("F")
        )
        found += _check(engine, board, allowed, rows, seats)
        pictures += len(_pictures_drawn(rows, seats))
    # The other paths a player can ask for: his map, the history, the summary, the list.
    for power in sorted(seats):
        rows = mail.send(
            engine,
            f"MAP\nHISTORY {name}\nSUMMARY {name}\nLIST {name}\nLIST",
            sender=seats[power],
            to=f"judge+{tokens[power]}@example.org",
        )
        # One answer to the mail, its parts' kinds joined by "+" (judge.desk.answer).
        kinds = {kind for r in rows for kind in r.kind.split("+")}
        assert kinds >= {"own_map", "history", "summary", "game_detail"}
        found += _check(engine, board, allowed, rows, seats)
        pictures += len(_pictures_drawn(rows, seats))
    assert pictures > 0, "no player was sent a picture: the check read none"
    return found


def _pictures_drawn(rows: list[OutboxMessage], seats: dict[str, str]) -> list[int]:
    """The rows to players that carried a picture to draw (the results, MAP)."""
    return [r.id for r in rows if r.to_addr in seats.values() and r.picture is not None]


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_no_mail_tells_a_player_more_than_his_rats_found(engine: Engine, players: int) -> None:
    assert play_and_check(engine, players, seed=players) == []


def test_the_check_finds_a_report_that_leaks(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One deliberate leak: a private report that also names every space of the maze."""
    from judge.variants.algernon import report

    honest = report.player_report

    def leaking(turn: Any, power: str, known: Any) -> str:
        return honest(turn, power, known) + " ".join(s.upper() for s in turn.board.provinces)

    monkeypatch.setattr(report, "player_report", leaking)
    found = play_and_check(engine, 3, seed=1, years=1)
    assert found and all("unknown to" in f for f in found)


def test_the_check_finds_a_picture_that_leaks(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One deliberate leak in the pictures alone: a player's maze drawn with every space."""
    from judge.variants.algernon import picture

    def leaking(board: Any, case: Any, reader: str) -> Any:
        whole = picture._master_scene(board, case)
        return whole if reader in board.powers else None

    monkeypatch.setattr(picture, "picture_scene", leaking)
    found = play_and_check(engine, 3, seed=1, years=1)
    assert found and all("unknown to" in f for f in found)
    assert any(" in id " in f for f in found)  # the ids are read too, not only the texts


def test_outbox_rows_are_all_read(engine: Engine) -> None:
    """The check reads every row a player is sent: results, start notices, order echoes."""
    play_and_check(engine, 3, seed=2, years=1)
    with session_scope(engine) as session:
        kinds = {r.kind for r in session.scalars(select(OutboxMessage))}
    assert {"game_started", "orders_read", "results"} <= kinds
