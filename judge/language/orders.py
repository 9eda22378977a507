"""Reading order lines into order values: grammar/orders.lark, resolved against one map.

The parse is LALR with the order values built during the parse (a Transformer handed to Lark),
so no tree is made. Names are single WORD tokens looked up in the map's NameTable, which keeps
the grammar the same for every map. Lark builds the tables; a lean loop (_FastLALR) runs them
for well-formed lines, and Lark's own front end reads the rest and words the errors. The
engine only ever sees the values.
"""

from __future__ import annotations

# _thread: threading's Lock without importing threading, at every start of `judge adjudicate`.
import _thread
import re
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from judge.engine.geography import Map
from judge.engine.orders import (
    ARMY,
    FLEET,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    Support,
    Waive,
)
from judge.language.errors import OrderError, OrderSyntaxError
from judge.language.fast_orders import FastScanner
from judge.language.names import AmbiguousName, NameLookupError, NameTable, name_table
from judge.resources import data_dir

if TYPE_CHECKING:
    from lark import Lark, Token
    from lark.exceptions import UnexpectedInput

# Lark is imported, and a map's parser built, only when a line first needs it: most lines are
# read by the scanner of judge/language/fast_orders.py, and `judge adjudicate --batch` then
# starts without Lark's 50 ms or so. The names below are Lark's, for callers of this module.
_LARK_NAMES = {
    "Lark": "lark",
    "Token": "lark",
    "Transformer": "lark",
    "UnexpectedInput": "lark.exceptions",
    "UnexpectedCharacters": "lark.exceptions",
    "UnexpectedToken": "lark.exceptions",
}


def __getattr__(name: str) -> Any:
    module = _LARK_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)


__all__ = [
    "OrderError",
    "OrderSyntaxError",
    "ParsedLine",
    "is_comment",
    "order_reader",
    "parse_line",
    "parse_order",
    "parse_orders",
]

_COMMENT_PREFIXES = ("#", "//", ";")

# How each terminal of the grammar is named to a player, in the order they are listed.
_EXPECTED_WORDS: dict[str, str] = {
    "WORD": "a province",
    "UNIT_TYPE": "A or F",
    "HOLD": "H",
    "MOVE_OP": "-",
    "SUPPORT": "S",
    "CONVOY": "C",
    "RETREAT": "R",
    "DISBAND": "D",
    "REMOVE": "remove",
    "BUILD": "B",
    "WAIVE": "waive",
    "VIA": "via convoy",
    "SLASH": "/",
    "LPAR": "(",
    "RPAR": ")",
    "COLON": ":",
    # Mercator's army/fleet orders (grammar/mercator.lark)
    "UNIT_KIND": "A, F or A/F",
    "LAND": "L",
    "BOARD": "B",
    "EMBARK": "E",
    "DISEMBARK": "D",
    "FERRY": "F/F",
    "AND": "&",
    "SPARE": "spare",
    "COMMA": ",",
    # 1885's (grammar/v1885.lark; IF is Mercenary's word too, below)
    "CHOOSE": "choose",
    "BUILD_WORD": "build",
    "UNLESS": "unless",
    "SEP": ";",
    # Mercenary's money lines (grammar/mercenary.lark)
    "SUM": "a sum of pounds",
    "PAY": "PAY",
    "PAYS": "PAYS",
    "BID": "BID",
    "CONVERT": "CONVERT",
    "ALLIANCE": "ALLIANCE OF CURRENCY",
    "LEAVE": "LEAVE",
    "IF": "IF",
    "TO": "TO",
    "ON": "ON",
    "WITH": "WITH",
    "POUNDS": "pounds",
    "$END": "end of line",
}
_EXPECTED_RANK = {word: i for i, word in enumerate(dict.fromkeys(_EXPECTED_WORDS.values()))}
_LAST_TOKEN = re.compile(r"([-\u2013\u2014\u2212]+>?|=+>|[>\u2192():/,]|[^\W\d_][\w.']*)\s*$")


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """One non-blank, non-comment line: its order, or the error that stopped it.

    `power` is the power the line was prefixed with (``England: F Lon - Nth``, ``ENG F Lon-Nth``),
    as the map names it (``"ENGLAND"``), for the caller to check against the sender; None when
    the line names none. A prefix that is no power of the map is an error of the line.
    """

    line_no: int
    text: str
    power: str | None
    order: Order | None
    error: OrderError | None


