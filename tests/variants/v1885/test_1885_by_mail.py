"""A 1885 game by mail through the processor: CREATE and nine sign-ons, Rome's unit chosen in
private and revealed with the results, Davis's notation echoed in full, bad orders refused with
the line named, retreats sent with the builds and a build contingent on them, and an alliance
victory claimed by both powers."""

from __future__ import annotations

from by_mail import GAME, POWERS, echo, process, set_position, start_1885
from sqlalchemy import Engine
from test_games_by_mail import body_of, dislodged, player, send

from judge.adjudicate_json import read_case
from judge.desk.settlement import seat_orders
from judge.store import session_scope
from judge.store.game_queries import current_orders, find_game, history


def test_create_a_1885_game_and_choose_rome_in_private(engine: Engine) -> None:
    seats = start_1885(engine)
    assert len(seats) == 9
    rows = send(
        engine,
        "Rome: Fleet\nF Rome - Tyrrhenian Sea\nF Nap - Ion\nA Ven H\n",
        sender=player("Italy"),
        to=seats["Italy"],
    )
    text = echo(rows)
    assert "= The unit in Rome is a fleet" in text
    assert "= Fleet Rome -> Tyrrhenian Sea" in text
    assert "0 of 4 lines had errors." in text
    # Only Italy hears of it before the move is processed.
    assert {r.to_addr for r in rows} == {player("Italy")}
    results = process(engine, "JAN1885M")
    for power in POWERS:
        told = results[player(power)]
        assert "Movement results for January 1885." in told, power
        assert "The unit in Rome is a fleet.  (revealed: a fleet)" in told, power
        assert "Fleet Rome -> Tyrrhenian Sea." in told, power
        assert "The next phase is February 1885 Movement" in told, power
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase == "FEB1885M"
        italy = {(u["type"], u["loc"]) for u in game.position["units"] if u["power"] == "ITALY"}
    assert italy == {("F", "tys"), ("F", "ion"), ("A", "ven")}


