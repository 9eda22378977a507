"""The values the command reader makes of a mail: one frozen dataclass per command kind.

Every value knows the line it came from and can write itself back as a command line
(`redacted()`), the form the judge echoes to players: passwords show as ``********`` there and
in `repr`, so neither a reply nor a log line ever carries one. Apart from the password, the
redacted text reads back to an equal value.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta, timezone
from typing import ClassVar

HIDDEN = "********"  # what a password looks like in echoed text
MONTH_ABBREVIATIONS = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
)


# --- dates ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class When:
    """A date and time as written, before it is pinned to a calendar by `resolve`.

    Either `relative_minutes` is set (``+2d``, ``+36h``) or `month` and `day` are. A missing
    year means the next such day from now; a missing time of day is left to the command (a
    deadline and an absence's first day start at midnight, an absence's last day ends at it).
    `utc_offset` is in minutes east of UTC; None means UTC.
    """

    year: int | None = None
    month: int | None = None
    day: int | None = None
    hour: int | None = None
    minute: int | None = None
    second: int = 0
    utc_offset: int | None = None
    relative_minutes: int | None = None

    def resolve(self, now: datetime, default_time: time = time(0, 0)) -> datetime:
        """The moment meant, seen from `now` (aware, UTC): the judge's clock gives `now`."""
        if now.tzinfo is None:
            now = now.replace(tzinfo=UTC)
        if self.relative_minutes is not None:
            return now + timedelta(minutes=self.relative_minutes)
        assert self.month is not None and self.day is not None
        zone = timezone(timedelta(minutes=self.utc_offset or 0))
        hour = default_time.hour if self.hour is None else self.hour
        minute = default_time.minute if self.minute is None else self.minute
        second = default_time.second if self.hour is None else self.second
        if self.year is not None:
            return datetime(self.year, self.month, self.day, hour, minute, second, tzinfo=zone)
        year = now.astimezone(zone).year
        for candidate in range(year, year + 9):  # Feb 29 may be up to eight years off
            if self.month == 2 and self.day == 29 and not calendar.isleap(candidate):
                continue
            moment = datetime(candidate, self.month, self.day, hour, minute, second, tzinfo=zone)
            if moment >= now:
                return moment
        raise ValueError(f"no {self.text()} ahead of {now}")  # pragma: no cover - unreachable

    def text(self) -> str:
        """The canonical spelling: ``2026-12-01 18:00``, ``Dec 1 18:00``, ``+1d12h``."""
        if self.relative_minutes is not None:
            days, rest = divmod(self.relative_minutes, 24 * 60)
            hours, minutes = divmod(rest, 60)
            parts = [f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n]
            return "+" + ("".join(parts) or "0m")
        assert self.month is not None and self.day is not None
        if self.year is not None:
            out = f"{self.year:04d}-{self.month:02d}-{self.day:02d}"
        else:
            out = f"{MONTH_ABBREVIATIONS[self.month - 1]} {self.day}"
        if self.hour is not None:
            out += f" {self.hour:02d}:{self.minute or 0:02d}"
            if self.second:
                out += f":{self.second:02d}"
            if self.utc_offset:
                sign = "+" if self.utc_offset > 0 else "-"
                hours, minutes = divmod(abs(self.utc_offset), 60)
                out += f" {sign}{hours:02d}{minutes:02d}"
        return out


@dataclass(frozen=True, slots=True)
class PhaseTiming:
    """njudge's timing of one kind of phase; None where the command leaves a setting alone.

    `clock` is minutes after midnight (-1: none), the three durations are in minutes, `days`
    is njudge's week string (``-MTWTF-``: a letter where the day counts).
    """

    clock: int | None = None
    min_minutes: int | None = None
    next_minutes: int | None = None
    grace_minutes: int | None = None
    delay_minutes: int | None = None
    days: str | None = None

    def text(self) -> str:
        parts: list[str] = []
        if self.clock is not None:
            parts.append(
                "CLOCK -1"
                if self.clock < 0
                else f"CLOCK {self.clock // 60:02d}:{self.clock % 60:02d}"
            )
        for word, value in (
            ("MIN", self.min_minutes),
            ("NEXT", self.next_minutes),
            ("GRACE", self.grace_minutes),
            ("DELAY", self.delay_minutes),
        ):
            if value is not None:
                parts.append(f"{word} {_duration(value)}")
        if self.days is not None:
            parts.append(f"DAYS {self.days}")
        return " ".join(parts)


