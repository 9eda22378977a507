"""A scripted Mercator game through the real Postfix and Dovecot: seven players, the GM and an
observer by mail, four months of 1901 on the standard board.

January puts the fleets at sea. February: England's army boards in time scale 1 and goes to
Norway by an extended convoy (rule 3 c); France boards an army and tries a fast ferry into
Belgium (3 b), which Germany's move stands off, so the army stays aboard; France's unsupported
attack from Burgundy dislodges the German army that failed to leave the Ruhr (the Key rule,
2.7), which retreats in time scale 4 (rule 4). March: the French army still aboard lands in
London in time scale 1; after the March moves France builds at a premium in the Ruhr it owns
(5.3) and Germany at home. April: France and Germany claim a 2-way win together (rule 10),
which their centres do not carry, and the game goes on.

Every mail every reader receives is checked as in the standard scripted game (scripted_game.py):
taken by the script, from the judge, to that reader alone, with the reader's own Reply-To or
none, and nobody's secrets in it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from scripted_game import POWERS, ScriptedGame, scripted_judge

GAME = "mercscript"

HOLDS = {
    "Austria": "TS2\nA(Vie) H\nA(Bud) H\nF(Tri) H",
    "Italy": "TS2\nA(Ven) H\nA(Rom) H\nF(Nap) H",
    "Russia": "TS2\nA(Mos) H\nA(War) H\nF(Sev) H\nF(StP) H",
    "Turkey": "TS2\nA(Con) H\nA(Smy) H\nF(Ank) H",
}
JANUARY = {
    **HOLDS,
    "England": "TS2\nF(Lon) - NTH\nF(Edi) - NWG\nA(Lvp) - Yor",
    "France": "TS2\nF(Bre) - ENC\nA(Par) - Pic\nA(Mar) - Bur",
    "Germany": "TS2\nF(Kie) - HEL\nA(Ber) - Kie\nA(Mun) - Ruh",
}
FEBRUARY = {
    **HOLDS,
    "England": "TS1\nA(Yor) B F(NTH)\nTS2\nF(NTH) & F(NWG) C A(Yor) - Nwy",
    "France": "TS1\nA(Pic) B F(ENC)\nTS2\nF(ENC) F/F A(Pic) - Bel\nA(Bur) - Ruh",
    "Germany": "TS2\nA(Ruh) - Bel\nA(Kie) - Hol\nF(HEL) H",
}
MARCH = {
    **HOLDS,
    "England": "TS2\nF(NTH) H\nF(NWG) H\nA(Nwy) H",
    "France": "TS1 A(ENC) L Lon\nTS2 A(Ruh) - Bel",
    "Germany": "TS2\nA(Hol) H\nA(Mun) H\nF(HEL) H",
}


def _start(script: ScriptedGame, make: Callable[[], Any], prefix: str) -> None:
    ident = script.send(script.gm.account, f"CREATE {GAME} {script.gm_password} mercator")
    created = script.reply(script.gm, ident, "game_created")
    assert "Mercator, on the board of Standard Diplomacy" in created.body
    script.observe()
    for power in POWERS:
        player = script.add_player(power, make(), f"{prefix}-{power.lower()}-pw")
        ident = script.send(
            player.box.account, f"SIGNON {power} {GAME} {player.password}", subject="sign on"
        )
        signed = script.reply(player.box, ident, f"{power}'s signed_on", f"{GAME}: you play")
        assert player.reply_address and player.reply_address in signed.body
    # The last SIGNON's one answer holds the start; every other reader, the GM and the observer
    # too, is told in a mail of its own.
    last = script.players[POWERS[-1]]
    assert signed.subject == f"{GAME}: you play {last.power}; the game has started (JAN1901M)"
    started = script.take(
        {
            box: (lambda m: m.subject == f"{GAME}: the game has started (JAN1901M)")
            for box in [*(p.box for p in script.players.values() if p is not last), script.gm]
            + [script.observer]
        },
        "game_started",
    )
    assert "You play France, with" in started[script.players["France"].box].body


def _results(script: ScriptedGame, phase: str) -> dict[str, str]:
    """Every reader's results of `phase` (the GM processes it), the bodies with plain newlines."""
    return {name: mail.body.replace("\r\n", "\n") for name, mail in script.process(phase).items()}


