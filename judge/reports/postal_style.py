"""Results in the notation of the postal zines (the house rules of seed 004, section IV).

Orders are written short (``A Den-Swe``, ``F Nth C A Lon-Nwy``, ``B F Stp(nc)``). Plain text has
no underline or strike-through, so a failed order is wrapped in underscores (``_A Den-Mos_``) and
a lost centre in tildes (``~~Swe~~``); gained centres are in capitals and "Home" stands for a
power's home centres when it holds them all. Dislodged units carry their retreats,
``(d --, Mun, Kie, Pru)``, or ``(d/a)`` when they have none and are annihilated.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.engine.orders import (
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
from judge.engine.position import province_of
from judge.reports.phase import CentreLine, Entry, PhaseReport, centre_lines, entries, unused_builds

_WIDTH = 72
KEY = (
    "Key: _A Den-Mos_ failed (underlined in the zines); (d --, Mun, Kie) dislodged, may retreat "
    "to the places listed; (d/a) dislodged and annihilated; (off) removed; SWE centre gained; "
    "~~Swe~~ centre lost; Home: all home centres held; H hold, S support, MS mutual support, "
    "C convoy, B build; (nmr) no order received."
)


def abbreviation(loc: str) -> str:
    """``"stp/nc"`` -> ``"Stp(nc)"``: the map's three-letter code, capitalised, as the zines
    wrote provinces."""
    prov = province_of(loc)
    text = prov.capitalize()
    if prov != loc:
        text += f"({loc[len(prov) + 1 :]})"
    return text


def _unit(kind: str | None, loc: str) -> str:
    return f"{kind} {abbreviation(loc)}" if kind else abbreviation(loc)


def _mutual(report: PhaseReport, order: Support) -> bool:
    """Two units supporting each other in place: the zines' MS."""
    if order.dest is not None:
        return False
    for orders in report.orders.values():
        for other in orders:
            if (
                isinstance(other, Support)
                and other.dest is None
                and province_of(other.loc) == province_of(order.target)
                and province_of(other.target) == province_of(order.loc)
            ):
                return True
    return False


def order_text(report: PhaseReport, entry: Entry) -> str:
    """One order in zine notation, without marks."""
    order: Order | None = entry.order
    unit = entry.unit
    if order is None:
        assert unit is not None
        return _unit(unit.kind, unit.loc)
    if isinstance(order, Waive):
        return "B waived"
    if isinstance(order, Build):
        return f"B {_unit(order.unit_type, order.loc)}"
    kind = unit.kind if unit is not None else order.unit_type
    loc = unit.loc if unit is not None else order.loc
    head = _unit(kind, loc)
    if isinstance(order, Hold):
        return f"{head} H"
    if isinstance(order, Move | Retreat):
        return f"{head}-{abbreviation(order.dest)}"
    if isinstance(order, Support):
        target = report.before.unit_in(province_of(order.target))
        target_kind = target.kind if target is not None else order.target_type
        symbol = "MS" if _mutual(report, order) else "S"
        text = f"{head} {symbol} {_unit(target_kind, order.target)}"
        return text + (f"-{abbreviation(order.dest)}" if order.dest is not None else "")
    if isinstance(order, Convoy):
        return f"{head} C A {abbreviation(order.army_loc)}-{abbreviation(order.dest)}"
    if isinstance(order, Disband):
        return head
    raise TypeError(f"not an order: {order!r}")


def entry_text(report: PhaseReport, entry: Entry, nmr_mark: bool = True) -> str:
    """An order with its marks: underscores when it failed, retreats, (d/a), (off).

    `nmr_mark` is off when the whole power sent nothing and its heading says so already.
    """
    kind = report.phase.kind
    text = order_text(report, entry)
    if entry.order is None:
        if kind == MOVEMENT:
            text += " H (nmr)" if nmr_mark else " H"
        elif kind == RETREATS:
            text += " (off, nmr)"
        else:
            text += " (off, CD)"
    elif entry.failed:
        text = f"_{text}_"
    retreat_lost = isinstance(entry.order, Disband) or entry.failed
    if kind == RETREATS and entry.order is not None and retreat_lost:
        text += " (off)"
    if kind == ADJUSTMENTS and isinstance(entry.order, Disband) and entry.succeeded:
        text += " (off)"
    d = entry.dislodged
    if d is not None:
        if d.retreats:
            text += " (d --, " + ", ".join(abbreviation(loc) for loc in d.retreats) + ")"
        else:
            text += " (d/a)"
    return text


