"""The game's settings by mail: the GM's timing (SET DEADLINE, SET GRACE, SET START, SET MOVE |
RETREAT | ADJUST ...), the missed-turn policy (SET NMR / SET NONMR), the results style (SET
REPORT), and a player's absences (SET ABSENCE / SET NOABSENCE).

The GM's commands need `SIGNON M game password` earlier in the mail, or the mail sent to the
GM's reply address (judge.desk.mail_state.gm_required); each is
answered with the setting as it now stands and the current phase's deadline, and, as on njudge
("any SET command ... will generate a message that will be sent to all people involved in the
game"), every player, observer and the GM are told of the change. Readings chosen where njudge
or the issue leaves room:

- A date without a time of day means the current phase's deadline hour on the game's own clock
  (23:30 when its kind has no clock), as njudge took "the clock setting of the pending phase".
- SET DEADLINE refuses a moment already past. Moving it later moves the end of grace with it
  (unless the GM set one later still); moving it earlier keeps grace where it was (njudge).
- SET GRACE sets the end of grace of the current phase only; it may not fall before the
  deadline or in the past.
- SET DEADLINE and SET GRACE say when the phase will actually run (`when_it_runs`): early with
  every order in (after DELAY, never before SET START or MIN), at the deadline, or, with orders
  missing, when the last come in during grace or when grace ends, and what the missed-turn
  policy then does; a GM who sets a deadline minutes ahead for a test learns that a missing
  player holds the phase until grace ends, days later, and the GM's answer says how to shorten
  it (SET GRACE for this phase, SET MOVE GRACE for the phases to come, or PROCESS).
- SET START on a forming game is its planned start: no phase runs before it, and the first
  phase's deadline falls no earlier (phase_clock.start_phase_clock). On a running game it holds the
  current phase back until then and moves the deadline to it when later (njudge).
- SET MOVE | RETREAT | ADJUST changes the game's timing for phases that start from now on; the
  phase being played keeps the terms it started with (njudge: "will not change the deadlines
  for the currently pending phase"). njudge's CLOCK is the deadline hour (-1: exactly NEXT
  after the start), NEXT the least time from a phase's start to its deadline, MIN the least
  time before it may run at all, GRACE and DELAY as in judge.games.timing; DAYS is njudge's
  Sunday-first mask (lower-case letters, njudge's "after noon", count as allowed days).
- SET NONMR is njudge's default: a power still late when grace ends is abandoned, its seat
  opens to any taker and the game waits for one (policy "njudge"). SET NMR without a name
  keeps a policy that never waits and turns njudge's waiting one into "njudge-no-wait" (the
  late power's units hold, the seat stays open). SET NMR postal | njudge | njudge-no-wait names
  the policy (judge.games.missed_turns.POLICIES). A game that chose nothing plays "postal".
- SET ABSENCE is a seat's, by its reply address or a SIGNON with its password earlier in the
  mail; a From: line alone never grants one. Absences are days on the game's clock and move
  the next deadline to fall a day after the absence, never the current one (njudge's rule),
  within the game's cap (judge.games.timing.grant_absence). SET NOABSENCE without a date
  withdraws every absence not yet over; with a date, the absence starting that day. The GM is
  told of both.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from judge.clock import now
from judge.desk.mail_state import (
    MailState,
    game_readers,
    gm_reply_address,
    gm_required,
    power_title,
    reply_address,
)
from judge.desk.phase_clock import START, TIMING, deadline_words, game_timing, phase_kind
from judge.desk.phase_terms import (
    MISSED_TURNS,
    grace_end,
    grace_override,
    not_before,
    phase_timing,
    pin_phase_timing,
    policy_name,
    set_grace_end,
)
from judge.desk.replies import Reply
from judge.games.missed_turns import POLICIES
from judge.games.timing import (
    Absence,
    AbsenceRefused,
    TimingError,
    describe_phase_timing,
    grant_absence,
    timing_from_settings,
    withdraw_absence,
)
from judge.language import command_values as cv
from judge.store.games import Game, GameStatus, Seat

# Where SET REPORT keeps the results style (judge.desk.processing reads the same key).
REPORT = "report"
# Where SET WEB keeps whether the web pages show the game (absent: they do).
WEB = "web"
# njudge's words for the phase kinds, and the key of each in the game's timing settings.
TIMING_KINDS = {"MOVE": "movement", "RETREAT": "retreats", "ADJUST": "adjustments"}
KIND_WORDS = {"movement": "Move", "retreats": "Retreat", "adjustments": "Adjust"}
# What each missed-turn policy means, for the GM's reply and the players' notice.
POLICY_WORDS = {
    "postal": (
        "postal (seed 004): a first missed move has the units stand and a replacement sought; "
        "a second, with nobody standing by, puts the power in civil disorder"
    ),
    "njudge": (
        "njudge NoNMR: a power still late when grace ends is abandoned, its seat opens to any "
        "taker, and the game waits until someone takes it"
    ),
    "njudge-no-wait": (
        "njudge NMR: a power still late when grace ends is abandoned and its units hold; the "
        "game goes on and the seat stays open to any taker"
    ),
}
RUNNING = (GameStatus.ACTIVE, GameStatus.PAUSED)
SEAT_STATUSES = (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)
DEFAULT_HOUR = time(23, 30)  # njudge's time for a date without one when the kind has no clock
# How far ahead a deadline, grace, start or absence may be set: a game's clock cannot run to the
# end of the calendar, and a date years off is a typing slip far more often than a plan.
REACH = timedelta(days=366)


# --- the GM's commands ---------------------------------------------------------------------------
def _gm_game(state: MailState, command: cv.Command, statuses: tuple[str, ...]) -> Game | None:
    """The game the mail's GM signed on for, when it is in one of `statuses`; else a problem."""
    where = f"line {command.line_no}"
    game = gm_required(state, command)  # SIGNON M earlier in the mail, or the GM's reply address
    if game is None:
        return None
    if game.status not in statuses:
        wanted = " or ".join(str(s) for s in statuses)
        state.problems.append(
            f"{where}: {command.redacted()} needs game {game.name} {wanted}; it is {game.status}"
        )
        return None
    return game


