"""Rule 10: single, 2-way and 3-way wins, claims and their precedence."""

from __future__ import annotations

from judge.engine.results import PhaseResult
from judge.map_files import load_map
from judge.variants.mercator.phases import decide_claims
from judge.variants.mercator.victory import claim_thresholds, claimed_win, solo_winners

T = claim_thresholds(34, 18)


def test_the_standard_boards_numbers() -> None:
    assert T == {1: 18, 2: 24, 3: 28}


def test_several_single_winners_share_the_victory() -> None:
    assert solo_winners({"FRANCE": 18, "GERMANY": 18, "ITALY": 2}, 18) == ("FRANCE", "GERMANY")
    claims = {"FRANCE": frozenset({"FRANCE"}), "GERMANY": frozenset({"GERMANY"})}
    assert claimed_win({"FRANCE": 18, "GERMANY": 18}, claims, T) == ("FRANCE", "GERMANY")


def test_a_two_way_win_needs_both_claims_in_the_same_season() -> None:
    centres = {"FRANCE": 13, "GERMANY": 12, "ITALY": 9}
    pair = frozenset({"FRANCE", "GERMANY"})
    assert claimed_win(centres, {"FRANCE": pair}, T) == ()
    assert claimed_win(centres, {"FRANCE": pair, "GERMANY": pair}, T) == ("FRANCE", "GERMANY")
    # Together short of the number: no win.
    assert claimed_win({"FRANCE": 12, "GERMANY": 11}, {"FRANCE": pair, "GERMANY": pair}, T) == ()


def test_a_two_way_win_comes_before_a_three_way_win() -> None:
    centres = {"FRANCE": 13, "GERMANY": 12, "ITALY": 4, "TURKEY": 5}
    pair = frozenset({"FRANCE", "GERMANY"})
    three = frozenset({"ITALY", "TURKEY", "FRANCE"})
    claims = {"FRANCE": pair, "GERMANY": pair, "ITALY": three, "TURKEY": three}
    assert claimed_win(centres, claims, T) == ("FRANCE", "GERMANY")


def test_of_two_qualifying_two_way_claims_the_larger_combine_wins() -> None:
    centres = {"FRANCE": 14, "GERMANY": 11, "ITALY": 12, "TURKEY": 12}
    fg, it = frozenset({"FRANCE", "GERMANY"}), frozenset({"ITALY", "TURKEY"})
    claims = {"FRANCE": fg, "GERMANY": fg, "ITALY": it, "TURKEY": it}
    assert claimed_win(centres, claims, T) == ("FRANCE", "GERMANY")
    centres["TURKEY"] = 13
    centres["GERMANY"] = 12
    centres["FRANCE"] = 14
    centres["ITALY"] = 13
    assert claimed_win(centres, claims, T) == ()  # a tie: neither


def test_a_three_way_win() -> None:
    centres = {"FRANCE": 10, "GERMANY": 10, "ITALY": 9, "TURKEY": 5}
    three = frozenset({"FRANCE", "GERMANY", "ITALY"})
    claims = {p: three for p in three}
    assert claimed_win(centres, claims, T) == ("FRANCE", "GERMANY", "ITALY")


def test_a_board_gives_its_own_numbers() -> None:
    """The world board's Mark: 55 alone, 72 for two, 81 for three (maps/mercator-world.md)."""
    assert claim_thresholds(108, 55, 72, 81) == {1: 55, 2: 72, 3: 81}
    assert claim_thresholds(108, 55) == {1: 55, 2: 76, 3: 89}  # the reading for boards without


def _after(centres: dict[str, frozenset[str]]) -> PhaseResult:
    """A phase's result holding `centres`: all decide_claims reads of it."""
    return PhaseResult(
        phase="DEC1901A", results={}, units_after=(), centers_after=centres, next_phase="JAN1902M"
    )


def test_the_world_boards_claims_use_its_numbers() -> None:
    board = load_map("mercator-world")
    pair = frozenset({"BRAZIL", "INDIA"})
    claims = {"BRAZIL": pair, "INDIA": pair}

    def holding(brazil: int, india: int) -> dict[str, frozenset[str]]:
        centres = sorted(board.supply_centres())
        return {
            "BRAZIL": frozenset(centres[:brazil]),
            "INDIA": frozenset(centres[brazil : brazil + india]),
        }

    assert decide_claims(board, _after(holding(36, 36)), claims) == ("BRAZIL", "INDIA")
    assert (
        decide_claims(board, _after(holding(36, 35)), claims) == ()
    )  # 71: short of 72 (76 by shares)
    three = frozenset({"BRAZIL", "INDIA", "JAPAN"})
    centres = sorted(board.supply_centres())
    held = {
        "BRAZIL": frozenset(centres[:27]),
        "INDIA": frozenset(centres[27:54]),
        "JAPAN": frozenset(centres[54:81]),
    }
    assert decide_claims(board, _after(held), {p: three for p in three}) == (
        "BRAZIL",
        "INDIA",
        "JAPAN",
    )
