"""Wins claimed together (SET CLAIM by mail), shared by the variants that have them: Mercator's
2-way and 3-way wins (its rule 10) and 1885's alliance victory (its rule 5 b).

A variant counts what its rules count (Mercator supply centres, 1885 units on the board) and
says how many a combine of each size needs; this module decides which combine, if any, wins.
"""

from __future__ import annotations

from collections.abc import Mapping


def claimed_win(
    counts: Mapping[str, int],
    claims: Mapping[str, frozenset[str]],
    thresholds: Mapping[int, int],
) -> tuple[str, ...]:
    """The combine that wins by its claims this season, or () if none does.

    `claims` maps each claiming power to the combine it claims for (itself among them); a
    combine counts only when every member claimed exactly it, its size has a threshold, and each
    member holds one at least. Smaller combines come first; of several qualifying combines of
    one size the one holding the most wins (a tie: none). Single claims are shared (Mercator
    rule 10: "the victory is shared")."""
    combines: set[frozenset[str]] = set()
    for power, combine in claims.items():
        if (
            power in combine
            and len(combine) in thresholds
            and all(claims.get(member) == combine for member in combine)
        ):
            combines.add(combine)
    for size in sorted(thresholds):
        qualifying = [
            c
            for c in combines
            if len(c) == size
            and all(counts.get(p, 0) > 0 for p in c)
            and sum(counts.get(p, 0) for p in c) >= thresholds[size]
        ]
        if not qualifying:
            continue
        if size == 1:
            return tuple(sorted(p for c in qualifying for p in c))
        held = {c: sum(counts.get(p, 0) for p in c) for c in qualifying}
        best = max(held.values())
        leaders = [c for c, n in held.items() if n == best]
        return tuple(sorted(leaders[0])) if len(leaders) == 1 else ()
    return ()
