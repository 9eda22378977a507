"""The GM's commands beyond PROCESS: timing (SET DEADLINE, GRACE, START, per-phase timing),
SET NMR, PREVIEW, PAUSE, RESUME, EJECT, REPLACE, BECOME, ROLLBACK, TERMINATE and FORCE BEGIN.
Not built yet: every one of them is answered "not handled by this judge yet"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HANDLERS: dict[type, Callable[[Any, Any], None]] = {}