def _moment(game: Game, when: cv.When) -> datetime:
    """A written date as an instant (UTC). A day without a time of day means the current
    phase's deadline hour on the game's own clock."""
    hour = DEFAULT_HOUR
    if game.phase is not None:
        hour = phase_timing(game).hour or DEFAULT_HOUR
    moment = when.resolve(now(), hour)
    if when.relative_minutes is None and when.hour is None:
        moment = datetime.combine(moment.date(), hour, tzinfo=game_timing(game).tz)
    return moment.astimezone(UTC)


def _ahead(state: MailState, command: cv.Command, game: Game, when: cv.When) -> datetime | None:
    """The written moment when it is ahead and within a year; else None and a problem."""
    where = f"line {command.line_no}: {command.redacted()}"
    try:
        moment = _moment(game, when)
    except (ValueError, OverflowError):  # a year at the end of the calendar
        moment = None
    if moment is None or moment > now() + REACH:
        state.problems.append(f"{where}: that is more than a year ahead; nothing was changed")
        return None
    if moment <= now():
        state.problems.append(
            f"{where}: {deadline_words(game, moment)} has already passed; nothing was changed"
        )
        return None
    return moment


def _announce(
    state: MailState,
    game: Game,
    change: str,
    lines: list[str],
    timing: list[str] | None = None,
    *,
    runs: bool = False,
) -> None:
    """Answer the GM and tell everyone in the game (players, observers) what changed, with the
    current phase's deadline and end of grace as the players read them; with `runs`, when the
    phase will run (and, to the GM, how to make grace shorter)."""
    grace = grace_end(game)
    context: dict[str, Any] = {
        "game": game.name,
        "phase": game.phase or "",
        "change": change,
        "lines": lines,
        "timing": timing or [],
        "deadline": deadline_words(game, game.deadline) if game.deadline else "",
        "grace_ends": deadline_words(game, grace) if grace else "",
        "announcement": False,
        "runs": when_it_runs(game) if runs else [],
        "shorten": shorten_grace(game) if runs else [],
    }
    state.replies.append(
        Reply(
            "game_setting",
            "game_setting",
            context,
            reply_to=gm_reply_address(state.where.judge_address, game),
        )
    )
    told = {state.sender}  # the GM has the reply
    for reader in game_readers(state.session, game, state.where.judge_address):
        if reader.address in told:
            continue
        told.add(reader.address)
        state.replies.append(
            Reply(
                "setting_notice",
                "game_setting",
                {**context, "announcement": True},
                to=reader.address,
                reply_to=reader.reply_to,
            )
        )


