"""The reports of a turn in the gamesmaster's notation (section II): a private one for each
player, written from what his own rats met and his knowledge alone; the GM's full one; and the
public one (rule 7: the supply-centre counts after each build, nothing else).
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.variants.algernon.knowledge import Knowledge
from judge.variants.algernon.phases import Encounter, Turn

SPRING_PUBLIC = "Nothing is published after a spring turn (rule 7: only the supply-centre counts after each build)."


@dataclass(frozen=True)
class PlayerTurn:
    """The part of a turn one player is told of: his rats' encounters, his builds and
    removals, his units, and the public counts. Nothing else reaches his report."""

    power: str
    phase: str
    encounters: tuple[Encounter, ...]
    built: tuple[str, ...]
    unbuilt: int
    removed: tuple[str, ...]
    units: tuple[str, ...]
    centres: dict[str, int] | None


def seen_by(turn: Turn, power: str) -> PlayerTurn:
    return PlayerTurn(
        power=power,
        phase=turn.phase,
        encounters=tuple(turn.encounters.get(power, ())),
        built=tuple(turn.built.get(power, ())),
        unbuilt=turn.unbuilt.get(power, 0),
        removed=tuple(turn.removed.get(power, ())),
        units=tuple(sorted(u.province for u in turn.units_after if u.power == power)),
        centres=dict(turn.centres) if turn.centres is not None else None,
    )


def space_info(known: Knowledge, space: str, entry: int) -> str:
    """II.B: `VT1 6`, `RT2 NSC 4`, `BN4 HSC 5`, from what the player knows of the space."""
    facts = known.spaces[space]
    value = f" {facts['centre']}" if facts.get("centre") else ""
    return f"{space.upper()}{entry}{value} {facts['portals']}"


def encounter_line(story: Encounter, known: Knowledge) -> str:
    parts = [f"{story.order}:"]
    if story.entered is not None and story.swap_with is None:
        parts.append(space_info(known, *story.entered))
    if story.outcome:
        parts.append(story.outcome)
    if story.swap_with is not None:
        parts.append(f"(swap with {story.swap_with})")
    if story.cut:
        parts.append("support cut")
    parts += [n.text() for n in story.at_target]
    parts += [n.text() for n in story.at_home]
    if story.dislodged:
        parts.append("Dislodged;")
        if story.retreat is not None:
            portal, space, entry = story.retreat
            parts.append(
                f"retreat out {story.space.upper()}{portal}: {space_info(known, space, entry)}"
            )
            if story.retreat_failed:
                parts.append("Bounce; destroyed")
        else:
            parts.append("no open portal; destroyed")
    if len(parts) == 1:
        parts.append("done")
    return " ".join(parts)


def centres_line(centres: dict[str, int]) -> str:
    return "Supply centres: " + ", ".join(f"{p} {n}" for p, n in sorted(centres.items()))


def player_text(view: PlayerTurn, known: Knowledge) -> str:
    """A player's private report (section II), from his part of the turn and his knowledge."""
    lines = [encounter_line(story, known) for story in view.encounters]
    if view.built:
        lines.append("Built at: " + ", ".join(s.upper() for s in view.built))
    if view.unbuilt:
        lines.append(f"Builds not made (no free home of yours): {view.unbuilt}")
    if view.removed:
        lines.append("Removed: " + ", ".join(s.upper() for s in view.removed))
    lines.append("Units At: " + (", ".join(s.upper() for s in view.units) or "none"))
    if view.centres is not None:
        lines.append(centres_line(view.centres))
    return "\n".join(lines) + "\n"


def player_report(turn: Turn, power: str, known: Knowledge) -> str:
    return player_text(seen_by(turn, power), known)


def master_report(turn: Turn) -> str:
    """The GM's report: every order with where it really led, every player's units."""
    lines = [f"Gamesmaster's report, {turn.phase}:"]
    lines += [f"  {line}" for line in turn.master_lines]
    for power in sorted(turn.board.powers):
        units = sorted(u.province.upper() for u in turn.units_after if u.power == power)
        extra = ""
        if turn.built.get(power):
            extra += "; built " + ", ".join(s.upper() for s in turn.built[power])
        if turn.removed.get(power):
            extra += "; removed " + ", ".join(s.upper() for s in turn.removed[power])
        lines.append(f"  {power} units at: {', '.join(units) or 'none'}{extra}")
    if turn.centres is not None:
        lines.append(centres_line(turn.centres))
    return "\n".join(lines) + "\n"


def public_report(turn: Turn) -> str:
    """What observers read (rule 7)."""
    if turn.centres is None:
        return SPRING_PUBLIC + "\n"
    return centres_line(turn.centres) + "\n"
