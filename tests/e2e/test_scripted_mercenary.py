"""A scripted Mercenary game through the real Postfix and Dovecot: seven players, the GM and an
observer by mail, two years on the standard board.

Spring 1901: Germany buys France's second order for Paris (rule 5: the army goes to Burgundy
instead of holding), Austria's bid breaks the stand-off over Galicia with Russia (rule 6 b),
France converts French pounds into Italian ones (rule 7), and Italy and Turkey form an Alliance
of Currency (rule 8 b). Autumn 1901: Austria's bid for its army in Galicia to stand counts double
against Russia's larger bid on the attack (6 c); France takes Munich, and Germany pays for the
capture and for its home centre held (4 b, 4 d); neutral centres earn their captors 100 pounds
(4 c). Winter: builds. Spring 1902: Turkey leaves the alliance at once (8 c), Italy transfers
money to Turkey (5 e), the GM fines France (LEDGER, rule 11); both changes are announced to
all. Autumn 1902: the units hold.

After every phase the money adds up: each currency's holdings in the store are exactly what the
game's ledger replays from nothing (the bank's payments in and out included), and no holding is
below zero. Every mail every reader receives is checked as in the standard scripted game
(scripted_game.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scripted_game import POWERS, ScriptedGame, on_backend
from sqlalchemy import select

from judge.store.db import session_scope
from judge.store.game_queries import ledger_of
from judge.store.games import Game

GAME = "mercscript"

SPRING_1901 = {
    "Austria": "A Vie - Gal\nBID 50 ON A Vie - Gal\nA Bud - Ser\nF Tri - Alb",
    "England": "F Lon - Nth\nF Edi - Nwg\nA Lvp - Yor",
    "France": (
        "A Par H\nA Par - Bur IF GERMANY PAYS 100 GERMAN\nA Mar - Spa\nF Bre - Mao\n"
        "CONVERT 200 TO ITALIAN"
    ),
    "Germany": "PAY 100 GERMAN TO FRANCE IF A Par - Bur\nA Mun - Ruh\nA Ber - Kie\nF Kie - Den",
    "Italy": "A Ven H\nA Rom - Apu\nF Nap - Ion\nALLIANCE OF CURRENCY WITH TURKEY",
    "Russia": "A War - Gal\nA Mos - Ukr\nF Sev - Rum\nF Stp/sc - Bot",
    "Turkey": "F Ank - Bla\nA Con - Bul\nA Smy - Arm\nAOC WITH ITALY",
}
AUTUMN_1901 = {
    "Austria": "A Gal H\nBID 60 ON A Gal H\nA Ser H\nF Alb - Gre",
    "England": "F Nth - Nwy\nF Nwg H\nA Yor H",
    "France": "A Bur - Mun\nA Spa H\nF Mao - Por",
    "Germany": "A Ruh - Hol\nA Kie H\nF Den H",
    "Italy": "A Ven H\nA Apu H\nF Ion - Tun",
    "Russia": "A War - Gal\nBID 100 ON A War - Gal\nA Ukr H\nF Rum H\nF Bot - Swe",
    "Turkey": "F Bla H\nA Bul H\nA Arm H",
}
WINTER_1901 = {
    "Austria": "Build A Vie\nBuild A Bud",
    "England": "Build F Lon",
    "France": "Build A Par\nBuild A Mar\nBuild F Bre",
    "Germany": "Build A Ber",
    "Italy": "Build F Nap",
    "Russia": "Build A Mos\nBuild F Sev",
    "Turkey": "Build F Ank",
}


def _money(script: ScriptedGame) -> tuple[dict[str, dict[str, int]], list[Any]]:
    """The holdings the store keeps, and the game's ledger."""
    with session_scope(script.judge.engine) as session:
        game = session.scalars(select(Game).where(Game.name == GAME)).one()
        assert game.position is not None
        held = {
            p: {c: n for c, n in h.items() if n}
            for p, h in game.position["money"]["holdings"].items()
        }
        rows = [
            (e.phase, e.payer, e.payee, e.currency, e.amount, e.why)
            for e in ledger_of(session, game)
        ]
    return held, rows