def _duration(minutes: int) -> str:
    if minutes % (24 * 60) == 0 and minutes:
        return f"{minutes // (24 * 60)}d"
    if minutes % 60 == 0:
        return f"{minutes // 60}h"
    return f"{minutes}m"


# --- the commands ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class Command:
    """A command line read from a mail. `keyword` is the command's canonical spelling."""

    keyword: ClassVar[str] = ""
    master_only: ClassVar[bool] = False  # a GM command (the desk checks who sent it)
    line_no: int = 0

    def arguments(self) -> list[str]:
        """The command's arguments as written back, passwords hidden."""
        return []

    def redacted(self) -> str:
        """The command as the judge echoes it: canonical spelling, no password."""
        return " ".join([self.keyword, *self.arguments()])


def _opt(*values: str | None) -> list[str]:
    return [v for v in values if v]


def _listed(values: tuple[str, ...]) -> list[str]:
    return list(values)


@dataclass(frozen=True, slots=True, kw_only=True)
class Help(Command):
    """HELP [topic]: the help text, or one topic of it."""

    keyword: ClassVar[str] = "HELP"
    topic: str | None = None

    def arguments(self) -> list[str]:
        return _opt(self.topic)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListGames(Command):
    """LIST [game | FULL]: the games on the judge, or one game's settings and board."""

    keyword: ClassVar[str] = "LIST"
    game: str | None = None
    full: bool = False

    def arguments(self) -> list[str]:
        return ["FULL"] if self.full else _opt(self.game)


@dataclass(frozen=True, slots=True, kw_only=True)
class Create(Command):
    """CREATE game password variant [board] [rule sets]: a new game, its creator its GM (a
    board is one of the rule-set words, told apart by the variant's `maps`)."""

    keyword: ClassVar[str] = "CREATE"
    game: str
    password: str = field(repr=False)
    variant: str
    rule_sets: tuple[str, ...] = ()

    def arguments(self) -> list[str]:
        return [self.game, HIDDEN, self.variant, *self.rule_sets]


@dataclass(frozen=True, slots=True, kw_only=True)
class SignOn(Command):
    """SIGNON power game password: act as that power (M: the GM, O: an observer).

    `power` is as written (a letter of njudge's glued form ``SIGNON Fgame``, or a name); the
    desk resolves it against the game's map.
    """

    keyword: ClassVar[str] = "SIGNON"
    power: str
    game: str
    password: str = field(repr=False)
    # njudge's glued form as written (``Fgame``), when the power letter came from it.
    glued: str | None = field(default=None, compare=False)
    # The glued word when it is itself a power's name (``SIGNON Germany alpha``): read as G of
    # game "ermany", though the writer may have meant Germany and left the password out.
    spelled_power: str | None = field(default=None, compare=False)

    def arguments(self) -> list[str]:
        return [self.power, self.game, HIDDEN]


@dataclass(frozen=True, slots=True, kw_only=True)
class Join(Command):
    """JOIN game password [power preferences]: a seat in a forming game (njudge: SIGNON ?game)."""

    keyword: ClassVar[str] = "JOIN"
    game: str
    password: str = field(repr=False)
    preferences: tuple[str, ...] = ()

    def arguments(self) -> list[str]:
        return [self.game, HIDDEN, *self.preferences]


