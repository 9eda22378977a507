"""Mercator on its world board by mail through the processor: CREATE starts a game on it, the
thirteen powers sign on by name, a spare unit is placed, an army lands in a foreign home
province and the results name who owns it; CREATE may name the standard board instead; and a
power keeping its spare unit owes no removal at the first build season."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, reply_address, send

from judge.store import session_scope
from judge.store.game_queries import current_orders, find_game

WORLD = (
    "England", "France", "Germany", "Italy", "Russia", "Turkey", "America", "Brazil",
    "Argentina", "Australia", "Japan", "China", "India",
)  # fmt: skip


def start_world(engine: Engine, game: str = "world") -> dict[str, str]:
    created = send(engine, f"CREATE {game} gmsecret mercator", sender=GM)
    assert [r.kind for r in created] == ["game_created"]
    assert "Mercator, on the board of Mercator World" in body_of(created[0])
    seats: dict[str, str] = {}
    for power in WORLD:
        rows = send(engine, f"SIGNON {power} {game} pw-{power}", sender=player(power))
        own = next(r for r in rows if "signed_on" in r.kind.split("+"))
        seats[power] = reply_address(own)
    return seats


def _position(engine: Engine, game: str = "world") -> dict[str, Any]:
    with session_scope(engine) as session:
        found = find_game(session, game)
        assert found is not None and found.position is not None
        return dict(found.position)


def test_create_starts_a_game_on_the_world_board(engine: Engine) -> None:
    start_world(engine)
    position = _position(engine)
    assert position["map"] == "mercator-world" and position["phase"] == "JAN1901M"
    assert len(position["units"]) == 46
    assert {"power": "BRAZIL", "type": "F", "loc": "rio"} in position["units"]
    with session_scope(engine) as session:
        game = find_game(session, "world")
        assert game is not None and str(game.status) == "active"
        assert sorted(s.power for s in game.seats) == sorted(p.upper() for p in WORLD)


def test_a_spare_placed_and_a_landing_in_a_foreign_home_province(engine: Engine) -> None:
    """January: Germany places its spare fleet in Cameroon (9); a French army embarks in time
    scale 3 and its army/fleet sails on to the Irish Sea. February: the army lands in Wales,
    an English home province, which becomes French (5.1); England's own home provinces are not
    listed as owned, Wales is."""
    seats = start_world(engine)
    rows = send(
        engine, "Spare F Cmr\nTS2\nF(Cmr) - GoG", sender=player("Germany"), to=seats["Germany"]
    )
    echo = body_of(next(r for r in rows if "orders_read" in r.kind.split("+")))
    assert "0 of 3 lines had errors." in echo
    rows = send(
        engine,
        "TS2\nF(Bre) - ENC\nA(Par) - Pic\nTS3\nA(Pic) E F(ENC)\nA/F(ENC) - IRI",
        sender=player("France"),
        to=seats["France"],
    )
    assert "0 of 6 lines had errors." in body_of(
        next(r for r in rows if "orders_read" in r.kind.split("+"))
    )
    results = send(engine, "SIGNON M world gmsecret\nPROCESS\n", sender=GM)
    text = next(
        body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Brazil")
    ).replace("\r\n", "\n")
    assert "Movement results for January 1901." in text
    assert "Germany:\n    Spare unit: Fleet Cameroon.  (placed)" in text
    assert "    Army Picardy embarks on Fleet English Channel." in text
    assert "    Army/Fleet English Channel -> Irish Sea." in text
    assert "Provinces owned" not in text  # France's Picardy and Germany's Cameroon are their own
    units = {(u["power"], u["type"], u["loc"]) for u in _position(engine)["units"]}
    assert ("GERMANY", "F", "gog") in units and ("FRANCE", "AF", "iri") in units
    send(engine, "TS1\nA(IRI) L Wal", sender=player("France"), to=seats["France"])
    results = send(engine, "SIGNON M world gmsecret\nPROCESS\n", sender=GM)
    text = next(
        body_of(r) for r in results if r.kind == "results" and r.to_addr == player("England")
    ).replace("\r\n", "\n")
    assert "France:\n  Time scale 1:\n    Army Irish Sea lands in Wales." in text
    owned = text.split("Provinces owned (not supply centres):\n")[1].split("\n\n")[0]
    assert owned == "  France: Wales"
    assert _position(engine)["owners"]["wal"] == "FRANCE"


def test_place_is_the_spare_units_order_not_a_mistyped_command(engine: Engine) -> None:
    """Rule 9: the spare unit "is placed" by the player, so `Place F Cmr` (any letter case, the
    place in parentheses or not) is the spare's order as `Spare F Cmr` is, in a Mercator game,
    after a SIGNON or by the seat's reply address; the command reader takes it for no mistyped
    PHASE or REPLACE. In a standard game, which has no such order, it still is one."""
    seats = start_world(engine)
    rows = send(
        engine, "PLACE F(Cmr)\nTS2\nF(Cmr) - GoG", sender=player("Germany"), to=seats["Germany"]
    )
    assert [r.kind for r in rows] == ["orders_read"]
    echo = body_of(rows[0])
    assert "= Spare unit: Fleet Cameroon" in echo and "0 of 3 lines had errors." in echo
    rows = send(engine, "SIGNON Russia world pw-Russia\nplace a ukr\n", sender=player("Russia"))
    assert [r.kind for r in rows] == ["signed_on+orders_read"]  # no desk_problems
    echo = body_of(rows[0])
    assert "= Spare unit: Army Ukraine" in echo and "0 of 1 line had errors." in echo
    with session_scope(engine) as session:
        game = find_game(session, "world")
        assert game is not None
        stored = current_orders(session, game)
    assert stored["GERMANY"]["ts0 cmr"] == "Spare F(CMR)"
    assert stored["RUSSIA"]["ts0 ukr"] == "Spare A(UKR)"
    results = send(engine, "SIGNON M world gmsecret\nPROCESS\n", sender=GM)
    text = next(
        body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Brazil")
    ).replace("\r\n", "\n")
    assert "Germany:\n    Spare unit: Fleet Cameroon.  (placed)" in text
    assert "Russia:\n    Spare unit: Army Ukraine.  (placed)" in text
    send(engine, "CREATE std gmsecret standard", sender=GM)
    rows = send(engine, "SIGNON Germany std pw\nPlace A Mun\n", sender=player("Germany"))
    told = "\n".join(body_of(r) for r in rows)
    assert "'Place' is no command; did you mean" in told


def test_create_may_name_the_standard_board(engine: Engine) -> None:
    rows = send(engine, "CREATE std gmsecret mercator standard", sender=GM)
    assert "Mercator, on the board of Standard Diplomacy" in body_of(rows[0])
    with session_scope(engine) as session:
        game = find_game(session, "std")
        assert game is not None
        assert sorted(s.power for s in game.seats) == [
            "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
        ]  # fmt: skip
    rows = send(engine, "CREATE two gmsecret mercator standard mercator-world", sender=GM)
    assert "name one board, not standard, mercator-world" in body_of(rows[0])
    rows = send(engine, "CREATE yng gmsecret mercator youngstown", sender=GM)
    refusal = body_of(rows[0])
    assert "unknown rule set 'youngstown'" in refusal
    assert "Mercator plays on the boards mercator-world, standard" in refusal
    with session_scope(engine) as session:
        assert find_game(session, "two") is None and find_game(session, "yng") is None


def test_a_spare_kept_owes_no_removal_at_the_first_build_season(engine: Engine) -> None:
    """Rule 9: Germany keeps its spare over its three centres until the third build season, so
    the March results show no removal for it, in March it owes nothing and its silence is no
    missed turn; the GM is told of none."""
    seats = start_world(engine)
    with session_scope(engine) as session:
        game = find_game(session, "world")
        assert game is not None
        position = dict(game.position or {})
        units = [u for u in position["units"] if u["power"] in ("GERMANY", "ITALY")]
        units.append({"power": "GERMANY", "type": "F", "loc": "cmr"})
        game.phase = "MAR1901M"
        game.position = {
            **position,
            "phase": "MAR1901M",
            "units": units,
            "centers": {"GERMANY": ["ber", "kie", "mun"], "ITALY": ["nap", "rom", "tun", "ven"]},
            "state": {"months": 2, "spares": {"GERMANY": 1}},
        }
    for power in ("Germany", "Italy"):
        send(engine, "TS2\nA(Rom) H" if power == "Italy" else "TS2\nA(Ber) H",
             sender=player(power), to=seats[power])  # fmt: skip
    results = send(engine, "SIGNON M world gmsecret\nPROCESS MAR1901M\n", sender=GM)
    text = next(
        body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Brazil")
    ).replace("\r\n", "\n")
    assert "  Germany (3): Berlin, Kiel, Munich.\n" in text  # no "removes 1"
    assert "  Italy (4): Naples, Rome, Tunis, Venice.  builds 1\n" in text
    results = send(engine, "SIGNON M world gmsecret\nPROCESS MAR1901A MISSED\n", sender=GM)
    kinds = [r.kind for r in results]
    assert "results" in kinds
    told = "\n".join(body_of(r) for r in results if r.kind == "missed_turn")
    assert "Germany" not in told
    assert "Italy" in told  # Italy had a build to make and sent nothing
    with session_scope(engine) as session:
        game = find_game(session, "world")
        assert game is not None and game.phase == "APR1901M"
        german = sorted(u["loc"] for u in (game.position or {})["units"] if u["power"] == "GERMANY")
    assert german == ["ber", "cmr", "kie", "mun"]
