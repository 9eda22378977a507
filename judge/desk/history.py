"""HISTORY and SUMMARY: a game's past from the store, for anyone who asks.

HISTORY mails the results of the processed phases in a range, in the game's report style, as an
observer saw them (njudge's HISTORY: "all messages that an observer would have seen"), each with
the press an observer read while it was played (press to everyone, grey press unsigned; never
partial press).
The reports are rebuilt from the stored phases (judge.desk.phase_records), never adjudicated
again. SUMMARY tells who plays each power, the supply centres at the end of every year, and
where the game stands. Both are public, as on njudge: no password is needed, and neither ever
names an address.

Readings chosen where njudge's text leaves room:
- With no FROM and TO, HISTORY covers the whole game (njudge's default was the last seven days
  of real time, which surprises a player who wants the game's start); LINES cuts it as on
  njudge (default 1000 lines), but only between phases, never inside one, and always sends at
  least one; the reply says where it stopped and how to ask for the rest. LINES above
  `MAX_LINES` is taken as `MAX_LINES`, so one mail stays a mail.
- A bound may be a phase (S1901M: phases from or up to it, in the order of play) or a date
  (phases processed from or up to that moment). A date without a year is the latest such day
  not after now (a history looks back); TO a date without a time of day includes that whole day.
- The game is the one named on the line, else the game of the seat the mail acts for, else the
  game the mail signed on to as GM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, time
from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import CaseError
from judge.clock import now
from judge.desk.endings import Ending
from judge.desk.mail_state import MailState, master_game, power_title
from judge.desk.phase_clock import deadline_words
from judge.desk.phase_records import phase_order, phase_report
from judge.desk.press_release import may_read, release_view
from judge.desk.processing import ENDING
from judge.desk.replies import Reply
from judge.desk.secret_boards import board_of_game, powers_known, secret_board_of, visibility_of
from judge.engine.calendar import ANY, RETREATS, parse_phase
from judge.games.seats import SeatStatus
from judge.language import command_values as cv
from judge.reports import OBSERVER, STYLES, report_text
from judge.store.game_queries import find_game, history, published_press
from judge.store.games import Game, GameStatus, Person, PhaseRecord
from judge.variants import OBSERVERS as SECRET_OBSERVERS
from judge.variants import variant

# njudge's default for LINES, and the most one HISTORY mail carries whatever LINES asks.
DEFAULT_LINES = 1000
MAX_LINES = 10_000
# Where the game's results style is kept (SET REPORT), and the style of a game without one.
REPORT_STYLE = "report"
DEFAULT_STYLE = "judge"


def _game_for(state: MailState, name: str | None, command: cv.Command) -> Game | None:
    """The game a HISTORY or SUMMARY line is about, or None with the reason in the problems."""
    where = f"line {command.line_no}"
    if name is not None:
        game = find_game(state.session, name)
        if game is None:
            state.problems.append(f"{where}: there is no game named {name}")
        return game
    if state.acting is not None:
        return state.acting.game
    if state.gm_game is not None:
        return state.gm_game
    state.problems.append(
        f"{where}: {command.keyword} needs a game: write {command.keyword} and the game's name "
        f"(LIST names the games)"
    )
    return None


def _style(game: Game) -> str:
    style = (game.settings or {}).get(REPORT_STYLE, DEFAULT_STYLE)
    return style if style in STYLES else DEFAULT_STYLE


def _moment(bound: cv.When, *, end: bool) -> datetime:
    """When a date bound falls: a date without a year is the latest such day not after now.
    Raises ValueError for a day the calendar does not have (30 Feb)."""
    current = now()
    default = time(23, 59, 59) if end else time(0, 0)
    moment = bound.resolve(current, default)
    if bound.relative_minutes is None and bound.year is None and moment > current:
        for year in range(moment.year - 1, moment.year - 9, -1):  # 29 Feb: back to a leap year
            try:
                return replace(bound, year=year).resolve(current, default)
            except ValueError:
                continue
    return moment


def _bound_test(
    state: MailState, game: Game, bound: cv.When | str | None, *, end: bool, line_no: int
) -> Callable[[PhaseRecord], bool] | None:
    """A test a phase must pass for this bound; None (with a problem) for a bound that is no
    phase of the game's calendar."""
    if bound is None:
        return lambda record: True
    if isinstance(bound, str):
        calendar = variant(game.variant).calendar
        limit = phase_order(bound, calendar)
        if limit is None:
            word = "TO" if end else "FROM"
            state.problems.append(
                f"line {line_no}: {word} {bound} is no phase of game {game.name} (phases are "
                "written like S1901M, F1901R, W1901A)"
            )
            return None

        def by_phase(record: PhaseRecord) -> bool:
            key = phase_order(record.phase, calendar)
            if key is None:
                return False
            return key <= limit if end else key >= limit

        return by_phase
    try:
        moment = _moment(bound, end=end)
    except ValueError:
        state.problems.append(f"line {line_no}: {bound.text()} is no day of the calendar")
        return None
    if end:
        return lambda record: record.processed_at <= moment
    return lambda record: record.processed_at >= moment