@dataclass(frozen=True, slots=True, kw_only=True)
class Observe(Command):
    """OBSERVE game [password]: receive the game's broadcasts and results."""

    keyword: ClassVar[str] = "OBSERVE"
    game: str
    password: str | None = field(default=None, repr=False)

    def arguments(self) -> list[str]:
        return [self.game] + ([HIDDEN] if self.password is not None else [])


@dataclass(frozen=True, slots=True, kw_only=True)
class Unobserve(Command):
    """UNOBSERVE game: stop receiving the game's broadcasts and results (or drop the request)."""

    keyword: ClassVar[str] = "UNOBSERVE"
    game: str

    def arguments(self) -> list[str]:
        return [self.game]


@dataclass(frozen=True, slots=True, kw_only=True)
class Summary(Command):
    """SUMMARY [game]: who held each power and the centre counts."""

    keyword: ClassVar[str] = "SUMMARY"
    game: str | None = None

    def arguments(self) -> list[str]:
        return _opt(self.game)


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnMap(Command):
    """MAP [game]: the board as it stands, as a picture; of a secret board (Algernon's maze), the
    part the seat has learned."""

    keyword: ClassVar[str] = "MAP"
    game: str | None = None

    def arguments(self) -> list[str]:
        return _opt(self.game)


@dataclass(frozen=True, slots=True, kw_only=True)
class History(Command):
    """HISTORY [game] [FROM date|phase] [TO date|phase] [LINES n]: past results."""

    keyword: ClassVar[str] = "HISTORY"
    game: str | None = None
    start: When | str | None = None  # a When, or a phase name such as "S1901M"
    end: When | str | None = None
    lines: int | None = None

    def arguments(self) -> list[str]:
        out = _opt(self.game)
        for word, bound in (("FROM", self.start), ("TO", self.end)):
            if bound is not None:
                out += [word, bound if isinstance(bound, str) else bound.text()]
        if self.lines is not None:
            out += ["LINES", str(self.lines)]
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Press(Command):
    """PRESS [GREY|WHITE] [TO powers] ... ENDPRESS: a message; no recipients means everyone."""

    keyword: ClassVar[str] = "PRESS"
    recipients: tuple[str, ...] = ()
    grey: bool = False
    white: bool = False  # WHITE written: under GREY/WHITE that differs from no kind at all
    text: str = ""
    end_line: int = 0  # the line of ENDPRESS

    def arguments(self) -> list[str]:
        out = ["GREY"] if self.grey else ["WHITE"] if self.white else []
        return out + (["TO", *self.recipients] if self.recipients else [])

    def redacted(self) -> str:
        return "\n".join([" ".join([self.keyword, *self.arguments()]), self.text, "ENDPRESS"])


@dataclass(frozen=True, slots=True, kw_only=True)
class Broadcast(Command):
    """BROADCAST [GREY|WHITE] ... ENDPRESS: a message to every player of the game."""

    keyword: ClassVar[str] = "BROADCAST"
    grey: bool = False
    white: bool = False  # WHITE written, as for PRESS
    text: str = ""
    end_line: int = 0

    def arguments(self) -> list[str]:
        return ["GREY"] if self.grey else ["WHITE"] if self.white else []

    def redacted(self) -> str:
        return "\n".join([" ".join([self.keyword, *self.arguments()]), self.text, "ENDPRESS"])


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPassword(Command):
    """SET PASSWORD new-password."""

    keyword: ClassVar[str] = "SET PASSWORD"
    password: str = field(repr=False)

    def arguments(self) -> list[str]:
        return [HIDDEN]


@dataclass(frozen=True, slots=True, kw_only=True)
class SetAddress(Command):
    """SET ADDRESS [addresses]: where replies go; none given means the sender's address."""

    keyword: ClassVar[str] = "SET ADDRESS"
    addresses: tuple[str, ...] = ()

    def arguments(self) -> list[str]:
        return _listed(self.addresses)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetName(Command):
    """SET NAME name: the player's name as the game shows it (SUMMARY, LIST); the postal rules
    ask for real names. The name is kept as written, its blanks evened out."""

    keyword: ClassVar[str] = "SET NAME"
    name: str

    def arguments(self) -> list[str]:
        return [self.name]


