"""Orders checked against the board when they arrive (issue: the echo said "0 of 3 lines had
errors" for three orders that could never succeed): each line that can never succeed is marked
with the reason and what the unit can do instead, by the engine's own checks; what depends on
other powers' orders is left to the adjudication."""

from __future__ import annotations

from sqlalchemy import Engine
from test_games_by_mail import body_of, dislodged, player, send, set_position

from judge.store import session_scope
from judge.store.game_queries import current_orders, find_game


def echo(engine: Engine, started: dict[str, str], power: str, text: str) -> str:
    rows = send(engine, text, sender=player(power), to=started[power])
    return body_of(next(r for r in rows if r.kind == "orders_read")).replace("\r\n", "\n")


def test_a_move_the_unit_cannot_make_is_marked_with_its_moves(
    engine: Engine, started: dict[str, str]
) -> None:
    text = echo(engine, started, "Italy", "A Ven - Munich\nA Rom - Apu\nF Nap - Ion")
    assert (
        "ERROR: line 1, column 1: Army Venice cannot reach Munich; it can move to Apulia, "
        "Piedmont, Rome, Trieste, Tuscany, Tyrolia" in text
    )
    assert "1 of 3 lines had errors." in text
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert set(current_orders(session, game)["ITALY"]) == {"rom", "nap"}


def test_what_depends_on_other_orders_is_not_judged_early(
    engine: Engine, started: dict[str, str]
) -> None:
    # A support of a move the Austrian army may never be ordered to make, and a convoy of an
    # army nobody ordered: both could still match, so both are taken.
    text = echo(engine, started, "Italy", "A Ven S A Vie - Tyr\nF Nap H")
    assert "0 of 2 lines had errors." in text
    # A support of a place the supporter cannot reach is a matter of the board alone.
    text = echo(engine, started, "Italy", "A Ven S A Vie - Boh")
    assert "ERROR: line 1, column 1: Army Venice: A VEN cannot reach BOH" in text


def test_builds_that_cannot_be_made_are_marked(engine: Engine, started: dict[str, str]) -> None:
    set_position(
        engine,
        "W1901A",
        units=[{"power": "RUSSIA", "type": "A", "loc": "war"}],
        centers={"RUSSIA": ["mos", "sev", "stp", "war", "nwy"]},
    )
    text = echo(engine, started, "Russia", "Build A Norway\nBuild A Warsaw\nBuild A Moscow")
    assert "ERROR: line 1, column 1: NWY is not a home centre of RUSSIA" in text
    assert "ERROR: line 2, column 1: WAR is occupied" in text
    text = echo(engine, started, "Russia", "Build F Sev\nBuild A StP\nBuild F StP/nc")
    # Four builds are due: Moscow, Sevastopol and St Petersburg make three, and the last order
    # for St Petersburg replaces the one before it.
    assert "0 of 3 lines had errors." in text


def test_a_third_build_when_two_are_due_is_marked(engine: Engine, started: dict[str, str]) -> None:
    set_position(
        engine,
        "W1901A",
        units=[{"power": "RUSSIA", "type": "A", "loc": "war"}],
        centers={"RUSSIA": ["mos", "sev", "war"]},
    )
    text = echo(engine, started, "Russia", "Build A Moscow\nBuild F Sevastopol\nWaive")
    assert "ERROR: line 3, column 1: only 2 builds due, and 2 ordered" in text


def test_a_retreat_the_unit_may_not_make_is_marked(engine: Engine, started: dict[str, str]) -> None:
    set_position(
        engine,
        "S1901R",
        units=[{"power": "AUSTRIA", "type": "A", "loc": "vie"}],
        dislodged=[dislodged("AUSTRIA", "A", "bud", "gal")],
    )
    text = echo(engine, started, "Austria", "A Bud R Gal")
    assert (
        "ERROR: line 1, column 1: Army Budapest cannot retreat to Galicia; it may retreat to"
        in text
    )
    text = echo(engine, started, "Austria", "A Bud R Rum")
    assert "0 of 1 line had errors." in text


def test_the_echo_names_each_retreat_still_owed_and_where_it_may_go(
    engine: Engine, started: dict[str, str]
) -> None:
    set_position(
        engine,
        "S1901R",
        units=[
            {"power": "AUSTRIA", "type": "A", "loc": "vie"},
            {"power": "RUSSIA", "type": "A", "loc": "gal"},
        ],
        dislodged=[
            dislodged("AUSTRIA", "A", "bud", "gal"),
            dislodged("AUSTRIA", "F", "tri", "ven"),
        ],
    )
    text = echo(engine, started, "Austria", "A Bud R Rum")
    assert "Still to retreat:\n  Fleet Trieste: may retreat to Adriatic Sea or Albania;" in text
    assert "without a retreat order it is disbanded." in text
    assert "Budapest:" not in text  # ordered
    assert "they hold" not in text  # a dislodged unit never holds


def test_the_echo_of_builds_says_how_many_are_due(engine: Engine, started: dict[str, str]) -> None:
    set_position(
        engine,
        "W1901A",
        units=[{"power": "RUSSIA", "type": "A", "loc": "war"}],
        centers={"RUSSIA": ["mos", "sev", "war"]},
    )
    text = echo(engine, started, "Russia", "Build A Moscow")
    assert "Russia is due 2 builds." in text
    set_position(
        engine,
        "W1901A",
        units=[
            {"power": "RUSSIA", "type": "A", "loc": "war"},
            {"power": "RUSSIA", "type": "A", "loc": "mos"},
        ],
        centers={"RUSSIA": ["war"]},
    )
    text = echo(engine, started, "Russia", "Remove A Moscow")
    assert "Russia is due 1 removal." in text


def test_an_order_naming_the_wrong_kind_is_taken_for_the_unit_there(
    engine: Engine, started: dict[str, str]
) -> None:
    # docs/RULES.md, "The wrong unit kind": London holds a fleet; the order is read for it, the
    # echo says so, and the results name the same unit as the echo.
    text = echo(engine, started, "England", "A Lon - NTH")
    assert "= Fleet London -> North Sea" in text
    assert "(note: London holds a fleet, not an army: the order is taken for the fleet)" in text
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert current_orders(session, game)["ENGLAND"]["lon"] == "F LON - NTH"
    # Not a fleet's move: refused, and the order taken before stands.
    text = echo(engine, started, "England", "A Lon - Wal\nA Lon - Yor")
    assert "0 of 2 lines had errors." in text  # a fleet may go to both
    text = echo(engine, started, "England", "A Lon - Lvp")
    assert "ERROR: line 1, column 1: Fleet London cannot reach Liverpool" in text
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert current_orders(session, game)["ENGLAND"]["lon"] == "F LON - YOR"
