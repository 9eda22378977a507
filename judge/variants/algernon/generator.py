"""A maze for N players from a seed (rule 3: the GM builds the playing field to suit the players).

The maze is laid out as a ring of N sectors, one a player, each alike: three homes joined to
one another, three plain spaces around them, a neutral centre of its own two portals out, a
neutral centre shared with the next sector on the border, and an inner ring of plain spaces
joining all sectors. A few portals are then added at random between spaces that are not homes,
and the maze is kept only if `fairness_problems` finds nothing (else another draw from the same
seed). Space ids are two or three consonants drawn at random and portals are numbered in a
random order, so neither the ids, their order nor a space's portal numbers tell anyone what else
there is. Everything is drawn from `random.Random(seed)`: the same seed gives the same maze.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.geography import Map
from judge.variants.algernon.maze import maze_board
from judge.variants.algernon.offensive import OFFENSIVE

MIN_PLAYERS = 2
MAX_PLAYERS = 24
_CONSONANTS = "bcdfghjklmnpqrstvwxz"
_VOWELS = "aeiou"
# Ids and initials that are words of the judge's own mails or commands, never drawn.
_SPACE_STOP = frozenset({"bs", "cd", "gm", "gmt", "hsc", "nmr", "nsc", "pm", "utc", "cst", "pst"})
# Initials are written in capitals in every mail ("You play HAC", "(HAC s VT4)"), but a word of
# those mails must still never be drawn: a player reading "FOR" or "For" must not wonder whether
# it is a player, and the leak test must not take a word of the judge's for one (tests/variants/
# algernon/test_initials.py keeps this list up to date with the templates and the sentences).
_INITIALS_STOP = frozenset(
    [
        "bad",
        "bel",
        "ber",
        "bid",
        "bot",
        "bug",
        "bur",
        "but",
        "can",
        "cap",
        "cut",
        "dec",
        "den",
        "did",
        "far",
        "feb",
        "few",
        "fit",
        "fix",
        "for",
        "gal",
        "get",
        "got",
        "had",
        "has",
        "her",
        "him",
        "his",
        "hot",
        "how",
        "jan",
        "jul",
        "jun",
        "led",
        "let",
        "loc",
        "log",
        "lon",
        "map",
        "mar",
        "met",
        "mid",
        "min",
        "mon",
        "mun",
        "new",
        "non",
        "nor",
        "not",
        "nov",
        "now",
        "par",
        "per",
        "pit",
        "put",
        "rat",
        "rom",
        "row",
        "run",
        "sat",
        "saw",
        "sep",
        "set",
        "sil",
        "sum",
        "sun",
        "tag",
        "ten",
        "tip",
        "top",
        "tue",
        "tus",
        "was",
        "web",
        "wed",
        "win",
        "won",
        "yes",
    ]
)
_TRIES = 200


@dataclass(frozen=True)
class Fairness:
    """Each player's distances (in portals, from his nearest home) to the neutral centres,
    nearest first, and what makes the maze unfair (empty when it is fair)."""

    distances: Mapping[str, tuple[int, ...]]
    share: int  # the neutral centres a player may count on: neutrals / players, at least 1
    problems: tuple[str, ...]


def space_id(rng: random.Random, taken: set[str]) -> str:
    while True:
        size = 2 if rng.random() < 0.5 else 3
        code = "".join(rng.choice(_CONSONANTS) for _ in range(size))
        if code not in taken and code not in _SPACE_STOP and code not in OFFENSIVE:
            taken.add(code)
            return code


def initials(rng: random.Random, taken: set[str]) -> str:
    while True:
        word = rng.choice(_CONSONANTS) + rng.choice(_VOWELS) + rng.choice(_CONSONANTS)
        if word not in taken and word not in _INITIALS_STOP and word not in OFFENSIVE:
            taken.add(word)
            return word.upper()


def _layout(players: int) -> tuple[list[tuple[str, str]], dict[str, str], dict[int, list[str]]]:
    """The ring of sectors as abstract spaces: edges, each space's kind (home, neutral,
    plain) and each sector's homes."""
    kinds: dict[str, str] = {}
    homes: dict[int, list[str]] = {}
    edges: set[tuple[str, str]] = set()

    def join(a: str, b: str) -> None:
        if a != b:
            edges.add((min(a, b), max(a, b)))

    for i in range(players):
        a, b, c = f"h{i}a", f"h{i}b", f"h{i}c"
        x, y, z, n, m, r = f"x{i}", f"y{i}", f"z{i}", f"n{i}", f"m{i}", f"r{i}"
        homes[i] = [a, b, c]
        kinds.update({a: "home", b: "home", c: "home", n: "neutral", m: "neutral"})
        kinds.update({x: "plain", y: "plain", z: "plain", r: "plain"})
        join(a, b), join(b, c), join(a, c)
        join(a, x), join(c, y), join(b, z)
        join(x, n), join(z, n), join(z, r)
        join(y, m), join(m, f"x{(i + 1) % players}")
        join(r, f"r{(i + 1) % players}")
    return sorted(edges), kinds, homes


