"""A Mercator game by mail through the processor: CREATE, seven sign-ons, a month's orders in
sections echoed as read, the GM's PROCESS, and the month's results as each player reads them."""

from __future__ import annotations

from sqlalchemy import Engine
from test_games_by_mail import GM, POWERS, body_of, player, reply_address, send, set_position

from judge.store import session_scope
from judge.store.game_queries import current_orders, find_game


def start_mercator(engine: Engine) -> dict[str, str]:
    """A Mercator game on the standard board (the rules' examples are written on it)."""
    created = send(engine, "CREATE merc gmsecret mercator standard", sender=GM)
    assert [r.kind for r in created] == ["game_created"]
    assert "Mercator, on the board of Standard Diplomacy" in body_of(created[0])
    addresses: dict[str, str] = {}
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} merc pw-{power}", sender=player(power))
        own = next(r for r in rows if r.kind.startswith("signed_on"))  # the last: +game_started
        addresses[power] = reply_address(own)
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None and game.phase == "JAN1901M"
        assert game.position["variant"] == "mercator"
        assert game.position["map"] == "standard"
    return addresses


def test_a_month_by_mail(engine: Engine) -> None:
    seats = start_mercator(engine)
    rows = send(engine, "TS1\nA(Lon) B F(NTH)\n", sender=player("England"), to=seats["England"])
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    # England begins with fleets in London and Edinburgh: time scale 1 is checked on arrival.
    assert "ERROR: line 2: there is no army in London" in echo
    rows = send(
        engine,
        "TS2\nF(Edi) - NTH\nA(Lvp) - Yor\nF(Lon) - ENC\nTS3\nA(Yor) E F(NTH)\nA/F(NTH) - HEL\n",
        sender=player("England"),
        to=seats["England"],
    )
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    assert "(time scale 2)" in echo
    assert "= TS2: Fleet Edinburgh -> North Sea" in echo
    assert "= TS3: Army Yorkshire embarks on Fleet North Sea" in echo
    assert "0 of 7 lines had errors." in echo
    rows = send(engine, "TS1\nA(Par) L Bre\n", sender=player("France"), to=seats["France"])
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    assert "ERROR: line 2: there is no army aboard a fleet in Paris (an army is there)" in echo
    rows = send(engine, "TS3\nA(Par) L Bre\n", sender=player("France"), to=seats["France"])
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    assert "a landing (L) belongs in time scale 1, not time scale 3" in echo
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None
        stored = current_orders(session, game)["ENGLAND"]
    assert stored["ts3 army yor"] == "TS3 A(YOR) E F(NTH)"
    results = send(engine, "SIGNON M merc gmsecret\nPROCESS\n", sender=GM)
    mails = {r.to_addr: body_of(r) for r in results if r.kind == "results"}
    england = mails[player("England")]
    assert "Movement results for January 1901." in england
    assert "  Time scale 2:\n    Fleet Edinburgh -> North Sea." in england.replace("\r\n", "\n")
    assert "Army Yorkshire embarks on Fleet North Sea." in england
    assert "Yorkshire" in england.split("Provinces owned")[1]  # the army passed through it
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None and game.phase == "FEB1901M"
        units = {(u["type"], u["loc"]) for u in game.position["units"] if u["power"] == "ENGLAND"}
        assert game.position["owners"] == {"yor": "ENGLAND"}
    assert units == {("F", "eng"), ("AF", "hel")}
    # HISTORY reads the stored month back as the variant writes it.
    rows = send(engine, "HISTORY merc FROM JAN1901M\n", sender=player("Italy"))
    told = body_of(next(r for r in rows if r.kind == "history"))
    assert "Variant: Mercator" in told
    assert "Army Yorkshire embarks on Fleet North Sea." in told


