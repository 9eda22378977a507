"""How a game ends other than by victory: a draw every surviving power voted for (SET DRAW) or a
concession every other surviving power agreed to (SET CONCEDE).

The votes are the seats' (`Seat.draw_vote`, `Seat.concession`, set by judge.desk.player_settings)
and are read once, when a phase has been processed (`game_ending`, called by
judge.desk.processing): the ending takes effect with that phase, and the results mail
announces it. As on njudge (its "draws" and "concessions" help), a vote is good for one phase
only: every vote is cleared when the phase is processed, so nobody's old vote ends a game in a
position they never saw.

Readings where njudge's text is silent or this judge is simpler:
- A power *survives* while it has a unit on the board (dislodged ones included) or a supply
  centre, in the position after the phase just processed.
- The *voters* are the surviving powers someone plays (seat status playing). A power in civil
  disorder, or an open or resigned seat waiting for a replacement, has nobody to vote and does
  not block an ending; it is still a survivor, so a draw of all survivors includes it.
- A *draw* passes when every voter voted for the same set of powers, that set includes each
  voter and holds survivors only, two at least. A vote without a list (DIAS) stands for every survivor, so it
  matches a list naming exactly the survivors. (njudge's NoDIAS subsets, "the largest draw
  every voter accepts", are not offered: a vote is for one draw.)
- A *concession* to a surviving power passes when every voter other than that power conceded
  to it; the power conceded to need not vote.
- When both pass at once, the draw is declared: every voter, the power conceded to included,
  asked for it.
- A victory on the board in the same phase comes first; no vote is read then.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from judge.desk.secret_boards import board_of_game
from judge.engine.results import PhaseResult
from judge.games.seats import SeatStatus
from judge.store.games import Game
from judge.variants import variant


@dataclass(frozen=True)
class Ending:
    """A game over without a victory: the powers in the draw, or the power conceded to."""

    draw: tuple[str, ...] = ()
    concession: str | None = None
    claimed: tuple[str, ...] = ()  # a win the powers claimed together (Mercator's rule 10)

    def as_settings(self) -> dict[str, object]:
        """The ending as the game's settings keep it: {"draw": [...]}, {"concession": X} or
        {"claimed": [...]}."""
        if self.draw:
            return {"draw": list(self.draw)}
        if self.claimed:
            return {"claimed": list(self.claimed)}
        return {"concession": self.concession}

    def sentence(self, title: Callable[[str], str]) -> str:
        """How the game ended, for SUMMARY, each power written by `title` (the variant's
        Variant.language.power_title)."""
        if self.draw:
            return f"The game ended in a draw between {_names(self.draw, title)}."
        if self.claimed:
            return (
                f"The game was won by {_names(self.claimed, title)}, who claimed the win together."
            )
        return f"The game was conceded to {title(self.concession or '')}."

    @classmethod
    def from_settings(cls, kept: object) -> Ending | None:
        """The ending kept by as_settings; None when there is none (or it is not one)."""
        if not isinstance(kept, dict):
            return None
        if kept.get("draw"):
            return cls(draw=tuple(kept["draw"]))
        if kept.get("concession"):
            return cls(concession=str(kept["concession"]))
        if kept.get("claimed"):
            return cls(claimed=tuple(kept["claimed"]))
        return None


def _names(powers: tuple[str, ...], title: Callable[[str], str]) -> str:
    titled = [title(p) for p in powers]
    return ", ".join(titled[:-1]) + " and " + titled[-1] if len(titled) > 1 else "".join(titled)


@dataclass(frozen=True)
class Vote:
    """One voter's standing votes: the draw it accepts (None: no draw vote; empty: all
    survivors) and the power it concedes to, if any."""

    power: str
    draw: frozenset[str] | None = None
    concession: str | None = None


def surviving_powers(position: Mapping[str, Any] | None) -> frozenset[str]:
    """The powers with a unit (dislodged or not) or a supply centre in a stored position (the
    adjudicate case format of docs/ADJUDICATE.md)."""
    if not position:
        return frozenset()
    alive = {unit["power"] for unit in position.get("units", ())}
    alive |= {unit["power"] for unit in position.get("dislodged", ())}
    alive |= {power for power, centres in (position.get("centers") or {}).items() if centres}
    return frozenset(alive)


def agreed_ending(survivors: frozenset[str], votes: Iterable[Vote]) -> Ending | None:
    """The ending the voters agree on, by the rules in this module's docstring, or None.

    `votes` holds one Vote per power someone plays (those that did not vote too: an absent vote
    blocks); votes of powers that no longer survive are not counted.
    """
    voters = [vote for vote in votes if vote.power in survivors]
    if not voters:
        return None
    wanted = [survivors if vote.draw == frozenset() else vote.draw for vote in voters]
    first = wanted[0]
    if (
        first is not None
        and len(first) > 1  # a "draw" of one power would be a victory nobody won on the board
        and all(draw == first for draw in wanted)
        and first <= survivors
        and all(vote.power in first for vote in voters)
    ):
        return Ending(draw=tuple(sorted(first)))
    for power in sorted(survivors):
        conceding = [vote for vote in voters if vote.power != power]
        if conceding and all(vote.concession == power for vote in conceding):
            return Ending(concession=power)
    return None


def game_votes(game: Game) -> list[Vote]:
    """The votes of every seat someone plays, as they stand now."""
    return [
        Vote(
            seat.power,
            frozenset(seat.draw_vote) if seat.draw_vote is not None else None,
            seat.concession,
        )
        for seat in game.seats
        if seat.person_id is not None and seat.status == SeatStatus.PLAYING
    ]


def game_ending(session: Session, game: Game, result: PhaseResult) -> Ending | None:
    """The draw or concession the seats have agreed, as the phase just adjudicated ends (the
    game's position is already the one after it); None while the game goes on. Every vote is
    cleared: a vote holds for the phase it was cast in."""
    ending = None
    if not result.victory:
        ending = claimed_ending(game, result) or agreed_ending(
            surviving_powers(game.position), game_votes(game)
        )
    for seat in game.seats:
        seat.draw_vote = None
        seat.concession = None
    if CLAIMS in game.settings:
        game.settings = {k: v for k, v in game.settings.items() if k != CLAIMS}
    return ending


# Where a game keeps the wins claimed in its current phase (judge.desk.player_settings).
CLAIMS = "claims"


def claims_not_won(
    claims: Mapping[str, Sequence[str]], ending: Ending | None
) -> tuple[tuple[str, ...], ...]:
    """The wins claimed this phase (each combine once, as its members claimed it) that the
    phase did not grant, for the results to tell (a claim holds for its phase alone)."""
    won = frozenset(ending.claimed) if ending is not None else frozenset()
    combines = {tuple(combine) for combine in claims.values()}
    return tuple(sorted(c for c in combines if frozenset(c) != won))


def claimed_ending(game: Game, result: PhaseResult) -> Ending | None:
    """A win claimed together by the powers of a combine this phase, where the game's variant
    has claimed wins (Mercator's rule 10) and grants this one."""
    decide = variant(game.variant).rules.decide_claims
    claims = game.settings.get(CLAIMS)
    if decide is None or not claims:
        return None
    combines = {power: frozenset(combine) for power, combine in claims.items()}
    won = decide(board_of_game(game), result, combines)
    return Ending(claimed=tuple(won)) if won else None
