"""General orders by mail, through the processor: filed by a seat, read back by the player and
the GM, played by PROCESS for a power that sent nothing, and set aside by orders sent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine
from test_deadlines import GRACE_ENDS, HOLDS, scheduled
from test_games_by_mail import GM, player, send
from test_games_by_mail import body_of as raw_body_of

from judge.desk import games
from judge.desk import general_orders as desk_general_orders
from judge.games.seats import SeatStatus
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import current_orders, find_game, general_orders, history

STRATEGY = """GENERAL FROM S1901M TO 1902
A Par - Bur
IF Bel owned by nobody AND PHASE FALL
  A Bur - Bel
ENDIF
IF Russian Army in Galicia
  A Mar - Pie
ELSE
  A Mar - Spa
ENDIF
F Bre - MAO
ENDGENERAL"""


@pytest.fixture(autouse=True)
def _general_orders_at_the_desk(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The desk serves GENERAL, GENERAL CLEAR and GENERAL LIST once judge/desk/games.py names
    judge.desk.general_orders among its modules; until then the tests add its HANDLERS."""
    if not all(kind in games.HANDLERS for kind in desk_general_orders.HANDLERS):
        monkeypatch.setattr(games, "HANDLERS", {**games.HANDLERS, **desk_general_orders.HANDLERS})
    yield


def body_of(row: OutboxMessage) -> str:
    """The mail's text with plain newlines, so indented lines can be checked as written."""
    return raw_body_of(row).replace("\r\n", "\n")


def _results(rows: list[OutboxMessage], address: str) -> str:
    return next(body_of(r) for r in rows if r.kind == "results" and r.to_addr == address)


def test_general_orders_are_filed_echoed_and_played_when_nothing_is_sent(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, STRATEGY, sender=player("France"), to=started["France"])
    assert [r.kind for r in rows] == ["general_orders_filed"]
    text = body_of(rows[0])
    assert "from S1901M to W1902A" in text
    assert "  Army Paris -> Burgundy" in text
    assert "  IF Belgium owned by nobody AND PHASE FALL\n    Army Burgundy -> Belgium" in text
    assert "  ELSE\n    Army Marseilles -> Spain" in text
    # What they would play now: no Russian army in Galicia, not fall, so Marseilles goes to Spain.
    assert "If France sent nothing for S1901M, the general orders would play:" in text
    assert "  Army Marseilles -> Spain\n" in text
    assert "Army Burgundy -> Belgium\n  Army" not in text.split("would play:")[1]

    # England sends orders; France sends nothing: its general orders are played.
    send(engine, "F LON - NTH", sender=player("England"), to=started["England"])
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    results = _results(rows, player("Germany"))
    assert "France: Army Paris -> Burgundy." in results
    assert "France: Army Marseilles -> Spain." in results
    assert "France: Fleet Brest -> Mid-Atlantic Ocean." in results
    assert "England: Fleet London -> North Sea." in results
    assert "(France sent no orders: its general orders were played.)" in results
    assert "England sent no orders" not in results
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        record = history(session, game)[-1]
        assert record.orders["FRANCE"] == ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"]
        assert "GERMANY" not in record.orders  # no general orders: its units stood
        assert game.phase == "F1901M"


def test_conditions_are_read_on_the_board_of_the_phase_and_lost_units_dropped(
    engine: Engine, started: dict[str, str]
) -> None:
    france = started["France"]
    send(engine, STRATEGY, sender=player("France"), to=france)
    # Spring: France sends its own orders, the same moves; its general orders are not used.
    send(engine, "A PAR - BUR\nA MAR - SPA\nF BRE - MAO", sender=player("France"), to=france)
    send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    # Fall, nothing sent: Belgium is nobody's and it is the fall, so Burgundy goes on to Belgium;
    # Paris, Marseilles and Brest are empty now, so the orders naming them are dropped.
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    results = _results(rows, player("France"))
    assert "France: Army Burgundy -> Belgium." in results
    assert "France: Army Paris" not in results
    assert "France: Army Marseilles" not in results
    assert "France: Fleet Brest" not in results
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert history(session, game)[-1].orders["FRANCE"] == ["A BUR - BEL"]


def test_orders_sent_override_general_orders_and_civil_disorder_ignores_them(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, STRATEGY, sender=player("France"), to=started["France"])
    send(engine, "A PAR - PIC", sender=player("France"), to=started["France"])
    england = "GENERAL\nF Lon - Nth\nENDGENERAL"
    send(engine, england, sender=player("England"), to=started["England"])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        next(s for s in game.seats if s.power == "ENGLAND").status = SeatStatus.CIVIL_DISORDER
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    results = _results(rows, player("Italy"))
    assert "France: Army Paris -> Picardy." in results
    assert "Burgundy" not in results
    assert "Marseilles -> " not in results  # partial orders: the rest stand, as in seed 004 I.B
    assert "North Sea" not in results  # in civil disorder its units stand, general orders or not
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert history(session, game)[-1].orders["FRANCE"] == ["A PAR - PIC"]
        assert "ENGLAND" not in history(session, game)[-1].orders


