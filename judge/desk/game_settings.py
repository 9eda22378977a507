"""The game's settings by mail: the GM's timing (SET DEADLINE, GRACE, START, per-phase timing),
SET NMR (the missed-turn policy), SET REPORT (the results style), and a player's SET ABSENCE /
NOABSENCE. Not built yet: each is answered "not handled by this judge yet"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HANDLERS: dict[type, Callable[[Any, Any], None]] = {}