def span_words(delta: timedelta) -> str:
    """A length of time as people say it, in its two largest units: "3 days", "1 day 12
    hours", "2 minutes", "10 seconds"."""
    seconds = round(delta.total_seconds())
    if seconds <= 0:
        return "no time"
    days, rest = divmod(seconds, 24 * 3600)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    units = ((days, "day"), (hours, "hour"), (minutes, "minute"), (seconds, "second"))
    first = next(i for i, (count, _) in enumerate(units) if count)
    parts = [
        f"{count} {unit}{'' if count == 1 else 's'}" for count, unit in units[first : first + 2]
    ]
    return " ".join(part for part in parts if not part.startswith("0 "))


# What happens at the end of grace to a power still late, by missed-turn policy.
GRACE_ENDS_WORDS = {
    "postal": (
        "then it runs without them: the units of a power that sent nothing stand (postal: a "
        "first missed move seeks a replacement, a second puts the power in civil disorder)"
    ),
    "njudge": (
        "then a power still late is abandoned, and the phase waits until someone takes its "
        "seat (njudge NoNMR)"
    ),
    "njudge-no-wait": (
        "then a power still late is abandoned and the phase runs, its units holding (njudge NMR)"
    ),
}


def when_it_runs(game: Game) -> list[str]:
    """When the current phase will run, as the scheduler will run it (judge.games.timing's
    due_actions): early with every order in, at the deadline, or when grace ends."""
    if game.phase is None or game.deadline is None:
        return []
    timing = phase_timing(game)
    held = not_before(game)
    deadline = max(game.deadline, held) if held is not None else game.deadline
    grace = grace_end(game) or deadline
    early = (
        f"With every order in (and nobody asking to WAIT): {span_words(timing.delay)} after "
        "the last orders arrive"
    )
    if held is not None and held > now():
        early += f", not before {deadline_words(game, held)}"
    lines = [f"{early}, and at the latest at the deadline, {deadline_words(game, deadline)}."]
    if grace > deadline:
        lines.append(
            "With orders missing at the deadline: it waits for them until grace ends, "
            f"{deadline_words(game, grace)} ({span_words(grace - deadline)} after the "
            "deadline), and runs as soon as the last come in; "
            + GRACE_ENDS_WORDS.get(policy_name(game), "then it runs")
            + "."
        )
    else:
        lines.append("With orders missing at the deadline: there is no grace, so it runs then.")
    return lines


def shorten_grace(game: Game) -> list[str]:
    """How the GM makes a late player hold the phase for less time (for the GM's answer)."""
    if game.phase is None or game.deadline is None:
        return []
    kind = {"M": "MOVE", "R": "RETREAT", "A": "ADJUST"}[phase_kind(game.phase)]
    phases = TIMING_KINDS[kind]
    return [
        f"The game's {phases} phases give {span_words(phase_timing(game).grace)} of grace. "
        "To wait less for a missing player:",
        "  SET GRACE <date>  ends this phase's grace sooner (not before the deadline)",
        f"  SET {kind} GRACE <hours>  for the {phases} phases to come (0: no grace)",
        "  PROCESS  runs the phase now with the orders in",
    ]


def _running_phase_moment(
    state: MailState, command: cv.SetDeadline | cv.SetGrace
) -> tuple[Game, datetime] | None:
    """The GM's game with a phase running and the moment the command names, still ahead;
    else None, the reason among the problems."""
    game = _gm_game(state, command, RUNNING)
    if game is None:
        return None
    if game.phase is None or game.deadline is None:
        state.problems.append(f"line {command.line_no}: game {game.name} has no phase running")
        return None
    moment = _ahead(state, command, game, command.when)
    if moment is None:
        return None
    return game, moment


