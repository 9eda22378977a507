"""A Mercenary game by mail through the processor: CREATE, seven sign-ons, money lines echoed
or refused naming the line, the GM's PROCESS with the money in the results, the ledger in the
store (replaying to the holdings), the GM's LEDGER (rule 11) and leaving an Alliance of
Currency at once (rule 8 c), both announced to all; HISTORY and ROLLBACK with money."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from test_games_by_mail import GM, POWERS, body_of, player, reply_address, send

from judge.store import session_scope
from judge.store.game_queries import current_orders, find_game, ledger_of

GAME = "merc"


def start_mercenary(engine: Engine) -> dict[str, str]:
    created = send(engine, f"CREATE {GAME} gmsecret mercenary", sender=GM)
    assert [r.kind for r in created] == ["game_created"]
    assert "Mercenary" in body_of(created[0])
    addresses: dict[str, str] = {}
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} {GAME} pw-{power}", sender=player(power))
        addresses[power] = reply_address(next(r for r in rows if "signed_on" in r.kind.split("+")))
    return addresses


def stored_game(engine: Engine) -> dict[str, Any]:
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        return {
            "phase": game.phase,
            "position": dict(game.position or {}),
            "ledger": [
                (e.phase, e.payer, e.payee, e.currency, e.amount, e.why)
                for e in ledger_of(session, game)
            ],
            "orders": current_orders(session, game),
        }


def replayed(ledger: list[tuple[str, str, str, str, int, str]]) -> dict[str, dict[str, int]]:
    """Every power's holdings from nothing, by the ledger alone."""
    out: dict[str, dict[str, int]] = {}
    for _phase, payer, payee, currency, amount, _why in ledger:
        if payer != "BANK":
            out.setdefault(payer, {})[currency] = out.get(payer, {}).get(currency, 0) - amount
        if payee != "BANK":
            out.setdefault(payee, {})[currency] = out.get(payee, {}).get(currency, 0) + amount
    return {p: {c: n for c, n in held.items() if n} for p, held in out.items()}


def holdings(game: dict[str, Any]) -> dict[str, dict[str, int]]:
    return {
        p: {c: n for c, n in held.items() if n}
        for p, held in game["position"]["money"]["holdings"].items()
    }


def echo_of(rows: list[Any]) -> str:
    return body_of(next(r for r in rows if "orders_read" in r.kind.split("+")))


def test_the_game_starts_with_its_money_in_the_ledger(engine: Engine) -> None:
    start_mercenary(engine)
    game = stored_game(engine)
    assert game["phase"] == "S1901M"
    assert holdings(game) == {p.upper(): {p.upper(): 1000} for p in POWERS}
    assert game["position"]["money"]["values"] == {p.upper(): "1" for p in POWERS}
    assert [e[1:5] for e in game["ledger"]] == [
        ("BANK", p.upper(), p.upper(), 1000) for p in sorted(POWERS)
    ]
    assert replayed(game["ledger"]) == holdings(game)


def test_money_lines_are_echoed_and_mistakes_named(engine: Engine) -> None:
    seats = start_mercenary(engine)
    rows = send(
        engine,
        "A Par - Bur IF GERMANY PAYS 200 GERMAN\n"
        "PAY 100 PURPLE TO ITALY\n"
        "PAY 2000 FRENCH TO ITALY\n"
        "CONVERT 100 GERMAN TO ITALIAN\n"
        "BID 50 ON A Mar - Bur\n"
        "BID 60 GERMAN ON A Mar - Spa\n"
        "A Mun - Ruh IF ITALY PAYS 10\n"
        "PAY 600 TO ITALY\n"
        "CONVERT 500 TO ENGLISH\n"
        "A Mar - Bur\n",
        sender=player("France"),
        to=seats["France"],
    )
    echo = echo_of(rows)
    assert "= Army Paris -> Burgundy, if Germany pays 200 German pounds (second order)" in echo
    assert (
        "ERROR: line 2, column 9: 'PURPLE' is no currency of this game: a currency is named "
        "by its power" in echo
    )
    assert "ERROR: line 3: France holds 1000 French pounds, not 2000 (rule 10: no deficits)" in echo
    assert "ERROR: line 4: rule 7 c: no conversion from one foreign currency to another" in echo
    assert "= Bids 50 French pounds on Army Marseilles -> Burgundy" in echo
    assert "ERROR: line 6: a bid is made in the bidder's own currency (rule 6)" in echo
    assert "ERROR: line 7: the unit in Munich is Germany's, not France's" in echo
    assert "= Pays 600 French pounds to Italy" in echo
    # 50 bid and 600 paid stand: 500 more would overdraw the 1000 French pounds.
    assert (
        "ERROR: line 9: France holds 1000 French pounds and its other lines this season may "
        "spend 650 of them: 500 more would overdraw" in echo
    )
    assert "= Army Marseilles -> Burgundy" in echo
    assert "6 of 10 lines had errors." in echo
    orders = stored_game(engine)["orders"]["FRANCE"]
    assert orders == {
        "if:par": "A PAR - BUR IF GERMANY PAYS 200 GERMAN",
        "bid:mar": "BID 50 FRENCH ON A MAR - BUR",
        "pay:italy:france": "PAY 600 FRENCH TO ITALY",
        "mar": "A MAR - BUR",
    }
    # A later line for the same thing replaces it; a sum of 0 takes it back.
    rows = send(
        engine,
        "PAY 0 TO ITALY\nCONVERT 500 TO ENGLISH\n",
        sender=player("France"),
        to=seats["France"],
    )
    echo = echo_of(rows)
    assert "(replaces PAY 600 FRENCH TO ITALY)" in echo
    assert "0 of 2 lines had errors." in echo


