"""Unreadable command lines: line, column, what would fit, the nearest spelling; no password shown."""

from __future__ import annotations

import pytest

from judge.language import command_values as cv
from judge.language.commands import read_mail_commands, suggest_commands

STANDARD_POWERS = ("England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey")


def error_of(text: str, line_no: int = 1) -> cv.CommandError:
    values = [
        v for v in read_mail_commands(text, known_powers=STANDARD_POWERS) if v.line_no == line_no
    ]
    assert len(values) == 1 and isinstance(values[0], cv.CommandError), values
    return values[0]


@pytest.mark.parametrize(
    ("written", "nearest"),
    [
        ("SINGON Fgame pw", "SIGNON"),
        ("SIGNONN Fgame pw", "SIGNON"),
        ("PROCES", "PROCESS"),
        ("PROCESSS", "PROCESS"),
        ("HEPL", "HELP"),
        ("RESING", "RESIGN"),
        ("TERMINTAE", "TERMINATE"),
        ("BROADCST", "BROADCAST"),
        ("ROLBACK F1901M", "ROLLBACK"),
        ("OBSERV mygame", "OBSERVE"),
        ("FORCE BEGN", "FORCE BEGIN"),
        ("SETDEADLINE +1d", "SET DEADLINE"),
        ("ENDPRES", "ENDPRESS"),
    ],
)
def test_a_mistyped_command_word_is_answered_with_the_nearest_spelling(
    written: str, nearest: str
) -> None:
    error = error_of(f"A Par H\n{written}", line_no=2)
    assert error.suggestions[0] == nearest
    assert (error.line_no, error.column) == (2, 1)
    assert error.message.startswith(f"{written.split()[0]!r} is no command; did you mean {nearest}")


@pytest.mark.parametrize(
    ("written", "nearest"),
    [
        ("SET DEADLIEN 2026-12-01", "SET DEADLINE"),
        ("SET PASWORD x", "SET PASSWORD"),
        ("set adress me@example.org", "SET ADDRESS"),
        ("SET ABSENSE 2026-12-01", "SET ABSENCE"),
        ("SET NOWIAT", "SET NOWAIT"),
        ("SET CONCEED France", "SET CONCEDE"),
    ],
)
def test_a_mistyped_setting_is_answered_with_the_nearest_set_command(
    written: str, nearest: str
) -> None:
    error = error_of(written)
    assert error.column == 5
    assert error.suggestions[0] == nearest
    assert f"did you mean {nearest}" in error.message
    assert "SET DEADLINE" in error.expected  # the whole list of settings


def test_an_unknown_setting_far_from_any_lists_them_all() -> None:
    error = error_of("SET XYZZY")
    assert error.suggestions == ()
    assert error.message == "'XYZZY' is nothing SET can set"
    assert len(error.expected) > 20


def test_suggestions_come_nearest_first_and_at_most_three() -> None:
    assert suggest_commands("PROCES")[0] == "PROCESS"
    assert len(suggest_commands("SET NO")) <= 3
    assert suggest_commands("ZZZZZZZ") == ()


@pytest.mark.parametrize(
    ("text", "column", "start", "expected"),
    [
        ("SET DEADLINE", 13, "expected ", "a date (2026-12-01)"),
        ("SET DEADLINE tomorrow", 14, "expected ", "a month"),
        ("SET DEADLINE 2026-12-01 25:00", 25, "'25:00' is no time of day", "a time (18:00)"),
        ("SET DEADLINE 2026-13-01", 14, "2026-13-01 is no date", "a date"),
        ("SET DEADLINE 31 Feb 2026", 14, "2026-02-31 is no date", "a date"),
        ("SET DEADLINE Feb 30", 18, "Feb has no day 30", "a day of the month"),
        ("SET DEADLINE 1 Dec 26", 20, "'26' is no year", "a year"),
        ("SET DEADLINE Mon Dec 01 2026", 14, "01 Dec 2026 is a Tuesday", "Tuesday"),
        (
            "SET DEADLINE 2026-12-01 18:00 +9900",
            31,
            "'+9900' is no time zone",
            "a time zone (UTC, +0100)",
        ),
        ("SET ABSENCE 1 Dec 2026 TILL 5 Dec", 24, "expected ", "TO"),
        ("SET MOVE CLOCK 25:00", 16, "'25:00' is no time of day", "a time (18:00)"),
        ("SET MOVE CLOCK 1440", 16, "CLOCK is minutes", ""),
        ("SET MOVE DAYS MTWTFSS", 15, "DAYS is seven places", "days such as -MTWTF-"),
        ("SET MOVE NEXT 72 NEXT 48", 18, "NEXT is given twice", ""),
        ("SET MOVE", 9, "expected ", "CLOCK"),
        ("SET OBSERVER MAYBE", 14, "expected ANY, WHITE or NO", "ANY"),
        ("PROCESS S1901X", 9, "'S1901X' is no phase", "a phase (S1901M)"),
        ("PROCESS alpha tomorrow", 15, "expected MISSED, a phase (S1901M) or end of line", ""),
        ("REPLACE Italy somebody", 15, "'somebody' is no mail address", "a mail address"),
        ("PRESS NONE TO F", 7, "a message is GREY or WHITE", "GREY"),
        ("HISTORY FROM S1901M FROM S1902M", 21, "FROM is given twice", ""),
        ("HISTORY LINES 0", 15, "LINES needs a number above 0", "a number"),
        ("LIST my.game", 6, "'my.game' is no game name", "a game name"),
        ("PAUSE now", 7, "expected end of line after 'PAUSE', found 'now'", "end of line"),
        ("ENDPRESS", 1, "ENDPRESS without a PRESS", ""),
    ],
)
def test_errors_name_the_column_and_what_would_fit(
    text: str, column: int, start: str, expected: str
) -> None:
    error = error_of(f"\n\n{text}", line_no=3)
    assert (error.line_no, error.column) == (3, column), error
    assert start in error.message, error
    if expected:
        assert expected in error.expected, error
    assert str(error).startswith(f"line 3, column {column}: ")


