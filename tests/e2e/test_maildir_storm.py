"""SIGKILL storm with the Maildir sender: hundreds of mails, eight replies each, the daemon killed
at random moments while it sends and restarted each time. Every reply must be in the Maildir
exactly once: none lost, none doubled, and no unfinished file left in tmp/.

The Maildir names each file after its outbox row, so a reply handed over again (a kill fell after
the file was renamed into new/ and before the row was marked sent) replaces its first copy.
Kills are aimed at moments of sending (right after the sent count rose), at random offsets from a
seed printed with any failure (STORM_SEED replays a run).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import compat32
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

JUDGE = "judge@storm.test"
GM = "gm@storm.test"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
BATCH = 100  # mails put at once, each a BROADCAST by the GM: seven players get it, the GM a
# confirmation
MAX_MAILS = 2_000
REPLIES_PER_MAIL = len(POWERS) + 1
LOW_WATER = 2 * REPLIES_PER_MAIL * 10  # replies still to send below which another batch goes in
KILLS = 25


def _mail(sender: str, body: str, message_id: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = JUDGE
    message["Subject"] = "storm"
    message["Message-ID"] = f"<{message_id}@storm.test>"
    message.set_content(body)
    return bytes(message)


def _put(judge: JudgeProcess, raw: bytes, sender: str, to: str = JUDGE) -> None:
    """Store one mail in the inbox, as the listener would (the intake is not what is tested)."""
    with session_scope(judge.engine) as session:
        accept(session, raw, source="test", envelope_to=to, envelope_from=sender)


def _sent(judge: JudgeProcess) -> int:
    with session_scope(judge.engine) as session:
        count = session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.state == OutboxState.SENT)
        )
    return int(count or 0)


def _maildir_message_ids(box: Path) -> Counter[str]:
    """The Message-ID of every file in new/ and cur/, counted (a doubled reply counts 2)."""
    found: Counter[str] = Counter()
    for sub in ("new", "cur"):
        for path in (box / sub).iterdir():
            headers = BytesHeaderParser(policy=compat32).parsebytes(path.read_bytes())
            found[str(headers["Message-ID"]).strip()] += 1
    return found


def test_every_reply_lands_in_the_maildir_exactly_once_through_a_sigkill_storm(
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., JudgeProcess],
    wait_until: Callable[..., Any],
) -> None:
    seed = int(os.environ.get("STORM_SEED", random.SystemRandom().randrange(1 << 30)))
    rng = random.Random(seed)
    context = f"seed {seed} (rerun with STORM_SEED={seed})"
    sections = judge_sections(tmp_path, database_url, JUDGE)  # no relay: the Maildir sender
    sections["processor"].update(replies_per_day=1_000_000, claim_seconds=2.0)
    sections["outbound"]["claim_seconds"] = 2.0
    judge = judge_process(sections)
    box = tmp_path / "data" / "outbox-maildir"
    judge.start()
    judge.wait_ready()

    # A running game: the GM creates it, seven players sign on.
    _put(judge, _mail(GM, "CREATE storm gmsecret standard", "create"), GM)
    for power in POWERS:
        player = f"{power.lower()}@storm.test"
        _put(judge, _mail(player, f"SIGNON {power} storm pw-{power}", f"signon-{power}"), player)

    def gm_token() -> str | None:
        judge.assert_alive()
        with session_scope(judge.engine) as session:
            game = session.scalars(select(Game).where(Game.name == "storm")).first()
            return game.gm_token if game and game.status == GameStatus.ACTIVE else None

    token = wait_until(gm_token, timeout=120, what="the game started")
    to_gm_address = reply_to_address(JUDGE, token)
    wait_until(lambda: judge.settled(8), timeout=120, what="the game's first mails sent")
    before = _sent(judge)

    # The storm: mails in batches, the daemon killed while it sends. A fast sender can empty the
    # queue before every kill has landed: then another batch goes in, so the count of kills never
    # depends on how fast this machine is.
    mails = 0

    def put_batch() -> None:
        nonlocal mails
        for n in range(mails, mails + BATCH):
            body = f"BROADCAST\nStorm bulletin {n}: all quiet.\nENDPRESS\n"
            _put(judge, _mail(GM, body, f"storm-{n}-{seed}"), GM, to=to_gm_address)
        mails += BATCH

    for _ in range(3):
        put_batch()
    try:
        while judge.kills < KILLS:
            sent = _sent(judge)
            if before + mails * REPLIES_PER_MAIL - sent < LOW_WATER:
                if mails >= MAX_MAILS:
                    break  # the count of kills below says how far the storm got
                put_batch()
            wait_until(
                lambda sent=sent: judge.assert_alive() or _sent(judge) > sent,
                timeout=120,
                what=f"sending after restart {judge.starts}; {context}",
            )
            time.sleep(rng.uniform(0.0, 0.1))  # soon, or a fast sender empties the queue first
            judge.kill()
            judge.start()
        wait_until(
            lambda: judge.assert_alive() or judge.settled(mails + 8),
            timeout=300,
            what=f"every mail handled and every reply sent; {context}",
        )
    except AssertionError as error:
        raise AssertionError(f"{error}\n{judge.log_tail()}") from None
    expected = before + mails * REPLIES_PER_MAIL
    assert judge.kills == KILLS, f"only {judge.kills} kills landed; {context}"
    judge.stop()

    with session_scope(judge.engine) as session:
        inbox = session.execute(
            select(InboxMessage.state, func.count()).group_by(InboxMessage.state)
        )
        assert dict(inbox.all()) == {InboxState.DONE: mails + 8}, context
        rows = session.execute(select(OutboxMessage.message_id, OutboxMessage.state)).all()
    assert len(rows) == expected and {state for _, state in rows} == {OutboxState.SENT}, context
    in_maildir = _maildir_message_ids(box)
    lost = {m for m, _ in rows} - set(in_maildir)
    doubled = {m: c for m, c in in_maildir.items() if c > 1}
    print(
        f"Maildir storm ({judge.engine.dialect.name}): {mails} mails, {len(rows)} replies, "
        f"{judge.kills} kills: {len(lost)} lost, {len(doubled)} doubled; {context}"
    )
    assert not lost, f"{len(lost)} replies lost; {context}"
    assert not doubled, f"{len(doubled)} replies doubled: {sorted(doubled)[:5]}; {context}"
    assert sum(in_maildir.values()) == len(rows), context
    assert list((box / "tmp").iterdir()) == [], context


HARSH_MAILS = 600
HARSH_KILLS = 30
HARSH_TOP_UP = 100  # more mails whenever every mail is answered before the kills are done
HARSH_MORE = 2_000  # at most this many mails in all


def test_a_harsh_storm_of_kills_holds_loses_and_doubles_nothing(
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., JudgeProcess],
    wait_until: Callable[..., Any],
) -> None:
    """600 mails waiting, the daemon killed 30 times 0.2 to 0.8 s apart, each time while a mail
    is claimed, with the processor's own limits (a mail is held after three cut-short runs of
    its own): a mail cut short by the daemon's death is no poison mail, so none is held, and
    every answer goes out once."""
    seed = int(os.environ.get("STORM_SEED", random.SystemRandom().randrange(1 << 30)))
    rng = random.Random(seed)
    context = f"seed {seed} (rerun with STORM_SEED={seed})"
    sections = judge_sections(tmp_path, database_url, JUDGE)
    sections["processor"].update(replies_per_day=1_000_000, claim_seconds=2.0)
    sections["outbound"]["claim_seconds"] = 2.0
    judge = judge_process(sections)
    box = tmp_path / "data" / "outbox-maildir"
    judge.start()
    judge.wait_ready()
    # One mail in ten creates a game, so needs a password hashed (argon2, a tenth of a second
    # and more) between two runs of its transaction: slow work a kill may fall into.
    sent = 0

    def put(count: int) -> None:
        nonlocal sent
        for n in range(sent, sent + count):
            sender = f"player{n % 50}@storm.test"
            body = f"CREATE harsh{n} secret-{n} standard\n" if n % 10 == 0 else "HELP\nA PAR-BUR\n"
            _put(judge, _mail(sender, body, f"harsh-{n}-{seed}"), sender)
        sent += count

    def state_counts() -> dict[InboxState, int]:
        with session_scope(judge.engine) as session:
            return dict(
                session.execute(
                    select(InboxMessage.state, func.count()).group_by(InboxMessage.state)
                ).all()
            )

    def working() -> bool:
        """A mail claimed and not finished: a kill now cuts its processing short. A fast
        machine may answer every mail before the kills are done: then more go in (up to
        HARSH_MORE at most), so the count of kills never depends on the machine's speed."""
        with session_scope(judge.engine) as session:
            claimed = session.scalar(
                select(func.count())
                .select_from(InboxMessage)
                .where(
                    InboxMessage.state == InboxState.NEW, InboxMessage.claimed_until.is_not(None)
                )
            )
        if not claimed and state_counts().get(InboxState.NEW, 0) == 0 and sent < HARSH_MORE:
            put(HARSH_TOP_UP)
        return bool(claimed)

    put(HARSH_MAILS)
    try:
        for _ in range(HARSH_KILLS):
            time.sleep(rng.uniform(0.2, 0.8))
            # Aimed: the kill falls while a mail is being worked on (the first after a restart
            # is the one the last kill cut short), as a storm that cuts short the same innocent
            # mail again and again would.
            wait_until(
                lambda: judge.assert_alive() or working(), timeout=60, what=f"work; {context}"
            )
            judge.kill()
            judge.start()
        wait_until(
            lambda: judge.assert_alive() or judge.settled(sent),
            timeout=300,
            what=f"every mail handled and every reply sent; {context}",
        )
    except AssertionError as error:
        raise AssertionError(f"{error}\n{judge.log_tail()}") from None
    assert judge.kills == HARSH_KILLS, context
    judge.stop()
    with session_scope(judge.engine) as session:
        states = dict(
            session.execute(
                select(InboxMessage.state, func.count()).group_by(InboxMessage.state)
            ).all()
        )
        rows = session.execute(select(OutboxMessage.message_id, OutboxMessage.inbox_id)).all()
        held = session.scalars(
            select(InboxMessage.error).where(InboxMessage.state == InboxState.HELD)
        ).all()
    assert states == {InboxState.DONE: sent}, f"{states}: {held[:2]}; {context}"
    # One answer per mail (a CREATE's answer is its only mail: nobody has signed on).
    assert len(rows) == sent and len({i for _, i in rows}) == sent, context
    in_maildir = _maildir_message_ids(box)
    lost = {m for m, _ in rows} - set(in_maildir)
    doubled = {m: c for m, c in in_maildir.items() if c > 1}
    print(
        f"harsh storm ({judge.engine.dialect.name}): {sent} mails, {judge.kills} kills: "
        f"{len(lost)} lost, {len(doubled)} doubled, held {states.get(InboxState.HELD, 0)}; "
        f"{context}"
    )
    assert not lost and not doubled, context
