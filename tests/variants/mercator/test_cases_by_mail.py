"""Every example of the Mercator rules (tests/cases/variants/mercator.json) played as a game by
mail: the case's position is the game's, each power mails its orders to its seat's reply
address, the GM processes the phase, and the results the judge keeps and mails are the case's.
The same cases run through `judge adjudicate` in tests/test_adjudication_cases.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from test_by_mail import start_mercator
from test_games_by_mail import GM, body_of, player, send, stored_orders

from judge.map_files import load_map
from judge.store import session_scope
from judge.store.game_queries import find_game, history
from judge.variants.mercator.language import format_scaled_short, read_line

MAP = load_map("standard")

CASES = json.loads(
    (Path(__file__).resolve().parents[2] / "cases" / "variants" / "mercator.json").read_text()
)


def _unit(compact: str) -> dict[str, str]:
    power, kind, loc, *army = compact.split()
    return {"power": power, "type": kind, "loc": loc, **({"army_power": army[0]} if army else {})}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_example_by_mail(engine: Engine, case: dict[str, Any]) -> None:
    seats = start_mercator(engine)
    with session_scope(engine) as session:
        game = find_game(session, "merc")
        assert game is not None
        game.phase = case["phase"]
        game.position = {
            "variant": "mercator",
            "map": case["map"],
            "phase": case["phase"],
            "units": [_unit(u) for u in case["units"]],
            "centers": case.get("centers", {}),
            "dislodged": [],
            "contested": [],
            "owners": case.get("owners", {}),
            "state": {"months": 1},
            "orders": {},
        }
    for number, step in enumerate(case["steps"], start=1):
        # What each order line should come to, by the text the judge keeps for it; lines the
        # judge refuses on arrival (an ERROR in the echo) are never stored, so never results.
        want: dict[str, list[tuple[str, str]]] = {}
        with session_scope(engine) as session:
            game = find_game(session, "merc")
            assert game is not None
            phase = game.phase
        for power, lines in step["orders"].items():
            title = power.title()
            rows = send(engine, "\n".join(lines), sender=player(title), to=seats[title])
            echo = body_of(next(r for r in rows if r.kind == "orders_read"))
            results = iter(step["expect"]["results"].get(power, []))
            section = 4 if phase.endswith("R") else None
            for line_no, line in enumerate(lines, start=1):
                reading = read_line(MAP, line, section)
                section = reading.section
                if reading.heading_only:
                    continue
                if reading.error is not None:
                    assert next(results) == "illegal", (case["id"], line)
                    assert "ERROR" in echo, (case["id"], line)
                    continue
                refused = f"ERROR: line {line_no}:" in echo
                for order in reading.orders:
                    text = format_scaled_short(order, MAP)
                    if refused and text not in stored_orders(engine, power, "merc").values():
                        # Refused on arrival by the variant's own check: the adjudication
                        # finds it illegal or void too.
                        assert next(results) in ("illegal", "void"), (case["id"], line, echo)
                        continue
                    want.setdefault(power, []).append(
                        (format_scaled_short(order, MAP), next(results))
                    )
        mails = send(engine, f"SIGNON M merc gmsecret\nPROCESS {phase}\n", sender=GM)
        assert any(r.kind == "results" for r in mails), [body_of(r) for r in mails]
        with session_scope(engine) as session:
            game = find_game(session, "merc")
            assert game is not None
            kept = history(session, game)[-1].results
            units = sorted(
                f"{u['power']} {u['type']} {u['loc']}"
                + (f" {u['army_power']}" if u.get("army_power") else "")
                for u in game.position["units"]
            )
        got = {
            p: sorted((r["order"], r["result"]) for r in rs)
            for p, rs in kept["results"].items()
            if rs
        }
        assert got == {p: sorted(w) for p, w in want.items()}, (case["id"], number)
        if "units_after" in step["expect"]:
            assert units == sorted(step["expect"]["units_after"]), (case["id"], number)
