"""Mercenary's pieces on their own: the worked numbers of the rules text (3 b's 4/7, 7 d's 35%,
8 a's five centres), conversions and their rounding, the settling of bribes, the order language
and its errors, the record, and the money's JSON."""

from __future__ import annotations

from fractions import Fraction

import pytest

from judge.adjudicate_json import CaseError, run_case
from judge.engine.orders import Hold, Move
from judge.language.errors import OrderSyntaxError
from judge.map_files import load_map
from judge.variants import opening_payments, start_case, variant
from judge.variants.mercenary.bribes import Placed, settle_bribes
from judge.variants.mercenary.language import parse_line, short_text
from judge.variants.mercenary.money import (
    converted,
    counted_centres,
    effective_centres,
    exchange_values,
    season_values,
)
from judge.variants.mercenary.orders import Offer, SecondOrder

MAP = load_map("standard")


def test_rule_3b_a_green_pound_is_four_sevenths_of_a_purple_one() -> None:
    values = exchange_values({"RUSSIA": 14, "ITALY": 8})
    assert values == {"RUSSIA": Fraction(1), "ITALY": Fraction(4, 7)}


def test_rule_2_warsaw_is_no_centre_for_money() -> None:
    counts = counted_centres(MAP, {"RUSSIA": ["mos", "sev", "stp", "war"], "GERMANY": ["war"]})
    assert counts["RUSSIA"] == 3 and counts["GERMANY"] == 0


def test_rule_7d_a_net_700_of_2000_converted_away_is_35_percent_less() -> None:
    values = season_values({"RUSSIA": Fraction(1)}, {"RUSSIA": 2000}, {"RUSSIA": -700})
    assert values["RUSSIA"] == Fraction(65, 100)
    assert 1 - values["RUSSIA"] == Fraction(35, 100)
    risen = season_values({"ITALY": Fraction(1, 2)}, {"ITALY": 1000}, {"ITALY": 700})
    assert risen["ITALY"] == Fraction(1, 2) * Fraction(17, 10)


def test_rule_8a_five_four_and_three_count_five_each() -> None:
    counts = {"AUSTRIA": 5, "ITALY": 4, "TURKEY": 3, "ENGLAND": 10}
    effective = effective_centres(counts, [("AUSTRIA", "ITALY", "TURKEY")])
    assert [effective[p] for p in ("AUSTRIA", "ITALY", "TURKEY")] == [5, 5, 5]
    assert effective["ENGLAND"] == 10
    # By no means the same currency: each is valued alone, at 5 against 10.
    values = exchange_values(counts, [("AUSTRIA", "ITALY", "TURKEY")])
    assert values["TURKEY"] == Fraction(1, 2)


def test_the_strongest_currency_is_worth_one_even_inside_an_alliance() -> None:
    values = exchange_values({"AUSTRIA": 10, "ITALY": 10, "ENGLAND": 10}, [("AUSTRIA", "ITALY")])
    assert values == {"AUSTRIA": 1, "ITALY": 1, "ENGLAND": Fraction(10, 11)}


def test_conversions_round_down_to_whole_pounds() -> None:
    assert converted(700, Fraction(4, 7), Fraction(1)) == 400
    assert converted(101, Fraction(2, 3), Fraction(1)) == 67
    assert converted(100, Fraction(1), Fraction(2, 3)) == 150
    with pytest.raises(ValueError):
        converted(100, Fraction(1), Fraction(0))


def test_the_opening_money_is_a_thousand_of_each_own_currency() -> None:
    case = start_case("mercenary")
    assert case["money"]["holdings"] == {p: {p: 1000} for p in MAP.powers}
    assert set(case["money"]["values"].values()) == {"1"}  # rule 3 a: all equal at the start
    assert opening_payments("mercenary") == [
        {
            "from": "BANK",
            "to": p,
            "currency": p,
            "amount": 1000,
            "why": "rule 3: the starting balance",
        }
        for p in sorted(MAP.powers)
    ]
    assert opening_payments("standard") == []
    assert variant("mercenary").rules.rule_sets == ("postal-1972",)


def test_a_standard_case_carries_no_money() -> None:
    case = start_case("standard")
    case["orders"] = {"FRANCE": ["A Par - Bur"]}
    out = run_case(case)
    assert "money_after" not in out and "payments" not in out


def _placed(power: str, index: int, value: object) -> Placed:
    return Placed(power, index, value)


def test_bribes_a_deal_both_sides_wrote_goes_through() -> None:
    second = _placed("FRANCE", 1, SecondOrder(Move("A", "par", "bur"), "GERMANY", 200, None))
    offer = _placed("GERMANY", 0, Offer(200, None, "FRANCE", Move("A", "par", "bur")))
    settled = settle_bribes({"par": Hold("A", "par")}, {"par": second}, [offer])
    assert settled.used == {"par"} and settled.paid == (offer,)


