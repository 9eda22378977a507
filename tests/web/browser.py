"""Headless Chromium (Debian's `chromium`) driven over its DevTools pipe: one browser opens page
after page at a given window width, and gives each page's DOM, its laid-out width and a PNG
screenshot; `png_pixels` reads a screenshot back for the tests to count what it shows."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import struct
import subprocess
import zlib
from typing import Any

CHROMIUM = shutil.which("chromium")


class Browser:
    """One headless Chromium; `open(url, width, height)` -> (DOM, page width, PNG bytes)."""

    def __init__(self) -> None:
        assert CHROMIUM is not None
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()
        # Numbers clear of 3 and 4, so putting one end on 3 never closes the other.
        to_browser, from_browser = (_high(fd) for fd in (to_browser, from_browser))

        def fds() -> None:  # the pipe's ends where Chromium looks for them: 3 in, 4 out
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self.process = subprocess.Popen(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                "--no-first-run",
                "about:blank",
            ],
            preexec_fn=fds,  # noqa: PLW1509
            pass_fds=(3, 4, to_browser, from_browser),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._reader = os.fdopen(self._answers, "rb")
        self._buffer = b""
        self._next = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.call("Page.enable", session=True)

    def _message(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)  # type: ignore[no-any-return]

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._message()
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})  # type: ignore[no-any-return]

    def _wait_for(self, event: str) -> None:
        while True:
            if self._message().get("method") == event:
                return

    def open(self, url: str, width: int, height: int, scale: float = 1.0) -> tuple[str, int, bytes]:
        """The page at `url` in a window `width` by `height`: its DOM, the width its layout
        takes (wider than the window: it overflows sideways) and a screenshot of the window
        (`scale` smaller, for counting its pixels quickly)."""
        mobile = width < 600
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self.call("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")
        dom = self._evaluate("document.documentElement.outerHTML")
        wide = int(self._evaluate("document.documentElement.scrollWidth"))
        clip = {"x": 0, "y": 0, "width": width, "height": height, "scale": scale}
        shot = self.call("Page.captureScreenshot", session=True, format="png", clip=clip)["data"]
        return dom, wide, base64.b64decode(shot)

    def _evaluate(self, expression: str) -> Any:
        found = self.call(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True
        )
        return found["result"]["value"]

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self._commands)
        self._reader.close()


def _high(fd: int) -> int:
    import fcntl

    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return high


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced PNG (as Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks, head = 8, b"", b""
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            head = body
        elif kind == b"IDAT":
            chunks += body
        at += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", head[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    size = 3 if colour == 2 else 4
    raw = zlib.decompress(chunks)
    stride = width * size
    rows: list[bytes] = []
    previous = bytearray(stride)
    at = 0
    for _ in range(height):
        kind = raw[at]
        line = bytearray(raw[at + 1 : at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up = previous[i]
            corner = previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                guess = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + guess) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, [bytes(r) for r in rows] if size == 3 else _rgb(rows)


def _rgb(rows: list[bytes]) -> list[bytes]:
    return [bytes(b for i, b in enumerate(row) if i % 4 != 3) for row in rows]
