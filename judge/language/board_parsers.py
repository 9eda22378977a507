"""A variant's order parser for each board: its grammar (grammar/NAME.lark, which imports
grammar/orders.lark), LALR, with the values built during the parse by a transformer that knows
the board's names, and the lean loop over Lark's tables that the standard reader runs
(judge/language/orders.py), made once per board and forgotten with it.

Mercator, 1885 and Mercenary each keep one `BoardParsers`; what differs is the grammar, the
transformer and the lexer.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable
from typing import Any

from judge.engine.geography import Map
from judge.language.names import NameTable, name_table
from judge.language.orders import FastLALR
from judge.resources import data_dir

# (lark.Transformer) -> the variant's transformer class, whose constructor takes the board's
# name table. Lark is imported on first use, so a process that never reads a variant's orders
# never loads it for the variant.
TransformerMaker = Callable[[type], Callable[[NameTable], Any]]


class BoardParsers:
    """The parsers of grammar/`grammar`.lark, one per board, each `(lark, fast)`: `lark` the
    parser itself, `fast` the lean loop over its tables (one that takes no line where it cannot
    read them, or with the contextual lexer, which it does not run)."""

    def __init__(
        self, grammar: str, transformer: TransformerMaker, *, lexer: str = "basic"
    ) -> None:
        self.grammar = grammar
        self._transformer = transformer
        self._lexer = lexer
        self._made: dict[int, tuple[weakref.ref[Map], tuple[Any, FastLALR]]] = {}
        self._lock = threading.Lock()

    def __call__(self, game_map: Map) -> tuple[Any, FastLALR]:
        entry = self._made.get(id(game_map))
        if entry is not None and entry[0]() is game_map:
            return entry[1]
        from lark import Lark, Transformer

        folder = data_dir("grammar")
        table = name_table(game_map)
        lark = Lark(
            (folder / f"{self.grammar}.lark").read_text(encoding="utf-8"),
            parser="lalr",
            lexer=self._lexer,
            transformer=self._transformer(Transformer)(table),
            import_paths=[str(folder)],
            propagate_positions=False,
            maybe_placeholders=False,
        )
        fast = self._fast(lark, table)
        key = id(game_map)
        made = self._made
        with self._lock:
            made[key] = (weakref.ref(game_map, lambda _r: made.pop(key, None)), (lark, fast))
        return lark, fast

    def _fast(self, lark: Any, table: NameTable) -> FastLALR:
        """The lean loop, or one that takes no line (Lark's own front end for every line:
        slower, the same) where it cannot read the tables or the lexer is not the basic one."""
        if self._lexer == "basic":
            try:
                return FastLALR(lark, table.hyphen_re)
            except (AttributeError, KeyError, TypeError, ValueError, re.error):
                pass
        return FastLALR.disabled()
