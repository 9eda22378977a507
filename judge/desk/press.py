"""PRESS and BROADCAST, and the GM's press settings (SET PRESS, PARTIAL, OBSERVER).
Not built yet: each is answered "not handled by this judge yet"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HANDLERS: dict[type, Callable[[Any, Any], None]] = {}
