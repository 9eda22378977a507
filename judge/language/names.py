"""Province, coast and power names as players write them, resolved against one map.

Players write codes (``Nth``), full names (``North Sea``), aliases (``Norsea``), unique prefixes
of full names (``Norweg``), in any case, with dots, hyphens and extra spaces. A name is compared
in a compact form: lower case, letters and digits only. The tables are built once per map.
"""

from __future__ import annotations

# _thread: threading's Lock without importing threading, at every start of `judge adjudicate`.
import _thread
import bisect
import re
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from judge.engine.geography import Map

_LONGEST_NAME = 6  # words; a longer run is looked at no further (a line of garbage stays cheap)
MIN_PREFIX = 3  # shorter prefixes are too easily a typo for something else
_CACHE_LIMIT = 20_000  # resolved spellings remembered per map (names only, never whole orders)

# Coast codes whose words players spell out: "north coast", "north", "n coast".
_COAST_WORDS = {"nc": "north", "sc": "south", "ec": "east", "wc": "west"}
_NOT_ALNUM = re.compile(r"[\W_]+")
_NAME_WORD_BREAK = re.compile(r"[\s\-_.]+")
_BLANKS = re.compile(r"\s+")
_SMALL_WORDS = frozenset({"of", "the"})


def compact(text: str) -> str:
    """The form names are compared in: ``"St. Petersburg"`` -> ``"stpetersburg"``."""
    return _NOT_ALNUM.sub("", text).lower()


