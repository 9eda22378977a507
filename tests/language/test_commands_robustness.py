"""Whatever a mail holds, the reader answers with its own values and never raises."""

from __future__ import annotations

import random

import pytest

from judge.language import command_values as cv
from judge.language.commands import COMMAND_SPELLINGS, read_mail_commands

_LAST_RESORT = "this line could not be read"  # the reader's catch-all: no input should reach it

# Good commands, to be cut up and mutated.
_GOOD = [
    "HELP press", "LIST mygame", "CREATE ?mygame secret standard postal-1972, key-rule",
    "SIGNON Fmygame pass", "SIGNON FRANCE mygame pass", "JOIN mygame pass France, Italy",
    "OBSERVE mygame pass", "SUMMARY mygame", "HISTORY mygame FROM S1901M TO 1 Dec 2026 LINES 5",
    "PRESS GREY TO France, Germany", "BROADCAST WHITE", "SET PASSWORD n3w!pass",
    "SET ADDRESS me@example.org, you@example.org", "SET NO WAIT", "SET ABSENCE Dec 24 TO Jan 2",
    "SET NO ABSENCE 2026-12-01", "SET DRAW France, England", "SET NOCONCEDE", "SET CONCEDE Italy",
    "RESIGN", "SIGN OFF", "SET DEADLINE Tue Dec 01 2026 23:30:00 +0000", "SET GRACE +1d12h",
    "SET START Dec 1 18:00", "SET MOVE CLOCK 23:30 MIN 12h NEXT 72 GRACE 7d DELAY 0.5 DAYS -MTWTF-",
    "SET NONMR", "SET PRESS GREY/WHITE", "SET NOPARTIAL", "SET OBSERVER ANY", "PROCESS S1901M",
    "PREVIEW", "PAUSE", "RESUME", "EJECT Italy", "REPLACE Italy new@example.org", "BECOME MASTER",
    "ROLLBACK F1902M", "TERMINATE", "FORCE BEGIN",
]  # fmt: skip

_PIECES = [
    *COMMAND_SPELLINGS,
    *_GOOD,
    "TO", "FROM", "LINES", "NO", "GREY", "WHITE", "CLOCK", "MIN", "DAYS", "-MTWTF-", "A", "F",
    "Par", "-", "->", "S", "Bur", "?", ",", ":", "@", "/", "(", ")", "+2d", "+", "2026-12-01",
    "18:00", "T18:00", "Dec", "1st", "+0100", "UTC", "S1901M", "0.5", "-1", "\t", "é", "\u2014",
    "\u00a0", "\x00", "\x0b", "\u2028", "ENDPRESS", "SIGNOFF", "-- ", "#", "\\", "'", '"', "*",
]  # fmt: skip


def _check(values: list[cv.CommandLine], text: str) -> None:
    line_count = max(1, len(text.splitlines()))
    for value in values:
        assert isinstance(value, cv.Command | cv.OrderLine | cv.Prose | cv.CommandError), value
        assert 1 <= value.line_no <= line_count, (value, text)
        value.redacted()  # every value can be echoed
        if isinstance(value, cv.CommandError):
            assert value.message != _LAST_RESORT, (value, text)
            assert value.column >= 1


def test_random_lines_of_command_words_and_junk() -> None:
    rng = random.Random(20261122)
    for _ in range(3000):
        words = [rng.choice(_PIECES) for _ in range(rng.randint(1, 7))]
        text = rng.choice([" ", "", "  "]).join(words)
        _check(read_mail_commands(text), text)


def test_random_mails_of_many_lines() -> None:
    rng = random.Random(4)
    for _ in range(300):
        lines = [
            " ".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 5)))
            for _ in range(rng.randint(1, 15))
        ]
        text = "\n".join(lines)
        _check(read_mail_commands(text), text)


def test_mutated_commands() -> None:
    """Each good command with a character dropped, doubled or swapped: still only reader values."""
    rng = random.Random(7)
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789 -:+/,.@?"
    for text in _GOOD:
        for _ in range(25):
            chars = list(text)
            i = rng.randrange(len(chars))
            match rng.randrange(3):
                case 0:
                    del chars[i]
                case 1:
                    chars.insert(i, rng.choice(alphabet))
                case _:
                    j = rng.randrange(len(chars))
                    chars[i], chars[j] = chars[j], chars[i]
            mutated = "".join(chars)
            _check(read_mail_commands(mutated), mutated)


def test_random_bytes_decoded_any_way() -> None:
    rng = random.Random(99)
    for _ in range(500):
        raw = bytes(rng.randrange(256) for _ in range(rng.randint(0, 120)))
        text = raw.decode("latin-1")
        _check(read_mail_commands(text), text)


@pytest.mark.parametrize(
    "text",
    [
        "SET DEADLINE " + "9" * 5000,
        "HELP " + "x " * 5000,
        "PRESS TO " + "F, " * 2000 + "G\nhi\nENDPRESS",
        "SET MOVE " + "NEXT 1 " * 500,
        "SIGNON " + "F" * 10000 + " pw",
        "\n" * 10000 + "SET WAIT",
    ],
)
def test_long_input_is_read_or_refused_quickly(text: str) -> None:
    _check(read_mail_commands(text), text)


def test_a_fault_of_the_reader_itself_becomes_an_error_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Were the parser to break, the mail still gets an answer per line, and no password shows."""
    from judge.language import commands

    class Broken:
        def parse(self, _line: str) -> None:
            raise RuntimeError("broken")

    commands._command_start()  # built from the real grammar first
    monkeypatch.setattr(commands, "_parser", lambda: Broken())
    values = read_mail_commands("SIGNON Fgame hunter2\nA Par H")
    assert values[1] == cv.OrderLine(2, "A Par H")
    error = values[0]
    assert isinstance(error, cv.CommandError)
    assert (error.line_no, error.message, error.text) == (1, _LAST_RESORT, "SIGNON")