@pytest.mark.parametrize(
    "text",
    [
        "SIGNON Fmygame",
        "SIGNON Fmygame hunter2 extra",
        "SIGNON ?my.game hunter2",
        "SIGNON 7mygame hunter2",
        "CREATE mygame hunter2",
        "CREATE my/game hunter2 standard",
        "JOIN my.game hunter2",
        "SET PASSWORD",
        "SET PASSWORD hunter2 extra",
        "OBSERVE mygame hunter2 extra",
        "LOGIN Fmygame hunter2 extra",
    ],
)
def test_an_error_on_a_password_line_never_quotes_the_password(text: str) -> None:
    error = error_of(text)
    for shown in (error.message, error.text, str(error), error.redacted(), repr(error)):
        assert "hunter2" not in shown
        assert "extra" not in shown  # whatever follows a password may be the rest of it
    assert error.text.endswith("...")


@pytest.mark.parametrize(
    "text",
    [
        "SIGNON Fmygame hunter2",
        "SIGNON FRANCE mygame hunter2",
        "JOIN mygame hunter2 FRANCE",
        "CREATE mygame hunter2 standard",
        "SET PASSWORD hunter2",
        "OBSERVE mygame hunter2",
    ],
)
def test_a_command_keeps_its_password_but_never_shows_it(text: str) -> None:
    value = read_mail_commands(text)[0]
    assert value.password == "hunter2"  # type: ignore[union-attr]
    assert "hunter2" not in value.redacted()
    assert "hunter2" not in repr(value)
    assert cv.HIDDEN in value.redacted()


def test_a_password_may_hold_any_character_but_blanks() -> None:
    value = read_mail_commands("SET PASSWORD p@ss,w0rd!")[0]
    assert value == cv.SetPassword(line_no=1, password="p@ss,w0rd!")
    value = read_mail_commands("SIGNON Fmygame press")[0]  # a keyword is still a password
    assert value == cv.SignOn(line_no=1, power="F", game="mygame", password="press")


def test_an_error_on_an_ordinary_line_quotes_it() -> None:
    error = error_of("SET DEADLINE tomorrow")
    assert error.text == "SET DEADLINE tomorrow"
    assert "found 'tomorrow'" in error.message


def test_signon_with_a_power_the_judge_does_not_know_is_refused_not_misread() -> None:
    error = error_of("SIGNON Fmygame hunter2 extra")
    assert error.column == 8
    assert error.expected == ("a power",)
    assert read_mail_commands("SIGNON FRANCE mygame pw", known_powers=STANDARD_POWERS) == [
        cv.SignOn(line_no=1, power="FRANCE", game="mygame", password="pw")
    ]
    assert read_mail_commands("SIGN ON F mygame pw", known_powers=STANDARD_POWERS) == [
        cv.SignOn(line_no=1, power="F", game="mygame", password="pw")
    ]


def test_signon_to_a_game_with_a_secret_board_takes_any_word_for_its_power() -> None:
    """A generated power's initials are in no board file: in a game the desk names as secret
    the word is read as the power, for the desk to answer; in any other game it is refused."""
    read = read_mail_commands(
        "SIGNON Hac maze pw", known_powers=STANDARD_POWERS, secret_games=["Maze"]
    )
    assert read == [cv.SignOn(line_no=1, power="HAC", game="maze", password="pw")]
    error = read_mail_commands(
        "SIGNON Hac other pw", known_powers=STANDARD_POWERS, secret_games=["maze"]
    )[0]
    assert isinstance(error, cv.CommandError) and error.expected == ("a power",)
    # The password left out: read as njudge's glued form, the power's name kept for the desk.
    (glued,) = read_mail_commands(
        "SIGNON Hac maze", known_powers=STANDARD_POWERS, secret_games=["maze"]
    )
    assert isinstance(glued, cv.SignOn) and glued.spelled_power == "Hac"


@pytest.mark.parametrize("word", ["REGISTER", "whois", "GET", "DIARY", "CLEAR"])
def test_a_classic_judge_command_this_judge_lacks_is_named_not_read_as_an_order(word: str) -> None:
    error = error_of(f"{word} something")
    assert error.column == 1
    assert error.message.startswith(f"{word.upper()} (")
    assert error.message.endswith("is not a command of this judge")


def test_a_province_of_the_map_outranks_a_lacking_command() -> None:
    values = read_mail_commands("Clear - Bur", known_provinces=("Clearwater", "Bur"))
    assert values == [cv.OrderLine(1, "Clear - Bur")]


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("SIGNON", "a power and the game (Fgame, or FRANCE game)"),
        ("SIGN ON", "a power and the game (Fgame, or FRANCE game)"),
        ("JOIN", "a game name"),
        ("OBSERVE", "a game name"),
        ("REPLACE", "a power"),
        ("SET CONCEDE", "a power"),
        ("EJECT", "a power or an address"),
    ],
)
def test_a_missing_argument_is_named_for_what_it_is(text: str, what: str) -> None:
    error = error_of(text)
    assert error.expected == (what,)
    word = text if text.startswith("SIGN") else text.split()[-1]
    assert error.message == f"expected {what} after {word!r}, found the end of the line"
