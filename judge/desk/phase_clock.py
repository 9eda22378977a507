"""A phase's clock: the game's timing, when a phase started, its deadline, and how a deadline
is written for the game's players (on the game's own wall clock)."""

from __future__ import annotations

from datetime import date, datetime

from judge.clock import now
from judge.games.seats import SeatStatus
from judge.games.timing import Absence, GameTiming, next_deadline, timing_from_settings
from judge.reports.judge_style import deadline_text
from judge.store.games import Game, GameStatus

# Where a game's timing is kept in Game.settings (judge.games.timing's settings format); a game
# without it runs on the default GameTiming.
TIMING = "timing"
# Where the GM's SET START is kept (an ISO moment): no phase of the game runs before it.
START = "start"


def game_timing(game: Game) -> GameTiming:
    """The game's timing from its settings; the defaults when it has none."""
    return timing_from_settings(dict(game.settings.get(TIMING) or {}))


def deadline_words(game: Game, when: datetime) -> str:
    """A deadline as the players read it: njudge's date form on the game's own wall clock."""
    return deadline_text(when.astimezone(game_timing(game).tz))


def planned_start(game: Game) -> datetime | None:
    """The GM's SET START, if any."""
    kept = game.settings.get(START)
    return datetime.fromisoformat(kept) if isinstance(kept, str) else None


def phase_kind(phase: str) -> str:
    """The kind of a phase name (S1901M -> "M"), as judge.games.timing keys its timings."""
    return phase[-1]


def start_phase_clock(game: Game) -> None:
    """A phase starts now: store when, its deadline, and that the scheduler has seen nothing of
    it yet. Called once per phase, so an absence granted during a phase moves the next deadline,
    not this one (judge.games.timing.next_deadline)."""
    started = now()
    game.phase_started_at = started
    game.checked_at = started
    if game.status != GameStatus.ACTIVE or game.phase is None:
        game.deadline = None
        return
    playing = [s.power for s in game.seats if s.status == SeatStatus.PLAYING]
    absences = [
        Absence(s.power, date.fromisoformat(a["first"]), date.fromisoformat(a["last"]))
        for s in game.seats
        for a in s.absences or ()
    ]
    deadline = next_deadline(
        phase_kind(game.phase), started, game_timing(game), absences, playing=playing
    )
    # A first phase started (by the last SIGNON or FORCE BEGIN) before the GM's SET START is
    # due no earlier than that start, so game_started names the deadline the scheduler keeps.
    start = planned_start(game)
    game.deadline = max(deadline, start) if start is not None else deadline
