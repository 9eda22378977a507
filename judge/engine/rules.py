"""Named rule switches and the rule sets built from them.

The default (every switch off) is the 2023 rulebook with the DATC 3.0 preferred readings.
A rule set is a name players and GMs use (``postal-1972``, ``key-rule``) standing for a set of
switches; several rule sets may be combined.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any


@dataclass(frozen=True, slots=True)
class Rules:
    # Key (Swenson) rule: a unit whose move failed keeps no hold strength, so any attack from a
    # space other than its own target that is not stopped otherwise dislodges it.
    key_rule: bool = False
    # 1971 ruling on ambiguous convoys: the army is convoyed by every fleet ordered to convoy it,
    # and fails if any of them is dislodged.
    convoy_by_all_listed_fleets: bool = False
    # 1971 paradox rule: a convoyed army never cuts a support given to a move into a space
    # holding one of its convoying fleets, even when it dislodges the supporter.
    paradox_rule_1971: bool = False
    # A fleet moving from a convoyed army's destination onto the last convoying fleet meets the
    # army head to head: the stronger wins, equal strengths stand each other off.
    convoy_head_to_head: bool = False
    # A dislodged unit never retreats to its attacker's province, even after a convoyed attack.
    retreat_never_to_attacker_origin: bool = False
    # Units whose only retreat is the same province: a retreat there stands only if every other
    # such unit was ordered to disband.
    retreat_needs_explicit_disband: bool = False
    # A dislodged unit of a power in civil disorder is removed instead of retreating.
    civil_disorder_units_removed: bool = False
    # Victory by the number of units on the board instead of supply centres.
    victory_by_units: bool = False
    # Victory threshold; None takes the map's own number.
    victory_count: int | None = None

    def switched_on(self) -> list[str]:
        default = Rules()
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(default, f.name)]


RULE_SETS: dict[str, dict[str, Any]] = {
    "key-rule": {"key_rule": True},
    "postal-1972": {
        "convoy_by_all_listed_fleets": True,
        "paradox_rule_1971": True,
        "convoy_head_to_head": True,
        "retreat_never_to_attacker_origin": True,
        "retreat_needs_explicit_disband": True,
        "civil_disorder_units_removed": True,
        "victory_by_units": True,
        "victory_count": 18,
    },
}


class UnknownRuleSet(ValueError):
    pass


def rules_from_names(names: list[str] | tuple[str, ...]) -> Rules:
    """Combine named rule sets into one Rules value; unknown names are refused by name."""
    rules = Rules()
    for name in names:
        key = name.strip().lower()
        if not key:
            continue
        if key not in RULE_SETS:
            known = ", ".join(sorted(RULE_SETS))
            raise UnknownRuleSet(f"unknown rule set {name!r} (known: {known})")
        rules = replace(rules, **RULE_SETS[key])
    return rules
