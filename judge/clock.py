"""The one clock of the judge: every time read goes through `now()` so tests can set and move it."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

_lock = threading.Lock()
_fixed: datetime | None = None


def now() -> datetime:
    """Return the current time as an aware UTC datetime (the fixed one while a test holds it)."""
    with _lock:
        if _fixed is not None:
            return _fixed
    return datetime.now(UTC)


def set_now(moment: datetime) -> None:
    """Freeze the clock at `moment` (naive values are taken as UTC)."""
    global _fixed
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    with _lock:
        _fixed = moment.astimezone(UTC)


def advance(delta: timedelta) -> datetime:
    """Move a frozen clock forward by `delta` (freezing it at the real time first if it ran)."""
    global _fixed
    with _lock:
        base = _fixed if _fixed is not None else datetime.now(UTC)
        _fixed = base + delta
        return _fixed


def reset() -> None:
    """Let the clock follow real time again."""
    global _fixed
    with _lock:
        _fixed = None