@dataclass(frozen=True, slots=True, kw_only=True)
class SetWait(Command):
    """SET WAIT / SET NOWAIT: hold the turn until the deadline even when all orders are in."""

    keyword: ClassVar[str] = "SET WAIT"
    wait: bool = True

    def redacted(self) -> str:
        return "SET WAIT" if self.wait else "SET NOWAIT"


@dataclass(frozen=True, slots=True, kw_only=True)
class SetAbsence(Command):
    """SET ABSENCE date [TO date]: away, so deadlines are moved past these days."""

    keyword: ClassVar[str] = "SET ABSENCE"
    start: When
    end: When | None = None

    def arguments(self) -> list[str]:
        out = [self.start.text()]
        return out + (["TO", self.end.text()] if self.end is not None else [])


@dataclass(frozen=True, slots=True, kw_only=True)
class ClearAbsence(Command):
    """SET NO ABSENCE [date]: drop the absence starting that day, or every absence."""

    keyword: ClassVar[str] = "SET NOABSENCE"
    start: When | None = None

    def arguments(self) -> list[str]:
        return [self.start.text()] if self.start is not None else []


@dataclass(frozen=True, slots=True, kw_only=True)
class SetDraw(Command):
    """SET DRAW [powers] / SET NODRAW: a secret draw vote, for the powers named or all survivors."""

    keyword: ClassVar[str] = "SET DRAW"
    draw: bool = True
    powers: tuple[str, ...] = ()

    def redacted(self) -> str:
        return " ".join(["SET DRAW", *self.powers]) if self.draw else "SET NODRAW"


@dataclass(frozen=True, slots=True, kw_only=True)
class SetClaim(Command):
    """SET CLAIM [powers] / SET NOCLAIM: claim a win shared by the powers named (the claimer
    among them; alone without a list), in a variant with claimed wins (Mercator's rule 10)."""

    keyword: ClassVar[str] = "SET CLAIM"
    claim: bool = True
    powers: tuple[str, ...] = ()

    def redacted(self) -> str:
        return " ".join(["SET CLAIM", *self.powers]) if self.claim else "SET NOCLAIM"


@dataclass(frozen=True, slots=True, kw_only=True)
class SetConcede(Command):
    """SET CONCEDE power / SET NOCONCEDE: concede the game to that power, or take it back."""

    keyword: ClassVar[str] = "SET CONCEDE"
    power: str | None = None

    def redacted(self) -> str:
        return f"SET CONCEDE {self.power}" if self.power else "SET NOCONCEDE"


@dataclass(frozen=True, slots=True, kw_only=True)
class Resign(Command):
    """RESIGN: give up the power (it is abandoned for someone to take over)."""

    keyword: ClassVar[str] = "RESIGN"


@dataclass(frozen=True, slots=True, kw_only=True)
class SignOff(Command):
    """SIGNOFF: the end of the commands; nothing after it is read."""

    keyword: ClassVar[str] = "SIGNOFF"


# --- GM commands ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class SetDeadline(Command):
    """SET DEADLINE date: when the current phase is due."""

    keyword: ClassVar[str] = "SET DEADLINE"
    master_only: ClassVar[bool] = True
    when: When

    def arguments(self) -> list[str]:
        return [self.when.text()]


@dataclass(frozen=True, slots=True, kw_only=True)
class SetGrace(Command):
    """SET GRACE date: the end of the current phase's grace period."""

    keyword: ClassVar[str] = "SET GRACE"
    master_only: ClassVar[bool] = True
    when: When

    def arguments(self) -> list[str]:
        return [self.when.text()]


