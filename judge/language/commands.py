"""Reading a mail body into commands, press blocks and order lines (grammar/commands.lark).

The reader is pure: it knows no game, only the words. Each line is one of:
  - a command (its first word is a command keyword): parsed by the grammar into a value of
    judge.language.command_values, or a CommandError naming line, column and what would fit;
  - the header of a PRESS or BROADCAST block, whose following lines are kept verbatim up to
    ENDPRESS (or ENDBROADCAST, or SIGNOFF, which also ends the mail);
  - an order line, handed on with its line number to the order reader, unread here;
  - a mistyped command: a first word that is no command, does not open an order of the
    standard language, and is close to a command spelling, answered with the nearest spellings
    unless the game's own order language opens orders with it (`opens_an_order`, which the
    desk asks with the game's variant: Mercator's `Place A Mun` is no mistyped PHASE).
SIGNOFF (or END, or a ``-- `` signature line) stops reading. Blank and comment lines (#, //,
;) carry nothing. The rule that tells an order line from a mistyped command is in `_not_a_command`.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from judge.engine.calendar import ANY, PhaseError, parse_phase
from judge.language import command_values as cv
from judge.language.command_values import CommandError, CommandLine, OrderLine, When
from judge.language.spelling import MARGIN, nearest, scored_nearest
from judge.resources import data_dir

__all__ = [
    "COMMAND_SPELLINGS",
    "looks_like_a_command",
    "opens_an_order",
    "read_mail_commands",
    "suggest_commands",
]

# Every command's canonical spelling, for "did you mean" answers and for HELP.
COMMAND_SPELLINGS: tuple[str, ...] = (
    "HELP", "LIST", "CREATE", "SIGNON", "JOIN", "OBSERVE", "SUMMARY", "HISTORY", "MAP", "PRESS",
    "BROADCAST", "ENDPRESS", "RESIGN", "SIGNOFF", "PROCESS", "PREVIEW", "PAUSE", "RESUME",
    "EJECT", "REPLACE", "BECOME", "ROLLBACK", "TERMINATE", "FORCE BEGIN", "LEDGER",
    "SET PASSWORD", "SET ADDRESS", "SET NAME", "SET WAIT", "SET NOWAIT", "SET ABSENCE",
    "SET NOABSENCE",
    "SET DRAW", "SET NODRAW", "SET CONCEDE", "SET NOCONCEDE", "SET CLAIM", "SET NOCLAIM", "SET DEADLINE", "SET GRACE",
    "SET START", "SET MOVE", "SET RETREAT", "SET ADJUST", "SET NMR", "SET NONMR",
    "SET PRESS", "SET NOPRESS", "SET PRESS LIMIT", "SET PARTIAL", "SET NOPARTIAL", "SET OBSERVER",
    "SET PUBLISH", "SET REPORT", "WITHHOLD", "RELEASE",
    "GENERAL", "GENERAL CLEAR", "GENERAL LIST", "ENDGENERAL", "PHASE", "IF", "ELSE", "ENDIF",
)  # fmt: skip

# Commands of njudge and DPjudge this judge does not have: told so, not read as orders.
_UNSUPPORTED: dict[str, str] = {
    "register": "njudge's registration form",
    "whois": "njudge's player look-up",
    "get": "njudge's help files: write HELP",
    "send": "njudge's help files: write HELP",
    "version": "njudge's version",
    "diary": "njudge's diary",
    "clear": "njudge's clearing of phased orders: write GENERAL CLEAR",
    "promote": "njudge's co-master",
    "unstart": "njudge's unstart",
    "takeover": "DPjudge's takeover: write SIGNON",
    "purge": "DPjudge's purge",
    "map": "a picture of the board",
}
_COMMENT_PREFIXES = ("#", "//", ";")
_FIRST_WORD = re.compile(r"\s*([^\W\d_][\w'.]*)(\s*:)?")
_GAME_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")
# A word meant as a phase name but not one (S1901X, F19O1M): a season or month, then digits.
_PHASE_LIKE = re.compile(r"(?:[a-z]|[a-z]{3})\d{4}[a-z]?", re.IGNORECASE)
_SECRET_COMMANDS = frozenset({"CREATE", "SIGNON", "JOIN", "OBSERVE"})
_SECRET_LINE = re.compile(r"\s*set\s+password\b", re.IGNORECASE)
_LAST_RESORT = "this line could not be read"

_A_CONDITION_WORDS = "a condition (A Gal, Russian Army in Galicia, Bel owned by France, PHASE FALL)"
# How each terminal is named to a player.
_EXPECTED_WORDS: dict[str, str] = {
    "ARG": "a name",
    "SECRET": "a password",
    "NUMBER": "a number",
    "MINUTES": "a number",
    "DURATION": "a duration (72, 12h, 3d)",
    "DAYSPEC": "days such as -MTWTF-",
    "MONTH": "a month",
    "WEEKDAY": "a weekday",
    "ISO_DATE": "a date (2026-12-01)",
    "TIME": "a time (18:00)",
    "ZONE": "a time zone (UTC, +0100)",
    "RELATIVE": "a time from now (+2d)",
    "PHASE": "a phase (S1901M)",
    "PRESS_KIND": "NONE, WHITE, GREY, WHITE/GREY or GREY/WHITE",
    "PHASE_KIND": "MOVE, RETREAT or ADJUST",
    "END_PRESS": "ENDPRESS",
    "FORCE_BEGIN": "FORCE BEGIN",
    "COMMA": ",",
    "LPAR": "(",
    "RPAR": ")",
    "PHASE_WORD": "PHASE",
    "SEASON": "SPRING, FALL or WINTER",
    "WORD": "a unit or province (A Gal, Russian Army in Galicia)",
    "ELSE_IF": "ELSE IF",
    "END_IF": "ENDIF",
    "END_GENERAL": "ENDGENERAL",
    "A_CONDITION": _A_CONDITION_WORDS,
    "A_PHASE": "a phase (S1902M, 1902 or Fall 1902)",
    "REST": "your name",
    "$END": "end of line",
}

# What "a name" is, after the word before it.
_NAME_AFTER: dict[str, str] = {
    "SIGNON": "a power and the game (Fgame, or FRANCE game)",
    "LOGIN": "a power and the game (Fgame, or FRANCE game)",
    "HELLO": "a power and the game (Fgame, or FRANCE game)",
    "CREATE": "a game name",
    "JOIN": "a game name",
    "OBSERVE": "a game name",
    "WATCH": "a game name",
    "MONITOR": "a game name",
    "EJECT": "a power or an address",
    "REPLACE": "a power",
    "LEDGER": "a power, a change such as +200 or -50, and a currency",
    "BECOME": "a power",
    "CONCEDE": "a power",
    "OBSERVER": "ANY, WHITE or NO",
    "PUBLISH": "NOW or RESULTS",
    "REPORT": "JUDGE or POSTAL",
    "WITHHOLD": "the number of a press release",
    "RELEASE": "the number of a press release",
    "LIMIT": "a number of press releases a day, or NONE",
}


class _Fault(Exception):
    """An argument the grammar took but the command cannot use (column, message, fits)."""

    def __init__(self, column: int, message: str, expected: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.column = column
        self.message = message
        self.expected = expected


def _press_number(token: Token) -> int:
    """The number of a press release, as the GM's copy of it shows it."""
    text = str(token).lstrip("#")
    if not text.isdigit():
        raise _Fault(_col(token), "expected the number of a press release (as in #12)")
    return int(text)


def _col(token: Token) -> int:
    column = getattr(token, "column", None)
    return column if isinstance(column, int) else 1


def _tokens(children: list[Any], kind: str) -> list[Token]:
    return [c for c in children if isinstance(c, Token) and c.type == kind]


def _game(token: Token) -> str:
    if not _GAME_NAME.fullmatch(str(token)):
        raise _Fault(
            _col(token),
            f"{str(token)!r} is no game name (letters, digits, - and _)",
            ("a game name",),
        )
    return str(token)


def _upper(token: Token) -> str:
    return str(token).upper()


def _names(children: list[Any]) -> tuple[str, ...]:
    for child in children:
        if isinstance(child, tuple):
            return child
    return ()


def _minutes(token: Token) -> int:
    """A duration: hours when no unit is written (njudge's), or with d, h or m."""
    text = str(token).lower()
    unit = text[-1] if text[-1] in "dhm" else "h"
    number = float(text.rstrip("dhm"))
    minutes = round(number * {"d": 24 * 60, "h": 60, "m": 1}[unit])
    if minutes > 366 * 24 * 60:
        raise _Fault(_col(token), f"{str(token)!r} is more than a year", ("a duration",))
    return minutes


