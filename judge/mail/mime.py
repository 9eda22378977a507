"""Turn a raw mail into what the desk reads: sender, subject without reply prefixes, new text only.

Only the new text counts as commands: quoted lines, signatures and the copies of earlier mails
that replies and forwards carry below it are dropped, so an old order is never read twice.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.policy import compat32
from email.policy import default as default_policy
from html import unescape
from html.parser import HTMLParser

from judge.mail.headers import clean_text, decode_words

# Subject prefixes of replies and forwards in the languages mail clients commonly use.
_PREFIX = re.compile(
    r"^\s*(?:(?:re|fwd?|aw|wg|sv|vs|antw|ref|tr|rif|r|odp|enc|res|vb)"
    r"(?:\s*\[\d+\]|\s*\(\d+\))?\s*[:：]\s*)+",
    re.IGNORECASE,
)

# Lines after which everything is a copy of another mail.
_CUT_LINES = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht|"
    r"weitergeleitete nachricht|message d'origine|message transféré)\s*-{2,}"
    r"|begin forwarded message:|_{10,})\s*$",
    re.IGNORECASE,
)
# "On Mon, 1 Jan 2024, Ann <a@b> wrote:" and its cousins in other languages.
_ATTRIBUTION = re.compile(
    r"^\s*(?:on\b.*\bwrote|am\b.*\bschrieb|le\b.*\ba écrit|el\b.*\bescribió|.*\bwrote)\s*:\s*$",
    re.IGNORECASE,
)
# The header block Outlook puts above a quoted mail instead of `>` lines.
# A bare address the judge will answer: no spaces, controls, brackets or commas, one @.
_ADDRESS = re.compile(r"[^\s@<>(),;:\\\"\[\]\x00-\x1f\x7f]+@[^\s@<>(),;:\\\"\[\]\x00-\x1f\x7f]+")
_OUTLOOK_FROM = re.compile(r"^\s*\*?(?:from|von|de)\s*:\*?\s+\S", re.IGNORECASE)
_OUTLOOK_NEXT = re.compile(
    r"^\s*\*?(?:sent|date|to|subject|gesendet|an|betreff|envoyé|à|objet)\s*:", re.IGNORECASE
)


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
    """The text of one part in any transfer encoding and charset; unknown bytes become U+FFFD."""
    payload = part.get_payload(decode=True)
    if payload is None:
        payload = b""
    if not isinstance(payload, bytes):
        payload = str(payload).encode("utf-8", "replace")
    charset = part.get_content_charset() or "us-ascii"
    try:
        codecs.lookup(charset)
    except LookupError:
        charset = "utf-8"
    try:
        return payload.decode(charset)
    except UnicodeDecodeError:
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode(charset, errors="replace")


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


def _is_attachment(part: Message) -> bool:
    disposition = (part.get("Content-Disposition") or "").split(";")[0].strip().lower()
    return disposition == "attachment"


def body_text(message: Message) -> tuple[str, str]:
    """The first text/plain part, else the first HTML part as text; with which one it was."""
    plain: Message | None = None
    html: Message | None = None
    for part in message.walk():
        if part.get_content_type() == "message/rfc822":
            break  # a mail carried inside this one is a copy, never new text
        if part.is_multipart() or _is_attachment(part):
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = part
        elif kind == "text/html" and html is None:
            html = part
    if plain is not None:
        return decode_part(plain), "text/plain"
    if html is not None:
        return html_to_text(decode_part(html)), "text/html"
    return "", "none"


def new_text(body: str) -> str:
    """The lines the sender wrote in this mail: no quotes, signature, or copies of other mails."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.rstrip()
        if stripped in ("--", "-- ") or line == "-- ":
            break
        if _CUT_LINES.match(line):
            break
        if _OUTLOOK_FROM.match(line) and any(
            _OUTLOOK_NEXT.match(following) for following in lines[index + 1 : index + 4]
        ):
            break
        if line.lstrip().startswith(">"):
            continue
        if _ATTRIBUTION.match(line) and _next_is_quote(lines, index):
            continue
        kept.append(stripped)
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept)


def _next_is_quote(lines: list[str], index: int) -> bool:
    for following in lines[index + 1 :]:
        if following.strip():
            return following.lstrip().startswith(">")
    return True


def _ids(value: str) -> tuple[str, ...]:
    """The Message-IDs in a header; one the judge could not write back in its own References
    (a control character, an encoded word) is not one it threads by."""
    return tuple(
        found
        for found in re.findall(r"<[^<>\s]+>", value)
        if found.isprintable() and "=?" not in found
    )


def read_mail(raw: bytes) -> ReadMail:
    """Read one raw mail; never raises: a mail that cannot be read says why in `problem`."""
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
    subject = one_line(strip_subject_prefixes(one_line(headers.get("subject", ""))))
    message_ids = _ids(raw_values.get("message-id", ""))
    references = _ids(raw_values.get("references", ""))
    in_reply_to = _ids(raw_values.get("in-reply-to", ""))
    refs = tuple(dict.fromkeys(references + in_reply_to))
    problem: str | None = unparsed
    body, source = "", "none"
    if unparsed is None:
        try:
            body, source = body_text(message)
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
        text=new_text(body),
        text_source=source,
        problem=problem,
        headers=headers,
    )
