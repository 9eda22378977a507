"""Algernon at the desk: the CREATE reply's joining instructions, an observer's press answered
alike for initials that exist and that do not, a stranger's SUMMARY, "Players you have met"
after a build, a player's own void support reported as the GM's report says it, an order in
the standard game's words answered in the maze's, and a draw that ends the game announced."""

from __future__ import annotations

import sys
from pathlib import Path

from sqlalchemy import Engine

from judge.adjudicate_json import run_case
from judge.language.errors import OrderSyntaxError
from judge.variants.algernon.language import read_line
from tests.variants.algernon.test_by_mail import GM, board, engine, started
from tests.variants.algernon.test_demo_board import case

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

__all__ = ["engine"]


def test_create_tells_the_gm_that_players_join(engine: Engine) -> None:
    (row,) = mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    text = " ".join(mail.body_of(row).split())
    assert "players join by mailing judge@example.org JOIN maze <a password of their own>" in text
    assert "SIGNON <power>" not in text
    # What it says of SIGNON is what SIGNON does once a seat is held (a JOIN first).
    assert "SIGNON <his initials> maze <his password>" in text


def test_an_observer_s_press_reads_alike_for_initials_that_exist_and_not(
    engine: Engine,
) -> None:
    seats = started(engine, 3)
    mail.observe_by_reply(engine, "watcher@example.org", "maze")
    existing = sorted(seats)[0]
    absent = next(w for w in ("ZUQ", "XOV", "QAP") if w not in seats)
    answers = []
    for word in (existing, absent):
        rows = mail.send(
            engine, f"OBSERVE maze\nPRESS TO {word}\nhello\nENDPRESS", sender="watcher@example.org"
        )
        assert not [r for r in rows if r.to_addr != "watcher@example.org"]  # nobody pressed
        answers.append(" ".join(mail.body_of(r) for r in rows).replace(word, "WORD"))
    assert answers[0] == answers[1]
    assert "WORD unknown to you" in answers[0]


def test_a_stranger_s_summary_counts_the_players(engine: Engine) -> None:
    seats = started(engine, 3)
    rows = mail.send(engine, "SUMMARY maze", sender="someone@example.org")
    text = " ".join(mail.body_of(rows[0]).split())
    assert "3 players; the board is secret" in text
    assert not any(name in text for name in seats)


def test_players_met_are_only_those_met_after_a_build() -> None:
    """A fall turn in which A's rats meet nobody: the counts published name B, but A has met
    nobody, and his map says so."""
    out = run_case(case({"A": ["dl", "mn"], "B": ["pw"]}, {"A": ["DL h"]}, phase="F1901M"))
    assert out["knowledge"]["A"]["players"] == ["A"]  # himself alone
    assert set(out["knowledge"]["A"]["centres"]) == {"A", "B"}


def test_a_void_support_is_reported_to_its_player_as_the_gm_s_report_says() -> None:
    """MN s 2 (PZ to 3): MN's portal 2 leads to JC, PZ's 3 to MK: no such attack."""
    out = run_case(case({"A": ["mn", "pz"], "B": ["pw"]}, {"A": ["MN s 2 (PZ to 3)", "PZ h"]}))
    assert "MN s 2 (PZ to 3): void (no such attack); held" in out["reports"]["A"]
    assert "void (no such attack)" in out["master_report"]


def test_an_order_in_the_standard_game_s_words_is_answered_in_the_maze_s() -> None:
    try:
        read_line("A HNS - VQ", 2)
    except OrderSyntaxError as exc:
        assert "write HNS to N (N a portal number of HNS)" in str(exc)
    else:
        raise AssertionError("A HNS - VQ was read")


def test_a_draw_that_ends_the_game_is_announced_to_every_reader(engine: Engine) -> None:
    seats = started(engine, 3)
    for address, reply in seats.values():
        mail.send(engine, "SET DRAW", sender=address, to=reply)
    rows = mail.send(engine, "SIGNON MASTER maze secret\nPROCESS", sender=GM)
    results = {r.to_addr: mail.body_of(r) for r in rows if "results" in mail.kinds(r)}
    for address, _reply in seats.values():
        assert "The game ends in a draw, agreed by vote of the players in it." in results[address]
        assert not any(name in results[address].split("draw")[-1] for name in seats)
    assert "The game ends in a draw between" in results[GM]
    assert board(engine) is not None