_DAYS_OF_WEEK = "SMTWTFS"
_MONTH_NUMBERS = {name: i for i, name in enumerate(cv.MONTH_ABBREVIATIONS, start=1)}
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class _Builder(Transformer[Token, Any]):
    """Grammar callbacks: each rule's children -> a value (line numbers are added later)."""

    # --- information and joining --------------------------------------------------------------
    def help(self, c: list[Any]) -> cv.Command:
        words = [str(t).strip(".?!") for t in _tokens(c, "ARG")]
        topic = " ".join(w for w in words if w).lower()
        return cv.Help(topic=topic or None)

    def list_games(self, c: list[Any]) -> cv.Command:
        args = _tokens(c, "ARG")
        if not args:
            return cv.ListGames()
        if _upper(args[0]) == "FULL":
            return cv.ListGames(full=True)
        return cv.ListGames(game=_game(args[0]))

    def create(self, c: list[Any]) -> cv.Command:
        game_token = _tokens(c, "ARG")[0]
        game = _game(_strip_question(game_token))
        password = str(_tokens(c, "SECRET")[0])
        args = _tokens(c, "ARG")[1:]
        return cv.Create(
            game=game,
            password=password,
            variant=str(args[0]).lower(),
            rule_sets=tuple(str(a).lower() for a in args[1:]),
        )

    def signon(self, c: list[Any]) -> cv.Command:
        first = _tokens(c, "ARG")[0]
        secrets = _tokens(c, "SECRET")
        if len(secrets) == 2:  # SIGNON FRANCE game password
            return cv.SignOn(power=_upper(first), game=_game(secrets[0]), password=str(secrets[1]))
        text = str(first)
        password = str(secrets[0])
        if "@" in text:  # DPjudge's SIGNON france@game
            power, _, game = text.partition("@")
            if not power:
                raise _Fault(_col(first), "a power is needed before '@'", ("a power",))
            game_token = Token(
                "ARG", game, start_pos=0, line=1, column=_col(first) + len(power) + 1
            )
            return cv.SignOn(power=power.upper(), game=_game(game_token), password=password)
        if text.startswith("?"):  # njudge's SIGNON ?game password: join a forming game
            return cv.Join(game=_game(_strip_question(first)), password=password)
        if len(text) < 2 or not text[0].isalpha():
            raise _Fault(
                _col(first),
                "expected a power letter and the game name (SIGNON Fgame password)",
                ("a power letter and a game name",),
            )
        rest = Token("ARG", text[1:], start_pos=0, line=1, column=_col(first) + 1)
        return cv.SignOn(power=text[0].upper(), game=_game(rest), password=password, glued=text)

    def join(self, c: list[Any]) -> cv.Command:
        game = _game(_strip_question(_tokens(c, "ARG")[0]))
        prefs = tuple(_upper(a) for a in _tokens(c, "ARG")[1:])
        return cv.Join(game=game, password=str(_tokens(c, "SECRET")[0]), preferences=prefs)

    def observe(self, c: list[Any]) -> cv.Command:
        secrets = _tokens(c, "SECRET")
        return cv.Observe(
            game=_game(_tokens(c, "ARG")[0]), password=str(secrets[0]) if secrets else None
        )

    def unobserve(self, c: list[Any]) -> cv.Command:
        return cv.Unobserve(game=_game(_tokens(c, "ARG")[0]))

    def summary(self, c: list[Any]) -> cv.Command:
        args = _tokens(c, "ARG")
        return cv.Summary(game=_game(args[0]) if args else None)

    def own_map(self, c: list[Any]) -> cv.Command:
        args = _tokens(c, "ARG")
        return cv.OwnMap(game=_game(args[0]) if args else None)

    def history(self, c: list[Any]) -> cv.Command:
        args = _tokens(c, "ARG")
        bounds: dict[str, Any] = {}
        for child in c:
            if isinstance(child, tuple) and child and child[0] == "bound":
                _, key, column, value = child
                if key in bounds:
                    raise _Fault(column, f"{key.upper()} is given twice")
                bounds[key] = value
        return cv.History(
            game=_game(args[0]) if args else None,
            start=bounds.get("from"),
            end=bounds.get("to"),
            lines=bounds.get("lines"),
        )

    def history_from(self, c: list[Any]) -> tuple[Any, ...]:
        return ("bound", "from", _col(c[0]), c[1])

    def history_to(self, c: list[Any]) -> tuple[Any, ...]:
        return ("bound", "to", _col(c[0]), c[1])

    def history_lines(self, c: list[Any]) -> tuple[Any, ...]:
        lines = int(c[1])
        if lines <= 0:
            raise _Fault(_col(c[1]), "LINES needs a number above 0", ("a number",))
        return ("bound", "lines", _col(c[0]), lines)

    def bound(self, c: list[Any]) -> When | str:
        value = c[0]
        return _upper(value) if isinstance(value, Token) else value

    def names(self, c: list[Any]) -> tuple[str, ...]:
        return tuple(str(t) for t in _tokens(c, "ARG"))

    # --- press ---------------------------------------------------------------------------------
    def press(self, c: list[Any]) -> cv.Command:
        kind = _message_kind(c)
        recipients = tuple(n.upper() for n in _names(c))
        return cv.Press(grey=kind == "GREY", white=kind == "WHITE", recipients=recipients)

    def broadcast(self, c: list[Any]) -> cv.Command:
        kind = _message_kind(c)
        return cv.Broadcast(grey=kind == "GREY", white=kind == "WHITE")

    def stray_end_press(self, c: list[Any]) -> cv.Command:
        raise _Fault(_col(c[0]), "ENDPRESS without a PRESS or BROADCAST before it")

    # --- players' settings ---------------------------------------------------------------------
    def start(self, c: list[Any]) -> cv.Command:
        return c[-1]  # SET setting: the setting's value

    def set_password(self, c: list[Any]) -> cv.Command:
        return cv.SetPassword(password=str(c[1]))

    def set_address(self, c: list[Any]) -> cv.Command:
        return cv.SetAddress(addresses=_names(c))

    def set_name(self, c: list[Any]) -> cv.Command:
        return cv.SetName(name=" ".join(str(_tokens(c, "REST")[0]).split()))

    def set_wait(self, c: list[Any]) -> cv.Command:
        return cv.SetWait(wait=True)

    def set_nowait(self, c: list[Any]) -> cv.Command:
        return cv.SetWait(wait=False)

    def set_absence(self, c: list[Any]) -> cv.Command:
        dates = [x for x in c if isinstance(x, When)]
        return cv.SetAbsence(start=dates[0], end=dates[1] if len(dates) > 1 else None)

    def set_no_absence(self, c: list[Any]) -> cv.Command:
        dates = [x for x in c if isinstance(x, When)]
        return cv.ClearAbsence(start=dates[0] if dates else None)

    def set_draw(self, c: list[Any]) -> cv.Command:
        return cv.SetDraw(draw=True, powers=tuple(n.upper() for n in _names(c)))

    def set_nodraw(self, c: list[Any]) -> cv.Command:
        return cv.SetDraw(draw=False)

    def set_claim(self, c: list[Any]) -> cv.Command:
        return cv.SetClaim(claim=True, powers=tuple(n.upper() for n in _names(c)))

    def set_noclaim(self, c: list[Any]) -> cv.Command:
        return cv.SetClaim(claim=False)

    def set_concede(self, c: list[Any]) -> cv.Command:
        return cv.SetConcede(power=_upper(c[1]))

    def set_noconcede(self, c: list[Any]) -> cv.Command:
        return cv.SetConcede(power=None)

    # --- GM settings ---------------------------------------------------------------------------
    def set_deadline(self, c: list[Any]) -> cv.Command:
        return cv.SetDeadline(when=c[1])

    def set_grace(self, c: list[Any]) -> cv.Command:
        return cv.SetGrace(when=c[1])

    def set_start(self, c: list[Any]) -> cv.Command:
        return cv.SetStart(when=c[1])

    def set_timing(self, c: list[Any]) -> cv.Command:
        kind = str(c[0]).upper()
        kind = (
            "MOVE"
            if kind.startswith("MOVE")
            else "RETREAT"
            if kind.startswith("RETREAT")
            else "ADJUST"
        )
        settings: dict[str, Any] = {}
        for key, column, value in c[1:]:
            if key in settings:
                raise _Fault(column, f"{key.split('_')[0].upper()} is given twice")
            settings[key] = value
        return cv.SetPhaseTiming(phase_kind=kind, timing=cv.PhaseTiming(**settings))

    def clock_time(self, c: list[Any]) -> tuple[str, int, int]:
        hour, minute, _second = _clock(c[1])
        return ("clock", _col(c[0]), hour * 60 + minute)

    def clock_minutes(self, c: list[Any]) -> tuple[str, int, int]:
        minutes = int(c[1])
        if not -1 <= minutes < 24 * 60:
            raise _Fault(_col(c[1]), "CLOCK is minutes after midnight (0 to 1439) or -1")
        return ("clock", _col(c[0]), minutes)

    def timing_min(self, c: list[Any]) -> tuple[str, int, int]:
        return ("min_minutes", _col(c[0]), _minutes(c[1]))

    def timing_next(self, c: list[Any]) -> tuple[str, int, int]:
        return ("next_minutes", _col(c[0]), _minutes(c[1]))

    def timing_grace(self, c: list[Any]) -> tuple[str, int, int]:
        return ("grace_minutes", _col(c[0]), _minutes(c[1]))

    def timing_delay(self, c: list[Any]) -> tuple[str, int, int]:
        return ("delay_minutes", _col(c[0]), _minutes(c[1]))

    def timing_days(self, c: list[Any]) -> tuple[str, int, str]:
        text = str(c[1]).upper()
        for i, letter in enumerate(text):
            if letter not in ("-", _DAYS_OF_WEEK[i]):
                raise _Fault(
                    _col(c[1]) + i,
                    f"DAYS is seven places, Sunday first: a letter of {_DAYS_OF_WEEK} or '-'",
                    ("days such as -MTWTF-",),
                )
        return ("days", _col(c[0]), text)

    def set_nmr(self, c: list[Any]) -> cv.Command:
        return cv.SetNmr(allowed=True, policy=str(c[1]).lower() if len(c) > 1 else None)

    def set_nonmr(self, c: list[Any]) -> cv.Command:
        return cv.SetNmr(allowed=False)

    def set_press(self, c: list[Any]) -> cv.Command:
        return cv.SetPress(kind=_press_kind(c[-1]))

    def set_nopress(self, c: list[Any]) -> cv.Command:
        return cv.SetPress(kind="NONE")

    def set_press_limit(self, c: list[Any]) -> cv.Command:
        written = _upper(c[2])
        if written in ("NONE", "NO", "OFF"):
            return cv.SetPressLimit(limit=None)
        if not written.isdigit() or not 1 <= int(written) <= cv.MAX_PRESS_LIMIT:
            raise _Fault(
                _col(c[2]),
                f"expected a number of press releases a day (1 to {cv.MAX_PRESS_LIMIT}) or "
                "NONE after LIMIT",
                ("a number", "NONE"),
            )
        return cv.SetPressLimit(limit=int(written))

    def set_partial(self, c: list[Any]) -> cv.Command:
        return cv.SetPartialPress(allowed=True)

    def set_nopartial(self, c: list[Any]) -> cv.Command:
        return cv.SetPartialPress(allowed=False)

    def set_observer(self, c: list[Any]) -> cv.Command:
        level = _upper(c[1])
        if level == "NONE":
            level = "NO"
        if level not in cv.OBSERVER_LEVELS:
            raise _Fault(_col(c[1]), "expected ANY, WHITE or NO after OBSERVER", cv.OBSERVER_LEVELS)
        return cv.SetObserverPress(level=level)

    def set_publish(self, c: list[Any]) -> cv.Command:
        when = _upper(c[1])
        if when not in cv.PUBLISH_TIMES:
            raise _Fault(_col(c[1]), "expected NOW or RESULTS after PUBLISH", cv.PUBLISH_TIMES)
        return cv.SetPublish(when=when)

    def set_report(self, c: list[Any]) -> cv.Command:
        style = str(c[1]).lower()
        if style not in cv.REPORT_STYLES:
            expected = tuple(s.upper() for s in cv.REPORT_STYLES)
            raise _Fault(_col(c[1]), "expected JUDGE or POSTAL after REPORT", expected)
        return cv.SetReport(style=style)

    def set_web(self, c: list[Any]) -> cv.Command:
        word = _upper(c[1])
        if word not in ("ON", "OFF"):
            raise _Fault(_col(c[1]), "expected ON or OFF after WEB", ("ON", "OFF"))
        return cv.SetWeb(shown=word == "ON")

    def withhold_press(self, c: list[Any]) -> cv.Command:
        return cv.WithholdPress(number=_press_number(c[1]))

    def release_press(self, c: list[Any]) -> cv.Command:
        return cv.ReleasePress(number=_press_number(c[1]))

    # --- GM actions ----------------------------------------------------------------------------
    def resign(self, c: list[Any]) -> cv.Command:
        return cv.Resign()

    def signoff(self, c: list[Any]) -> cv.Command:
        return cv.SignOff()

    def process(self, c: list[Any]) -> cv.Command:
        """PROCESS [phase] [MISSED], and PROCESS game [phase] as GMs write it (the desk checks
        the game is the one the mail acts for); a word shaped like a phase is no game name.
        MISSED: the powers without orders count as having missed the deadline."""
        phases = _tokens(c, "PHASE")
        names = _tokens(c, "ARG")
        game = None
        if names:
            word = names[0]
            if _PHASE_LIKE.fullmatch(str(word)):
                raise _Fault(_col(word), f"{str(word)!r} is no phase", ("a phase (S1901M)",))
            game = _game(word)
        missed = bool(_tokens(c, "MISSED"))
        return cv.Process(phase=_upper(phases[0]) if phases else None, game=game, missed=missed)

    def preview(self, c: list[Any]) -> cv.Command:
        return cv.Preview()

    def pause(self, c: list[Any]) -> cv.Command:
        return cv.Pause()

    def resume(self, c: list[Any]) -> cv.Command:
        return cv.Resume()

    def eject(self, c: list[Any]) -> cv.Command:
        return cv.Eject(target=str(c[1]) if "@" in str(c[1]) else _upper(c[1]))

    def replace_power(self, c: list[Any]) -> cv.Command:
        address = str(c[2])
        if "@" not in address:
            raise _Fault(_col(c[2]), f"{address!r} is no mail address", ("a mail address",))
        return cv.Replace(power=_upper(c[1]), address=address)

    def become(self, c: list[Any]) -> cv.Command:
        return cv.Become(power=_upper(c[1]))

    def ledger(self, c: list[Any]) -> cv.Command:
        change = str(c[2])
        if not re.fullmatch(r"[+-]?\d{1,9}", change) or int(change) == 0:
            raise _Fault(
                _col(c[2]),
                f"expected the change in whole pounds (+200 or -50), found {change!r}",
                ("a change such as +200",),
            )
        return cv.Ledger(
            power=_upper(c[1]),
            change=int(change),
            currency=_upper(c[3]),
            why=" ".join(str(word) for word in c[4:]),
        )

    def rollback(self, c: list[Any]) -> cv.Command:
        return cv.Rollback(phase=_upper(c[1]) if len(c) > 1 else None)

    def terminate(self, c: list[Any]) -> cv.Command:
        return cv.Terminate()

    def force_begin(self, c: list[Any]) -> cv.Command:
        return cv.ForceBegin()

    # --- general orders ------------------------------------------------------------------------
    def general(self, c: list[Any]) -> cv.Command:
        return cv.GeneralOrders(**_validity(c))

    def general_clear(self, c: list[Any]) -> cv.Command:
        return cv.ClearGeneral(**_validity(c))

    def general_list(self, c: list[Any]) -> cv.Command:
        args = _tokens(c, "ARG")
        return cv.ListGeneral(power=_upper(args[0]) if args else None)

    def valid_from(self, c: list[Any]) -> tuple[str, int, str]:
        return ("valid_from", _col(c[0]), _phase_bound(c[1], first=True))

    def valid_to(self, c: list[Any]) -> tuple[str, int, str]:
        return ("valid_to", _col(c[0]), _phase_bound(c[1], first=False))

    def phase_code(self, c: list[Any]) -> tuple[Any, ...]:
        return ("code", c[0])

    def phase_year(self, c: list[Any]) -> tuple[Any, ...]:
        return ("year", c[0])

    def phase_season(self, c: list[Any]) -> tuple[Any, ...]:
        return ("season", *c)

    def phased(self, c: list[Any]) -> cv.Command:
        written = c[1]
        if written[0] == "year":
            raise _Fault(
                _col(written[1]),
                "PHASE names one phase: a season and a year (PHASE Fall 1902) or S1902M; "
                "for a whole year write GENERAL FROM 1902 TO 1902",
                ("a phase (S1901M)",),
            )
        return cv.PhaseLine(phase=_phase_bound(written, first=True))

    def end_general(self, c: list[Any]) -> cv.Command:
        return cv.EndGeneral()

    def if_line(self, c: list[Any]) -> cv.Command:
        return cv.IfLine(condition=c[1])

    def else_if_line(self, c: list[Any]) -> cv.Command:
        return cv.IfLine(condition=c[1], else_if=True)

    def else_line(self, c: list[Any]) -> cv.Command:
        return cv.ElseLine()

    def end_if(self, c: list[Any]) -> cv.Command:
        return cv.EndIf()

    def condition(self, c: list[Any]) -> cv.Condition:
        parts = tuple(x for x in c if not isinstance(x, Token))
        return parts[0] if len(parts) == 1 else cv.AnyOf(parts)

    def conjunction(self, c: list[Any]) -> cv.Condition:
        parts = tuple(x for x in c if not isinstance(x, Token))
        return parts[0] if len(parts) == 1 else cv.AllOf(parts)

    def negated(self, c: list[Any]) -> cv.Condition:
        return cv.Not(c[-1])

    def negation(self, c: list[Any]) -> cv.Condition:
        return c[0]  # type: ignore[no-any-return]

    def grouped(self, c: list[Any]) -> cv.Condition:
        return next(x for x in c if not isinstance(x, Token))  # type: ignore[no-any-return]

    def season_is(self, c: list[Any]) -> cv.Condition:
        season = _upper(c[-1])
        return cv.PhaseIs("FALL" if season == "AUTUMN" else season)

    def kind_is(self, c: list[Any]) -> cv.Condition:
        return cv.PhaseIs(_phase_kind(c[-1]))

    def owns(self, c: list[Any]) -> cv.Condition:
        return cv.OwnedBy(province=c[2], owner=c[0])

    def owned_by(self, c: list[Any]) -> cv.Condition:
        return cv.OwnedBy(province=c[0], owner=c[3])

    def unit_in(self, c: list[Any]) -> cv.Condition:
        return cv.UnitThere(c[0])

    def words(self, c: list[Any]) -> cv.Words:
        return cv.Words(tuple(str(t) for t in c), tuple(_col(t) for t in c))

    # --- dates ---------------------------------------------------------------------------------
    def clock(self, c: list[Any]) -> tuple[int, int, int, int | None]:
        hour, minute, second = _clock(c[0])
        offset = (_zone(c[1]) or None) if len(c) > 1 else None  # UTC written or not: None
        return (hour, minute, second, offset)

    def date_day_month(self, c: list[Any]) -> When:
        numbers = _tokens(c, "NUMBER")
        return _calendar_date(c, day=numbers[0], month=_tokens(c, "MONTH")[0], year=numbers[1:])

    def date_month_day(self, c: list[Any]) -> When:
        numbers = _tokens(c, "NUMBER")
        return _calendar_date(c, day=numbers[0], month=_tokens(c, "MONTH")[0], year=numbers[1:])

    def date_iso(self, c: list[Any]) -> When:
        token = c[0]
        year, month, day = (int(x) for x in str(token).split("-"))
        return _checked_date(c, token, year, month, day)

    def date_relative(self, c: list[Any]) -> When:
        token = c[0]
        total = 0
        for number, unit in re.findall(r"(\d+)([dhm])", str(token).lower()):
            total += int(number) * {"d": 24 * 60, "h": 60, "m": 1}[unit]
        if total > 366 * 24 * 60:
            raise _Fault(_col(token), f"{str(token)!r} is more than a year ahead")
        return When(relative_minutes=total)


