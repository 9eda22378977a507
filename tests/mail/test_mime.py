"""Reading a mail: the right part, any encoding, and only the text the sender wrote this time."""

from __future__ import annotations

from email.message import EmailMessage
from email.mime.message import MIMEMessage
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText

import pytest

from judge.mail.mime import html_to_text, new_text, read_mail, strip_subject_prefixes


def plain(body: str, *, charset: str = "utf-8", cte: str | None = None, **headers: str) -> bytes:
    part = MIMEText(body, "plain", charset)
    if cte == "8bit":
        del part["Content-Transfer-Encoding"]
        part["Content-Transfer-Encoding"] = "8bit"
        part.set_payload(body.encode(charset))
    headers.setdefault("From", "Ann <ann@example.org>")
    for name, value in headers.items():
        part[name.replace("_", "-")] = value
    return part.as_bytes()


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("Re: orders", "orders"),
        ("RE: Fwd: AW: orders", "orders"),
        ("Re[2]: orders", "orders"),
        ("SV: VS: WG: orders", "orders"),
        ("Fw: orders for Spring", "orders for Spring"),
        ("Regarding orders", "Regarding orders"),
        ("Army Paris: orders", "Army Paris: orders"),
    ],
)
def test_subject_prefixes(subject: str, expected: str) -> None:
    assert strip_subject_prefixes(subject) == expected


def test_encoded_subject_and_sender_are_decoded() -> None:
    raw = plain(
        "HELP", Subject="=?utf-8?q?Re=3A_B=C3=BCndnis?=", From="=?utf-8?b?SsO8cmdlbg==?= <j@x.de>"
    )
    mail = read_mail(raw)
    assert mail.subject == "Bündnis"
    assert mail.sender == "j@x.de"
    assert mail.sender_name == "Jürgen"


@pytest.mark.parametrize("charset", ["utf-8", "iso-8859-1", "koi8-r", "shift_jis"])
def test_charsets_and_transfer_encodings(charset: str) -> None:
    text = {"koi8-r": "Привет\nA PAR-BUR", "shift_jis": "こんにちは\nA PAR-BUR"}.get(
        charset, "Grüße\nA PAR-BUR"
    )
    mail = read_mail(plain(text, charset=charset))
    assert mail.text == text
    assert mail.problem is None


def test_quoted_printable_and_base64() -> None:
    message = EmailMessage()
    message["From"] = "a@example.org"
    message.set_content("F LON-NTH\nA PAR=BUR ü\n", cte="quoted-printable")
    assert read_mail(message.as_bytes()).text == "F LON-NTH\nA PAR=BUR ü"
    message = EmailMessage()
    message["From"] = "a@example.org"
    message.set_content("F LON-NTH\n", cte="base64")
    assert read_mail(message.as_bytes()).text == "F LON-NTH"


def test_unknown_charset_falls_back_without_failing() -> None:
    raw = (
        b"From: a@example.org\r\nContent-Type: text/plain; charset=x-nonsense\r\n\r\nA PAR-BUR\r\n"
    )
    mail = read_mail(raw)
    assert mail.text == "A PAR-BUR"
    assert mail.problem is None


def test_first_plain_part_of_alternative_wins() -> None:
    outer = MIMEMultipart("alternative")
    outer["From"] = "a@example.org"
    outer.attach(MIMEText("A PAR-BUR", "plain"))
    outer.attach(MIMEText("<p>A MAR-SPA</p>", "html"))
    mail = read_mail(outer.as_bytes())
    assert (mail.text, mail.text_source) == ("A PAR-BUR", "text/plain")


def test_html_only_mail_is_turned_into_text_without_its_quote() -> None:
    outer = MIMEMultipart("mixed")
    outer["From"] = "a@example.org"
    html = (
        "<html><head><style>p{}</style></head><body><div>A PAR-BUR</div><div>F BRE&nbsp;H</div>"
        "<div>On Monday Bob wrote:</div><blockquote><p>A MUN-BUR</p></blockquote></body></html>"
    )
    outer.attach(MIMEText(html, "html"))
    mail = read_mail(outer.as_bytes())
    assert mail.text_source == "text/html"
    assert mail.text == "A PAR-BUR\nF BRE H"