def _set_deadline(state: MailState, command: cv.SetDeadline) -> None:
    """SET DEADLINE date: the current phase is due then."""
    found = _running_phase_moment(state, command)
    if found is None:
        return
    game, moment = found
    old_deadline, old_grace = game.deadline, grace_end(game)
    override = grace_override(game)
    game.deadline = moment
    lines = [f"The deadline of {game.phase} was {deadline_words(game, old_deadline)}."]
    if moment < old_deadline and override is None and old_grace is not None:
        set_grace_end(game, old_grace)  # an earlier deadline leaves grace where it was
        lines.append("Moved earlier, so the end of grace stays where it was.")
    elif override is not None and override < moment + phase_timing(game).grace:
        set_grace_end(game, None)  # moved later: grace runs its usual length from it
    _announce(state, game, f"SET DEADLINE {deadline_words(game, moment)}", lines, runs=True)


def _set_grace(state: MailState, command: cv.SetGrace) -> None:
    """SET GRACE date: the end of the current phase's grace period."""
    found = _running_phase_moment(state, command)
    if found is None:
        return
    game, moment = found
    if moment < game.deadline:
        state.problems.append(
            f"line {command.line_no}: {command.redacted()}: grace cannot end before the "
            f"deadline, {deadline_words(game, game.deadline)}; move the deadline first "
            "(SET DEADLINE)"
        )
        return
    set_grace_end(game, moment)
    lines = [f"Late orders for {game.phase} are taken until {deadline_words(game, moment)}."]
    _announce(state, game, f"SET GRACE {deadline_words(game, moment)}", lines, runs=True)


def _set_start(state: MailState, command: cv.SetStart) -> None:
    """SET START date: no phase runs before it (a forming game's planned start)."""
    game = _gm_game(state, command, (GameStatus.FORMING, *RUNNING))
    if game is None:
        return
    moment = _ahead(state, command, game, command.when)
    if moment is None:
        return
    game.settings = {**game.settings, START: moment.isoformat()}
    words = deadline_words(game, moment)
    if game.status == GameStatus.FORMING:
        lines = [
            f"Game {game.name} starts no earlier than {words}: when its last seat is taken "
            "before then, the first orders are due no earlier than that."
        ]
    else:
        lines = [f"{game.phase} is not processed before {words}."]
        if game.deadline is not None and moment > game.deadline:
            game.deadline = moment
            lines.append("The deadline moves to that moment.")
    _announce(state, game, f"SET START {words}", lines)


def timing_lines(game: Game) -> list[str]:
    """The game's whole timing in njudge's words, one line per phase kind."""
    timing = game_timing(game)
    return [
        f"{KIND_WORDS[kind]:<8}{describe_phase_timing(getattr(timing, kind))}"
        for kind in ("movement", "retreats", "adjustments")
    ] + [f"Zone    {timing.zone}"]


def _set_phase_timing(state: MailState, command: cv.SetPhaseTiming) -> None:
    """SET MOVE|RETREAT|ADJUST CLOCK .. MIN .. NEXT .. GRACE .. DELAY .. DAYS ..: the game's
    timing of that kind of phase, from the next such phase on."""
    game = _gm_game(state, command, (GameStatus.FORMING, *RUNNING))
    if game is None:
        return
    kind = TIMING_KINDS[command.phase_kind]
    given = command.timing
    changes: dict[str, Any] = {}
    if given.clock is not None:
        changes["hour"] = (
            None if given.clock < 0 else f"{given.clock // 60:02d}:{given.clock % 60:02d}"
        )
    for value, key, per in (
        (given.min_minutes, "earliest_hours", 60),
        (given.next_minutes, "minimum_hours", 60),
        (given.grace_minutes, "grace_hours", 60),
        (given.delay_minutes, "delay_minutes", 1),
    ):
        if value is not None:
            changes[key] = value / per
    if given.days is not None:
        changes["days"] = given.days
    stored = dict(game.settings.get(TIMING) or {})
    kind_settings = dict(stored.get(kind) or {})
    new_settings = {**stored, kind: {**kind_settings, **changes}}
    try:
        timing_from_settings(new_settings)
    except TimingError as refused:
        state.problems.append(f"line {command.line_no}: {command.redacted()}: {refused}")
        return
    if game.phase is not None and game.status in RUNNING:
        pin_phase_timing(game)  # the phase being played keeps the terms it started with
    game.settings = {**game.settings, TIMING: new_settings}
    lines = [f"From the next {kind} phase on; the phase being played keeps its own terms."]
    _announce(state, game, command.redacted(), lines, timing_lines(game))