class _NameFault(Exception):
    """A name that did not resolve, with the column of its first word (message finished later).

    The fast path hands the callbacks plain strings, so its faults carry column 0; the line then
    goes through Lark's own front end, whose tokens know their columns.
    """

    def __init__(self, fault: NameLookupError, column: int, what: str) -> None:
        super().__init__(fault.message)
        self.fault = fault
        self.column = column
        self.what = what


def _column(word: str) -> int:
    return getattr(word, "column", 0)


def _unit_letter(token: str) -> str:
    return ARMY if token[0] in "aA" else FLEET


class _BuilderCallbacks:
    """Grammar callbacks: each rule's children -> a value; names resolved through `table`.

    Made a Lark Transformer by `_builder` (Lark is imported only when first needed).
    """

    def __init__(self, table: NameTable) -> None:
        super().__init__(visit_tokens=False)  # type: ignore[call-arg]  # Transformer's
        self.table = table
        self._location: Callable[..., str] = table.location
        self._known = table.known_locations  # written word -> location, filled as names resolve

    # --- locations and units ---------------------------------------------------------------------
    def coast(self, children: list[Token]) -> tuple[str, ...]:
        return tuple(children)

    def word_loc(self, children: list[Any]) -> str:
        """A one-word name, the common case: most often already resolved once."""
        known = self._known.get(children[0])
        return known if known is not None else self.loc(children)

    def loc(self, children: list[Any]) -> str:
        last = children[-1]
        try:
            if type(last) is tuple:
                return self._location(children[:-1], last)
            return self._location(children)
        except NameLookupError as fault:
            raise _NameFault(fault, _column(children[fault.word_index]), "a province") from None

    def unit(self, children: list[Any]) -> tuple[str | None, str]:
        if len(children) == 1:
            return None, children[0]
        return _unit_letter(children[0]), children[1]

    # --- actions: (kind, arguments) completed by the unit they follow ------------------------
    def hold(self, _children: list[Any]) -> tuple[Any, ...]:
        return (Hold,)

    # Children keep their keyword tokens (no child filter to run): [MOVE_OP, loc, VIA] etc.
    def move(self, children: list[Any]) -> tuple[Any, ...]:
        return (Move, children[1], False)

    def move_via(self, children: list[Any]) -> tuple[Any, ...]:
        return (Move, children[1], True)

    def move_route(self, children: list[Any]) -> tuple[Any, ...]:
        # A Lon - Nth - Nwy: the route names the convoying seas; the destination comes last.
        # Pairs of (MOVE_OP, loc), then perhaps VIA: an odd count means VIA ends the list.
        return (Move, children[-2] if len(children) % 2 else children[-1], True)

    def support_hold(self, children: list[Any]) -> tuple[Any, ...]:
        return (Support, children[1], None)

    def support_move(self, children: list[Any]) -> tuple[Any, ...]:
        return (Support, children[1], children[3])

    def convoy(self, children: list[Any]) -> tuple[Any, ...]:
        return (Convoy, children[1], children[3])

    def retreat(self, children: list[Any]) -> tuple[Any, ...]:
        return (Retreat, children[-1])

    def disband(self, _children: list[Any]) -> tuple[Any, ...]:
        return (Disband,)

    def build(self, _children: list[Any]) -> tuple[Any, ...]:
        return (Build,)

    # --- whole orders --------------------------------------------------------------------------
    def unit_order(self, children: list[Any]) -> Order:
        return _complete(_unit_letter(children[0]), children[1], children[2])

    def bare_order(self, children: list[Any]) -> Order:
        return _complete(None, children[0], children[1])

    def line_unit_order(self, children: list[Any]) -> tuple[str | None, Order]:
        return None, _complete(_unit_letter(children[0]), children[1], children[2])

    def line_bare_order(self, children: list[Any]) -> tuple[str | None, Order]:
        return None, _complete(None, children[0], children[1])

    def build_first(self, children: list[Any]) -> Order:
        unit_type, loc = children[1]
        return Build(unit_type, loc)

    def disband_first(self, children: list[Any]) -> Order:
        unit_type, loc = children[1]
        return Disband(unit_type, loc)

    def waive(self, _children: list[Any]) -> Order:
        return Waive()

    # --- the line: an order, perhaps after the power that gives it ------------------------------
    def start(self, children: list[Any]) -> tuple[str | None, Order]:
        return None, children[0]

    def _power(self, token: Token) -> str:
        try:
            return self.table.power(str(token))
        except NameLookupError as fault:
            raise _NameFault(fault, _column(token), "a power") from None

    def with_power(self, children: list[Any]) -> tuple[str | None, Order]:
        return self._power(children[0]), children[1]

    def with_power_build(self, children: list[Any]) -> tuple[str | None, Order]:
        unit_type, loc = children[2]
        return self._power(children[0]), Build(unit_type, loc)

    def with_power_waive(self, children: list[Any]) -> tuple[str | None, Order]:
        return self._power(children[0]), Waive()