def test_a_season_with_a_bribe_a_bid_and_a_conversion(engine: Engine) -> None:
    seats = start_mercenary(engine)
    send(
        engine,
        "A Par H\nA Par - Bur IF GERMANY PAYS 200 GERMAN\nA Mar - Spa\nCONVERT 300 TO ITALIAN",
        sender=player("France"),
        to=seats["France"],
    )
    send(
        engine,
        "PAY 200 GERMAN TO FRANCE IF A Par - Bur\nA Mun - Bur\nBID 100 ON A Mun - Bur",
        sender=player("Germany"),
        to=seats["Germany"],
    )
    results = send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS\n", sender=GM)
    mails = {r.to_addr: body_of(r).replace("\r\n", "\n") for r in results if r.kind == "results"}
    assert len(mails) == 8  # seven players and the GM
    text = mails[player("Italy")]
    assert "Variant: Mercenary" in text
    assert "France: Army Paris -> Burgundy.  (*bounce*)" in text
    assert "Germany: Army Munich -> Burgundy." in text  # its bid broke the stand-off
    assert "Army Paris HOLD" not in text  # replaced by the second order Germany bought
    assert "Germany to France: 200 German pounds (rule 5 b: for A PAR - BUR)" in text
    assert "Germany to the bank: 100 German pounds (rule 6 a: bid spent on A MUN - BUR)" in text
    assert "France to the bank: 300 French pounds (rule 7: 300 French pounds converted)" in text
    assert "the bank to France: 300 Italian pounds (rule 7: 300 French pounds converted)" in text
    assert "  France: 1000 French pounds; 200 German pounds, 300 Italian pounds" in text
    assert "  Germany: 1000 German pounds" in text
    game = stored_game(engine)
    assert game["phase"] == "F1901M"
    assert holdings(game)["FRANCE"] == {"FRANCE": 1000, "GERMANY": 200, "ITALY": 300}
    assert [e for e in game["ledger"] if e[0] == "S1901M" and e[5].startswith("rule 5")] == [
        ("S1901M", "GERMANY", "FRANCE", "GERMANY", 200, "rule 5 b: for A PAR - BUR")
    ]
    assert replayed(game["ledger"]) == holdings(game)
    # HISTORY tells the season again with its money.
    rows = send(engine, f"HISTORY {GAME} FROM S1901M\n", sender=player("Italy"))
    told = body_of(next(r for r in rows if r.kind == "history")).replace("\r\n", "\n")
    assert "Germany to France: 200 German pounds (rule 5 b: for A PAR - BUR)" in told
    assert "  France: 1000 French pounds; 200 German pounds, 300 Italian pounds" in told


