"""The leak test: generated Algernon games played by random orders for ten years through the
judge's own mail path (the processor and the desk on a real SQLite store), every outbox row to
each player, to an observer and to strangers who ask about the game (LIST, SUMMARY, JOIN, a
SIGNON guess; one stands by for a seat whose player missed a move, not told which, and plays it
from its second missed move), and every text and id of every picture attached to them (drawn by
the picture step as the daemon draws them), checked against what that reader may know by the
rules, worked out here from the moves (leakcheck.py). The games play attacks, supports of both
of section I's forms, swaps and removals, and each game must have played a swap and a removal.
And the same check catching a report that leaks on purpose: the whole maze, a failed swap's
space, another player's removal.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from sqlalchemy import Engine, select

from judge import clock
from judge.desk import seating
from judge.pictures.step import render_pending
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import find_game, history
from judge.variants.algernon import case_board
from judge.variants.algernon.maze import portal_towards
from tests.migrated import migrated_sqlite

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

from tests.variants.algernon import leakcheck  # noqa: E402

GM = "gm@example.org"
YEARS = 10
SWAPS = 0.1  # the chance a rat with a neighbour tries to swap with it


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def _readers(seats: dict[str, str], watchers: dict[str, str]) -> dict[str, str]:
    """Address -> whose allowance its mails are checked against: each seat's holder his power's,
    and the watchers' (an observer's, a stranger's) their own."""
    return {address: power for power, address in seats.items()} | watchers


def _rows_to(rows: list[OutboxMessage], by_address: dict[str, str]) -> list[tuple[str, str]]:
    """(reader, subject and body) of every row addressed to a reader checked."""
    return [
        (by_address[r.to_addr], f"{message_from_bytes(r.raw)['Subject']}\n{mail.body_of(r)}")
        for r in rows
        if r.to_addr in by_address
    ]


def _pictures_to(
    engine: Engine, rows: list[OutboxMessage], by_address: dict[str, str]
) -> list[tuple[str, str]]:
    """(reader, SVG) of every picture attached to a row addressed to a reader checked, drawn by
    the picture step as the daemon draws them before sending."""
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


def _picture_leaks(
    engine: Engine,
    board: Any,
    allowed: dict[str, leakcheck.Allowed],
    rows: list[OutboxMessage],
    by_address: dict[str, str],
    played: Played,
) -> list[str]:
    """The leaks in the pictures sent to the readers checked with `rows` (every text and id)."""
    found: list[str] = []
    for who, svg in _pictures_to(engine, rows, by_address):
        played.pictures += 1
        found += leakcheck.svg_leaks(board, allowed[who], svg)
    return found