def test_davis_notation_is_echoed_in_full_and_the_move_made(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(engine, "JAN1885M", ["FRANCE A mar", "FRANCE F lyo"])
    rows = send(
        engine,
        "A Marseilles boards F Gulf of Lions; A/F Gulf of Lions-Western Med; A disembarks Tunis\n",
        sender=player("France"),
        to=seats["France"],
    )
    text = echo(rows)
    assert (
        "= Army Marseilles boards Fleet Gulf of Lyon; Army/Fleet Gulf of Lyon -> Western "
        "Mediterranean; Army Gulf of Lyon disembarks in Tunis" in text
    )
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        stored = current_orders(session, game)["FRANCE"]
    assert stored == {
        "mar": "A MAR BOARDS F LYO",
        "lyo": "A/F LYO - WES",
        "landing lyo": "A LYO DISEMBARKS TUN",
    }
    told = process(engine, "JAN1885M")[player("England")]
    assert "Army Marseilles boards Fleet Gulf of Lyon." in told
    assert "Army/Fleet Gulf of Lyon -> Western Mediterranean." in told
    assert "Army Gulf of Lyon disembarks in Tunis." in told
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        units = {(u["type"], u["loc"]) for u in game.position["units"]}
    assert units == {("A", "tun"), ("F", "wes")}


def test_bad_orders_are_refused_with_the_line_named(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        "JAN1885M",
        ["FRANCE A mar", "ITALY F lyo", "FRANCE F wes", "FRANCE A val"],
    )
    rows = send(
        engine,
        "F WMed H\nA Mar boards F GoL\nF WMed Fast Ferry A Val - Tun\n",
        sender=player("France"),
        to=seats["France"],
    )
    text = echo(rows)
    assert (
        "ERROR: line 2: an army/fleet is of one power only (A/F module II a): the fleet in "
        "Gulf of Lyon is Italian" in text
    )
    # Valencia and Tunis both lie on the Western Mediterranean: one sea, a Fast Ferry.
    assert "= Fleet Western Mediterranean Fast Ferry Army Valencia -> Tunis" in text
    rows = send(engine, "A Val - Rom via Fast Ferry\n", sender=player("France"), to=seats["France"])
    assert (
        "ERROR: line 1: no single sea lies between Valencia and Rome: an army crosses more "
        "than one sea only aboard an army/fleet (rule 8)" in echo(rows)
    )
    rows = send(
        engine, "F WMed Fast Ferry A Val - Rom\n", sender=player("France"), to=seats["France"]
    )
    assert (
        "ERROR: line 1: the Fast Ferry crosses one sea only (rule 7): the fleet in Western "
        "Mediterranean cannot carry an army from Valencia to Rome by itself" in echo(rows)
    )
    # A retreat "off the board" or a disband is no retreat order (rule 10 b).
    set_position(
        engine,
        "JAN1885R",
        ["TURKEY A ser", "TURKEY A mac", "AUSTRIA A bud"],
        dislodged=[dislodged("AUSTRIA", "A", "ser", "bul")],
    )
    rows = send(
        engine,
        "A Ser disband\nA Ser - Bud\nA Ser R Alb\n",
        sender=player("Austria"),
        to=seats["Austria"],
    )
    text = echo(rows)
    assert "ERROR: line 1: no disband or off-the-board retreat orders (rule 10 b)" in text
    assert "ERROR: line 2: Austrian Army Serbia cannot retreat to Budapest; it may go to" in text
    assert "= Army Serbia retreats to Albania" in text


def test_retreats_with_the_builds_and_a_contingent_build(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        "MAR1885M",
        ["AUSTRIA A ser", "TURKEY A bul", "TURKEY A mac", "RUSSIA A rum"],
        centers={"AUSTRIA": ["vie", "bud"], "TURKEY": ["con", "smy"], "RUSSIA": ["rum"]},
    )
    send(engine, "A Bul - Ser\nA Mac S A Bul - Ser\n", sender=player("Turkey"), to=seats["Turkey"])
    results = process(engine, "MAR1885M")
    told = results[player("Austria")]
    assert "Retreats are sent with the builds" in told
    assert "The next phase is March 1885 Adjustments" in told
    rows = send(
        engine,
        "Build A Con if Austrian A Ser retreats to Alb\nBuild F Con unless Austrian A Ser "
        "retreats to Alb\n",
        sender=player("Turkey"),
        to=seats["Turkey"],
    )
    text = echo(rows)
    assert "= Builds an army in Constantinople if Austrian Army Serbia retreats to Albania" in text
    assert "= Builds a fleet in Constantinople unless Army Serbia" not in text
    assert "unless Austrian Army Serbia retreats to Albania" in text
    rows = send(engine, "A Ser R Alb\n", sender=player("Austria"), to=seats["Austria"])
    assert "= Army Serbia retreats to Albania" in echo(rows)
    results = process(engine, "MAR1885A")
    told = results[player("Russia")]
    assert "Army Serbia retreats to Albania." in told
    assert "Builds an army in Constantinople if Austrian Army Serbia retreats to Albania." in told
    assert "(*void*: its condition was not met)" in told
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase == "APR1885M"
        units = {(u["power"], u["type"], u["loc"]) for u in game.position["units"]}
    assert ("TURKEY", "A", "con") in units and ("AUSTRIA", "A", "alb") in units


def test_a_dislodged_unit_without_orders_retreats_by_the_right_hand_rule(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        "JAN1885M",
        ["AUSTRIA A ser", "AUSTRIA A bud", "AUSTRIA F spl", "TURKEY A bul", "TURKEY A mac"],
    )
    send(engine, "A Bul - Ser\nA Mac S A Bul - Ser\n", sender=player("Turkey"), to=seats["Turkey"])
    process(engine, "JAN1885M")
    told = process(engine, "JAN1885R")[player("France")]
    assert "Austrian Army Serbia retreats to Albania by the right-hand rule." in told
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase == "FEB1885M"


def test_an_alliance_victory_claimed_by_both(engine: Engine) -> None:
    """Rule 5 b: France and Germany, 30 units between them at the end of the June move, both
    claim the alliance victory in that move's phase."""
    seats = start_1885(engine)
    land = [
        "par", "bur", "pic", "gas", "bre", "mar", "bel", "hol", "ruh", "mun", "kie", "ber",
        "dre", "sil", "pru", "boh", "tyr", "vie", "bud", "gal", "war", "mos", "ukr", "lvn",
        "fin", "swi", "pie", "ven", "rom", "tus",
    ]  # fmt: skip
    units = [f"{'FRANCE' if i < 15 else 'GERMANY'} A {p}" for i, p in enumerate(land)]
    centres = {"FRANCE": ["par", "bre", "mar", "bel", "hol"], "GERMANY": ["ber", "kie", "mun"]}
    set_position(engine, "MAY1885M", units, centers=centres)
    for power, partner in (("France", "Germany"), ("Germany", "France")):
        rows = send(engine, f"SET CLAIM {partner}\n", sender=player(power), to=seats[power])
        reply = body_of(next(r for r in rows if r.kind == "claim_made"))
        assert f"claims in game {GAME} a win shared with {partner}" in reply
        assert "30 units on the board between them" in reply
    # May is no fall-type move: the claims lapse with it.
    told = process(engine, "MAY1885M")[player("Italy")]
    assert "The game is won" not in told
    for power, partner in (("France", "Germany"), ("Germany", "France")):
        send(engine, f"SET CLAIM {partner}\n", sender=player(power), to=seats[power])
    told = process(engine, "JUN1885M")[player("Italy")]
    assert "The game is won by France and Germany, an alliance victory claimed by both" in told
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.status == "finished"
        assert game.settings["ending"] == {"claimed": ["FRANCE", "GERMANY"]}
        assert history(session, game)[-1].phase == "JUN1885M"


def test_a_build_where_none_can_be_is_refused_with_the_line_named(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        "MAR1885A",
        ["RUSSIA A mos", "TURKEY A con"],
        centers={"RUSSIA": ["mos", "sev", "stp", "war"], "TURKEY": ["con", "mac", "sin", "smy"]},
        owners={"lev": "RUSSIA"},
    )
    text = echo(
        send(engine, "Build F Arc\nBuild A Mos\n", sender=player("Russia"), to=seats["Russia"])
    )
    assert "= Builds a fleet in Archangel" in text
    assert "ERROR: line 2: Moscow is occupied" in text
    text = echo(
        send(engine, "Build A Lev\nBuild F Ire\n", sender=player("Turkey"), to=seats["Turkey"])
    )
    assert "ERROR: line 1: Turkey does not own Levant" in text
    assert "ERROR: line 2: Ireland is not a place Turkey may build in (rule 6)" in text


def test_the_echo_of_a_build_month_names_the_retreats_owed_and_the_builds_due(
    engine: Engine,
) -> None:
    """Rule 4 and 10 a: March's adjustment phase takes the retreats with the builds, so the echo
    tells a player both which of his units must retreat, and where to, and the builds due."""
    seats = start_1885(engine)
    set_position(
        engine,
        "MAR1885M",
        ["AUSTRIA A ser", "AUSTRIA A vie", "TURKEY A bul", "TURKEY A mac", "RUSSIA A rum"],
        centers={"AUSTRIA": ["vie", "bud", "clu"], "TURKEY": ["con", "smy"], "RUSSIA": ["rum"]},
    )
    send(engine, "A Bul - Ser\nA Mac S A Bul - Ser\n", sender=player("Turkey"), to=seats["Turkey"])
    process(engine, "MAR1885M")
    text = echo(send(engine, "Build A Bud\n", sender=player("Austria"), to=seats["Austria"]))
    text = " ".join(text.split())
    assert (
        "Still to retreat: Army Serbia: may retreat to Albania, Budapest, Cluj or Split; "
        "without a retreat order it retreats by the right-hand rule (rule 10 a)." in text
    )
    # Three centres and Vienna's army on the board; Serbia's army will count if it survives.
    assert (
        "Austria is due 2 builds as the board stands before the retreats: a unit that "
        "survives its retreat counts as well" in text
    )
    # Once the retreat is ordered the echo owes nothing more for it.
    text = echo(send(engine, "A Ser R Alb\n", sender=player("Austria"), to=seats["Austria"]))
    assert "Still to retreat" not in text


def test_a_retreat_sent_with_the_move_stands_for_the_retreat(engine: Engine) -> None:
    """Rule 10 a: the right-hand rule retreats a unit "if a player fails to submit a retreat
    order", which after a spring-type move has no season of its own by post; so the order may
    come with the move, and is the unit's retreat order if the move dislodges it. The right-hand
    rule would take Serbia's army to Albania (rule 10 a's worked example, docs/RULES.md)."""
    seats = start_1885(engine)
    set_position(
        engine,
        "JAN1885M",
        ["AUSTRIA A ser", "AUSTRIA F spl", "TURKEY A bul", "TURKEY A mac"],
    )
    text = echo(
        send(
            engine, "A Ser H; if dislodged R Cluj\n", sender=player("Austria"), to=seats["Austria"]
        )
    )
    assert "= Army Serbia holds; Army Serbia retreats to Cluj if dislodged" in text
    assert "Still without orders (they hold unless ordered): Fleet Split." in text
    send(engine, "A Bul - Ser\nA Mac S A Bul - Ser\n", sender=player("Turkey"), to=seats["Turkey"])
    told = process(engine, "JAN1885M")[player("France")]
    # Fleet Split owes nothing and Austria's only dislodged unit has its retreat on file: the
    # results say the retreat phase runs at once, not that there is time to change the order.
    assert (
        "Army Serbia retreats to Cluj if dislodged. (dislodged: it retreats to Cluj by this "
        "order; no other retreat is owed, so the retreat phase is processed at once)"
    ) in " ".join(told.split())
    assert "it is processed at once: every dislodged unit's retreat order was sent" in told
    assert "Fleet Split: no order, holds." in told
    # Austria owes nothing in the retreat phase: its order stands.
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase == "JAN1885R"
        game_map, position, _, _ = read_case(game.position)
        austria = next(s for s in game.seats if s.power == "AUSTRIA")
        assert not seat_orders(game_map, position, game.phase, austria).owes_orders
    # A retreat refused in the retreat phase leaves the one sent with the move, and says so.
    text = echo(send(engine, "A Ser R Ven\n", sender=player("Austria"), to=seats["Austria"]))
    assert "ERROR: line 1: Austrian Army Serbia cannot retreat to Venice" in text
    assert (
        "without a retreat order it retreats to Cluj, as ordered with the move (rule 10 a)."
        in " ".join(text.split())
    )
    told = process(engine, "JAN1885R")[player("France")]
    assert (
        "Austrian Army Serbia retreats to Cluj by the retreat order sent with the move "
        "(rule 10 a)." in told
    )
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        assert {"power": "AUSTRIA", "type": "A", "loc": "clu"} in game.position["units"]


def test_a_retreat_sent_with_the_move_may_be_changed_in_the_retreat_phase(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(engine, "JAN1885M", ["AUSTRIA A ser", "TURKEY A bul", "TURKEY A mac"])
    send(engine, "A Ser R Cluj if dislodged\n", sender=player("Austria"), to=seats["Austria"])
    send(engine, "A Bul - Ser\nA Mac S A Bul - Ser\n", sender=player("Turkey"), to=seats["Turkey"])
    told = process(engine, "JAN1885M")[player("France")]
    # A retreat order is no order for the move: the army held.
    assert "Army Serbia: no order, holds." in told
    assert "Army Serbia retreats to Cluj if dislodged." in told
    text = echo(send(engine, "A Ser R Rum\n", sender=player("Austria"), to=seats["Austria"]))
    assert "= Army Serbia retreats to Rumania" in text
    assert "Still to retreat" not in text
    told = process(engine, "JAN1885R")[player("France")]
    assert "Army Serbia retreats to Rumania." in told
    assert "sent with the move" not in told


def test_general_orders_are_read_and_played_in_davis_notation(engine: Engine) -> None:
    """General orders (GENERAL ... ENDGENERAL) are read in the game's own order language, on its
    monthly calendar, and played for a power that sends nothing."""
    seats = start_1885(engine)
    set_position(engine, "JAN1885M", ["FRANCE A mar", "FRANCE F lyo", "FRANCE A par"])
    block = (
        "GENERAL FROM JAN1885M TO 1885\n"
        "A Mar boards F GoL; A/F GoL - WMed; A disembarks Tun\n"
        "IF French Army in Paris\n"
        "  A Par - Bur, retreat to Pic\n"
        "ENDIF\n"
        "ENDGENERAL\n"
    )
    rows = send(engine, block, sender=player("France"), to=seats["France"])
    filed = body_of(next(r for r in rows if r.kind == "general_orders_filed"))
    assert "NOT filed" not in filed, filed
    assert "Army Marseilles boards Fleet Gulf of Lyon" in filed
    assert "Army Paris retreats to Picardy if dislodged" in filed
    assert "If France sent nothing for JAN1885M, the general orders would play:" in filed
    told = process(engine, "JAN1885M")[player("England")]
    assert "Army Marseilles boards Fleet Gulf of Lyon." in told
    assert "Army Gulf of Lyon disembarks in Tunis." in told
    assert "Army Paris -> Burgundy." in told
    assert "(France sent no orders: its general orders were played.)" in told
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        units = {(u["type"], u["loc"]) for u in game.position["units"]}
        record = history(session, game)[-1]
    assert units == {("A", "tun"), ("F", "wes"), ("A", "bur")}
    assert record.orders["FRANCE"] == [
        "A MAR BOARDS F LYO",
        "A/F LYO - WES",
        "A LYO DISEMBARKS TUN",
        "A PAR - BUR",
        "A PAR R PIC IF DISLODGED",
    ]
    # February: Paris is empty, so that branch plays nothing, and the lines for units gone from
    # Marseilles and the Gulf of Lyon are refused as a mail's would be: dropped.
    rows = send(engine, "GENERAL LIST\n", sender=player("France"), to=seats["France"])
    listing = body_of(next(r for r in rows if r.kind == "general_orders_list"))
    assert "from JAN1885M to W1885A" in listing
    told = process(engine, "FEB1885M")[player("England")]
    assert "Army Marseilles boards" not in told
    assert "Army/Fleet Gulf of Lyon" not in told
    assert "Army Burgundy: no order, holds." in told


def test_an_order_of_a_move_in_a_retreat_phase_is_refused_on_arrival(engine: Engine) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        "JAN1885R",
        ["TURKEY A ser", "TURKEY A mac", "AUSTRIA A vie"],
        dislodged=[dislodged("AUSTRIA", "A", "ser", "bul")],
    )
    text = echo(send(engine, "A Vie H\n", sender=player("Austria"), to=seats["Austria"]))
    assert "ERROR: line 1: only the retreats of dislodged units in this phase" in text
    assert "Still to retreat:" in text


def test_a_retreat_sent_with_the_move_may_be_changed_while_others_are_owed(
    engine: Engine,
) -> None:
    """The retreat phase waits while another dislodged unit has no retreat order: the results
    say the order sent with the move may still be changed before it is processed."""
    seats = start_1885(engine)
    set_position(
        engine,
        "JAN1885M",
        ["AUSTRIA A ser", "AUSTRIA A rum", "TURKEY A bul", "TURKEY A mac", "RUSSIA A sev",
         "RUSSIA A ukr"],
    )  # fmt: skip
    send(engine, "A Ser R Cluj if dislodged\n", sender=player("Austria"), to=seats["Austria"])
    send(engine, "A Bul - Ser\nA Mac S A Bul - Ser\n", sender=player("Turkey"), to=seats["Turkey"])
    send(engine, "A Sev - Rum\nA Ukr S A Sev - Rum\n", sender=player("Russia"), to=seats["Russia"])
    told = " ".join(process(engine, "JAN1885M")[player("France")].split())
    assert (
        "(dislodged: it retreats to Cluj by this order unless another is sent for it before "
        "the retreat phase is processed (it waits for the retreat orders still owed))"
    ) in told
    assert "processed at once" not in told
