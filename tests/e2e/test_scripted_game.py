"""A scripted seven-player standard game through the real Postfix and Dovecot (issue 4's target).

Every player, the GM, an observer, a forger and a second address of one player is an IMAP
account; the judge runs as `judge serve` reading its own IMAP account, sending through Postfix,
with its scheduler polling every half second. The script plays as people would, every step by
mail: CREATE, OBSERVE, seven SIGNONs; 1901 with real orders (two bounces, builds), a correction
by a second mail, one player ordering by password from an address not on record, a forged From:
(orders, a GM PAUSE, press), a made-up token and a guessed password that change nothing; grey
press with true and false datelines, without one, partial, and from the observer; the GM's PAUSE
and RESUME (orders refused between) and a spring forced with orders missing, then a retreat and
removals; in 1903 a late Turkey reminded before a deadline the GM set seconds ahead, told at it,
and settled by the postal missed-turn rule when the GM's grace ends (units stand, GM told, a
replacement sought), then a second miss into civil disorder; W1903A processed by the GM's reply
address; SET NAME, then SUMMARY and HISTORY at the end.

The judge's answers (issue 15) are checked in the mails: every mail sent to the judge gets
exactly one answer, whatever it held (SIGNON with orders, SET DEADLINE with SET GRACE, OBSERVE
with press, SUMMARY with HISTORY); the last SIGNON's answer says "you play Turkey" before the
game's start, and every other reader's start notice (the GM's and the observer's too) was written
after it; a guessed password is told the seat is taken; the SET DEADLINE answer says when the
phase will actually run and how to shorten grace; the player who missed a move is told a
replacement is sought; SUMMARY shows the names given by SET NAME; the results name the game as
it was created.

Every mail every reader receives is checked (scripted_game): each is one the script expected
and took, from the judge, to that reader alone, with that reader's own Reply-To or none, and
none carries another reader's reply token, anybody's password or another power's orders echo or
reminder. Results are public: every reader sees every power's orders in them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.parser import BytesParser
from email.policy import default
from typing import Any

import pytest
from scripted_game import JUDGE_NAME, POWERS, Player, Received, ScriptedGame

GAME = "scripted"

# The spring of 1901: two bounces (Galicia, the Black Sea). France's Paris order is first sent as
# A PAR-PIC and then corrected to Burgundy by a second mail; Italy orders by password.
SPRING_1901 = {
    "Austria": "A VIE-GAL\nA BUD-SER\nF TRI-ALB",
    "England": "F LON-NTH\nF EDI-NWG\nA LVP-YOR",
    "France": "F BRE-MAO\nA PAR-PIC\nA MAR-SPA",
    "Germany": "F KIE-DEN\nA BER-KIE\nA MUN-RUH",
    "Italy": "F NAP-ION\nA ROM-APU\nA VEN H",
    "Russia": "A WAR-GAL\nA MOS-UKR\nF SEV-BLA\nF STP/SC-BOT",
    "Turkey": "F ANK-BLA\nA CON-BUL\nA SMY-CON",
}
FALL_1901 = {
    "Austria": "F ALB-GRE\nA SER S F ALB-GRE\nA VIE-BUD",
    "England": "F NWG-NWY\nF NTH H\nA YOR-EDI",
    "France": "F MAO-POR\nA BUR-BEL\nA SPA H",
    "Germany": "F DEN H\nA KIE-HOL\nA RUH-MUN",
    "Italy": "F ION-TUN\nA APU H\nA VEN H",
    "Russia": "F BOT-SWE\nA UKR-RUM\nA WAR H\nF SEV H",
    "Turkey": "F ANK H\nA BUL-GRE\nA CON H",
}
WINTER_1901 = {
    "Austria": "Build A VIE\nBuild F TRI",
    "England": "Build F LON",
    "France": "Build A PAR\nBuild F BRE\nBuild A MAR",
    "Germany": "Build A BER\nBuild F KIE",
    "Italy": "Build F NAP",
    "Russia": "Build A MOS\nBuild F STP/NC",
    "Turkey": "Build F SMY",
}
# The spring of 1902 is forced by the GM before its deadline with most orders missing: every
# power orders one or two units (partial orders are no missed turn), the others hold. Austria
# dislodges Russia's army in Rumania (two against one), so a retreat phase follows.
SPRING_1902 = {
    "Austria": "A BUD-RUM\nA SER S A BUD-RUM",
    "England": "F LON-ENG",
    "France": "A PAR-PIC",
    "Germany": "A HOL H",
    "Italy": "A VEN-PIE",
    "Russia": "F STP/NC-BAR",
    "Turkey": "F SMY-AEG",
}
FALL_1902 = {
    "Austria": "A RUM H",
    "England": "F ENG H",
    "France": "A PIC H",
    "Germany": "F KIE H",
    "Italy": "A PIE H",
    "Russia": "A UKR H",
    "Turkey": "F AEG H",
}
# Austria takes the Venice Italy left; Turkey sends nothing a second time.
FALL_1903 = {
    "Austria": "F TRI-VEN",
    "England": "F ENG H",
    "France": "A PIC H",
    "Germany": "F KIE H",
    "Italy": "A PIE H",
    "Russia": "A MOS H",
}


def _njudge_date(moment: datetime) -> str:
    """A moment as njudge wrote deadlines (the judge reads it back to the second)."""
    return moment.astimezone(UTC).strftime("%a %b %d %Y %H:%M:%S +0000")


def _check_signed_on(mail: Received, player: Player) -> None:
    """The signed_on mail: its Reply-To is the seat's reply address, also in its text."""
    assert mail.reply_to == (player.reply_address,) and player.reply_address
    assert player.reply_address in mail.body
    assert f"You hold {player.power} in game {GAME}." in mail.body