def _random_orders(
    rng: random.Random, case: dict[str, Any], allowed: dict[str, leakcheck.Allowed]
) -> dict[str, list[str]]:
    """Each power's orders for a turn, drawn at random: attacks, supports (of a hold, and of an
    attack in both of section I's forms, naming only spaces the player knows) and holds by
    portal, retreat lists, swaps (rule 10: two rats side by side, another player's first,
    attacking each other's space), and in the fall build lists and removals (written blind: a
    player does not know whether he will have lost a centre)."""
    board = case_board(case)
    fall = case["phase"].startswith("F")
    owner = {u["loc"]: u["power"] for u in case["units"]}
    unit_lines: dict[str, str] = {}
    extra: dict[str, list[str]] = {}
    for space, power in owner.items():
        count = len(board.provinces[space].portals)
        pick = rng.random()
        if pick < 0.55:
            unit_lines[space] = f"{space.upper()} to {rng.randint(1, count)}"
        elif pick < 0.75:
            unit_lines[space] = f"{space.upper()} s {rng.randint(1, count)}"
        elif pick < 0.85:
            unit_lines[space] = f"{space.upper()} h"
        if rng.random() < 0.3:
            portals = list(range(1, count + 1))
            rng.shuffle(portals)
            extra.setdefault(power, []).append(f"{space.upper()}({','.join(map(str, portals))})")
    swapped: set[str] = set()
    for space in sorted(owner):
        if space in swapped or rng.random() >= SWAPS:
            continue
        beside = sorted(
            (portal, other)
            for portal, other in board.provinces[space].portals.items()
            if other in owner and other not in swapped
        )
        strangers = [(portal, other) for portal, other in beside if owner[other] != owner[space]]
        if not beside:
            continue
        portal, other = rng.choice(strangers or beside)  # another player's rat first
        unit_lines[space] = f"{space.upper()} to {portal}"
        unit_lines[other] = f"{other.upper()} to {portal_towards(board, other, space)}"
        swapped |= {space, other}
    attacks = {
        space: board.through_portal(space, int(line.split()[-1]))
        for space, line in unit_lines.items()
        if " to " in line
    }
    for space, line in sorted(unit_lines.items()):
        if " s " not in line or rng.random() < 0.4:
            continue
        helped = sorted(  # an attack the player can name: from a space he knows
            (mover, target)
            for mover, target in attacks.items()
            if mover != space
            and target != space
            and target in board.provinces[space].portals.values()
            and mover in allowed[owner[space]].spaces
        )
        if not helped:
            continue
        mover, target = rng.choice(helped)
        out = portal_towards(board, space, target)
        if rng.random() < 0.5:  # VT s 4 (SQ to 6)
            how = f"{mover.upper()} to {portal_towards(board, mover, target)}"
        else:  # MK s 1 (1): by the portal the attack comes in through
            how = str(portal_towards(board, target, mover))
        unit_lines[space] = f"{space.upper()} s {out} ({how})"
    if fall:
        for power in sorted(board.powers):
            mine = sorted(s for s, p in owner.items() if p == power)
            if rng.random() < 0.7:
                homes = sorted(board.powers[power].home_centres)
                rng.shuffle(homes)
                extra.setdefault(power, []).append("Build " + ", ".join(h.upper() for h in homes))
            if mine and rng.random() < 0.5:
                for space in rng.sample(mine, rng.randint(1, len(mine))):
                    extra.setdefault(power, []).append(f"Remove {space.upper()}")
    orders: dict[str, list[str]] = {}
    for space, line in sorted(unit_lines.items()):
        orders.setdefault(owner[space], []).append(line)
    for power, lines in extra.items():
        orders.setdefault(power, []).extend(lines)
    return orders


@dataclass
class Played:
    """A game's leaks, and what it played that the leak check must have seen: failed swap
    attempts (told by the other player's initials alone), removals made as ordered, and a seat
    handed to a stranger who stood by for it."""

    leaks: list[str] = field(default_factory=list)
    swaps: int = 0
    removals: int = 0
    pictures: int = 0  # the pictures the players and the observer were sent, every one read
    stood_by: bool = False  # the stranger was told he stands by, and was later handed the seat
    handed_over: bool = False
    # Space ids and initials written name-cased (Hac for HAC) in any mail, the GM's too.
    name_cased: list[str] = field(default_factory=list)


# Readers who hold no seat, each checked against what he may know: an observer (the public
# counts), strangers who ask about the game (nothing of it), the first of whom stands by for
# the seat whose player misses the first two moves and takes it over at the second.
OBSERVER = "*observer*"
STRANGER = "*stranger*"


def _name_cased(board: Any, rows: list[OutboxMessage]) -> list[str]:
    """Every space id or initials written name-cased in the mails of `rows`, whoever reads them
    (the GM and the observers too), with the kind of mail it is in."""
    found: list[str] = []
    for row in rows:
        text = f"{message_from_bytes(row.raw)['Subject']}\n{mail.body_of(row)}"
        found += [f"{row.kind}: {word}" for word in leakcheck.name_cased(board, text)]
    return found


def _seats_and_tokens(engine: Engine, name: str) -> tuple[dict[str, str], dict[str, str]]:
    with session_scope(engine) as session:
        game = find_game(session, name)
        assert game is not None
        seats = {s.power: s.person.address_of_record for s in game.seats if s.person is not None}
        tokens = {s.power: s.reply_token for s in game.seats if s.reply_token is not None}
    return seats, tokens


