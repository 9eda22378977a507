"""What every mail the judge writes must look like, checked on its bytes (tests import this)."""

from __future__ import annotations

import unicodedata
from email import message_from_bytes
from email.policy import default as default_policy

# Every header the judge writes into a mail (and the Maildir's two delivery headers).
JUDGES_HEADERS = {
    "return-path",
    "delivered-to",
    "from",
    "to",
    "reply-to",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "auto-submitted",
    "x-auto-response-suppress",
    "x-judge-loop",
    "content-type",
    "content-transfer-encoding",
    "mime-version",
}


def assert_only_the_judges_headers(written: bytes, marker: bytes | None = b"INJECTED") -> None:
    """The header block holds only the judge's headers, once each, none with a line break,
    and none that a reader decodes into a control character or a line break; `marker`, the
    text an injection tried to put below a forged blank line, is nowhere in the body."""
    written = written.replace(b"\r\n", b"\n")
    head, separator, body = written.partition(b"\n\n")
    assert separator, written
    names: list[str] = []
    for line in head.split(b"\n"):
        assert b"\r" not in line and b"\x00" not in line, line
        if line[:1] in (b" ", b"\t"):
            continue  # a folded continuation of the header above
        name, colon, _ = line.partition(b":")
        assert colon, f"a line of the header block is no header: {line!r}"
        names.append(name.decode("ascii").lower())
    assert set(names) <= JUDGES_HEADERS, names
    assert len(names) == len(set(names)), names
    assert marker is None or (marker not in body and b"attacker.test" not in body)
    message = message_from_bytes(written, policy=default_policy)
    assert not message.defects
    for name in names:
        value = str(message[name])
        breaks = [ch for ch in value if unicodedata.category(ch)[0] in "CZ" and ch != " "]
        assert not breaks, (name, value)
    for name in ("to", "reply-to", "return-path", "delivered-to"):
        assert "attacker.test" not in str(message.get(name, ""))