def test_bribes_a_payment_against_its_own_second_order_is_a_circle() -> None:
    second = _placed("FRANCE", 1, SecondOrder(Move("A", "par", "bur"), "GERMANY", 100, None))
    offer = _placed("GERMANY", 0, Offer(100, None, "FRANCE", Hold("A", "par")))
    settled = settle_bribes({"par": Hold("A", "par")}, {"par": second}, [offer])
    assert settled.used == frozenset() and settled.dropped_in_circle == {"par"}
    assert settled.paid == (offer,)  # A Par H is given, so its offer is paid


def test_bribes_two_payers_do_not_add_up() -> None:
    second = _placed("FRANCE", 1, SecondOrder(Move("A", "par", "bur"), "GERMANY", 200, "GERMANY"))
    german = _placed("GERMANY", 0, Offer(100, None, "FRANCE", None))
    italian = _placed("ITALY", 0, Offer(100, "GERMANY", "FRANCE", None))
    settled = settle_bribes({}, {"par": second}, [german, italian])
    assert settled.used == frozenset()
    settled = settle_bribes({}, {"par": second}, [german, german])
    assert settled.used == {"par"}


@pytest.mark.parametrize(
    "line",
    [
        "A PAR - BUR IF GERMANY PAYS 200 GERMAN",
        "PAY 200 GERMAN TO FRANCE IF A PAR - BUR",
        "PAY 100 FRENCH TO ITALY",
        "BID 150 FRENCH ON A PAR - BUR",
        "BID 10 FRENCH ON F NTH C A LON - NWY",
        "CONVERT 300 FRENCH TO GERMAN",
        "ALLIANCE OF CURRENCY WITH GERMANY, ITALY",
        "LEAVE ALLIANCE OF CURRENCY",
    ],
)
def test_each_line_reads_back_to_itself(line: str) -> None:
    value = parse_line(line, MAP)
    assert short_text(value, "FRANCE", MAP) == line
    assert parse_line(short_text(value, "FRANCE", MAP), MAP) == value


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("PAY 100 PURPLE TO ITALY", "line 4, column 9: 'PURPLE' is no currency of this game"),
        ("BID ON A Par - Bur", "line 4, column 5: expected a sum of pounds after 'BID'"),
        ("PAY 10 FRENCH TO", "line 4, column 17: expected a power after 'TO'"),
        ("A Par - Bur IF", "line 4, column 15: expected a power after 'IF'"),
        ("A Par - Narnia", "line 4, column 9:"),
    ],
)
def test_a_line_with_a_mistake_is_named(line: str, words: str) -> None:
    with pytest.raises(OrderSyntaxError) as error:
        parse_line(line, MAP, 4)
    assert str(error.value).startswith(words), str(error.value)


def test_a_case_with_bad_money_names_the_field() -> None:
    case = start_case("mercenary")
    case["money"] = {"holdings": {"FRANCE": {"PURPLE": 10}}}
    with pytest.raises(CaseError, match=r"money.holdings.FRANCE: 'PURPLE' is no power"):
        run_case(case)
    case["money"] = {"holdings": {"FRANCE": {"FRANCE": -1}}}
    with pytest.raises(CaseError, match=r"money.holdings.FRANCE.FRANCE: expected whole pounds"):
        run_case(case)
    case["money"] = {"values": {"FRANCE": "x/7"}}
    with pytest.raises(CaseError, match=r"money.values.FRANCE: expected a fraction"):
        run_case(case)
    case["money"] = {"alliances": [["FRANCE"]]}
    with pytest.raises(CaseError, match=r"money.alliances\[0\]"):
        run_case(case)


def test_pounds_worth_nothing_buy_nothing() -> None:
    """Rules 3 b and 6 d: a power with no centre has a currency worth 0; its pounds convert into
    nothing, so a conversion out of them or a bid on another power's order is refused."""
    case = {
        "variant": "mercenary",
        "phase": "S1901M",
        "units": [
            {"power": "ITALY", "type": "A", "loc": "ven"},
            {"power": "FRANCE", "type": "A", "loc": "par"},
        ],
        "centers": {"FRANCE": ["par"]},
        "money": {"holdings": {"ITALY": {"ITALY": 500}}},
        "orders": {
            "ITALY": ["CONVERT 100 TO FRENCH", "BID 100 ON A Par - Bur", "BID 100 ON A Ven H"]
        },
    }
    out = run_case(case)
    results = [(r["result"], r["reason"]) for r in out["results"]["ITALY"]]
    assert results[0] == ("illegal", "line 1: Italian pounds are worth nothing")
    assert results[1][0] == "illegal" and "they buy no other currency" in results[1][1]
    assert results[2][0] == "success"  # a bid on its own order needs no conversion
    assert out["money_after"]["holdings"]["ITALY"] == {"ITALY": 500}
