"""How far a written word is from a known one, counted the way people mistype.

A player who writes "Galicya" meant Galicia, not the Baltic Sea, though a plain similarity
ratio ranks both near it. The distance here is an edit distance (optimal string alignment:
insertions, deletions, substitutions, and two neighbouring letters swapped) whose steps cost
what they are worth as slips of a hand or an ear:

- two neighbouring letters swapped (Trisete, Hepl) costs half an edit;
- a letter doubled or undoubled (Tuscanny, Rolback) costs less than a third;
- a letter for one that sounds alike (y/i, c/k/q/s/z, v/w, f/v, g/j, d/t, b/p, m/n) costs 0.4,
  a vowel for another vowel 0.6, and a letter for its neighbour on a QWERTY keyboard 0.5;
- a dropped vowel (Nrth, Englsh) costs 0.7; any other insertion, deletion or substitution costs 1.

Candidates whose first letter is far from the written one are not measured at all (people seldom
slip there but by a sound-alike, a neighbouring key or a swap), which keeps a mail of garbage
cheap. Suggestions are those within about one slip in three letters, and within MARGIN of the
nearest.

Names may also be written as a prefix (Ioanian for Ionian Sea): `typo_distance` with `prefix`
measures against the best beginning of the known word, plus a small charge for the rest.
Everything is pure and works on lower-case letters and digits (callers compact their words).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

SWAP = 0.5  # two neighbouring letters swapped
DOUBLING = 0.3  # a letter doubled or a double letter written once
SOUND_ALIKE = 0.4  # a letter for one that sounds the same in the word
VOWEL_FOR_VOWEL = 0.6
KEYBOARD = 0.5  # a letter for its neighbour on the keyboard
DROPPED_VOWEL = 0.7
EDIT = 1.0
PREFIX = 0.25  # measuring against the beginning of a name only
# Suggestions farther than this beyond the nearest one are left out: a clear best stands alone.
MARGIN = 0.75
# The cheapest single step: how little one letter out of place can cost.
_CHEAPEST = DOUBLING

_VOWELS = frozenset("aeiouy")
_SOUND_GROUPS = ("iy", "ckqsz", "sz", "vw", "fv", "gj", "dt", "bp", "mn")
_KEYBOARD_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")


def _keyboard_neighbours() -> dict[str, frozenset[str]]:
    """Each key's neighbours on a QWERTY keyboard: left and right, and the keys touching it
    on the rows above and below (a row is offset by about half a key from the next)."""
    where = {
        key: (row, col) for row, keys in enumerate(_KEYBOARD_ROWS) for col, key in enumerate(keys)
    }
    neighbours: dict[str, set[str]] = {key: set() for key in where}
    for key, (row, col) in where.items():
        for other, (other_row, other_col) in where.items():
            if other == key:
                continue
            if other_row == row and abs(other_col - col) == 1:
                neighbours[key].add(other)
            elif abs(other_row - row) == 1:
                # A lower row sits half a key to the right of the row above it.
                shift = 0.5 * (other_row - row)
                if abs(other_col + shift - col) <= 0.5:
                    neighbours[key].add(other)
    return {key: frozenset(near) for key, near in neighbours.items()}


_NEIGHBOURS = _keyboard_neighbours()
_SOUNDS = {
    letter: frozenset(c for group in _SOUND_GROUPS if letter in group for c in group) - {letter}
    for letter in "abcdefghijklmnopqrstuvwxyz"
}


def substitution_cost(written: str, meant: str) -> float:
    """What writing `written` for the letter `meant` costs."""
    if written == meant:
        return 0.0
    cost = EDIT
    if written in _SOUNDS.get(meant, ()):
        cost = min(cost, SOUND_ALIKE)
    if written in _VOWELS and meant in _VOWELS:
        cost = min(cost, VOWEL_FOR_VOWEL)
    if written in _NEIGHBOURS.get(meant, ()):
        cost = min(cost, KEYBOARD)
    return cost


# Every pair of letters and digits that costs less than a full edit, looked up in the inner loop.
_CHEAP_PAIRS = {
    (a, b): cost
    for a in "abcdefghijklmnopqrstuvwxyz0123456789"
    for b in "abcdefghijklmnopqrstuvwxyz0123456789"
    if (cost := substitution_cost(a, b)) < EDIT
}


@lru_cache(maxsize=4096)
def _indel_costs(word: str) -> tuple[float, ...]:
    """What each letter of `word` costs to add or leave out: little when it doubles the letter
    beside it, less than a full edit for a vowel."""
    costs = []
    for index, letter in enumerate(word):
        doubled = (index > 0 and word[index - 1] == letter) or (
            index + 1 < len(word) and word[index + 1] == letter
        )
        costs.append(DOUBLING if doubled else DROPPED_VOWEL if letter in _VOWELS else EDIT)
    return tuple(costs)


def _distances(written: str, known: str, ceiling: float) -> list[float] | None:
    """The last row of the weighted alignment table: the distance from `written` to each
    beginning of `known` (index j: its first j letters); None as soon as every way through
    the table costs more than `ceiling` (no later row can come back under it)."""
    m = len(known)
    insert = _indel_costs(known)  # a letter of `known` left out when writing
    delete = _indel_costs(written)  # a letter written too many
    cheap = _CHEAP_PAIRS
    before: list[float] = []
    previous = [0.0] * (m + 1)
    for j in range(m):
        previous[j + 1] = previous[j] + insert[j]
    previous_low = 0.0
    last = ""
    for i, letter in enumerate(written):
        gone = delete[i]
        left = previous[0] + gone
        current = [left]
        low = left
        for j in range(1, m + 1):
            meant = known[j - 1]
            best = previous[j - 1]
            if letter != meant:
                best += cheap.get((letter, meant), EDIT)
            other = previous[j] + gone
            if other < best:
                best = other
            other = left + insert[j - 1]
            if other < best:
                best = other
            if j > 1 and letter != last and last == meant and letter == known[j - 2]:
                other = before[j - 2] + SWAP
                if other < best:
                    best = other
            current.append(best)
            left = best
            if best < low:
                low = best
        if low > ceiling and previous_low > ceiling:
            return None
        before, previous, last, previous_low = previous, current, letter, low
    return previous


def typo_distance(
    written: str, known: str, *, prefix: bool = False, ceiling: float = float("inf")
) -> float:
    """How far `written` is from `known` as a slip of typing or spelling (0: the same).

    With `prefix`, `written` may be a slip in the beginning of `known` (names are accepted by
    a unique prefix): the distance to the best beginning at least as long as `written` less
    two letters (and at least three), plus a small charge, when that is nearer than the whole.
    Past `ceiling` the answer is only known to be farther: infinity.
    """
    row = _distances(written, known, ceiling)
    if row is None:
        return float("inf")
    whole = row[-1]
    if not prefix or len(known) <= len(written):
        return whole
    shortest = max(3, len(written) - 2)
    return min(whole, min(row[shortest:-1], default=whole) + PREFIX)


def allowed_distance(written: str, known: str) -> float:
    """The farthest `known` may be from `written` to be offered for it: about one slip in three
    letters of the shorter word, and always at least one."""
    return max(EDIT, min(len(written), len(known)) / 3)


def _same_start(written: str, known: str) -> bool:
    """Whether `known` may be what `written` meant, by their first letters: people seldom slip
    there, and when they do it is a sound-alike or neighbouring key, the first two letters
    swapped, or the first letter left out or doubled. Every other candidate is not measured."""
    first, meant = written[0], known[0]
    return (
        first == meant
        or (first, meant) in _CHEAP_PAIRS
        or (len(written) > 1 and written[1] == meant)
        or (len(known) > 1 and known[1] == first)
    )


@lru_cache(maxsize=4096)
def _letters(word: str) -> Counter[str]:
    return Counter(word)


def _lower_bound(have: Counter[str], known: str, *, prefix: bool) -> float:
    """A quick floor under `typo_distance` from the written word's letters `have`: every letter
    one word has and the other lacks costs at least the cheapest step (for a prefix, only the
    written letters count), and so does every letter of length between them."""
    want = _letters(known)
    extra = sum((have - want).values())
    if prefix:
        return _CHEAPEST * extra
    missing = sum((want - have).values())
    return _CHEAPEST * max(extra, missing)


def nearest(
    written: str,
    candidates: Mapping[str, str] | Iterable[str],
    *,
    limit: int = 3,
    prefix: bool = False,
    margin: float = MARGIN,
) -> list[str]:
    """The candidates nearest to `written`, nearest first, at most `limit` of them.

    `candidates` are compact spellings; a mapping from spelling to what it stands for (a
    province code for each of its names) counts each thing once, at its nearest spelling, and
    the things are returned. Only candidates within `allowed_distance` are offered, and none
    farther than `margin` beyond the nearest, so a clear best is not padded with far guesses.
    """
    scored = scored_nearest(written, candidates, prefix=prefix)
    if not scored:
        return []
    best = scored[0][0]
    return [meant for distance, meant in scored[:limit] if distance <= best + margin]


def scored_nearest(
    written: str, candidates: Mapping[str, str] | Iterable[str], *, prefix: bool = False
) -> list[tuple[float, str]]:
    """Every candidate within `allowed_distance` of `written` with its distance, nearest first
    (each thing a mapping stands for once, at its nearest spelling)."""
    if not written:
        return []
    spellings = candidates if isinstance(candidates, Mapping) else {c: c for c in candidates}
    have = Counter(written)
    scored: dict[str, float] = {}
    for spelling, meant in spellings.items():
        if not spelling or not _same_start(written, spelling):
            continue
        ceiling = allowed_distance(written, spelling)
        if _lower_bound(have, spelling, prefix=prefix) > ceiling:
            continue
        distance = typo_distance(written, spelling, prefix=prefix, ceiling=ceiling)
        if distance <= ceiling and distance < scored.get(meant, float("inf")):
            scored[meant] = distance
    return sorted((d, meant) for meant, d in scored.items())
