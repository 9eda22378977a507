"""A whole mail: commands, press blocks, order lines and SIGNOFF, each with its line number."""

from __future__ import annotations

from judge.desk.mail_state import province_words
from judge.engine.geography import Map
from judge.language import command_values as cv
from judge.language.commands import read_mail_commands
from judge.language.orders import parse_line
from judge.map_files import load_map

STANDARD_POWERS = ("England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey")


def test_a_mixed_mail_keeps_every_line_in_its_place() -> None:
    mail = "\n".join(
        [
            "SIGNON Fmygame secret",  # 1
            "",  # 2
            "A Par - Bur",  # 3
            "F Bre - MAO",  # 4
            "# a comment",  # 5
            "Mar S A Par - Bur",  # 6
            "PRESS TO E G",  # 7
            "Shall we?",  # 8
            "  Indented, kept as written.  ",  # 9
            "ENDPRESS",  # 10
            "SET WAIT",  # 11
            "SIGNOFF",  # 12
            "A Bur - Mun",  # 13: after SIGNOFF, never read
        ]
    )
    # The desk names the board's provinces, as here: "Mar" opens an order, not a mistyped MAP.
    provinces = province_words(load_map("standard"))
    assert read_mail_commands(mail, known_provinces=provinces) == [
        cv.SignOn(line_no=1, power="F", game="mygame", password="secret"),
        cv.OrderLine(3, "A Par - Bur"),
        cv.OrderLine(4, "F Bre - MAO"),
        cv.OrderLine(6, "Mar S A Par - Bur"),
        cv.Press(
            line_no=7,
            recipients=("E", "G"),
            text="Shall we?\n  Indented, kept as written.  ",
            end_line=10,
        ),
        cv.SetWait(line_no=11, wait=True),
        cv.SignOff(line_no=12),
    ]


def test_a_press_block_keeps_command_and_order_words_as_text() -> None:
    mail = "PRESS\nSIGNON Fother pw\nA Par - Bur\nSET DRAW\nEND PRESS\nA Mun H"
    values = read_mail_commands(mail)
    assert values == [
        cv.Press(line_no=1, text="SIGNON Fother pw\nA Par - Bur\nSET DRAW", end_line=5),
        cv.OrderLine(6, "A Mun H"),
    ]


def test_broadcast_ends_with_endbroadcast_or_endpress() -> None:
    for end in ("ENDPRESS", "ENDBROADCAST", "end broadcast", "End Press"):
        values = read_mail_commands(f"BROADCAST GREY\nHello all.\n{end}")
        assert values == [cv.Broadcast(line_no=1, grey=True, text="Hello all.", end_line=3)]


def test_press_to_named_powers_white_or_grey() -> None:
    press = read_mail_commands("PRESS GREY TO France, Germany\nhi\nENDPRESS")[0]
    assert press == cv.Press(
        line_no=1, grey=True, recipients=("FRANCE", "GERMANY"), text="hi", end_line=3
    )
    press = read_mail_commands("press white to EG\nhi\nendpress")[0]
    assert press == cv.Press(line_no=1, white=True, recipients=("EG",), text="hi", end_line=3)
    assert press.redacted().splitlines()[0] == "PRESS WHITE TO EG"


def test_an_empty_press_block_is_an_empty_message() -> None:
    assert read_mail_commands("PRESS TO F\nENDPRESS") == [
        cv.Press(line_no=1, recipients=("F",), text="", end_line=2)
    ]


def test_signoff_inside_press_ends_the_block_and_the_mail() -> None:
    values = read_mail_commands("BROADCAST\nbye\nSIGNOFF\nA Par - Bur")
    assert values == [
        cv.Broadcast(line_no=1, text="bye", end_line=3),
        cv.SignOff(line_no=3),
    ]


