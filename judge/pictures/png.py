"""SVG to PNG, for mail readers that show no SVG: resvg (a Rust SVG renderer) through the
`resvg-py` wheel, which carries the renderer whole (no system library), with the DejaVu fonts
from Debian's `fonts-dejavu-core` (deploy/install-test-packages.sh installs it; DEPLOY.md).

The fonts are found once and handed to resvg by file, so a rendering neither scans the system's
fonts nor depends on which others are installed: the same SVG gives the same PNG on every host.
"""

from __future__ import annotations

import functools
import logging
from pathlib import Path

log = logging.getLogger("judge.pictures")

# Where Debian (and most other systems) put the DejaVu fonts the pictures are drawn in.
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
)
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf")


class PictureError(RuntimeError):
    """A picture that cannot be made here (no renderer installed)."""


@functools.cache
def font_files() -> tuple[str, ...]:
    """The DejaVu Sans files found, or () (then resvg looks through the system's fonts)."""
    for folder in FONT_DIRS:
        found = tuple(str(folder / name) for name in FONT_FILES if (folder / name).is_file())
        if found:
            return found
    log.warning(
        "no DejaVu fonts in %s: picture labels use whatever fonts the system has "
        "(install Debian's fonts-dejavu-core)",
        ", ".join(map(str, FONT_DIRS)),
    )
    return ()


def png_of(svg: str) -> bytes:
    """The SVG drawn as a PNG of the SVG's own size."""
    try:
        import resvg_py
    except ImportError as exc:  # a dependency of the package: only a broken install lacks it
        raise PictureError("resvg-py is not installed (pip install resvg-py)") from exc
    fonts = font_files()
    if fonts:
        return bytes(
            resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=list(fonts))
        )
    return bytes(resvg_py.svg_to_bytes(svg_string=svg))
