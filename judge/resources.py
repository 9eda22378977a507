"""Where the data folders (grammar/, maps/, mail_templates/, web_templates/) live.

In a checkout they sit beside the package; an installed wheel carries them in judge/_data.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


def data_folder(name: str) -> str:
    """The folder `name` (grammar, maps, mail_templates or web_templates), installed or checked
    out, as a string: what `judge adjudicate` needs, on os.path alone (no pathlib at its start)."""
    for candidate in (
        os.path.join(_PACKAGE, "_data", name),
        os.path.join(os.path.dirname(_PACKAGE), name),
    ):
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError(f"data folder {name!r} not found beside the judge package")


def data_dir(name: str) -> Path:
    """Return the folder `name` (grammar, maps, mail_templates or web_templates), installed or
    checked out."""
    from pathlib import Path

    return Path(data_folder(name))
