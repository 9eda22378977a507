"""HISTORY and SUMMARY from the store. Not built yet: each is answered "not handled by this
judge yet"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

HANDLERS: dict[type, Callable[[Any, Any], None]] = {}