def _observe_asked_not_imposed(script: ScriptedGame) -> None:
    """A forged OBSERVE only mails the address a confirmation; the owner's reply to the token
    address it names, and nothing else, makes an observer."""
    observer = script.observer
    ident = script.send(script.forger.account, f"OBSERVE {GAME}", from_header=observer.address)
    forged = script.reply(observer, ident, "the forged OBSERVE's confirmation", "Confirm observing")
    assert "Nothing changes until you confirm." in " ".join(forged.body.split())
    assert forged.reply_to and forged.reply_to[0] in " ".join(forged.body.split())
    ident = script.send(observer.account, f"OBSERVE {GAME}", subject="watching")
    asked = script.reply(observer, ident, "the OBSERVE's confirmation", "Confirm observing")
    assert asked.subject == f"Confirm observing {GAME}"
    assert asked.reply_to == forged.reply_to  # asking again keeps the one confirmation address
    ident = script.send(
        observer.account, "> Confirm observing", to=asked.reply_to[0], subject="Re: confirm"
    )
    observing = script.reply(observer, ident, "observing")
    assert observing.subject == f"Observing {GAME}"
    assert observing.list_unsubscribe.startswith("<mailto:")


def _forged_observe_of_a_player(script: ScriptedGame) -> None:
    """OBSERVE forged From: a player's address changes nothing: the player is told that the
    address plays in the game (the results still come once: check_every_mail)."""
    france = script.players["France"]
    ident = script.send(script.forger.account, f"OBSERVE {GAME}", from_header=france.address)
    refused = script.reply(france.box, ident, "the forged OBSERVE's refusal")
    assert f"OBSERVE {GAME} changed nothing: this address plays in {GAME}" in " ".join(
        refused.body.split()
    )


def _unobserve(script: ScriptedGame) -> None:
    """The observer's mails carry a one-click List-Unsubscribe; a mail to its address stops the
    observing, and UNOBSERVE afterwards finds nothing to stop."""
    observer = script.observer
    headers = {m.list_unsubscribe for m in observer.mails.values() if m.list_unsubscribe}
    assert len(headers) == 1, headers  # every mail of the game names the one leave address
    found = re.search(r"<mailto:([^?>]+)", headers.pop())
    assert found is not None
    ident = script.send(observer.account, "unsubscribe", to=found.group(1), subject="unobserve")
    stopped = script.reply(observer, ident, "the unsubscription", f"No longer observing {GAME}")
    assert f"You no longer observe game {GAME}" in stopped.body
    ident = script.send(observer.account, f"UNOBSERVE {GAME}", subject="unobserve")
    nothing = script.reply(observer, ident, "UNOBSERVE's answer")
    assert f"does not observe {GAME}" in " ".join(nothing.body.split())


