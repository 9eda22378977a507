"""The rule that combines the seats' draw and concession votes into an ending
(judge.desk.endings), apart from the mail that carries them (test_endings_by_mail.py)."""

from __future__ import annotations

from judge.desk.endings import Ending, Vote, agreed_ending, surviving_powers

ALL = frozenset({"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"})


# --- the rule ----------------------------------------------------------------------------------
def test_survivors_hold_a_unit_a_dislodged_unit_or_a_centre() -> None:
    position = {
        "units": [{"power": "FRANCE", "type": "A", "loc": "par"}],
        "dislodged": [{"power": "ITALY", "type": "A", "loc": "ven"}],
        "centers": {"ENGLAND": ["lon"], "GERMANY": []},
    }
    assert surviving_powers(position) == {"FRANCE", "ITALY", "ENGLAND"}
    assert surviving_powers(None) == frozenset()


def test_agreed_ending_rules() -> None:
    three = frozenset({"ENGLAND", "FRANCE", "GERMANY"})
    dias = frozenset[str]()
    # Every voter for all survivors, with or without the list.
    votes = [Vote("ENGLAND", dias), Vote("FRANCE", three), Vote("GERMANY", dias)]
    assert agreed_ending(three, votes) == Ending(draw=("ENGLAND", "FRANCE", "GERMANY"))
    # One missing vote blocks.
    assert (
        agreed_ending(three, [Vote("ENGLAND", dias), Vote("FRANCE", dias), Vote("GERMANY")]) is None
    )
    # A smaller draw agreed by its members only, while a third power votes otherwise: nothing.
    two = frozenset({"ENGLAND", "FRANCE"})
    assert (
        agreed_ending(three, [Vote("ENGLAND", two), Vote("FRANCE", two), Vote("GERMANY", dias)])
        is None
    )
    # Voters who no longer survive are not counted; the draw must hold survivors only.
    assert agreed_ending(
        two, [Vote("ENGLAND", two), Vote("FRANCE", two), Vote("GERMANY")]
    ) == Ending(draw=("ENGLAND", "FRANCE"))
    assert agreed_ending(two, [Vote("ENGLAND", three), Vote("FRANCE", three)]) is None
    # Concession: every other voter concedes; the power conceded to need not vote.
    conceded = [
        Vote("ENGLAND", concession="FRANCE"),
        Vote("GERMANY", concession="FRANCE"),
        Vote("FRANCE"),
    ]
    assert agreed_ending(three, conceded) == Ending(concession="FRANCE")
    assert agreed_ending(three, [*conceded[::2], Vote("GERMANY", concession="ENGLAND")]) is None
    # Both agreed at once: the draw, which every voter asked for.
    both = [
        Vote("ENGLAND", dias, "FRANCE"),
        Vote("GERMANY", dias, "FRANCE"),
        Vote("FRANCE", dias),
    ]
    assert agreed_ending(three, both) == Ending(draw=("ENGLAND", "FRANCE", "GERMANY"))
    # Nobody to vote: no ending.
    assert agreed_ending(three, []) is None
    assert agreed_ending(ALL, [Vote("FRANCE", frozenset({"FRANCE"}))]) is None
