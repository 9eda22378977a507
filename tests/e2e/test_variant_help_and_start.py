"""Each variant explained by mail, through the real Postfix and Dovecot: a player of a
Mercator (world board), 1885, Mercenary and Algernon game: a newcomer asks HELP for the variant
and reads its order forms and example mails; every player's start mail, as he receives it, says what is particular
to the game (Mercator's time scales and the spare unit of Germany and Russia with where it may
go, 1885's Rome choice and build centres, Mercenary's currencies and every holding). And the
GM's early PROCESS in the nine-player 1885 game: nobody is told a replacement is sought (every
mail is checked at the end, so one would fail the game), and a PROCESS MISSED the month after
tells each reader of the missed moves in one mail.

A new player's question, asked of each: could he play from the start mail and HELP alone? The
start mail names what is particular and points to HELP <variant>; HELP gives each order form
with an example mail in the variant's own notation, each line read by the judge's own reader
(tests/variants/test_variant_help.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from scripted_game import POWERS, ScriptedGame, on_backend

from judge.variants import board_of, variant

POWERS_1885 = (
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Spain", "Sweden", "Turkey",
)  # fmt: skip
WORLD_POWERS = (
    "England", "France", "Germany", "Italy", "Russia", "Turkey", "America", "Brazil",
    "Argentina", "Australia", "Japan", "China", "India",
)  # fmt: skip


def _start(
    script: ScriptedGame,
    make: Callable[[], Any],
    prefix: str,
    words: str,
    powers: tuple[str, ...],
    first_phase: str,
) -> dict[str, str]:
    """CREATE the game, an observer, every seat signed on: each reader's start mail, its body
    with its lines joined (the GM's and the observer's under their names)."""
    ident = script.send(script.gm.account, f"CREATE {script.game} {script.gm_password} {words}")
    script.reply(script.gm, ident, "game_created")
    script.observe()
    started = script.sign_on_everyone(powers, make, prefix, first_phase)
    bodies = {power: " ".join(mail.body.split()) for power, mail in started.items()}
    return bodies


def _start_notices(script: ScriptedGame) -> dict[str, str]:
    """The GM's and the observer's start mails, taken by sign_on_everyone: read back."""
    out = {}
    for box in (script.gm, script.observer):
        mails = [m for m in box.mails.values() if "the game has started" in m.subject]
        assert len(mails) == 1, (box.name, [m.subject for m in box.mails.values()])
        out[box.name] = " ".join(mails[0].body.split())
    return out


def _help(script: ScriptedGame, account: Any, name: str) -> str:
    """A newcomer who has read no rules asks HELP <variant> from an address of his own: the
    answer's body. HELP belongs to no game, so its mailbox stands apart from the game's (whose
    mails all thread under the game) and the mail is no command of the game's script."""
    box = script.mailbox(f"newcomer ({name})", account, None)
    ident = script.send(account, f"HELP {name}", subject="how to play")
    script.sent.remove(ident)
    answer = script.reply(box, ident, f"HELP {name}")
    assert answer.subject.startswith("Help on "), answer.subject
    assert "expected a province" not in answer.body
    return answer.body.replace("\r\n", "\n")


