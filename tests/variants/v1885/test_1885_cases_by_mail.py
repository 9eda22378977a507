"""Every example and rule of 1885 as a case (tests/cases/variants/1885.json) played as a game by
mail: the case's position is the game's, each power mails its orders to its seat's reply
address, the GM processes the phase, and the results the judge keeps and mails are the case's.
The same cases run through `judge adjudicate` in tests/test_adjudication_cases.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from by_mail import GAME, echo, process, set_position, start_1885
from sqlalchemy import Engine
from test_games_by_mail import player, send, stored_orders

from judge.adjudicate_json import read_case
from judge.store import session_scope
from judge.store.game_queries import find_game, history
from judge.variants.v1885.language import read_desk_line

CASES = json.loads(
    (Path(__file__).resolve().parents[2] / "cases" / "variants" / "1885.json").read_text()
)


def _board_and_position(engine: Engine) -> tuple[Any, Any, str]:
    with session_scope(engine) as session:
        game = find_game(session, GAME)
        assert game is not None and game.phase is not None
        game_map, position, _, _ = read_case(game.position)
        return game_map, position, game.phase


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_the_case_by_mail(engine: Engine, case: dict[str, Any]) -> None:
    seats = start_1885(engine)
    set_position(
        engine,
        case["phase"],
        case["units"],
        centers=case.get("centers", {}),
        owners=case.get("owners", {}),
        state=case.get("state", {"months": 1}),
        map=case.get("map", "1885"),
    )
    for number, step in enumerate(case["steps"], start=1):
        game_map, position, phase = _board_and_position(engine)
        # What each order should come to, by the text the judge keeps for it; lines the judge
        # refuses on arrival (an ERROR in the echo) are never stored, so never results.
        want: dict[str, list[tuple[str, str]]] = {}
        for power, lines in step["orders"].items():
            title = power.title()
            rows = send(engine, "\n".join(lines), sender=player(title), to=seats[title])
            told = echo(rows)
            results = iter(step["expect"]["results"].get(power, []))
            context = {"position": position, "power": power, "phase": phase}
            for line_no, line in enumerate(lines, start=1):
                read = read_desk_line(game_map, line, line_no, dict(context))
                if read.error is not None:
                    for _order in line.split(";"):
                        assert next(results) == "illegal", (case["id"], line)
                    assert f"ERROR: {read.error}" in told, (case["id"], line, told)
                    continue
                refused = f"ERROR: line {line_no}:" in told
                for _key, stored, _full in read.orders:
                    if refused and stored not in stored_orders(engine, power, GAME).values():
                        # Refused on arrival by the variant's own check: the adjudication
                        # finds it illegal or void too.
                        assert next(results) in ("illegal", "void"), (case["id"], line, told)
                        continue
                    want.setdefault(power, []).append((stored, next(results)))
        process(engine, phase)
        with session_scope(engine) as session:
            game = find_game(session, GAME)
            assert game is not None
            kept = history(session, game)[-1].results
            units = sorted(f"{u['power']} {u['type']} {u['loc']}" for u in game.position["units"])
        got = {
            p: sorted((r["order"], r["result"]) for r in rs)
            for p, rs in kept["results"].items()
            if rs
        }
        assert got == {p: sorted(w) for p, w in want.items()}, (case["id"], number)
        expect = step["expect"]
        if "units_after" in expect:
            assert units == sorted(expect["units_after"]), (case["id"], number)
        if "next_phase" in expect:
            assert kept["next_phase"] == expect["next_phase"], (case["id"], number)
