"""Who owns a province that is not a supply centre (Mercator rule 5.1).

Supply centres are owned as in the regular game (judge.engine.adjudicate.update_centres, after
the moves of a build month). Any other province belongs to the last power to have had a unit
there, however fleetingly: the board at each moment of the month (its start and the end of
each time scale) is looked at in turn. Sea provinces are never owned. A power's special
provinces (rule 5.2; the board's per-power build sites that are not centres) are never owned by
anyone else. An army/fleet in a canal province gives the province to the fleet's power, whose
unit it is (rule 2.6). A power's home provinces that are not centres (the board's
`home_provinces`: Wales for England, Sardinia for Italy, rule 6.3) are its own from the start,
until another power's unit stands there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from judge.engine.geography import Map, Terrain
from judge.engine.position import Unit


def special_provinces(game_map: Map) -> dict[str, str]:
    """Special province -> the power it is assigned to (worked out once per board)."""
    return _kept(
        game_map,
        "_mercator_special",
        lambda: {
            prov: name for name, power in game_map.powers.items() for prov in power.build_only
        },
    )


def home_provinces(game_map: Map) -> dict[str, str]:
    """Home province (not a centre) -> the power whose home country it is (once per board)."""
    return _kept(
        game_map,
        "_mercator_home",
        lambda: {
            prov: name for name, power in game_map.powers.items() for prov in power.home_provinces
        },
    )


def ownable_provinces(game_map: Map) -> dict[str, str]:
    """Every province a unit standing there makes its power's (neither a centre nor a sea) ->
    the one power that may own it where it is a special province, "" where any may (once per
    board)."""

    def make() -> dict[str, str]:
        special = special_provinces(game_map)
        return {
            prov: special.get(prov, "")
            for prov, info in game_map.provinces.items()
            if not info.supply_centre and info.terrain is not Terrain.SEA
        }

    return _kept(game_map, "_mercator_ownable", make)


def _kept(game_map: Map, key: str, make: Callable[[], dict[str, str]]) -> dict[str, str]:
    """A table derived from the board, kept on the board value as the engine keeps its own
    (judge/engine/topology.py): the adjustments ask for it once per province."""
    table: dict[str, str] | None = game_map.__dict__.get(key)
    if table is None:
        table = make()
        object.__setattr__(game_map, key, table)
    return table


def owner_of(game_map: Map, owners: Mapping[str, str], prov: str) -> str | None:
    """Who owns a province that is not a centre: the last power there, else the power whose
    home province it is (nobody has been there since the start)."""
    return owners.get(prov) or home_provinces(game_map).get(prov)


def owners_after_month(
    game_map: Map, owners: Mapping[str, str], moments: Iterable[Iterable[Unit]]
) -> dict[str, str]:
    out = {**home_provinces(game_map), **owners}
    ownable = ownable_provinces(game_map)
    for units in moments:
        for unit in units:
            prov = unit.province
            only = ownable.get(prov)
            if only is None or (only and only != unit.power):
                continue
            out[prov] = unit.power
    return out
