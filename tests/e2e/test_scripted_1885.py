"""A scripted 1885 game through the real Postfix and Dovecot: nine players, the GM and an
observer by mail, the year 1885 from January to December on the 1885 board (the script is
year_1885.py: an army/fleet crossing two seas, a Fast Ferry, Rome's unit chosen in private, the
Macedonian build, a right-hand-rule retreat, retreats sent with the builds and a build
contingent on one, and bad orders refused with the line named: an army/fleet of two powers, a
convoy across a second sea, a disband retreat).

Every mail every reader receives is checked as in the standard scripted game (scripted_game.py):
taken by the script, from the judge, to that reader alone, with the reader's own Reply-To or
none, and nobody's secrets in it; Italy's choice of a fleet in Rome reaches nobody before the
January results.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scripted_game import ScriptedGame, on_backend
from year_1885 import BETWEEN, MONTHS, MOVES, POWERS, REFUSED, SAYS

GAME = "script1885"


def _start(script: ScriptedGame, make: Callable[[], Any], prefix: str) -> None:
    ident = script.send(script.gm.account, f"CREATE {GAME} {script.gm_password} 1885")
    created = script.reply(script.gm, ident, "game_created")
    assert "Game script1885 is created" in created.body and "1885" in created.body
    script.observe()
    started = script.sign_on_everyone(POWERS, make, prefix, "JAN1885M")
    assert "You play Spain, with" in started["Spain"].body


def _refused(script: ScriptedGame, phase: str) -> None:
    for power, when, text, error in REFUSED:
        if when == phase:
            echo = script.orders(power, text)
            assert error in echo.body.replace("\r\n", "\n"), (phase, power, echo.body)


def _rome_kept_secret(script: ScriptedGame) -> None:
    """Italy's choice of a fleet in Rome reached Italy alone before the January results."""
    for box in script.every_box():
        box.refresh()
        if box.owner == "Italy":
            continue
        for mail in box.mails.values():
            assert "Rome is a fleet" not in mail.text(), (box.name, mail.subject)
    italy = script.players["Italy"].box
    assert any("= The unit in Rome is a fleet" in m.body for m in italy.mails.values())


def _check(script: ScriptedGame, phase: str) -> None:
    # MISSED: a power without orders is told to the GM (Austria's refused retreat).
    for name, mail in script.process(phase, missed=True).items():
        body = mail.body.replace("\r\n", "\n")
        for words in SAYS.get(phase, ()):
            assert words in body, (phase, name, words, body)


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("postgresql")
def test_a_scripted_1885_year_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted(GAME, "1885 year") as (script, prefix):
        _start(script, new_account, prefix)
        for month in MONTHS:
            assert script.phase() == f"{month} active"
            _refused(script, month)
            script.orders_all({p: MOVES.get(month, {}).get(p) or script.holds(p) for p in POWERS})
            if month == "JAN1885M":
                _rome_kept_secret(script)
            _check(script, month)
            if month not in BETWEEN:
                continue
            between, orders = BETWEEN[month]
            assert script.phase() == f"{between} active"
            _refused(script, between)
            if orders:
                script.orders_all(orders)
            _check(script, between)
            if between == "MAY1885R":
                # Austria's retreat was refused and it sent none: the GM is told, and the
                # right-hand rule retreated the army.
                script.take(
                    {script.gm: lambda m: m.subject.startswith(f"{GAME}: Austria in MAY1885R")},
                    "the GM's missed-turn notice",
                )
        assert script.phase() == "JAN1886M active"
