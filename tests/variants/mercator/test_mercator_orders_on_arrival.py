"""Mercator's orders checked when they arrive, on the world board, by the variant's own rules
(the record's `check_orders`): each wrong order a French player sent in a game of the world
board is refused with the reason and the line, with what the unit may do instead where the board
says; the right ones are taken; what depends on other powers' orders is left to the month."""

from __future__ import annotations

from sqlalchemy import Engine
from test_games_by_mail import body_of, dislodged, player, send, set_position, stored_orders
from test_world_by_mail import start_world


def echo(engine: Engine, seats: dict[str, str], power: str, text: str) -> str:
    rows = send(engine, text, sender=player(power), to=seats[power])
    return body_of(next(r for r in rows if r.kind == "orders_read")).replace("\r\n", "\n")


def test_a_month_s_wrong_orders_are_refused_with_the_reason(engine: Engine) -> None:
    seats = start_world(engine)
    text = echo(
        engine,
        seats,
        "France",
        "TS2 A(Ber) - Sil\nF(Bre) - Lon\nTS3 A(Par) - Pic\nTS3 F(Bre) - MAO\n",
    )
    assert (
        "ERROR: line 1: France has no unit in Berlin (the army there is German), and none of "
        "its armies aboard a fleet can land there in time scale 1"
    ) in text
    assert "ERROR: line 2: Fleet Brest cannot reach London; it can move to " in text
    assert "Mid-Atlantic Ocean" in text.split("it can move to ")[1].split("\n")[0]
    assert (
        "ERROR: line 3: in time scale 3 only a fleet that disembarked an army or an army/fleet "
        "formed by embarking may move (rule 2.5): the unit in Paris may not move in time scale 3"
    ) in text
    assert "ERROR: line 4: in time scale 3 only a fleet" in text
    assert "4 of 4 lines had errors." in text
    assert stored_orders(engine, "FRANCE", "world") == {}


def test_right_orders_and_orders_that_depend_on_others_are_taken(engine: Engine) -> None:
    seats = start_world(engine)
    text = echo(
        engine,
        seats,
        "France",
        # A support of a German move Germany may never order, a fleet move in time scale 3 from
        # a sea where the fleet might take an army by then: both wait for the month.
        "TS2\nF(Bre) - MAO\nA(Par) - Bur\nA(Mar) S A(Mun) - Bur\nTS3\nF(MAO) - NAO\n",
    )
    assert "0 of 6 lines had errors." in text
    assert set(stored_orders(engine, "FRANCE", "world")) == {
        "ts2 bre",
        "ts2 par",
        "ts2 mar",
        "ts3 mao",
    }


def test_a_retreat_outside_the_places_offered_is_refused(engine: Engine) -> None:
    seats = start_world(engine)
    retreating = dislodged("FRANCE", "F", "nth", "hel") | {
        "retreats": ["nwg", "edi"],
        "time_scale": 2,
    }
    set_position(
        engine,
        "JAN1901R",
        game_name="world",
        units=[
            {"power": "GERMANY", "type": "F", "loc": "nth"},
            {"power": "RUSSIA", "type": "A", "loc": "nwy"},
        ],
        dislodged=[retreating],
    )
    text = echo(engine, seats, "France", "F(NTH) - Nwy\n")
    assert (
        "ERROR: line 1: Fleet North Sea cannot retreat to Norway; it may retreat to Norwegian "
        "Sea, Edinburgh or disband"
    ) in text
    # The echo offers the same places.
    assert "Fleet North Sea: may retreat to Norwegian Sea or Edinburgh" in text
    text = echo(engine, seats, "France", "F(NTH) - NWG\n")
    assert "0 of 1 line had errors." in text


def test_a_build_on_an_occupied_centre_or_beyond_those_due_is_refused(engine: Engine) -> None:
    seats = start_world(engine)
    set_position(
        engine,
        "MAR1901A",
        game_name="world",
        units=[
            {"power": "RUSSIA", "type": "A", "loc": "nwy"},
            {"power": "RUSSIA", "type": "A", "loc": "mos"},
        ],
        centers={"RUSSIA": ["mos", "war", "nwy"]},
    )
    text = echo(engine, seats, "Russia", "Build A Nwy\nBuild A War\nBuild A Sev\n")
    assert (
        "ERROR: line 1: NWY is occupied; Russia may build an army in Archangel, Finland, "
        "Livonia, Ukraine, Urals, Vladivostok, Warsaw"
    ) in text
    assert "ERROR: line 3: RUSSIA has no more builds due\n" in text
    assert "= Builds an army in Warsaw" in text
    assert "ERROR: line 3: " in text
    assert set(stored_orders(engine, "RUSSIA", "world")) == {"ts0 war"}
