"""The year 1885 by mail through the processor, January to December, nine players: the same
script as the end-to-end game over real mail servers (tests/e2e/year_1885.py, played by
tests/e2e/test_scripted_1885.py), here in one process on SQLite, so a change that breaks the
year shows in seconds."""

from __future__ import annotations

import sys
from pathlib import Path

from by_mail import GAME, echo, process, start_1885
from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, send

from judge.game_archive import export_game, replay
from judge.store import session_scope
from judge.store.game_queries import find_game

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "e2e"))

from year_1885 import BETWEEN, MONTHS, MOVES, POWERS, REFUSED, SAYS  # noqa: E402


def _holds(engine: Engine, power: str) -> str:
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        units = [u for u in game.position["units"] if u["power"] == power.upper()]
    return "\n".join(f"{u['type']} {u['loc'].upper()} H" for u in units)


def _phase(engine: Engine) -> str:
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase is not None
        return game.phase


def _refused(engine: Engine, seats: dict[str, str], phase: str) -> None:
    for power, when, text, error in REFUSED:
        if when == phase:
            told = echo(send(engine, text, sender=player(power), to=seats[power]))
            assert error in told, (phase, power, told)


def _check(phase: str, results: dict[str, str]) -> None:
    assert len(results) == len(POWERS) + 1  # the nine players and the GM
    for words in SAYS.get(phase, ()):
        for reader, told in results.items():
            assert words in told, (phase, reader, words, told)


def test_the_year_1885_by_mail(engine: Engine) -> None:
    seats = start_1885(engine)
    for month in MONTHS:
        assert _phase(engine) == month
        _refused(engine, seats, month)
        for power in POWERS:
            text = MOVES.get(month, {}).get(power) or _holds(engine, power)
            told = echo(send(engine, text, sender=player(power), to=seats[power]))
            assert "\n0 of " in told.replace("\r\n", "\n"), (month, power, told)
        _check(month, process(engine, month))
        if month in BETWEEN:
            between, orders = BETWEEN[month]
            assert _phase(engine) == between
            _refused(engine, seats, between)
            for power, text in orders.items():
                told = echo(send(engine, text, sender=player(power), to=seats[power]))
                assert "\n0 of " in told.replace("\r\n", "\n"), (between, power, told)
            rows = send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS {between} MISSED\n", sender=GM)
            results = {r.to_addr: body_of(r) for r in rows if r.kind == "results"}
            _check(between, results)
            # Only Austria, whose retreat was refused, is reported to the GM as owing orders.
            missed = [body_of(r) for r in rows if r.kind == "missed_turn"]
            assert len(missed) == (1 if between == "MAY1885R" else 0), (between, missed)
    assert _phase(engine) == "JAN1886M"
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.status == "active"
        units = {(u["power"], u["type"], u["loc"]) for u in game.position["units"]}
    assert ("SPAIN", "F", "por") in units and ("FRANCE", "A", "val") in units
    assert ("AUSTRIA", "A", "gre") in units and ("TURKEY", "F", "aeg") in units
    # HISTORY reads the stored phases back as the variant writes them.
    rows = send(engine, f"HISTORY {GAME} FROM MAY1885R TO JUN1885A\n", sender=player("Sweden"))
    told = body_of(next(r for r in rows if r.kind == "history"))
    assert "Variant: 1885" in told
    assert "Austrian Army Macedonia retreats to Greece by the right-hand rule." in told
    assert "Builds a fleet in Portugal." in told
    # The game exported adjudicates again, phase by phase, to the results it recorded.
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        document = export_game(session, game)
    assert len(document["phases"]) == 15
    assert replay(document) == []