def test_attachments_and_forwarded_mails_are_not_read() -> None:
    outer = MIMEMultipart("mixed")
    outer["From"] = "a@example.org"
    attached = MIMEText("A VIE-TRI", "plain")
    attached.add_header("Content-Disposition", "attachment", filename="old.txt")
    outer.attach(attached)
    inner = MIMEText("A MUN-BUR", "plain")
    inner["From"] = "b@example.org"
    outer.attach(MIMEMessage(inner))
    mail = read_mail(outer.as_bytes())
    assert mail.problem is not None and "no text part" in mail.problem


def test_new_text_drops_quotes_signature_and_copies() -> None:
    body = "\n".join(
        [
            "A PAR-BUR",
            "",
            "On Mon, 1 Jan 2024 at 10:00, Bob <bob@example.org> wrote:",
            "> A MUN-BUR",
            "> > F KIE-HOL",
            "F BRE-MAO",
            "-- ",
            "Ann, Paris",
            "A MAR-SPA",
        ]
    )
    assert new_text(body) == "A PAR-BUR\n\nF BRE-MAO"


@pytest.mark.parametrize(
    "marker",
    [
        "-----Original Message-----",
        "---------- Forwarded message ---------",
        "Begin forwarded message:",
        "-----Ursprüngliche Nachricht-----",
        "________________________________",
    ],
)
def test_copies_below_a_marker_are_cut(marker: str) -> None:
    assert new_text(f"A PAR-BUR\r\n{marker}\r\nA MUN-BUR\r\n") == "A PAR-BUR"


def test_outlook_header_block_cuts_the_copy() -> None:
    body = "A PAR-BUR\n\nFrom: Bob <bob@example.org>\nSent: Monday\nTo: judge\n\nA MUN-BUR"
    assert new_text(body) == "A PAR-BUR"
    # A lone "From:" line that is no header block is kept.
    assert new_text("From: me, in Paris\nA PAR-BUR") == "From: me, in Paris\nA PAR-BUR"


def test_signature_without_trailing_space_also_ends_the_text() -> None:
    assert new_text("HELP\n--\nAnn") == "HELP"


def test_mail_without_sender_is_unreadable() -> None:
    mail = read_mail(b"Subject: hi\r\n\r\nHELP\r\n")
    assert mail.problem is not None and "From" in mail.problem


def test_mail_with_only_an_image_is_unreadable() -> None:
    raw = (
        b"From: a@example.org\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n"
        b"\r\niVBORw0KGgo=\r\n"
    )
    mail = read_mail(raw)
    assert mail.problem == "it has no text part (plain text or HTML) to read orders from"


def test_garbage_never_raises() -> None:
    for raw in (
        b"",
        b"\xff\xfe\x00",
        b"From: \xff\r\n\r\n\xff",
        b"Content-Type: multipart/mixed\r\n\r\n",
    ):
        read_mail(raw)


def test_references_collect_in_reply_to() -> None:
    raw = plain("HELP", Message_ID="<m2@x>", References="<m0@x> <m1@x>", In_Reply_To="<m1@x>")
    mail = read_mail(raw)
    assert mail.message_id == "<m2@x>"
    assert mail.references == ("<m0@x>", "<m1@x>")


def test_html_to_text_keeps_line_breaks() -> None:
    assert (
        html_to_text("A PAR-BUR<br>F BRE-MAO<br/>A MAR &amp; co")
        == "A PAR-BUR\nF BRE-MAO\nA MAR & co"
    )


@pytest.mark.parametrize(
    "from_header",
    [
        b"=?utf-8?q?Evil=0D=0ABcc:_victim@example.org?= <ann@example.org>",
        b'"Eve\r\n Bcc: victim@example.org" <ann@example.org>',
        b"ann@example.org, victim@example.org",
        b"Ann <ann@example.org>",
    ],
)
def test_the_sender_is_the_first_mailbox_and_nothing_smuggled_in(from_header: bytes) -> None:
    raw = (
        b"From: "
        + from_header
        + b"\r\nSubject: =?utf-8?q?orders=0D=0ABcc:_victim@example.org?=\r\n\r\nHELP\r\n"
    )
    mail = read_mail(raw)
    assert mail.sender == "ann@example.org"
    for text in (mail.subject, mail.sender_name):
        assert "\r" not in text and "\n" not in text
    assert mail.subject == "orders Bcc: victim@example.org"


@pytest.mark.parametrize(
    "from_header", [b"a b@c", b"undisclosed-recipients:;", b"<>", b"just text"]
)
def test_no_usable_sender(from_header: bytes) -> None:
    mail = read_mail(b"From: " + from_header + b"\r\n\r\nHELP\r\n")
    assert mail.sender is None
    assert mail.problem == "it has no usable From: address"


