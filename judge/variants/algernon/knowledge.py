"""What one player knows of the maze (rules 4, 6, 7, 9 and 10), kept between phases.

A player knows: spaces (their id, supply-centre value and portal count), links (portal p of S
joins portal q of T), the players he has met (initials) and the centre counts published after
the last build. It grows only by `learn_*` calls made from what his own rats met; everything
the judge writes to him is written from it. Stored as plain JSON in the position's variant
state: {"spaces": {id: {"portals": n, "centre": "HSC"|"NSC"|""}}, "links": [[S, p, T, q]],
"players": [initials], "centres": {initials: count}}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.geography import Map
from judge.variants.algernon.maze import centre_kind, portal_count, portal_towards


@dataclass
class Knowledge:
    spaces: dict[str, dict[str, Any]] = field(default_factory=dict)
    links: set[tuple[str, int, str, int]] = field(default_factory=set)
    players: set[str] = field(default_factory=set)
    centres: dict[str, int] = field(default_factory=dict)

    # --- questions ---------------------------------------------------------------------------
    def knows_space(self, space: str) -> bool:
        return space in self.spaces

    def portals_of(self, space: str) -> int | None:
        entry = self.spaces.get(space)
        return None if entry is None else int(entry["portals"])

    def behind(self, space: str, portal: int) -> tuple[str, int] | None:
        """The known far end of portal `portal` of `space`, if he has learned it."""
        for s, p, t, q in self.links:
            if s == space and p == portal:
                return t, q
            if t == space and q == portal:
                return s, p
        return None

    # --- learning ------------------------------------------------------------------------------
    def learn_space(self, board: Map, space: str) -> None:
        self.spaces[space] = {
            "portals": portal_count(board, space),
            "centre": centre_kind(board, space),
        }

    def learn_link(self, space: str, portal: int, other: str, entry: int) -> None:
        a, b = (space, portal), (other, entry)
        first, second = (a, b) if a <= b else (b, a)
        self.links.add((first[0], first[1], second[0], second[1]))

    def learn_player(self, initials: str) -> None:
        self.players.add(initials)

    # --- storage -------------------------------------------------------------------------------
    def as_json(self) -> dict[str, Any]:
        return {
            "spaces": {s: dict(v) for s, v in sorted(self.spaces.items())},
            "links": [list(link) for link in sorted(self.links)],
            "players": sorted(self.players),
            "centres": dict(sorted(self.centres.items())),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Knowledge:
        return cls(
            spaces={str(s): dict(v) for s, v in (raw.get("spaces") or {}).items()},
            links={
                (str(s).lower(), int(p), str(t).lower(), int(q))
                for s, p, t, q in (raw.get("links") or [])
            },
            players={str(p).upper() for p in (raw.get("players") or [])},
            centres={str(p).upper(): int(n) for p, n in (raw.get("centres") or {}).items()},
        )


def starting_knowledge(board: Map, power: str) -> Knowledge:
    """Rule 4: his home spaces, how many portals each has, and which of them lead to his other
    home spaces; and himself."""
    known = Knowledge()
    homes = sorted(board.powers[power].home_centres)
    for home in homes:
        known.learn_space(board, home)
    for home in homes:
        for portal, target in board.provinces[home].portals.items():
            if target in homes:
                known.learn_link(home, portal, target, portal_towards(board, target, home))
    known.learn_player(power)
    return known


def knowledge_of(board: Map, state: Mapping[str, Any], power: str) -> Knowledge:
    """The power's knowledge as the state keeps it, or rule 4's start when it keeps none."""
    raw = (state.get("knowledge") or {}).get(power)
    if raw is None:
        return starting_knowledge(board, power)
    return Knowledge.from_json(raw)
