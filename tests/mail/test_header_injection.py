"""No text from a received mail may become a header, or a line break in a header, of the judge's.

Each hostile mail goes through the processor (the desk's replies echo its Subject) and the
sender into a Maildir; the test reads the bytes written there, as a mail program would.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.policy import default as default_policy
from pathlib import Path

import pytest
from sqlalchemy import Engine, select
from written_mail import assert_only_the_judges_headers

from judge import clock
from judge.mail.headers import clean_text, decode_words, header_value
from judge.mail.outbound import MaildirTransport, RetryPolicy, send_one
from judge.processor import ProcessorSettings, process_next
from judge.store import InboxMessage, InboxState, OutboxMessage, session_scope
from judge.store.inbox import accept
from judge.store.outbox import Identity, compose_bytes
from tests.migrated import migrated_sqlite

SETTINGS = ProcessorSettings(identity=Identity("judge@example.org", "Test Judge"))
POLICY = RetryPolicy(first=timedelta(minutes=1))
SENDER = "ann@example.org"
INJECTED = "\r\nReply-To: evil@attacker.test\r\nBcc: victim@attacker.test\r\n\r\nINJECTED BODY"


def q_word(text: str, charset: str = "utf-8", prefix: bytes = b"") -> str:
    data = prefix + text.encode("utf-8")
    encoded = "".join(
        chr(b) if b < 128 and chr(b).isalnum() else "_" if b == 32 else f"={b:02X}" for b in data
    )
    return f"=?{charset}?Q?{encoded}?="


def b_word(text: str, charset: str = "utf-8") -> str:
    return f"=?{charset}?B?{base64.b64encode(text.encode('utf-8')).decode()}?="


# Hostile header values: (name, raw bytes of the value as they arrive).
SUBJECTS = {
    "q-encoded": q_word(INJECTED).encode(),
    "b-encoded": b_word(INJECTED).encode(),
    "invalid-utf8-then-word": (q_word("", prefix=b"\xff") + " " + q_word(INJECTED)).encode(),
    "unknown-charset": (q_word("hi", "x-klingon") + " " + q_word(INJECTED, "x-klingon")).encode(),
    "rfc2231-language": q_word(INJECTED, "utf-8*en").encode(),
    "folded-words": (
        q_word("orders") + "\r\n " + q_word(INJECTED) + "\r\n\t" + b_word("x")
    ).encode(),
    "encoded-twice": q_word(q_word(INJECTED)).encode(),
    "latin1-cr-lf": q_word(INJECTED, "iso-8859-1").encode(),
    "raw-utf8-separators": "orders \u2028Reply-To: evil@attacker.test\u2029 \x85x".encode(),
    "nul-and-c0": b"orders\x00Reply-To: evil@attacker.test\x0b\x0c\x1b",
    "bare-cr": b"orders\rReply-To: evil@attacker.test",
    "c1-encoded": q_word("orders\u0085Reply-To: evil@attacker.test\u2028x").encode(),
    "long-with-words": (" ".join([q_word("word")] * 60) + " " + b_word(INJECTED)).encode(),
}
DISPLAY_NAMES = {
    "name-q": q_word(INJECTED).encode(),
    "name-b": b_word(INJECTED).encode(),
    "name-unknown-charset": q_word(INJECTED, "x-unknown").encode(),
    "name-raw-utf8": "J\u00f6rg\u2028\u0085Reply-To victim\u2029x".encode(),
    "name-quoted-folded": b'"Eve\r\n Bcc: victim@attacker.test\\x0d"',
}


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def hostile(subject: bytes, name: bytes = b"Ann", address: bytes = SENDER.encode()) -> bytes:
    return (
        b"From: " + name + b" <" + address + b">\r\nTo: judge@example.org\r\n"
        b"Subject: "
        + subject
        + b"\r\nMessage-ID: <m-"
        + str(abs(hash(subject + name))).encode()
        + b"@example.org>\r\n\r\nA PAR-BUR\r\n"
    )


def answer_written(engine: Engine, tmp_path: Path, raw: bytes) -> list[bytes]:
    """Process one mail, send its replies into a Maildir; the bytes of each mail written."""
    with session_scope(engine) as session:
        accept(session, raw, source="test", envelope_from=SENDER)
    while process_next(engine, SETTINGS) is not None:
        pass
    box = tmp_path / "maildir"
    transport = MaildirTransport(box)
    while send_one(engine, transport, POLICY):
        pass
    return [path.read_bytes() for path in sorted((box / "new").iterdir())]


@pytest.mark.parametrize("case", sorted(SUBJECTS))
def test_an_encoded_subject_never_becomes_a_header(
    engine: Engine, tmp_path: Path, case: str
) -> None:
    [written] = answer_written(engine, tmp_path, hostile(SUBJECTS[case]))
    assert_only_the_judges_headers(written)
    reply = message_from_bytes(written, policy=default_policy)
    assert reply["To"] == SENDER
    assert str(reply["Subject"]).startswith("Orders read:")


@pytest.mark.parametrize("case", sorted(DISPLAY_NAMES))
def test_an_encoded_display_name_never_becomes_a_header(
    engine: Engine, tmp_path: Path, case: str
) -> None:
    [written] = answer_written(engine, tmp_path, hostile(b"orders", name=DISPLAY_NAMES[case]))
    assert_only_the_judges_headers(written)
    assert message_from_bytes(written, policy=default_policy)["To"] == SENDER


@pytest.mark.parametrize(
    "address",
    [
        q_word("a\r\nBcc: victim@attacker.test").encode() + b"@example.org",
        b"=?utf-8?B?YQ0KQmNjOiB2aWN0aW1AYXR0YWNrZXIudGVzdA==?=@example.org",
        b"ann\x00@example.org",
    ],
)
def test_an_address_that_would_change_a_header_is_not_answered(
    engine: Engine, tmp_path: Path, address: bytes
) -> None:
    assert answer_written(engine, tmp_path, hostile(b"orders", address=address)) == []
    with session_scope(engine) as session:
        [row] = session.scalars(select(InboxMessage)).all()
        assert row.state == InboxState.IGNORED and row.outcome
        assert session.scalars(select(OutboxMessage)).all() == []


def test_decoding_is_full_and_cleaning_leaves_one_plain_line() -> None:
    assert decode_words(q_word(q_word("a\r\nb"))) == "a\r\nb"
    assert decode_words(q_word("x", "utf-8*de") + " \r\n " + b_word("y")) == "xy"
    assert decode_words(q_word("", prefix=b"\xff")) == "\ufffd"
    assert decode_words("=?x-klingon?Q?hi?=") == "hi"
    assert clean_text(q_word("a\r\nReply-To: b\u2028c\x85d\x00e")) == "a Reply-To: b c d e"
    # What is left can no longer be read as an encoded word by the mail library.
    assert "=?" not in clean_text("=?utf-8?Q?=3D=3F?=utf-8?Q?=0A?=")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("To", "ann@example.org\r\nBcc: v@x"),
        ("To", "=?utf-8?q?a?=@example.org"),
        ("To", "ann@example.org, v@x"),
        ("Reply-To", "ann\u2028@example.org"),
        ("References", "<a@b>\n<c@d>"),
        ("In-Reply-To", " <a@b>"),
    ],
)
def test_an_unsafe_address_or_id_is_refused_where_the_header_is_made(name: str, value: str) -> None:
    with pytest.raises(ValueError):
        header_value(name, value)
    args = {"to": "ann@example.org", "subject": "s", "body": "b\n"}
    args[
        {"To": "to", "Reply-To": "reply_to", "References": "in_reply_to"}.get(name, "in_reply_to")
    ] = value
    with pytest.raises(ValueError):
        compose_bytes(SETTINGS.identity, **args)  # type: ignore[arg-type]


def test_the_maildir_refuses_delivery_headers_that_would_break_a_line(
    engine: Engine, tmp_path: Path
) -> None:
    with session_scope(engine) as session:
        session.add(
            OutboxMessage(
                message_id="<forged@example.org>",
                kind="test",
                envelope_from="judge@example.org",
                to_addr="ann@example.org\nBcc: victim@attacker.test",
                subject="s",
                raw=b"Subject: s\r\n\r\nbody\r\n",
                created_at=clock.now(),
                state="pending",
                attempts=0,
                next_attempt_at=clock.now(),
            )
        )
    box = tmp_path / "maildir"
    assert send_one(engine, MaildirTransport(box), POLICY)
    assert list((box / "new").iterdir()) == []
    with session_scope(engine) as session:
        [row] = session.scalars(select(OutboxMessage)).all()
        assert row.state == "failed" and "control" in (row.last_error or "")


def test_any_subject_or_name_at_all_leaves_only_the_judges_headers() -> None:
    """Random text from a seeded mix of encoded words, controls, separators and plain words."""
    rng = random.Random(2047)
    alphabet = ["\r", "\n", "\x00", "\x85", "\u2028", "\u2029", "\x1b", " ", "=?", "?=", "ü", "x"]
    for _ in range(400):
        pieces = []
        for _ in range(rng.randint(1, 8)):
            choice = rng.randrange(4)
            if choice == 0:
                pieces.append(
                    q_word(INJECTED, rng.choice(["utf-8", "x-no", "latin-1", "utf-8*en"]))
                )
            elif choice == 1:
                pieces.append(b_word(rng.choice([INJECTED, "ok", "\u2028"])))
            else:
                pieces.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))))
        text = rng.choice(["", " "]).join(pieces)
        cleaned = header_value("Subject", text)
        assert header_value("Subject", cleaned) == cleaned  # nothing left to decode or clean
        identity = Identity("judge@example.org", text)
        _, raw = compose_bytes(identity, to=SENDER, subject=text, body="b\n", in_reply_to="<a@b>")
        assert_only_the_judges_headers(raw)