def test_a_block_with_faults_is_not_filed_and_each_fault_is_named(
    engine: Engine, started: dict[str, str]
) -> None:
    mail = (
        "GENERAL\nA Par - Xyz\nGermany: A Mun - Ruh\nIF Galiza\n  A Mar H\nENDIF\n"
        "IF Bel owned by Spain\nENDIF\nENDGENERAL"
    )
    rows = send(engine, mail, sender=player("France"), to=started["France"])
    assert [r.kind for r in rows] == ["general_orders_filed"]
    text = body_of(rows[0])
    assert "NOT filed" in text
    assert "line 2, column 9: expected a province" in text
    assert "line 3, column 1: you play France, not Germany" in text
    assert "line 4, column 4: no province: found 'Galiza' (did you mean Galicia" in text
    assert "line 7, column 17: 'Spain' is no power" in text

    rows = send(engine, "GENERAL\nA Par - Bur\n", sender=player("France"), to=started["France"])
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "GENERAL has no ENDGENERAL after it, so nothing was filed" in body_of(rows[0])

    rows = send(
        engine,
        "GENERAL TO 1900\nA Par H\nENDGENERAL",
        sender=player("France"),
        to=started["France"],
    )
    assert "NOT filed" in body_of(rows[0])
    assert "the period ends with W1900A, before S1901M" in body_of(rows[0])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert general_orders(session, game) == []
        assert current_orders(session, game) == {}  # nothing leaked into this phase's orders


def test_filing_needs_the_seat_not_a_from_line(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, STRATEGY, sender=player("France"))  # no token, no password
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "line 1: GENERAL not taken: " in body_of(rows[0])
    assert "can be forged" in body_of(rows[0])
    # With the password on a SIGNON line, it is filed.
    rows = send(engine, "SIGNON France alpha pw-France\n" + STRATEGY, sender="else@example.org")
    assert "general_orders_filed" in rows[0].kind.split("+")


def test_refiling_the_same_period_replaces_and_clear_withdraws(
    engine: Engine, started: dict[str, str]
) -> None:
    france = started["France"]
    send(engine, "GENERAL\nA Par H\nENDGENERAL", sender=player("France"), to=france)
    send(engine, STRATEGY, sender=player("France"), to=france)
    rows = send(
        engine,
        "GENERAL FROM S1901M TO W1902A\nA Par - Pic\nEND GENERAL",
        sender=player("France"),
        to=france,
    )
    assert "They replace the general orders filed before" in body_of(rows[0])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert [(g.valid_from, g.valid_to, g.text) for g in general_orders(session, game)] == [
            (None, None, "A PAR H"),
            ("S1901M", "W1902A", "A PAR - PIC"),
        ]
    # The shorter period applies to S1901M.
    rows = send(engine, "GENERAL LIST", sender=player("France"), to=france)
    text = body_of(rows[0])
    assert (
        "General orders from S1901M to W1902A (these apply to S1901M):\n    Army Paris -> Picardy"
        in text
    )
    assert "General orders for every phase:\n    Army Paris holds" in text
    assert "they would play: Army Paris -> Picardy." in text

    rows = send(engine, "GENERAL CLEAR FROM S1901M TO 1902", sender=player("France"), to=france)
    assert (
        "1 general order of France in game alpha filed from S1901M to W1902A was withdrawn"
        in body_of(rows[0])
    )
    assert "1 other stays on file" in body_of(rows[0])
    rows = send(engine, "GENERAL CLEAR", sender=player("France"), to=france)
    assert "None is on file now" in body_of(rows[0])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert general_orders(session, game) == []


def test_the_gm_reads_every_powers_general_orders_a_player_only_his_own(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, STRATEGY, sender=player("France"), to=started["France"])
    send(engine, "PHASE Fall 1901\nF Lon - Nth\n", sender=player("England"), to=started["England"])
    rows = send(engine, "SIGNON M alpha gmsecret\nGENERAL LIST", sender=GM)
    assert [r.kind for r in rows] == ["general_orders_list"]
    text = body_of(rows[0])
    assert "as the GM may read them" in text
    assert "France:\n  General orders from S1901M to W1902A (these apply to S1901M):" in text
    assert "England:\n  General orders for F1901M only:\n    Fleet London -> North Sea" in text
    assert "Germany:\n  none on file" in text
    rows = send(engine, "SIGNON M alpha gmsecret\nGENERAL LIST england", sender=GM)
    assert "France:" not in body_of(rows[0]) and "England:" in body_of(rows[0])

    rows = send(engine, "GENERAL LIST France", sender=player("England"), to=started["England"])
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "a player reads only his own general orders" in body_of(rows[0])
    rows = send(engine, "GENERAL LIST", sender=player("England"), to=started["England"])
    assert "France" not in body_of(rows[0])
    assert "Fleet London -> North Sea" in body_of(rows[0])


def test_the_scheduler_plays_general_orders_for_a_power_that_missed_the_deadline(
    engine: Engine, started: dict[str, str]
) -> None:
    """The usual way general orders come into play: grace ends with nothing from the power. It
    is still a missed move (seed 004: general orders stand in for the orders, they are not
    orders), so the GM is told and a replacement is sought, and the units follow them."""
    send(engine, STRATEGY, sender=player("France"), to=started["France"])
    for power, orders in HOLDS.items():
        if power != "France":
            send(engine, orders, sender=player(power), to=started[power])
    rows = scheduled(engine, GRACE_ENDS)
    results = _results(rows, player("England"))
    assert "France: Army Paris -> Burgundy." in results
    assert "France: Army Marseilles -> Spain." in results
    assert "France: Fleet Brest -> Mid-Atlantic Ocean." in results
    # The GM hears that France's missed move is covered by its general orders.
    [told] = [r for r in rows if r.kind == "missed_turn"]
    assert "France has general orders on file for S1901M" in body_of(told)
    assert "sent no orders by the end of grace" in body_of(told)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert game.phase == "F1901M"
        france = next(s for s in game.seats if s.power == "FRANCE")
        assert france.missed_turns == 1 and france.status == SeatStatus.PLAYING