def test_a_two_way_win_claimed_by_mail(engine: Engine) -> None:
    """Rule 10: France and Germany hold 24 centres together in March; both claim the win that
    season, and the game ends with the March moves."""
    seats = start_mercator(engine)
    centres = {
        "FRANCE": [
            "bre",
            "par",
            "mar",
            "spa",
            "por",
            "bel",
            "hol",
            "lon",
            "lvp",
            "edi",
            "nwy",
            "tun",
        ],
        "GERMANY": [
            "ber",
            "kie",
            "mun",
            "den",
            "swe",
            "war",
            "mos",
            "stp",
            "sev",
            "vie",
            "bud",
            "tri",
        ],
        "ITALY": ["rom", "nap", "ven"],
    }
    set_position(
        engine,
        "MAR1903M",
        game_name="merc",
        units=[
            {"power": "FRANCE", "type": "A", "loc": "par"},
            {"power": "GERMANY", "type": "A", "loc": "ber"},
            {"power": "ITALY", "type": "A", "loc": "rom"},
        ],
        centers=centres,
    )
    rows = send(engine, "SET CLAIM Germany\n", sender=player("France"), to=seats["France"])
    reply = body_of(next(r for r in rows if r.kind == "claim_made"))
    assert "France claims in game merc a win shared with Germany." in reply
    rows = send(
        engine,
        "SET CLAIM France Germany Italy Russia\n",
        sender=player("Germany"),
        to=seats["Germany"],
    )
    assert any("one, two or three powers" in body_of(r) for r in rows)
    send(engine, "SET CLAIM France\n", sender=player("Germany"), to=seats["Germany"])
    results = send(engine, "SIGNON M merc gmsecret\nPROCESS\n", sender=GM)
    text = next(body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Italy"))
    assert "The game is won by France and Germany, who claimed the win together (rule 10)." in text
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None and str(game.status) == "finished"
        assert "claims" not in game.settings


def test_a_claim_in_the_standard_game_is_refused(engine: Engine) -> None:
    send(engine, "CREATE std gmsecret standard", sender=GM)
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} std pw-{power}", sender=player(power))
    rows = send(engine, "SIGNON France std pw-France\nSET CLAIM Germany\n", sender=player("France"))
    text = "\n".join(body_of(r) for r in rows)
    assert "wins are not claimed in Standard" in text


def test_an_army_fleet_order_for_a_fleet_is_taken_with_a_warning(engine: Engine) -> None:
    """2.4: the order names an army/fleet where the month begins with a fleet that England's
    own boarding in time scale 1 may make one; the echo says so, and the order stands only if
    the boarding succeeds. Where nothing can make the fleet an army/fleet by time scale 2 (a
    fleet in London: an army/fleet stands only at sea, rule 2.2) the order is refused."""
    seats = start_mercator(engine)
    set_position(
        engine,
        "JAN1901M",
        game_name="merc",
        units=[
            {"power": "ENGLAND", "type": "F", "loc": "nth"},
            {"power": "ENGLAND", "type": "A", "loc": "yor"},
            {"power": "ENGLAND", "type": "F", "loc": "lon"},
        ],
    )
    rows = send(
        engine,
        "TS1\nA(Yor) B F(NTH)\nTS2\nA/F(NTH) - NWG\n",
        sender=player("England"),
        to=seats["England"],
    )
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    assert (
        "= TS2: Army/Fleet North Sea -> Norwegian Sea\r\n      (note: at the start of the month "
        "the unit in North Sea is a fleet, not an army/fleet: this order stands only if the "
        "earlier time scales make it one (rule 2.4))"
    ) in echo
    assert "0 of 4 lines had errors." in echo
    rows = send(engine, "TS2\nA/F(Lon) - NTH\n", sender=player("England"), to=seats["England"])
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    assert "ERROR: line 2: Fleet London: the unit in LON is a fleet, not an army/fleet" in echo