def _adds_up(script: ScriptedGame) -> dict[str, dict[str, int]]:
    """The money adds up: the ledger, bank in and out included, replays to the holdings; no
    holding is below zero. The holdings."""
    held, rows = _money(script)
    replayed: dict[str, dict[str, int]] = {}
    for _phase, payer, payee, currency, amount, _why in rows:
        assert amount > 0, rows
        if payer != "BANK":
            replayed.setdefault(payer, {})[currency] = (
                replayed.get(payer, {}).get(currency, 0) - amount
            )
        if payee != "BANK":
            replayed.setdefault(payee, {})[currency] = (
                replayed.get(payee, {}).get(currency, 0) + amount
            )
    assert {p: {c: n for c, n in h.items() if n} for p, h in replayed.items()} == held
    assert all(n >= 0 for h in held.values() for n in h.values()), held
    return held


def _results(script: ScriptedGame, phase: str) -> dict[str, str]:
    return {name: mail.body.replace("\r\n", "\n") for name, mail in script.process(phase).items()}


def _start(script: ScriptedGame, make: Callable[[], Any], prefix: str) -> None:
    ident = script.send(script.gm.account, f"CREATE {GAME} {script.gm_password} mercenary")
    created = script.reply(script.gm, ident, "game_created")
    assert "Mercenary" in created.body
    script.observe()
    script.sign_on_everyone(POWERS, make, prefix, "S1901M")
    assert _adds_up(script) == {p.upper(): {p.upper(): 1000} for p in POWERS}


def _spring_1901(script: ScriptedGame) -> None:
    echoes = script.orders_all(SPRING_1901)
    assert (
        "= Army Paris -> Burgundy, if Germany pays 100 German pounds (second order)"
        in echoes["France"].body
    )
    assert "= Bids 50 Austrian pounds on Army Vienna -> Galicia" in echoes["Austria"].body
    for name, body in _results(script, "S1901M").items():
        assert "France: Army Paris -> Burgundy." in body, name  # the bribe turned the order
        assert "Army Paris HOLD" not in body, name
        assert "Austria: Army Vienna -> Galicia." in body, name  # the bid broke the stand-off
        assert "Russia: Army Warsaw -> Galicia.  (*bounce*)" in body, name
        assert "Germany to France: 100 German pounds (rule 5 b: for A PAR - BUR)" in body, name
        assert (
            "Austria to the bank: 50 Austrian pounds (rule 6 a: bid spent on A VIE - GAL)" in body
        )
        assert (
            "the bank to France: 200 Italian pounds (rule 7: 200 French pounds converted)" in body
        )
        assert "Alliances of Currency:\n  Italy and Turkey" in body, name
        assert "  France: 1100 French pounds; 100 German pounds, 200 Italian pounds" in body, name
        assert "Italian 1, Russian 3/4 (0.750), Turkish 1" in body, name
    held = _adds_up(script)
    assert held["FRANCE"] == {"FRANCE": 1100, "GERMANY": 100, "ITALY": 200}
    assert held["AUSTRIA"] == {"AUSTRIA": 1250}


