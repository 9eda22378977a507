"""Mercator's results in the players' words: an army ferried by a fleet is named as such, never
by the space the resolver gives it (``~SKA``), and a win claimed that the season does not grant
is told."""

from __future__ import annotations

from sqlalchemy import Engine
from test_by_mail import start_mercator
from test_games_by_mail import GM, body_of, player, send, set_position

from judge.adjudicate_json import read_case
from judge.variants import variant


def test_a_unit_dislodged_by_a_ferried_army_names_it_in_words() -> None:
    mercator = variant("mercator")
    case = {
        "variant": "mercator",
        "map": "standard",
        "phase": "JAN1901M",
        "units": [
            {"power": "ENGLAND", "type": "A", "loc": "lon"},
            {"power": "ENGLAND", "type": "F", "loc": "eng"},
            {"power": "ENGLAND", "type": "A", "loc": "pic"},
            {"power": "FRANCE", "type": "F", "loc": "bre"},
        ],
        "state": {"months": 1},
    }
    game_map, position, _, rules = read_case(case)
    orders = mercator.language.read_orders(
        game_map,
        {
            "ENGLAND": [
                "TS1 A(Lon) B F(ENC)",
                "TS2 F(ENC) F/F A(Lon) - Bre",
                "A(Pic) S A(Lon) - Bre",
            ],
            "FRANCE": ["TS2 F(Bre) H"],
        },
    ).orders
    result = mercator.rules.adjudicate(game_map, position, orders, rules)
    french = result.results["FRANCE"][0]
    assert french.reason == "dislodged by the army ferried from ENG"


def test_a_claimed_win_not_granted_is_told(engine: Engine) -> None:
    seats = start_mercator(engine)
    set_position(
        engine,
        "MAR1903M",
        game_name="merc",
        units=[
            {"power": "FRANCE", "type": "A", "loc": "par"},
            {"power": "GERMANY", "type": "A", "loc": "ber"},
        ],
        centers={"FRANCE": ["par", "bre", "mar"], "GERMANY": ["ber", "kie", "mun"]},
    )
    send(engine, "SET CLAIM Germany\n", sender=player("France"), to=seats["France"])
    results = send(engine, "SIGNON M merc gmsecret\nPROCESS\n", sender=GM)
    text = next(body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Italy"))
    assert (
        "The win claimed by France and Germany is not granted this phase; a claim holds for one "
        "phase, so claim it again (SET CLAIM) for the next."
    ) in text
    # The next phase's results say nothing of it: the claim was for its phase alone.
    results = send(engine, "SIGNON M merc gmsecret\nPROCESS\n", sender=GM)
    text = next(body_of(r) for r in results if r.kind == "results" and r.to_addr == player("Italy"))
    assert "claimed" not in text