_BUILDER: list[type] = []  # the Transformer class, made once


def _builder(table: NameTable) -> Any:
    if not _BUILDER:
        from lark import Transformer

        _BUILDER.append(type("_Builder", (_BuilderCallbacks, Transformer), {}))
    return _BUILDER[0](table)


def _complete(unit_type: str | None, loc: str, action: tuple[Any, ...]) -> Order:
    kind = action[0]
    if kind is Move:
        return Move(unit_type, loc, action[1], action[2])
    if kind is Hold:
        return Hold(unit_type, loc)
    if kind is Support:
        target_type, target = action[1]
        return Support(unit_type, loc, target_type, target, action[2])
    if kind is Convoy:
        return Convoy(unit_type, loc, action[1][1], action[2])
    if kind is Retreat:
        return Retreat(unit_type, loc, action[1])
    if kind is Disband:
        return Disband(unit_type, loc)
    return Build(unit_type, loc)


# --- the parser per map -------------------------------------------------------------------------
_FAILED = object()
_SKIP = ("skip",)  # the action of an ignored terminal in every row
_KINDS_LIMIT = 50_000  # distinct tokens whose terminal is remembered, per parser
_SPANS_BLANKS = re.compile(r" |\\s|\\t")  # in a terminal's regexp: it may take blanks inside
_WHITESPACE_SAMPLE = " \t\f\r\v\xa0\u2003\u3000"  # what findall steps over: Lark must ignore it too


