"""1885's wins (rule 5): a single power with 23 units on the board; two powers together with 30
units between them at the end of a fall-type move (March, June, September or December), claimed
by both (SET CLAIM by mail) in that move's phase; a concession (the desk's SET CONCEDE).

Units are counted as rule 5 says, on the board, an army/fleet being two (A/F module II a); at
the end of a fall-type move means the units on the board after the move, the units it
dislodged not among them (they may yet be lost in their retreats). Each member of the alliance
has a unit at least. A single win on the board comes first (the desk reads claims only when
there is none).
"""

from __future__ import annotations

from collections.abc import Mapping

from judge.engine.calendar import ANY, BUILD_MONTHS, MOVEMENT, parse_phase
from judge.engine.geography import Map
from judge.engine.results import PhaseResult
from judge.variants.claims import claimed_win

SOLO_UNITS = 23
ALLIANCE_UNITS = 30
# Only two-power combines may claim: no single claim (a single win needs no claim) and no
# three-power alliance in the 1885 rules.
THRESHOLDS = {2: ALLIANCE_UNITS}


def decide_claims(
    game_map: Map, result: PhaseResult, claims: Mapping[str, frozenset[str]]
) -> tuple[str, ...]:
    """The two powers whose claimed alliance victory stands after this phase, or ()."""
    phase = parse_phase(result.phase, ANY)
    if phase.kind != MOVEMENT or phase.season not in BUILD_MONTHS:
        return ()
    from judge.variants.v1885.removals import unit_counts

    return claimed_win(unit_counts(result.units_after), claims, THRESHOLDS)
