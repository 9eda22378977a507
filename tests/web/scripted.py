"""A scripted set of games, one per variant, played by mail through the processor and the desk
as tests/desk and tests/variants/*/ play them: created, every seat joined, an observer
confirmed, press of every kind (a white broadcast, grey press, partial press that only its
powers may read), orders, and phases processed by the GM. One more game is kept off the web
pages by its GM (SET WEB OFF). The pages of these games are what tests/web/ checks.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from email import message_from_bytes
from pathlib import Path
from unittest import mock

from sqlalchemy import Engine

from judge.desk import seating
from judge.store import session_scope
from judge.store.game_queries import find_game

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desk"))
import test_games_by_mail as mail  # noqa: E402

GM_PASSWORD = "gm-secret-pw"
# Partial press carries a line nobody but its powers may read; a page showing it leaks.
PRIVATE = "PRIVATE-LINE-{game}"


@dataclass
class Scripted:
    """What the script played: the games shown and hidden, every password it used, and the
    private lines of partial press (the privacy test looks for each on every page)."""

    shown: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    passwords: set[str] = field(default_factory=set)
    private_lines: set[str] = field(default_factory=set)
    grey_lines: set[str] = field(default_factory=set)
    white_lines: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)  # players' SET NAME names, shown on the pages


@dataclass(frozen=True)
class Plan:
    name: str
    create: str  # CREATE's words after the game's name and password
    processed: int  # phases the GM processes
    orders: dict[str, dict[str, str]] = field(default_factory=dict)  # phase -> power -> lines
    press: bool = False


PLANS = (
    Plan(
        "alpha",
        "standard",
        4,
        {
            "S1901M": {
                "FRANCE": "A PAR-BUR\nA MAR-SPA\nF BRE-MAO",
                "GERMANY": "A MUN-RUH\nF KIE-DEN\nA BER-KIE",
                "ENGLAND": "F LON-NTH\nF EDI-NWG\nA LVP-YOR",
                "ITALY": "A VEN-TYR\nA ROM-VEN\nF NAP-ION",
            },
            "F1901M": {
                "FRANCE": "A SPA-POR\nF MAO-SPA/SC\nA BUR-BEL",
                "GERMANY": "F DEN H\nA RUH-HOL",
                "ENGLAND": "F NTH-NWY\nA YOR-EDI",
            },
        },
        press=True,
    ),
    Plan("young", "youngstown", 2),
    Plan("merc", "mercator", 2),
    Plan("rivals", "1885", 2),
    Plan("money", "mercenary", 2, press=True),
    Plan("maze", "algernon 3", 3, press=True),
)
HIDDEN = Plan("hush", "standard", 1, press=True)


def _join_all(engine: Engine, plan: Plan, found: Scripted) -> dict[str, str]:
    """JOIN until the game starts; each power's reply address."""
    addresses: dict[str, str] = {}
    for i in range(30):
        password = f"pw-{plan.name}-{i}"
        found.passwords.add(password)
        rows = mail.send(
            engine, f"JOIN {plan.name} {password}", sender=f"p{i}.{plan.name}@example.org"
        )
        started = any("game_started" in mail.kinds(r) for r in rows)
        if started:
            break
    with session_scope(engine) as session:
        game = find_game(session, plan.name)
        assert game is not None and game.phase is not None, f"{plan.name} did not start"
        for seat in game.seats:
            assert seat.reply_token is not None
            addresses[seat.power] = f"judge+{seat.reply_token}@example.org"
            assert seat.person is not None
    return addresses


def _holder(engine: Engine, name: str, power: str) -> str:
    with session_scope(engine) as session:
        game = find_game(session, name)
        assert game is not None
        seat = next(s for s in game.seats if s.power == power)
        assert seat.person is not None and seat.person.address_of_record is not None
        return seat.person.address_of_record


def _press(engine: Engine, plan: Plan, seats: dict[str, str], found: Scripted) -> None:
    """A white broadcast, grey press and partial press, each from a seat by its reply address."""
    powers = sorted(seats)
    first, second = powers[0], powers[1]
    white = f"White words from {plan.name}."
    grey = f"Grey words in {plan.name} that nobody signs."
    private = PRIVATE.format(game=plan.name)
    # A secret board's player may name only powers he has met: his partial press goes to the GM.
    to = "TO M" if plan.create.startswith("algernon") else f"TO {second}"
    sends = [
        (first, f"BROADCAST WHITE\n{white}\nENDPRESS"),
        (second, f"PRESS GREY\n{grey}\nENDPRESS"),
        (first, f"PRESS {to}\nOnly for you: {private}\nENDPRESS"),
    ]
    for power, text in sends:
        rows = mail.send(engine, text, sender=_holder(engine, plan.name, power), to=seats[power])
        assert rows and not any("desk_problems" in mail.kinds(r) for r in rows), [
            mail.body_of(r) for r in rows
        ]
    found.white_lines.add(white)
    found.grey_lines.add(grey)
    found.private_lines.add(private)


def gm_of(name: str) -> str:
    """Each game's GM writes from an address of his own (the daily cap counts per sender)."""
    return f"gm.{name}@example.org"


def _play(engine: Engine, plan: Plan, found: Scripted) -> None:
    gm = gm_of(plan.name)
    created = mail.send(engine, f"CREATE {plan.name} {GM_PASSWORD} {plan.create}", sender=gm)
    assert [r.kind for r in created] == ["game_created"], [mail.body_of(r) for r in created]
    mail.observe_by_reply(engine, f"watcher.{plan.name}@example.org", plan.name)
    seats = _join_all(engine, plan, found)
    named = f"Player {plan.name.title()} One"
    first = sorted(seats)[0]
    mail.send(
        engine, f"SET NAME {named}", sender=_holder(engine, plan.name, first), to=seats[first]
    )
    found.names.add(named)
    if plan.press:
        _press(engine, plan, seats, found)
    for _ in range(plan.processed):
        with session_scope(engine) as session:
            game = find_game(session, plan.name)
            assert game is not None and game.phase is not None
            phase = game.phase
        for power, lines in plan.orders.get(phase, {}).items():
            rows = mail.send(
                engine, lines, sender=_holder(engine, plan.name, power), to=seats[power]
            )
            assert any("orders_read" in mail.kinds(r) for r in rows)
        rows = mail.send(engine, f"SIGNON M {plan.name} {GM_PASSWORD}\nPROCESS", sender=gm)
        assert any(r.kind == "results" for r in rows), [mail.body_of(r) for r in rows]


def play_all(engine: Engine) -> Scripted:
    """Play every plan (the maze drawn from a fixed seed) and hide one game by SET WEB OFF."""
    found = Scripted(passwords={GM_PASSWORD})
    with mock.patch.object(seating, "new_seed", return_value=3):
        for plan in PLANS:
            _play(engine, plan, found)
            found.shown.append(plan.name)
        _play(engine, HIDDEN, found)
    rows = mail.send(
        engine, f"SIGNON M {HIDDEN.name} {GM_PASSWORD}\nSET WEB OFF", sender=gm_of(HIDDEN.name)
    )
    answer = message_from_bytes(rows[0].raw)
    assert "no web pages" in mail.body_of(rows[0]), answer
    found.hidden.append(HIDDEN.name)
    return found
