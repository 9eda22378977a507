"""A seeded fuzz of the intake: a few hundred generated hostile or broken mails through the
store and the processor, as the daemon takes them.

Malformed MIME, encoded headers in odd, unknown or lying charsets, huge and deeply nested
mails, bare CR and LF, NUL bytes. The run fails if any mail the judge writes carries a header
the judge did not write (or a line break inside one), goes to anyone but a sender, or if any
mail ends unanswered without a reason in its row and in the log. Set JUDGE_FUZZ_SEED to replay
another run; the seed of a failing run is in the failure message.
"""

from __future__ import annotations

import base64
import logging
import os
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from written_mail import assert_only_the_judges_headers

from judge import clock
from judge.processor import ProcessorSettings, process_next
from judge.store import InboxMessage, InboxState, OutboxMessage, session_scope
from judge.store.inbox import accept
from judge.store.outbox import Identity
from tests.migrated import migrated_sqlite

SEED = int(os.environ.get("JUDGE_FUZZ_SEED", "1414"))
COUNT = 300
SETTINGS = ProcessorSettings(
    identity=Identity("judge@example.org", "Fuzz Judge"),
    keeper="keeper@example.org",
    replies_per_day=100_000,  # the daily cap is tested elsewhere; here every mail may be answered
)
SENDERS = [f"p{n}@example.org" for n in range(20)] + [
    "jörg@exämple.org",
    "ann+game@example.org",
    "o'brien@example.org",
]
VICTIM = "victim@attacker.test"
INJECTION = f"\r\nBcc: {VICTIM}\r\nReply-To: {VICTIM}\r\n\r\nINJECTED"
CHARSETS = [
    "utf-8",
    "UTF-8",
    "iso-8859-1",
    "koi8-r",
    "shift_jis",
    "utf-16",
    "x-klingon",
    "utf-8*en",
    "",
    "us-ascii",
]
ORDERS = ["HELP", "A PAR-BUR", "F BRE - MAO", "A MUN S A BER", "SIGNON", "LIST", "END"]


def encoded_word(rng: random.Random, text: str) -> str:
    """One RFC 2047 word holding `text` (or stray bytes) in a random charset and encoding."""
    charset = rng.choice(CHARSETS)
    try:
        data = text.encode(charset.split("*")[0] or "utf-8")
    except (LookupError, UnicodeError):
        data = text.encode("utf-8")
    if rng.random() < 0.2:
        data += bytes([rng.choice([0xFF, 0xC3, 0x80, 0x00, 0x0D, 0x0A, 0x85])])
    if rng.random() < 0.5:
        return f"=?{charset}?B?{base64.b64encode(data).decode()}?="
    q = "".join(chr(b) if 48 <= b < 123 and chr(b).isalnum() else f"={b:02X}" for b in data)
    return f"=?{charset}?{rng.choice('Qq')}?{q}?="


def header_text(rng: random.Random) -> bytes:
    """A Subject or display name: plain, encoded, raw 8-bit, with controls, long, folded."""
    pieces: list[bytes] = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(9)
        if kind == 0:
            pieces.append(rng.choice([b"orders", b"Re: game", b"HELP", b"Fwd: AW: x"]))
        elif kind == 1:
            pieces.append(encoded_word(rng, INJECTION).encode())
        elif kind == 2:
            pieces.append(encoded_word(rng, rng.choice(["Grüße", "Привет", "日本", "x"])).encode())
        elif kind == 3:
            pieces.append("Jörg \u2028Bcc: x\u2029 \x85".encode())
        elif kind == 4:
            pieces.append(bytes(rng.choice([0, 1, 0x0B, 0x0C, 0x1B, 0x7F]) for _ in range(3)))
        elif kind == 5:
            pieces.append(encoded_word(rng, encoded_word(rng, INJECTION)).encode())
        elif kind == 6:
            pieces.append(b"x" * rng.choice([200, 5_000, 60_000]))
        elif kind == 7:
            pieces.append(b"\r\n " + encoded_word(rng, "folded").encode())
        else:
            pieces.append(rng.randbytes(rng.randint(1, 12)).replace(b"\n", b"").replace(b"\r", b""))
    return b" ".join(pieces)


def from_header(rng: random.Random, sender: str) -> bytes | None:
    """The From line's value; None leaves the header out."""
    address = sender.encode()
    kind = rng.randrange(10)
    if kind == 0:
        return None
    if kind == 1:
        return encoded_word(rng, "a" + INJECTION).encode() + b"@example.org"
    if kind == 2:
        return address + b", " + VICTIM.encode()
    if kind == 3:
        return b'"Eve\r\n Bcc: ' + VICTIM.encode() + b'" <' + address + b">"
    if kind == 4:
        return b"undisclosed-recipients:;"
    if kind == 5:
        return rng.randbytes(20).replace(b"\r", b"").replace(b"\n", b"")
    if kind in (6, 7):
        return header_text(rng) + b" <" + address + b">"
    return address