def _history(state: MailState, command: cv.History) -> None:
    """HISTORY [game] [FROM bound] [TO bound] [LINES n]: the results of past phases."""
    game = _game_for(state, command.game, command)
    if game is None:
        return
    after = _bound_test(state, game, command.start, end=False, line_no=command.line_no)
    before = _bound_test(state, game, command.end, end=True, line_no=command.line_no)
    if after is None or before is None:
        return
    records = history(state.session, game)
    numbered = [(i + 1, r) for i, r in enumerate(records)]
    chosen = [(n, r) for n, r in numbered if after(r) and before(r)]
    limit = min(command.lines or DEFAULT_LINES, MAX_LINES)
    press = observer_press(state.session, game, records)
    phases: list[dict[str, Any]] = []
    used = 0
    more_from = ""
    for sequence, record in chosen:
        text = observer_results(game, record, sequence)
        releases = press.get(record.id, [])
        size = len(text.splitlines()) + sum(len(r["text"].splitlines()) + 2 for r in releases)
        if phases and used + size > limit:
            more_from = record.phase
            break
        used += size
        phases.append(
            {
                "phase": record.phase,
                "processed": deadline_words(game, record.processed_at),
                "text": text.rstrip("\n"),
                "press": releases,
            }
        )
    # The press of the phase under way, when the history runs to the end of the game so far.
    since = press.get(None, []) if not more_from and command.end is None else []
    context: dict[str, Any] = {
        "game": game.name,
        "variant": variant(game.variant).title,
        "asked": command.redacted(),
        "phases": phases,
        "span": _span(phases),
        "recorded": len(records),
        "recorded_first": records[0].phase if records else "",
        "recorded_last": records[-1].phase if records else "",
        "lines": limit,
        "more_from": more_from,
        "press_since": since,
        "status": str(game.status),
        "phase": game.phase or "",
    }
    state.replies.append(Reply("history", "history", context))


def observer_results(game: Game, record: PhaseRecord, sequence: int) -> str:
    """The results of a stored phase as an observer read them, in the game's report style (a
    secret board: its public report alone); a phase this judge can no longer read says so."""
    try:
        return report_text(
            phase_report(game, record, sequence),
            _style(game),  # type: ignore[arg-type]
            OBSERVER,
            visibility_of(game),
        )
    except (CaseError, KeyError, TypeError, ValueError) as exc:
        return f"The stored results of {record.phase} cannot be read by this judge: {exc}"


def observer_press(
    session: Session, game: Game, records: list[PhaseRecord]
) -> dict[int | None, list[dict[str, Any]]]:
    """The press every observer read, as the observers read it (grey press unsigned), under
    the phase it was written in (the last run of that phase, after a ROLLBACK); None for press
    of the phase under way. Press stored before phases were kept with it goes under the first
    phase processed after it was published."""
    out: dict[int | None, list[dict[str, Any]]] = {}
    by_phase = {r.phase: r for r in records}
    for number, row in enumerate(published_press(session, game), start=1):
        if not may_read(row, None):
            continue  # partial press: its powers' and the GM's alone
        if row.phase is not None:
            record = by_phase.get(row.phase)
        else:
            published = row.published_at
            assert published is not None
            record = next((r for r in records if published <= r.processed_at), None)
        view = release_view(game, row, number, master=False)
        out.setdefault(record.id if record is not None else None, []).append(view)
    return out


def _span(phases: list[dict[str, Any]]) -> str:
    """`S1901M to W1901A`, `S1901M` alone, or nothing."""
    if not phases:
        return ""
    first, last = phases[0]["phase"], phases[-1]["phase"]
    return first if first == last else f"{first} to {last}"


def _since(game: Game, records: list[PhaseRecord], signed_on_at: datetime | None) -> str:
    """The phase a seat's holder came in at, when that was after the game's first phase: the
    first phase processed after the sign-on, else the phase now being played."""
    if signed_on_at is None or not records:
        return ""
    for record in records:
        if record.processed_at > signed_on_at:
            return "" if record is records[0] else record.phase
    return game.phase or ""


def _year_end_centres(records: list[PhaseRecord]) -> list[tuple[str, dict[str, int]]]:
    """(label, centre count per power): the board before the first phase, then the end of each
    year whose fall is settled, from the stored results. A row per year, as njudge's summary
    has it, so a long game grows down the page rather than off its side."""
    if not records:
        return []
    counts = [
        ("Start", {p: len(c) for p, c in records[0].position_before.get("centers", {}).items()})
    ]
    by_year: dict[int, dict[str, int]] = {}
    for record in records:
        try:
            phase = parse_phase(record.phase, ANY)
            following = parse_phase(record.results["next_phase"], ANY)
        except (KeyError, ValueError):
            continue
        if phase.season == "S":
            continue
        if following.year == phase.year and following.kind == RETREATS:
            continue  # the fall's retreats still move centres
        by_year[phase.year] = {
            p: len(c) for p, c in record.results.get("centers_after", {}).items()
        }
    counts += [(str(year), by_year[year]) for year in sorted(by_year)]
    return counts


