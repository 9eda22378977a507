"""The examples of the Mercator rules (sections 2 and 3), on the standard board, as order values.

Each test is one example of ../shared/seeds/000_1519a0328d1ae863.txt; the text that reads the
orders as players write them is tested in test_language.py and, with the same examples, in
the adjudication cases.
"""

from __future__ import annotations

from judge.engine.orders import Hold, Move, Support
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.rules import rules_from_names
from judge.map_files import load_map
from judge.variants.mercator.month import MonthOutcome, resolve_month
from judge.variants.mercator.orders import Board, Disembark, Embark, Land, Scaled, SupportLanding

MAP = load_map("standard")
KEY = rules_from_names(["key-rule"])


def month(units: list[Unit], orders: dict[str, list[Scaled]]) -> MonthOutcome:
    return resolve_month(MAP, Position("JAN1901M", tuple(units)), orders, KEY)


def board_of(outcome: MonthOutcome) -> set[tuple[str, str, str, str | None]]:
    return {(u.power, u.kind, u.loc, u.army_power) for u in outcome.units_after}


def results(outcome: MonthOutcome, power: str) -> list[str]:
    keys = sorted(k for k in outcome.results if k[0] == power)
    return [outcome.results[k].result for k in keys]


def test_piggy_back_london_to_portugal_takes_three_time_scales() -> None:
    """2.1: the London army boards the Channel fleet in TS1, the A/F moves to MAO in TS2, and
    the army disembarks in Portugal in TS3."""
    out = month(
        [Unit("ENGLAND", "A", "lon"), Unit("ENGLAND", "F", "eng")],
        {
            "ENGLAND": [
                Scaled(1, Board("lon", "eng")),
                Scaled(2, Move("AF", "eng", "mao")),
                Scaled(3, Disembark("mao", "por")),
            ]
        },
    )
    assert board_of(out) == {("ENGLAND", "A", "por", None), ("ENGLAND", "F", "mao", None)}
    assert results(out, "ENGLAND") == ["success", "success", "success"]
    assert [out.results[("ENGLAND", i)].time_scale for i in range(3)] == [1, 2, 3]


def test_an_army_may_stay_aboard() -> None:
    out = month(
        [Unit("ENGLAND", "A", "lon"), Unit("ENGLAND", "F", "eng")],
        {"ENGLAND": [Scaled(1, Board("lon", "eng")), Scaled(2, Move("AF", "eng", "mao"))]},
    )
    assert board_of(out) == {("ENGLAND", "AF", "mao", None)}


def test_a_supported_landing_beats_a_defender_and_two_supported_landings_stand_off() -> None:
    """2.3: the carrying fleet's support adds its strength; two supported landings stand off
    and the unit that began the season there survives."""
    out = month(
        [Unit("FRANCE", "AF", "eng"), Unit("ENGLAND", "A", "lon")],
        {
            "FRANCE": [
                Scaled(1, Land("eng", "lon")),
                Scaled(1, SupportLanding("eng", "eng", "lon")),
            ]
        },
    )
    assert ("FRANCE", "A", "lon", None) in board_of(out)
    assert [d.unit.loc for d in out.dislodged] == ["lon"]
    assert out.dislodged[0].time_scale == 1
    out = month(
        [Unit("FRANCE", "AF", "eng"), Unit("GERMANY", "AF", "nth"), Unit("ENGLAND", "A", "lon")],
        {
            "FRANCE": [
                Scaled(1, Land("eng", "lon")),
                Scaled(1, SupportLanding("eng", "eng", "lon")),
            ],
            "GERMANY": [
                Scaled(1, Land("nth", "lon")),
                Scaled(1, SupportLanding("nth", "nth", "lon")),
            ],
        },
    )
    assert ("ENGLAND", "A", "lon", None) in board_of(out)
    assert ("FRANCE", "AF", "eng", None) in board_of(out)
    assert not out.dislodged


def test_a_fleet_that_supported_a_landing_waits_until_time_scale_3() -> None:
    out = month(
        [Unit("FRANCE", "AF", "eng")],
        {
            "FRANCE": [
                Scaled(1, Land("eng", "lon")),
                Scaled(1, SupportLanding("eng", "eng", "lon")),
                Scaled(2, Move("F", "eng", "nth")),
            ]
        },
    )
    assert ("FRANCE", "F", "eng", None) in board_of(out)
    assert out.results[("FRANCE", 2)].result == "void"