_SEASON_LETTERS = {"SPRING": "S", "FALL": "F", "AUTUMN": "F", "WINTER": "W"}


def _phase_kind(token: Token) -> str:
    """MOVE, RETREAT or ADJUST for any of njudge's spellings (Movement, Retreats, Builds, ...)."""
    text = str(token).upper()
    return (
        "MOVE" if text.startswith("MOVE") else "RETREAT" if text.startswith("RETREAT") else "ADJUST"
    )


def _year(token: Token) -> int:
    text = str(token)
    if not re.fullmatch(r"\d{4}", text):
        raise _Fault(_col(token), f"{text!r} is no year: write it in full (1902)", ("a year",))
    return int(text)


def _phase_bound(written: tuple[Any, ...], *, first: bool) -> str:
    """A written phase as a phase name. A year starts in its spring and ends with its winter; a
    season without a kind starts with its movement and ends after its retreats (or builds)."""
    if written[0] == "code":
        token = written[1]
        try:
            return parse_phase(str(token), ANY).name
        except PhaseError as exc:
            raise _Fault(_col(token), str(exc), ("a phase (S1901M)",)) from None
    if written[0] == "year":
        year = _year(written[1])
        return f"S{year}M" if first else f"W{year}A"
    season_token, year_token = written[1], written[2]
    season = _SEASON_LETTERS[_upper(season_token)]
    year = _year(year_token)
    kinds = {"MOVE": "M", "RETREAT": "R", "ADJUST": "A"}
    if len(written) > 3:
        kind = kinds[_phase_kind(written[3])]
    elif season == "W":
        kind = "A"
    else:
        kind = "M" if first else "R"
    name = f"{season}{year}{kind}"
    try:
        return parse_phase(name, ANY).name
    except PhaseError as exc:
        raise _Fault(_col(season_token), str(exc), ("a phase (S1901M)",)) from None