def _set_nmr(state: MailState, command: cv.SetNmr) -> None:
    """SET NMR [policy] / SET NONMR: the game's missed-turn policy."""
    game = _gm_game(state, command, (GameStatus.FORMING, *RUNNING))
    if game is None:
        return
    if not command.allowed:
        name = "njudge"
    elif command.policy:
        name = command.policy.strip().lower()
        if name not in POLICIES:
            known = ", ".join(POLICIES)
            state.problems.append(
                f"line {command.line_no}: {command.redacted()}: there is no missed-turn policy "
                f"{command.policy}; the policies are {known}"
            )
            return
    else:
        current = policy_name(game)
        name = "njudge-no-wait" if current == "njudge" else current
    game.settings = {**game.settings, MISSED_TURNS: name}
    lines = [f"Missed turns: {POLICY_WORDS.get(name, name)}."]
    _announce(state, game, command.redacted(), lines)


def _set_report(state: MailState, command: cv.SetReport) -> None:
    """SET REPORT judge|postal: the style of the game's results mails from the next results."""
    game = _gm_game(state, command, (GameStatus.FORMING, *RUNNING))
    if game is None:
        return
    game.settings = {**game.settings, REPORT: command.style}
    words = {
        "judge": "the judge style (njudge's results text, which mapping tools read)",
        "postal": "the postal style (the notation of seed 004: failed moves marked, SWE gained)",
    }
    lines = [f"Results mails are written in {words.get(command.style, command.style)}."]
    _announce(state, game, command.redacted(), lines)


def shown_on_web(settings: dict[str, Any] | None) -> bool:
    """Whether the judge's web pages show a game with these settings: yes unless its GM said
    SET WEB OFF (the pages show only what an observer may read, judge/web/)."""
    return bool((settings or {}).get(WEB, True))


def _set_web(state: MailState, command: cv.SetWeb) -> None:
    """SET WEB ON|OFF: whether the game has pages on the judge's web view."""
    game = _gm_game(state, command, tuple(GameStatus))
    if game is None:
        return
    game.settings = {**game.settings, WEB: command.shown}
    if command.shown:
        words = "The game's web pages show what an observer may read (where the judge has them)."
    else:
        words = "The game has no web pages: the judge's web view neither lists nor shows it."
    _announce(state, game, command.redacted(), [words])


# --- a player's absences -------------------------------------------------------------------------
def _acting_seat(state: MailState, command: cv.Command) -> Seat | None:
    """The seat the mail acts for (reply address or SIGNON with the password), else a problem."""
    seat = state.acting
    if seat is None:
        reason = state.refusal or (
            "no seat is named: sign on with SIGNON power game password, or reply to the "
            "judge's last mail about your seat"
        )
        state.problems.append(f"line {command.line_no}: {command.redacted()} not taken: {reason}")
        return None
    if seat.game.status not in SEAT_STATUSES:
        state.problems.append(
            f"line {command.line_no}: game {seat.game.name} is over ({seat.game.status})"
        )
        return None
    return seat


def _day(game: Game, when: cv.When) -> date:
    """A written date as a day on the game's clock (a written day is that day)."""
    moment = when.resolve(now(), time(0))
    if when.relative_minutes is None and when.hour is None:
        return moment.date()
    return moment.astimezone(game_timing(game).tz).date()


def _absences(game: Game) -> list[Absence]:
    return [
        Absence(
            power_title(game, s.power),
            date.fromisoformat(a["first"]),
            date.fromisoformat(a["last"]),
        )
        for s in game.seats
        for a in s.absences or ()
    ]