class _FastLALR:
    """Runs the LALR table Lark built from grammar/orders.lark, with Lark's own rule callbacks.

    Lark's front end makes a Token object per token and hashes Rule objects on every reduction;
    on lines this short that is most of its time. Here one `findall` cuts the line into words
    (the WORD terminal, or a hyphenated name of the map) and the grammar's other terminals; each
    distinct token is classed once by Lark's own terminals, tried in the order its basic lexer
    tries them, and remembered; the table is flattened to plain dicts. A token Lark would cut
    differently (``H.`` is H then a full stop) or any line this path
    cannot take goes through `Lark.parse`, which raises the error a player sees. tests/language
    checks the two agree.
    """

    def __init__(self, lark: Lark, hyphenated: re.Pattern[str] | None) -> None:
        from lark.parsers.lalr_analysis import Shift

        conf = lark.parse_interactive("").parser_state.parse_conf
        terminals = sorted(
            lark.terminals,
            key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
        )
        by_name = {t.name: t for t in terminals}
        ignore = frozenset(lark.ignore_tokens)
        blank = {
            t.name
            for t in terminals
            if t.name in ignore and re.fullmatch(t.pattern.to_regexp(), _WHITESPACE_SAMPLE)
        }
        kept = [t for t in terminals if t.name not in blank]
        # Blanks are left out of the alternatives. Where no terminal fits, the last
        # alternative takes the rest of the line as one token that no terminal classes (a lone
        # character could be classed wrongly: "." before a letter is no ignorable full stop).
        # Terminals that span blanks ("via convoy", "move to") come first, as Lark's order
        # has them before WORD; then WORD, so a word costs one alternative, not a dozen.
        spanning = [
            t for t in kept if t.name != "WORD" and _SPANS_BLANKS.search(t.pattern.to_regexp())
        ]
        pieces = [] if hyphenated is None else [hyphenated.pattern]
        pieces += [t.pattern.to_regexp() for t in spanning]
        pieces.append(by_name["WORD"].pattern.to_regexp())
        pieces += [t.pattern.to_regexp() for t in kept if t.name != "WORD" and t not in spanning]
        pieces.append(r"\S.*")  # nothing fits here: the rest of the line, which nothing classes
        flags = re.IGNORECASE if hyphenated is not None else 0
        # Blanks before a token are taken into its match (outside the one group findall returns),
        # so a blank costs no failed try of every alternative.
        cut = re.compile(r"\s*(" + "|".join(f"(?:{p})" for p in pieces) + ")", flags)
        self.enabled = bool(blank) and cut.groups == 1
        self._findall = cut.findall
        self._classify = re.compile(
            "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in kept)
        ).match
        self._hyphenated = hyphenated.fullmatch if hyphenated is not None else None
        self._kinds: dict[str, str] = {}
        self._ignore = ignore
        self._start = conf.start_state
        self._end = conf.end_state
        callbacks = conf.callbacks
        rows: dict[int, dict[str, Any]] = {state: {} for state in conf.states}
        for state, actions in conf.states.items():
            row = rows[state]
            for term, (action, arg) in actions.items():
                if action is Shift:
                    row[str(term)] = rows[arg]  # shift (or goto): the next state's own row
                elif not arg.expansion:
                    self.enabled = False  # an empty rule: this loop does not handle those
                else:
                    row[str(term)] = (len(arg.expansion), str(arg.origin.name), callbacks[arg])
            for name in ignore - blank:
                row[name] = _SKIP
        self._start_row = rows[conf.start_state]
        self._end_row = rows[conf.end_state]

    @classmethod
    def disabled(cls) -> _FastLALR:
        """A fast path that takes no line, for when Lark's tables cannot be read."""
        fast = cls.__new__(cls)
        fast.enabled = False
        return fast

    def _kind(self, token: str) -> str:
        """The terminal Lark's lexer makes of `token` ("" if it would cut it otherwise)."""
        match = self._classify(token)
        if match is not None and match.end() == len(token):
            kind = match.lastgroup or ""
        elif self._hyphenated is not None and self._hyphenated(token):
            kind = "WORD"  # Mid-Atlantic: the slow path glues it with "_" to the same effect
        else:
            kind = ""
        if len(self._kinds) < _KINDS_LIMIT and (kind or len(token) <= 20):
            self._kinds[token] = kind
        return kind

    def parse(self, text: str) -> Any:
        """The callbacks' value for `text`, or _FAILED where Lark must say what is wrong.

        The stack holds each state's row itself, so neither a shift nor a goto looks a state up.
        """
        if not self.enabled:
            return _FAILED
        kinds = self._kinds
        row = self._start_row
        rows = [row]
        values: list[Any] = []
        push_row = rows.append
        push_value = values.append
        for value in self._findall(text):
            kind = kinds.get(value)
            if kind is None:
                kind = self._kind(value)  # "" (no terminal) is in no row: the line fails below
            while True:
                action = row.get(kind)
                if type(action) is dict:  # shift
                    row = action
                    push_row(row)
                    push_value(value)
                    break
                if action is None:
                    return _FAILED
                if action is _SKIP:  # an ignored token: a full stop, a comma
                    break
                size, origin, callback = action
                children = values[-size:]
                del rows[-size:]
                del values[-size:]
                push_value(callback(children))
                row = rows[-1][origin]
                push_row(row)
        end_row = self._end_row
        while True:
            action = row.get("$END")
            if action is None or type(action) is dict or action is _SKIP:
                return _FAILED
            size, origin, callback = action
            children = values[-size:]
            del rows[-size:]
            del values[-size:]
            push_value(callback(children))
            row = rows[-1][origin]
            push_row(row)
            if row is end_row:
                return values[-1]


class _Parser:
    """A map's order readers: the scanner at once, Lark's parser and its fast loop when first
    asked for (a line the scanner leaves)."""

    __slots__ = ("scanner", "_table", "_lark", "_fast", "_lock")

    def __init__(self, table: NameTable, game_map: Map) -> None:
        self.scanner = FastScanner(table, game_map)
        self._table = table
        self._lark: Lark | None = None
        self._fast: _FastLALR | None = None
        self._lock = _thread.allocate_lock()

    def _build(self) -> None:
        with self._lock:
            if self._fast is None:
                self._lark, self._fast = _lark_parser(self._table)

    @property
    def lark(self) -> Lark:
        if self._fast is None:
            self._build()
        assert self._lark is not None
        return self._lark

    @property
    def fast(self) -> _FastLALR:
        fast = self._fast
        if fast is None:
            self._build()
            fast = self._fast
            assert fast is not None
        return fast


_GRAMMAR: str | None = None
_CONTEXTS_LOCK = _thread.allocate_lock()
# id(map) -> (the map, weakly; its name table; its parser): dropped when the map goes.
_CONTEXTS: dict[int, tuple[weakref.ref[Map], NameTable, _Parser]] = {}