def _start(script: ScriptedGame, make: Callable[[], Any], prefix: str) -> None:
    """CREATE, OBSERVE, seven sign-ons by mail (the seventh starts the game)."""
    ident = script.send(script.gm.account, f"CREATE {GAME} {script.gm_password} standard")
    created = script.reply(script.gm, ident, "game_created")
    assert created.subject == f"Game {GAME} created"
    assert f"SIGNON <power> {GAME}" in created.body
    # The GM has a reply address of its own (the Reply-To of game_created).
    assert script.gm_reply_address and created.reply_to == (script.gm_reply_address,)

    _observe_asked_not_imposed(script)

    signed_on: dict[str, Received] = {}
    for power in POWERS:
        player = script.add_player(power, make(), f"{prefix}-{power.lower()}-pw")
        ident = script.send(
            player.box.account, f"SIGNON {power} {GAME} {player.password}", subject="sign on"
        )
        signed = script.reply(player.box, ident, f"{power}'s signed_on", f"{GAME}: you play")
        signed_on[power] = signed
        if power != POWERS[-1]:
            assert signed.subject == f"{GAME}: you play {power}"
        _check_signed_on(signed, player)
    assert len({p.reply_address for p in script.players.values()}) == 7
    script.add_second_address("Italy", make())

    # The last SIGNON starts the game: its one answer says "you play Turkey", then that the
    # game has started; the other players, the GM and the observer are told in mails of
    # their own, which the judge writes (and sends) after that answer.
    last = POWERS[-1]
    answer = signed_on[last]
    assert answer.subject == f"{GAME}: you play {last}; the game has started (S1901M)"
    body = " ".join(answer.body.split())
    assert body.index(f"You hold {last} in game {GAME}.") < body.index(
        f"Every seat of game {GAME} is taken and the game has started."
    )
    assert f"You play {last}, with" in body
    started = script.take(
        {
            **{
                p.box: (lambda m: m.subject == f"{GAME}: the game has started (S1901M)")
                for p in script.players.values()
                if p.power != last
            },
            script.gm: lambda m: m.subject == f"{GAME}: the game has started (S1901M)",
            script.observer: lambda m: m.subject == f"{GAME}: the game has started (S1901M)",
        },
        "the game's start told to everyone",
    )
    for box, mail in started.items():
        if box in (script.gm, script.observer):
            assert "You play" not in mail.body
            assert "Austria" in mail.body and "Turkey" in mail.body  # who plays what
            continue
        player = script.players[box.name]
        assert mail.reply_to == (player.reply_address,)
        assert player.reply_address in mail.body
        assert f"You play {player.power}, with" in mail.body
        # Each player's "you play" was written before the game's start notice.
        [you_play, start] = script.outbox_order(signed_on[player.power], mail)
        assert you_play < start, player.power
    [answer_row, *notice_rows] = script.outbox_order(answer, *started.values())
    assert all(answer_row < row for row in notice_rows)


def _spring_1901(script: ScriptedGame) -> None:
    """Orders by reply address, a correction, Italy by password, and a forgery refused."""
    for power, text in SPRING_1901.items():
        if power == "Italy":
            continue
        echo = script.orders(power, text)
        assert echo.subject == f"{GAME}: {power} orders for S1901M"
        assert f"Every unit of {power} has an order." in echo.body
        assert "had errors" in echo.body and "0 of" in echo.body
    france = script.players["France"]

    # The correction: a second mail for the same unit replaces the first.
    echo = script.orders("France", "A PAR-BUR")
    assert "= Army Paris -> Burgundy (replaces A PAR - PIC)" in echo.body

    # Italy's player, away from home, orders with the password from an address not on record,
    # to the judge's plain address: the answers go there, and the orders echo also to the
    # address of record, so a stolen password is seen.
    italy = script.players["Italy"]
    away = script.extra[0]
    ident = script.send(
        away.account, f"SIGNON Italy {GAME} {italy.password}\n{SPRING_1901['Italy']}"
    )
    # One answer: the SIGNON of a held seat (the reply address again), then the orders read.
    answer = script.reply(away, ident, "Italy's one answer", f"{GAME}: you play Italy")
    assert answer.subject == f"{GAME}: you play Italy; Italy orders for S1901M"
    body = answer.body.replace("\r\n", "\n")
    assert italy.reply_address in body
    assert body.index("You hold Italy in game") < body.index("= Fleet Naples -> Ionian Sea")
    assert answer.reply_to == (italy.reply_address,)
    copy = script.take(
        {italy.box: lambda m: m.subject == f"{GAME}: Italy orders for S1901M"},
        "the copy of Italy's echo to the address of record",
    )[italy.box]
    assert copy.body.replace("\r\n", "\n").strip() in body

    # A forged From: (France's address, no token, no password) changes nothing and is told why;
    # the answer goes to the address in From:, the real France, who learns of the attempt.
    forger = script.forger
    ident = script.send(forger.account, "A PAR-GAS", from_header=france.address)
    refused = script.reply(france.box, ident, "the forgery's refusal")
    assert refused.subject == "Not done: orders"
    assert "a From: line alone can be forged" in refused.body
    # A made-up token changes nothing either.
    local, _, domain = script.judge_address.partition("@")
    ident = script.send(
        forger.account,
        "A PAR-GAS",
        to=f"{local}+abcdefghijklmnop@{domain}",
        from_header=france.address,
    )
    refused = script.reply(france.box, ident, "the made-up token's refusal")
    assert "belongs to no seat" in refused.body
    # A guessed password from the forger's own address takes nothing: the seat is taken.
    ident = script.send(forger.account, f"SIGNON France {GAME} guess\nA PAR-GAS")
    refused = script.reply(forger, ident, "the guessed password's refusal")
    said = " ".join(refused.body.split())
    assert said.index(f"France in game {GAME} is taken") < said.index("not the right one")
    # A forged From: of the GM's address commands nothing either.
    ident = script.send(forger.account, "PAUSE", from_header=script.gm.address)
    refused = script.reply(script.gm, ident, "the forged PAUSE refused")
    assert "PAUSE is the GM's" in refused.body
    assert script.phase() == "S1901M active"

    results = script.process("S1901M")
    for name, mail in results.items():
        body = mail.body
        assert f"  Game: {GAME}  Variant:" in body, name  # the name as its creator wrote it
        assert "Movement results for Spring of 1901." in body, name
        assert "France: Army Paris -> Burgundy." in body, name
        assert "Gascony" not in body and "Picardy" not in body, name
        assert "Italy: Fleet Naples -> Ionian Sea." in body, name
        assert "Austria: Army Vienna -> Galicia.  (*bounce*)" in body, name
        assert "Russia: Army Warsaw -> Galicia.  (*bounce*)" in body, name
        assert "Turkey: Fleet Ankara -> Black Sea.  (*bounce*)" in body, name
        for power in POWERS:
            assert f"{power}: " in body, (name, power)
    for power, player in script.players.items():
        assert results[power].reply_to == (player.reply_address,)
    assert results["observer"].reply_to == ()
    assert results["GM"].reply_to in ((), (script.gm_reply_address,))
    _check_pictures(results, "F1901M")


