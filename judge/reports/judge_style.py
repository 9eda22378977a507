"""Results in the njudge layout, which mapping tools parse (see judge/reports/README.md).

Line shapes follow njudge's results text: ``Austria: Army Vienna -> Galicia.`` with a failure
mark ``  (*bounce*)`` after the full stop, the dislodged units with their retreats, the supply
centre ownership after a fall turn with the adjustments due, then the next phase and deadline.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from datetime import UTC, datetime

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, Phase
from judge.engine.geography import Map, Terrain
from judge.engine.orders import Build, Convoy, Disband, Hold, Move, Retreat, Support, Waive
from judge.engine.position import province_of
from judge.engine.results import FAILURE, ILLEGAL, VOID
from judge.language.format import format_order, location_name
from judge.reports.phase import (
    CentreLine,
    Entry,
    PhaseReport,
    centre_lines,
    entries,
    power_order,
    unused_builds,
)

_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_NEXT_KINDS = {"M": "Movement", "R": "Retreats", "A": "Adjustments"}
_HEADINGS = {"M": "Movement results", "R": "Retreat results", "A": "Adjustment orders"}
_UNIT_WORDS = {"A": "Army", "F": "Fleet", "AF": "Army/Fleet"}
_WIDTH = 78


def power_title(power: str) -> str:
    """``"AUSTRIA"`` -> ``"Austria"``, as njudge capitalises power names."""
    return power.title()


def deadline_text(when: datetime) -> str:
    """njudge's date form: ``Wed Oct 30 2002 23:30:00 +0100``; a naive time is taken as UTC."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.strftime("%a %b %d %Y %H:%M:%S %z")


def phase_words(phase: Phase) -> str:
    """``Movement for Fall of 1901``: how njudge names the next phase."""
    return f"{_NEXT_KINDS[phase.kind]} for {_SEASONS[phase.season]} of {phase.year}"


def _in(game_map: Map, loc: str) -> str:
    """``in Vienna`` or ``in the North Sea``: njudge says "the" before a sea."""
    province = game_map.provinces.get(province_of(loc))
    article = "in the" if province is not None and province.terrain is Terrain.SEA else "in"
    return f"{article} {location_name(loc, game_map)}"


def _unit(game_map: Map, kind: str | None, loc: str) -> str:
    return f"{_UNIT_WORDS.get(kind or '', kind or 'Unit')} {location_name(loc, game_map)}"


def _pad(power: str, width: int) -> str:
    """``Austria: `` padded to the longest power name, as njudge lines up retreat and build
    lines."""
    name = power_title(power)
    return f"{name}: " + " " * max(0, width - len(name))


def _movement_line(report: PhaseReport, entry: Entry) -> str:
    game_map = report.game_map
    order = entry.order
    head = f"{power_title(entry.power)}: "
    if order is None:
        assert entry.unit is not None
        text = f"{_unit(game_map, entry.unit.kind, entry.unit.loc)}, No Order Processed."
        return head + text + ("  (*dislodged*)" if entry.dislodged else "")
    if isinstance(order, Hold | Move | Support | Convoy):
        unit = entry.unit
        kind = unit.kind if unit is not None else order.unit_type
        loc = unit.loc if unit is not None else order.loc
        text = _unit(game_map, kind, loc) + _movement_action(report, entry)
    else:
        text = format_order(order, game_map, "full")
    words = _movement_marks(entry)
    mark = f"  (*{', '.join(words)}*)" if words else ""
    return f"{head}{text}.{mark}"


def _movement_action(report: PhaseReport, entry: Entry) -> str:
    game_map = report.game_map
    order = entry.order
    if isinstance(order, Hold):
        return " HOLD"
    if isinstance(order, Move):
        return f" -> {location_name(order.dest, game_map)}"
    if isinstance(order, Support | Convoy):
        target_loc = order.target if isinstance(order, Support) else order.army_loc
        target = report.before.unit_in(province_of(target_loc))
        prefix = ""
        if target is not None and target.power != entry.power:
            info = game_map.powers.get(target.power)
            prefix = (info.adjective if info else power_title(target.power)) + " "
        if isinstance(order, Support):
            kind = target.kind if target is not None else order.target_type
            shown = target.loc if target is not None else order.target
            text = f" SUPPORT {prefix}{_unit(game_map, kind, shown)}"
            if order.dest is not None:
                text += f" -> {location_name(order.dest, game_map)}"
            return text
        army = location_name(order.army_loc, game_map)
        return f" CONVOY {prefix}Army {army} -> {location_name(order.dest, game_map)}"
    raise TypeError(f"not a movement order: {order!r}")