def body_part(rng: random.Random, depth: int = 0) -> bytes:
    """A part's headers and body: text, HTML, broken encodings, nesting, truncation."""
    kind = rng.randrange(12 if depth < 4 else 8)
    text = "\r\n".join(rng.choice(ORDERS) for _ in range(rng.randint(0, 6))).encode()
    if kind == 0:
        return b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + text
    if kind == 1:
        return b"Content-Type: text/html\r\n\r\n<p>" + text + b"</p><blockquote>old</blockquote>"
    if kind == 2:
        charset = rng.choice(CHARSETS).encode()
        return b"Content-Type: text/plain; charset=" + charset + b"\r\n\r\nHELP \xe9\xff\xfe"
    if kind == 3:
        return b"Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!not64=="
    if kind == 4:
        return b"Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nA=\r\nPAR=ZZ-BUR=\r\n"
    if kind == 5:
        return b"Content-Type: image/png\r\n\r\n" + rng.randbytes(rng.randint(0, 400))
    if kind == 6:
        return b"\r\nHE\x00LP\x00\rA PAR-BUR\r\x00\n"
    if kind == 7:
        return b"Content-Type: text/plain\r\n\r\n" + (
            b"A PAR-BUR\r\n" * rng.choice([1, 500, 50_000])
        )
    if kind == 8:
        return b"Content-Type: message/rfc822\r\n\r\nFrom: x@y\r\nSubject: old\r\n\r\nHELP\r\n"
    if kind == 9:  # multipart, its end boundary sometimes missing
        boundary = f"b{depth}-{rng.randrange(1000)}".encode()
        parts = [body_part(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        inner = b"".join(b"--" + boundary + b"\r\n" + part + b"\r\n" for part in parts)
        end = b"--" + boundary + b"--\r\n" if rng.random() < 0.7 else b""
        return b'Content-Type: multipart/mixed; boundary="' + boundary + b'"\r\n\r\n' + inner + end
    if kind == 10:  # nested as deep as the parser can or cannot go
        levels = rng.choice([50, 300, 1500, 3000])
        return (
            b"".join(
                b'Content-Type: multipart/mixed; boundary="n%d"\r\n\r\n--n%d\r\n' % (i, i)
                for i in range(levels)
            )
            + b"Content-Type: text/plain\r\n\r\nHELP\r\n"
        )
    return b'Content-Type: multipart/alternative; boundary="never-closed"\r\n\r\n--never-closed\r\nContent-Type: te'


def generate(rng: random.Random, index: int) -> tuple[bytes, str | None]:
    """One mail (raw bytes) and its envelope sender."""
    sender = rng.choice(SENDERS)
    lines = []
    sent_from = from_header(rng, sender)
    if sent_from is not None:
        lines.append(b"From: " + sent_from)
    lines.append(b"To: judge@example.org")
    lines.append(b"Subject: " + header_text(rng))
    if rng.random() < 0.9:
        lines.append(b"Message-ID: <fuzz-%d-%d@example.org>" % (SEED, index))
    if rng.random() < 0.1:
        lines.append(rng.choice([b"Auto-Submitted: auto-replied", b"Precedence: bulk"]))
    if rng.random() < 0.1:
        lines.append(b"In-Reply-To: " + header_text(rng))
    if rng.random() < 0.1:
        odd_ids = [b"<a\x00b@x>", b"<=?utf-8?q?x?=@y>", b"<a\x1bb@x>", "<ü\u2028@x>".encode()]
        lines.append(b"References: <ok@x> " + rng.choice(odd_ids))
    if rng.random() < 0.02:  # a flood of headers, each name once
        lines.extend(b"X-Flood-%d: %d" % (n, n) for n in range(20_000))
    lines.append(b"MIME-Version: 1.0")
    raw = b"\r\n".join(lines) + b"\r\n" + body_part(rng)
    if rng.random() < 0.15:  # another line ending throughout
        raw = raw.replace(b"\r\n", rng.choice([b"\n", b"\r", b"\n\r"]))
    if rng.random() < 0.05:
        raw = raw[: rng.randrange(len(raw) + 1)]  # cut anywhere
    envelope = rng.choice([sender, sender, sender, sender, None, ""])
    return raw, envelope


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def test_fuzzed_mails_are_each_answered_with_the_judges_headers_only_or_left_for_a_reason(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    rng = random.Random(SEED)
    caplog.set_level(logging.INFO, logger="judge.processor")
    stored: dict[int, bytes] = {}
    with session_scope(engine) as session:
        for index in range(COUNT):
            raw, envelope = generate(rng, index)
            row_id, _ = accept(session, raw, source="fuzz", envelope_from=envelope)
            stored[row_id] = raw
    while process_next(engine, SETTINGS) is not None:
        pass
    logged = "\n".join(record.getMessage() for record in caplog.records)
    with session_scope(engine) as session:
        inbox = list(session.scalars(select(InboxMessage).order_by(InboxMessage.id)))
        outbox = list(session.scalars(select(OutboxMessage)))
    context = f"(JUDGE_FUZZ_SEED={SEED})"
    assert len(inbox) == len(stored), context
    answered = {row.inbox_id for row in outbox}
    states: dict[str, int] = {}
    for row in inbox:
        states[row.state] = states.get(row.state, 0) + 1
        where = f"inbox {row.id} {context}: {stored[row.id][:300]!r}"
        assert f"inbox {row.id}" in logged, f"nothing logged for {where}"
        if row.state == InboxState.DONE:
            assert row.id in answered, f"done without an answer: {where}"
        elif row.state == InboxState.IGNORED:
            assert (row.outcome or "").startswith("ignored: ") and len(row.outcome or "") > 12
        else:
            pytest.fail(f"{row.state} ({row.error}) rather than answered or ignored: {where}")
    for sent in outbox:
        # A reply goes to the address in the mail's From (a random one if the From was random
        # bytes), never to an address an injection named.
        assert VICTIM not in sent.to_addr, context
        assert sent.inbox_id is not None, context
        written_in_mail = sent.to_addr.encode() in stored[sent.inbox_id]
        assert sent.to_addr in SENDERS or written_in_mail, (sent.to_addr, context)
        assert_only_the_judges_headers(sent.raw, marker=None)
    # The generator must reach every outcome, or the run proves less than it claims.
    assert states.get(InboxState.DONE, 0) > COUNT // 4, (states, context)
    assert states.get(InboxState.IGNORED, 0) > 10, (states, context)
    kinds = {sent.kind for sent in outbox}
    assert {"unreadable", "help"} <= kinds, (kinds, context)