def _autumn_1901(script: ScriptedGame) -> None:
    script.orders_all(AUTUMN_1901)
    for name, body in _results(script, "F1901M").items():
        # 60 Austrian pounds at 3/4 for a unit to stand weigh 90 against Russia's 100 at 3/4.
        assert "Austria: Army Galicia HOLD." in body, name
        assert "Russia: Army Warsaw -> Galicia.  (*bounce*)" in body, name
        assert "Austria to the bank: 60 Austrian pounds (rule 6 a: bid spent on A GAL H)" in body
        assert "Russia to the bank: 100 Russian pounds (rule 6 a: bid spent on A WAR - GAL)" in body
        assert "France: Army Burgundy -> Munich." in body, name
        assert (
            "Germany to France: 100 German pounds (rule 4 b: Munich captured from Germany)" in body
        ), name
        assert (
            "Germany to France: 100 German pounds (rule 4 d: home centre Munich held by France)"
            in body
        ), name
        assert (
            "the bank to Austria: 100 Austrian pounds (rule 4 c: Greece captured, neutral)" in body
        )
        assert (
            "Austrian 5/6 (0.833), English 2/3 (0.667), French 1, German 2/3 (0.667), "
            "Italian 5/6 (0.833), Russian 5/6 (0.833), Turkish 5/6 (0.833)" in body
        ), name
    held = _adds_up(script)
    assert held["FRANCE"] == {"FRANCE": 1600, "GERMANY": 300, "ITALY": 200}
    assert held["GERMANY"] == {"GERMANY": 1400}
    assert held["AUSTRIA"] == {"AUSTRIA": 1690}


def _winter_1901(script: ScriptedGame) -> None:
    script.orders_all(WINTER_1901)
    for name, body in _results(script, "W1901A").items():
        assert "Adjustment orders for Winter of 1901." in body, name
        assert "Holdings:" in body, name
    _adds_up(script)


def _spring_1902(script: ScriptedGame) -> None:
    turkey = script.players["Turkey"]
    ident = script.send(turkey.box.account, "LEAVE ALLIANCE OF CURRENCY", to=turkey.reply_address)
    # Turkey's one answer is the announcement and the echo of its line; the others are told.
    answer = script.reply(turkey.box, ident, "Turkey's answer", f"{GAME}: Turkey has left its")
    assert answer.subject.endswith("; Turkey orders for S1902M"), answer.subject
    assert (
        "= Turkey has left its Alliance of Currency with Italy (rule 8 c), at once." in answer.body
    )
    told = script.take_everyone(
        lambda m: m.subject.startswith(f"{GAME}: Turkey has left its Alliance of Currency"),
        "the announcement of Turkey's leaving",
        readers=[box for box in script.boxes() if box is not turkey.box],
    )
    told["Turkey"] = answer
    for name, mail in told.items():
        assert "The Alliance of Currency is ended: Italy is in none now." in mail.body, name
        assert "Italian 2/3, Russian 5/6, Turkish 2/3" in mail.body, name
    script.gm_mail("LEDGER France -50 German a fine for a rude press release")
    told = script.take_everyone(
        lambda m: m.subject == f"{GAME}: the game master changed France's money",
        "the announcement of the GM's LEDGER",
    )
    for name, mail in told.items():
        assert (
            "The game master takes from France 50 German pounds (rule 11): a fine for a rude "
            "press release." in mail.body
        ), name
    assert _adds_up(script)["FRANCE"]["GERMANY"] == 250
    orders = {power: script.holds(power) for power in POWERS}
    orders["Italy"] += "\nPAY 100 TO TURKEY"
    script.orders_all(orders)
    for name, body in _results(script, "S1902M").items():
        assert "Italy to Turkey: 100 Italian pounds (rule 5 e: transfer)" in body, name
        assert "Alliances of Currency" not in body, name
    held = _adds_up(script)
    assert held["TURKEY"]["ITALY"] == 100


def _autumn_1902(script: ScriptedGame) -> None:
    script.orders_all({power: script.holds(power) for power in POWERS})
    for name, body in _results(script, "F1902M").items():
        assert "The next phase of 'mercscript' will be Movement for Spring of 1903." in body, name
    _adds_up(script)
    assert script.phase() == "S1903M active"


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("postgresql")
def test_a_scripted_mercenary_game_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted(GAME, "Mercenary game") as (script, prefix):
        _start(script, new_account, prefix)
        _spring_1901(script)
        _autumn_1901(script)
        _winter_1901(script)
        _spring_1902(script)
        _autumn_1902(script)