def test_an_unclosed_press_is_not_sent_and_its_lines_are_not_orders() -> None:
    """Lines after a PRESS with no ENDPRESS were meant as its text: no order is read from them."""
    values = read_mail_commands("A Par - Bur\nPRESS TO G\nattack Munich with me\nA Mar - Bur")
    assert values[0] == cv.OrderLine(1, "A Par - Bur")
    assert len(values) == 2
    error = values[1]
    assert isinstance(error, cv.CommandError)
    assert (error.line_no, error.column, error.expected) == (2, 1, ("ENDPRESS",))
    assert "no ENDPRESS" in error.message and "nothing was sent" in error.message
    assert "lines 3 to 4" in error.message


def test_signoff_stops_reading_even_commands() -> None:
    values = read_mail_commands("SET NOWAIT\nSIGN OFF\nRESIGN\nSET PASSWORD x")
    assert values == [cv.SetWait(line_no=1, wait=False), cv.SignOff(line_no=2)]


def test_a_signature_separator_stops_reading() -> None:
    values = read_mail_commands("A Par - Bur\n-- \nJohn Smith\nParis, France")
    assert values == [cv.OrderLine(1, "A Par - Bur")]


def test_a_mail_of_nothing_gives_nothing() -> None:
    assert read_mail_commands("") == []
    assert read_mail_commands("\n\n  \n# only a comment\n// and another\n; and one more") == []


def test_line_numbers_count_blank_lines_and_crlf_endings() -> None:
    values = read_mail_commands("\r\n\r\nSET WAIT\r\nA Par H\r\n")
    assert values == [cv.SetWait(line_no=3, wait=True), cv.OrderLine(4, "A Par H")]


def test_order_lines_are_handed_on_unread() -> None:
    lines = [
        "A Par - Bur",
        "F(ENC) - MAO",
        "Army Paris -> Burgundy",
        "fleet north sea convoys a lon - nwy",
        "Build F StP/NC",
        "Remove A Paris",
        "waive",
        "England: F Lon - Nth",
        "ENG F Lon-Nth",
        "Par-Bur",
        "Mun S Ber",
        "(F) Nth-Bel",
        "Galicya - Vienna",  # a province mistyped: still an order, for the order reader
    ]
    values = read_mail_commands("\n".join(lines), known_powers=STANDARD_POWERS)
    assert values == [cv.OrderLine(i, line) for i, line in enumerate(lines, start=1)]


def test_a_persons_words_are_neither_orders_nor_errors() -> None:
    """A line far from every command, order keyword, power and province is prose: no error."""
    lines = ["Xyzzy plugh", "Hope it works well!", "Hello", "A PAR-BUR", "Amry Par - Bur"]
    values = read_mail_commands("\n".join(lines), known_powers=STANDARD_POWERS)
    assert values == [
        cv.Prose(1, "Xyzzy plugh", "Xyzzy"),
        cv.Prose(2, "Hope it works well!", "Hope"),
        cv.Prose(3, "Hello", "Hello"),
        cv.OrderLine(4, "A PAR-BUR"),
        cv.OrderLine(5, "Amry Par - Bur"),
    ]


def _kinds(lines: list[str]) -> list[str]:
    board = load_map("standard")
    values = read_mail_commands(
        "\n".join(lines), known_powers=STANDARD_POWERS, known_provinces=province_words(board)
    )
    return [type(value).__name__ for value in values]


def test_a_line_none_of_whose_other_words_is_an_orders_is_prose() -> None:
    """Opened by a province's abbreviation (And, Den), a keyword (A), a label ("Word:"), a word
    near a command (Det, SET) or with an order's dash, a line whose other words name nothing
    of an order is a person's words; the real mails of tests/mail/test_corpus.py decided it."""
    prose = [
        "And obviously I forget the frigging attachment.",
        "Den gamla vägen är stängd idag",  # no full stop, but three words besides the first
        "Plain email.",
        "A nice day.",
        "Cause : The file type may not be safe.",
        "Date: 2016-07-19 11:54:24 +0200",
        "Status       : File Name violation",
        "Det här är ett flerdelat meddelande i MIME-format.",
        "Ingenieur Recherche - Dept INF",
    ]
    assert _kinds(prose) == ["Prose"] * len(prose)