def test_the_gm_changes_a_ledger_and_everyone_is_told(engine: Engine) -> None:
    start_mercenary(engine)
    rows = send(
        engine,
        f"SIGNON M {GAME} gmsecret\nLEDGER France +200 German a bribe lost in the post\n",
        sender=GM,
    )
    told = [r for r in rows if "announcement" in r.kind.split("+")]
    assert sorted(r.to_addr for r in told) == sorted([GM, *(player(p) for p in POWERS)])
    body = body_of(told[0])
    assert (
        "The game master gives France 200 German pounds (rule 11): a bribe lost in the post."
        in body
    )
    assert "France now holds 200 German pounds." in body
    game = stored_game(engine)
    assert holdings(game)["FRANCE"] == {"FRANCE": 1000, "GERMANY": 200}
    assert game["ledger"][-1] == (
        "S1901M",
        "BANK",
        "FRANCE",
        "GERMANY",
        200,
        "rule 11: the game master's change: a bribe lost in the post",
    )
    assert replayed(game["ledger"]) == holdings(game)
    rows = send(engine, f"SIGNON M {GAME} gmsecret\nLEDGER France -300 German\n", sender=GM)
    problems = body_of(next(r for r in rows if "desk_problems" in r.kind.split("+")))
    assert (
        "line 2: LEDGER not done: France holds 200 German pounds: 300 cannot be taken" in problems
    )
    assert not [r for r in rows if "announcement" in r.kind.split("+")]
    rows = send(engine, f"SIGNON M {GAME} gmsecret\nLEDGER France -50 Purple\n", sender=GM)
    assert "LEDGER not done: 'PURPLE' is not a power" in body_of(
        next(r for r in rows if "desk_problems" in r.kind.split("+"))
    )
    # A player is no GM.
    rows = send(
        engine,
        f"SIGNON FRANCE {GAME} pw-France\nLEDGER France +50 French\n",
        sender=player("France"),
    )
    assert "LEDGER is the GM's" in body_of(
        next(r for r in rows if "desk_problems" in r.kind.split("+"))
    )
    assert holdings(stored_game(engine))["FRANCE"] == {"FRANCE": 1000, "GERMANY": 200}


def test_a_game_without_money_has_no_ledger(engine: Engine) -> None:
    send(engine, "CREATE plain gmsecret standard", sender=GM)
    rows = send(engine, "SIGNON M plain gmsecret\nLEDGER France +50 French\n", sender=GM)
    problems = body_of(next(r for r in rows if "desk_problems" in r.kind.split("+")))
    assert "LEDGER not done: game plain keeps no money" in problems


def test_an_alliance_formed_by_orders_and_left_at_once(engine: Engine) -> None:
    seats = start_mercenary(engine)
    send(engine, "AOC WITH ITALY", sender=player("Austria"), to=seats["Austria"])
    send(engine, "ALLIANCE OF CURRENCY WITH AUSTRIA", sender=player("Italy"), to=seats["Italy"])
    results = send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS\n", sender=GM)
    text = body_of(next(r for r in results if r.kind == "results")).replace("\r\n", "\n")
    assert "Alliances of Currency:\n  Austria and Italy" in text
    assert stored_game(engine)["position"]["money"]["alliances"] == [["AUSTRIA", "ITALY"]]
    rows = send(engine, "LEAVE ALLIANCE OF CURRENCY", sender=player("Italy"), to=seats["Italy"])
    echo = echo_of(rows)
    assert "= Italy has left its Alliance of Currency with Austria (rule 8 c), at once." in echo
    told = [r for r in rows if "announcement" in r.kind.split("+")]
    assert sorted(r.to_addr for r in told) == sorted([GM, *(player(p) for p in POWERS)])
    assert "The Alliance of Currency is ended: Austria is in none now." in body_of(told[0])
    game = stored_game(engine)
    assert game["position"]["money"]["alliances"] == []
    assert game["orders"].get("ITALY", {}) == {}  # done at once, nothing left to adjudicate
    rows = send(engine, "LEAVE AOC", sender=player("Austria"), to=seats["Austria"])
    assert "ERROR: line 1: Austria is in no Alliance of Currency" in echo_of(rows)


def test_rollback_takes_the_ledger_back_with_the_phase(engine: Engine) -> None:
    seats = start_mercenary(engine)
    send(engine, "PAY 100 TO ITALY\nA Par - Bur", sender=player("France"), to=seats["France"])
    send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS\n", sender=GM)
    send(engine, f"SIGNON M {GAME} gmsecret\nLEDGER Italy +5 Italian\n", sender=GM)
    before = stored_game(engine)
    assert ("S1901M", "FRANCE", "ITALY", "FRANCE", 100, "rule 5 e: transfer") in before["ledger"]
    send(engine, f"SIGNON M {GAME} gmsecret\nROLLBACK S1901M\n", sender=GM)
    game = stored_game(engine)
    assert game["phase"] == "S1901M"
    assert [e[1:5] for e in game["ledger"]] == [
        ("BANK", p.upper(), p.upper(), 1000) for p in sorted(POWERS)
    ]
    assert replayed(game["ledger"]) == holdings(game)
    assert game["orders"]["FRANCE"] == {
        "pay:italy:france": "PAY 100 FRENCH TO ITALY",
        "par": "A PAR - BUR",
    }