def _grammar() -> str:
    global _GRAMMAR
    if _GRAMMAR is None:
        _GRAMMAR = (data_dir("grammar") / "orders.lark").read_text(encoding="utf-8")
    return _GRAMMAR


def _lark_parser(table: NameTable) -> tuple[Lark, _FastLALR]:
    """A parser that builds orders against `table` (about 40 ms: once per map, when needed)."""
    from lark import Lark

    lark = Lark(
        _grammar(),
        parser="lalr",
        lexer="basic",
        transformer=_builder(table),
        propagate_positions=False,
        maybe_placeholders=False,
    )
    try:
        fast = _FastLALR(lark, table.hyphen_re)
    except (AttributeError, KeyError, TypeError, ValueError, re.error):
        # A Lark release that arranges its tables otherwise: every line takes Lark's own
        # front end, slower but the same language (tests/language notices the change).
        fast = _FastLALR.disabled()
    return lark, fast


# --- entry points -------------------------------------------------------------------------------
def is_comment(line: str) -> bool:
    """Blank lines and comment lines (#, // or ;) carry no order."""
    stripped = line.strip()
    return not stripped or stripped.startswith(_COMMENT_PREFIXES)


def _parse(line: str, table: NameTable, parser: _Parser, line_no: int) -> tuple[str | None, Order]:
    scanned = parser.scanner.scan(line)
    if scanned is not None:
        return None, scanned
    from lark.exceptions import UnexpectedInput

    try:
        try:
            result = parser.fast.parse(line)
        except _NameFault as fault:
            if fault.column:
                raise
            result = _FAILED  # Lark's tokens carry the column the message needs
        if result is _FAILED:
            text = line
            if table.hyphen_re is not None and "-" in text:
                text = table.hyphen_re.sub(_glue_hyphen, text)  # same length: columns hold
            result = parser.lark.parse(text)
    except _NameFault as fault:
        raise OrderSyntaxError(_name_error(line, line_no, fault)) from None
    except UnexpectedInput as exc:
        raise OrderSyntaxError(_syntax_error(line, line_no, exc)) from None
    return result


def _glue_hyphen(match: re.Match[str]) -> str:
    return match.group().replace("-", "_")


def _context(game_map: Map) -> tuple[NameTable, _Parser]:
    """The map's name table and parser, found with one dict lookup on the hot path."""
    entry = _CONTEXTS.get(id(game_map))
    if entry is not None and entry[0]() is game_map:
        return entry[1], entry[2]
    table = name_table(game_map)
    parser = _Parser(table, game_map)
    key = id(game_map)
    with _CONTEXTS_LOCK:
        _CONTEXTS[key] = (
            weakref.ref(game_map, lambda _ref: _CONTEXTS.pop(key, None)),
            table,
            parser,
        )
    return table, parser


def parse_order(line: str, game_map: Map) -> Order:
    """One order string (``"F LON - NTH"``) -> its order value; raises OrderSyntaxError.

    `judge adjudicate --batch` calls this for every order, so the usual case (map seen before,
    line well formed) is written out here: one dict lookup, then the scanner of the common
    notations (judge/language/fast_orders.py), then the fast path over the LALR tables.
    """
    entry = _CONTEXTS.get(id(game_map))
    if entry is not None and entry[0]() is game_map:
        parser = entry[2]
        scanned = parser.scanner.scan(line)
        if scanned is not None:
            return scanned
        try:
            result = parser.fast.parse(line)
        except _NameFault:
            result = _FAILED
        if result is not _FAILED:
            return result[1]
    table, parser = _context(game_map)
    return _parse(line, table, parser, 1)[1]


def order_scanner(game_map: Map) -> Callable[[str], Order | None]:
    """The map's scanner of the common notations: a line's order, or None where only
    `parse_order` can read it (or word its error). For callers that read many lines and can
    do without `order_reader`'s extra call per line."""
    return _context(game_map)[1].scanner.scan


def order_reader(game_map: Map) -> Callable[[str], Order]:
    """`parse_order` for many lines of one map: the map's scanner and parser found once.

    The returned function takes a line and gives its order or raises OrderSyntaxError, exactly
    as ``parse_order(line, game_map)`` does.
    """
    _table, parser = _context(game_map)
    scan = parser.scanner.scan

    def read(line: str) -> Order:
        scanned = scan(line)
        if scanned is not None:
            return scanned
        return parse_order(line, game_map)

    return read


def parse_line(line: str, game_map: Map, line_no: int = 1) -> ParsedLine:
    """One line -> ParsedLine, with the error in it rather than raised."""
    table, parser = _context(game_map)
    return _parse_line(line, table, parser, line_no)