@dataclass(frozen=True, slots=True, kw_only=True)
class SetStart(Command):
    """SET START date: when a forming game starts."""

    keyword: ClassVar[str] = "SET START"
    master_only: ClassVar[bool] = True
    when: When

    def arguments(self) -> list[str]:
        return [self.when.text()]


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPhaseTiming(Command):
    """SET MOVE|RETREAT|ADJUST CLOCK .. MIN .. NEXT .. GRACE .. DELAY .. DAYS ..: njudge's timing."""

    keyword: ClassVar[str] = "SET"
    master_only: ClassVar[bool] = True
    phase_kind: str  # "MOVE", "RETREAT" or "ADJUST"
    timing: PhaseTiming

    def arguments(self) -> list[str]:
        return [self.phase_kind, self.timing.text()]


@dataclass(frozen=True, slots=True, kw_only=True)
class SetNmr(Command):
    """SET NMR [policy] / SET NONMR: whether a late power's units hold (NMR) or the game waits
    (NoNMR); SET NMR with a name chooses the game's missed-turn policy (postal, njudge, ...)."""

    keyword: ClassVar[str] = "SET NMR"
    master_only: ClassVar[bool] = True
    allowed: bool = True
    policy: str | None = None  # as written; the desk checks it against the policies it knows

    def redacted(self) -> str:
        if not self.allowed:
            return "SET NONMR"
        return "SET NMR" + (f" {self.policy}" if self.policy else "")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPress(Command):
    """SET PRESS NONE|WHITE|GREY|WHITE/GREY|GREY/WHITE: which press the game allows."""

    keyword: ClassVar[str] = "SET PRESS"
    master_only: ClassVar[bool] = True
    kind: str  # one of PRESS_KINDS

    def arguments(self) -> list[str]:
        return [self.kind]


PRESS_KINDS = ("NONE", "WHITE", "GREY", "WHITE/GREY", "GREY/WHITE")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPressLimit(Command):
    """SET PRESS LIMIT n|NONE: at most n press releases a day from each player and observer."""

    keyword: ClassVar[str] = "SET PRESS LIMIT"
    master_only: ClassVar[bool] = True
    limit: int | None  # None: no limit

    def arguments(self) -> list[str]:
        return [str(self.limit) if self.limit is not None else "NONE"]


# The largest press limit a GM may set (a number past it is surely a slip of the keyboard).
MAX_PRESS_LIMIT = 1000


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPartialPress(Command):
    """SET PARTIAL / SET NOPARTIAL: whether press may go to some powers only."""

    keyword: ClassVar[str] = "SET PARTIAL"
    master_only: ClassVar[bool] = True
    allowed: bool = True

    def redacted(self) -> str:
        return "SET PARTIAL" if self.allowed else "SET NOPARTIAL"


@dataclass(frozen=True, slots=True, kw_only=True)
class SetObserverPress(Command):
    """SET OBSERVER ANY|WHITE|NO: what press observers may send."""

    keyword: ClassVar[str] = "SET OBSERVER"
    master_only: ClassVar[bool] = True
    level: str  # one of OBSERVER_LEVELS

    def arguments(self) -> list[str]:
        return [self.level]


OBSERVER_LEVELS = ("ANY", "WHITE", "NO")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetPublish(Command):
    """SET PUBLISH NOW|RESULTS: press goes out when it is sent, or with the next results."""

    keyword: ClassVar[str] = "SET PUBLISH"
    master_only: ClassVar[bool] = True
    when: str  # one of PUBLISH_TIMES

    def arguments(self) -> list[str]:
        return [self.when]


PUBLISH_TIMES = ("NOW", "RESULTS")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetReport(Command):
    """SET REPORT JUDGE|POSTAL: the style of the game's results mails."""

    keyword: ClassVar[str] = "SET REPORT"
    master_only: ClassVar[bool] = True
    style: str  # one of REPORT_STYLES, lower case

    def arguments(self) -> list[str]:
        return [self.style.upper()]


REPORT_STYLES = ("judge", "postal")


@dataclass(frozen=True, slots=True, kw_only=True)
class SetWeb(Command):
    """SET WEB ON|OFF: whether the judge's web pages show the game (they do unless turned off)."""

    keyword: ClassVar[str] = "SET WEB"
    master_only: ClassVar[bool] = True
    shown: bool

    def arguments(self) -> list[str]:
        return ["ON" if self.shown else "OFF"]


