"""The offline adjudication interface: one JSON case in, one JSON result out.

The format is specified in docs/ADJUDICATE.md. Input that is not a valid case raises CaseError
with a one-line message naming the field and the value; orders that cannot be read are results
(``illegal``, with the reader's message), not errors.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; the standard library does the same work
    orjson = None  # type: ignore[assignment]

from judge.engine.calendar import PhaseError, parse_phase
from judge.engine.geography import Map, MapError
from judge.engine.position import Dislodged, Position, Unit, make_unit, province_of
from judge.engine.results import OrderResult, PhaseResult
from judge.engine.rules import Rules, UnknownRuleSet, rules_from_names
from judge.engine.topology import topology
from judge.map_files import load_map
from judge.variants import CaseFields, ReadOrders, UnknownVariant, Variant, variant

UNIT_TYPES = ("A", "F", "AF")


_DUMPS_COMPACT = json.JSONEncoder(separators=(",", ":")).encode


def loads_case(text: str | bytes) -> Any:
    """JSON text -> value, as `json.loads` gives it (and with its errors), but for one thing:
    an integer past 64 bits comes back as a float.

    orjson reads the common case several times faster; where it refuses a text (NaN, a lone
    surrogate, or text that is not JSON at all) the standard library reads it, so the value or
    the error message is the same as before. No field of a valid case is a number, so the big
    integer matters only in a CaseError's message, which quotes the value: a caller that
    reports one reads the text again with `json.loads` (cli_adjudicate._batch_line does).
    """
    if orjson is not None:
        try:
            return orjson.loads(text)
        except (orjson.JSONDecodeError, TypeError, ValueError):
            pass
    return json.loads(text)


def dumps_line(value: Any) -> str:
    """`value` as compact JSON on one line, byte for byte what
    ``json.JSONEncoder(separators=(",", ":")).encode`` writes."""
    return dumps_line_bytes(value).decode("ascii")


def dumps_line_bytes(value: Any) -> bytes:
    """`dumps_line` as ASCII bytes, for a writer of bytes (`judge adjudicate --batch`).

    orjson writes the same text for plain ASCII values; the standard library writes anything
    else (it escapes non-ASCII characters and DEL as ``\\uXXXX``, orjson does not).
    """
    if orjson is not None:
        try:
            out = orjson.dumps(value)
        except (TypeError, ValueError):
            return _DUMPS_COMPACT(value).encode("ascii")
        if out.isascii() and b"\x7f" not in out:
            return out
    return _DUMPS_COMPACT(value).encode("ascii")


def loads_case_quickly(line: bytes) -> Any:
    """A line of bytes -> its value where orjson reads it as `loads_case` would; raises
    ValueError where it does not (no orjson, not UTF-8, not JSON as orjson reads it), and the
    caller reads the line as text instead."""
    if orjson is None:
        raise ValueError("orjson is not installed")
    try:
        return orjson.loads(line)
    except (orjson.JSONDecodeError, TypeError) as exc:
        raise ValueError(str(exc)) from None


class CaseError(ValueError):
    """A case that cannot be adjudicated: the message names the field and the value."""


_VARIANT_BOARDS: dict[tuple[str, str | None], tuple[Variant, Map]] = {}


def _load_variant(name: Any, board: Any = None) -> tuple[Variant, Map]:
    """The variant a case names and the board it plays on (its own `map`, else the variant's
    default board), each checked once per process."""
    key = (name, board) if type(name) is str and (board is None or type(board) is str) else None
    if key is not None and key in _VARIANT_BOARDS:
        return _VARIANT_BOARDS[key]
    if not (isinstance(name, str) and name != ""):
        raise CaseError(f"variant: expected a variant name, got {name!r}")
    try:
        found = variant(name)
    except UnknownVariant as exc:
        raise CaseError(f"variant: {exc}") from None
    if board is not None and not (isinstance(board, str) and board != ""):
        raise CaseError(f"map: expected a map name, got {board!r}")
    board_name = found.default_map if board is None else board.strip().lower()
    try:
        game_map = load_map(board_name)
    except (FileNotFoundError, KeyError, MapError) as exc:
        raise CaseError(f"map: unknown map {board_name!r} ({exc})") from None
    if key is not None and len(_VARIANT_BOARDS) < 64:
        _VARIANT_BOARDS[key] = (found, game_map)
    return found, game_map


_RULES_SEEN: dict[tuple[str, ...], Rules] = {}  # rule set names -> their Rules (a few at most)


def _rules(names: Any) -> Rules:
    if type(names) is list and not names:
        names = ()
    key = names if type(names) is tuple else None
    if key is None and type(names) is list and all(type(n) is str for n in names):
        key = tuple(names)
    if key is not None:
        known = _RULES_SEEN.get(key)
        if known is not None:
            return known
        if len(_RULES_SEEN) < 64:
            _RULES_SEEN[key] = _rules_of(list(key))
            return _RULES_SEEN[key]
    return _rules_of(names)


def _rules_of(names: Any) -> Rules:
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names)):
        raise CaseError(f"rules: expected a list of rule set names, got {names!r}")
    try:
        return rules_from_names(names)
    except UnknownRuleSet as exc:
        raise CaseError(f"rules: {exc}") from None


# (board, power, type, location) as a case writes them -> the unit they make, for the boards
# of maps/ (one board a name in a process): a batch's cases repeat the same units phase after
# phase. Bounded: past it, units are read each time.
_UNITS_READ: dict[tuple[str, str, str, str], Unit] = {}
_UNITS_READ_MAX = 1 << 14
_NOTHING_KEPT: dict[tuple[str, str, str, str], Unit] = {}


def _units(game_map: Map, raw_units: list[Any], field: str, *, board_file: bool) -> list[Unit]:
    """The units of a list; the common well-formed unit takes the quick way through, and on a
    board of maps/ (`board_file`; not a case's own maze) a unit read before is taken as read."""
    board = game_map.name
    placements = topology(game_map).placements
    units: list[Unit] = []
    append = units.append
    known = _UNITS_READ if board_file else _NOTHING_KEPT
    for i, raw in enumerate(raw_units):
        if type(raw) is dict and len(raw) == 3:
            power, kind, loc = raw.get("power"), raw.get("type"), raw.get("loc")
            if type(power) is str and type(kind) is str and type(loc) is str:
                key = (board, power, kind, loc)
                unit = known.get(key)
                if unit is not None:
                    append(unit)
                    continue
                if power and (kind, loc) in placements:
                    unit = make_unit(power.upper(), kind, loc)
                    if board_file and len(known) < _UNITS_READ_MAX:
                        known[key] = unit
                    append(unit)
                    continue
        append(_unit(game_map, raw, f"{field}[{i}]"))
    return units


def _unit(game_map: Map, raw: Any, field: str) -> Unit:
    if not isinstance(raw, Mapping):
        raise CaseError(f"{field}: expected an object, got {raw!r}")
    power, kind, loc = raw.get("power"), raw.get("type"), raw.get("loc")
    if not (isinstance(power, str) and power != ""):
        raise CaseError(f"{field}.power: expected a power name, got {power!r}")
    if kind not in UNIT_TYPES:
        raise CaseError(f"{field}.type: expected A, F or AF, got {kind!r}")
    if not isinstance(loc, str):
        raise CaseError(f"{field}.loc: expected a location, got {loc!r}")
    loc = loc.strip().lower()
    if not game_map.is_location(loc):
        raise CaseError(f"{field}.loc: {loc!r} is not a location on {game_map.name}")
    if kind == "A" and not game_map.army_may_be_at(loc):
        raise CaseError(f"{field}.loc: an army cannot stand in {loc!r}")
    if kind == "F" and not game_map.fleet_may_be_at(loc):
        raise CaseError(f"{field}.loc: a fleet cannot stand in {loc!r}")
    army_power = raw.get("army_power")
    if not (army_power is None or isinstance(army_power, str)):
        raise CaseError(f"{field}.army_power: {army_power!r}")
    return Unit(power.upper(), kind, loc, army_power.upper() if army_power else None)


def _province(game_map: Map, raw: Any, field: str) -> str:
    if not isinstance(raw, str):
        raise CaseError(f"{field}: expected a province code, got {raw!r}")
    code = raw.strip().lower()
    if code not in game_map.provinces:
        raise CaseError(f"{field}: {raw!r} is not a province of {game_map.name}")
    return code


@dataclass(slots=True, init=False)
class Case:
    """A checked case: the variant, its board, the position, the order texts (unread) and the
    rules (the variant's own rule sets and the case's). Its `__init__` is written out, as the
    order values' (engine/orders.py says why)."""

    variant: Variant
    game_map: Map
    position: Position
    orders: dict[str, list[str]]
    rules: Rules

    def __init__(
        self,
        variant: Variant,
        game_map: Map,
        position: Position,
        orders: dict[str, list[str]],
        rules: Rules,
    ) -> None:
        self.variant = variant
        self.game_map = game_map
        self.position = position
        self.orders = orders
        self.rules = rules


def read_case(
    case: Any, *, variant: str | None = None, rules: list[str] | None = None
) -> tuple[Map, Position, dict[str, list[str]], Rules]:
    """Check a case and turn it into engine values; the order texts are returned unread."""
    checked = read_variant_case(case, variant=variant, rules=rules)
    return checked.game_map, checked.position, checked.orders, checked.rules


def read_variant_case(
    case: Any, *, variant: str | None = None, rules: list[str] | None = None
) -> Case:
    """`read_case`, with the variant the case is played in."""
    if type(case) is not dict and not isinstance(case, Mapping):
        raise CaseError(f"case: expected a JSON object, got {type(case).__name__}")
    the_variant, game_map = _load_variant(
        case.get("variant", variant or "standard"), case.get("map")
    )
    if the_variant.rules.board_in_case is not None:  # the game's own board (Algernon's "maze")
        try:
            game_map = the_variant.rules.board_in_case(case)
        except MapError as exc:
            raise CaseError(f"maze: {exc}") from None
    case_rules = case.get("rules", rules or [])
    if the_variant.rules.rule_sets:
        if isinstance(case_rules, str):
            case_rules = [n for n in case_rules.split(",") if n.strip()]
        if isinstance(case_rules, list):
            case_rules = list(the_variant.rules.rule_sets) + [
                n for n in case_rules if n not in the_variant.rules.rule_sets
            ]
    rule_values = _rules(case_rules)
    phase = case.get("phase")
    if not isinstance(phase, str):
        raise CaseError(f"phase: expected a phase name such as S1901M, got {phase!r}")
    try:
        phase = parse_phase(phase, the_variant.calendar).name
    except PhaseError as exc:
        raise CaseError(f"phase: {exc}") from None

    raw_units = case.get("units", [])
    if not isinstance(raw_units, list):
        raise CaseError(f"units: expected a list, got {raw_units!r}")
    units = tuple(
        _units(game_map, raw_units, "units", board_file=the_variant.rules.board_in_case is None)
    )
    occupied = {province_of(unit.loc) for unit in units}
    if len(occupied) != len(units):
        seen: set[str] = set()
        for i, unit in enumerate(units):
            if unit.province in seen:
                raise CaseError(f"units[{i}].loc: {unit.province!r} holds two units")
            seen.add(unit.province)

    raw_centers = case.get("centers", {})
    if type(raw_centers) is not dict and not isinstance(raw_centers, Mapping):
        raise CaseError(f"centers: expected an object, got {raw_centers!r}")
    centers: dict[str, frozenset[str]] = {}
    scs = topology(game_map).supply_centres
    for power, owned in raw_centers.items():
        if not isinstance(owned, list):
            raise CaseError(f"centers.{power}: expected a list, got {owned!r}")
        codes = frozenset(owned)
        if not codes <= scs:
            for c in owned:
                code = _province(game_map, c, f"centers.{power}")
                if code not in scs:
                    raise CaseError(f"centers.{power}: {code!r} is not a supply centre")
            codes = frozenset(c.strip().lower() for c in owned)
        centers[power.upper()] = codes

    raw_dislodged = case.get("dislodged", [])
    if not isinstance(raw_dislodged, list):
        raise CaseError(f"dislodged: expected a list, got {raw_dislodged!r}")
    dislodged = []
    # A variant with retreat rules of its own (Mercator's rule 4) writes each unit's retreats
    # and the time scale it was dislodged in: taken as given, not worked out again.
    given: dict[int, tuple[tuple[str, ...], int]] = {}
    for i, d in enumerate(raw_dislodged):
        unit = _unit(game_map, d, f"dislodged[{i}]")
        attacker = d.get("attacker_from")
        if attacker is not None:
            attacker = _province(game_map, attacker, f"dislodged[{i}].attacker_from")
        dislodged.append((unit, attacker, bool(d.get("attacker_convoyed", False))))
        if "time_scale" in d:
            given[i] = _given_retreats(game_map, d, f"dislodged[{i}]")

    raw_contested = case.get("contested", [])
    if not isinstance(raw_contested, list):
        raise CaseError(f"contested: expected a list, got {raw_contested!r}")
    contested = frozenset(_province(game_map, c, "contested") for c in raw_contested)

    raw_orders = case.get("orders", {})
    if type(raw_orders) is not dict and not isinstance(raw_orders, Mapping):
        raise CaseError(f"orders: expected an object, got {raw_orders!r}")
    orders: dict[str, list[str]] = {}
    for power, lines in raw_orders.items():
        if isinstance(lines, str):
            lines = [line for line in lines.splitlines() if line.strip()]
        if not (isinstance(lines, list) and all(isinstance(x, str) for x in lines)):
            raise CaseError(f"orders.{power}: expected a list of order strings, got {lines!r}")
        orders[str(power).upper()] = list(lines)

    if dislodged:
        from judge.engine.resolve import retreat_options
    dislodged_values = tuple(
        Dislodged(
            unit=unit,
            attacker_from=attacker,
            attacker_convoyed=convoyed,
            retreats=given[i][0]
            if i in given
            else retreat_options(
                game_map,
                unit,
                occupied,
                contested,
                attacker,
                convoyed and not rule_values.retreat_never_to_attacker_origin,
            ),
            time_scale=given[i][1] if i in given else 0,
        )
        for i, (unit, attacker, convoyed) in enumerate(dislodged)
    )
    raw_disorder = case.get("civil_disorder", [])
    if not (isinstance(raw_disorder, list) and all(isinstance(p, str) for p in raw_disorder)):
        raise CaseError(f"civil_disorder: expected a list of power names, got {raw_disorder!r}")
    position = Position(
        phase=phase,
        units=units,
        centers=centers,
        dislodged=dislodged_values,
        contested=contested,
        civil_disorder=frozenset(p.upper() for p in raw_disorder),
    )
    if "owners" in case or "state" in case:
        position.owners = _owners(game_map, case.get("owners", {}))
        position.state = _state(case.get("state", {}))
    if the_variant.rules.case_fields is not None:
        try:
            own = the_variant.rules.case_fields.read(case, game_map)
        except ValueError as exc:
            raise CaseError(str(exc)) from None
        position.state = {**position.state, **own}
    return Case(the_variant, game_map, position, orders, rule_values)


def _given_retreats(game_map: Map, raw: Any, field: str) -> tuple[tuple[str, ...], int]:
    retreats = raw.get("retreats", [])
    if not (isinstance(retreats, list) and all(isinstance(r, str) for r in retreats)):
        raise CaseError(f"{field}.retreats: expected a list of locations, got {retreats!r}")
    for r in retreats:
        if not game_map.is_location(r.strip().lower()):
            raise CaseError(f"{field}.retreats: {r!r} is not a location on {game_map.name}")
    scale = raw.get("time_scale", 0)
    if type(scale) is not int or not 0 <= scale <= 3:
        raise CaseError(f"{field}.time_scale: expected 1, 2 or 3, got {scale!r}")
    return tuple(r.strip().lower() for r in retreats), scale


def _owners(game_map: Map, raw: Any) -> dict[str, str]:
    """Owned provinces that are not supply centres (Mercator's rule 5.1): province -> power."""
    if not isinstance(raw, Mapping):
        raise CaseError(f"owners: expected an object of province: power, got {raw!r}")
    owners: dict[str, str] = {}
    for prov, power in raw.items():
        code = _province(game_map, prov, "owners")
        if not (isinstance(power, str) and power):
            raise CaseError(f"owners.{code}: expected a power name, got {power!r}")
        owners[code] = power.upper()
    return owners


def _state(raw: Any) -> dict[str, Any]:
    """What a variant keeps between phases beyond the board (Mercator's withheld premium builds
    and dumped armies): JSON values the variant reads and writes, opaque to everything else."""
    if not isinstance(raw, Mapping):
        raise CaseError(f"state: expected an object, got {raw!r}")
    return dict(raw)


def _unit_json(unit: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"power": unit.power, "type": unit.kind, "loc": unit.loc}
    if unit.army_power and unit.army_power != unit.power:
        out["army_power"] = unit.army_power
    return out


def _result_entry(text: str, r: OrderResult) -> dict[str, Any]:
    entry: dict[str, Any] = {"order": text, "result": r.result, "reason": r.reason}
    if r.time_scale:
        entry["time_scale"] = r.time_scale
    return entry


def result_json(
    result: PhaseResult,
    orders: Mapping[str, list[str]],
    unreadable: Mapping[tuple[str, int], OrderResult],
    headings: frozenset[tuple[str, int]] = frozenset(),
    parts: Mapping[tuple[str, int], list[str]] | None = None,
    case_fields: CaseFields | None = None,
) -> dict[str, Any]:
    results: dict[str, list[dict[str, Any]]] = {}
    # Every line read as one order (the common case): each line's result in turn, no line
    # looked up by its (power, index).
    one_each = not unreadable and not headings and not parts
    for power, lines in orders.items():
        engine_results = iter(result.results.get(power, ()))
        out: list[dict[str, Any]] = []
        if one_each:
            for line in lines:
                out.append(_result_entry(line, next(engine_results)))
            results[power] = out
            continue
        for index, line in enumerate(lines):
            if headings and (power, index) in headings:
                continue
            failed = unreadable.get((power, index))
            texts = parts.get((power, index), [line]) if parts and not failed else [line]
            for text in texts:
                out.append(_result_entry(text, failed or next(engine_results)))
        results[power] = out
    out_json: dict[str, Any] = {
        "phase": result.phase,
        "results": results,
        "dislodged": [
            {
                **_unit_json(d.unit),
                "attacker_from": d.attacker_from,
                "attacker_convoyed": d.attacker_convoyed,
                "retreats": list(d.retreats),
            }
            for d in result.dislodged
        ],
        "contested": sorted(result.contested),
        "units_after": [_unit_json(u) for u in result.units_after],
        "centers_after": {p: sorted(c) for p, c in sorted(result.centers_after.items())},
        "disbanded": [_unit_json(u) for u in result.disbanded],
        "victory": list(result.victory),
        "next_phase": result.next_phase,
    }
    if result.dislodged and any(d.time_scale for d in result.dislodged):
        for entry, d in zip(out_json["dislodged"], result.dislodged, strict=True):
            entry["time_scale"] = d.time_scale
    if result.owners_after is not None:
        out_json["owners_after"] = dict(sorted(result.owners_after.items()))
        out_json["state_after"] = dict(result.state_after or {})
    if result.notes:  # what a variant's rules did that no order says (1885's right-hand rule)
        out_json["notes"] = list(result.notes)
    if case_fields is not None:  # a variant's own result fields (Mercenary's money)
        out_json.update(case_fields.write(result))
    return out_json


def run_case(
    case: Any, *, variant: str | None = None, rules: list[str] | None = None
) -> dict[str, Any]:
    """Adjudicate one case given as parsed JSON; raises CaseError for an invalid case."""
    checked = read_variant_case(case, variant=variant, rules=rules)
    read = read_orders(checked)
    result = checked.variant.rules.adjudicate(
        checked.game_map, checked.position, read.orders, checked.rules
    )
    out = result_json(
        result,
        checked.orders,
        read.unreadable,
        read.headings,
        read.parts,
        checked.variant.rules.case_fields,
    )
    if checked.variant.secret_board is not None:  # the per-reader reports (Algernon)
        out.update(checked.variant.secret_board.case_result_fields(result.state_after or {}))
    return out


def read_orders(checked: Case) -> ReadOrders:
    """The case's order texts read by its variant's order language."""
    return checked.variant.language.read_orders(checked.game_map, checked.orders)


def unit_locations(units: list[dict[str, Any]]) -> set[str]:
    return {province_of(u["loc"]) for u in units}
