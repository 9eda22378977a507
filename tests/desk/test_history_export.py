"""A game played by mail exports whole (`judge game export`), adjudicates again to the results
its players were sent, and once imported under another name tells the same history by mail."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import Engine
from test_games_by_mail import send
from test_history_by_mail import OUTSIDER, only_reply, play_1901

from judge.cli import main
from judge.game_archive import export_game, import_game, replay
from judge.store import session_scope
from judge.store.game_queries import find_game


def test_a_game_played_by_mail_exports_and_replays(
    engine: Engine, started: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    play_1901(engine, started)
    assert main(["game", "export", "alpha", "--db", str(engine.url)]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [p["phase"] for p in document["phases"]] == ["S1901M", "F1901M", "W1901A"]
    assert document["phase"] == "S1902M" and document["status"] == "active"
    spring = document["phases"][0]
    assert sorted(spring["orders"]["FRANCE"]) == ["A MAR - SPA", "A PAR - BUR", "F BRE - MAO"]
    outcomes = {r["order"]: r["result"] for r in spring["results"]["results"]["FRANCE"]}
    assert outcomes == {
        "A PAR - BUR": "failure",
        "A MAR - SPA": "success",
        "F BRE - MAO": "success",
    }
    # Orders as the players gave them, results as they were sent: the engine agrees again.
    assert replay(document) == []
    # Nothing that reaches or proves a person: no address, no token, no password hash.
    text = json.dumps(document)
    assert "@" not in text and "argon2" not in text
    assert all(address.split("+")[1].split("@")[0] not in text for address in started.values())


def test_an_imported_game_tells_the_same_history(engine: Engine, started: dict[str, str]) -> None:
    play_1901(engine, started)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        import_game(session, export_game(session, game), name="copy")
    original = only_reply(send(engine, "HISTORY alpha", sender=OUTSIDER), "history")
    copied = only_reply(send(engine, "HISTORY copy", sender=OUTSIDER), "history")
    assert copied == original.replace("alpha", "copy").replace("Alpha", "Copy")
    summary = only_reply(send(engine, "SUMMARY copy", sender=OUTSIDER), "summary")
    assert "  France     open\n" in summary
    assert "\n  1901      3    4    5    5    3    4    3\n" in summary