def generate_maze(players: int, seed: int | str) -> dict[str, Any]:
    """A fair maze for `players` players, in the board file's shape, drawn from `seed`."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"a maze is made for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    rng = random.Random(f"algernon-maze:{players}:{seed}")
    edges, kinds, sector_homes = _layout(players)
    others = [s for s, k in kinds.items() if k != "home"]
    for _ in range(_TRIES):
        extra: set[tuple[str, str]] = set()
        for _ in range(max(1, players // 2)):
            a, b = rng.sample(others, 2)
            pair = (min(a, b), max(a, b))
            if pair not in edges:
                extra.add(pair)
        data = _as_board(rng, players, sorted(set(edges) | extra), kinds, sector_homes)
        if not fairness(maze_board(data)).problems:
            return data
    raise RuntimeError(f"no fair maze for {players} players from seed {seed!r}")  # pragma: no cover


def _as_board(
    rng: random.Random,
    players: int,
    edges: Sequence[tuple[str, str]],
    kinds: Mapping[str, str],
    sector_homes: Mapping[int, list[str]],
) -> dict[str, Any]:
    taken: set[str] = set()
    ids = {space: space_id(rng, taken) for space in sorted(kinds)}
    neighbours: dict[str, list[str]] = {space: [] for space in kinds}
    for a, b in edges:
        neighbours[a].append(ids[b])
        neighbours[b].append(ids[a])
    provinces: dict[str, Any] = {}
    for space, behind in neighbours.items():
        rng.shuffle(behind)
        entry: dict[str, Any] = {"portals": {str(i + 1): t for i, t in enumerate(behind)}}
        if kinds[space] != "plain":
            entry["centre"] = True
        provinces[ids[space]] = entry
    names: set[str] = set()
    powers = {
        initials(rng, names): {"homes": sorted(ids[h] for h in sector_homes[i])}
        for i in range(players)
    }
    centres = sum(1 for k in kinds.values() if k != "plain")
    return {
        "map": {
            "name": "algernon",
            "title": "Algernon",
            "victory_centres": centres // 2 + 1,
        },
        "powers": dict(sorted(powers.items())),
        "provinces": dict(sorted(provinces.items())),
    }


def distances_from(board: Map, starts: Sequence[str]) -> dict[str, int]:
    """Portals to cross from the nearest of `starts` to each space (breadth first)."""
    seen = {s: 0 for s in starts}
    queue = deque(starts)
    while queue:
        space = queue.popleft()
        for nxt in board.provinces[space].portals.values():
            if nxt not in seen:
                seen[nxt] = seen[space] + 1
                queue.append(nxt)
    return seen


def fairness(board: Map) -> Fairness:
    """Each player's distances to the neutral centres, and why the maze is unfair if it is:
    a space cut off, a home next to another player's, or a player whose k-th nearest neutral
    centre is more than one portal further than another player's (k up to his share)."""
    problems: list[str] = []
    spaces = sorted(board.provinces)
    reach = distances_from(board, spaces[:1])
    for space in spaces:
        if space not in reach:
            problems.append(f"{space.upper()} cannot be reached from {spaces[0].upper()}")
    owner = {h: name for name, p in board.powers.items() for h in p.home_centres}
    for home, name in sorted(owner.items()):
        for nxt in board.provinces[home].portals.values():
            other = owner.get(nxt)
            if other is not None and other != name and home < nxt:
                problems.append(
                    f"{name}'s home {home.upper()} is next to {other}'s home {nxt.upper()}"
                )
    neutrals = sorted(board.neutral_centres())
    share = max(1, len(neutrals) // max(1, len(board.powers)))
    distances: dict[str, tuple[int, ...]] = {}
    for name, power in sorted(board.powers.items()):
        far = distances_from(board, sorted(power.home_centres))
        distances[name] = tuple(sorted(far.get(n, 1 << 20) for n in neutrals))
    if not neutrals:
        problems.append("the maze has no neutral supply centre")
    for rank in range(min(share, len(neutrals))):
        nearest = {name: d[rank] for name, d in distances.items()}
        best = min(nearest, key=lambda n: (nearest[n], n))
        worst = max(nearest, key=lambda n: (nearest[n], n))
        if nearest[worst] - nearest[best] > 1:
            problems.append(
                f"{worst}'s {_ordinal(rank + 1)} nearest neutral centre is {nearest[worst]} "
                f"portals away, {best}'s {nearest[best]}"
            )
    return Fairness(distances, share, tuple(problems))


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


def fairness_text(board: Map) -> str:
    """The fairness figures as `judge map` prints them for a maze."""
    found = fairness(board)
    centres = board.supply_centres()
    lines = [
        f"{board.title}: {len(board.powers)} players, {len(board.provinces)} spaces, "
        f"{len(centres)} supply centres ({len(board.neutral_centres())} neutral), "
        f"{board.victory_centres} to win",
        f"distance (portals from the nearest home) to the neutral centres, nearest first; "
        f"a player's share is {found.share}:",
    ]
    for name, dist in found.distances.items():
        near = dist[: found.share]
        lines.append(
            f"  {name}: {', '.join(str(d) for d in dist)}"
            f"  (nearest {found.share}: total {sum(near)})"
        )
    if found.problems:
        lines.append("unfair:")
        lines += [f"  {p}" for p in found.problems]
    else:
        lines.append(
            "fair: every space reached, no home next to another player's, each "
            "player's nearest neutral centres within one portal of every other's"
        )
    return "\n".join(lines)