def _january(script: ScriptedGame) -> None:
    echoes = script.orders_all(JANUARY)
    assert "= TS2: Fleet London -> North Sea" in echoes["England"].body
    assert "(time scale 2)" in echoes["England"].body
    for name, body in _results(script, "JAN1901M").items():
        assert "Movement results for January 1901." in body, name
        assert "England:\n  Time scale 2:\n    Fleet Edinburgh -> Norwegian Sea." in body, name
        assert "    Fleet London -> North Sea." in body, name
        assert "    Fleet Kiel -> Helgoland Bight." in body, name
        assert "Austria:\n  Time scale 2:\n    Army Budapest holds." in body, name
        assert "The next phase is February 1901 Movement" in body, name


def _february(script: ScriptedGame) -> None:
    echoes = script.orders_all(FEBRUARY)
    assert "= TS1: Army Yorkshire boards Fleet North Sea" in echoes["England"].body
    assert "= TS2: Fleet English Channel ferries Army Picardy -> Belgium" in echoes["France"].body
    for name, body in _results(script, "FEB1901M").items():
        assert "    Army Yorkshire boards Fleet North Sea." in body, name
        assert "    Fleet North Sea, Fleet Norwegian Sea convoy Army Yorkshire -> Norway." in body
        assert "Fleet English Channel ferries Army Picardy -> Belgium.  (*fails*: bounced)" in body
        assert "    Army Burgundy -> Ruhr." in body, name
        assert "    Army Ruhr -> Belgium.  (*fails*: bounced; dislodged by A BUR)" in body, name
        assert (
            "  Army Ruhr (Germany), in time scale 2, by the attack from Burgundy: may retreat "
            "to Kiel, Munich." in body
        ), name
        assert "The next phase is February 1901 Retreats" in body, name
    echo = script.orders("Germany", "A(Ruh) - Mun")
    assert "= Army Ruhr retreats to Munich" in echo.body
    for name, body in _results(script, "FEB1901R").items():
        assert "Retreat results for February 1901." in body, name
        assert "Germany:\n    Army Ruhr retreats to Munich." in body, name


def _march(script: ScriptedGame) -> None:
    echoes = script.orders_all(MARCH)
    assert "= TS1: Army English Channel lands in London" in echoes["France"].body
    for name, body in _results(script, "MAR1901M").items():
        assert "France:\n  Time scale 1:\n    Army English Channel lands in London." in body, name
        assert "  France (5): Belgium, Brest, London, Marseilles, Paris.  builds 2" in body, name
        assert "  England (3): Edinburgh, Liverpool, Norway." in body, name
        assert "  Germany (4): Berlin, Holland, Kiel, Munich.  builds 1" in body, name
        assert "France: Burgundy, Picardy, Ruhr" in body, name
    echoes = script.orders_all({"France": "Build A Ruh", "Germany": "Build A Ber"})
    assert "= Builds an army in Ruhr" in echoes["France"].body
    for name, body in _results(script, "MAR1901A").items():
        assert "Adjustment results for March 1901." in body, name
        assert "    Builds an army in Ruhr.  (a premium build: one more build withheld" in body
        assert "Germany:\n    Builds an army in Berlin." in body, name
        assert "The next phase is April 1901 Movement" in body, name


def _april(script: ScriptedGame) -> None:
    france, germany = script.players["France"], script.players["Germany"]
    ident = script.send(france.box.account, "SET CLAIM Germany", to=france.reply_address)
    claim = script.reply(france.box, ident, "France's claim", f"{GAME}: France claims a win")
    assert "France claims in game mercscript a win shared with Germany." in claim.body
    ident = script.send(germany.box.account, "SET CLAIM France", to=germany.reply_address)
    script.reply(germany.box, ident, "Germany's claim", f"{GAME}: Germany claims a win")
    script.orders_all(
        {
            **HOLDS,
            "England": "TS2\nF(NTH) H",
            "France": "TS2\nA(Lon) H",
            "Germany": "TS2\nA(Ber) H",
        }
    )
    for name, body in _results(script, "APR1901M").items():
        # Nine centres between them: far from the 24 a 2-way win needs on this board.
        assert "The game is won" not in body, name
        assert "The next phase is May 1901 Movement" in body, name
    assert script.phase() == "MAY1901M active"


@pytest.mark.e2e
@pytest.mark.slow
def test_a_scripted_mercator_game_by_mail(
    mail_servers: Any,
    new_account: Callable[[], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
) -> None:
    started_at = time.monotonic()
    script, prefix = scripted_judge(
        GAME,
        mail_servers=mail_servers,
        new_account=new_account,
        database_url=database_url,
        tmp_path=tmp_path,
        judge_process=judge_process,
    )
    try:
        _start(script, new_account, prefix)
        _january(script)
        _february(script)
        _march(script)
        _april(script)
        script.check_every_mail()
    finally:
        script.dump(tmp_path / "mail")
    print(f"scripted Mercator game: {time.monotonic() - started_at:.1f} s")