@dataclass(frozen=True, slots=True, kw_only=True)
class WithholdPress(Command):
    """WITHHOLD number: the GM keeps a press release waiting for the results from being published."""

    keyword: ClassVar[str] = "WITHHOLD"
    master_only: ClassVar[bool] = True
    number: int

    def arguments(self) -> list[str]:
        return [str(self.number)]


@dataclass(frozen=True, slots=True, kw_only=True)
class ReleasePress(Command):
    """RELEASE number: the GM lets a withheld press release go out with the next results."""

    keyword: ClassVar[str] = "RELEASE"
    master_only: ClassVar[bool] = True
    number: int

    def arguments(self) -> list[str]:
        return [str(self.number)]


@dataclass(frozen=True, slots=True, kw_only=True)
class Process(Command):
    """PROCESS [phase] [MISSED]: run the phase now (the phase named guards against running the
    wrong one); MISSED: the powers without orders have missed the deadline, as if it had passed."""

    keyword: ClassVar[str] = "PROCESS"
    master_only: ClassVar[bool] = True
    phase: str | None = None
    # A game name where GMs write one (PROCESS alpha): the game the mail acts for as GM.
    game: str | None = None
    missed: bool = False

    def arguments(self) -> list[str]:
        return _opt(self.game) + _opt(self.phase) + (["MISSED"] if self.missed else [])


@dataclass(frozen=True, slots=True, kw_only=True)
class Preview(Command):
    """PREVIEW: a private adjudication of the orders so far, to the GM alone (njudge PREDICT)."""

    keyword: ClassVar[str] = "PREVIEW"
    master_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Pause(Command):
    """PAUSE: no deadline runs until RESUME; press still flows."""

    keyword: ClassVar[str] = "PAUSE"
    master_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Resume(Command):
    """RESUME: deadlines run again."""

    keyword: ClassVar[str] = "RESUME"
    master_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Eject(Command):
    """EJECT power|address: remove a player (or observer) from the game."""

    keyword: ClassVar[str] = "EJECT"
    master_only: ClassVar[bool] = True
    target: str

    def arguments(self) -> list[str]:
        return [self.target]


@dataclass(frozen=True, slots=True, kw_only=True)
class Replace(Command):
    """REPLACE power address: hand a power to another player."""

    keyword: ClassVar[str] = "REPLACE"
    master_only: ClassVar[bool] = True
    power: str
    address: str

    def arguments(self) -> list[str]:
        return [self.power, self.address]


@dataclass(frozen=True, slots=True, kw_only=True)
class Become(Command):
    """BECOME power: the GM acts as that power for the rest of the mail."""

    keyword: ClassVar[str] = "BECOME"
    master_only: ClassVar[bool] = True
    power: str

    def arguments(self) -> list[str]:
        return [self.power]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ledger(Command):
    """LEDGER power change currency [why]: the GM adds pounds to a power's holding or takes
    them (a game with money: Mercenary's rule 11); announced to the whole game."""

    keyword: ClassVar[str] = "LEDGER"
    master_only: ClassVar[bool] = True
    power: str
    change: int
    currency: str
    why: str = ""

    def arguments(self) -> list[str]:
        return [self.power, f"{self.change:+d}", self.currency, *([self.why] if self.why else [])]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rollback(Command):
    """ROLLBACK [phase]: return the game to the start of that phase (default: the last one)."""

    keyword: ClassVar[str] = "ROLLBACK"
    master_only: ClassVar[bool] = True
    phase: str | None = None

    def arguments(self) -> list[str]:
        return _opt(self.phase)


@dataclass(frozen=True, slots=True, kw_only=True)
class Terminate(Command):
    """TERMINATE: end the game for good."""

    keyword: ClassVar[str] = "TERMINATE"
    master_only: ClassVar[bool] = True


