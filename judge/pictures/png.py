"""SVG to PNG, for mail readers that show no SVG: resvg (a Rust SVG renderer) through the
`resvg-py` wheel, which carries the renderer whole (no system library), with the DejaVu fonts
from Debian's `fonts-dejavu-core` (deploy/install-test-packages.sh installs it; DEPLOY.md).

The fonts are found once and handed to resvg by file, so a rendering neither scans the system's
fonts nor depends on which others are installed: the same SVG gives the same PNG on every host.
"""

from __future__ import annotations

import functools
import logging
import math
import re
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


# The widest PNG drawn: a picture wider (a whole wide board, for its GM or observers) is drawn
# smaller to this width; its SVG keeps every detail. A tall one is drawn smaller still, to at
# most MAX_PNG_PIXELS (the time to draw it and its bytes grow with them): the world board's
# whole with its Europe under it. Labels drawn to read at VIEWED_AT wide (judge/pictures/
# board.py) read so in a PNG at least that wide.
MAX_PNG_WIDTH = 1200
MAX_PNG_PIXELS = 1_250_000
_WIDTH = re.compile(r'<svg[^>]*?\swidth="([0-9.]+)" height="([0-9.]+)"')


def png_of(svg: str) -> bytes:
    """The SVG drawn as a PNG of the SVG's own size (at most MAX_PNG_WIDTH wide). Edges are
    drawn crisp (no smoothing of the shapes' edges; text stays smooth): the provinces' borders
    follow whole pixels already, and a PNG of flat areas compresses to half the size."""
    try:
        import resvg_py
    except ImportError as exc:  # a dependency of the package: only a broken install lacks it
        raise PictureError("resvg-py is not installed (pip install resvg-py)") from exc
    options: dict[str, object] = {"shape_rendering": "crisp_edges"}
    found = _WIDTH.search(svg)
    if found is not None:
        width, height = float(found.group(1)), float(found.group(2))
        drawn = min(width, MAX_PNG_WIDTH, math.floor((MAX_PNG_PIXELS * width / height) ** 0.5))
        if drawn < width:
            options["width"] = int(drawn)
    fonts = font_files()
    if fonts:
        options.update(skip_system_fonts=True, font_files=list(fonts))
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, **options))
