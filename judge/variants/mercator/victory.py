"""Mercator's wins (rule 10): single, 2-way and 3-way.

A single win is on the board, as in the standard game: a power holding the board's number of
centres wins when centres change hands, and several powers doing so at once share it ("the
victory is shared irrespective of supply centre holding"). A 2-way or 3-way win must be claimed
by each member of the combine in the same season (SET CLAIM by mail); it is granted when the
combine holds enough centres together, each member holding one at least. A solo win comes
first, a 2-way win before a 3-way win, and of several qualifying 2-way (or 3-way) claims the
combine with the most centres wins (a tie: none).

The rules leave the numbers to each Mark. For a board without its own: a single win needs the
board's victory count (18 on the standard board), a 2-way win 70% of the board's centres and a
3-way win 82% (24 and 28 of the standard board's 34): docs/RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import ceil

from judge.variants.claims import claimed_win

__all__ = ["claim_thresholds", "claimed_win", "solo_winners"]

TWO_WAY_SHARE = 0.70
THREE_WAY_SHARE = 0.82


def claim_thresholds(total_centres: int, solo: int) -> dict[int, int]:
    """Centres a combine of 1, 2 or 3 powers needs together to win."""
    return {
        1: solo,
        2: max(solo, ceil(TWO_WAY_SHARE * total_centres)),
        3: max(solo, ceil(THREE_WAY_SHARE * total_centres)),
    }


def solo_winners(centres: Mapping[str, int], solo: int) -> tuple[str, ...]:
    return tuple(sorted(p for p, n in centres.items() if n >= solo))