def _validity(children: list[Any]) -> dict[str, str]:
    """FROM and TO of a GENERAL line, each given at most once."""
    bounds: dict[str, str] = {}
    for child in children:
        if isinstance(child, tuple) and child and child[0] in ("valid_from", "valid_to"):
            key, column, phase = child
            if key in bounds:
                raise _Fault(column, f"{'FROM' if key == 'valid_from' else 'TO'} is given twice")
            bounds[key] = phase
    return bounds


def _strip_question(token: Token) -> Token:
    text = str(token)
    if text.startswith("?"):
        return Token("ARG", text[1:], start_pos=0, line=1, column=_col(token) + 1)
    return token


def _message_kind(children: list[Any]) -> str | None:
    """GREY or WHITE as written after PRESS or BROADCAST; None when no kind is written."""
    kinds = _tokens(children, "PRESS_KIND")
    if not kinds:
        return None
    kind = _press_kind(kinds[0])
    if kind not in ("GREY", "WHITE"):
        raise _Fault(_col(kinds[0]), "a message is GREY or WHITE", ("GREY", "WHITE"))
    return kind


def _press_kind(token: Token) -> str:
    text = re.sub(r"\s+", "", str(token).upper()).replace("GRAY", "GREY")
    return text


def _clock(token: Token) -> tuple[int, int, int]:
    text = str(token).lstrip("Tt")
    parts = [int(x) for x in text.split(":")]
    hour, minute = parts[0], parts[1]
    second = parts[2] if len(parts) > 2 else 0
    if hour == 24 and minute == 0 and second == 0:
        raise _Fault(_col(token), "write midnight as 00:00 of the next day", ("a time (18:00)",))
    if hour > 23 or minute > 59 or second > 59:
        raise _Fault(_col(token), f"{text!r} is no time of day", ("a time (18:00)",))
    return hour, minute, second


def _zone(token: Token) -> int:
    text = str(token).upper()
    if text in ("UTC", "GMT", "Z"):
        return 0
    hours, minutes = int(text[1:3]), int(text[3:5])
    if hours > 14 or minutes > 59:
        raise _Fault(_col(token), f"{text!r} is no time zone", ("a time zone (UTC, +0100)",))
    return (hours * 60 + minutes) * (1 if text[0] == "+" else -1)


def _calendar_date(c: list[Any], day: Token, month: Token, year: list[Token]) -> When:
    month_number = _MONTH_NUMBERS[str(month)[:3].title()]
    day_number = int(re.match(r"\d+", str(day)).group())  # type: ignore[union-attr]
    year_number: int | None = None
    if year:
        text = str(year[0])
        if not re.fullmatch(r"\d{4}", text):
            raise _Fault(
                _col(year[0]), f"{text!r} is no year: write it in full (2026)", ("a year",)
            )
        year_number = int(text)
    if year_number is None:
        if not 1 <= day_number <= calendar.monthrange(2024, month_number)[1]:  # a leap year
            raise _Fault(
                _col(day), f"{str(month)} has no day {day_number}", ("a day of the month",)
            )
        return _with_clock(c, When(month=month_number, day=day_number))
    return _checked_date(c, day, year_number, month_number, day_number)


