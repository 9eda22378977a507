"""Scripted Mercator games through the real Postfix and Dovecot, the GM and an observer by mail:
seven players for four months of 1901 on the standard board (the rules' examples' board), and
thirteen players for the whole of 1901 on the world board (the variant's default).

The standard board:

January puts the fleets at sea. February: England's army boards in time scale 1 and goes to
Norway by an extended convoy (rule 3 c); France boards an army and tries a fast ferry into
Belgium (3 b), which Germany's move stands off, so the army stays aboard; France's unsupported
attack from Burgundy dislodges the German army that failed to leave the Ruhr (the Key rule,
2.7), which retreats in time scale 4 (rule 4). March: the French army still aboard lands in
London in time scale 1; after the March moves France builds at a premium in the Ruhr it owns
(5.3) and Germany at home. April: France and Germany claim a 2-way win together (rule 10),
which their centres do not carry, and the game goes on.

The world board, January to December 1901 (maps/mercator-world.md): Germany places its spare
fleet in Cameroon and Russia its spare army in the Ukraine (rule 9); England's army walks to
Wales, boards the fleet in the Channel in time scale 1, sails to the Mid-Atlantic and
disembarks in Gascony (owning it, 5.1), then takes Spain while the fleet takes Portugal; Japan
embarks an army at Osaka and lands it in Korea in time scale 1 while a fleet takes the Mariana
Islands; a Turkish fleet passes from the Black Sea straight into the Aegean (6.4) and takes
Greece; an American fleet sails from San Francisco through the Panama canal into the Caribbean
(6.1). In March England builds in Gascony at a premium (5.3) and the withheld build comes back
in June; Germany and Russia keep their spares until September, the third build season, when
they remove them.

Every mail every reader receives is checked as in the standard scripted game (scripted_game.py):
taken by the script, from the judge, to that reader alone, with the reader's own Reply-To or
none, and nobody's secrets in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scripted_game import POWERS, ScriptedGame, on_backend

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
    ident = script.send(script.gm.account, f"CREATE {GAME} {script.gm_password} mercator standard")
    created = script.reply(script.gm, ident, "game_created")
    assert "Mercator, on the board of Standard Diplomacy" in created.body
    script.observe()
    started = script.sign_on_everyone(POWERS, make, prefix, "JAN1901M")
    assert "You play France, with" in started["France"].body


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
@on_backend("sqlite")
def test_a_scripted_mercator_game_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted(GAME, "Mercator game") as (script, prefix):
        _start(script, new_account, prefix)
        _january(script)
        _february(script)
        _march(script)
        _april(script)


# --- the world board: thirteen players for a year ----------------------------------------------

WORLD_GAME = "mercworld"
WORLD_POWERS = (
    "England", "France", "Germany", "Italy", "Russia", "Turkey", "America", "Brazil",
    "Argentina", "Australia", "Japan", "China", "India",
)  # fmt: skip
# Each power orders every month (a power that sends nothing has missed a move); these hold one
# unit that never moves.
QUIET = {
    "England": "TS2\nF(NWG) H",
    "France": "TS2\nA(Par) H",
    "Germany": "TS2\nA(Ber) H",
    "Italy": "TS2\nA(Rom) H",
    "Russia": "TS2\nA(Mos) H",
    "Turkey": "TS2\nA(Con) H",
    "America": "TS2\nA(Chc) H",
    "Brazil": "TS2\nA(Sao) H",
    "Argentina": "TS2\nA(Cdb) H",
    "Australia": "TS2\nA(Mel) H",
    "Japan": "TS2\nA(Toh) H",
    "China": "TS2\nA(Han) H",
    "India": "TS2\nA(Del) H",
}
WORLD_MONTHS: dict[str, dict[str, str]] = {
    "JAN1901M": {
        "England": "TS2\nF(Lon) - ENC\nF(Edi) - NWG\nA(Lvp) - Wal",
        "Germany": "Spare F Cmr\nTS2\nA(Ber) H",
        "Russia": "Spare A Ukr\nTS2\nA(Mos) H",
        "Turkey": "TS2\nF(Ank) - BLA\nA(Con) H",
        "America": "TS2\nF(Sfr) - NEP\nA(Chc) H",
        "Japan": "TS2\nF(Nag) - SoJ\nF(Tok) - NWP\nTS3\nA(Osa) E F(SoJ)",
    },
    "FEB1901M": {
        "England": "TS1\nA(Wal) B F(ENC)\nTS2\nA/F(ENC) - MAO\nF(NWG) H\nTS3\nA(MAO) D Gas",
        "Turkey": "TS2\nF(BLA) - AEG\nA(Con) H",
        "America": "TS2\nF(NEP) - EPA\nA(Chc) H",
        "Japan": "TS1\nA(SoJ) L Kor\nTS2\nF(NWP) - MRN\nA(Toh) H",
    },
    "MAR1901M": {
        "England": "TS2\nA(Gas) - Spa\nF(MAO) - Por\nF(NWG) H",
        "Turkey": "TS2\nF(AEG) - Gre\nA(Con) H",
        "America": "TS2\nF(EPA) - Pan\nA(Chc) H",
        "Japan": "TS2\nA(Kor) H\nF(MRN) H",
    },
    "MAR1901A": {
        "England": "Build A Gas",
        "Japan": "Build F Tok\nBuild A Osa",
        "Turkey": "Build F Ank",
    },
    "APR1901M": {"America": "TS2\nF(Pan) - CAR\nA(Chc) H"},
    "MAY1901M": {},
    "JUN1901M": {},
    "JUN1901A": {"England": "Build F Lon"},
    "JUL1901M": {},
    "AUG1901M": {},
    "SEP1901M": {},
    "SEP1901A": {"Germany": "Remove F Cmr", "Russia": "Remove A Ukr"},
    "OCT1901M": {},
    "NOV1901M": {},
    "DEC1901M": {},
    "DEC1901A": {},
}
# What every reader must read in each phase's results (the observer and the GM too).
WORLD_RESULTS: dict[str, list[str]] = {
    "JAN1901M": [
        "Movement results for January 1901.",
        "Germany:\n    Spare unit: Fleet Cameroon.  (placed)",
        "Russia:\n    Spare unit: Army Ukraine.  (placed)",
        "    Fleet San Francisco -> Northeast Pacific.",
        "  Time scale 3:\n    Army Osaka embarks on Fleet Sea of Japan.",
        "The next phase is February 1901 Movement",
    ],
    "FEB1901M": [
        "England:\n  Time scale 1:\n    Army Wales boards Fleet English Channel.",
        "    Army/Fleet English Channel -> Mid-Atlantic Ocean.",
        "  Time scale 3:\n    Army Mid-Atlantic Ocean disembarks in Gascony.",
        "Japan:\n  Time scale 1:\n    Army Sea of Japan lands in Korea.",
        "    Fleet Black Sea -> Aegean Sea.",
        "Provinces owned (not supply centres):\n  England: Gascony\n",
    ],
    "MAR1901M": [
        "    Fleet Eastern Pacific -> Panama.",
        "  England (5): Edinburgh, Liverpool, London, Portugal, Spain.  builds 2",
        "  Germany (3): Berlin, Kiel, Munich.\n",
        "  Russia (4): Moscow, Sevastopol, St Petersburg, Warsaw.\n",
        "  Turkey (4): Ankara, Constantinople, Greece, Smyrna.  builds 1",
        "  Japan (6): Korea, Mariana Islands, Nagasaki, Osaka, Tohoku, Tokyo.  builds 2",
        "The next phase is March 1901 Adjustments",
    ],
    "MAR1901A": [
        "England:\n    Builds an army in Gascony.  (a premium build: one more build withheld",
        "Japan:\n    Builds an army in Osaka.\n    Builds a fleet in Tokyo.",
        "The next phase is April 1901 Movement",
    ],
    "APR1901M": [
        "America:\n  Time scale 2:\n    Army Chicago holds.\n    Fleet Panama -> Caribbean Sea."
    ],
    "JUN1901M": ["  England (5): Edinburgh, Liverpool, London, Portugal, Spain.  builds 1"],
    "JUN1901A": ["England:\n    Builds a fleet in London."],
    "SEP1901M": [
        "  Germany (3): Berlin, Kiel, Munich.  removes 1",
        "  Russia (4): Moscow, Sevastopol, St Petersburg, Warsaw.  removes 1",
    ],
    "SEP1901A": ["Removed:\n  Germany Fleet Cameroon\n  Russia Army Ukraine"],
    "DEC1901M": ["  England (5): Edinburgh, Liverpool, London, Portugal, Spain.\n"],
    "DEC1901A": [
        "Adjustment results for December 1901.",
        "The next phase is January 1902 Movement",
    ],
}


def _start_world(script: ScriptedGame, make: Callable[[], Any], prefix: str) -> None:
    ident = script.send(script.gm.account, f"CREATE {WORLD_GAME} {script.gm_password} mercator")
    created = script.reply(script.gm, ident, "game_created")
    assert "Mercator, on the board of Mercator World" in created.body
    script.observe()
    started = script.sign_on_everyone(WORLD_POWERS, make, prefix, "JAN1901M")
    assert "You play Brazil, with" in started["Brazil"].body
    assert "You play Australia, with" in started["Australia"].body


def _world_phase(script: ScriptedGame, phase: str) -> None:
    """Every power's orders of a month (the powers owing builds or removals in an adjustment
    phase), each echoed without an error; the GM processes (a phase nobody owes orders for goes
    by itself); every reader's results checked."""
    special = WORLD_MONTHS[phase]
    texts = dict(special) if phase.endswith("A") else {**QUIET, **special}
    if texts:
        echoes = script.orders_all(texts)
        if phase == "JAN1901M":
            assert "= Spare unit: Fleet Cameroon" in echoes["Germany"].body
            assert "= TS3: Army Osaka embarks on Fleet Sea of Japan" in echoes["Japan"].body
        if phase == "FEB1901M":
            assert "= TS1: Army Wales boards Fleet English Channel" in echoes["England"].body
            assert "= TS1: Army Sea of Japan lands in Korea" in echoes["Japan"].body
        results = _results(script, phase)
    else:
        # Nobody owes anything (December's adjustments): the judge processes the phase at once,
        # with no PROCESS from the GM.
        results = {n: m.body.replace("\r\n", "\n") for n, m in script.take_results(phase).items()}
    for name, body in results.items():
        for words in WORLD_RESULTS.get(phase, []):
            assert words in body, (phase, name, words)


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("postgresql")
def test_a_scripted_year_on_the_world_board(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted(WORLD_GAME, "Mercator year on the world board") as (script, prefix):
        _start_world(script, new_account, prefix)
        for phase in WORLD_MONTHS:
            _world_phase(script, phase)
        assert script.phase() == "JAN1902M active"