def test_a_game_with_money_exports_replays_and_imports_with_its_ledger(engine: Engine) -> None:
    from judge.game_archive import dumps, export_game, import_game, loads, replay

    seats = start_mercenary(engine)
    send(
        engine,
        "A Par H\nA Par - Bur IF GERMANY PAYS 100",
        sender=player("France"),
        to=seats["France"],
    )
    send(engine, "PAY 100 TO FRANCE IF A Par - Bur", sender=player("Germany"), to=seats["Germany"])
    send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS\n", sender=GM)
    send(engine, f"SIGNON M {GAME} gmsecret\nLEDGER Italy +5 Italian\n", sender=GM)
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        document = loads(dumps(export_game(session, game)))
    assert replay(document) == []  # every phase, its money included, adjudicates the same again
    assert document["ledger"][-1]["why"].startswith("rule 11")
    assert [e for e in document["ledger"] if e["why"].startswith("rule 5")] == [
        {"phase": "S1901M", "processed": True, "from": "GERMANY", "to": "FRANCE",
         "currency": "GERMANY", "amount": 100, "why": "rule 5 b: for A PAR - BUR"}
    ]  # fmt: skip
    with session_scope(engine) as session:
        imported = import_game(session, document, name="merc2")
        again = export_game(session, imported)
        kept = [(e.phase, e.phase_record_id is not None) for e in ledger_of(session, imported)]
    assert again["ledger"] == document["ledger"]
    assert ("S1901M", True) in kept and ("F1901M", False) in kept


def test_postal_report_style_writes_the_board_in_zine_notation_and_keeps_the_money(
    engine: Engine,
) -> None:
    seats = start_mercenary(engine)
    send(engine, f"SIGNON M {GAME} gmsecret\nSET REPORT POSTAL\n", sender=GM)
    send(
        engine,
        "A Par - Bur IF GERMANY PAYS 200 GERMAN\nA Par H\nCONVERT 300 TO ITALIAN",
        sender=player("France"),
        to=seats["France"],
    )
    send(
        engine,
        "PAY 200 GERMAN TO FRANCE IF A Par - Bur",
        sender=player("Germany"),
        to=seats["Germany"],
    )
    results = send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS\n", sender=GM)
    text = next(
        body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Italy")
    ).replace("\r\n", "\n")
    # The board in zine notation, with the order Germany bought in place of France's hold.
    assert "FRANCE: A Par-Bur, F Bre H (nmr), A Mar H (nmr)." in text
    assert "France: Army Paris -> Burgundy." not in text  # not njudge's layout
    # The money as in every style, between the next phase and the key, which stays last.
    money = text.index("\nMoney:\n")
    assert text.index("\nNext: Fall 1901 Movement") < money < text.index("\nKey: ")
    assert "Germany to France: 200 German pounds (rule 5 b: for A PAR - BUR)" in text
    assert "  France: 1000 French pounds; 200 German pounds, 300 Italian pounds" in text


def test_general_orders_take_unit_orders_and_refuse_money_lines_naming_them(
    engine: Engine,
) -> None:
    seats = start_mercenary(engine)
    rows = send(
        engine,
        "GENERAL\nA Par - Bur\nPAY 100 FRENCH TO GERMANY\nBID 50 ON A Par - Bur\nENDGENERAL",
        sender=player("France"),
        to=seats["France"],
    )
    text = "\n".join(body_of(r) for r in rows).replace("\r\n", "\n")
    # Money moves only by a season's own orders (docs/RULES.md): each money line named, and
    # the block, filed whole or not at all, waits for the unit orders alone.
    assert "general orders for France in game merc (for every phase) were NOT filed" in text
    assert "line 3: money lines and second orders go with a season's movement orders" in text
    assert "line 4: money lines and second orders go with a season's movement orders" in text
    assert "line 2:" not in text
    rows = send(
        engine, "GENERAL\nA Par - Bur\nENDGENERAL", sender=player("France"), to=seats["France"]
    )
    assert "NOT filed" not in "\n".join(body_of(r) for r in rows)


def test_plain_orders_are_checked_on_arrival_by_the_standard_rules(engine: Engine) -> None:
    """Mercenary's plain orders are the standard game's (the 1971 rules): a move the unit
    cannot make is refused on arrival with the places it can reach; a support of another power's
    move, which depends on that power's order, is taken."""
    seats = start_mercenary(engine)
    rows = send(
        engine, "A Par - Mun\nA Mar S A Mun - Bur\n", sender=player("France"), to=seats["France"]
    )
    text = echo_of(rows)
    assert "ERROR: line 1, column 1: Army Paris cannot reach Munich; it can move to " in text
    assert "= Army Marseilles supports Army Munich -> Burgundy" in text
    rows = send(engine, "F Par - Bur\n", sender=player("France"), to=seats["France"])
    assert "= Army Paris -> Burgundy" in echo_of(rows)