def _check_pictures(results: dict[str, Any], phase: str) -> None:
    """Every results mail came through the relay and Dovecot with its picture: an SVG of the
    position after the phase, and the same picture as a PNG (judge/pictures)."""
    for name, mail in results.items():
        message = BytesParser(policy=default).parsebytes(mail.raw)
        files = {part.get_content_type(): part.get_content() for part in message.iter_attachments()}
        assert set(files) == {"image/svg+xml", "image/png"}, name
        svg = files["image/svg+xml"]
        svg = svg.decode() if isinstance(svg, bytes) else svg
        assert f"(next {phase})" in svg and 'id="u-FRANCE-bur"' in svg, name
        assert files["image/png"][:8] == b"\x89PNG\r\n\x1a\n", name


def _fall_and_winter_1901(script: ScriptedGame) -> None:
    for power, echo in script.orders_all(FALL_1901).items():
        assert echo.subject == f"{GAME}: {power} orders for F1901M"
        assert "0 of" in echo.body and f"Every unit of {power} has an order." in echo.body
    results = script.process("F1901M")
    for name, mail in results.items():
        assert "Movement results for Fall of 1901." in mail.body, name
        assert "Austria: Fleet Albania -> Greece." in mail.body, name
        assert "Turkey: Army Bulgaria -> Greece.  (*bounce*)" in mail.body, name

    # Every power owes builds; each orders them (a power sending nothing would be a missed turn
    # the GM is told of).
    for power, echo in script.orders_all(WINTER_1901).items():
        assert "0 of" in echo.body, (power, echo.body)
        assert "Builds and removals not ordered are left to the rules" in echo.body
    results = script.process("W1901A")
    for name, mail in results.items():
        assert "Austria: Builds an army in Vienna." in mail.body, name
        assert "Austria: Builds a fleet in Trieste." in mail.body, name
        assert "France:  Builds a fleet in Brest." in mail.body, name
        assert "Russia:  Builds a fleet in St Petersburg (north coast)." in mail.body, name


def _press_settings(script: ScriptedGame) -> None:
    """The GM makes it a postal game's press: grey (no kind named means the writer is not
    shown; seed 004 II.B), observers writing too (II.A: anyone), announced to everyone once."""
    ident = script.gm_mail("SET PRESS GREY\nSET OBSERVER ANY")
    settings = script.reply(script.gm, ident, "the GM's press settings", f"{GAME}: press settings")
    assert "press allowed:      GREY" in settings.body
    assert "observers may send: white or grey press" in settings.body
    told = script.take_everyone(
        lambda m: m.subject == f"{GAME}: press settings",
        "the press settings announced",
        [*(p.box for p in script.players.values()), script.observer],
    )
    for name, mail in told.items():
        assert "The GM of game scripted has changed its press settings." in mail.body, name