def _movement_marks(entry: Entry) -> list[str]:
    """njudge's words for what went wrong: bounce, cut, void, no convoy, dislodged."""
    words: list[str] = []
    outcome = entry.outcome
    order = entry.order
    if outcome is not None and outcome.result in (VOID, ILLEGAL):
        words.append("void")
    elif outcome is not None and outcome.result == FAILURE:
        reason = outcome.reason
        if isinstance(order, Move):
            convoy_failed = reason.startswith(("no convoy", "the convoy"))
            words.append("no convoy" if convoy_failed else "bounce")
        elif isinstance(order, Support):
            words.append("cut")
        elif isinstance(order, Convoy) and not reason.startswith("dislodged"):
            words.append("no convoy")
    if entry.dislodged is not None:
        words.append("dislodged")
    return words


def _dislodged_block(report: PhaseReport) -> list[str]:
    game_map = report.game_map
    ranked = {p: i for i, p in enumerate(power_order(report))}
    out = []
    for d in sorted(report.result.dislodged, key=lambda d: ranked.get(d.unit.power, 99)):
        info = game_map.powers.get(d.unit.power)
        adjective = info.adjective if info else power_title(d.unit.power)
        unit = _UNIT_WORDS.get(d.unit.kind, d.unit.kind)
        text = f"The {adjective} {unit} {_in(game_map, d.unit.loc)}"
        if d.retreats:
            options = " or ".join(location_name(loc, game_map) for loc in d.retreats)
            text += f" can retreat to {options}."
        else:
            text += " with no valid retreats was destroyed."
        out.extend(textwrap.wrap(text, width=_WIDTH + 1, break_on_hyphens=False))
    return out


def _retreat_line(report: PhaseReport, entry: Entry, width: int) -> str:
    game_map = report.game_map
    order = entry.order
    unit = entry.unit
    head = _pad(entry.power, width)
    if unit is None:
        assert order is not None
        return f"{head}{format_order(order, game_map, 'full')}.  (*void*)"
    text = f"{_UNIT_WORDS.get(unit.kind, unit.kind):<5} {location_name(unit.loc, game_map)}"
    if order is None:
        return f"{head}{text}, No Order Processed (DISBAND)."
    if isinstance(order, Disband):
        return f"{head}{text} DISBAND."
    if isinstance(order, Retreat | Move):
        text += f" -> {location_name(order.dest, game_map)}"
        if entry.succeeded:
            return f"{head}{text}."
        if entry.outcome is not None and entry.outcome.result == FAILURE:
            return f"{head}{text} (*bounce, destroyed*)."
        return f"{head}{text} (*void, destroyed*)."
    # Not a retreat order at all: the unit goes unless another order for it stood.
    gone = ", destroyed" if unit in report.result.disbanded else ""
    return f"{head}{format_order(order, game_map, 'full')}.  (*void{gone}*)"


def _adjustment_line(report: PhaseReport, entry: Entry, width: int) -> str:
    game_map = report.game_map
    order = entry.order
    head = _pad(entry.power, width)
    if order is None:
        assert entry.unit is not None
        kind = _UNIT_WORDS.get(entry.unit.kind, entry.unit.kind).lower()
        return f"{head}Defaults, removing the {kind} {_in(game_map, entry.unit.loc)}."
    void = "" if entry.succeeded else "  (*void*)"
    if isinstance(order, Waive):
        return f"{head}Build waived.{void}"
    if isinstance(order, Build):
        kind = {"A": "an army", "F": "a fleet"}.get(order.unit_type or "", "a unit")
        return f"{head}Builds {kind} in {location_name(order.loc, game_map)}.{void}"
    if isinstance(order, Disband):
        unit = entry.unit
        kind = _UNIT_WORDS.get(unit.kind, unit.kind).lower() if unit else "unit"
        where = _in(game_map, unit.loc if unit else order.loc)
        return f"{head}Removes the {kind} {where}.{void}"
    return f"{head}{format_order(order, game_map, 'full')}.{void}"


