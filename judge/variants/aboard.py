"""Where an army aboard a fleet stands while the standard resolver adjudicates a move.

Army/fleet variants (Mercator, 1885) adjudicate their armies at sea with the standard resolver
(judge.engine.resolve), which knows armies on land and fleets. An army aboard is given a space
of its own, added to the board for that one adjudication:

- a *ferry space* beside a sea (``~eng``): a coast on that sea alone, from which the army is
  convoyed by the fleet there, so it has a convoyed army's strength, supports and disruption
  (Mercator's fast ferry and chain convoys, 1885's Fast Ferry of an army of the fleet's power);
- a *landing space* (``~>gol``): an inland space next to every land on a sea's coast, from which
  the army's landing is an ordinary army move (1885's disembarkation: an attack from the sea,
  which supports may help and which cuts the support of a unit it attacks).

Nothing but the army aboard ever stands in or enters these spaces. The boards are kept on the
board value they extend, as the engine keeps its derived tables (judge/engine/topology.py), so
the resolver's tables for them are built once. Pure: the engine and the standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from judge.engine.geography import Map, Province, Terrain
from judge.engine.topology import topology

FERRY_PREFIX = "~"
LANDING_PREFIX = "~>"
_KEPT = 256  # boards with spaces kept per board (the few shapes a game's moves take)


def ferry_space(sea: str) -> str:
    """The space of an army carried by the fleet in `sea` (``eng`` -> ``~eng``)."""
    return FERRY_PREFIX + sea


def landing_space(key: str) -> str:
    """The space of an army landing from the army/fleet named `key` (``gol`` -> ``~>gol``)."""
    return LANDING_PREFIX + key


_ARMY_ABOARD = re.compile(r"\bA ~>?([A-Za-z0-9]+)")
_SPACE = re.compile(r"~>?([A-Za-z0-9]+)")


def in_players_words(reason: str) -> str:
    """A result's reason from the resolver with an army aboard named as a player reads it, not
    by its space: ``dislodged by A ~SKA`` -> ``dislodged by the army ferried from SKA``."""
    if "~" not in reason:
        return reason
    reason = _ARMY_ABOARD.sub(lambda m: f"the army ferried from {m.group(1).upper()}", reason)
    return _SPACE.sub(lambda m: m.group(1).upper(), reason)


def is_aboard_space(prov: str) -> bool:
    return prov.startswith(FERRY_PREFIX)


def with_spaces(
    game_map: Map,
    ferry_seas: Iterable[str] = (),
    landings: Iterable[tuple[str, str]] = (),
) -> Map:
    """The board with a ferry space beside each of `ferry_seas` and a landing space for each
    (key, sea) of `landings`, whose army may land on any land of that sea's coast."""
    ferries = frozenset(ferry_seas)
    lands = frozenset(landings)
    if not ferries and not lands:
        return game_map
    wanted = (ferries, lands)
    made: dict[tuple[frozenset[str], frozenset[tuple[str, str]]], Map] | None = (
        game_map.__dict__.get("_aboard_boards")
    )
    if made is None:
        made = {}
        object.__setattr__(game_map, "_aboard_boards", made)
    board = made.get(wanted)
    if board is None:
        board = _board(game_map, ferries, lands)
        if len(made) < _KEPT:
            made[wanted] = board
    return board


def _board(game_map: Map, ferries: frozenset[str], landings: frozenset[tuple[str, str]]) -> Map:
    provinces = dict(game_map.provinces)
    army_edges = dict(game_map.army_edges)
    fleet_edges = {loc: set(dests) for loc, dests in game_map.fleet_edges.items()}
    for sea in sorted(ferries):
        space = ferry_space(sea)
        provinces[space] = Province(space, f"aboard in {sea.upper()}", Terrain.COAST)
        army_edges[space] = frozenset()
        fleet_edges[space] = {sea}
        fleet_edges[sea].add(space)
    reach = topology(game_map).fleet_reach
    for key, sea in sorted(landings):
        space = landing_space(key)
        provinces[space] = Province(space, f"landing from {sea.upper()}", Terrain.LAND)
        army_edges[space] = frozenset(p for p in reach.get(sea, ()) if game_map.army_may_be_at(p))
    return replace(
        game_map,
        provinces=provinces,
        army_edges=army_edges,
        fleet_edges={loc: frozenset(d) for loc, d in fleet_edges.items()},
    )