def _1902(script: ScriptedGame) -> None:
    """A spring paused and resumed by the GM, then forced (processed with orders missing), a
    retreat, press in the fall, the adjustments."""
    first = ("Austria", "England", "Germany", "Italy")
    script.orders_all({p: SPRING_1902[p] for p in first})

    # The GM pauses and resumes by mail to the GM's reply address, with no password.
    script.gm_mail("PAUSE", by_token=True)
    paused = script.take_everyone(
        lambda m: m.subject == f"{GAME}: the game is paused", "the pause announced"
    )
    for name, mail in paused.items():
        assert "is paused in S1902M by its game master" in mail.body, name
    assert script.phase() == "S1902M paused"
    france = script.players["France"]
    ident = script.send(france.box.account, "A PAR-PIC", to=france.reply_address)
    refused = script.reply(france.box, ident, "orders refused in a paused game")
    assert refused.subject == "Not done: orders"
    assert f"line 1: game {GAME} is paused by its GM: orders are taken again when it resumes" in (
        refused.body
    )

    script.gm_mail("RESUME", by_token=True)
    resumed = script.take_everyone(
        lambda m: m.subject == f"{GAME}: the game goes on in S1902M", "the resumption announced"
    )
    for name, mail in resumed.items():
        assert "Orders are due by " in mail.body, name
        assert "Orders stored before the pause still stand" in mail.body, name
    script.orders_all({p: SPRING_1902[p] for p in POWERS if p not in first})

    results = script.process("S1902M")
    for name, mail in results.items():
        body = mail.body
        assert "Austria: Army Budapest -> Rumania." in body, name
        assert "England: Fleet London -> English Channel." in body, name  # sent before PAUSE
        assert "France: Army Paris -> Picardy." in body, name  # sent after RESUME
        # Units without orders hold; Russia's army is dislodged and may retreat.
        assert "Austria: Fleet Greece, No Order Processed." in body, name
        assert "Russia: Army Rumania, No Order Processed.  (*dislodged*)" in body, name
        assert "The Russian Army in Rumania can retreat to Galicia or Ukraine." in body, name
    # Partial orders are no missed turn: nobody was told of one.
    echo = script.orders("Russia", "A RUM-UKR")
    assert "= Army Rumania -> Ukraine" in echo.body
    results = script.process("S1902R")
    for name, mail in results.items():
        assert "Russia:  Army  Rumania -> Ukraine." in mail.body, name

    script.orders_all(FALL_1902)
    _press(script)
    results = script.process("F1902M")
    for name, mail in results.items():
        assert "Russia:    5 Supply centers,  6 Units:  Removes  1 unit." in mail.body, name
    script.orders_all({"Austria": "Build A BUD", "Russia": "Remove A UKR"})
    results = script.process("W1902A")
    for name, mail in results.items():
        assert "Austria: Builds an army in Budapest." in mail.body, name
        assert "Russia:  Removes the army in Ukraine." in mail.body, name


def _press(script: ScriptedGame) -> None:
    """Press under SET PRESS GREY: a dateline from the power that holds the city prints in single
    parentheses, from anyone else in double; press without a dateline names nobody; partial press
    reaches only the powers named (and the GM, who sees every writer); an observer may write
    (seed 004 II.A: anyone); a forged From: writes nothing."""
    players = script.players
    idents = {
        "France": script.send(
            players["France"].box.account,
            "PRESS\n(Paris) The government declares its borders closed.\nENDPRESS",
            to=players["France"].reply_address,
            subject="press",
        ),
        "England": script.send(
            players["England"].box.account,
            "PRESS\n(Paris) Riots are reported in the capital.\nENDPRESS",
            to=players["England"].reply_address,
            subject="press",
        ),
        "Germany": script.send(
            players["Germany"].box.account,
            "PRESS\nBeware the bear in the east.\nENDPRESS",
            to=players["Germany"].reply_address,
            subject="press",
        ),
        "Italy": script.send(
            players["Italy"].box.account,
            "PRESS TO Austria\n(Rome) Shall we talk about the Adriatic?\nENDPRESS",
            to=players["Italy"].reply_address,
            subject="press",
        ),
    }
    for power, ident in idents.items():
        sent = script.reply(players[power].box, ident, f"{power}'s press confirmation")
        assert sent.subject == f"{GAME}: your press was sent", sent.subject
        assert "It is grey press: its readers are not told who wrote it." in sent.body
    everyone_but = {
        power: [b for b in script.boxes() if b is not players[power].box] for power in players
    }
    for power, words in (
        ("France", "(Paris) The government declares its borders closed."),
        ("England", "((Paris)) Riots are reported in the capital."),
        ("Germany", "Beware the bear in the east."),
    ):
        copies = script.take_everyone(
            lambda m, words=words: m.subject.startswith(f"{GAME}: press") and words in m.body,
            f"{power}'s press",
            everyone_but[power],
        )
        gm_copy = copies.pop("GM")
        assert f"written by {power}" in gm_copy.body, gm_copy.body
        for name, mail in copies.items():
            assert mail.subject == f"{GAME}: press", (name, mail.subject)
            assert "the writer is not named" in mail.body, (name, mail.body)
            assert power not in mail.body and power not in mail.subject, (name, mail.body)
    partial = script.take_everyone(
        lambda m: "(Rome) Shall we talk about the Adriatic?" in m.body,
        "Italy's press to Austria",
        [players["Austria"].box, script.gm],
    )
    assert "Italy" not in partial["Austria"].body and "Austria" in partial["Austria"].subject
    assert "written by Italy" in partial["GM"].body
    script.keep_private("talk about the Adriatic", "Italy", "Austria", "GM")

    # An observer writes press too (grey like everyone's; never shown by address).
    ident = script.send(
        script.observer.account,
        f"OBSERVE {GAME}\nPRESS\n(Moscow) Snow falls early this year.\nENDPRESS",
        subject="press",
    )
    # One answer to both lines: observing, and the press sent.
    again = script.reply(script.observer, ident, "the observer's one answer", "Observing")
    assert again.subject == f"Observing {GAME}; {GAME}: your press was sent"
    copies = script.take_everyone(
        lambda m: "((Moscow)) Snow falls early this year." in m.body,
        "the observer's press",
        [*(p.box for p in players.values()), script.gm],
    )
    for name, mail in copies.items():
        if name != "GM":  # the GM sees every writer, with the From: line marked unproven
            assert script.observer.address not in mail.text(), name
            assert "the writer is not named" in mail.body, (name, mail.body)
    assert "written by an observer" in copies["GM"].body, copies["GM"].body

    # A forged From: (France's address) without token or password publishes nothing.
    ident = script.send(
        script.forger.account,
        "PRESS\n(Paris) We surrender to everyone.\nENDPRESS",
        from_header=players["France"].address,
        subject="press",
    )
    refused = script.reply(players["France"].box, ident, "the forged press refused")
    assert "a From: line alone can be forged" in refused.body
    assert "We surrender" not in "".join(
        m.body for b in script.boxes() for m in b.mails.values() if m is not refused
    )


