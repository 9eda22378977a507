"""Every Mercenary case (tests/cases/variants/mercenary.json) played as a game by mail: the
case's position and money are the game's, each power mails its lines to its seat's reply
address, the GM processes the phase, and the results, the ledger and the holdings the judge
keeps are the case's. The same cases run through `judge adjudicate` in
tests/test_adjudication_cases.py.

A line the desk refuses on arrival (an ERROR in the echo) is never stored, so its result is
the case's `illegal` without an adjudication; leaving an Alliance of Currency is done at once,
so it has no result either, only its effect.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, send
from test_mercenary_by_mail import GAME, start_mercenary

from judge.language.format import format_order
from judge.map_files import load_map
from judge.store import session_scope
from judge.store.game_queries import find_game, history, ledger_of
from judge.variants.mercenary.language import is_money_line, parse_line, short_text
from judge.variants.mercenary.orders import LeaveAlliance

MAP = load_map("standard")
CASES = json.loads(
    (Path(__file__).resolve().parents[2] / "cases" / "variants" / "mercenary.json").read_text()
)


def _unit(compact: str) -> dict[str, str]:
    power, kind, loc = compact.split()
    return {"power": power, "type": kind, "loc": loc}


def _stored(line: str, power: str) -> str:
    value = parse_line(line, MAP)
    if is_money_line(line):
        return short_text(value, power, MAP)
    return format_order(value, MAP, "short")


@pytest.mark.parametrize(
    "case", [c for c in CASES if "not_by_mail" not in c], ids=lambda c: c["id"]
)
def test_the_case_by_mail(engine: Engine, case: dict[str, Any]) -> None:
    seats = start_mercenary(engine)
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None
        game.phase = case["phase"]
        game.position = {
            "variant": "mercenary",
            "phase": case["phase"],
            "units": [_unit(u) for u in case["units"]],
            "centers": case["centers"],
            "dislodged": [
                {
                    **_unit(d["unit"]),
                    "attacker_from": d["attacker_from"],
                    "attacker_convoyed": False,
                }
                for d in case.get("dislodged", [])
            ],
            "contested": [],
            "money": case["money"],
            "orders": {},
        }
    for number, step in enumerate(case["steps"], start=1):
        where = f"{case['id']} step {number}"
        with session_scope(engine) as session:
            game = find_game(session, GAME)
            assert game is not None
            phase = game.phase
            done_before = len(history(session, game))
        want: dict[str, list[tuple[str, str]]] = {}
        for power, lines in step["orders"].items():
            title = power.title()
            rows = send(engine, "\n".join(lines), sender=player(title), to=seats[title])
            echo = body_of(next(r for r in rows if "orders_read" in r.kind.split("+"))).replace(
                "\r\n", "\n"
            )
            results = step["expect"]["results"][power]
            for line, result in zip(lines, results, strict=True):
                if f"  {line}\n    ERROR" in echo:
                    assert result == "illegal", (where, line, echo)
                    continue
                if is_money_line(line) and isinstance(parse_line(line, MAP), LeaveAlliance):
                    assert "(done at once)" in echo, (where, echo)
                    continue
                want.setdefault(power, []).append((_stored(line, power), result))
        mails = send(engine, f"SIGNON M {GAME} gmsecret\nPROCESS {phase}\n", sender=GM)
        assert any(r.kind == "results" for r in mails), (where, [body_of(r) for r in mails])
        with session_scope(engine) as session:
            game = find_game(session, GAME)
            assert game is not None
            records = history(session, game)
            assert len(records) == done_before + 1
            kept = records[-1].results
            paid = [
                [e.payer, e.payee, e.currency, e.amount, e.why]
                for e in ledger_of(session, game)
                if e.phase_record_id == records[-1].id
            ]
            money = game.position["money"]
            units = sorted(f"{u['power']} {u['type']} {u['loc']}" for u in game.position["units"])
        got = {
            p: sorted((r["order"], r["result"]) for r in rs)
            for p, rs in kept["results"].items()
            if rs
        }
        assert got == {p: sorted(w) for p, w in want.items()}, where
        expect = step["expect"]
        if "units_after" in expect:
            assert units == sorted(expect["units_after"]), where
        if "payments" in expect:
            assert len(paid) == len(expect["payments"]), (where, paid)
            for got_one, want_one in zip(paid, expect["payments"], strict=True):
                assert got_one[:4] == want_one[:4] and got_one[4].startswith(want_one[4]), (
                    where,
                    paid,
                )
        for power, held in expect.get("holdings_after", {}).items():
            assert {c: n for c, n in money["holdings"].get(power, {}).items() if n} == held, where
        for currency, value in expect.get("values_after", {}).items():
            assert money["values"][currency] == value, where
        if "alliances_after" in expect:
            assert money["alliances"] == expect["alliances_after"], where