def test_control_characters_in_the_subject_become_spaces() -> None:
    mail = read_mail(
        "From: a@example.org\r\nSubject: orders \u2028Bcc: x \x0bend\r\n\r\nHELP".encode()
    )
    assert "\u2028" not in mail.subject and "\x0b" not in mail.subject


def test_every_text_part_of_a_mixed_mail_is_read() -> None:
    """An iPhone writes text, an image, more text: orders in the second text part count."""
    raw = (
        b"From: ann@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nA PAR-BUR\r\n"
        b"--b\r\nContent-Type: image/png\r\nContent-Disposition: inline; filename=a.png\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n"
        b"--b\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nF LON-NTH\r\n\r\n"
        b"Sent from my iPhone\r\n--b--\r\n"
    )
    assert read_mail(raw).text == "A PAR-BUR\n\nF LON-NTH"


def test_a_raw_8bit_attachment_filename_does_not_stop_the_mail_being_read() -> None:
    raw = (
        b"From: ann@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: text/plain\r\n\r\nA PAR-BUR\r\n"
        b'--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="Fr\xf6sche.txt"'
        b"\r\n\r\nF LON-NTH\r\n--b--\r\n"
    )
    mail = read_mail(raw)
    assert (mail.problem, mail.text) == (None, "A PAR-BUR")


def test_a_charset_label_python_does_not_know_is_read_by_its_bytes() -> None:
    """x-mac-cyrillic, as Mac mail programs label it: the password is read as written."""
    body = "SIGNON Russia alpha Пароль".encode("mac_cyrillic")
    raw = b"From: ann@example.org\r\nContent-Type: text/plain; charset=x-mac-cyrillic\r\n"
    raw += b"Content-Transfer-Encoding: 8bit\r\n\r\n" + body + b"\r\n"
    assert read_mail(raw).text == "SIGNON Russia alpha Пароль"


def test_a_uuencoded_file_in_a_plain_body_is_no_orders() -> None:
    body = "A PAR-BUR\n\nbegin 666 blueball.png\nM(R!4:&ES(&ES(&$@=&5S=`H`\n`\nend\nF LON-NTH\n"
    assert new_text(body) == "A PAR-BUR\n\nF LON-NTH"


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        ("A PAR-BUR\n\nThanks,\nBob", "A PAR-BUR"),
        ("A PAR-BUR\n\nBR,\nBob", "A PAR-BUR"),
        ("A PAR-BUR\n\n- Jamis", "A PAR-BUR"),
        ("A PAR-BUR\n\nHappy hacking,\n-Carl", "A PAR-BUR"),
        ("A PAR-BUR\n\nSent from my iPhone", "A PAR-BUR"),
        (
            "A PAR-BUR\nThis message has been scanned for viruses and\nis believed to be clean.",
            "A PAR-BUR",
        ),
        (
            "A PAR-BUR\n\n--- On Wed, 4/4/12, x@example.com <x@example.com> wrote:\n\nF LON-NTH",
            "A PAR-BUR",
        ),
        (
            "A PAR-BUR\nTwas brillig when lars@example.org did gyre and gimble:\n\n LK> F LON-NTH\n",
            "A PAR-BUR",
        ),
        (
            'A PAR-BUR\n02.04.2012 14:20 пользователь "bob@example.org" <\nbob@example.org> '
            "написал:\n> F LON-NTH",
            "A PAR-BUR",
        ),
        ("> A MUN-BER\n[...]\n> F KIE-DEN\nA PAR-BUR", "A PAR-BUR"),
        # A line that looks like an order under a closing is still read, never dropped.
        ("Thanks,\nA PAR-BUR", "Thanks,\nA PAR-BUR"),
    ],
)
def test_the_persons_new_text_ends_where_mail_programs_end_it(body: str, kept: str) -> None:
    from judge.language.commands import looks_like_a_command

    assert new_text(body, looks_like_a_command) == kept


def test_an_order_below_a_signature_is_still_read() -> None:
    from judge.language.commands import looks_like_a_command

    body = "A PAR-BUR\n-- \nAnn\nF LON-NTH\n"
    assert new_text(body, looks_like_a_command) == "A PAR-BUR\nF LON-NTH"
    assert new_text(body) == "A PAR-BUR"  # with no reader of commands at hand: as before


def test_a_short_subject_is_repeated_whole() -> None:
    mail = read_mail(b"From: ann@example.org\r\nSubject: Re: Spring orders\r\n\r\nHELP\r\n")
    assert mail.subject == "Spring orders"
