"""Each variant's start mail says what is particular to it (the record's `start_notes`), as
its players and the GM receive it; and the GM's early PROCESS in a nine-player 1885 game seeks
no replacement, its missed moves (PROCESS MISSED) reaching each reader as one mail."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, kinds, send

from judge.store import session_scope
from judge.store.game_queries import find_game


def start(engine: Engine, words: str) -> dict[str, str]:
    """CREATE game v with `words` after the password; JOIN until every seat is taken. Each
    reader's start mail (the players' by power, the GM's as "GM")."""
    (created,) = send(engine, f"CREATE v secret {words}", sender=GM)
    assert created.kind == "game_created", body_of(created)
    started: dict[str, str] = {}
    for i in range(20):
        rows = send(engine, f"JOIN v pw{i}", sender=f"p{i}@example.org")
        for row in rows:
            if "game_started" in kinds(row) or "game_start_notice" in kinds(row):
                started[row.to_addr] = " ".join(body_of(row).split())
        if started:
            break
    with session_scope(engine) as session:
        game = find_game(session, "v")
        assert game is not None and game.status == "active"
        powers = {s.person.address_of_record: s.power for s in game.seats if s.person}
    return {powers.get(address, "GM"): text for address, text in started.items()}


def test_mercator_s_start_tells_the_time_scales_and_germany_its_spare(engine: Engine) -> None:
    told = start(engine, "mercator")
    assert "under the headings TS1" in told["FRANCE"] and "HELP mercator" in told["FRANCE"]
    assert "Germany and Russia have a spare unit" in told["GM"]
    assert (
        "Your spare unit: place it with your January orders by a line Place A" in (told["GERMANY"])
    )
    assert "Silesia (Sil)" in told["GERMANY"] and "Your spare unit" not in told["FRANCE"]


def test_1885_s_start_tells_italy_the_rome_choice_and_all_the_build_centres(
    engine: Engine,
) -> None:
    told = start(engine, "1885")
    assert "Write Rome: Fleet (or Rome: Army) with your January orders" in told["ITALY"]
    assert "Italy chooses whether its unit in Rome is an army or a fleet" in told["SPAIN"]
    assert "Russia in Archangel" in told["SPAIN"] and "Turkey in Levant" in told["GM"]


def test_mercenary_s_start_tells_the_currencies_and_every_holding(engine: Engine) -> None:
    told = start(engine, "mercenary")
    for reader in ("FRANCE", "GM"):
        assert "Germany 1000 German pounds" in told[reader]
        assert "Worth now (the strongest is 1): Austrian 1" in told[reader]
    assert "BID 100 ON A Par - Bur" in told["FRANCE"]


def test_algernon_s_start_tells_the_maze_and_how_it_is_learned(engine: Engine) -> None:
    told = start(engine, "algernon 3")
    players = [reader for reader in told if reader != "GM"]
    assert len(players) == 3
    for power in players:
        assert "Algernon: the maze is secret" in told[power]
        assert f"You are {power}, with rats at" in told[power]
    assert "You are" not in told["GM"] and "Algernon: the maze is secret" in told["GM"]


@pytest.fixture
def nine(engine: Engine) -> dict[str, str]:
    return start(engine, "1885")


def test_the_gm_s_early_process_in_a_nine_player_game_seeks_no_replacement(
    engine: Engine, nine: dict[str, str]
) -> None:
    rows = send(engine, "SIGNON M v secret\nPROCESS", sender=GM)
    assert sum(1 for r in rows if "results" in kinds(r)) >= 9
    assert not [r for r in rows if {"replacement_sought", "missed_turn"} & set(kinds(r))]
    with session_scope(engine) as session:
        game = find_game(session, "v")
        assert game is not None and game.phase == "FEB1885M"
        assert all(s.missed_turns == 0 and not s.replacement_sought for s in game.seats)


def test_process_missed_tells_each_reader_once(engine: Engine, nine: dict[str, str]) -> None:
    rows = send(engine, "SIGNON M v secret\nPROCESS MISSED", sender=GM)
    sought = [r.to_addr for r in rows if "replacement_sought" in kinds(r)]
    assert len(sought) == len(set(sought)) == 9  # one mail each, naming every power
    assert [r.to_addr for r in rows if "missed_turn" in kinds(r)] == [GM]
    mail = next(
        body_of(r)
        for r in rows
        if r.to_addr == "p0@example.org" and "replacement_sought" in kinds(r)
    )
    assert mail.count("You play") == 1 and "These powers missed the move too" in mail


def _seat_address(engine: Engine, power: str) -> tuple[str, str]:
    """(the address of record, the reply address) of the seat of `power` in game v."""
    with session_scope(engine) as session:
        game = find_game(session, "v")
        assert game is not None
        seat = next(s for s in game.seats if s.power == power)
        assert seat.person is not None
        return seat.person.address_of_record, f"judge+{seat.reply_token}@example.org"


@pytest.mark.parametrize(
    ("words", "first"),
    [("mercator", ("ENGLAND", "GERMANY")), ("1885", ("ITALY",)), ("mercenary", ("FRANCE",))],
)
def test_help_s_opening_examples_are_taken_at_the_desk(
    engine: Engine, words: str, first: tuple[str, ...]
) -> None:
    """The example mails HELP gives for a game's first phase, sent by their powers at the
    start: every line taken on arrival."""
    from judge.variants import variant

    start(engine, words)
    found = variant(words).desk.help
    assert found is not None
    sent = 0
    for example in found.examples:
        if example.power not in first or not example.when.startswith(("January", "the spring")):
            continue
        sent += 1
        address, reply = _seat_address(engine, example.power)
        rows = send(engine, "\n".join(example.lines), sender=address, to=reply)
        text = "\n".join(body_of(r) for r in rows).replace("\r\n", "\n")
        assert "\n0 of " in text, (example, text)
    assert sent == len(first)
