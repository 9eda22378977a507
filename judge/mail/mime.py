"""Turn a raw mail into what the desk reads: sender, subject without reply prefixes, new text only.

Only the new text counts as commands: quoted lines, signatures and the copies of earlier mails
that replies and forwards carry below it are dropped, so an old order is never read twice.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import compat32
from email.policy import default as default_policy
from html import unescape
from html.parser import HTMLParser

from judge.mail.headers import clean_text, decode_words
from judge.mail.reply_text import new_text

__all__ = ["ReadMail", "body_text", "decode_part", "html_to_text", "new_text", "read_mail"]

# Subject prefixes of replies and forwards in the languages mail clients commonly use.
_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|aw|wg|sv|vs|antw|ref|tr|rif|r|odp|enc|res|vb)"
    r"(?:\s*\[\d+\]|\s*\(\d+\))?\s*[:：]\s*)+",
    re.IGNORECASE,
)

# A bare address the judge will answer: no spaces, controls, brackets or commas, one @.
_ADDRESS = re.compile(r"[^\s@<>(),;:\\\"\[\]\x00-\x1f\x7f]+@[^\s@<>(),;:\\\"\[\]\x00-\x1f\x7f]+")


@dataclass(frozen=True)
class ReadMail:
    """What the judge takes from one mail; `problem` says why it could not be read, if so."""

    sender: str | None
    sender_name: str
    subject: str
    message_id: str | None
    references: tuple[str, ...]
    text: str
    text_source: str
    problem: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    # Nothing of its own but another mail (a complaint's or a feedback loop's copy).
    only_carries_a_mail: bool = False


def parse_message(raw: bytes) -> Message:
    """Parse bytes leniently: a broken header never stops the rest of the mail being read."""
    return BytesParser(policy=compat32).parsebytes(raw)


def _as_sent(value: object) -> str:
    """A raw header value unfolded, its 8-bit bytes read as UTF-8."""
    if isinstance(value, str):
        value = value.encode("ascii", "surrogateescape").decode("utf-8", "replace")
    return re.sub(r"\r?\n(?=[ \t])", "", str(value))


def _first_values(message: Message) -> dict[str, str]:
    """Each header's first value as sent, by lower-case name, in one pass over the headers."""
    values: dict[str, str] = {}
    for key, value in message.raw_items():
        values.setdefault(key.lower(), value)
    return {key: _as_sent(value) for key, value in values.items()}


def raw_header(message: Message, name: str) -> str | None:
    """A header's value as sent, unfolded: 8-bit bytes read as UTF-8 (RFC 6532, as SMTPUTF8
    mail carries them) rather than lost, encoded words left as they are; None where missing."""
    wanted = name.lower()
    for key, value in message.raw_items():
        if key.lower() != wanted:
            continue
        return _as_sent(value)
    return None


# How much of a mail's Subject the judge repeats in its answers: enough to know the mail by,
# never a header an attacker fills under the judge's name (a 500 KB Subject).
SUBJECT_REPEATED = 100


def repeatable(subject: str) -> str:
    """A received Subject as the judge may repeat it: one line with no control, format or
    bidirectional character (one_line), at most SUBJECT_REPEATED characters, cut with "…"."""
    text = one_line(subject[: SUBJECT_REPEATED * 4])
    if len(text) <= SUBJECT_REPEATED:
        return text
    return text[: SUBJECT_REPEATED - 1].rstrip() + "…"


def header_text(message: Message, name: str) -> str:
    """A header decoded from RFC 2047 words into text, or '' where it is missing."""
    value = raw_header(message, name)
    return "" if value is None else decode_words(value).strip()


def one_line(text: str) -> str:
    """Text fit for one header line (judge.mail.headers.clean_text): decoded, with control and
    format characters and line breaks made spaces, so nothing read from a mail can inject a header.
    """
    return clean_text(text)


def parse_headers(raw: bytes) -> Message:
    """The header block alone, for a mail whose body the parser cannot take apart."""
    try:
        return BytesHeaderParser(policy=compat32).parsebytes(raw)
    except Exception:  # nothing left to read: an empty mail is answered as having no sender
        return Message(policy=compat32)


def first_address(value: object) -> tuple[str, str]:
    """(display name, address) of the first mailbox in an address header, or ('', '')."""
    if value is None:
        return "", ""
    raw = re.sub(r"\r?\n", "", str(value))
    try:
        parsed = default_policy.header_factory("from", raw)
        mailboxes = list(parsed.addresses)  # type: ignore[attr-defined]
    except Exception:
        # The parser refuses a display name that decodes to a line break (an injection
        # attempt); the address in angle brackets at the end is still the sender's.
        found = re.search(r"<([^<>\s]+@[^<>\s]+)>\s*$", raw)
        return ("", found.group(1)) if found else ("", "")
    if not mailboxes:
        return "", ""
    return str(mailboxes[0].display_name or ""), str(mailboxes[0].addr_spec or "").strip()


def strip_subject_prefixes(subject: str) -> str:
    """Drop any run of Re:, Fwd:, AW: (and friends) from the front of a subject."""
    return _PREFIX.sub("", subject, count=1).strip()


