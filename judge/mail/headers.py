"""The one gate every header the judge writes passes: `header_value`.

Text read from a mail (a Subject, a display name) reaches the judge's replies; if it still held
an encoded word the judge had not decoded, the mail library would decode it when writing the
reply, and a CR LF inside it would become new headers of a mail sent in the judge's name. So a
text header is decoded here fully, then every control character and line separator is removed,
and what is left can no longer be read as an encoded word; an address or a Message-ID is never
altered, only refused when it holds anything a header line cannot carry.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata

# An RFC 2047 encoded word, with RFC 2231's optional language (`=?utf-8*en?Q?...?=`). Matched
# anywhere, not only between spaces, so it is at least as eager as any reader that decodes.
_ENCODED_WORD = re.compile(r"=\?([^?\s]*)\?([QqBb])\?([^?]*)\?=")
_BETWEEN_WORDS = re.compile(r"(?<=\?=)[ \t\r\n]+(?==\?[^?\s]*\?[QqBb]\?[^?]*\?=)")
# Headers whose values are addresses, or Message-IDs: never decoded, refused if unsafe.
ADDRESS_HEADERS = frozenset({"to", "cc", "from", "reply-to", "return-path", "delivered-to"})
ID_HEADERS = frozenset({"message-id", "in-reply-to", "references"})
# The name under which a display name (the phrase before an address) is cleaned like text.
DISPLAY_NAME = "Display-Name"
# At most this many rounds of decoding: a word that decodes to another word decodes again.
_MAX_ROUNDS = 8


class UnsafeHeader(ValueError):
    """An address or Message-ID holding something that would change the header it is put in."""


def _charset(name: str) -> str:
    """A codec for the charset of an encoded word; an unknown one is read as UTF-8."""
    name = name.split("*", 1)[0].strip() or "utf-8"
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "utf-8"


def _decode_word(match: re.Match[str]) -> str:
    charset, encoding, text = match.group(1), match.group(2).upper(), match.group(3)
    try:
        if encoding == "Q":
            data = re.sub(
                rb"=([0-9A-Fa-f]{2})",
                lambda m: bytes([int(m.group(1), 16)]),
                text.replace("_", " ").encode("ascii", "replace"),
            )
        else:
            padded = text + "=" * (-len(text) % 4)
            data = base64.b64decode(padded.encode("ascii", "replace"))
    except (binascii.Error, ValueError):
        return "\ufffd"
    return data.decode(_charset(charset), errors="replace")


def decode_words(text: str) -> str:
    """`text` with every encoded word decoded, however many times it was encoded; unknown
    charsets and bytes that are not text in theirs come out as U+FFFD, never as raw words."""
    for _ in range(_MAX_ROUNDS):
        decoded = _ENCODED_WORD.sub(_decode_word, _BETWEEN_WORDS.sub("", text))
        if decoded == text:
            break
        text = decoded
    return text


def _is_break(ch: str) -> bool:
    """Control, format and separator characters (CR, LF, NUL, C0, C1, U+2028, U+2029...)."""
    return ch != " " and unicodedata.category(ch)[0] in "CZ"


def _plain(text: str) -> bool:
    """Printable ASCII with no encoded word, no doubled or outer space: already clean (the
    judge's own subjects, nearly always), so the usual reply skips the work below."""
    return (
        text.isascii()
        and text.isprintable()
        and "=?" not in text
        and "  " not in text
        and text == text.strip()
    )


def clean_text(text: str) -> str:
    """Text fit for one header line: decoded, breaks and controls made spaces, runs of spaces
    one space, and no `=?` left that a reader could take for the start of an encoded word."""
    if _plain(text):
        return text
    text = decode_words(text)
    text = "".join(" " if _is_break(ch) else ch for ch in text)
    return " ".join(text.split()).replace("=?", "= ?")


def _check_word_list(name: str, value: str) -> str:
    """An address or Message-ID list as given, or UnsafeHeader if it could change the header."""
    if not value or value != value.strip():
        raise UnsafeHeader(f"{name}: empty or padded value {value!r}")
    plain = value.isascii() and value.isprintable()
    for ch in "" if plain else value:
        if _is_break(ch) and ch != " ":
            raise UnsafeHeader(f"{name}: control or line-break character in {value!r}")
    if "=?" in value:
        raise UnsafeHeader(f"{name}: an encoded word in {value!r}")
    if name in ADDRESS_HEADERS and (" " in value or "," in value or ";" in value):
        raise UnsafeHeader(f"{name}: not one bare address: {value!r}")
    return value


def header_value(name: str, value: str) -> str:
    """The value the judge may write in header `name`: text is decoded and cleaned; an address
    (To, Reply-To...) or Message-ID list is kept exactly, or refused with UnsafeHeader."""
    key = name.lower()
    if key in ADDRESS_HEADERS or key in ID_HEADERS:
        return _check_word_list(key, value)
    return clean_text(value)
