"""Each variant's orders checked on arrival, in a game by mail through the real Postfix and
Dovecot: every wrong order new players sent (Mercator's world board, 1885) and one of each kind
the variant's rules forbid is refused in the echo with its line and reason, with what the unit
may do instead where the board says; right orders are taken; an order naming the wrong unit kind
is read for the unit there, and the echo and the results name the same unit.

The retreat and build phases start from a position the test writes in the store (as the unit
tests do), so that the game need not be played for months to reach one.

Every mail every reader receives is checked as in the standard scripted game (scripted_game.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scripted_game import POWERS, ScriptedGame, on_backend
from sqlalchemy import select
from test_scripted_mercator import WORLD_POWERS
from year_1885 import POWERS as POWERS_1885

from judge.store import session_scope
from judge.store.games import Game


def _start(
    script: ScriptedGame, make: Callable[[], Any], prefix: str, how: str, powers: Any, phase: str
) -> None:
    ident = script.send(script.gm.account, f"CREATE {script.game} {script.gm_password} {how}")
    script.reply(script.gm, ident, "game_created")
    script.observe()
    script.sign_on_everyone(powers, make, prefix, phase)


def _echo(script: ScriptedGame, power: str, text: str) -> str:
    return script.orders(power, text).body.replace("\r\n", "\n")


def _set_position(script: ScriptedGame, phase: str, **fields: Any) -> None:
    """The game put at `phase` with the position's `fields` replaced, in the store."""
    with session_scope(script.judge.engine) as session:
        game = session.scalars(select(Game).where(Game.name == script.game)).one()
        assert game.position is not None
        game.phase = phase
        game.position = {**game.position, "phase": phase, **fields}


