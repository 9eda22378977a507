"""Real mails from real mail programs, read in place from the shared mail corpus.

Every mail of ../shared/mail-corpus (MANIFEST.md lists them with their categories) is given a
known command block at the top of its first text part, in that part's own charset and transfer
encoding, and goes through the processor as any mail does. A person's mail is answered with
exactly the block's commands read and no error for anything else the writer's program put
around them (quotes, signatures, closings, footers, attachments); automated mail (bounces,
read receipts, abuse and feedback reports, bulk and list mail) gets no answer at all.
"""

from __future__ import annotations

import base64
import os
import quopri
import re
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import Message
from email.parser import BytesParser
from email.policy import compat32
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from judge import clock
from judge.mail.mime import read_mail
from judge.processor import ProcessorSettings, process_next
from judge.store import InboxMessage, InboxState, OutboxMessage, make_engine, session_scope, upgrade
from judge.store.inbox import accept
from judge.store.outbox import Identity

ROOT = Path(__file__).resolve().parents[2]
# The block every mail is given: a command and three orders, none of which needs a game.
BLOCK = ("HELP", "A PAR-BUR", "F LON-NTH", "A MUN H")
ORDERS_READ = ("= Army Paris -> Burgundy", "= Fleet London -> North Sea", "= Army Munich holds")
# Categories (MANIFEST.md) of mail no program should answer.
AUTOMATED = ("bounce", "read receipt", "abuse report", "complaint", "bulk", "mailing list (")
# The writer's own prose in these read as orders once (a line opening with a province's
# abbreviation, a "Word:" label, a word near a command): each is a person's words by
# judge.language.commands' rule that a line none of whose other words is an order's is prose.
# Strict: a mail that must still be answered with an error is named here with the reason.
PROSE_READ_AS_ORDERS: dict[str, str] = {}
SETTINGS = ProcessorSettings(
    identity=Identity("judge@example.org", "Test Judge"), replies_per_day=0
)


def corpus_dir() -> Path | None:
    """../shared/mail-corpus beside the checkout (or beside a folder above it)."""
    for folder in ROOT.parents:
        candidate = folder / "shared" / "mail-corpus"
        if (candidate / "MANIFEST.md").is_file():
            return candidate
    return None