def test_a_fleet_may_land_one_army_and_take_on_another() -> None:
    out = month(
        [Unit("FRANCE", "AF", "eng"), Unit("FRANCE", "A", "bre")],
        {"FRANCE": [Scaled(1, Land("eng", "lon")), Scaled(1, Board("bre", "eng"))]},
    )
    assert board_of(out) == {("FRANCE", "A", "lon", None), ("FRANCE", "AF", "eng", None)}


def test_landing_and_boarding_swap_places() -> None:
    out = month(
        [Unit("FRANCE", "AF", "eng"), Unit("FRANCE", "A", "lon")],
        {"FRANCE": [Scaled(1, Land("eng", "lon")), Scaled(1, Board("lon", "eng"))]},
    )
    assert board_of(out) == {("FRANCE", "A", "lon", None), ("FRANCE", "AF", "eng", None)}


def test_a_wrong_guess_of_the_unit_kind_is_invalid() -> None:
    """2.4: TS1 A(ENC) L Lon, TS2 F(IRI) S F(ENC) - MAO: if the landing fails the unit in ENC
    is an army/fleet, not a fleet, and the support is invalid."""
    units = [
        Unit("FRANCE", "AF", "eng"),
        Unit("FRANCE", "F", "iri"),
        Unit("ENGLAND", "A", "lon"),
        Unit("ENGLAND", "F", "mao"),
    ]
    orders = {
        "FRANCE": [
            Scaled(1, Land("eng", "lon")),
            Scaled(2, Support("F", "iri", "F", "eng", "mao")),
            Scaled(2, Move("F", "eng", "mao")),
        ]
    }
    out = month(units, orders)
    assert out.results[("FRANCE", 0)].result == "failure"
    assert out.results[("FRANCE", 1)].result == "illegal"
    assert out.results[("FRANCE", 2)].result == "illegal"
    assert "army/fleet" in out.results[("FRANCE", 1)].reason


def test_embarkation_example_a_both_fleet_captains_pick_up_in_the_channel() -> None:
    """2.5 (a): the embarkation succeeds whether or not the two fleet moves succeed."""
    orders = {
        "FRANCE": [
            Scaled(2, Move("F", "eng", "nth")),
            Scaled(2, Move("F", "mao", "eng")),
            Scaled(2, Move("A", "gas", "bre")),
            Scaled(3, Embark("bre", "eng")),
        ]
    }
    base = [Unit("FRANCE", "F", "eng"), Unit("FRANCE", "F", "mao"), Unit("FRANCE", "A", "gas")]
    out = month(base, orders)
    assert ("FRANCE", "AF", "eng", None) in board_of(out)
    assert out.results[("FRANCE", 3)].result == "success"
    # The move to the North Sea bounces: the fleet still in the Channel takes the army.
    out = month(base + [Unit("ENGLAND", "F", "nth")], orders)
    assert ("FRANCE", "AF", "eng", None) in board_of(out)
    assert ("FRANCE", "F", "mao", None) in board_of(out)


def test_embarkation_example_b_a_double_option_is_illegal() -> None:
    """2.5 (b): France hedges on A(Gas) - Bre: both embarkations are illegal."""
    out = month(
        [
            Unit("FRANCE", "F", "eng"),
            Unit("FRANCE", "F", "mao"),
            Unit("FRANCE", "A", "gas"),
            Unit("GERMANY", "A", "pic"),
        ],
        {
            "FRANCE": [
                Scaled(2, Move("A", "gas", "bre")),
                Scaled(2, Move("F", "eng", "nth")),
                Scaled(2, Move("F", "mao", "eng")),
                Scaled(3, Embark("bre", "eng")),
                Scaled(3, Embark("gas", "mao")),
                Scaled(3, Move("AF", "eng", "nth")),
                Scaled(3, Move("AF", "mao", "iri")),
            ]
        },
    )
    assert out.results[("FRANCE", 3)].result == "illegal"
    assert out.results[("FRANCE", 4)].result == "illegal"
    assert "double option" in out.results[("FRANCE", 3)].reason
    assert ("FRANCE", "A", "bre", None) in board_of(out)