def _checked_date(c: list[Any], token: Token, year: int, month: int, day: int) -> When:
    if not 2000 <= year <= 2200:
        raise _Fault(_col(token), f"{year} is no year the judge deals in", ("a year",))
    try:
        written = date(year, month, day)
    except ValueError:
        raise _Fault(_col(token), f"{year}-{month:02d}-{day:02d} is no date", ("a date",)) from None
    weekdays = _tokens(c, "WEEKDAY")
    if weekdays:
        named = _WEEKDAYS.index(str(weekdays[0]).lower()[:3])
        if named != written.weekday():
            actual = calendar.day_name[written.weekday()]
            raise _Fault(_col(weekdays[0]), f"{written:%d %b %Y} is a {actual}", (actual,))
    return _with_clock(c, When(year=year, month=month, day=day))


def _with_clock(c: list[Any], when: When) -> When:
    for child in c:
        if isinstance(child, tuple) and len(child) == 4:
            hour, minute, second, offset = child
            return replace(when, hour=hour, minute=minute, second=second, utc_offset=offset)
    return when


# --- the parser ------------------------------------------------------------------------------------
_PARSER: Lark | None = None


def _parser() -> Lark:
    global _PARSER
    if _PARSER is None:
        grammar = (data_dir("grammar") / "commands.lark").read_text(encoding="utf-8")
        _PARSER = Lark(
            grammar,
            parser="lalr",
            lexer="contextual",
            transformer=_Builder(),
            maybe_placeholders=False,
        )
    return _PARSER


_START: re.Pattern[str] | None = None


def _command_start() -> re.Pattern[str]:
    """The terminals a command line may open with, from the grammar itself."""
    global _START
    if _START is None:
        lark = _parser()
        accepted = lark.parse_interactive("").accepts()
        patterns = [t.pattern.to_regexp() for t in lark.terminals if t.name in accepted]
        _START = re.compile(r"\s*(?:" + "|".join(f"(?:{p})" for p in patterns) + ")")
    return _START


_ORDER_STARTS: dict[str, re.Pattern[str]] = {}


def _order_start(grammar: str) -> re.Pattern[str]:
    """The keywords an order line of grammar/GRAMMAR.lark may open with, from the grammar
    itself: the terminals its first token may be that outrank a name (WORD, any word: a power's
    or a province's, which the caller's names decide)."""
    found = _ORDER_STARTS.get(grammar)
    if found is None:
        folder = data_dir("grammar")
        lark = Lark(
            (folder / f"{grammar}.lark").read_text(encoding="utf-8"),
            parser="lalr",
            lexer="basic",
            import_paths=[str(folder)],
        )
        accepted = lark.parse_interactive("").accepts()
        patterns = [
            t.pattern.to_regexp() for t in lark.terminals if t.name in accepted and t.priority > 0
        ]
        found = re.compile("|".join(f"(?:{p})" for p in patterns) or r"(?!)")
        _ORDER_STARTS[grammar] = found
    return found


def opens_an_order(word: str, grammar: str = "orders") -> bool:
    """Whether an order line of grammar/GRAMMAR.lark may open with `word` (any letter case; a
    full stop after it left out): one of the keywords of its first token, not a name."""
    return _order_start(grammar).fullmatch(_compact(word)) is not None


_GLUED_SPELLINGS = {_s.replace(" ", "").lower(): _s for _s in COMMAND_SPELLINGS}


def suggest_commands(written: str) -> tuple[str, ...]:
    """The command spellings nearest to `written` (one or two words), nearest first, ranked
    by how people mistype (judge.language.spelling): SINGON is SIGNON, PROCES is PROCESS."""
    return tuple(nearest(_glued(written), _GLUED_SPELLINGS))


def _glued(written: str) -> str:
    return re.sub(r"[\W_]+", "", written).lower()


def _nearest_commands(*writings: str) -> tuple[str, ...]:
    """The command spellings nearest to any of `writings` (a word, or two glued together),
    ranked together by distance, at most three."""
    scored: dict[str, float] = {}
    for written in writings:
        for distance, spelling in scored_nearest(_glued(written), _GLUED_SPELLINGS):
            scored[spelling] = min(distance, scored.get(spelling, distance))
    if not scored:
        return ()
    best = min(scored.values())
    ranked = sorted((d, s) for s, d in scored.items() if d <= best + MARGIN)
    return tuple(s for _, s in ranked[:3])


# --- reading a mail --------------------------------------------------------------------------------
def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith(_COMMENT_PREFIXES)


def _is_stop(line: str) -> bool:
    """A signature separator ("-- ") ends the commands, as on njudge."""
    return line.rstrip() == "--"


