"""Phase names, the order of phases, centre changes after the fall and the victory test."""

from __future__ import annotations

import pytest

from judge.engine.adjudicate import adjudicate
from judge.engine.calendar import PhaseError, following_phase, parse_phase
from judge.engine.orders import Hold, Move
from judge.engine.position import Position, Unit
from judge.engine.rules import Rules, UnknownRuleSet, rules_from_names
from judge.map_files import load_map


@pytest.mark.parametrize(
    ("phase", "retreats", "adjustments", "after"),
    [
        ("S1901M", False, False, "F1901M"),
        ("S1901M", True, False, "S1901R"),
        ("S1901R", False, True, "F1901M"),
        ("F1901M", True, True, "F1901R"),
        ("F1901M", False, True, "W1901A"),
        ("F1901M", False, False, "S1902M"),
        ("F1901R", False, True, "W1901A"),
        ("F1901R", False, False, "S1902M"),
        ("W1901A", False, False, "S1902M"),
    ],
)
def test_phase_sequence(phase: str, retreats: bool, adjustments: bool, after: str) -> None:
    nxt = following_phase(parse_phase(phase), retreats_due=retreats, adjustments_due=adjustments)
    assert nxt.name == after


@pytest.mark.parametrize("bad", ["W1901M", "S1901A", "X1901M", "S01M", ""])
def test_unknown_phase_names_are_refused(bad: str) -> None:
    with pytest.raises(PhaseError):
        parse_phase(bad)


def test_rule_sets_combine_and_unknown_names_are_named() -> None:
    rules = rules_from_names(["postal-1972", "key-rule"])
    assert rules.key_rule and rules.victory_by_units and rules.convoy_by_all_listed_fleets
    assert Rules().switched_on() == []
    with pytest.raises(UnknownRuleSet, match="postal-1971"):
        rules_from_names(["postal-1971"])


def test_a_fall_move_into_the_eighteenth_centre_wins() -> None:
    game_map = load_map("standard")
    centres = sorted(game_map.supply_centres() - {"mun"})
    owned = frozenset(centres[:17])
    position = Position(
        phase="F1905M", units=(Unit("FRANCE", "A", "bur"),), centers={"FRANCE": owned}
    )
    result = adjudicate(game_map, position, {"FRANCE": [Move("A", "bur", "mun")]}, Rules())
    assert len(result.centers_after["FRANCE"]) == 18
    assert result.victory == ("FRANCE",)
    # Seventeen centres and a unit standing still: no winner.
    result = adjudicate(game_map, position, {"FRANCE": [Hold("A", "bur")]}, Rules())
    assert result.victory == ()


def test_centres_do_not_change_hands_in_spring() -> None:
    game_map = load_map("standard")
    position = Position(
        phase="S1901M",
        units=(Unit("FRANCE", "A", "bur"),),
        centers={"FRANCE": frozenset({"par", "mar", "bre"}), "GERMANY": frozenset({"mun"})},
    )
    result = adjudicate(game_map, position, {"FRANCE": [Move("A", "bur", "mun")]}, Rules())
    assert result.centers_after["GERMANY"] == frozenset({"mun"})
    assert result.victory == ()
    result = adjudicate(
        game_map,
        Position("F1901M", result.units_after, result.centers_after),
        {"FRANCE": [Hold("A", "mun")]},
        Rules(),
    )
    assert "mun" in result.centers_after["FRANCE"] and not result.centers_after["GERMANY"]
    assert result.next_phase == "W1901A"


def test_a_phase_name_read_again_is_the_same_phase_and_a_bad_one_is_refused_again() -> None:
    first = parse_phase(" s1903r ")
    assert parse_phase(" s1903r ") is first
    assert (first.season, first.year, first.kind, first.name) == ("S", 1903, "R", "S1903R")
    assert parse_phase("JAN1905M", "any").name == "JAN1905M"
    assert parse_phase("JAN1905M", "any") is parse_phase("JAN1905M", "any")
    for _ in range(2):
        with pytest.raises(PhaseError):
            parse_phase("W1903M")