def test_key_rule_in_time_scale_2() -> None:
    """2.7: France A(Bur) - Bel; Germany A(Ruh) - Bel, A(Mun) - Bur: Belgium stays empty, and
    the move to Burgundy succeeds; with Italy's A(Mar) - Bur too, the attacks on Burgundy
    cancel out and the French army is not dislodged."""
    units = [Unit("FRANCE", "A", "bur"), Unit("GERMANY", "A", "ruh"), Unit("GERMANY", "A", "mun")]
    orders = {
        "FRANCE": [Scaled(2, Move("A", "bur", "bel"))],
        "GERMANY": [Scaled(2, Move("A", "ruh", "bel")), Scaled(2, Move("A", "mun", "bur"))],
    }
    out = month(units, orders)
    assert ("GERMANY", "A", "bur", None) in board_of(out)
    assert [(d.unit.loc, d.time_scale) for d in out.dislodged] == [("bur", 2)]
    out = month(
        units + [Unit("ITALY", "A", "mar")],
        {**orders, "ITALY": [Scaled(2, Move("A", "mar", "bur"))]},
    )
    assert ("FRANCE", "A", "bur", None) in board_of(out)
    assert not out.dislodged


def test_key_rule_in_time_scale_1() -> None:
    """2.7: the two landings in London stand off, so the French army in Brest cannot board
    the Channel fleet, and falls to the Italian landing from MAO."""
    out = month(
        [
            Unit("GERMANY", "AF", "nth"),
            Unit("FRANCE", "AF", "eng"),
            Unit("FRANCE", "A", "bre"),
            Unit("ITALY", "AF", "mao"),
        ],
        {
            "GERMANY": [Scaled(1, Land("nth", "lon"))],
            "FRANCE": [Scaled(1, Land("eng", "lon")), Scaled(1, Board("bre", "eng"))],
            "ITALY": [Scaled(1, Land("mao", "bre"))],
        },
    )
    assert ("ITALY", "A", "bre", None) in board_of(out)
    assert [(d.unit.loc, d.time_scale, d.attacker_from) for d in out.dislodged] == [
        ("bre", 1, "mao")
    ]
    assert "lon" not in {u.province for u in out.units_after}


def test_without_the_key_rule_the_boarding_army_holds_brest() -> None:
    out = resolve_month(
        MAP,
        Position(
            "JAN1901M",
            (
                Unit("GERMANY", "AF", "nth"),
                Unit("FRANCE", "AF", "eng"),
                Unit("FRANCE", "A", "bre"),
                Unit("ITALY", "AF", "mao"),
            ),
        ),
        {
            "GERMANY": [Scaled(1, Land("nth", "lon"))],
            "FRANCE": [Scaled(1, Land("eng", "lon")), Scaled(1, Board("bre", "eng"))],
            "ITALY": [Scaled(1, Land("mao", "bre"))],
        },
        rules_from_names([]),
    )
    assert ("FRANCE", "A", "bre", None) in board_of(out)


def test_mixed_boarding_needs_both_owners_and_the_fleets_nationality_counts() -> None:
    """2.6: a boarding ordered by one owner only fails; ordered by both it makes a mixed
    army/fleet of the fleet's power carrying the other's army."""
    units = [Unit("GERMANY", "A", "bel"), Unit("FRANCE", "F", "eng")]
    out = month(units, {"GERMANY": [Scaled(1, Board("bel", "eng", fleet_power="FRANCE"))]})
    assert out.results[("GERMANY", 0)].result == "failure"
    out = month(
        units,
        {
            "GERMANY": [Scaled(1, Board("bel", "eng", fleet_power="FRANCE"))],
            "FRANCE": [
                Scaled(1, Board("bel", "eng", army_power="GERMANY")),
                Scaled(2, Move("AF", "eng", "nth")),
            ],
        },
    )
    assert board_of(out) == {("FRANCE", "AF", "nth", "GERMANY")}