def _late_spring_1903(script: ScriptedGame) -> None:
    """Turkey is late: reminded before a short deadline, told at the deadline, and when grace
    ends the scheduler applies the postal rule (a first miss: units stand, the GM is told, a
    replacement is sought from the others) and processes the phase."""
    on_time = [p for p in POWERS if p != "Turkey"]
    for power, echo in script.orders_all({p: script.holds(p) for p in on_time}).items():
        assert f"Every unit of {power} has an order." in echo.body, echo.body
    turkey = script.players["Turkey"]
    # The GM brings the deadline to seconds from now, and the end of grace after it.
    script.short_reminders(5)
    # The deadline must still be ahead when the judge reads the GM's mail: on a loaded machine
    # it may not be, and then the GM, told it has passed, sets a later one, as a GM would.
    for ahead in (10, 20, 45, 90):
        start = datetime.now(UTC)
        deadline = start + timedelta(seconds=ahead)
        grace = deadline + timedelta(seconds=6)
        ident = script.gm_mail(
            f"SET DEADLINE {_njudge_date(deadline)}\nSET GRACE {_njudge_date(grace)}"
        )
        # One answer: both commands done, or refused.
        answer = script.reply(script.gm, ident, "the GM's answer to SET DEADLINE and SET GRACE")
        if not answer.subject.startswith("Not done"):
            break
        assert "has already passed; nothing was changed" in answer.body, answer.body
    else:
        raise AssertionError("the judge never read the GM's SET DEADLINE in time")
    assert answer.subject == (
        f"{GAME}: SET DEADLINE {_njudge_date(deadline)}; SET GRACE {_njudge_date(grace)}"
    )
    # The answer says when the phase will actually run, and how to shorten grace.
    said = " ".join(answer.body.split())
    assert "When S1903M runs:" in said
    assert f"at the latest at the deadline, {_njudge_date(deadline)}" in said
    assert (
        "With orders missing at the deadline: it waits for them until grace ends, "
        f"{_njudge_date(grace)} (6 seconds after the deadline)" in said
    )
    assert "the units of a power that sent nothing stand" in said
    assert "SET GRACE <date> ends this phase's grace sooner" in said
    assert "SET MOVE GRACE <hours> for the movement phases to come" in said
    for command, when in (("SET DEADLINE", deadline), ("SET GRACE", grace)):
        subject = f"{GAME}: {command} {_njudge_date(when)}"
        told = script.take_everyone(
            lambda m, subject=subject: m.subject == subject,
            f"{command} announced",
            [*(p.box for p in script.players.values()), script.observer],
        )
        for name, mail in told.items():
            assert f"S1903M: orders are due by {_njudge_date(deadline)}." in mail.body, name
            assert "When S1903M runs:" in mail.body and "SET MOVE GRACE" not in mail.body

    reminder = script.take(
        {turkey.box: lambda m: m.subject.startswith(f"{GAME}: Turkey orders for S1903M are due")},
        "Turkey's reminder",
    )[turkey.box]
    assert reminder.reply_to == (turkey.reply_address,)
    assert "Still without orders: " in reminder.body and "Army Constantinople" in reminder.body

    others = [script.players[p].box for p in on_time]
    late = script.take(
        {
            turkey.box: lambda m: m.subject == f"{GAME}: Turkey is late for S1903M",
            **{
                box: (lambda m: m.subject == f"{GAME}: waiting for Turkey in S1903M")
                for box in [*others, script.gm]
            },
        },
        "the late notice and the list of the late",
    )
    assert turkey.reply_address in late[turkey.box].body
    assert "Late: Turkey." in late[script.gm].body

    missed = script.take(
        {
            script.gm: lambda m: m.subject.startswith(f"{GAME}: Turkey in S1903M: "),
            **{
                box: (lambda m: m.subject == f"{GAME}: a replacement is sought for Turkey")
                for box in [turkey.box, *others, script.observer]
            },
        },
        "the missed turn told to the GM, to Turkey's player and announced to the others",
    )
    assert turkey.address in missed[script.gm].body
    # The player who missed the move is told, with what keeps the seat.
    told = " ".join(missed[turkey.box].body.split())
    assert "You play Turkey in game scripted and sent no orders for S1903M" in told
    assert "You keep the seat by sending your orders for the next phase in time" in told
    assert missed[turkey.box].reply_to == (turkey.reply_address,)
    assert "You keep the seat" not in missed[others[0]].body
    results = script.take_results("S1903M")
    for name, mail in results.items():
        assert "Turkey: Army Constantinople, No Order Processed." in mail.body, name
        assert "Germany: Army Munich HOLD." in mail.body, name


