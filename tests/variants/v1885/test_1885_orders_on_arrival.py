"""1885's orders checked when they arrive, by the variant's own rules (the record's
`check_orders`): a fleet's move to a place it cannot reach, more builds than are due, and the
wrong unit kind read for the unit that is there (docs/RULES.md, "The wrong unit kind")."""

from __future__ import annotations

from by_mail import GAME, echo, process, set_position, start_1885
from sqlalchemy import Engine
from test_games_by_mail import player, send, stored_orders


def test_a_fleet_move_to_a_place_it_cannot_reach_is_refused_with_its_moves(
    engine: Engine,
) -> None:
    seats = start_1885(engine)
    text = echo(send(engine, "F Edi - Lon\n", sender=player("England"), to=seats["England"]))
    assert "ERROR: line 1: Fleet Edinburgh cannot reach London; it can move to " in text
    assert "North Sea" in text.split("it can move to ")[1].split("\n")[0]
    assert "0 of 1 line" not in text
    assert "edi" not in stored_orders(engine, "ENGLAND", GAME)
    text = echo(send(engine, "F Edi - NTH\n", sender=player("England"), to=seats["England"]))
    assert "0 of 1 line had errors." in text


def test_three_builds_when_one_is_due_the_extra_ones_are_refused(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        "MAR1885A",
        ["ENGLAND F edi", "ENGLAND A yor"],
        centers={"ENGLAND": ["edi", "lon", "lvp"]},
    )
    text = echo(
        send(
            engine,
            "Build F Lon\nBuild A Lvp\nWaive\n",
            sender=player("England"),
            to=seats["England"],
        )
    )
    assert "= Builds a fleet in London" in text
    assert "ERROR: line 2: only 1 build(s) due" in text
    assert "ERROR: line 3: only 1 build(s) due" in text
    assert set(stored_orders(engine, "ENGLAND", GAME)) == {"lon"}
    # A build in place of the one taken (the same centre) is no extra build.
    text = echo(send(engine, "Build A Lon\n", sender=player("England"), to=seats["England"]))
    assert "0 of 1 line had errors." in text


def test_an_order_naming_the_wrong_kind_is_taken_for_the_unit_there(engine: Engine) -> None:
    seats = start_1885(engine)
    england = seats["England"]
    send(engine, "F Lon - ENG\n", sender=player("England"), to=england)
    text = echo(send(engine, "A Lon H\n", sender=player("England"), to=england))
    # Read for the fleet, and said so: the echo and the results name the same unit.
    assert "= Fleet London holds" in text
    assert "London holds a fleet, not an army: the order is taken for the fleet" in text
    assert stored_orders(engine, "ENGLAND", GAME)["lon"] == "F LON H"
    text = echo(send(engine, "F Vie - Boh\n", sender=player("Austria"), to=seats["Austria"]))
    assert "= Army Vienna -> Bohemia" in text
    assert "Vienna holds an army, not a fleet" in text
    # A wrong kind whose order the unit there cannot carry out is refused, and the good order
    # stands.
    text = echo(send(engine, "A Lon - Lvp\n", sender=player("England"), to=england))
    assert "ERROR: line 1: Fleet London cannot reach Liverpool" in text
    assert stored_orders(engine, "ENGLAND", GAME)["lon"] == "F LON H"
    mails = process(engine, "JAN1885M")
    results = next(iter(mails.values()))
    assert "Army London" not in results
    assert "Fleet Vienna" not in results