def play_and_check(engine: Engine, players: int, seed: int, years: int = YEARS) -> Played:
    """Play a generated game by mail (its maze drawn from `seed` too, so a failure replays);
    every leak found in the mails of the players, of an observer and of strangers."""
    rng = random.Random(seed)
    name = f"maze{players}x{seed}"
    played = Played()
    found = played.leaks
    with mock.patch.object(seating, "new_seed", return_value=seed):  # the maze, reproducible
        rows = mail.send(engine, f"CREATE {name} secret algernon {players}", sender=GM)
    assert [r.kind for r in rows] == ["game_created"]
    observer, stranger, latecomer = (f"{who}.{name}@example.org" for who in ("o", "s", "l"))
    watchers = {observer: OBSERVER, stranger: STRANGER, latecomer: STRANGER}
    mail.observe_by_reply(engine, observer, name)
    start_rows: list[OutboxMessage] = []
    for i in range(players):
        start_rows += mail.send(engine, f"JOIN {name} pw{i}", sender=f"p{i}.{name}@example.org")
    seats, tokens = _seats_and_tokens(engine, name)
    with session_scope(engine) as session:
        game = find_game(session, name)
        assert game is not None and game.position is not None
        board = case_board(game.position)
    allowed = leakcheck.start(board)
    allowed[OBSERVER] = leakcheck.Allowed(OBSERVER)
    allowed[STRANGER] = leakcheck.Allowed(STRANGER)
    absent = sorted(seats)[0]  # sends nothing for the first two moves: replaced by the stranger
    played.name_cased += _name_cased(board, start_rows)
    for who, text in _rows_to(start_rows, _readers(seats, watchers)):
        found += leakcheck.leaks(board, allowed[who], text)
    found += _picture_leaks(engine, board, allowed, start_rows, _readers(seats, watchers), played)
    for _ in range(2 * years):
        with session_scope(engine) as session:
            game = find_game(session, name)
            assert game is not None and game.position is not None
            case = dict(game.position)
            if game.status != "active":
                break
        turn = _random_orders(rng, case, allowed)
        missing = absent if case["phase"] in ("S1901M", "F1901M") else None
        for power in sorted(seats):
            lines = turn.get(power, [])
            if not lines or power == missing:
                continue
            rows = mail.send(
                engine,
                "\n".join(lines),
                sender=seats[power],
                to=f"judge+{tokens[power]}@example.org",
            )
            played.name_cased += _name_cased(board, rows)
            for who, text in _rows_to(rows, _readers(seats, watchers)):
                found += leakcheck.leaks(board, allowed[who], text)
            found += _picture_leaks(engine, board, allowed, rows, _readers(seats, watchers), played)
        rows = mail.send(engine, f"SIGNON MASTER {name} secret\nPROCESS MISSED", sender=GM)
        played.name_cased += _name_cased(board, rows)
        with session_scope(engine) as session:
            game = find_game(session, name)
            assert game is not None
            record = history(session, game)[-1]
            stored = {p: list(v) for p, v in record.orders.items()}
            units_after = record.results["units_after"]
        leakcheck.after_turn(
            board, allowed, case["units"], stored, units_after, case["phase"].startswith("F")
        )
        if missing is not None and seats.get(absent) != stranger:
            seats, tokens = _seats_and_tokens(engine, name)
            if seats.get(absent) == stranger:  # the second missed move: the seat is his now
                played.handed_over = True
                del watchers[stranger]
        for who, text in _rows_to(rows, _readers(seats, watchers)):
            found += leakcheck.leaks(board, allowed[who], text)
            played.swaps += text.count("(swap with ")
            removed = {
                space.strip().lower()
                for line in text.splitlines()
                if line.startswith("Removed: ")
                for space in line.removeprefix("Removed: ").split(",")
            }
            ordered = {
                line.split()[-1].lower()
                for line in stored.get(who, [])
                if line.startswith("Remove ")
            }
            played.removals += len(removed & ordered)  # removed as its player ordered
        found += _picture_leaks(engine, board, allowed, rows, _readers(seats, watchers), played)
        if case["phase"] == "S1901M":
            # A replacement is sought for the absent player's seat: strangers ask about the
            # game, one stands by for the seat (not told which), the other finds none to take.
            rows = mail.send(
                engine,
                f"LIST {name}\nSUMMARY {name}\nJOIN {name} spw\nSIGNON ZZZ {name} guess",
                sender=stranger,
            )
            rows += mail.send(engine, f"LIST {name}\nJOIN {name} lpw", sender=latecomer)
            played.stood_by = any("standing_by" in r.kind.split("+") for r in rows)
            played.name_cased += _name_cased(board, rows)
            for who, text in _rows_to(rows, _readers(seats, watchers)):
                found += leakcheck.leaks(board, allowed[who], text)
    # The other paths a player can ask for: his map, the history, the summary, the list; and
    # what an observer and a stranger may ask.
    for power in sorted(seats):
        rows = mail.send(
            engine,
            f"MAP\nHISTORY {name}\nSUMMARY {name}\nLIST {name}\nLIST",
            sender=seats[power],
            to=f"judge+{tokens[power]}@example.org",
        )
        kinds = {part for r in rows for part in r.kind.split("+")}  # one answer of several parts
        assert kinds >= {"own_map", "history", "summary", "game_detail"}
        played.name_cased += _name_cased(board, rows)
        for who, text in _rows_to(rows, _readers(seats, watchers)):
            found += leakcheck.leaks(board, allowed[who], text)
        found += _picture_leaks(engine, board, allowed, rows, _readers(seats, watchers), played)
    for asker in (observer, latecomer):
        rows = mail.send(
            engine,
            f"MAP {name}\nHISTORY {name}\nSUMMARY {name}\nLIST {name}\nJOIN {name} pw",
            sender=asker,
        )
        played.name_cased += _name_cased(board, rows)
        for who, text in _rows_to(rows, _readers(seats, watchers)):
            found += leakcheck.leaks(board, allowed[who], text)
        found += _picture_leaks(engine, board, allowed, rows, _readers(seats, watchers), played)
    assert played.pictures > 0, "no player was sent a picture: the check read none"
    assert played.stood_by and played.handed_over, "the stranger never stood by and took a seat"
    return played