def _fall_and_winter_1903(script: ScriptedGame) -> None:
    """Turkey misses a second move with nobody standing by: civil disorder. France votes for
    a draw, a secret nobody else (the GM included) learns."""
    script.orders_all(FALL_1903)
    france = script.players["France"]
    ident = script.send(france.box.account, "SET DRAW", to=france.reply_address, subject="draw")
    vote = script.reply(france.box, ident, "France's draw vote")
    assert vote.subject == f"{GAME}: France votes for a draw in F1903M"
    script.keep_private("France votes", "France")
    script.keep_private("votes for a draw", "France")
    results = script.process("F1903M", missed=True)
    for name, mail in results.items():
        assert "Austria: Fleet Trieste -> Venice." in mail.body, name
        assert "(* CD *)" in mail.body, name
    # The GM's PROCESS MISSED settles missed turns as the scheduler does: the GM alone is told.
    told = script.take(
        {script.gm: lambda m: m.subject.startswith(f"{GAME}: Turkey in F1903M: ")},
        "the civil disorder told to the GM",
    )[script.gm]
    assert "civil disorder" in told.body
    script.orders_all({"Austria": "Build F TRI", "Italy": "Remove A PIE"})
    results = script.process("W1903A", by_token=True)
    for name, mail in results.items():
        assert "Austria: Builds a fleet in Trieste." in mail.body, name
        assert "Italy:   Removes the army in Piedmont." in mail.body, name
    assert script.phase() == "S1904M active"


def _set_names(script: ScriptedGame) -> None:
    """France's player gives a real name (the postal rules ask for them), by the seat's reply
    address; the GM names itself after SIGNON M. A From: line alone names nobody."""
    france = script.players["France"]
    ident = script.send(
        france.box.account, "SET NAME Marianne Dupont", to=france.reply_address, subject="name"
    )
    named = script.reply(france.box, ident, "France's SET NAME")
    assert named.subject == f"{GAME}: your name is now Marianne Dupont"
    assert named.reply_to == (france.reply_address,)
    ident = script.gm_mail("SET NAME Gaston Master")
    script.reply(script.gm, ident, "the GM's SET NAME", f"{GAME}: your name is now Gaston Master")
    ident = script.send(
        script.forger.account, "SET NAME Impostor", from_header=script.players["Italy"].address
    )
    refused = script.reply(script.players["Italy"].box, ident, "the forged SET NAME refused")
    assert "a From: line alone can be forged" in refused.body


def _the_record(script: ScriptedGame) -> None:
    """The observer asks for the game's summary and a stretch of its history in one mail, and
    gets one answer: public, naming players as they named themselves, and no address."""
    ident = script.send(
        script.observer.account,
        f"SUMMARY {GAME}\nHISTORY {GAME} FROM S1903M TO W1903A",
        subject="the record",
    )
    record = script.reply(script.observer, ident, "the summary and history")
    assert record.subject == (
        f"{JUDGE_NAME}:{GAME} - Summary; {JUDGE_NAME}:{GAME} - History S1903M to W1903A"
    )
    body = record.body.replace("\r\n", "\n")
    summary, history = body.split(f"\n2. {JUDGE_NAME}:{GAME} - History", 1)
    for power in POWERS:
        assert power in summary, power
    assert "[civil disorder]" in summary
    assert "France     Marianne Dupont" in summary  # SET NAME
    assert "Game master: Gaston Master" in summary
    assert "Impostor" not in body
    # The centres at the end of 1903: Austria took Venice from Italy.
    assert "1903 7 4 6 5 3 5 4" in " ".join(summary.split())
    for box in script.every_box():
        assert box.address not in body, (record.subject, box.address)
    assert "Movement results for Spring of 1903." in history
    assert "Austria: Builds a fleet in Trieste." in history
    assert "Movement results for Spring of 1902." not in history