def decode_part(part: Message) -> str:
    """The text of one part in any transfer encoding and charset. A charset label Python does
    not know (x-mac-cyrillic) or one the bytes do not fit (a mail labelled with one charset and
    written in another) is settled by charset-normalizer from the bytes; only what no charset
    reads becomes U+FFFD."""
    payload = part.get_payload(decode=True)
    if payload is None:
        payload = b""
    if not isinstance(payload, bytes):
        payload = str(payload).encode("utf-8", "replace")
    return decode_bytes(payload, _charset_label(part))


def _charset_label(part: Message) -> str:
    try:
        return str(part.get_content_charset() or "us-ascii")
    except Exception:  # a charset parameter in 8-bit bytes or RFC 2231 gone wrong
        return "unknown-8bit"


def decode_bytes(payload: bytes, label: str) -> str:
    """Bytes as text under a charset label, the label checked against the bytes."""
    native = _native_codec(label)
    if native is not None:
        try:
            return payload.decode(native)
        except UnicodeDecodeError:
            pass
    if payload.isascii():
        return payload.decode("ascii")
    # A label Python does not know (or bytes its codec refuses): the labelled charset as the
    # alias table names it and UTF-8 weighed on the bytes (a newsletter labelled
    # x-mac-cyrillic may be written in UTF-8), else whatever charset-normalizer finds.
    known = native or _codec(label)
    guess = _detected(payload, known)
    if guess is not None:
        return guess
    return payload.decode(known or "utf-8", errors="replace")


def _native_codec(label: str) -> str | None:
    """Python's own codec for a charset label, or None."""
    try:
        return codecs.lookup(label.strip().strip("\"'")).name
    except LookupError:
        return None


def _codec(label: str) -> str | None:
    """Python's codec for a charset label, through charset-normalizer's table of names where
    Python's own lookup fails (`x-mac-cyrillic` is `mac_cyrillic`); None if neither knows it."""
    from charset_normalizer.utils import iana_name

    name = label.strip().strip("\"'").lower()
    for candidate in (name, re.sub(r"^x-", "", name)):
        try:
            return codecs.lookup(candidate).name
        except LookupError:
            pass
        try:
            return iana_name(candidate, strict=True)
        except ValueError:
            pass
    return None


def _detected(payload: bytes, labelled: str | None) -> str | None:
    """The text charset-normalizer reads the bytes as, the labelled charset and UTF-8 first."""
    from charset_normalizer import from_bytes

    preferred = [name for name in (labelled, "utf_8") if name]
    best = from_bytes(payload, cp_isolation=preferred).best() or from_bytes(payload).best()
    return None if best is None else str(best)


