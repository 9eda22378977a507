"""Publishing press: who may read a release and how it is shown (`may_read`, `release_view`,
which keeps grey writers hidden: anything that shows stored press to readers goes through it),
the mails that publish one release now, the press kept for the results (`press_with_results`,
after each phase) and the GM's WITHHOLD and RELEASE (seed 004 II.C). Press as a whole: press.py."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.clock import now
from judge.desk.mail_state import (
    MailState,
    game_readers,
    gm_reply_address,
    gm_required,
    power_title,
)

# Where the press settings are kept in Game.settings, and their defaults.
from judge.desk.press_rules import GREY, MASTER, OBSERVER, TO_ALL, TO_MASTER, Writer, press_rules
from judge.desk.replies import Reply
from judge.language import command_values as cv
from judge.store.games import Game, Press


def press_number(session: Session, row: Press) -> int:
    """The release's number in its game: 1 for the game's first press, and so on."""
    count = session.scalar(
        select(func.count(Press.id)).where(Press.game_id == row.game_id, Press.id <= row.id)
    )
    return int(count or 0)


def _to_all(row: Press) -> bool:
    return row.to_powers is None or TO_ALL in row.to_powers


def may_read(row: Press, power: str | None, *, master: bool = False) -> bool:
    """Whether a reader (a power's player, an observer with power None, or the GM) may read the
    release: the GM reads everything, partial press only its powers."""
    if master or _to_all(row):
        return True
    return power is not None and power in (row.to_powers or [])


def _writer_words(game: Game, row: Press) -> str:
    if row.from_power == MASTER:
        return "the GM"
    if row.from_power == OBSERVER:
        return "an observer"
    return power_title(game, row.from_power) if row.from_power else "Someone"


def readers_words(game: Game, row: Press) -> str:
    if _to_all(row):
        return "everyone in the game (players, observers and the GM)"
    names = [power_title(game, p) for p in row.to_powers or [] if not p.startswith("+")]
    return ", ".join(names) + " and the GM" if names else "the GM alone"


def release_view(
    game: Game, row: Press, number: int, *, master: bool, writer_view: bool = False
) -> dict[str, Any]:
    """One release as a reader may see it: the writer is named only for white press (and to the
    GM, who also sees an observer's address); partial press names its recipients."""
    grey = GREY in (row.to_powers or [])
    shown = master or writer_view or not grey
    to = (
        []
        if _to_all(row)
        else [power_title(game, p) for p in row.to_powers or [] if not p.startswith("+")]
    )
    if not _to_all(row) and TO_MASTER in (row.to_powers or []):
        to.append("the GM")
    writer = _writer_words(game, row)
    if master and row.from_power == OBSERVER and row.author is not None:
        writer = f"an observer (From: {row.author.address_of_record}, unproven)"
    body = f"{row.dateline}{row.text}" if row.dateline else row.text
    return {
        "number": number if master else None,
        "sender": writer if shown else None,
        "grey": grey,
        "to": to,
        "text": body.strip("\n"),
    }


def release_mails(
    session: Session, game: Game, row: Press, judge_address: str, writer: Writer | None
) -> list[Reply]:
    """The mails that publish one release now: one to each reader who may read it, the GM's
    copy with the number and the writer; nothing to the writer (who gets a confirmation)."""
    number = press_number(session, row)
    writer_address = writer.person.address_of_record if writer is not None else None
    mails: list[Reply] = []
    for reader in game_readers(session, game, judge_address):
        if reader.address == writer_address or not may_read(
            row, reader.power, master=reader.master
        ):
            continue
        view = release_view(game, row, number, master=reader.master)
        context = {
            "game": game.name,
            "phase": game.phase or "",
            "release": view,
            "master": reader.master,
            "pending": False,
        }
        mails.append(
            Reply("press", "press_release", context, to=reader.address, reply_to=reader.reply_to)
        )
    return mails


def master_copy(
    game: Game, row: Press, number: int, judge_address: str, *, pending: bool
) -> list[Reply]:
    if game.gm is None or not game.gm.address_of_record:
        return []
    context = {
        "game": game.name,
        "phase": game.phase or "",
        "release": release_view(game, row, number, master=True),
        "master": True,
        "pending": pending,
    }
    return [
        Reply(
            "press",
            "press_release",
            context,
            to=game.gm.address_of_record,
            reply_to=gm_reply_address(judge_address, game),
        )
    ]


# --- WITHHOLD and RELEASE ------------------------------------------------------------------------


def _numbered(
    state: MailState, game: Game, command: cv.WithholdPress | cv.ReleasePress
) -> Press | None:
    rows = list(
        state.session.scalars(
            select(Press)
            .where(Press.game_id == game.id)
            .order_by(Press.id)
            .offset(max(command.number - 1, 0))
            .limit(1)
        )
    )
    if command.number < 1 or not rows:
        state.problems.append(
            f"line {command.line_no}: game {game.name} has no press #{command.number}"
        )
        return None
    row = rows[0]
    if row.published_at is not None:
        state.problems.append(
            f"line {command.line_no}: press #{command.number} of game {game.name} was published "
            f"already ({row.published_at:%Y-%m-%d %H:%M} UTC); nothing was changed"
        )
        return None
    return row


def _withhold(state: MailState, command: cv.WithholdPress) -> None:
    """WITHHOLD n: a release kept for the results does not go out with them."""
    game = gm_required(state, command)
    if game is None:
        return
    row = _numbered(state, game, command)
    if row is None:
        return
    row.held = True
    state.replies.append(_held_reply(game, row, command.number, published=False))


def _release(state: MailState, command: cv.ReleasePress) -> None:
    """RELEASE n: a withheld release goes out with the next results, or at once in a game that
    publishes press NOW."""
    game = gm_required(state, command)
    if game is None:
        return
    row = _numbered(state, game, command)
    if row is None:
        return
    row.held = False
    published = press_rules(game).publish == "now"
    if published:
        row.published_at = now()
        state.replies.extend(
            release_mails(state.session, game, row, state.where.judge_address, None)
        )
    state.replies.append(_held_reply(game, row, command.number, published=published))


def _held_reply(game: Game, row: Press, number: int, *, published: bool) -> Reply:
    return Reply(
        "press_held",
        "press_held",
        {
            "game": game.name,
            "phase": game.phase or "",
            "number": number,
            "held": row.held,
            "published": published,
        },
    )


# --- with the results ----------------------------------------------------------------------------


def press_with_results(session: Session, game: Game, judge_address: str) -> list[Reply]:
    """The press releases kept for the results (SET PUBLISH RESULTS), as mails to their readers:
    one mail per reader with every kept, not withheld release that reader may read, in the
    order written. The releases are marked published."""
    rows = list(
        session.scalars(
            select(Press)
            .where(Press.game_id == game.id, Press.published_at.is_(None), Press.held.is_(False))
            .order_by(Press.id)
        )
    )
    if not rows:
        return []
    numbers = {row.id: press_number(session, row) for row in rows}
    mails: list[Reply] = []
    for reader in game_readers(session, game, judge_address):
        readable = [r for r in rows if may_read(r, reader.power, master=reader.master)]
        if not readable:
            continue
        context = {
            "game": game.name,
            "phase": game.phase or "",
            "master": reader.master,
            "releases": [
                release_view(game, r, numbers[r.id], master=reader.master) for r in readable
            ],
        }
        mails.append(
            Reply("press", "press_digest", context, to=reader.address, reply_to=reader.reply_to)
        )
    published = now()
    for row in rows:
        row.published_at = published
    return mails


HANDLERS = {
    cv.WithholdPress: _withhold,
    cv.ReleasePress: _release,
}