def test_a_line_with_one_word_of_an_order_is_still_answered() -> None:
    """Short lines and lines with a keyword, a power or a province (even mistyped) stay
    orders or mistyped commands: nothing order-like is dropped unanswered."""
    answered = [
        "Holland stays put",  # two words besides the first, no full stop
        "Galicya holds.",  # a keyword
        "Den moves Kiell.",  # a keyword and a province mistyped
        "Holland will mvoe Kiell",  # a province mistyped in a short line
        "Gremany: hold everything",  # a power mistyped as the label
        "Ber-Kie",
        "Xyzz - Abc Def",  # an order's dash and too few words for a sentence
        "Sigon France mygame secret",  # a mistyped command without a sentence's end
        "Status: Ber-Kie",  # a label whose value is an order
    ]
    assert "Prose" not in _kinds(answered), list(zip(answered, _kinds(answered), strict=True))


def test_a_known_power_or_province_opens_an_order_even_near_a_command_word() -> None:
    """'Pres' would be a mistyped PRESS, unless the map has a province that starts so."""
    assert isinstance(read_mail_commands("Pres - Bur")[0], cv.CommandError)
    assert read_mail_commands("Pres - Bur", known_provinces=("Prestwick", "Bur")) == [
        cv.OrderLine(1, "Pres - Bur")
    ]
    assert read_mail_commands("Joinia A Par H", known_powers=("Joinia",)) == [
        cv.OrderLine(1, "Joinia A Par H")
    ]


def test_commands_and_orders_may_interleave() -> None:
    values = read_mail_commands("A Par H\nSET DRAW\nF Bre H\nPROCESS")
    assert [type(v).__name__ for v in values] == [
        "OrderLine",
        "SetDraw",
        "OrderLine",
        "Process",
    ]


def test_a_press_block_echoes_as_a_block_that_reads_back_the_same() -> None:
    mail = "PRESS GREY TO France, Germany\nline one\n\n  line three\nENDPRESS"
    press = read_mail_commands(mail)[0]
    assert press.redacted() == "PRESS GREY TO FRANCE GERMANY\nline one\n\n  line three\nENDPRESS"
    assert read_mail_commands(press.redacted()) == [press]


def test_a_press_whose_header_is_wrong_sends_nothing_and_reads_no_orders_from_its_text() -> None:
    values = read_mail_commands("PRESS NONE TO F\nA Par - Bur\nENDPRESS\nA Mar H")
    assert len(values) == 2
    assert isinstance(values[0], cv.CommandError) and values[0].line_no == 1
    assert values[0].message == "a message is GREY or WHITE"
    assert values[1] == cv.OrderLine(4, "A Mar H")


def test_a_signature_inside_a_press_ends_the_mail_and_the_press_is_not_sent() -> None:
    values = read_mail_commands("PRESS TO G\nA Par - Bur\n-- \nJohn\nENDPRESS")
    assert len(values) == 1
    error = values[0]
    assert isinstance(error, cv.CommandError)
    assert "nothing was sent (lines 2 to 2 were taken as its text)" in error.message


def test_only_a_line_that_is_just_endpress_ends_a_block() -> None:
    mail = "PRESS\n# ENDPRESS in a comment\nwe end press talk here\nend press.\nA Par H"
    values = read_mail_commands(mail)
    assert values == [
        cv.Press(line_no=1, text="# ENDPRESS in a comment\nwe end press talk here", end_line=4),
        cv.OrderLine(5, "A Par H"),
    ]


def test_order_lines_go_to_the_order_reader_with_the_mails_line_numbers(standard: Map) -> None:
    """A mistyped province is reported at its line of the mail, commands and press counted."""
    mail = "SIGNON Fmygame pw\nPRESS TO G\nhello\nENDPRESS\nA Par - Burgandyy\nF Bre - MAO"
    powers = list(standard.powers)
    orders = [
        v for v in read_mail_commands(mail, known_powers=powers) if isinstance(v, cv.OrderLine)
    ]
    parsed = [parse_line(o.text, standard, o.line_no) for o in orders]
    assert parsed[0].error is not None
    assert str(parsed[0].error).startswith("line 5, column 9: expected a province after '-'")
    assert "Burgundy" in parsed[0].error.expected
    assert parsed[1].error is None and parsed[1].order is not None
