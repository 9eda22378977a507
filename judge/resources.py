"""Where the data folders (grammar/, maps/, mail_templates/, web_templates/) live.

In a checkout they sit beside the package; an installed wheel carries them in judge/_data.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """Return the folder `name` (grammar, maps, mail_templates or web_templates), installed or
    checked out."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"data folder {name!r} not found beside the judge package")