def _help_teaches(body: str, name: str) -> None:
    """Every form and every example mail of the variant's HELP is in the mail as received."""
    found = variant(name)
    assert found.desk.help is not None
    assert f"Help on {found.title}" in body or found.title in body
    for form in found.desk.help.forms:
        assert form.line in body, form.line
    for example in found.desk.help.examples:
        assert "\n".join(f"    {line}" for line in example.lines) in body, example


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("sqlite")
def test_mercator_help_and_start_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted("helpmerc", "Mercator help and start") as (script, prefix):
        told = _start(script, new_account, prefix, "mercator", WORLD_POWERS, "JAN1901M")
        told.update(_start_notices(script))
        for reader, text in told.items():
            assert "under the headings TS1 (armies board fleets and land)" in text, reader
            assert "Germany and Russia have a spare unit" in text, reader
            assert "HELP mercator shows every order form" in text, reader
        assert "by a line Place A Cmr (an army)" in told["Germany"]
        assert "Silesia (Sil)" in told["Germany"] and "Ukraine (Ukr)" in told["Russia"]
        assert "Your spare unit" not in told["France"] and "Your spare unit" not in told["GM"]
        _help_teaches(_help(script, new_account(), "mercator"), "mercator")


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("sqlite")
def test_mercenary_help_and_start_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted("helpmoney", "Mercenary help and start") as (script, prefix):
        told = _start(script, new_account, prefix, "mercenary", POWERS, "S1901M")
        told.update(_start_notices(script))
        for reader, text in told.items():
            assert "Each power has a currency of its own" in text, reader
            for power in POWERS:  # every holding, public
                adjective = board_of("mercenary").powers[power.upper()].adjective
                assert f"{power} 1000 {adjective} pounds" in text, (reader, power)
        assert "BID 100 ON A Par - Bur" in told["France"]
        _help_teaches(_help(script, new_account(), "mercenary"), "mercenary")


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("postgresql")
def test_1885_help_start_and_the_gm_s_early_process_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted("help1885", "1885 help, start and early PROCESS") as (script, prefix):
        told = _start(script, new_account, prefix, "1885", POWERS_1885, "JAN1885M")
        told.update(_start_notices(script))
        assert "Write Rome: Fleet (or Rome: Army) with your January orders" in told["Italy"]
        for reader, text in told.items():
            assert "Russia in Archangel" in text and "Turkey in Levant" in text, reader
            if reader != "Italy":
                assert "Italy chooses whether its unit in Rome" in text, reader
        _help_teaches(_help(script, new_account(), "1885"), "1885")
        _help_teaches(_help(script, new_account(), "standard"), "standard")

        # January run early by the GM with nobody's orders in: results to all, nothing else
        # (check_every_mail at the end fails on any mail the script did not take).
        results = script.process("JAN1885M")
        assert len(results) == len(POWERS_1885) + 2  # the players, the GM, the observer
        assert script.phase() == "FEB1885M active"

        # February with the misses counted: one mail to each reader but the GM, his own seat
        # first where it is his; one missed_turn to the GM.
        script.orders_all({p: script.holds(p) for p in POWERS_1885 if p != "Sweden"})
        script.gm_mail("PROCESS FEB1885M MISSED")
        script.take_results("FEB1885M")
        readers = [p.box for p in script.players.values()] + [script.observer]
        sought = script.take(
            {box: (lambda m: "a replacement is sought for Sweden" in m.subject) for box in readers},
            "one replacement_sought each",
        )
        assert "You play Sweden" in sought[script.players["Sweden"].box].body
        assert "You play" not in sought[script.observer].body
        script.take({script.gm: lambda m: "Sweden in FEB1885M" in m.subject}, "the GM's notice")


@pytest.mark.e2e
@pytest.mark.slow
@on_backend("sqlite")
def test_algernon_help_and_start_by_mail(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    """Three players JOIN an Algernon game, as the CREATE reply tells the GM they do; each
    start mail tells the maze, how it is learned and the player's own initials."""
    with scripted("helpmaze", "Algernon help and start") as (script, prefix):
        ident = script.send(script.gm.account, f"CREATE helpmaze {script.gm_password} algernon 3")
        created = " ".join(script.reply(script.gm, ident, "game_created").body.split())
        assert "JOIN helpmaze <a password of their own>" in created
        assert "SIGNON <power>" not in created
        script.observe()
        answers = {}
        for i in range(3):
            player = script.add_player(f"seat{i}", new_account(), f"{prefix}-maze-{i}")
            ident = script.send(
                player.box.account, f"JOIN helpmaze {player.password}", subject="join"
            )
            answers[player.power] = script.reply(player.box, ident, f"seat{i}'s JOIN")
        started = script.take(
            {
                box: (lambda m: "the game has started" in m.subject)
                for box in [script.players["seat0"].box, script.players["seat1"].box]
                + [script.gm, script.observer]
            },
            "the start",
        )
        texts = {box.name: " ".join(mail.body.split()) for box, mail in started.items()}
        texts["seat2"] = " ".join(answers["seat2"].body.split())
        for seat in ("seat0", "seat1", "seat2"):
            assert "Algernon: the maze is secret" in texts[seat], seat
            assert "with rats at" in texts[seat] and "HELP algernon" in texts[seat], seat
        for reader in ("GM", "observer"):
            assert "Algernon: the maze is secret" in texts[reader]
            assert "You are" not in texts[reader]
        _help_teaches(_help(script, new_account(), "algernon"), "algernon")
