"""A scanner for the order notations most lines are written in, ahead of the LALR parser.

``A Par - Bur``, ``F BRE-MAO``, ``A Lon - Nwy via convoy``, ``A Par H``, ``A Mun S A Ber - Sil``,
``A Mun S A Ber``, ``F NTH C A LON - NWY``, ``F StP/sc - Bot``, ``F Spa(nc) - Mao``, the unit type written or
left out, in any letter case and spacing: one regular expression match, each name a lookup in
the map's NameTable. It yields exactly the Order the grammar (grammar/orders.lark through
judge/language/orders.py) yields for the same line, and it never makes an error: a line it
does not take whole (another notation, a keyword where a name should be, a name that does not
resolve, a word the grammar's lexer would cut otherwise, a hyphenated name such as
Mid-Atlantic) returns None, and the parser reads it and words any error.
tests/language/test_order_fast_scanner.py runs every order text of the tests through both.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from judge.engine.geography import Map
from judge.engine.orders import ARMY, FLEET, Convoy, Hold, Move, Order, Support
from judge.language.names import NameLookupError, NameTable

# Every keyword of the grammar, as a whole word in lower case: such a word is never a name
# here (the grammar's lexer makes it a keyword), so a line with one where a name stands is
# left to the parser. "by" and "move"/"to" are keywords only in some places; left out anyway.
KEYWORDS = frozenset(
    [
        "army",
        "fleet",
        "a",
        "f",
        "hold",
        "holds",
        "h",
        "stand",
        "stands",
        "via",
        "by",
        "support",
        "supports",
        "s",
        "convoy",
        "convoys",
        "c",
        "retreat",
        "retreats",
        "r",
        "disband",
        "disbands",
        "d",
        "remove",
        "removes",
        "build",
        "builds",
        "b",
        "waive",
        "waives",
        "move",
        "moves",
        "to",
    ]
)

# A name word: ASCII letters. The grammar's WORD terminal takes the same word whole, since
# what the expression lets follow a word (a blank, "-", "/", "(", ")", the end) is none of the
# characters WORD goes on with (letters, digits, "_", ".", "'").
_W = r"([A-Za-z]+)"
# A location: a word, perhaps with a coast as "/sc" or "(sc)".
_LOC = rf"{_W}(?:\s*/\s*{_W}|\s*\(\s*{_W}\s*\))?"
_UNIT = r"(?:([AaFf]|[Aa][Rr][Mm][Yy]|[Ff][Ll][Ee][Ee][Tt])\s+)?"
_TAIL = (
    r"(?:"
    r"\s*(-)\s*"
    + _LOC  # move, perhaps "via convoy" (the grammar's VIA: "via" or "by", then "convoy")
    + r"(?:\s+((?:[Vv][Ii][Aa]|[Bb][Yy])\s+[Cc][Oo][Nn][Vv][Oo][Yy]))?"
    + r"|\s+([SsCc])\s+"
    + _UNIT
    + _LOC
    + r"(?:\s*-\s*"
    + _LOC
    + r")?"  # support / convoy
    + r"|\s+([Hh])"  # hold (the second H group: a lone H after the unit)
    + r")\s*"
)
# A unit type written as a word of its own (the scanner's _UNIT, followed by a blank).
_UNIT_WORDS = {"a": ARMY, "army": ARMY, "f": FLEET, "fleet": FLEET}
_VIA = ("via", "by")  # the first word of the grammar's VIA, before "convoy"
_WORDS_LIMIT = 20_000  # names remembered per map (single words)
_LINES_LIMIT = 20_000  # whole lines remembered per map with the order each says
_ORDER = re.compile(r"\s*" + _UNIT + _LOC + _TAIL)


class FastScanner:
    """The common notations of one map's orders, read without the LALR parser."""

    def __init__(self, table: NameTable, game_map: Map) -> None:
        self._location: Callable[..., str] = table.location
        # Written word -> location, for words already found to be names and no keyword (a
        # name table's own cache may hold any word a caller resolved, "S" included).
        self._words: dict[str, str] = {}
        # Line -> the order it says, for lines read before: a game's lines recur phase after
        # phase ("A Par - Bur"). An order value is never changed once made, so one serves all.
        self._lines: dict[str, Order] = {}
        self._match = _ORDER.fullmatch
        # Hyphenated names (Mid-Atlantic): the parser glues them before lexing, so a line
        # that holds one, in any letter case, is left to it.
        self._hyphenated = tuple(
            sorted(
                {
                    word
                    for prov in game_map.provinces.values()
                    for spelled in (prov.name, *prov.aliases)
                    for word in spelled.lower().split()  # as NameTable finds them
                    if "-" in word
                }
            )
        )

    def _loc(self, word: str, coast: str | None) -> str:
        """The location written `word` (with `coast`); raises NameLookupError or KeyError."""
        if coast is None:
            known = self._words.get(word)
            if known is not None:
                return known
            if word.lower() in KEYWORDS:
                raise KeyError(word)
            loc = self._location([word])
            if len(self._words) < _WORDS_LIMIT:
                self._words[word] = loc
            return loc
        key = f"{word}/{coast}"  # never a word the expression takes: it has a "/"
        known = self._words.get(key)
        if known is not None:
            return known
        if word.lower() in KEYWORDS or coast.lower() in KEYWORDS:
            raise KeyError(word)
        loc = self._location([word], (coast,))
        if len(self._words) < _WORDS_LIMIT:
            self._words[key] = loc
        return loc

    def scan(self, line: str) -> Order | None:
        """The order `line` says, or None where the parser must read it."""
        known = self._lines.get(line)
        if known is not None:
            return known
        order = self._scan(line)
        if order is not None and len(self._lines) < _LINES_LIMIT:
            self._lines[line] = order
        return order

    def _scan(self, line: str) -> Order | None:
        quick = self._scan_words(line.split())
        if quick is not None:
            return quick
        m = self._match(line)
        if m is None:
            return None
        if self._hyphenated and "-" in line:
            lowered = line.lower()
            for name in self._hyphenated:
                if name in lowered:
                    return None
        (
            unit,
            word,
            coast_a,
            coast_b,
            move_op,
            dest_word,
            dest_a,
            dest_b,
            via,
            verb,
            target_unit,
            target_word,
            target_a,
            target_b,
            to_word,
            to_a,
            to_b,
            hold,
        ) = m.groups()
        if unit is not None and unit.lower() in ("a", "army"):
            unit_type: str | None = ARMY
        elif unit is not None:
            unit_type = FLEET
        else:
            unit_type = None
        loc_ = self._loc
        words = self._words
        try:
            loc = words.get(word) if coast_a is None and coast_b is None else None
            if loc is None:
                loc = loc_(word, coast_a or coast_b)
            if move_op is not None:
                dest = words.get(dest_word) if dest_a is None and dest_b is None else None
                if dest is None:
                    dest = loc_(dest_word, dest_a or dest_b)
                return Move(unit_type, loc, dest, via is not None)
            if hold is not None:
                return Hold(unit_type, loc)
            target = loc_(target_word, target_a or target_b)
            if target_unit is None:
                target_type = None
            else:
                target_type = ARMY if target_unit.lower() in ("a", "army") else FLEET
            dest = None if to_word is None else loc_(to_word, to_a or to_b)
        except (NameLookupError, KeyError):
            return None
        kind = verb.lower()
        if kind == "s":
            return Support(unit_type, loc, target_type, target, dest)
        if kind == "c" and dest is not None:
            return Convoy(unit_type, loc, target, dest)
        return None  # a convoy needs its destination: "F Nth C A Lon" is the parser's to refuse

    def _scan_words(self, tokens: list[str]) -> Order | None:
        """The most common lines, blank-separated words of names met before, without the
        regular expression: ``A Par - Bur``, ``A Lon - Nwy via convoy``, ``A Par H``, ``A Mun S A Ber - Sil``, ``F Nth C
        A Lon - Nwy``, the unit types left out or not. A word (or ``word/coast``) counts as a
        location only when the expression already took it as one (it is then in `_words`,
        never a keyword), so this gives what the expression gives, or None to let it look."""
        words = self._words
        count = len(tokens)
        if count < 2:
            return None
        first = 0
        unit_type = _UNIT_WORDS.get(tokens[0].lower())
        if unit_type is not None:
            first = 1
        loc = words.get(tokens[first])
        if loc is None:
            return None
        rest = count - first
        if rest < 2:
            return None
        if rest == 2:
            hold = tokens[first + 1]
            return Hold(unit_type, loc) if hold == "H" or hold == "h" else None
        if rest == 3 or rest == 5:
            if tokens[first + 1] != "-":
                return None
            dest = words.get(tokens[first + 2])
            if dest is None:
                return None
            if rest == 3:
                return Move(unit_type, loc, dest, False)
            # "A Lon - Nwy via convoy" (the grammar's VIA: "via" or "by", then "convoy")
            if tokens[first + 3].lower() in _VIA and tokens[first + 4].lower() == "convoy":
                return Move(unit_type, loc, dest, True)
            return None
        verb = tokens[first + 1]
        if verb == "S" or verb == "s":
            support = True
        elif verb == "C" or verb == "c":
            support = False
        else:
            return None
        at = first + 2
        target_type = _UNIT_WORDS.get(tokens[at].lower())
        if target_type is not None:
            at += 1
        if at >= count:
            return None
        target = words.get(tokens[at])
        if target is None:
            return None
        at += 1
        if at == count:
            return Support(unit_type, loc, target_type, target, None) if support else None
        if at + 2 != count or tokens[at] != "-":
            return None
        to = words.get(tokens[at + 1])
        if to is None:
            return None
        if support:
            return Support(unit_type, loc, target_type, target, to)
        return Convoy(unit_type, loc, target, to)
