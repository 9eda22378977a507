"""The terms a game runs its current phase on, as the GM's settings left them.

A game's timing (`Game.settings["timing"]`, judge.games.timing's format) applies to phases as
they start; njudge's rule is that a GM who changes it changes the phases to come, not the one
being played. What the GM sets for the current phase alone is kept beside it, under
`Game.settings["current_phase"]`, tagged with the phase's name so it lapses by itself when the
phase is processed: the end of grace (SET GRACE), and the timing the phase started with when
the GM changed its kind's timing during it. SET START is kept as `Game.settings["start"]`: no
phase runs before it. The scheduler and the GM's SET commands read these through this module, so
both see one meaning of "the current phase's grace" and "the earliest it may run".
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from judge.desk.phase_clock import game_timing, phase_kind, planned_start
from judge.games.missed_turns import POLICIES, Policy, policy_named
from judge.games.timing import PhaseTiming, phase_timing_from_settings, phase_timing_to_settings
from judge.store.games import Game

CURRENT = "current_phase"  # {"phase": "S1901M", "grace_ends": iso, "timing": {...}}
MISSED_TURNS = "missed_turns"  # the policy's name, one of judge.games.missed_turns.POLICIES
# njudge's NoNMR: the seats abandoned at the end of grace of this phase, whose taker gets a
# fresh deadline: {"phase": "S1901M", "powers": ["ITALY"]}.
WAITING = "waiting_for_taker"
# A game that has not chosen a missed-turn policy plays the postal one (seed 004).
DEFAULT_POLICY = "postal"


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def _moment(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    return datetime.fromisoformat(text)


def current_terms(game: Game) -> dict[str, Any]:
    """What the GM set for the game's current phase alone (empty when nothing, or when it was
    set for a phase already processed)."""
    terms = game.settings.get(CURRENT)
    if not isinstance(terms, dict) or terms.get("phase") != game.phase or game.phase is None:
        return {}
    return dict(terms)


def update_terms(game: Game, **changes: Any) -> None:
    """Set terms of the current phase (a value None removes the term)."""
    terms = current_terms(game)
    terms["phase"] = game.phase
    for key, value in changes.items():
        if value is None:
            terms.pop(key, None)
        else:
            terms[key] = value
    game.settings = {**game.settings, CURRENT: terms}


def phase_timing(game: Game) -> PhaseTiming:
    """The timing the current phase runs on: the one it started with when the GM has changed
    its kind's timing since, else the game's timing for its kind."""
    assert game.phase is not None
    base = game_timing(game).for_kind(phase_kind(game.phase))
    pinned = current_terms(game).get("timing")
    if isinstance(pinned, dict):
        return phase_timing_from_settings(pinned, base)
    return base


def pin_phase_timing(game: Game) -> None:
    """Keep the current phase on the timing it started with, before the GM changes its kind's
    timing (the change applies from the next phase)."""
    if game.phase is None or "timing" in current_terms(game):
        return
    base = game_timing(game).for_kind(phase_kind(game.phase))
    update_terms(game, timing=phase_timing_to_settings(base))


def set_grace_end(game: Game, moment: datetime | None) -> None:
    update_terms(game, grace_ends=_iso(moment) if moment is not None else None)


def grace_override(game: Game) -> datetime | None:
    """The end of grace the GM set for this phase, if any."""
    return _moment(current_terms(game).get("grace_ends"))


def grace_end(game: Game) -> datetime | None:
    """When the current phase's grace ends: the GM's SET GRACE, else the deadline plus the
    phase's grace (never before the deadline)."""
    if game.deadline is None or game.phase is None:
        return None
    override = grace_override(game)
    if override is not None:
        return max(override, game.deadline)
    return game.deadline + phase_timing(game).grace


def not_before(game: Game) -> datetime | None:
    """The first moment the current phase may run: its start plus njudge's MIN, and never
    before the GM's SET START; None when nothing holds it back."""
    moments: list[datetime] = []
    earliest = phase_timing(game).earliest if game.phase is not None else timedelta(0)
    if game.phase_started_at is not None and earliest > timedelta(0):
        moments.append(game.phase_started_at + earliest)
    start = planned_start(game)
    if start is not None:
        moments.append(start)
    return max(moments) if moments else None


def policy_name(game: Game) -> str:
    """The name of the game's missed-turn policy (SET NMR / SET NONMR)."""
    name = game.settings.get(MISSED_TURNS)
    return name if isinstance(name, str) and name in POLICIES else DEFAULT_POLICY


def missed_turn_policy(game: Game) -> Policy:
    return policy_named(policy_name(game))
