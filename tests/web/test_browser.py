"""Every page of the scripted games opened in headless Chromium at a desktop's width and at a
phone's (390 px): what the browser shows is checked in its DOM (the heading, the board's picture
drawn inline where an observer is sent one, the results, no script), in the width its layout
takes (nothing wider than the phone), and in its screenshot (the window's size, not blank, the
board's colours where there is a picture). The screenshots are kept in a folder for a person
to look at (JUDGE_WEB_SHOTS names one; else under the test's temporary folder)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.web.server import WebServer
from tests.web import browser, privacy
from tests.web.conftest import make_site
from tests.web.scripted import Scripted

pytestmark = pytest.mark.skipif(
    browser.CHROMIUM is None and not os.environ.get("CI"),
    reason="Debian's chromium is not installed (deploy/install-test-packages.sh installs it)",
)

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
SCALE = 0.25  # screenshots a quarter the size for counting pixels


@pytest.fixture
def served(played: tuple[str, Scripted]) -> Iterator[tuple[WebServer, list[str]]]:
    url, _ = played
    site = make_site(url)
    paths = [p.path for p in privacy.crawl(site) if not p.path.endswith("/feed")]
    server = WebServer(site, "127.0.0.1", 0)
    server.start()
    yield server, paths
    server.stop()
    site.engine.dispose()


def _colourful(rows: list[bytes]) -> tuple[int, int]:
    """(pixels not white, pixels of a strong colour) in RGB rows."""
    ink = strong = 0
    for row in rows:
        for i in range(0, len(row), 3):
            r, g, b = row[i], row[i + 1], row[i + 2]
            if r < 240 or g < 240 or b < 240:
                ink += 1
            if max(r, g, b) - min(r, g, b) > 80:
                strong += 1
    return ink, strong


def test_every_page_shows_in_a_browser_on_a_desktop_and_a_phone(
    served: tuple[WebServer, list[str]], tmp_path: Path
) -> None:
    server, paths = served
    shots = Path(os.environ.get("JUDGE_WEB_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    assert len(paths) > 30
    chromium = browser.Browser()
    try:
        for path in paths:
            for label, (width, height) in WIDTHS.items():
                url = f"http://127.0.0.1:{server.port}{path}"
                dom, wide, png = chromium.open(url, width, height, SCALE)
                name = re.sub(r"[^A-Za-z0-9]+", "_", path).strip("_") or "index"
                (shots / f"{name}.{label}.png").write_bytes(png)
                where = f"{path} ({label})"
                assert "<script" not in dom, where
                assert re.search(r"<h1>.+</h1>", dom, re.S), where
                assert wide <= width, f"{where}: laid out {wide} px wide in a {width} px window"
                shot_width, shot_height, rows = browser.png_pixels(png)
                assert abs(shot_width - width * SCALE) <= 1, where  # the window, scaled
                assert abs(shot_height - height * SCALE) <= 1, where
                ink, strong = _colourful(rows)
                assert ink > 0.01 * shot_width * shot_height, f"{where}: blank"
                game_board = path.startswith("/games/") and not path.startswith("/games/maze")
                pictured = game_board and not path.endswith("/press")
                if pictured:
                    assert "<svg" in dom and 'id="board"' in dom, where
                    if label == "desktop":  # the board's power colours fill the window
                        assert strong > 0.002 * shot_width * shot_height, f"{where}: no colours"
                if path.startswith("/games/maze"):
                    assert "<svg" not in dom, where  # an observer gets no picture of a maze
                if path.startswith("/games/") and path.count("/") == 3 and path[-1] in "MRA":
                    assert "<pre>" in dom and "Results" in dom, where
    finally:
        chromium.close()