def _parse_line(line: str, table: NameTable, parser: _Parser, line_no: int) -> ParsedLine:
    try:
        power, order = _parse(line, table, parser, line_no)
    except OrderSyntaxError as exc:
        return ParsedLine(line_no, line, None, None, exc.error)
    return ParsedLine(line_no, line, power, order, None)


def parse_orders(text: str, game_map: Map) -> list[ParsedLine]:
    """Every non-blank, non-comment line of `text`, numbered from 1, parsed on its own."""
    table, parser = _context(game_map)
    out: list[ParsedLine] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        if is_comment(line):
            continue
        out.append(_parse_line(line.rstrip(), table, parser, line_no))
    return out


# --- errors a player can act on -----------------------------------------------------------------
def _before(line: str, column: int) -> str:
    """The token just before `column`, for "expected ... after '-'" (empty at the line start)."""
    match = _LAST_TOKEN.search(line[: column - 1])
    return match.group(1) if match else ""


def _name_error(line: str, line_no: int, fault: _NameFault) -> OrderError:
    inner = fault.fault
    if isinstance(inner, AmbiguousName) or not inner.message.startswith("found "):
        return OrderError(line_no, fault.column, inner.message, inner.expected)
    after = _before(line, fault.column)
    where = f" after {after!r}" if after else ""
    return OrderError(
        line_no, fault.column, f"expected {fault.what}{where}, {inner.message}", inner.expected
    )


def _describe(
    expected: set[str] | frozenset[str], names: Mapping[str, str] | None = None
) -> tuple[str, ...]:
    """The terminals as a player names them, in the table's order (`names`: a variant's own
    table, where its orders name things otherwise, as Algernon's spaces and portals)."""
    table = _EXPECTED_WORDS if names is None else names
    rank = (
        _EXPECTED_RANK
        if names is None
        else {w: i for i, w in enumerate(dict.fromkeys(table.values()))}
    )
    words = {table.get(name, name.lower()) for name in expected}
    if "D" in words:
        words.discard("remove")  # the same order as D; listing both only lengthens the line
    return tuple(sorted(words, key=lambda w: (rank.get(w, 99), w)))


def _join_or(words: tuple[str, ...]) -> str:
    shown = [w if w.startswith(("a ", "end ")) else repr(w) for w in words]
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def _acceptable(exc: UnexpectedInput) -> set[str] | None:
    """The terminals the parser would really have taken here (the LALR table lists more)."""
    interactive = getattr(exc, "interactive_parser", None)
    if interactive is None:
        return None
    try:
        return set(interactive.accepts())
    except Exception:  # the name callbacks may refuse a token while trying it: list the table's
        return None


def _syntax_error(
    line: str, line_no: int, exc: UnexpectedInput, names: Mapping[str, str] | None = None
) -> OrderError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedToken

    acceptable = _acceptable(exc)
    if isinstance(exc, UnexpectedToken):
        expected = _describe(acceptable if acceptable is not None else exc.expected, names)
        token = exc.token
        if token.type == "$END":
            column = len(line.rstrip()) + 1
            found = "the end of the line"
        else:
            column = token.column if isinstance(token.column, int) else 1
            found = repr(line[column - 1 : column - 1 + len(token)])
    elif isinstance(exc, UnexpectedCharacters):
        expected = _describe(
            acceptable if acceptable is not None else set(exc.allowed or ()), names
        )
        column = exc.column
        found = repr(line[column - 1 : column])
    else:  # pragma: no cover - the LALR parser raises only the two above
        expected, column, found = (), 1, "something else"
    after = _before(line, column)
    where = f" after {after!r}" if after else ""
    if after == "/":  # StP/ - Bar: what goes after a slash is a coast
        expected = tuple("a coast" if w == "a province" else w for w in expected)
    if not expected:
        return OrderError(line_no, column, f"unexpected {found}{where}")
    message = f"expected {_join_or(expected)}{where}, found {found}"
    return replace(OrderError(line_no, column, message), expected=expected)


# --- for the order languages of variants, which extend grammar/orders.lark ----------------------
# A variant's grammar imports places and keywords from orders.lark; its reader builds values with
# these callbacks for places and words its errors as the standard reader does.
LocationCallbacks = _BuilderCallbacks
FastLALR = _FastLALR
FAILED = _FAILED
NameFault = _NameFault
name_error = _name_error
syntax_error = _syntax_error