class _HTMLText(HTMLParser):
    """HTML to plain lines; text inside <blockquote> comes out as `>` lines, as a quote should."""

    BLOCK = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table"}
    SKIP = {"script", "style", "head", "title"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.quote_depth = 0
        self.skip_depth = 0

    def _break(self, blank: bool = False) -> None:
        text = re.sub(r"[ \t\r\n\xa0]+", " ", "".join(self.current)).strip()
        self.current = []
        if text:
            self.lines.append(("> " * self.quote_depth) + text)
        elif blank:
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip_depth += 1
        elif tag == "blockquote":
            self._break()
            self.quote_depth += 1
        elif tag == "br":
            self._break(blank=True)
        elif tag in self.BLOCK:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip_depth = max(0, self.skip_depth - 1)
        elif tag == "blockquote":
            self._break()
            self.quote_depth = max(0, self.quote_depth - 1)
        elif tag in self.BLOCK:
            self._break()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_data(self, data: str) -> None:
        if not self.skip_depth:
            self.current.append(data)


def html_to_text(html: str) -> str:
    """Plain text of an HTML body, one line per block."""
    parser = _HTMLText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # malformed markup: fall back to dropping the tags
        return unescape(re.sub(r"<[^>]*>", " ", html))
    parser._break()
    return "\n".join(parser.lines).strip("\n")


def _disposition(part: Message) -> str:
    """The Content-Disposition's kind; a raw 8-bit filename in it (Eudora) reads as any other."""
    value = raw_header(part, "Content-Disposition") or ""
    return value.split(";")[0].strip().lower()


def text_parts(message: Message) -> Iterator[tuple[Message, str]]:
    """Every part a person's text is in, in order, with its kind: of an alternative, its plain
    part (else its HTML one); of a signed mail, the signed part; of a mixed or related mail,
    every inline text part (an iPhone writes text, image, text). Attachments and mails carried
    inside this one (message/rfc822, a forward or a report's copy) are no new text."""
    kind = message.get_content_type()
    if kind == "message/rfc822" or _disposition(message) == "attachment":
        return
    if message.is_multipart():
        children = [c for c in message.get_payload() if isinstance(c, Message)]
        if kind == "multipart/alternative":
            # The plain version, unless it is empty (Exchange sends an empty one beside HTML).
            for wanted in ("text/plain", "text/html"):
                for child in children:
                    found = [p for p in text_parts(child) if p[1] == wanted and not _blank(p[0])]
                    if found:
                        yield from found
                        return
            return
        if kind in ("multipart/signed", "multipart/encrypted"):
            children = children[:1]
        for child in children:
            yield from text_parts(child)
        return
    if kind in ("text/plain", "text/html"):
        yield message, kind


def _blank(part: Message) -> bool:
    payload = part.get_payload(decode=True)
    return isinstance(payload, bytes) and not payload.strip()


def body_text(message: Message) -> tuple[str, str]:
    """The text of every part a person writes in (`text_parts`), each decoded and HTML made
    plain; with which kind it was ("text/plain", "text/html" or "none")."""
    texts, kinds = _part_texts(message)
    if not texts:
        return "", "none"
    return "\n".join(texts), kinds[0]


def _part_texts(message: Message) -> tuple[list[str], list[str]]:
    texts: list[str] = []
    kinds: list[str] = []
    for part, kind in text_parts(message):
        text = decode_part(part)
        texts.append(html_to_text(text) if kind == "text/html" else text)
        kinds.append(kind)
    return texts, kinds


def body_new_text(
    message: Message, looks_like_a_command: Callable[[str], bool] | None = None
) -> tuple[str, str]:
    """The person's new text of each text part (a signature in the first part ends that
    part's text, not the next part's), joined; with the first part's kind."""
    texts, kinds = _part_texts(message)
    if not texts:
        return "", "none"
    parts = [new_text(text, looks_like_a_command) for text in texts]
    return "\n\n".join(part for part in parts if part.strip()), kinds[0]


def _ids(value: str) -> tuple[str, ...]:
    """The Message-IDs in a header; one the judge could not write back in its own References
    (a control character, an encoded word) is not one it threads by."""
    return tuple(
        found
        for found in re.findall(r"<[^<>\s]+>", value)
        if found.isprintable() and "=?" not in found
    )


def read_mail(raw: bytes, looks_like_a_command: Callable[[str], bool] | None = None) -> ReadMail:
    """Read one raw mail; never raises: a mail that cannot be read says why in `problem`.
    `looks_like_a_command` (judge.language.commands.looks_like_a_command by default) tells
    which lines below a signature are still read (reply_text.new_text)."""
    if looks_like_a_command is None:
        from judge.language.commands import looks_like_a_command
    unparsed: str | None = None
    try:
        message = parse_message(raw)
    except Exception as error:  # too deeply nested (RecursionError) or worse: headers only
        unparsed = (
            f"its MIME parts could not be taken apart ({error}), so only its headers were read"
        )
        message = parse_headers(raw)
    # One pass over the headers (a mail may carry hundreds of thousands), the first of each name.
    raw_values = _first_values(message)
    headers = {name: decode_words(value).strip() for name, value in raw_values.items()}
    # Addresses come from the raw header: decoding first would let an encoded word smuggle in
    # another address (or a line break) that the reply would then be sent to.
    name, address = first_address(raw_values.get("from"))
    # An address that reads as an encoded word is nobody's: the stdlib would decode it.
    # Nor is one holding bytes that were not UTF-8 (U+FFFD) or characters nobody can type.
    usable = _ADDRESS.fullmatch(address) and address.isprintable() and "\ufffd" not in address
    sender = address if usable and "=?" not in address else None
    name = one_line(name)
    subject = repeatable(strip_subject_prefixes(one_line(headers.get("subject", ""))))
    message_ids = _ids(raw_values.get("message-id", ""))
    references = _ids(raw_values.get("references", ""))
    in_reply_to = _ids(raw_values.get("in-reply-to", ""))
    refs = tuple(dict.fromkeys(references + in_reply_to))
    problem: str | None = unparsed
    text, source = "", "none"
    if unparsed is None:
        try:
            text, source = body_new_text(message, looks_like_a_command)
        except Exception as error:  # a part whose encoding cannot be undone, or nesting too deep
            problem = f"its body could not be decoded ({error})"
    if sender is None:
        problem = "it has no usable From: address"
    elif problem is None and source == "none":
        problem = "it has no text part (plain text or HTML) to read orders from"
    return ReadMail(
        sender=sender,
        sender_name=name,
        subject=subject,
        message_id=message_ids[0] if message_ids else None,
        references=refs,
        text=text,
        text_source=source,
        problem=problem,
        headers=headers,
        only_carries_a_mail=unparsed is None and _only_carries_a_mail(message),
    )


def _only_carries_a_mail(message: Message) -> bool:
    """Whether every part of the mail is a mail carried inside it (message/rfc822)."""
    if message.get_content_type() == "message/rfc822":
        return True
    if not message.is_multipart():
        return False
    children = [c for c in message.get_payload() if isinstance(c, Message) and not _empty(c)]
    return bool(children) and all(_only_carries_a_mail(child) for child in children)


def _empty(part: Message) -> bool:
    """A part with nothing in it (a stray boundary's)."""
    payload = part.get_payload()
    return isinstance(payload, str) and not payload.strip()
