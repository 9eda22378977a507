"""The picture step: draws the pictures the outbox's rows wait for and attaches them, outside
the processor's transaction, so a game's processing never waits for a picture.

The processor writes a results mail (or a MAP answer) with what its picture is drawn from in
the row's `picture` (judge/store/outbox.py `enqueue`); the sender claims no such row. This step
reads a few waiting rows, draws each picture with no transaction open, then in one short
transaction replaces the row's mail by the same mail with the SVG and PNG attached and clears
`picture`, only where `picture` is still set. So a crash before that commit leaves the row as it
was (drawn again on the next run: nothing lost), a crash after it leaves a finished row (drawn
once), and the sender never sees a row half done: nothing is sent twice or without its picture
because of the step. Rows of one phase whose readers may all see the same picture (a public
board) share one drawing. A mail carries at most PICTURE_BUDGET bytes of pictures: the PNG,
and the SVG with it where both fit. A picture that cannot be drawn (a stored position this judge can no
longer read) is logged and its mail sent without it, never held back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine, Table, bindparam, select, update

from judge.pictures.png import png_of
from judge.pictures.source import PictureSource, picture_svgs, shown_as
from judge.store import notify
from judge.store.db import session_scope
from judge.store.models import OutboxMessage, OutboxState
from judge.store.outbox import Attachment, with_attachments

log = logging.getLogger("judge.pictures")

_OUTBOX: Table = OutboxMessage.__table__  # type: ignore[assignment]
BATCH = 32  # rows read at a time: a phase's results mails, usually, so they share a drawing
# The most bytes of pictures a mail carries: the PNG always, the SVG too where both fit (the
# pictures of the standard board and of a reader's part do; the whole of a wide board, for its
# GM or observers, may not).
PICTURE_BUDGET = 400 * 1024

_WAITING = (
    select(_OUTBOX.c.id, _OUTBOX.c.raw, _OUTBOX.c.picture)
    .where(_OUTBOX.c.state == OutboxState.PENDING, _OUTBOX.c.picture.is_not(None))
    .order_by(_OUTBOX.c.id)
    .limit(bindparam("limit"))
)
_ATTACH = (
    update(_OUTBOX)
    .where(_OUTBOX.c.id == bindparam("row_id"), _OUTBOX.c.picture.is_not(None))
    .values(raw=bindparam("new_raw"), picture=None)
)
_NAME_WORD = re.compile(r"[^A-Za-z0-9_-]+")


def file_stem(source: PictureSource) -> str:
    """The attachments' name: the game and the phase shown (letters, digits, - and _)."""
    results = source.results
    phase = results["next_phase"] if results else str(source.case.get("phase", ""))
    stem = "-".join(part for part in (source.game, phase) if part) or "board"
    return _NAME_WORD.sub("-", stem)[:60]


def source_digest(request: Mapping[str, Any]) -> str:
    """What tells a request's source from another's: readers of one phase share it."""
    text = json.dumps(request["source"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def attachments(
    request: Mapping[str, Any],
    drawn: dict[str, list[Attachment]],
    readers: Sequence[str] = (),
) -> list[Attachment]:
    """The pictures a request asks for (none where its reader may see none). `drawn` keeps
    them by the source and whose picture the reader is shown (`shown_as`), so readers shown the
    same picture share one drawing; `readers`, the other readers of the same source, are drawn
    with it (the case read once)."""
    source = PictureSource.from_json(request["source"])
    reader = str(request["reader"])
    digest = source_digest(request)
    key = f"{digest}:{shown_as(source, reader)}"
    if key not in drawn:
        wanted = sorted({reader, *readers})
        pictures = picture_svgs(source, wanted)
        for other in wanted:
            other_key = f"{digest}:{shown_as(source, other)}"
            if other_key not in drawn:
                drawn[other_key] = _files(source, pictures[other])
    return drawn[key]


def _files(source: PictureSource, svg: str | None) -> list[Attachment]:
    """The PNG of a picture, and its SVG where both fit in PICTURE_BUDGET."""
    if svg is None:
        return []
    data = svg.encode("utf-8")
    png = png_of(svg)
    stem = file_stem(source)
    files = [Attachment(f"{stem}.png", "image", "png", png)]
    if len(png) + len(data) <= PICTURE_BUDGET:  # the SVG rides along where it fits
        files.insert(0, Attachment(f"{stem}.svg", "image", "svg+xml", data))
    return files


def render_pending(engine: Engine, limit: int = BATCH) -> int:
    """Draw and attach the pictures of up to `limit` waiting rows; return how many rows were
    finished (0: none waited)."""
    with session_scope(engine) as session:
        waiting = session.execute(_WAITING, {"limit": limit}).all()
    if not waiting:
        return 0
    drawn: dict[str, list[Attachment]] = {}
    finished: list[dict[str, Any]] = []
    readers: dict[str, list[str]] = {}  # each source's readers among the rows read
    for _row_id, _raw, request in waiting:
        try:
            readers.setdefault(source_digest(request), []).append(str(request["reader"]))
        except Exception:  # a request that cannot be read fails below, on its own row
            continue
    for row_id, raw, request in waiting:
        try:
            files = attachments(request, drawn, readers.get(source_digest(request), ()))
            new_raw = with_attachments(raw, files)
        except Exception:  # a picture is never worth holding the mail back
            log.exception("outbox %d: the picture could not be drawn; sent without it", row_id)
            new_raw = raw
        finished.append({"row_id": row_id, "new_raw": new_raw})
    with session_scope(engine) as session:
        done = 0
        for values in finished:
            done += int(session.execute(_ATTACH, values).rowcount or 0)  # type: ignore[attr-defined]
        notify.notify(session, notify.OUTBOX)  # senders in other processes may send them now
    log.info("pictures: %d mails ready (%d drawings)", done, len(drawn))
    return len(finished)