def test_mixed_example_a_the_army_lands_in_denmark_else_norway() -> None:
    """2.6 (a): the army's Denmark if untenanted, otherwise the fleet's Norway."""

    def play(extra: list[Unit]) -> MonthOutcome:
        return month(
            [Unit("GERMANY", "A", "bel"), Unit("FRANCE", "F", "eng"), *extra],
            {
                "FRANCE": [
                    Scaled(1, Board("bel", "eng", army_power="GERMANY")),
                    Scaled(2, Move("AF", "eng", "nth")),
                    Scaled(3, Disembark("nth", "nwy", army_power="GERMANY")),
                ],
                "GERMANY": [
                    Scaled(1, Board("bel", "eng", fleet_power="FRANCE")),
                    Scaled(2, Move("AF", "eng", "nth")),
                    Scaled(3, Disembark("nth", "den")),
                ],
                **({"RUSSIA": [Scaled(2, Hold("A", "den"))]} if extra else {}),
            },
        )

    assert ("GERMANY", "A", "den", None) in board_of(play([]))
    assert ("GERMANY", "A", "nwy", None) in board_of(play([Unit("RUSSIA", "A", "den")]))


def test_key_rule_retreats_barred_from_the_attackers_side() -> None:
    """4 (g) (h): a unit dislodged in TS2 may not retreat where the attack came from, nor
    where it was supported from, nor stay."""
    out = month(
        [Unit("FRANCE", "A", "bur"), Unit("GERMANY", "A", "ruh"), Unit("GERMANY", "A", "mun")],
        {
            "GERMANY": [
                Scaled(2, Move("A", "mun", "bur")),
                Scaled(2, Support("A", "ruh", "A", "mun", "bur")),
            ],
        },
    )
    (d,) = out.dislodged
    assert d.unit.loc == "bur" and d.time_scale == 2
    assert "mun" not in d.retreats and "ruh" not in d.retreats and "bur" not in d.retreats
    assert set(d.retreats) == {"bel", "gas", "mar", "par", "pic"}


def test_retreats_take_precedence_by_time_scale_and_an_army_fleet_may_split() -> None:
    """4 (a): the unit dislodged in the earlier time scale gets the space; 4 (c): the army of
    a dislodged army/fleet lands while its fleet goes to sea; 4 (e): a fleet part that does
    not get away takes its army with it."""
    from judge.engine.orders import Disband, Retreat
    from judge.variants.mercator.retreats import resolve_mercator_retreats

    position = Position(
        "JAN1901R",
        (Unit("ENGLAND", "F", "nth"),),
        dislodged=(
            Dislodged(Unit("FRANCE", "A", "bur"), "mun", False, ("gas", "par"), 2),
            Dislodged(Unit("ITALY", "A", "mar"), "pie", False, ("gas", "spa"), 1),
            Dislodged(Unit("FRANCE", "AF", "mao"), "eng", False, ("wes", "por", "spa"), 2),
            Dislodged(Unit("GERMANY", "AF", "hel"), "nth", False, ("hol", "kie"), 3),
        ),
    )
    out = resolve_mercator_retreats(
        MAP,
        position,
        {
            "FRANCE": [
                Scaled(4, Retreat("A", "bur", "gas")),
                Scaled(4, Retreat("A", "mao", "por")),
                Scaled(4, Retreat("F", "mao", "wes")),
            ],
            "ITALY": [Scaled(4, Retreat("A", "mar", "gas"))],
            "GERMANY": [Scaled(4, Disband("F", "hel"))],
        },
    )
    after = {(u.power, u.kind, u.loc) for u in out.units_after}
    assert ("ITALY", "A", "gas") in after and ("FRANCE", "A", "gas") not in after
    assert ("FRANCE", "A", "por") in after and ("FRANCE", "F", "wes") in after
    gone = {(u.power, u.kind, u.loc) for u in out.disbanded}
    assert gone == {("FRANCE", "A", "bur"), ("GERMANY", "F", "hel"), ("GERMANY", "A", "hel")}