def _ownership_block(report: PhaseReport, lines: list[CentreLine]) -> list[str]:
    """``Ownership of supply centers:`` then the centre names and the adjustment counts."""
    names = {c: p.name for c, p in report.game_map.provinces.items()}
    longest = max((len(power_title(c.power)) for c in lines), default=7)
    column = longest + 4
    out = ["Ownership of supply centers:", ""]
    for line in lines:
        if not line.owned:
            continue
        head = f"{power_title(line.power)}:".ljust(column)
        text = ", ".join(names.get(c, c.upper()) for c in line.owned) + "."
        out.extend(
            textwrap.wrap(
                text,
                width=_WIDTH,
                initial_indent=head,
                subsequent_indent=" " * column,
                break_on_hyphens=False,
            )
        )
    out.append("")
    winners = set(report.result.victory)
    for line in lines:
        centres, units, due = len(line.owned), line.units, line.adjustment
        if not centres and not units:
            continue
        verb = "Builds " if due >= 0 else "Removes"
        text = (
            f"{power_title(line.power) + ':':<{column - 1}}"
            f"{centres:2d} Supply center{', ' if centres == 1 else 's,'} "
            f"{units:2d} Unit{': ' if units == 1 else 's:'}"
            f"  {verb} {abs(due):2d} unit{'' if abs(due) == 1 else 's'}."
        )
        pad = " " if abs(due) == 1 else ""
        if line.power in winners:
            text += f"{pad}  (* VICTORY!! *)"
        elif line.power in report.civil_disorder:
            text += f"{pad}  (* CD *)"
        out.append(text)
    return out


def _closing(report: PhaseReport) -> list[str]:
    game = f"Game '{report.game}'" if report.game else "The game"
    if report.result.victory:
        winners = _and(power_title(p) for p in report.result.victory)
        return [f"{game} has ended in a victory for {winners}.", "", _OVER]
    if report.draw:
        return [
            f"{game} has been declared a draw between {_and(map(power_title, report.draw))}.",
            "",
            _OVER,
        ]
    if report.concession:
        return [f"{game} has been conceded to {power_title(report.concession)}.", "", _OVER]
    of = f" of '{report.game}'" if report.game else ""
    out = [f"The next phase{of} will be {phase_words(report.next_phase)}."]
    if report.next_deadline is not None:
        out.append(f"The deadline for orders will be {deadline_text(report.next_deadline)}.")
    return out


_OVER = "The game is over.  Thank you for playing."


def _and(names: Iterable[str]) -> str:
    """``France``, ``France and Italy``, ``Austria, England and France``."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def heading(report: PhaseReport) -> str:
    """``Movement results for Spring of 1901.  (game.001)``."""
    phase = report.phase
    text = f"{_HEADINGS[phase.kind]} for {_SEASONS[phase.season]} of {phase.year}."
    if report.game:
        seq = f".{report.sequence:03d}" if report.sequence is not None else ""
        text += f"  ({report.game.lower()}{seq})"
    return text


def judge_text(report: PhaseReport) -> str:
    """The results body in the njudge layout."""
    kind = report.phase.kind
    width = max((len(power_title(p)) for p in report.game_map.powers), default=7)
    out = [heading(report)]
    for power, lines in entries(report).items():
        out.append("")
        for entry in lines:
            if kind == MOVEMENT:
                out.append(_movement_line(report, entry))
            elif kind == ADJUSTMENTS:
                out.append(_adjustment_line(report, entry, width))
            else:
                out.append(_retreat_line(report, entry, width))
        spare = unused_builds(report, power)
        if spare:
            out.append(f"{_pad(power, width)}{spare} build{'' if spare == 1 else 's'} not used.")
        if power in report.general_orders:
            out.append(f"({power_title(power)} sent no orders: its general orders were played.)")
    if kind == MOVEMENT and report.result.dislodged:
        out += ["", "", "The following units were dislodged:", ""]
        out += _dislodged_block(report)
    if report.centres_settled:
        out += ["", ""] + _ownership_block(report, centre_lines(report))
    out += [""] + _closing(report)
    return "\n".join(out) + "\n"


__all__ = ["deadline_text", "heading", "judge_text", "phase_words", "power_title"]
