"""A player's own map (the MAP command): the spaces he has learned, their portals and where the
ones he has found lead; written from his knowledge alone. And the GM's whole maze."""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.geography import Map
from judge.variants.algernon.knowledge import Knowledge
from judge.variants.algernon.maze import centre_kind


def player_map_text(known: Knowledge, power: str, units: Sequence[str]) -> str:
    lines = [f"Your map of the maze ({power}): the spaces you know, portal by portal."]
    for space in sorted(known.spaces):
        facts = known.spaces[space]
        value = f" {facts['centre']}" if facts.get("centre") else ""
        here = " (your rat)" if space in units else ""
        lines.append(f"{space.upper()}{value}, {facts['portals']} portals{here}")
        for portal in range(1, int(facts["portals"]) + 1):
            far = known.behind(space, portal)
            where = f"{far[0].upper()}{far[1]}" if far is not None else "?"
            lines.append(f"  {space.upper()}{portal} -> {where}")
    lines.append("Units At: " + (", ".join(s.upper() for s in sorted(units)) or "none"))
    if known.centres:
        lines.append(
            "Supply centres (last published): "
            + ", ".join(f"{p} {n}" for p, n in sorted(known.centres.items()))
        )
    others = sorted(known.players - {power})
    lines.append("Players you have met: " + (", ".join(others) or "none"))
    return "\n".join(lines) + "\n"


def master_map_text(board: Map) -> str:
    lines = [f"The whole maze ({len(board.provinces)} spaces), for the GM:"]
    for space in sorted(board.provinces):
        value = centre_kind(board, space)
        owner = board.home_of(space)
        tag = f" {value}" + (f" ({owner})" if owner else "") if value else ""
        portals = ", ".join(
            f"{n}->{t.upper()}" for n, t in sorted(board.provinces[space].portals.items())
        )
        lines.append(f"{space.upper()}{tag}: {portals}")
    return "\n".join(lines) + "\n"
