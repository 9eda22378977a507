"""The quick writer of replies gives the very bytes the standard library's writer gives."""

from __future__ import annotations

import random
import string
from datetime import UTC, datetime

import pytest

import judge.store.outbox as outbox
from judge import clock
from judge.store.outbox import Identity, compose, compose_bytes


@pytest.fixture(autouse=True)
def fixed_clock_and_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    clock.set_now(datetime(2026, 11, 22, 21, 0, tzinfo=UTC))
    ids = iter(range(10**6))
    monkeypatch.setattr(outbox, "make_msgid", lambda domain=None: f"<{next(ids)}@{domain}>")
    yield
    clock.reset()


def _words(rng: random.Random, count: int) -> str:
    alphabet = string.ascii_letters + string.digits + ".,:;!?()-'\""
    return " ".join(
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(count)
    )


@pytest.mark.parametrize("seed", range(300))
def test_quick_bytes_equal_the_standard_writer(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    identity = Identity(
        address="judge@example.org", name=rng.choice(["", "Diplomacy Judge", "The Judge (test)"])
    )
    subject = _words(rng, rng.randint(0, 30))
    body = "\n".join(_words(rng, rng.randint(0, 10)) for _ in range(rng.randint(0, 20)))
    refs = [f"<r{n}@example.net>" for n in range(rng.randint(0, 25))]
    in_reply_to = rng.choice([None, "<orig@example.net>"])
    reply_to = rng.choice([None, "judge+abcdefghijklmnop@example.org"])
    args = dict(
        to=f"player{seed}@example.net",
        subject=subject,
        body=body,
        in_reply_to=in_reply_to,
        references=refs,
        reply_to=reply_to,
    )
    message_id, quick = compose_bytes(identity, **args)
    monkeypatch.setattr(outbox, "make_msgid", lambda domain=None: message_id)  # the same id
    standard = compose(identity, **args).as_bytes()
    assert quick == standard
    assert (b"\r\nReply-To: judge+" in quick) == (reply_to is not None)


def test_non_ascii_subject_is_encoded_by_the_standard_writer() -> None:
    identity = Identity(address="judge@example.org", name="Judge")
    _id, raw = compose_bytes(
        identity, to="p@example.net", subject="Orders for Münster", body="ok\n"
    )
    headers = raw.split(b"\r\n\r\n", 1)[0]
    assert b"=?utf-8?q?M=C3=BCnster?=" in headers
    assert "Münster".encode() not in headers