class NameLookupError(ValueError):
    """A name that does not resolve; `expected` lists what would have been accepted."""

    def __init__(self, message: str, expected: tuple[str, ...] = (), word_index: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.expected = expected
        self.word_index = word_index  # which written word the fault starts at


class UnknownName(NameLookupError):
    """No province (or coast, or power) of this map is called that."""


class AmbiguousName(NameLookupError):
    """The name fits two or more provinces: the player must say which."""


@dataclass(frozen=True, slots=True)
class _Ambiguous:
    codes: tuple[str, ...]


def _join_names(names: Sequence[str]) -> str:
    if len(names) == 2:
        return f"both {names[0]} and {names[1]}"
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def _name_variants(name: str) -> set[str]:
    """Compact spellings of one full name: as written, without "of"/"the", "St" as "Saint"."""
    words = _NAME_WORD_BREAK.split(name.lower())
    words = [w for w in words if w]
    out = {compact(name), compact("".join(w for w in words if w not in _SMALL_WORDS))}
    if words and words[0] in ("st", "saint"):
        rest = "".join(words[1:])
        out.update({"st" + rest, "saint" + rest})
    return {v for v in out if v}


class NameTable:
    """Every way this map's provinces, coasts and powers may be written, and how to resolve them."""

    def __init__(self, game_map: Map) -> None:
        self.map_name = game_map.name
        self.display: dict[str, str] = {code: p.name for code, p in game_map.provinces.items()}
        self.coasts: dict[str, tuple[str, ...]] = {
            code: tuple(p.coasts) for code, p in game_map.provinces.items()
        }
        exact: dict[str, set[str]] = {}
        full: dict[str, set[str]] = {}
        hyphenated: set[str] = set()
        for code, prov in game_map.provinces.items():
            exact.setdefault(compact(code), set()).add(code)
            for spelled in (prov.name, *prov.aliases):
                for key in _name_variants(spelled):
                    exact.setdefault(key, set()).add(code)
                hyphenated.update(w for w in _BLANKS.split(spelled.lower()) if "-" in w)
            for key in _name_variants(prov.name):
                full.setdefault(key, set()).add(code)
        self._exact: dict[str, str | _Ambiguous] = {
            k: next(iter(v)) if len(v) == 1 else _Ambiguous(tuple(sorted(v)))
            for k, v in exact.items()
        }
        self._full_keys: list[str] = sorted(full)
        self._full_codes: list[frozenset[str]] = [frozenset(full[k]) for k in self._full_keys]
        # Every spelling of every province, compact, for the nearest names to an unknown one.
        self._suggest_pool: dict[str, str] = {}
        for code, prov in game_map.provinces.items():
            self._suggest_pool[compact(code)] = code
            for spelled in (prov.name, *prov.aliases):
                for key in _name_variants(spelled):
                    self._suggest_pool.setdefault(key, code)

        all_coasts = {c for cs in self.coasts.values() for c in cs}
        self._coast_keys: dict[str, str] = {}
        for coast in sorted(all_coasts):
            self._coast_keys[compact(coast)] = coast
            word = _COAST_WORDS.get(coast)
            if word:
                for key in (word + "coast", word, word[0] + "coast"):
                    self._coast_keys.setdefault(key, coast)
        self._coast_pairs = {k for k in self._coast_keys if k.endswith("coast") and len(k) > 5}

        # Hyphenated name words ("mid-atlantic") are glued before lexing, so "-" stays a move.
        self.hyphen_re: re.Pattern[str] | None = None
        if hyphenated:
            alternatives = "|".join(re.escape(w) for w in sorted(hyphenated, key=len, reverse=True))
            self.hyphen_re = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)

        self.powers: dict[str, str] = {}
        power_pool: dict[str, set[str]] = {}
        for name, power in game_map.powers.items():
            for spelled in (name, power.adjective, power.letter, name[:3]):
                if spelled:
                    power_pool.setdefault(compact(spelled), set()).add(name)
        self.powers = {k: next(iter(v)) for k, v in power_pool.items() if len(v) == 1}
        self.power_names: tuple[str, ...] = tuple(sorted(game_map.powers))
        self._cache: dict[str, str] = {}
        # The names suggested for each unknown spelling (a reader may try a spelling twice).
        self._suggested: dict[str, tuple[str, ...]] = {}
        self.known_locations = self._cache  # read directly by the parser's name callback
        self._lock = _thread.allocate_lock()

    # --- provinces ------------------------------------------------------------------------------
    def province(self, written: str) -> str:
        """The province code for one written name; raises UnknownName or AmbiguousName."""
        found = self._lookup(written)
        if type(found) is str:
            return found
        raise self._fault(written, found)

    def _lookup(self, written: str) -> str | tuple[str, ...]:
        """A code, or the codes it could be (none: unknown; several: ambiguous). Never raises,
        so trying a spelling that turns out wrong costs no message."""
        key = compact(written)
        found = self._exact.get(key)
        if isinstance(found, str):
            return found
        if isinstance(found, _Ambiguous):
            return found.codes
        codes = self._by_prefix(key)
        if len(codes) == 1:
            return next(iter(codes))
        return tuple(sorted(codes))

    def _fault(self, written: str, codes: tuple[str, ...]) -> NameLookupError:
        return self._ambiguous(written, codes) if codes else self._unknown(written)

    def _by_prefix(self, key: str) -> set[str]:
        if len(key) < MIN_PREFIX:
            return set()
        i = bisect.bisect_left(self._full_keys, key)
        codes: set[str] = set()
        while i < len(self._full_keys) and self._full_keys[i].startswith(key):
            codes |= self._full_codes[i]
            i += 1
        return codes

    def _ambiguous(self, written: str, codes: tuple[str, ...]) -> AmbiguousName:
        names = sorted(self.display[c] for c in codes)
        return AmbiguousName(f"{written!r} matches {_join_names(names)}", tuple(names))

    def _unknown(self, written: str) -> UnknownName:
        """No such province: say so, with the names nearest to it as people mistype
        (judge.language.spelling: Galicya is Galicia, not the Baltic Sea)."""
        key = compact(written)
        names = self._suggested.get(key)
        if names is None:
            from judge.language.spelling import nearest  # a misspelling's path only

            names = tuple(self.display[c] for c in nearest(key, self._suggest_pool, prefix=True))
            if len(self._suggested) < _CACHE_LIMIT:
                with self._lock:
                    self._suggested[key] = names
        hint = f" (did you mean {', '.join(names)}?)" if names else ""
        return UnknownName(f"found {written!r}{hint}", names or ("a province",))

    # --- locations (province plus coast) ---------------------------------------------------------
    def location(self, words: Sequence[str], coast_words: Sequence[str] = ()) -> str:
        """``["St", "Petersburg"], ["nc"]`` -> ``"stp/nc"``; coast words may also end `words`.

        Resolved spellings are remembered per map, so a game's thousandth ``Nth`` costs a dict
        lookup.
        """
        key = " ".join(words)
        if coast_words:
            key += " / " + " ".join(coast_words)
        loc = self._cache.get(key)
        if loc is not None:
            return loc
        loc = self._resolve_location(words, coast_words)
        if len(self._cache) < _CACHE_LIMIT:
            with self._lock:
                self._cache[key] = loc
        return loc

    def _resolve_location(self, words: Sequence[str], coast_words: Sequence[str]) -> str:
        written = " ".join(words)
        if coast_words:
            return self._with_coast(self.province(written), " ".join(coast_words))
        whole = self._lookup(written)
        if type(whole) is str:
            return whole
        split = self._split_coast(words)
        if split is not None:  # "Spain north coast", "StP nc"
            head = " ".join(split[0])
            prov = self._lookup(head)
            if type(prov) is str:
                return self._with_coast(prov, split[1])
            if prov:  # "Liv nc": the name itself is the trouble
                raise self._ambiguous(head, prov)
        if not whole and len(words) > 1:
            self._explain_run(words)
        raise self._fault(written, whole)

    def _explain_run(self, words: Sequence[str]) -> None:
        """Explain "Par Bur": say which words make a province and which word does not belong."""
        for cut in range(min(len(words) - 1, _LONGEST_NAME), 0, -1):
            head = " ".join(words[:cut])
            prov = self._lookup(head)
            if type(prov) is not str:
                continue
            rest = " ".join(words[cut:])
            raise UnknownName(
                f"{head!r} is {self.display[prov]}, and {rest!r} after it is no part of that name "
                "(a '-' or an order word missing?)",
                ("a province",),
                word_index=cut,
            )

    def _split_coast(self, words: Sequence[str]) -> tuple[Sequence[str], str] | None:
        if len(words) >= 3 and compact(words[-2] + words[-1]) in self._coast_pairs:
            return words[:-2], words[-2] + " " + words[-1]
        if len(words) >= 2 and compact(words[-1]) in self._coast_keys:
            return words[:-1], words[-1]
        return None

    def _with_coast(self, prov: str, written_coast: str) -> str:
        coasts = self.coasts[prov]
        coast = self._coast_keys.get(compact(written_coast))
        if coast in coasts:
            return f"{prov}/{coast}"
        name = self.display[prov]
        if not coasts:
            raise UnknownName(f"{name} has no coasts to choose from, found {written_coast!r}")
        listed = _join_names([coast_name(c) for c in coasts]).removeprefix("both ")
        raise UnknownName(
            f"{name} has no coast {written_coast!r}; its coasts are {listed}",
            tuple(coast_name(c) for c in coasts),
        )

    # --- powers ----------------------------------------------------------------------------------
    def power(self, written: str) -> str:
        """The power's name (``"ENGLAND"``) for ``England``, ``English``, ``Eng`` or ``E``."""
        found = self.powers.get(compact(written))
        if found is None:
            raise UnknownName(
                f"{written!r} is not a power of this game ({', '.join(self.power_names)})",
                self.power_names,
            )
        return found


def coast_name(coast: str) -> str:
    """``"nc"`` -> ``"north coast"``; a coast code without a known spelling stays as it is."""
    word = _COAST_WORDS.get(coast)
    return f"{word} coast" if word else coast


_TABLES: dict[int, tuple[weakref.ref[Map], NameTable]] = {}
_TABLES_LOCK = _thread.allocate_lock()


def name_table(game_map: Map) -> NameTable:
    """The NameTable of `game_map`, built on first use and kept while the map lives."""
    entry = _TABLES.get(id(game_map))
    if entry is not None and entry[0]() is game_map:
        return entry[1]
    table = NameTable(game_map)
    key = id(game_map)
    with _TABLES_LOCK:
        _TABLES[key] = (weakref.ref(game_map, lambda _ref: _TABLES.pop(key, None)), table)
    return table