@pytest.mark.e2e
@pytest.mark.slow
def test_a_scripted_game_from_create_through_the_years(
    scripted: Callable[..., Any], new_account: Callable[[], Any]
) -> None:
    with scripted(GAME, "game") as (script, prefix):
        _start(script, new_account, prefix)
        _forged_observe_of_a_player(script)
        _press_settings(script)
        _spring_1901(script)
        _fall_and_winter_1901(script)
        _1902(script)
        _late_spring_1903(script)
        _fall_and_winter_1903(script)
        _set_names(script)
        _the_record(script)
        _unobserve(script)


class _Account:
    """Stands in for a mail account where the checks need only its address."""

    def __init__(self, address: str) -> None:
        self.address = address


def _mail(to: str, subject: str, body: str, reply_to: str = "", thread: str = "") -> Received:
    head = f"From: judge@example.test\r\nTo: {to}\r\nSubject: {subject}\r\n"
    if reply_to:
        head += f"Reply-To: {reply_to}\r\n"
    if thread:
        head += f"References: <{thread}>\r\n"
    return Received.parse(1, (head + "\r\n" + body).encode())


def test_the_mail_checks_catch_what_they_must() -> None:
    """The checks the scripted game relies on fail on a leak (no mail servers needed): another
    seat's token, a password, another power's orders echo, a foreign Reply-To, a stray To."""
    script = ScriptedGame(
        None,  # type: ignore[arg-type]  # no judge: only the checks run
        "judge@example.test",
        GAME,
        gm=_Account("gm@example.test"),
        gm_password="gm-secret",
        observer=_Account("watcher@example.test"),
        forger=_Account("forger@example.test"),
    )
    france = script.add_player("France", _Account("france@example.test"), "fr-secret")
    england = script.add_player("England", _Account("england@example.test"), "en-secret")
    own = {"France": "judge+aaaaaaaaaaaaaaaa@example.test"}
    own["England"] = "judge+bbbbbbbbbbbbbbbb@example.test"
    own["GM"] = "judge+cccccccccccccccc@example.test"
    for name, box in (("France", france.box), ("England", england.box), ("GM", script.gm)):
        script.check_on_arrival(box, _mail(box.address, "hello", "hi", own[name]))
        box.mails[1] = _mail(box.address, "hello", "hi", own[name])
    assert france.reply_address == own["France"] and script.gm_reply_address == own["GM"]
    script.check_privacy()  # as it stands, nothing leaks

    script.keep_private("our secret plan", "France", "GM")
    france.box.mails[3] = _mail(france.address, "x", "our secret plan")
    script.check_privacy()  # France may read it
    del france.box.mails[3]
    leaks = [
        (script.observer, _mail(script.observer.address, "x", "our secret plan")),
        (france.box, _mail(france.address, "x", f"write to {own['England']}")),
        (script.observer, _mail(script.observer.address, "x", f"reply to {own['GM']}")),
        (england.box, _mail(england.address, "x", "your password fr-secret")),
        (england.box, _mail(england.address, f"{GAME}: France orders for S1901M", "orders")),
        (script.gm, _mail(script.gm.address, "x", "read your orders for England in game")),
    ]
    for box, mail in leaks:
        box.mails[2] = mail
        with pytest.raises(AssertionError):
            script.check_privacy()
        del box.mails[2]
    with pytest.raises(AssertionError):  # someone else's reply address as Reply-To
        script.check_on_arrival(france.box, _mail(france.address, "x", "y", own["England"]))
    with pytest.raises(AssertionError):  # the observer never gets a Reply-To
        script.check_on_arrival(
            script.observer, _mail(script.observer.address, "x", "y", own["GM"])
        )
    with pytest.raises(AssertionError):  # a mail to someone else in this reader's box
        script.check_on_arrival(france.box, _mail(england.address, "x", "y"))

    # Threading: one root for every mail about the game; a mail outside it is caught.
    for box in (france.box, england.box, script.gm):
        box.mails = {1: _mail(box.address, "game mail", "hi", thread="game.root@example.test")}
    script.check_threading()
    england.box.mails[2] = _mail(england.address, "stray", "hi", thread="other@example.test")
    with pytest.raises(AssertionError):
        script.check_threading()

    # One answer per mail sent: none, or two, is caught.
    script.sent = ["asked@example.test"]
    for box in (france.box, england.box, script.gm):
        box.mails = {}
    with pytest.raises(AssertionError):
        script.check_one_answer_each()
    answer = _mail(france.address, "answer", "hi")
    france.box.mails[1] = replace(answer, in_reply_to="asked@example.test")
    script.check_one_answer_each()
    england.box.mails[1] = france.box.mails[1]
    with pytest.raises(AssertionError):
        script.check_one_answer_each()
