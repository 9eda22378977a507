"""A 1885 game by mail through the processor, for the tests beside this file: CREATE, the nine
sign-ons, and a position of the test's own put in the store."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, reply_address, send

from judge.store import session_scope
from judge.store.game_queries import find_game

POWERS = (
    "Austria",
    "England",
    "France",
    "Germany",
    "Italy",
    "Russia",
    "Spain",
    "Sweden",
    "Turkey",
)
GAME = "g1885"


def start_1885(engine: Engine) -> dict[str, str]:
    """CREATE a 1885 game and sign the nine powers on; each power's reply address."""
    created = send(engine, f"CREATE {GAME} gmsecret 1885", sender=GM)
    assert [r.kind for r in created] == ["game_created"]
    assert "1885" in body_of(created[0])
    addresses: dict[str, str] = {}
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} {GAME} pw-{power}", sender=player(power))
        own = next(r for r in rows if "signed_on" in r.kind.split("+"))
        addresses[power] = reply_address(own)
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase == "JAN1885M"
        assert game.position["variant"] == "1885"
    return addresses


def unit(compact: str) -> dict[str, str]:
    power, kind, loc = compact.split()
    return {"power": power, "type": kind, "loc": loc}


def set_position(engine: Engine, phase: str, units: list[str], **more: Any) -> None:
    """Put the game at `phase` with `units` (and centres, owners, state, map as given)."""
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        game.phase = phase
        game.position = {
            "variant": "1885",
            "phase": phase,
            "units": [unit(u) for u in units],
            "centers": more.get("centers", {}),
            "dislodged": more.get("dislodged", []),
            "contested": [],
            "owners": more.get("owners", {}),
            "state": more.get("state", {"months": 1}),
            "orders": {},
            **({"map": more["map"]} if "map" in more else {}),
        }


def echo(rows: list[Any]) -> str:
    return body_of(next(r for r in rows if "orders_read" in r.kind.split("+")))


def process(engine: Engine, phase: str) -> dict[str, str]:
    """The GM processes `phase`; the results mail of each reader, by address."""
    rows = send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS {phase}\n", sender=GM)
    mails = {r.to_addr: body_of(r) for r in rows if r.kind == "results"}
    assert mails, [body_of(r) for r in rows]
    return mails