@pytest.mark.parametrize("players", [3, 5, 8, 12])
def test_no_mail_tells_a_player_more_than_his_rats_found(engine: Engine, players: int) -> None:
    played = play_and_check(engine, players, seed=players)
    assert played.leaks == []
    assert played.name_cased == []  # every id and initials as the maze writes them
    assert played.swaps > 0 and played.removals > 0  # both were played and checked


def test_the_check_finds_a_report_that_leaks(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One deliberate leak: a private report that also names every space of the maze."""
    from judge.variants.algernon import report

    honest = report.player_report

    def leaking(turn: Any, power: str, known: Any) -> str:
        return honest(turn, power, known) + " ".join(s.upper() for s in turn.board.provinces)

    monkeypatch.setattr(report, "player_report", leaking)
    found = play_and_check(engine, 3, seed=1, years=1).leaks
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
    found = play_and_check(engine, 3, seed=1, years=1).leaks
    assert found and all("unknown to" in f for f in found)
    assert any(" in id " in f for f in found)  # the ids are read too, not only the texts


def test_outbox_rows_are_all_read(engine: Engine) -> None:
    """The check reads every row a player is sent: results, start notices, order echoes."""
    play_and_check(engine, 3, seed=2, years=1)
    with session_scope(engine) as session:
        kinds = {r.kind for r in session.scalars(select(OutboxMessage))}
    assert {"game_started", "orders_read", "results"} <= kinds


def _swap_leak(turn: Any, power: str) -> str:
    """The space a failed swap tried to enter: rule 10 tells only the other player."""
    spaces = [
        turn.board.through_portal(story.space, int(story.order.split()[-1]))
        for story in turn.encounters.get(power, ())
        if story.swap_with is not None
    ]
    return "".join(f"(swap at {s.upper()})\n" for s in spaces)


def _removal_leak(turn: Any, power: str) -> str:
    """Every player's removals, where a player is told his own."""
    return "".join(f"Removed: {s.upper()}\n" for ss in turn.removed.values() for s in ss)


@pytest.mark.parametrize(("leak", "players", "years"), [(_swap_leak, 3, 5), (_removal_leak, 5, 4)])
def test_the_check_finds_a_swap_or_a_removal_that_leaks(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, leak: Any, players: int, years: int
) -> None:
    """The games play swaps and removals, so a report that tells too much of either is caught."""
    from judge.variants.algernon import report

    honest = report.player_report

    def leaking(turn: Any, power: str, known: Any) -> str:
        return honest(turn, power, known) + leak(turn, power)

    monkeypatch.setattr(report, "player_report", leaking)
    found = play_and_check(engine, players, seed=players, years=years).leaks
    assert found and all("unknown to" in f for f in found)