def _wrapped(head: str, items: Iterable[str], end: str = ".") -> list[str]:
    """`head` and the items, comma separated, wrapped between items only, never inside one."""
    items = list(items)
    lines: list[str] = []
    line = head.rstrip()
    for index, item in enumerate(items):
        piece = item + (end if index == len(items) - 1 else ",")
        if line.strip() and len(line) + 1 + len(piece) > _WIDTH:
            lines.append(line)
            line = "    " + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return lines


def centre_items(line: CentreLine) -> list[str]:
    """A power's centres in zine notation: Home, kept ones as Abc, GAINED ones, ~~lost~~ ones."""
    items: list[str] = []
    owned = set(line.owned)
    homes_whole = bool(line.home) and line.home <= owned and not (line.home & line.gained)
    if homes_whole:
        items.append("Home")
    for centre in line.owned:
        if homes_whole and centre in line.home:
            continue
        items.append(centre.upper() if centre in line.gained else abbreviation(centre))
    items.extend(f"~~{abbreviation(c)}~~" for c in line.lost)
    return items


def _centre_block(report: PhaseReport) -> list[str]:
    out = ["Supply centres:"]
    winners = set(report.result.victory)
    for line in centre_lines(report):
        due = line.adjustment
        if due > 0:
            adjust = f"builds {due}"
        elif due < 0:
            adjust = f"removes {-due}"
        else:
            adjust = "no change"
        centres, units = len(line.owned), line.units
        if not centres and not units:
            tail = " (eliminated)"
        else:
            tail = (
                f" ({centres} centre{'' if centres == 1 else 's'},"
                f" {units} unit{'' if units == 1 else 's'}: {adjust})"
            )
        if line.power in winners:
            tail += " VICTORY"
        items = centre_items(line) or ["none"]
        out.extend(_wrapped(f"{line.power}:", items, end=tail))
    return out


def _deadline(when: datetime) -> str:
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.strftime("%a %d %b %Y %H:%M %z")


def _closing(report: PhaseReport) -> list[str]:
    if report.result.victory:
        winners = " and ".join(report.result.victory)
        return [f"{winners} WINS. Game over."]
    if report.draw:
        return [f"DRAW agreed by unanimous vote: {', '.join(report.draw)}. Game over."]
    if report.concession:
        return [f"CONCEDED to {report.concession}. Game over."]
    text = f"Next: {report.next_phase.long_name()}"
    if report.next_deadline is not None:
        text += f", orders due {_deadline(report.next_deadline)}"
    return [text + "."]


def postal_text(report: PhaseReport, before_key: Sequence[str] = ()) -> str:
    """The results body in zine notation; `before_key`: a variant's own lines (Mercenary's
    money), after the results and before the key to the notation, which stays last."""
    phase = report.phase
    title = f"{phase.long_name()} ({phase.name})"
    out = [f"Game {report.game}: {title}" if report.game else title, ""]
    for power, lines in entries(report).items():
        silent = not report.orders.get(power) and phase.kind == MOVEMENT
        nmr = " (nmr)" if silent else " (general orders)" if power in report.general_orders else ""
        items = [entry_text(report, entry, nmr_mark=not silent) for entry in lines]
        spare = unused_builds(report, power)
        if spare:
            items.append(f"{spare} build{'' if spare == 1 else 's'} not used")
        out.extend(_wrapped(f"{power}{nmr}:", items))
    if report.centres_settled:
        out += [""] + _centre_block(report)
    out += [""] + _closing(report)
    out += list(before_key)
    out += [""] + textwrap.wrap(KEY, width=_WIDTH)
    return "\n".join(out) + "\n"
