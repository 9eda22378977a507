"""Variants: one package each, one record each, asked by everything else.

A variant is a `Variant` record filled in by its own package (``judge/variants/NAME/``): the
board it plays on by default, its calendar, the rule sets always on, its unit kinds, how its
order lines are read, how a phase is adjudicated, the pieces it adds to the results, and where
its rules text is. The engine, the desk, the scheduler and the reports ask the record; none of
them tests a variant's name. Boards stay data in maps/.

`variant(name)` finds a record by name: the variants listed in `_PACKAGES`, each imported only
when first asked for, so `judge adjudicate` on a standard case never imports Mercator.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from judge.engine.geography import Map
from judge.engine.orders import Order
from judge.engine.position import Dislodged, Position
from judge.engine.results import OrderResult, PhaseResult
from judge.engine.rules import Rules


@dataclass(slots=True)
class ReadOrders:
    """A power's order lines read for the engine: the orders, the lines that could not be read
    (their results, keyed by power and line index), and the lines that are not orders at all
    (Mercator's time-scale headings), which get no result."""

    orders: dict[str, list[Any]]
    unreadable: dict[tuple[str, int], OrderResult]
    headings: frozenset[tuple[str, int]] = frozenset()
    # Lines that held several orders (Mercator's split retreat "A(MAO) - Por, F(MAO) - WMS"):
    # each order's own text, for a result per order.
    parts: dict[tuple[str, int], list[str]] = field(default_factory=dict)


@dataclass(slots=True)
class DeskLine:
    """One order line of a mail as the desk keeps it: each order's key (one order a key, the
    last one standing: the unit's province, with Mercator's time scale in front), the text
    stored (a line that reads back alone), the text echoed in full; or why the line is refused.
    A heading line (Mercator's "TS2") has no orders and opens its section for the lines after
    it, in `context`."""

    orders: list[tuple[str, str, str]] = field(default_factory=list)  # (key, stored, full)
    error: str | None = None
    heading: str | None = None  # the heading's words, echoed for a heading line
    note: str | None = None  # a warning echoed with the orders, which are taken all the same
    # The order values of `orders`, one each, for the record's `check_orders` (none: the line
    # is not checked against the board by the desk).
    values: list[Any] = field(default_factory=list)
    # A line that changes the game at once rather than waiting for the adjudication (Mercenary's
    # leaving an Alliance of Currency, rule 8 c): (the stored case) -> (the case after, the
    # announcement every reader of the game is sent); ValueError: why it cannot be done now.
    at_once: Callable[[Mapping[str, Any]], tuple[dict[str, Any], str]] | None = None


@dataclass(frozen=True)
class CaseFields:
    """A variant's own fields of an adjudicate case and of its result, beyond the board
    (Mercenary's money: a case's ``"money"``, a result's ``"money_after"`` and ``"payments"``).

    `read` turns a case's fields into entries of the position's `state` (ValueError naming the
    field where one is wrong); `write` gives a result's fields from the PhaseResult; `carry`
    gives the next phase's case fields from a result's (the desk's next position); `opening`
    gives the fields of a game's first position, and `opening_payments` the ledger entries that
    made them (docs/ADJUDICATE.md's payment objects)."""

    read: Callable[[Mapping[str, Any], Map], dict[str, Any]]
    write: Callable[[PhaseResult], dict[str, Any]]
    carry: Callable[[Mapping[str, Any]], dict[str, Any]]
    opening: Callable[[Map], dict[str, Any]]
    opening_payments: Callable[[Map], list[dict[str, Any]]]


@dataclass(frozen=True)
class RetreatTerms:
    """What the desk tells a player of one of his dislodged units while it waits for a retreat
    order: the places it may retreat to, and what becomes of it without an order (the words
    after "without a retreat order it": "is disbanded")."""

    places: tuple[str, ...]
    without_order: str = "is disbanded"
    # An order for it stands already (1885: a retreat order sent with the move), so its player
    # owes none: the unit is not counted among those still without orders.
    standing: bool = False


OrderReader = Callable[[Map, Mapping[str, Sequence[str]]], ReadOrders]
# (board, line, line number, the mail's reading context for this seat, mutable) -> DeskLine;
# None: a standard order line, which the desk reads and checks as in the standard game. The
# desk reads the lines of general orders with it too: when filed the context has "general"
# True and no phase (nothing to check against a board yet; "position" is the board now, or
# None), when played the phase they are played in.
DeskLineReader = Callable[[Map, str, int, dict[str, Any]], DeskLine | None]
Adjudicator = Callable[[Map, Position, Mapping[str, Sequence[Order]], Rules], PhaseResult]


@dataclass(frozen=True)
class SecretBoard:
    """How a game whose board nobody sees (Algernon) is shown to each reader; every path that
    writes game content to a reader asks it. `reader` is a power's name, OBSERVERS or MASTER."""

    # (the phase's result, reader) -> the results text that reader reads
    results_text: Callable[[PhaseResult, str], str]
    # (the game's case, reader) -> what the reader is told of the board at the start, or by MAP
    board_text: Callable[[Mapping[str, Any], str], str]
    # (the game's case, reader) -> the powers that reader knows of (press, lists, notices)
    known_powers: Callable[[Mapping[str, Any], str], frozenset[str]]
    # (the game's case, reader) -> the places that reader knows (read as order words)
    known_places: Callable[[Mapping[str, Any], str], frozenset[str]]
    # (case after a phase) -> extra fields of `judge adjudicate`'s result (the reports)
    case_result_fields: Callable[[Mapping[str, Any]], dict[str, Any]]
    # (the game's case, reader) -> the picture that reader may see, as a judge.pictures Scene
    # holding only what the reader knows; None: no picture for that reader (judge/pictures).
    picture_scene: Callable[[Mapping[str, Any], str], Any] | None = None


@dataclass(frozen=True)
class ExampleMail:
    """A mail of orders HELP shows: who writes it, when, and its lines. The tests read every
    line with the variant's own reader (`read_orders`) on the board HELP names, and fail on any
    line it refuses, so HELP never teaches a wrong form."""

    power: str  # the power who writes it, as the board names it (FRANCE)
    when: str  # the phase it is for, in words ("January 1901, the first month's moves")
    lines: tuple[str, ...]


@dataclass(frozen=True)
class OrderForm:
    """One order form HELP lists: a line as a player writes it and what it does; `group`
    opens a group of forms under its heading ("Retreats")."""

    line: str
    meaning: str
    group: str = ""


@dataclass(frozen=True)
class VariantHelp:
    """What `HELP <variant>` answers: what is particular to the variant (plain text, as the
    mail prints it), its order forms, notes after them, and example mails. Every form's line
    and every example's lines are read by the tests with the variant's own reader."""

    intro: str
    forms: tuple[OrderForm, ...] = ()
    examples: tuple[ExampleMail, ...] = ()
    notes: str = ""
    # Who writes the forms (a power of the board, for the reader).
    forms_power: str = ""
    # What CREATE takes after the variant's name (Algernon's number of players), as HELP
    # writes it: " N (2 to 24 players)".
    create_words: str = ""
    # The board the examples are written on (a name in maps/, or a board of the variant's
    # own given by the package); None: the variant's default board.
    board: Callable[[], Map] | None = None


# (the game's opening case, the power a player holds, or None for the GM and observers) -> what
# the game's start mail says of the variant to that reader: a paragraph of plain text.
StartNotes = Callable[[Mapping[str, Any], str | None], str]


def paragraphs_text(paragraphs: Sequence[str], width: int = 76) -> str:
    """Paragraphs of a mail's plain text, each filled to `width`, a blank line between."""
    from textwrap import fill

    return "\n\n".join(fill(p, width) for p in paragraphs) + "\n"


OBSERVERS = "*observers*"
MASTER = "*master*"
# What the desk's sentences call each unit kind ("Army Venice cannot reach Munich").
UNIT_WORDS: Mapping[str, str] = MappingProxyType({"A": "Army", "F": "Fleet", "AF": "Army/Fleet"})


def name_cased(power: str) -> str:
    """A power of the boards in maps/ as a sentence names it: ENGLAND -> England."""
    return power.title()


@dataclass(frozen=True)
class Rulebook:
    """How a phase is decided: asked by `judge adjudicate`, the scheduler, and the desk where it
    must know what the rules make of a position (who owes builds, who won)."""

    adjudicate: Adjudicator
    rule_sets: tuple[str, ...] = ()  # named rule sets always on (judge.engine.rules)
    unit_kinds: tuple[str, ...] = ("A", "F")
    # Builds (+) or removals (-) each power is due in an adjustment phase, where the variant
    # counts otherwise than centres less units (1885: an army/fleet is two units, build
    # centres, rule 11, retreats still to come; Mercator: army/fleets twice, spare units kept
    # until the third build season): (board, position) -> {power: n}. What the desk asks to
    # know who owes orders; None: centres less units, capped by free homes.
    adjustments_due: Callable[[Map, Position], Mapping[str, int]] | None = None
    # Wins claimed by several powers together (Mercator's rule 10, 1885's rule 5 b): (board,
    # the phase just adjudicated, each claiming power's combine) -> the winners or (); None: no
    # claimed wins. The phase says when a claim may win and what it counts (centres, units).
    decide_claims: (
        Callable[[Map, PhaseResult, Mapping[str, frozenset[str]]], tuple[str, ...]] | None
    ) = None
    # Fields of its own in a case and a result (Mercenary's money); None: the board alone.
    case_fields: CaseFields | None = None
    # How a power's orders are checked when they arrive, by the rules that adjudicate them
    # (judge/variants/order_checks.py): (board, position, rules, power, the power's orders as
    # they stand, the new ones last) -> why each can never be carried out, or None. What
    # depends on other powers' orders is left to the adjudication. None: the standard game's
    # check (`order_checks.standard_order_problems`).
    check_orders: Callable[[Map, Position, Rules, str, Sequence[Any]], list[str | None]] | None = (
        None
    )
    # A board that travels with each game and case instead of a file in maps/ (Algernon's
    # maze, a case's "maze"): (case) -> the board; None: the board is maps/NAME.
    board_in_case: Callable[[Mapping[str, Any]], Map] | None = None
    # CREATE's words after the variant name and a seed -> the opening case of a new game with
    # its own board (Algernon: the player count; the maze generated from the seed). Raises
    # ValueError with the reason. None: the default board's opening, the words rule sets.
    new_game: Callable[[Sequence[str], int], dict[str, Any]] | None = None


@dataclass(frozen=True)
class Language:
    """How its orders are written and read: asked by the order readers, the desk's command
    reader and every sentence that names a unit or a power."""

    read_orders: OrderReader
    # How the desk reads one order line of a mail; None: one standard order a line.
    read_desk_line: DeskLineReader | None = None
    # The grammar its order lines are written in (grammar/NAME.lark) beside the standard
    # language's, which the desk asks to tell one of its order lines from a mistyped command
    # (Mercator's `Place A Mun` is no PHASE); None: the standard language alone.
    order_grammar: str | None = None
    # Each unit kind as the desk's sentences name it.
    unit_words: Mapping[str, str] = field(default_factory=lambda: UNIT_WORDS)
    # A power (the board's name, in capitals) as the desk's sentences write it: England for
    # ENGLAND; Algernon's initials as the maze writes them (TAG, never Tag).
    power_title: Callable[[str], str] = name_cased


@dataclass(frozen=True)
class Desk:
    """What the desk asks of it while conducting a game by mail, beyond reading order lines."""

    # What a dislodged unit waiting for its retreat order may do, and what becomes of it
    # without one, as the desk tells its player (1885: the places of its own retreat rules and
    # Just's right-hand rule): (board, position, the unit) -> terms. None: the places the
    # position gives it, and a unit without an order is disbanded, as in the standard game.
    retreat_terms: Callable[[Map, Position, Dislodged], RetreatTerms] | None = None
    # How many of those builds or removals one of a power's stored order lines uses (Mercator's
    # build at a premium uses two, its rule 5.3): (board, position, power, the stored line) ->
    # count. The desk asks it to know when a power's adjustment orders are complete; None: one
    # an order.
    adjustments_used: Callable[[Map, Position, str, str], int] | None = None
    # When a claimed win is granted, as the reply to SET CLAIM says it (a sentence that
    # follows "every power of the combine has claimed the same win this season and").
    claim_terms: str = ""
    # What HELP <variant> answers (its order forms with example mails); None: no help of its
    # own beyond the judge's HELP.
    help: VariantHelp | None = None
    # What a game's start mail says of the variant to each reader; None: nothing.
    start_notes: StartNotes | None = None
    # A game master's change to a power's holding (Mercenary's rule 11, LEDGER by mail): (the
    # stored case, power, currency, change in whole pounds, why) -> (the case after, the ledger
    # entry as a payment object, the announcement); ValueError: why not. None: no money.
    adjust_holding: (
        Callable[
            [Mapping[str, Any], str, str, int, str], tuple[dict[str, Any], dict[str, Any], str]
        ]
        | None
    ) = None


@dataclass(frozen=True)
class Report:
    """How its results and boards are written for people (the results mails, `judge map`)."""

    # A results text of its own (a time scale's orders apart, owned provinces), given the report
    # (judge.reports.PhaseReport) a reader may see; None: the standard game's styles.
    results_text: Callable[[Any], str] | None = None
    # What `judge map` prints of a board of this variant's own (Algernon: the fairness
    # figures and why a maze is unfair); None: the map summary.
    board_summary: Callable[[Map], str] | None = None


@dataclass(frozen=True)
class Picture:
    """How the board's picture draws what is its own (judge/pictures)."""

    # How the picture draws an order value of the variant's own (judge/pictures/board.py):
    # (order) -> (kind of arrow: "move", "retreat", "support", "convoy", "build" or "disband";
    # the locations it passes, first to last), or None to draw nothing. The engine's own
    # orders need none; None: the variant has no orders of its own to draw.
    order: Callable[[Any], tuple[str, tuple[str, ...]] | None] | None = None
    # Units each power has by the rules, as a picture's legend counts them (1885: an army/fleet
    # is two; Mercator: an army/fleet counts for its fleet's power and its army's, and dumped
    # units count): (position) -> {power: units}. None: one a unit.
    unit_counts: Callable[[Position], Mapping[str, int]] | None = None


@dataclass(frozen=True)
class Variant:
    """A variant as a checklist: who it is and where it plays on top, then one small record for
    each part of the judge that asks it something (docs/VARIANTS.md): `rules` (how a phase is
    decided), `language` (how orders are written and read), `desk` (the conduct of a game by
    mail), `report` (results for people), `picture` (the board's picture); and `secret_board`
    for a board nobody sees. Every record but `rules` and `language` may be left out."""

    name: str  # as players write it in CREATE and cases in "variant"
    title: str  # as results print it
    default_map: str  # the board a game or case plays on when it names none (maps/NAME.toml)
    # Every board the variant can be played on; CREATE names one that is not the default after
    # the variant (`CREATE g pw mercator standard`).
    maps: tuple[str, ...]
    calendar: str  # judge.engine.calendar: STANDARD or MONTHLY
    rules: Rulebook
    language: Language
    rules_text: str = ""  # where a player reads the rules (a path under docs/ or a title)
    desk: Desk = field(default_factory=Desk)
    report: Report = field(default_factory=Report)
    picture: Picture = field(default_factory=Picture)
    # A secret board (Algernon): what each reader may see, asked instead of showing the board,
    # the orders or the powers. None: the standard game's results are public.
    secret_board: SecretBoard | None = None

    def first_phase(self, game_map: Map) -> str:
        """The phase a new game starts in: the board's own, in this variant's calendar."""
        if self.calendar == game_map.calendar:
            return game_map.start_phase
        from judge.engine.calendar import MONTHS, MOVEMENT, parse_phase

        year = parse_phase(game_map.start_phase, game_map.calendar).year
        return f"{MONTHS[0]}{year}{MOVEMENT}"


# name -> (module, attribute): imported when first asked for.
_PACKAGES: dict[str, tuple[str, str]] = {
    "algernon": ("judge.variants.algernon", "ALGERNON"),
    "standard": ("judge.variants.standard", "STANDARD"),
    "youngstown": ("judge.variants.standard", "YOUNGSTOWN"),
    "mercator": ("judge.variants.mercator", "MERCATOR"),
    "1885": ("judge.variants.v1885", "V1885"),
    "mercenary": ("judge.variants.mercenary", "MERCENARY"),
}


class UnknownVariant(KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def variant_names() -> list[str]:
    return sorted(_PACKAGES)


def variants_with_help() -> list[Variant]:
    """Every variant that answers HELP <variant>, by name."""
    return [found for found in map(variant, variant_names()) if found.desk.help is not None]


def variant(name: str) -> Variant:
    """The variant called `name` (any letter case); UnknownVariant names the known ones."""
    key = name.strip().lower() if isinstance(name, str) else ""
    where = _PACKAGES.get(key)
    if where is None:
        known = ", ".join(variant_names())
        raise UnknownVariant(f"no variant called {name!r} (known variants: {known})")
    module = importlib.import_module(where[0])
    found: Variant = getattr(module, where[1])
    return found


def power_title(name: str, power: str) -> str:
    """`power` as the sentences of a game of the variant called `name` write it."""
    return variant(name).language.power_title(power)


def board_of(name: str, board: str | None = None) -> Map:
    """The board a game of the variant called `name` is played on: `board` (maps/NAME.toml)
    when given, else the variant's default board."""
    from judge.map_files import load_map

    return load_map(board or variant(name).default_map)


def game_board(name: str, case: Mapping[str, Any] | None) -> Map:
    """The board a game or case of the variant called `name` plays on: its own board where the
    variant's boards travel with the game (Algernon's maze), else the board the case names
    (`"map"`), else the variant's default."""
    found = variant(name)
    if found.rules.board_in_case is not None and case is not None:
        return found.rules.board_in_case(case)
    named = case.get("map") if case is not None else None
    return board_of(name, named if isinstance(named, str) and named else None)


def start_case(name: str, board: str | None = None) -> dict[str, Any]:
    """The opening position of a game of the variant called `name` on `board` (its default
    board when None), as an adjudicate case."""
    from judge.map_files import start_case as board_start

    found = variant(name)
    game_map = board_of(name, board)
    case = board_start(game_map)
    case["variant"] = found.name
    case["phase"] = found.first_phase(game_map)
    chosen = board or found.default_map
    if chosen != found.name:
        case["map"] = chosen
    if found.rules.case_fields is not None:
        case.update(found.rules.case_fields.opening(game_map))
    return case


def opening_payments(name: str) -> list[dict[str, Any]]:
    """The ledger entries that made the opening position of a game of the variant called
    `name` (Mercenary's starting balances); none for a variant without money."""
    found = variant(name)
    if found.rules.case_fields is None:
        return []
    return found.rules.case_fields.opening_payments(board_of(name))