def _column_labels(game: Game, powers: list[str]) -> list[str]:
    """Short headings for the centre table, one year a row: the first three letters of each
    power as the game writes it (Aus, Eng ...) when those tell the powers apart, else the
    names in full."""
    names = [power_title(game, power) for power in powers]
    short = [name[:3] for name in names]
    return short if len(set(short)) == len(short) else names


def _outcome(game: Game, records: list[PhaseRecord]) -> str:
    """How the game ended, in a sentence; empty while it goes on."""
    if game.status == GameStatus.TERMINATED:
        return "The game was terminated by its GM."
    if game.status != GameStatus.FINISHED:
        return ""
    victory = records[-1].results.get("victory", []) if records else []
    if victory:
        return (
            f"The game ended in a victory for {', '.join(power_title(game, p) for p in victory)}."
        )
    ending = Ending.from_settings(game.settings.get(ENDING))
    title = variant(game.variant).language.power_title
    return ending.sentence(title) if ending is not None else "The game is over."


def _earlier_holders(
    session: Session, records: list[PhaseRecord], power: str, current: int | None
) -> list[dict[str, str]]:
    """Who held the seat in the processed phases, as their seats were kept with each phase
    (`PhaseRecord.seats_before`), oldest first, without the holder of the seat now at the end:
    a name and the first and last phase each played. Phases kept without seats are skipped."""
    runs: list[tuple[int | None, str, str]] = []  # (person id, first phase, last phase)
    for record in records:
        kept = (record.seats_before or {}).get(power)
        if kept is None:
            continue
        person = kept.get("person_id")
        if runs and runs[-1][0] == person:
            runs[-1] = (person, runs[-1][1], record.phase)
        else:
            runs.append((person, record.phase, record.phase))
    if runs and runs[-1][0] == current:
        runs.pop()  # the holder now, named on the power's own line
    earlier = []
    for person_id, first, last in runs:
        if person_id is None:
            continue
        person = session.get(Person, person_id)
        name = (person.name if person is not None else None) or "name not given"
        earlier.append({"player": name, "first": first, "last": last})
    return earlier


def _summary(state: MailState, command: cv.Summary) -> None:
    """SUMMARY [game]: who plays each power, centres per year, the game's status."""
    game = _game_for(state, command.game, command)
    if game is None:
        return
    context = summary_context(state.session, game, master=master_game(state) is game)
    state.replies.append(Reply("summary", "summary", context))


def summary_context(
    session: Session,
    game: Game,
    *,
    master: bool = False,
    records: list[PhaseRecord] | None = None,
) -> dict[str, Any]:
    """SUMMARY's view of a game: who plays each power (by name, never by address), the centres
    at the end of every year and where the game stands; `master` for the GM's own (a secret
    board's powers are listed to him alone). `records`: the game's history, when read already."""
    if records is None:
        records = history(session, game)
    try:
        powers = list(board_of_game(game).powers)
    except (FileNotFoundError, KeyError, ValueError):
        powers = sorted(seat.power for seat in game.seats)
    hidden = 0
    counted = powers
    if secret_board_of(game) is not None and not master:
        # A secret board's powers are met, not listed: the players are counted, and the
        # centre counts shown are those published after each build (rule 7), under the
        # initials the publication names; its GM, who sees the whole board, reads them all.
        hidden = sum(1 for seat in game.seats if seat.person is not None)
        published = powers_known(game, SECRET_OBSERVERS)
        powers, counted = [], [p for p in powers if p in published]
    seats = {seat.power: seat for seat in game.seats}
    players = []
    for power in powers:
        seat = seats.get(power)
        if seat is None:
            continue
        holder = seat.person
        standing = "" if seat.status in (SeatStatus.PLAYING, SeatStatus.OPEN) else str(seat.status)
        if holder is not None:
            player = holder.name or "name not given"
        else:
            player = "open" if seat.status == SeatStatus.OPEN else "nobody"
        players.append(
            {
                "power": power_title(game, power),
                "player": player,
                "since": _since(game, records, seat.signed_on_at) if holder is not None else "",
                "standing": standing,
                "earlier": _earlier_holders(session, records, power, seat.person_id),
            }
        )
    table = _year_end_centres(records)
    columns = _column_labels(game, counted)
    width = max((len(label) for label in columns), default=0) + 2
    return {
        "game": game.name,
        "variant": variant(game.variant).title,
        "rules": list(game.rules),
        "status": str(game.status),
        "phase": game.phase or "",
        "deadline": (
            deadline_words(game, game.deadline)
            if game.deadline is not None and game.status == GameStatus.ACTIVE
            else ""
        ),
        "gm": (game.gm.name or "name not given") if game.gm is not None else "",
        "players": players,
        # Cells right-aligned to the widest heading, so the counts stand under their powers.
        "columns": [label.rjust(width) for label in columns],
        "years": [
            {"year": label, "cells": [str(counts.get(p, 0)).rjust(width) for p in counted]}
            for label, counts in table
        ]
        if counted
        else [],
        "hidden_players": hidden,
        "phases": len(records),
        "outcome": _outcome(game, records),
    }


HANDLERS: dict[type, Callable[[Any, Any], None]] = {
    cv.History: _history,
    cv.Summary: _summary,
}