def _store_absences(seat: Seat, absences: list[Absence]) -> None:
    own = sorted(
        (a for a in absences if a.power == power_title(seat.game, seat.power)),
        key=lambda a: a.first,
    )
    seat.absences = [{"first": a.first.isoformat(), "last": a.last.isoformat()} for a in own]


def _absence_replies(state: MailState, seat: Seat, action: str, first: date, last: date) -> None:
    """The player's answer, and the GM's notice of it."""
    game = seat.game
    context: dict[str, Any] = {
        "game": game.name,
        "power": power_title(game, seat.power),
        "phase": game.phase or "",
        "action": action,
        "first": first.isoformat(),
        "last": last.isoformat(),
        "absences": [f"{a['first']} to {a['last']}" for a in seat.absences],
        "deadline": deadline_words(game, game.deadline) if game.deadline else "",
        "for_gm": False,
    }
    state.replies.append(Reply("absence", "absence", context, reply_to=reply_address(state, seat)))
    gm = game.gm.address_of_record if game.gm is not None else None
    if gm and gm != state.sender:
        state.replies.append(
            Reply(
                "absence_notice",
                "absence",
                {**context, "for_gm": True},
                to=gm,
                reply_to=gm_reply_address(state.where.judge_address, game),
            )
        )


def _set_absence(state: MailState, command: cv.SetAbsence) -> None:
    """SET ABSENCE date [TO date]: deadlines do not fall on these days or the day after."""
    seat = _acting_seat(state, command)
    if seat is None:
        return
    game = seat.game
    timing = game_timing(game)
    today = now().astimezone(timing.tz).date()
    try:
        first = _day(game, command.start)
        last = _day(game, command.end) if command.end is not None else first
    except (ValueError, OverflowError):  # a year at the end of the calendar
        first = last = date.max
    if last > today + REACH:
        state.problems.append(
            f"line {command.line_no}: {command.redacted()} not granted: it ends more than a "
            "year ahead"
        )
        return
    try:
        granted = grant_absence(
            _absences(game), Absence(power_title(game, seat.power), first, last), today, timing
        )
    except AbsenceRefused as refused:
        state.problems.append(
            f"line {command.line_no}: {command.redacted()} not granted: {refused}"
        )
        return
    _store_absences(seat, list(granted))
    _absence_replies(state, seat, "granted", first, last)


def _clear_absence(state: MailState, command: cv.ClearAbsence) -> None:
    """SET NOABSENCE [date]: withdraw the seat's absences (or the one starting that day)."""
    seat = _acting_seat(state, command)
    if seat is None:
        return
    game = seat.game
    power = power_title(game, seat.power)
    today = now().astimezone(game_timing(game).tz).date()
    own = [a for a in _absences(game) if a.power == power]
    if command.start is None:
        chosen = [a for a in own if a.last >= today]
    else:
        try:
            day = _day(game, command.start)
        except (ValueError, OverflowError):
            day = date.max
        chosen = [a for a in own if a.first == day]
    if not chosen:
        which = "" if command.start is None else f" starting {command.start.text()}"
        state.problems.append(
            f"line {command.line_no}: {command.redacted()}: {power} has no absence{which} "
            "to withdraw"
        )
        return
    kept = [a for a in own if a not in chosen] + list(withdraw_absence(chosen, power, today))
    _store_absences(seat, kept)
    first = min(a.first for a in chosen)
    last = max(a.last for a in chosen)
    _absence_replies(state, seat, "withdrawn", first, last)


HANDLERS: dict[type, Callable[[MailState, Any], None]] = {
    cv.SetDeadline: _set_deadline,
    cv.SetGrace: _set_grace,
    cv.SetStart: _set_start,
    cv.SetPhaseTiming: _set_phase_timing,
    cv.SetNmr: _set_nmr,
    cv.SetReport: _set_report,
    cv.SetWeb: _set_web,
    cv.SetAbsence: _set_absence,
    cv.ClearAbsence: _clear_absence,
}