@dataclass(frozen=True, slots=True, kw_only=True)
class ForceBegin(Command):
    """FORCE BEGIN: start a forming game now; empty seats become abandoned powers."""

    keyword: ClassVar[str] = "FORCE BEGIN"
    master_only: ClassVar[bool] = True


# --- what is not a command ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Prose:
    """A line of a person's words, neither a command nor an order (its first word is far from
    every command, order keyword, power and province): no error, nothing done; a variant whose
    orders open with that word (`word`) reads it as an order line after all."""

    line_no: int
    text: str
    word: str

    def redacted(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class OrderLine:
    """A line handed on to the order reader, with its line number in the mail."""

    line_no: int
    text: str

    def redacted(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class CommandError:
    """A line meant as a command that could not be read: where, why, and what would fit.

    `suggestions` are the nearest known command spellings for a mistyped command word.
    `text` is the line as written, except that a line of a command carrying a password keeps
    only its command word. `order_word` is the first word of a line that opens with no command
    word but near one: a variant's own order language may open orders with it (Mercator's
    `Place A Mun`), which the desk, knowing the game, asks before it answers the error.
    """

    line_no: int
    column: int
    message: str
    expected: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    text: str = ""
    order_word: str = ""

    def __str__(self) -> str:
        return f"line {self.line_no}, column {self.column}: {self.message}"

    def redacted(self) -> str:
        return str(self)


CommandLine = Command | OrderLine | Prose | CommandError


# --- general orders (seed 004, I.C) ---------------------------------------------------------------
# The reader keeps a condition's words as written: which power, unit and province they name is
# read against the game's map by judge.games.general_orders when the general orders are filed.
@dataclass(frozen=True, slots=True)
class Words:
    """A phrase of a condition as written (``Russian Army in Galicia``), with each word's column."""

    words: tuple[str, ...]
    columns: tuple[int, ...] = field(default=(), compare=False)

    def text(self) -> str:
        return " ".join(self.words)


@dataclass(frozen=True, slots=True)
class UnitThere:
    """A unit is in a province: ``[power] [Army|Fleet|unit] [in] province``, or the province alone."""

    phrase: Words

    def text(self) -> str:
        return self.phrase.text()


@dataclass(frozen=True, slots=True)
class OwnedBy:
    """A supply centre is owned by a power (or by nobody): ``Bel owned by France``, ``France owns Bel``."""

    province: Words
    owner: Words

    def text(self) -> str:
        return f"{self.province.text()} owned by {self.owner.text()}"


# What PhaseIs may name: a season or a kind of phase.
PHASE_PARTS = ("SPRING", "FALL", "WINTER", "MOVE", "RETREAT", "ADJUST")


@dataclass(frozen=True, slots=True)
class PhaseIs:
    """The phase played is of this season or kind (one of PHASE_PARTS)."""

    part: str

    def text(self) -> str:
        return f"PHASE {self.part}"


@dataclass(frozen=True, slots=True)
class Not:
    condition: Condition

    def text(self) -> str:
        inner = self.condition.text()
        return f"NOT ({inner})" if isinstance(self.condition, AllOf | AnyOf) else f"NOT {inner}"


@dataclass(frozen=True, slots=True)
class AllOf:
    conditions: tuple[Condition, ...]

    def text(self) -> str:
        return " AND ".join(
            f"({c.text()})" if isinstance(c, AnyOf) else c.text() for c in self.conditions
        )


@dataclass(frozen=True, slots=True)
class AnyOf:
    conditions: tuple[Condition, ...]

    def text(self) -> str:
        return " OR ".join(c.text() for c in self.conditions)


Condition = UnitThere | OwnedBy | PhaseIs | Not | AllOf | AnyOf


@dataclass(frozen=True, slots=True)
class Branch:
    """``IF condition`` (or ``ELSE IF``) and the lines it governs."""

    line_no: int
    condition: Condition
    body: tuple[GeneralItem, ...]


@dataclass(frozen=True, slots=True)
class IfBlock:
    """IF ... [ELSE IF ...] [ELSE ...] ENDIF: the first branch whose condition holds is played."""

    branches: tuple[Branch, ...]
    otherwise: tuple[GeneralItem, ...] | None = None
    else_line: int = 0
    end_line: int = 0


GeneralItem = OrderLine | IfBlock  # an OrderLine is read by the order reader when filed


def general_body_lines(items: tuple[GeneralItem, ...], depth: int = 0) -> list[str]:
    """The block's lines as written back, nested groups indented by two spaces."""
    pad = "  " * depth
    out: list[str] = []
    for item in items:
        if isinstance(item, OrderLine):
            out.append(pad + item.text.strip())
            continue
        for i, branch in enumerate(item.branches):
            out.append(f"{pad}{'IF' if i == 0 else 'ELSE IF'} {branch.condition.text()}")
            out.extend(general_body_lines(branch.body, depth + 1))
        if item.otherwise is not None:
            out.append(pad + "ELSE")
            out.extend(general_body_lines(item.otherwise, depth + 1))
        out.append(pad + "ENDIF")
    return out


def _validity(valid_from: str | None, valid_to: str | None) -> list[str]:
    out: list[str] = []
    if valid_from is not None:
        out += ["FROM", valid_from]
    if valid_to is not None:
        out += ["TO", valid_to]
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneralOrders(Command):
    """GENERAL [FROM phase] [TO phase] ... ENDGENERAL: standing orders played when the power sends
    nothing for a phase in that period (njudge's PHASE phase ... is one for a single phase)."""

    keyword: ClassVar[str] = "GENERAL"
    valid_from: str | None = None  # a phase name (S1902M); None: from now on
    valid_to: str | None = None  # None: to the end of the game
    body: tuple[GeneralItem, ...] = ()
    end_line: int = 0

    def arguments(self) -> list[str]:
        return _validity(self.valid_from, self.valid_to)

    def redacted(self) -> str:
        head = " ".join([self.keyword, *self.arguments()])
        return "\n".join([head, *general_body_lines(self.body), "ENDGENERAL"])


@dataclass(frozen=True, slots=True, kw_only=True)
class ClearGeneral(Command):
    """GENERAL CLEAR [FROM phase] [TO phase]: withdraw the general orders on file (all of them, or
    those filed for exactly that period)."""

    keyword: ClassVar[str] = "GENERAL CLEAR"
    valid_from: str | None = None
    valid_to: str | None = None

    def arguments(self) -> list[str]:
        return _validity(self.valid_from, self.valid_to)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListGeneral(Command):
    """GENERAL LIST [power]: a player's own general orders; the GM's: every power's (or one)."""

    keyword: ClassVar[str] = "GENERAL LIST"
    power: str | None = None

    def arguments(self) -> list[str]:
        return _opt(self.power)


# The lines inside a general-orders block; the reader folds them into GeneralOrders, and answers
# any found outside a block with a CommandError.
@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseLine(Command):
    """PHASE phase: njudge's orders for one later phase, read as general orders for that phase."""

    keyword: ClassVar[str] = "PHASE"
    phase: str

    def arguments(self) -> list[str]:
        return [self.phase]


@dataclass(frozen=True, slots=True, kw_only=True)
class IfLine(Command):
    keyword: ClassVar[str] = "IF"
    condition: Condition
    else_if: bool = False

    def redacted(self) -> str:
        return f"{'ELSE IF' if self.else_if else 'IF'} {self.condition.text()}"


@dataclass(frozen=True, slots=True, kw_only=True)
class ElseLine(Command):
    keyword: ClassVar[str] = "ELSE"


@dataclass(frozen=True, slots=True, kw_only=True)
class EndIf(Command):
    keyword: ClassVar[str] = "ENDIF"


@dataclass(frozen=True, slots=True, kw_only=True)
class EndGeneral(Command):
    keyword: ClassVar[str] = "ENDGENERAL"