def _units(*compact: str) -> list[dict[str, str]]:
    return [dict(zip(("power", "type", "loc"), u.split(), strict=True)) for u in compact]


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("sqlite")
def test_mercator_orders_are_checked_on_arrival_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted("mercarrive", "Mercator orders on arrival") as (script, prefix):
        _start(script, new_account, prefix, "mercator", WORLD_POWERS, "JAN1901M")
        text = _echo(
            script,
            "France",
            "TS2 A(Ber) - Sil\nF(Bre) - Lon\nTS3 A(Par) - Pic\nTS3 F(Bre) - MAO\n"
            "TS3 A(Mar) S A(Par) - Bur\nTS1 A(Par) B F(Bre)\n",
        )
        assert (
            "ERROR: line 1: France has no unit in Berlin (the army there is German), and none "
            "of its armies aboard a fleet can land there in time scale 1"
        ) in text
        assert "ERROR: line 2: Fleet Brest cannot reach London; it can move to " in text
        assert (
            "ERROR: line 3: in time scale 3 only a fleet that disembarked an army or an "
            "army/fleet formed by embarking may move (rule 2.5): the unit in Paris may not move "
            "in time scale 3"
        ) in text
        assert "ERROR: line 4: in time scale 3 only a fleet" in text
        assert "ERROR: line 5: a support belongs in time scale 2, not time scale 3" in text
        assert (
            "ERROR: line 6: an army boards a fleet at sea or in a canal province, and Brest is "
            "neither (rule 2.2)"
        ) in text
        assert "6 of 6 lines had errors." in text
        text = _echo(script, "England", "TS2\nA/F(Lon) - NTH\n")
        assert "ERROR: line 2: Fleet London: the unit in LON is a fleet, not an army/fleet" in text
        text = _echo(script, "France", "TS2\nF(Bre) - MAO\nA(Par) - Bur\nA(Mar) S A(Par) - Bur\n")
        assert "0 of 4 lines had errors." in text
        assert "= TS2: Fleet Brest -> Mid-Atlantic Ocean" in text

        # Time scale 4: a retreat to occupied Norway, outside the places the echo offers.
        retreating = {
            "power": "FRANCE",
            "type": "F",
            "loc": "nth",
            "attacker_from": "hel",
            "attacker_convoyed": False,
            "retreats": ["nwg", "edi"],
            "time_scale": 2,
        }
        _set_position(
            script,
            "JAN1901R",
            units=_units("GERMANY F nth", "RUSSIA A nwy", "FRANCE A par"),
            dislodged=[retreating],
        )
        text = _echo(script, "France", "F(NTH) - Nwy\n")
        assert (
            "ERROR: line 1: Fleet North Sea cannot retreat to Norway; it may retreat to "
            "Norwegian Sea, Edinburgh or disband"
        ) in text
        assert "Fleet North Sea: may retreat to Norwegian Sea or Edinburgh" in text
        assert "0 of 1 line had errors." in _echo(script, "France", "F(NTH) - NWG\n")

        # Builds: on an occupied centre, and beyond those due.
        _set_position(
            script,
            "MAR1901A",
            units=_units("RUSSIA A nwy", "RUSSIA A mos"),
            dislodged=[],
            centers={"RUSSIA": ["mos", "war", "nwy"]},
        )
        text = _echo(script, "Russia", "Build A Nwy\nBuild A War\nBuild A Sev\n")
        assert "ERROR: line 1: NWY is occupied" in text
        assert "= Builds an army in Warsaw" in text
        assert "ERROR: line 3: RUSSIA has no more builds due" in text


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("sqlite")
def test_1885_orders_are_checked_on_arrival_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted("arrive1885", "1885 orders on arrival") as (script, prefix):
        _start(script, new_account, prefix, "1885", POWERS_1885, "JAN1885M")
        text = _echo(script, "England", "F Edi - Lon\nF Lon - ENG\n")
        assert "ERROR: line 1: Fleet Edinburgh cannot reach London; it can move to " in text
        assert "= Fleet London -> English Channel" in text
        # The wrong unit kind: read for the unit there and said so; refused when that unit
        # cannot do it, the order before it standing.
        text = _echo(script, "England", "A Lon H\n")
        assert "= Fleet London holds (replaces F LON - ENG)" in text
        assert "London holds a fleet, not an army: the order is taken for the fleet" in text
        text = _echo(script, "England", "A Lon - Lvp\n")
        assert "ERROR: line 1: Fleet London cannot reach Liverpool" in text
        text = _echo(script, "Austria", "F Vie - Boh\n")
        assert "= Army Vienna -> Bohemia" in text
        # What 1885's rules forbid: a Fast Ferry across a second sea (rule 7), a retreat sent
        # with the move to a place not next to the unit (rule 10 a, b).
        text = _echo(script, "Turkey", "F Sin - BLA; A Con - Bul, retreat to Ven\n")
        assert (
            "ERROR: line 1: Army Constantinople retreats to Venice if dislodged: Army "
            "Constantinople could never retreat to Venice"
        ) in text
        orders = {p: script.holds(p) for p in POWERS_1885 if p not in ("England", "Austria")}
        script.orders_all(orders)
        for name, mail in script.process("JAN1885M").items():
            body = mail.body.replace("\r\n", "\n")
            assert "Fleet London holds." in body, name
            assert "Army London" not in body and "Fleet Vienna" not in body, name
            assert "Army Vienna -> Bohemia." in body, name

        # More builds than are due.
        _set_position(
            script,
            "MAR1885A",
            units=_units("ENGLAND F edi", "ENGLAND A yor"),
            dislodged=[],
            centers={"ENGLAND": ["edi", "lon", "lvp"]},
        )
        text = _echo(script, "England", "Build F Lon\nBuild A Lvp\n")
        assert "= Builds a fleet in London" in text
        assert "ERROR: line 2: only 1 build(s) due" in text


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("sqlite")
def test_mercenary_orders_are_checked_on_arrival_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted("mercyarrive", "Mercenary orders on arrival") as (script, prefix):
        _start(script, new_account, prefix, "mercenary", POWERS, "S1901M")
        text = _echo(script, "France", "A Par - Mun\nA Mar S A Mun - Bur\nBID 5000 ON A Mar H\n")
        assert "ERROR: line 1, column 1: Army Paris cannot reach Munich; it can move to " in text
        assert "= Army Marseilles supports Army Munich -> Burgundy" in text
        assert "ERROR: line 3" in text and "1000" in text.split("ERROR: line 3")[1]
        text = _echo(script, "France", "F Par - Bur\n")
        assert "= Army Paris -> Burgundy" in text
        assert "Paris holds an army, not a fleet: the order is taken for the army" in text