def test_fast_ferry_lands_in_time_scale_2_and_takes_support() -> None:
    """3 (b): TS1 A(Lon) B F(ENC), TS2 F(ENC) F/F A(Lon) - Bre, with A(Par) S A(Lon) - Bre
    the ferried army dislodges the holder of Brest; unsupported it bounces and stays aboard."""
    from judge.variants.mercator.orders import FastFerry

    units = [
        Unit("FRANCE", "A", "lon"),
        Unit("FRANCE", "F", "eng"),
        Unit("FRANCE", "A", "par"),
        Unit("GERMANY", "A", "bre"),
    ]
    ferry = [Scaled(1, Board("lon", "eng")), Scaled(2, FastFerry("eng", "lon", "bre"))]
    out = month(units, {"FRANCE": [*ferry, Scaled(2, Support("A", "par", "A", "lon", "bre"))]})
    assert ("FRANCE", "A", "bre", None) in board_of(out)
    assert ("FRANCE", "F", "eng", None) in board_of(out)
    assert [(d.unit.loc, d.time_scale) for d in out.dislodged] == [("bre", 2)]
    assert out.results[("FRANCE", 1)].result == "success"
    assert out.results[("FRANCE", 1)].time_scale == 2
    out = month(units, {"FRANCE": ferry})
    assert ("FRANCE", "AF", "eng", None) in board_of(out)
    assert out.results[("FRANCE", 1)].result == "failure"
    assert ("GERMANY", "A", "bre", None) in board_of(out)


def test_extended_convoy_falls_back_aboard_the_fleet_before_a_dislodged_one() -> None:
    """3 (c): TS1 A(Den) B F(NTH), TS2 F(NTH), F(ENC) & F(MAO) C A(Den) - Por: the army lands
    in Portugal; if F(MAO) is dislodged the result is A/F(ENC)."""
    from judge.variants.mercator.orders import ChainConvoy

    units = [
        Unit("ENGLAND", "A", "den"),
        Unit("ENGLAND", "F", "nth"),
        Unit("ENGLAND", "F", "eng"),
        Unit("ENGLAND", "F", "mao"),
    ]
    orders = [
        Scaled(1, Board("den", "nth")),
        Scaled(2, ChainConvoy(("nth", "eng", "mao"), "den", "por")),
    ]
    out = month(units, {"ENGLAND": orders})
    assert ("ENGLAND", "A", "por", None) in board_of(out)
    assert ("ENGLAND", "F", "nth", None) in board_of(out)
    attack = {
        "FRANCE": [
            Scaled(2, Move("F", "bre", "mao")),
            Scaled(2, Support("F", "gas", "F", "bre", "mao")),
        ]
    }
    out = month(
        units + [Unit("FRANCE", "F", "bre"), Unit("FRANCE", "F", "gas")],
        {"ENGLAND": orders, **attack},
    )
    assert ("ENGLAND", "AF", "eng", "") not in board_of(out)
    assert ("ENGLAND", "AF", "eng", None) in board_of(out)
    assert ("ENGLAND", "F", "nth", None) in board_of(out)
    assert [(d.unit.loc, d.unit.kind) for d in out.dislodged] == [("mao", "F")]


def test_extended_convoy_onto_the_last_fleet_which_moves_on_with_the_army() -> None:
    """3 (d): TS1 A(Den) B F(NTH); TS2 F(NTH) & F(ENC) C A(Den) - ENC, A/F(ENC) - MAO;
    TS3 A(MAO) D Por."""
    from judge.variants.mercator.orders import ChainConvoy

    units = [Unit("ENGLAND", "A", "den"), Unit("ENGLAND", "F", "nth"), Unit("ENGLAND", "F", "eng")]
    orders = [
        Scaled(1, Board("den", "nth")),
        Scaled(2, ChainConvoy(("nth", "eng"), "den", "eng")),
        Scaled(2, Move("AF", "eng", "mao")),
        Scaled(3, Disembark("mao", "por")),
    ]
    out = month(units, {"ENGLAND": orders})
    assert board_of(out) == {
        ("ENGLAND", "F", "nth", None),
        ("ENGLAND", "F", "mao", None),
        ("ENGLAND", "A", "por", None),
    }
    assert results(out, "ENGLAND") == ["success"] * 4
    # The Channel fleet bounced back by a French fleet: the army is still aboard it.
    out = month(
        units + [Unit("FRANCE", "F", "mao")],
        {"ENGLAND": orders, "FRANCE": [Scaled(2, Hold("F", "mao"))]},
    )
    assert ("ENGLAND", "AF", "eng", None) in board_of(out)
