"""HISTORY and SUMMARY by mail, on a game played through its first year by mail.

Each phase is processed a day after the one before, so date bounds can be tested too.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine
from test_games_by_mail import GM, POWERS, body_of, player, send

from judge import clock
from judge.store import session_scope
from judge.store.game_queries import find_game, history, vacate_seat
from judge.store.games import GameStatus

PROCESS = "SIGNON M alpha gmsecret\nPROCESS"
OUTSIDER = "reader@example.org"

# Spring: France and Germany bounce in Burgundy. Fall: centres change hands. Winter: builds.
YEAR_1901 = [
    {
        "France": "A PAR-BUR\nA MAR-SPA\nF BRE-MAO",
        "Germany": "A MUN-BUR\nA BER-KIE\nF KIE-DEN",
        "England": "F LON-NTH\nF EDI-NWG\nA LVP-YOR",
    },
    {
        "France": "A SPA H\nF MAO-POR",
        "Germany": "A KIE-HOL\nF DEN H",
        "England": "F NWG-NWY",
    },
    {
        "France": "BUILD A MAR\nBUILD F BRE",
        "Germany": "BUILD A BER\nBUILD F KIE",
        "England": "BUILD F LON",
    },
]


def play_1901(engine: Engine, addresses: dict[str, str]) -> None:
    for orders in YEAR_1901:
        for power, text in orders.items():
            send(engine, text, sender=player(power), to=addresses[power])
        clock.advance(timedelta(days=1))
        rows = send(engine, PROCESS, sender=GM)
        assert any(r.kind == "results" for r in rows)


@pytest.fixture
def played(engine: Engine, started: dict[str, str]) -> dict[str, str]:
    """The started game with 1901 played: S1901M on Apr 2, F1901M on Apr 3, W1901A on Apr 4."""
    play_1901(engine, started)
    return started


def only_reply(rows: list, kind: str) -> str:
    assert [r.kind for r in rows] == [kind], [body_of(r) for r in rows]
    return body_of(rows[0]).replace("\r\n", "\n")


SPRING = "Movement results for Spring of 1901."
FALL = "Movement results for Fall of 1901."
WINTER = "Adjustment orders for Winter of 1901."


def test_anyone_gets_the_whole_history_as_an_observer_saw_it(
    engine: Engine, played: dict[str, str]
) -> None:
    rows = send(engine, "HISTORY alpha", sender=OUTSIDER)
    assert rows[0].to_addr == OUTSIDER
    text = only_reply(rows, "history")
    assert "Movement results for Spring of 1901.  (alpha.001)" in text
    assert "France: Army Paris -> Burgundy.  (*bounce*)" in text
    assert "Germany: Army Munich -> Burgundy.  (*bounce*)" in text
    assert "Movement results for Fall of 1901.  (alpha.002)" in text
    assert "France:    5 Supply centers,  3 Units:  Builds   2 units." in text
    assert "Adjustment orders for Winter of 1901.  (alpha.003)" in text
    assert "France:  Builds a fleet in Brest." in text
    assert text.index(SPRING) < text.index(FALL) < text.index(WINTER)
    # Past deadlines and anyone's address are no part of a history.
    assert "The deadline for orders will be" not in text
    assert "@" not in text
    assert "Game alpha is active, in S1902M." in text


def test_history_carries_the_press_every_observer_read_under_its_phase(
    engine: Engine, started: dict[str, str]
) -> None:
    def press(power: str, block: str) -> None:
        send(engine, block, sender=player(power), to=started[power])

    press("Turkey", "BROADCAST\n(Ankara) The Sultan sleeps.\nENDPRESS")
    press("Austria", "PRESS GREY\nBeware the Bear.\nENDPRESS")
    press("Austria", "PRESS TO GI\nLet us share the Balkans.\nENDPRESS")
    play_1901(engine, started)
    press("France", "BROADCAST\n(Paris) All is calm.\nENDPRESS")

    text = only_reply(send(engine, "HISTORY alpha", sender=OUTSIDER), "history")
    spring, rest = text.split(SPRING, 1)
    assert "Press, Turkey:\n(Ankara) The Sultan sleeps." in spring
    assert "Press, grey (the writer is not named):\nBeware the Bear." in spring
    assert "Austria" not in spring.split("Beware the Bear.")[0].split("Sultan sleeps.")[1]
    assert "Balkans" not in text  # partial press: never an observer's
    assert "Sultan" not in rest
    assert "Press since then, France:\n(Paris) All is calm." in rest
    # A history that stops before the end leaves the later press out.
    text = only_reply(send(engine, "HISTORY alpha TO S1901M", sender=OUTSIDER), "history")
    assert "The Sultan sleeps." in text and "All is calm." not in text


def test_phase_bounds_choose_the_phases(engine: Engine, played: dict[str, str]) -> None:
    text = only_reply(
        send(engine, "HISTORY alpha FROM F1901M TO F1901M", sender=OUTSIDER), "history"
    )
    assert FALL in text
    assert SPRING not in text and WINTER not in text
    text = only_reply(send(engine, "HISTORY alpha FROM f1901m", sender=OUTSIDER), "history")
    assert FALL in text and WINTER in text and SPRING not in text
    text = only_reply(send(engine, "HISTORY alpha TO S1901R", sender=OUTSIDER), "history")
    assert SPRING in text and FALL not in text


def test_date_bounds_choose_by_when_a_phase_was_processed(
    engine: Engine, played: dict[str, str]
) -> None:
    # Processed on Apr 2, 3 and 4 (2026); now is Apr 4. A date without a year looks back.
    text = only_reply(send(engine, "HISTORY alpha FROM Apr 3", sender=OUTSIDER), "history")
    assert FALL in text and WINTER in text and SPRING not in text
    text = only_reply(send(engine, "HISTORY alpha TO 2026-04-03", sender=OUTSIDER), "history")
    assert SPRING in text and FALL in text and WINTER not in text
    text = only_reply(send(engine, "HISTORY alpha FROM 2027-01-01", sender=OUTSIDER), "history")
    assert "No phase of game alpha falls in that range." in text
    assert "The game has 3 processed phases, S1901M to W1901A." in text


def test_lines_cuts_between_phases_and_says_how_to_go_on(
    engine: Engine, played: dict[str, str]
) -> None:
    rows = send(engine, "HISTORY alpha LINES 5", sender=OUTSIDER)
    text = only_reply(rows, "history")
    assert SPRING in text and FALL not in text  # one phase at least, whole
    assert "Stopped at 5 lines (LINES). For the rest, send:\n  HISTORY alpha FROM F1901M" in text
    assert rows[0].subject.endswith("alpha - History S1901M")


def test_a_player_needs_no_game_name_and_others_are_told_what_is_missing(
    engine: Engine, played: dict[str, str]
) -> None:
    rows = send(engine, "HISTORY FROM W1901A", sender=player("France"), to=played["France"])
    text = only_reply(rows, "history")
    assert WINTER in text and FALL not in text
    rows = send(engine, "HISTORY", sender=OUTSIDER)
    assert "line 1: HISTORY needs a game" in only_reply(rows, "desk_problems")
    rows = send(engine, "HISTORY nosuch\nSUMMARY nosuch", sender=OUTSIDER)
    text = only_reply(rows, "desk_problems")
    assert "line 1: there is no game named nosuch" in text
    assert "line 2: there is no game named nosuch" in text


def test_history_of_a_game_with_nothing_processed(engine: Engine, started: dict[str, str]) -> None:
    text = only_reply(send(engine, "HISTORY alpha", sender=OUTSIDER), "history")
    assert "Game alpha has no processed phase yet." in text
    assert "Game alpha is active, in S1901M." in text


def test_history_follows_the_games_report_style(engine: Engine, played: dict[str, str]) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.settings = {**game.settings, "report": "postal"}
    text = only_reply(send(engine, "HISTORY alpha TO S1901M", sender=OUTSIDER), "history")
    assert "Game alpha: Spring 1901 Movement (S1901M)" in text
    assert "_A Par-Bur_" in text


def test_summary_names_players_counts_centres_and_shows_a_takeover(
    engine: Engine, played: dict[str, str]
) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        for seat in game.seats:
            assert seat.person is not None
            seat.person.name = f"Player of {seat.power.title()}"
        italy = next(s for s in game.seats if s.power == "ITALY")
        vacate_seat(session, italy)
    rows = send(engine, "SIGNON Italy alpha newpw", sender="newcomer@example.org")
    assert any(r.kind == "signed_on" for r in rows)
    text = only_reply(send(engine, "SUMMARY alpha", sender=OUTSIDER), "summary")
    assert "@" not in text
    assert "The game is active, in S1902M; orders are due by" in text
    assert "  France     Player of France\n" in text
    assert "  Italy      name not given (since S1902M)" in text
    # The phases played before keep who held each seat then.
    assert (
        "  Italy      name not given (since S1902M)\n             before: Player of Italy (S1901M to W1901A)\n"
        in text
    )
    assert "before: Player of France" not in text
    assert "Supply centres at the end of each year (3 phases processed):" in text
    assert "\n          Aus  Eng  Fra  Ger  Ita  Rus  Tur\n" in text
    assert "\n  Start     3    3    3    3    3    4    3\n" in text
    assert "\n  1901      3    4    5    5    3    4    3\n" in text
    # STATUS is njudge's other spelling; a player's own game needs no name.
    rows = send(engine, "STATUS", sender=player("France"), to=played["France"])
    assert "Summary of game alpha" in only_reply(rows, "summary")


def test_summary_of_a_forming_game(engine: Engine) -> None:
    send(engine, "CREATE beta gmpw standard", sender=GM)
    text = only_reply(send(engine, "SUMMARY beta", sender=OUTSIDER), "summary")
    assert "The game is forming." in text
    assert "No phase has been processed yet." in text
    assert all(f"  {p:<10} open\n" in text for p in POWERS)


def test_how_a_game_ended_is_told(engine: Engine, played: dict[str, str]) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        last = history(session, game)[-1]
        last.results = {**last.results, "victory": ["FRANCE"]}
        game.status = GameStatus.FINISHED
    text = only_reply(send(engine, "SUMMARY alpha", sender=OUTSIDER), "summary")
    assert "The game ended in a victory for France." in text
    assert "orders are due" not in text
    text = only_reply(send(engine, "HISTORY alpha FROM W1901A", sender=OUTSIDER), "history")
    assert text.rstrip().endswith("Game alpha is finished.")
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.status = GameStatus.TERMINATED
    text = only_reply(send(engine, "SUMMARY alpha", sender=OUTSIDER), "summary")
    assert "The game was terminated by its GM." in text