def _compact(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()


def _not_a_command(
    line: str, line_no: int, powers: frozenset[str], provinces: frozenset[str]
) -> CommandLine:
    """A line that opens with no command word: an order line, or the answer to a mistaken command.

    It is an order line when its first word is a keyword an order of the standard language
    opens with (grammar/orders.lark: A, F, Army, Fleet, Build, Remove, Disband, Waive), a power
    or province the caller named (or a prefix of
    one of at least three letters), or is followed by a colon (a power prefix); when it opens
    with no word at all (``(F) Nth-Bel``); or when nothing else fits, its first word being far
    from every command spelling. A command of njudge or DPjudge this judge does not have is
    answered so; a first word near a command spelling makes a mistyped command.
    """
    if _is_a_sentence(line) or _WEB_ADDRESS.match(line):
        return cv.Prose(line_no, line.rstrip(), line.split()[0])
    names = (powers, provinces)
    match = _FIRST_WORD.match(line)
    if match is None:
        if line.lstrip().startswith("(") or _ORDER_MARKS.search(line):
            return OrderLine(line_no, line.rstrip())  # (F) Nth-Bel
        return cv.Prose(line_no, line.rstrip(), line.split()[0])  # "Halt", [image], 924 38 051
    word = match.group(1)
    compact = _compact(word)
    if match.group(2):
        if _names_a_power(compact, powers) or not _names_nothing(line[match.end() :], *names):
            return OrderLine(line_no, line.rstrip())
        return cv.Prose(line_no, line.rstrip(), word)  # Date: 2016-07-19, Cause : The file ...
    opens = opens_an_order(compact) or any(
        compact in known or any(_abbreviates(compact, name) for name in known) for known in names
    )
    if opens:
        if _prose_after_all(line, powers, provinces):
            return cv.Prose(line_no, line.rstrip(), word)  # And obviously I forget ...
        return OrderLine(line_no, line.rstrip())
    note = _UNSUPPORTED.get(compact)
    if note is not None:
        message = f"{word.upper()} ({note}) is not a command of this judge"
        return CommandError(line_no, match.start(1) + 1, message, (), (), word)
    two_words = " ".join(line.split()[:2])
    if _could_be_a_command(line, compact) and (
        suggest_commands(word) or suggest_commands(two_words)
    ):
        if not (_SENTENCE_END.search(line) and _prose_after_all(line, powers, provinces)):
            return _unknown_command(line, line_no)
        return cv.Prose(line_no, line.rstrip(), word)  # Det här är ett flerdelat meddelande.
    if _looks_like_an_order(line, compact, powers, provinces):
        return OrderLine(line_no, line.rstrip())
    return cv.Prose(line_no, line.rstrip(), word)


# Words a person opens a mail with, near a command's spelling but never a mistyped one.
_GREETINGS = frozenset({"hello", "hallo", "hullo", "hi", "hey", "dear"})
# A mistyped command is short: the longest command line has about eight words.
_COMMAND_WORDS = 8
# Words shorter than this are compared with the names for a mistyped province or power.
_NAME_LENGTH = 4
# Punctuation only orders use between two places: "->", " - ", "Par-Bur".
# or an abbreviation and an order's letter ("Mun S Ber", "Par H").
_ORDER_MARKS = re.compile(
    r"->|\s-\s|^\s*[^\W\d_]\S+-\S{2,}(?:\s|$)|\b[^\W\d_]{3}-[^\W\d_]{3}\b"
    r"|^\s*[^\W\d_]{2,3}\s+(?:[SCHRD]|via)(?:\s|$)"
)
# A line that opens with a web or mail address (a signature's), whose "http:" is no power.
_WEB_ADDRESS = re.compile(r"\s*(?:https?://|www\.|mailto:)", re.IGNORECASE)
# More words than any order has, with none of an order's marks: a sentence of a person's.
_SENTENCE_WORDS = 12


def _is_a_sentence(line: str) -> bool:
    """A line of more than _SENTENCE_WORDS words and no order's marks ("A HARE one day
    ridiculed the short feet and slow pace of the Tortoise, who replied, laughing:")."""
    return len(line.split()) > _SENTENCE_WORDS and not _ORDER_MARKS.search(line)


# How much of a name a prefix of three letters must give to stand for it (a longer prefix,
# half as much): "Pres" Prestwick, "Galic" Galicia; "Bob" no Bobruisk.
_PREFIX_SHARE = 0.6
# The farthest a word may be from a name (judge.language.spelling's measure) and still be
# that name mistyped: Galicya 0.4, Englnd 0.7; Plain (Plains) 1.0 and This (Tunis) 1.2 are
# a person's words.
_MISTYPED = 0.8


def _abbreviates(compact: str, name: str) -> bool:
    """Whether a word of at least three letters is a prefix giving most of a name."""
    if len(compact) < 3 or not name.startswith(compact):
        return False
    share = _PREFIX_SHARE if len(compact) == 3 else _PREFIX_SHARE / 2
    return len(compact) >= share * len(name)


# A word of letters (a number, "28th" or "+0200", is neither an order's word nor prose).
_LETTER_WORD = re.compile(r"(?<![\w'])[^\W\d_][^\W\d_'’.]*(?:['’][^\W\d_]+)*")
# What ends a sentence: a full stop, ! or ?, at the end of the line or before its last word.
_SENTENCE_END = re.compile(r"[.!?]\s*(?:\S+\s*)?$")
# A line whose words are none of an order's must have this many besides its first to be a
# person's words ("Holland stays put" is answered as an order; "kan glatt meddela att ..." not).
_PROSE_WORDS = 3
# With an order's punctuation (" - ", "->"), this many words, the first too, none of an order's
# ("Ingenieur Recherche - Dept INF", "Ecology & Safety ... (28 June - 2 July)").
_MARKED_PROSE_WORDS = 4


# A command word written as a label: "Status       : File Name violation".
_LABEL = re.compile(r"\s*[^\W\d_]+\s*:")


def _is_a_label(line: str, powers: frozenset[str], provinces: frozenset[str]) -> bool:
    """Whether a line that opens with a command word but cannot be read as the command is a
    label and its value (a table's row in a forwarded notice): the word is followed by a
    colon, and what follows has no word of an order's (a word near a name does not count:
    the line is no order whatever it holds)."""
    label = _LABEL.match(line)
    return label is not None and _names_nothing(
        line[label.end() :], powers, provinces, near=False
    )


def _names_a_power(compact: str, powers: frozenset[str]) -> bool:
    """Whether a word is a power's name, a prefix of one, or one mistyped (Englnd)."""
    if compact in powers or any(_abbreviates(compact, name) for name in powers):
        return True
    found = scored_nearest(compact, powers) if len(compact) >= _NAME_LENGTH else []
    return bool(found) and found[0][0] <= _MISTYPED


_EXACT, _MISTYPED_NAME, _NOT_AN_ORDERS = "exact", "mistyped", "no"


def _orders_word(word: str, powers: frozenset[str], provinces: frozenset[str]) -> str:
    """Whether a word could be part of an order of any board: _EXACT for a keyword of any
    order grammar (A, holds, to, and, if, board), a power or a province or a prefix of one;
    _MISTYPED_NAME for a power or province mistyped; _NOT_AN_ORDERS for anything else."""
    if _order_vocabulary().fullmatch(word):
        return _EXACT
    compact = _compact(word)
    for known in (powers, provinces):
        if compact in known or any(_abbreviates(compact, name) for name in known):
            return _EXACT
    if len(compact) < _NAME_LENGTH:
        return _NOT_AN_ORDERS
    names = [name for name in (*powers, *provinces) if len(name) >= _NAME_LENGTH]
    found = scored_nearest(compact, names)
    return _MISTYPED_NAME if found and found[0][0] <= _MISTYPED else _NOT_AN_ORDERS


def _names_nothing(
    text: str, powers: frozenset[str], provinces: frozenset[str], *, near: bool = True
) -> bool:
    """Whether a text has no order's punctuation and none of an order's words (nor, when
    `near`, a word near a power's or province's name)."""
    found = {_orders_word(w, powers, provinces) for w in _LETTER_WORD.findall(text)}
    unwanted = {_EXACT, _MISTYPED_NAME} if near else {_EXACT}
    return not _ORDER_MARKS.search(text) and not found & unwanted


def _prose_after_all(
    line: str, powers: frozenset[str], provinces: frozenset[str], *, marked: bool = False
) -> bool:
    """Whether a line taken for an order by its first word (a province's abbreviation, "And";
    a keyword, "A") or its punctuation is a person's words after all: no other word of it is
    an order's and it has words enough for a sentence, or ends like one ("Plain email.").
    A line with an order's punctuation (`marked`) must have no order's word at all and four
    words. A word near a province's name is chance in a long line (Swedish "inom", IMON) but
    not in a short one: one such word in four makes the line an order. Anything shorter, or
    with one order's word, is still answered as an order."""
    words = _LETTER_WORD.findall(line)
    if marked:
        considered = words
        enough = len(words) >= _MARKED_PROSE_WORDS
    else:
        considered = words[1:]
        enough = len(considered) >= _PROSE_WORDS or (
            bool(considered) and _SENTENCE_END.search(line) is not None
        )
    if not enough:
        return False
    kinds = [_orders_word(w, powers, provinces) for w in considered]
    return _EXACT not in kinds and 4 * kinds.count(_MISTYPED_NAME) < len(considered)


_VOCABULARY: re.Pattern[str] | None = None


def _order_vocabulary() -> re.Pattern[str]:
    """The keywords of every order grammar (grammar/*.lark but the commands'), one pattern:
    a word that fully matches it may be part of some board's order."""
    global _VOCABULARY
    if _VOCABULARY is None:
        folder = data_dir("grammar")
        patterns: dict[str, None] = {}
        for path in sorted(folder.glob("*.lark")):
            if path.stem == "commands":
                continue
            lark = Lark(
                path.read_text(encoding="utf-8"),
                parser="lalr",
                lexer="basic",
                import_paths=[str(folder)],
            )
            patterns.update({t.pattern.to_regexp(): None for t in lark.terminals if t.priority > 0})
        _VOCABULARY = re.compile("|".join(f"(?:{p})" for p in patterns))
    return _VOCABULARY


def _is_greeting(line: str) -> bool:
    """A greeting of at most three words ("Hello", "Hi Ann,"), never a command."""
    words = line.split()
    return 0 < len(words) <= 3 and _compact(words[0]) in _GREETINGS


def _could_be_a_command(line: str, compact: str) -> bool:
    """Whether a line opening with no command word may be a mistyped command: not a greeting,
    not a word of one or two letters (I, In), not a sentence longer than any command."""
    return compact not in _GREETINGS and len(compact) >= 3 and len(line.split()) <= _COMMAND_WORDS


def _looks_like_an_order(
    line: str, compact: str, powers: frozenset[str], provinces: frozenset[str]
) -> bool:
    """Whether a line whose first word is no order keyword, power or province is still an
    order, mistyped: its first word is near a power's, a province's or an order keyword's
    spelling (Galicya, Amry), or it moves something with an order's punctuation. Anything
    else is a person's words (Prose)."""
    if _ORDER_MARKS.search(line):
        return not _prose_after_all(line, powers, provinces, marked=True)
    if len(compact) < _NAME_LENGTH:
        return False
    names = {name: name for name in (*powers, *provinces) if len(name) >= _NAME_LENGTH}
    names.update({word: word for word in ("army", "fleet", "build", "remove", "disband", "waive")})
    found = scored_nearest(compact, names)
    return bool(found) and found[0][0] <= _MISTYPED


def looks_like_a_command(
    line: str, known_powers: Iterable[str] = (), known_provinces: Iterable[str] = ()
) -> bool:
    """Whether a line is a command, an order or a mistyped one of either (not a person's
    words, a blank or a comment): a line a reader must answer wherever it stands."""
    if _is_comment(line) or _is_stop(line):
        return False
    if _is_greeting(line):
        return False
    powers = frozenset(_compact(p) for p in known_powers)
    provinces = frozenset(_compact(p) for p in known_provinces)
    if _command_start().match(line):
        label = isinstance(_read_line(line.rstrip(), 0), CommandError)
        return not (label and _is_a_label(line, powers, provinces))
    return not isinstance(_not_a_command(line, 0, powers, provinces), cv.Prose)


def read_mail_commands(
    text: str,
    known_powers: Iterable[str] = (),
    known_provinces: Iterable[str] = (),
    secret_games: Iterable[str] = (),
) -> list[CommandLine]:
    """The commands, press blocks and order lines of a mail body, in order, each with its line.

    `known_powers` and `known_provinces` (names and abbreviations, any case) help tell an order
    line that opens with a power or province from a mistyped command; without them a first word
    close to a command spelling counts as a mistyped command. `secret_games` are the games whose
    powers nobody may be told (a secret board's, generated with the game): a SIGNON naming one
    of them takes any word as the power, for the game's desk to answer. Nothing raises: a line
    that cannot be read becomes a CommandError.
    """
    powers = frozenset(_compact(p) for p in known_powers)
    secret = frozenset(g.lower() for g in secret_games)
    provinces = frozenset(_compact(p) for p in known_provinces)
    lines = text.splitlines()
    out: list[CommandLine] = []
    index = 0
    while index < len(lines):
        line_no = index + 1
        line = lines[index]
        index += 1
        if _is_stop(line):
            break
        if _is_comment(line):
            continue
        if _is_greeting(line):
            out.append(cv.Prose(line_no, line.rstrip(), line.split()[0]))
            continue
        if not _command_start().match(line):
            out.append(_not_a_command(line, line_no, powers, provinces))
            continue
        value = _read_line(line.rstrip(), line_no)
        if isinstance(value, CommandError) and _is_a_label(line, powers, provinces):
            out.append(cv.Prose(line_no, line.rstrip(), line.split()[0]))
            continue
        if isinstance(value, cv.SignOn) and powers and value.game.lower() not in secret:
            value = _checked_power(value, line, powers, secret)
        if _block_head(line) in ("GENERAL", "PHASE") and not _NOT_A_BLOCK.match(line):
            block, index, ending = _read_general(lines, index, value)
            out.extend(block)
            if ending is not None:
                if isinstance(ending, cv.SignOff):
                    out.append(ending)
                break
            continue
        if isinstance(value, _BLOCK_LINES):
            out.append(_outside_block(value, line))
            continue
        if isinstance(value, cv.Press | cv.Broadcast) or _opens_block(line):
            block, index, ending = _read_block(lines, index, value)
            out.append(block)
            if ending is not None:
                if isinstance(ending, cv.SignOff):
                    out.append(ending)
                break
            continue
        out.append(value)
        if isinstance(value, cv.SignOff):
            break
    return out


_BLOCK_END = re.compile(r"\s*end\s*(?:press|broadcast)\s*\.?\s*", re.IGNORECASE)
_BLOCK_SIGNOFF = re.compile(r"\s*sign\s*off\s*\.?\s*", re.IGNORECASE)
_STOPPED = "stopped"  # the mail ended inside a block at a signature line


def _opens_block(line: str) -> bool:
    """A PRESS or BROADCAST line, even one whose options are wrong: its text is no orders."""
    head = _command_start().match(line)
    return head is not None and head.group().strip().upper() in ("PRESS", "BROADCAST")


def _read_block(
    lines: list[str], index: int, header: CommandLine
) -> tuple[CommandLine, int, cv.SignOff | str | None]:
    """The body of a PRESS or BROADCAST block from `index`: verbatim up to its end line.

    Returns the block (or the error that stops it being sent), the index after it, and what
    ended the mail with it: a SIGNOFF, a signature line (_STOPPED), or nothing.
    """
    body: list[str] = []
    start = header.line_no
    while index < len(lines):
        line = lines[index]
        index += 1
        ended_by_signoff = _BLOCK_SIGNOFF.fullmatch(line) is not None
        if _BLOCK_END.fullmatch(line) or ended_by_signoff:
            ending = cv.SignOff(line_no=index) if ended_by_signoff else None
            if isinstance(header, cv.Press | cv.Broadcast):
                return replace(header, text="\n".join(body), end_line=index), index, ending
            return header, index, ending  # the header's own error: nothing is sent
        if _is_stop(line):
            return _unclosed(header, start, index - 1), index, _STOPPED
        body.append(line)
    return _unclosed(header, start, index), index, None


def _unclosed(header: CommandLine, start: int, last: int) -> CommandError:
    """A block with no end line: not sent, and its lines are not read as anything else."""
    if isinstance(header, CommandError):
        return header
    keyword = header.keyword if isinstance(header, cv.Command) else "PRESS"
    taken = f"lines {start + 1} to {last} were taken as its text" if last > start else "no text"
    return CommandError(
        start,
        1,
        f"{keyword} has no ENDPRESS after it, so nothing was sent ({taken})",
        ("ENDPRESS",),
        text=header.redacted().split("\n", 1)[0],
    )


# Lines that only mean something inside a block of general orders.
_BLOCK_LINES = (cv.IfLine, cv.ElseLine, cv.EndIf, cv.EndGeneral)
_NOT_A_BLOCK = re.compile(r"\s*general\s+(?:clear|list)\b", re.IGNORECASE)


def _block_head(line: str) -> str:
    """The command word a line opens with, upper case, blanks removed (``END IF`` -> ENDIF)."""
    head = _command_start().match(line)
    return re.sub(r"\s+", "", head.group()).upper() if head is not None else ""


def _outside_block(value: cv.Command, line: str) -> CommandError:
    word = "ELSE IF" if isinstance(value, cv.IfLine) and value.else_if else value.keyword
    return _error(
        line,
        value.line_no,
        1,
        f"{word} is read only inside general orders (GENERAL ... ENDGENERAL, or after PHASE)",
        ("GENERAL",),
    )


@dataclass
class _Group:
    """An IF group being read: its branches so far and where the lines go now."""

    line_no: int
    branches: list[cv.Branch]
    condition: cv.Condition | None
    body: list[cv.GeneralItem]
    otherwise: list[cv.GeneralItem] | None = None
    else_line: int = 0

    def close_branch(self) -> None:
        if self.otherwise is None and self.condition is not None:
            self.branches.append(cv.Branch(self.line_no, self.condition, tuple(self.body)))


def _read_general(
    lines: list[str], index: int, header: CommandLine
) -> tuple[list[CommandLine], int, cv.SignOff | str | None]:
    """The body of a GENERAL block (up to ENDGENERAL) or of a PHASE block (up to ENDPHASE, the
    next command line, or the end of the mail, as njudge read them) from `index`.

    Lines are order lines or IF / ELSE IF / ELSE / ENDIF, nested at will. A block with any fault
    is answered with its faults and files nothing: half a strategy is worse than none. A GENERAL
    block without ENDGENERAL is such a fault; its lines are not read as orders for the phase.
    Returns the values, the index after the block, and what ended the mail with it.
    """
    start = header.line_no
    phased = _block_head(lines[start - 1]) == "PHASE"
    errors: list[CommandError] = [header] if isinstance(header, CommandError) else []
    root: list[cv.GeneralItem] = []
    groups: list[_Group] = []

    def current() -> list[cv.GeneralItem]:
        if not groups:
            return root
        group = groups[-1]
        return group.otherwise if group.otherwise is not None else group.body

    def finish(end_line: int) -> list[CommandLine]:
        for group in groups:
            errors.append(
                CommandError(
                    group.line_no,
                    1,
                    "this IF has no ENDIF before the end of the block",
                    ("ENDIF",),
                    text="IF",
                )
            )
        if errors:
            return sorted(errors, key=lambda e: e.line_no)
        if isinstance(header, cv.PhaseLine):
            return [
                cv.GeneralOrders(
                    line_no=start,
                    valid_from=header.phase,
                    valid_to=header.phase,
                    body=tuple(root),
                    end_line=end_line,
                )
            ]
        assert isinstance(header, cv.GeneralOrders)
        return [replace(header, body=tuple(root), end_line=end_line)]

    def unclosed(last: int) -> list[CommandLine]:
        if phased:
            return finish(last)
        taken = (
            "no lines were"
            if last <= start
            else f"line {last} was"
            if last == start + 1
            else f"lines {start + 1} to {last} were"
        )
        errors.append(
            CommandError(
                start,
                1,
                f"GENERAL has no ENDGENERAL after it, so nothing was filed ({taken} taken "
                "as its orders)",
                ("ENDGENERAL",),
                text=_shown_text(lines[start - 1].rstrip()),
            )
        )
        groups.clear()
        return finish(last)

    while index < len(lines):
        line = lines[index]
        index += 1
        line_no = index
        if _is_stop(line):
            return unclosed(line_no - 1), index, _STOPPED
        if _is_comment(line):
            continue
        head = _block_head(line)
        if not head:
            current().append(OrderLine(line_no, line.rstrip()))
            continue
        value = _read_line(line.rstrip(), line_no)
        if isinstance(value, cv.EndGeneral):
            return finish(line_no), index, None
        if isinstance(value, cv.IfLine) and not value.else_if:
            groups.append(_Group(line_no, [], value.condition, []))
        elif isinstance(value, cv.IfLine | cv.ElseLine):
            group = groups[-1] if groups else None
            if group is None or group.otherwise is not None:
                where = "after ELSE" if group is not None else "without an IF before it"
                word = "ELSE IF" if isinstance(value, cv.IfLine) else "ELSE"
                errors.append(_error(line, line_no, 1, f"{word} {where}", ("ENDIF",)))
                continue
            group.close_branch()
            if isinstance(value, cv.IfLine):
                group.line_no, group.condition, group.body = line_no, value.condition, []
            else:
                group.otherwise, group.else_line = [], line_no
        elif isinstance(value, cv.EndIf):
            if not groups:
                errors.append(_error(line, line_no, 1, "ENDIF without an IF before it", ("IF",)))
                continue
            group = groups.pop()
            group.close_branch()
            otherwise = tuple(group.otherwise) if group.otherwise is not None else None
            block = cv.IfBlock(tuple(group.branches), otherwise, group.else_line, line_no)
            if block.branches:  # empty when its IF line had a fault, already reported
                current().append(block)
        elif isinstance(value, CommandError) and head in ("IF", "ELSEIF", "ELSIF"):
            errors.append(value)
            if head == "IF":  # keep the nesting, so its ENDIF is not taken for another's
                groups.append(_Group(line_no, [], None, []))
            elif groups:
                groups[-1].close_branch()
                groups[-1].condition, groups[-1].body = None, []
        elif isinstance(value, CommandError) and head in ("ELSE", "ENDIF"):
            errors.append(value)
        elif isinstance(value, cv.SignOff):
            return unclosed(line_no - 1), index, value
        else:  # another command: the block ends before it, and it is read as usual
            return unclosed(line_no - 1), index - 1, None
    return unclosed(len(lines)), index, None


# SIGNON words that name the game's master rather than a power (judge.desk.mail_state decides).
_MASTER_WORDS = frozenset({"master", "gm"})


def _checked_power(
    value: cv.SignOn, line: str, powers: frozenset[str], secret: frozenset[str] = frozenset()
) -> CommandLine:
    """A power written out in SIGNON must be one the judge knows: else the words are misread.

    ``SIGNON Fmygame secret extra`` would otherwise read as power FMYGAME of game "secret",
    and echo the password as a game name.
    """
    if len(value.power) == 1:
        if value.glued and (_compact(value.glued) in powers or value.password.lower() in secret):
            # SIGNON Germany alpha (or SIGNON Hac maze, maze a secret board's game): a power's
            # name read as G + game "ermany" and a password, where a password was perhaps left
            # out; the desk says so if no such game exists.
            return replace(value, spelled_power=value.glued)
        return value
    if _compact(value.power) in powers | _MASTER_WORDS:
        return value
    start = _command_start().match(line)
    assert start is not None
    column = len(line) - len(line[start.end() :].lstrip()) + 1
    return CommandError(
        value.line_no,
        column,
        "expected a power and the game (SIGNON Fgame password or SIGNON power game password)",
        ("a power",),
        (),
        _shown_text(line),
    )


def _unknown_command(line: str, line_no: int) -> CommandError:
    match = _FIRST_WORD.match(line)
    assert match is not None
    word = match.group(1)
    two_words = " ".join(line.split()[:2])
    suggestions = _nearest_commands(word, two_words)
    message = f"{word!r} is no command; did you mean {_join_or(suggestions)}?"
    return CommandError(
        line_no, match.start(1) + 1, message, suggestions, suggestions, word, order_word=word
    )


def _join_or(words: Iterable[str]) -> str:
    shown = list(words)
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def _read_line(line: str, line_no: int) -> CommandLine:
    """One command line -> its value or its error; even a fault of the reader's own is a value."""
    try:
        try:
            value = _parser().parse(line)
        except _Fault as fault:
            return _error(line, line_no, fault.column, fault.message, fault.expected)
        except UnexpectedInput as exc:
            return _syntax_error(line, line_no, exc)
        if isinstance(value, cv.Command):
            return replace(value, line_no=line_no)
    except Exception:  # noqa: BLE001 - the daemon must live on; the line is reported
        pass
    # Never reached by any input the tests know (they check): kept so a mail cannot stop the desk.
    return CommandError(line_no, 1, _LAST_RESORT, (), (), _command_word(line))


def _command_word(line: str) -> str:
    match = re.match(r"\s*(\S*)", line)
    return match.group(1) if match else ""


def _holds_secret(line: str) -> bool:
    match = _command_start().match(line)
    head = match.group().strip().upper() if match else ""
    head = "SIGNON" if head.replace(" ", "") in ("SIGNON", "LOGIN", "HELLO") else head
    return (
        head in _SECRET_COMMANDS or head in ("WATCH", "MONITOR") or bool(_SECRET_LINE.match(line))
    )


def _shown_text(line: str) -> str:
    """The line as an error may quote it: a password-carrying line keeps its command word only."""
    if not _holds_secret(line):
        return line
    match = _SECRET_LINE.match(line) or _command_start().match(line)
    assert match is not None
    return match.group().strip() + " ..."


def _error(
    line: str, line_no: int, column: int, message: str, expected: tuple[str, ...] = ()
) -> CommandError:
    return CommandError(line_no, column, message, expected, (), _shown_text(line))


def _describe(expected: Iterable[str]) -> tuple[str, ...]:
    words: list[str] = []
    for name in sorted(expected, key=lambda n: (n == "$END", n)):  # end of line last
        word = _EXPECTED_WORDS.get(name, name.replace("_", " "))
        if word not in words:
            words.append(word)
    return tuple(words)


def _syntax_error(line: str, line_no: int, exc: UnexpectedInput) -> CommandError:
    interactive = getattr(exc, "interactive_parser", None)
    try:
        acceptable = set(interactive.accepts()) if interactive is not None else None
    except Exception:  # noqa: BLE001 - a callback may refuse a token while trying it
        acceptable = None
    if acceptable is not None and {"WORD", "SEASON"} <= acceptable:
        acceptable = {"NOT", "LPAR", "A_CONDITION"} | (acceptable & {"RPAR", "$END"})
    if acceptable is not None and {"PHASE", "SEASON", "NUMBER"} <= acceptable:
        acceptable = {"A_PHASE"} | (acceptable - {"PHASE", "SEASON", "NUMBER"})
    if isinstance(exc, UnexpectedToken):
        expected = _describe(acceptable if acceptable is not None else exc.expected)
        if exc.token.type == "$END":
            column, found, word = len(line) + 1, "the end of the line", ""
        else:
            column = _col(exc.token)
            rest = line[column - 1 :].split()  # the whole written word, not the token's part
            word = rest[0] if rest else str(exc.token)
            found = repr(word)
    elif isinstance(exc, UnexpectedCharacters):
        expected = _describe(acceptable if acceptable is not None else set(exc.allowed or ()))
        column = exc.column if isinstance(exc.column, int) else 1
        word = line[column - 1 :].split()[0] if line[column - 1 :].split() else ""
        found = repr(word)
    else:  # pragma: no cover - the LALR parser raises only the two above
        return _error(line, line_no, 1, _LAST_RESORT)
    before = line[: column - 1].split()
    after = f" after {before[-1]!r}" if before else ""
    if before and "a name" in expected:
        key = before[-1].upper()
        if len(before) > 1 and before[-2].upper() in ("SIGN", "LOG"):
            key = before[-2].upper() + key
        named = _NAME_AFTER.get(key)
        if named is not None:
            expected = tuple(named if w == "a name" else w for w in expected)
    if _holds_secret(line):  # never quote what may be a password, nor what follows one
        found = "something else" if word else found
        head = _command_start().match(line)
        right_after = head is not None and not line[head.end() : column - 1].strip()
        after = f" after {head.group().strip()!r}" if head is not None and right_after else ""
    if word and len(before) == 1 and before[0].upper() == "SET":  # SET DEADLIEN
        suggestions = suggest_commands(f"SET {word}")
        settings = tuple(s for s in COMMAND_SPELLINGS if s.startswith("SET "))
        message = f"{word!r} is nothing SET can set"
        if suggestions:
            message += f"; did you mean {_join_or(suggestions)}?"
        return CommandError(line_no, column, message, settings, suggestions, _shown_text(line))
    message = f"expected {_join_or(expected)}{after}, found {found}"
    return CommandError(line_no, column, message, expected, (), _shown_text(line))