def fixtures() -> list[tuple[str, str]]:
    """(id, categories) of every mail the manifest lists."""
    folder = corpus_dir()
    if folder is None:
        return []
    rows = []
    for line in (folder / "MANIFEST.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] not in ("id", "---") and not cells[0].startswith("-"):
            rows.append((cells[0], cells[6]))
    return rows


def _missing_corpus() -> None:
    reason = "the shared mail corpus (../shared/mail-corpus) is not beside this checkout"
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def test_the_corpus_is_there_and_whole() -> None:
    if corpus_dir() is None:
        _missing_corpus()
    assert len(fixtures()) == 107


def _first_text_part(message: Message) -> Message | None:
    """The part a person's new text is in: the first plain part, else the first HTML part,
    outside any attached mail and attachment."""
    found: dict[str, Message] = {}
    for part in message.walk():
        if part.get_content_type() == "message/rfc822":
            break
        disposition = str(part.get("Content-Disposition") or "").split(";")[0].strip().lower()
        if part.is_multipart() or disposition == "attachment":
            continue
        body = part.get_payload(decode=True)
        if isinstance(body, bytes) and body.strip():  # an empty plain part is not written in
            found.setdefault(part.get_content_type(), part)
    return found.get("text/plain") or found.get("text/html")


def _transfer_decode(encoded: bytes, encoding: str) -> bytes:
    if encoding == "base64":
        return base64.b64decode(encoded)
    if encoding == "quoted-printable":
        return quopri.decodestring(encoded)
    return encoded


def _transfer_encode(decoded: bytes, encoding: str, newline: bytes) -> bytes:
    if encoding == "base64":
        flat = base64.b64encode(decoded)
        return newline.join(flat[i : i + 76] for i in range(0, len(flat), 76)) + newline
    if encoding == "quoted-printable":
        return quopri.encodestring(decoded).replace(b"\r\n", b"\n").replace(b"\n", newline)
    return decoded


def with_block(raw: bytes) -> bytes:
    """The mail with BLOCK above the first line of its first text part, in the part's charset
    and transfer encoding (every charset of the corpus writes ASCII as ASCII, so the block's
    bytes go in front of the part's decoded bytes); the rest of the mail byte for byte."""
    message = BytesParser(policy=compat32).parsebytes(raw)
    part = _first_text_part(message)
    if part is None:
        return raw
    newline = b"\r\n" if b"\r\n" in raw else b"\n"
    payload = part._payload  # as parsed: 8-bit bytes kept as surrogates, not decoded
    assert isinstance(payload, str)
    encoded = payload.encode("ascii", "surrogateescape")
    start = raw.find(encoded) if encoded else -1
    assert encoded == b"" or start >= 0, "the part's body is not found in the mail"
    encoding = (part.get("Content-Transfer-Encoding") or "7bit").strip().lower()
    decoded = _transfer_decode(encoded, encoding)
    lines = [line.encode("ascii") for line in BLOCK]
    if part.get_content_type() == "text/html":
        block = b"<p>" + b"<br>".join(lines) + b"</p>" + newline
        body = re.search(rb"<body[^>]*>", decoded, re.IGNORECASE)
        at = body.end() if body else 0
        changed = decoded[:at] + block + decoded[at:]
    else:
        changed = newline.join(lines) + newline + decoded
    new = _transfer_encode(changed, encoding, newline)
    if not encoded:
        # An empty part: its body starts after the blank line that ends its headers.
        head = raw.find(newline + newline, raw.find(_header_bytes(part)))
        start = head + 2 * len(newline)
        return raw[:start] + new + raw[start:]
    return raw[:start] + new + raw[start + len(encoded) :]


def _header_bytes(part: Message) -> bytes:
    name, value = next(iter(part.raw_items()))
    return f"{name}: {value}".split("\n")[0].encode("ascii", "surrogateescape").rstrip(b"\r")


def unanswerable(raw: bytes) -> bool:
    """A mail the judge never answers by its headers (DESIGN: mailing lists, bulk mail): one
    with List-* headers or a Precedence of bulk, list or junk, or with no From: at all."""
    headers = BytesParser(policy=compat32).parsebytes(raw, headersonly=True)
    names = {name.lower() for name in headers}
    precedence = str(headers.get("Precedence") or "").strip().lower()
    listed = any(name.startswith("list-") for name in names)
    return listed or precedence in ("bulk", "list", "junk") or "from" not in names


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "judge.sqlite3"
    made = make_engine(f"sqlite:///{path}")
    upgrade(made)
    made.dispose()
    return path


@pytest.fixture
def engine(migrated: Path, tmp_path: Path) -> Iterator[Engine]:
    path = tmp_path / "judge.sqlite3"
    shutil.copyfile(migrated, path)
    made = make_engine(f"sqlite:///{path}")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


def _cases() -> list[object]:
    cases: list[object] = []
    for name, categories in fixtures() or [("(none)", "")]:
        reason = PROSE_READ_AS_ORDERS.get(name)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        cases.append(pytest.param(name, categories, id=name, marks=marks))
    return cases


@pytest.mark.parametrize(("name", "categories"), _cases())
def test_a_real_mail_is_read_as_its_writer_meant(
    engine: Engine, name: str, categories: str
) -> None:
    folder = corpus_dir()
    if folder is None:
        _missing_corpus()
    assert folder is not None
    raw = with_block((folder / "fixtures" / f"{name}.eml").read_bytes())
    with session_scope(engine) as session:
        row_id, _ = accept(session, raw, source="corpus")
    while process_next(engine, SETTINGS) is not None:
        pass
    with session_scope(engine) as session:
        row = session.get(InboxMessage, row_id)
        assert row is not None
        sent = list(session.scalars(select(OutboxMessage).where(OutboxMessage.inbox_id == row_id)))
        state, outcome = row.state, row.outcome
    if any(word in categories for word in AUTOMATED) or unanswerable(raw):
        assert (state, sent) == (InboxState.IGNORED, []), outcome
        return
    read = read_mail(raw)
    if _first_text_part(BytesParser(policy=compat32).parsebytes(raw)) is None:
        assert [mail.kind for mail in sent] == ["unreadable"], outcome  # says why, no more
        return
    assert state == InboxState.DONE, outcome
    assert [mail.kind for mail in sent] == ["help+echo"], (outcome, read.text)
    answer = message_from_bytes(sent[0].raw).get_payload(decode=True).decode()
    echoed = [line.strip() for line in answer.splitlines() if line.startswith("    = ")]
    assert echoed == list(ORDERS_READ), read.text
    assert "ERROR" not in answer and "0 of 3 lines had errors" in answer, read.text
    assert "\ufffd" not in read.text, read.text