def test_the_gm_removes_by_rule_7_for_a_player_who_sends_none(engine: Engine) -> None:
    """Italy owes a removal in March and sends nothing: the GM's PROCESS takes the unit
    furthest from Italy's home centres (rule 7), and every player reads which."""
    start_mercator(engine)
    set_position(
        engine,
        "MAR1901A",
        game_name="merc",
        units=[
            {"power": "ITALY", "type": "A", "loc": "rom"},
            {"power": "ITALY", "type": "A", "loc": "ven"},
            {"power": "ITALY", "type": "A", "loc": "boh"},
            {"power": "FRANCE", "type": "A", "loc": "par"},
        ],
        centers={"ITALY": ["rom", "nap"], "FRANCE": ["par"]},
    )
    results = send(engine, "SIGNON M merc gmsecret\nPROCESS MAR1901A\n", sender=GM)
    text = next(
        body_of(r) for r in results if r.kind == "results" and r.to_addr == player("France")
    )
    assert "Removed:\r\n  Italy Army Bohemia" in text
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None and game.phase == "APR1901M"
        italian = sorted(u["loc"] for u in game.position["units"] if u["power"] == "ITALY")
    assert italian == ["rom", "ven"]


def test_one_premium_build_worth_both_builds_due_completes_the_orders(engine: Engine) -> None:
    """5.3: Germany has two builds due and owns Gascony; one build there costs both (the second
    withheld to the next adjustment). That one order is all Germany owes: its orders are
    complete, and with every seat complete the scheduler runs the phase early."""
    from datetime import UTC, datetime, timedelta

    from judge import clock
    from judge.scheduler import run_due
    from judge.store.outbox import Identity

    seats = start_mercator(engine)
    set_position(
        engine,
        "MAR1901A",
        game_name="merc",
        units=[
            {"power": "GERMANY", "type": "A", "loc": "ber"},
            {"power": "FRANCE", "type": "A", "loc": "par"},
        ],
        centers={"GERMANY": ["ber", "kie", "mun"], "FRANCE": ["par"]},
        owners={"gas": "GERMANY"},
    )
    sent_at = datetime(2026, 4, 2, 9, tzinfo=UTC)
    clock.set_now(sent_at)
    rows = send(engine, "Build A Gas\n", sender=player("Germany"), to=seats["Germany"])
    echo = body_of(next(r for r in rows if r.kind == "orders_read"))
    assert "0 of 1 line had errors." in echo
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None
        states = {s.power: str(s.orders_state) for s in game.seats}
    assert states["GERMANY"] == "complete"
    clock.set_now(sent_at + timedelta(minutes=31))  # after the delay for corrections
    run_due(engine, Identity("judge@example.org", "Test Judge"))
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None and game.phase == "APR1901M"
        german = {(u["type"], u["loc"]) for u in game.position["units"] if u["power"] == "GERMANY"}
    assert german == {("A", "ber"), ("A", "gas")}


def test_general_orders_are_read_in_time_scales(engine: Engine) -> None:
    """General orders are read in the game's own order language (time-scale sections) on its
    monthly calendar, and played for a power that sends nothing."""
    seats = start_mercator(engine)
    block = "GENERAL FROM JAN1901M TO DEC1901A\nTS2\nF(Edi) - NTH\nA(Lvp) - Yor\nENDGENERAL\n"
    rows = send(engine, block, sender=player("England"), to=seats["England"])
    filed = body_of(next(r for r in rows if r.kind == "general_orders_filed"))
    assert "NOT filed" not in filed, filed
    assert "TS2: Fleet Edinburgh -> North Sea" in filed
    results = send(engine, "SIGNON M merc gmsecret\nPROCESS\n", sender=GM)
    england = next(body_of(r) for r in results if r.kind == "results" and r.to_addr == GM)
    assert "Fleet Edinburgh -> North Sea." in england
    assert "(England sent no orders: its general orders were played.)" in england
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None and game.phase == "FEB1901M"
        units = {(u["type"], u["loc"]) for u in game.position["units"] if u["power"] == "ENGLAND"}
    assert units == {("F", "nth"), ("A", "yor"), ("F", "lon")}
