"""SIGKILL storm while pictures are drawn: a game's phases processed one after another, each
sending eight results mails that wait for their picture, the daemon killed at random moments
while the picture step draws and the Maildir sender sends, and restarted each time. Every
results mail must reach the Maildir exactly once, and with its SVG and PNG: a kill between
drawing and attaching loses nothing (the row still waits and is drawn again), one after it draws
nothing twice, and the sender never takes a mail before its picture is on it.

Kills are aimed at moments of drawing or sending (right after either count rose), at random
offsets from a seed printed with any failure (STORM_SEED replays a run).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable
from email import message_from_bytes
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from harness import JudgeProcess, judge_sections
from sqlalchemy import func, select

from judge.identity import reply_to_address
from judge.store.db import session_scope
from judge.store.games import Game, GameStatus
from judge.store.inbox import accept
from judge.store.models import InboxMessage, InboxState, OutboxMessage, OutboxState

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

JUDGE = "judge@pictures.test"
GM = "gm@pictures.test"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
PHASES = 12  # PROCESS mails; each sends a results mail to the seven players and the GM
KILLS = 12


def _mail(sender: str, body: str, message_id: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = JUDGE
    message["Subject"] = "pictures"
    message["Message-ID"] = f"<{message_id}@pictures.test>"
    message.set_content(body)
    return bytes(message)


def _put(judge: JudgeProcess, raw: bytes, sender: str, to: str = JUDGE) -> None:
    with session_scope(judge.engine) as session:
        accept(session, raw, source="test", envelope_to=to, envelope_from=sender)


def _progress(judge: JudgeProcess) -> tuple[int, int]:
    """(results mails whose picture is attached, mails sent)."""
    with session_scope(judge.engine) as session:
        drawn = session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.kind == "results", OutboxMessage.picture.is_(None))
        )
        sent = session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.state == OutboxState.SENT)
        )
    return int(drawn or 0), int(sent or 0)


def _maildir(box: Path) -> dict[str, list[bytes]]:
    """Message-ID -> the raw mail of every copy in new/ and cur/."""
    found: dict[str, list[bytes]] = {}
    for sub in ("new", "cur"):
        for path in (box / sub).iterdir():
            raw = path.read_bytes()
            message = message_from_bytes(raw)
            found.setdefault(str(message["Message-ID"]).strip(), []).append(raw)
    return found


def test_every_results_mail_lands_once_with_its_picture_through_a_sigkill_storm(
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., JudgeProcess],
    wait_until: Callable[..., Any],
) -> None:
    seed = int(os.environ.get("STORM_SEED", random.SystemRandom().randrange(1 << 30)))
    rng = random.Random(seed)
    context = f"seed {seed} (rerun with STORM_SEED={seed})"
    sections = judge_sections(tmp_path, database_url, JUDGE)  # no relay: the Maildir sender
    sections["processor"].update(claim_seconds=2.0)
    sections["outbound"]["claim_seconds"] = 2.0
    judge = judge_process(sections)
    box = tmp_path / "data" / "outbox-maildir"
    judge.start()
    judge.wait_ready()

    _put(judge, _mail(GM, "CREATE pictures gmsecret standard", "create"), GM)
    for power in POWERS:
        player = f"{power.lower()}@pictures.test"
        _put(judge, _mail(player, f"SIGNON {power} pictures pw-{power}", f"s-{power}"), player)

    def gm_token() -> str | None:
        judge.assert_alive()
        with session_scope(judge.engine) as session:
            game = session.scalars(select(Game).where(Game.name == "pictures")).first()
            return game.gm_token if game and game.status == GameStatus.ACTIVE else None

    token = wait_until(gm_token, timeout=120, what="the game started")
    _put(judge, _mail(GM, "PAUSE\n", "pause"), GM, to=reply_to_address(JUDGE, token))
    wait_until(lambda: judge.settled(9), timeout=120, what="the game's first mails sent")
    for n in range(PHASES):
        # One phase a mail: paused in between, so the scheduler runs none of its own (with
        # every power missing its orders it would otherwise run the game on by itself).
        body = "RESUME\nPROCESS\nPAUSE\n"
        _put(judge, _mail(GM, body, f"process-{n}-{seed}"), GM, to=reply_to_address(JUDGE, token))
    try:
        while judge.kills < KILLS:
            if judge.settled(PHASES + 9):
                break
            before = _progress(judge)
            wait_until(
                lambda before=before: judge.assert_alive() or _progress(judge) != before,
                timeout=120,
                what=f"drawing or sending after restart {judge.starts}; {context}",
            )
            time.sleep(rng.uniform(0.0, 0.4))
            judge.kill()
            judge.start()
        wait_until(
            lambda: judge.assert_alive() or judge.settled(PHASES + 9),
            timeout=300,
            what=f"every phase processed and every mail sent; {context}",
        )
    except AssertionError as error:
        raise AssertionError(f"{error}\n{judge.log_tail()}") from None
    judge.stop()

    with session_scope(judge.engine) as session:
        inbox = dict(
            session.execute(
                select(InboxMessage.state, func.count()).group_by(InboxMessage.state)
            ).all()
        )
        rows = session.execute(
            select(OutboxMessage.message_id, OutboxMessage.kind, OutboxMessage.state)
        ).all()
        waiting = session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.picture.is_not(None))
        )
    assert inbox == {InboxState.DONE: PHASES + 9}, context
    assert {state for _, _, state in rows} == {OutboxState.SENT}, context
    assert waiting == 0, context
    results = [m for m, kind, _ in rows if kind == "results"]
    assert len(results) >= PHASES * (len(POWERS) + 1), context
    in_maildir = _maildir(box)
    counts = Counter({m: len(copies) for m, copies in in_maildir.items()})
    lost = {m for m, _, _ in rows} - set(in_maildir)
    doubled = {m: c for m, c in counts.items() if c > 1}
    print(
        f"Picture storm ({judge.engine.dialect.name}): {PHASES} phases, {len(results)} results "
        f"mails, {judge.kills} kills: {len(lost)} lost, {len(doubled)} doubled; {context}"
    )
    assert not lost and not doubled, f"lost {sorted(lost)[:3]}, doubled {doubled}; {context}"
    for message_id in results:
        (raw,) = in_maildir[message_id]
        types = {part.get_content_type() for part in message_from_bytes(raw).walk()}
        assert {"text/plain", "image/svg+xml", "image/png"} <= types, (message_id, context)
