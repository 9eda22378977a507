"""The HTTP server of the pages: aiohttp on an event loop of its own, in a thread of `judge
serve` (judge.serve starts it when `[web] enabled`). It answers GET and HEAD alone; each
request's work (one read of the store, a page built when that read says so) runs on a small
pool of threads so the loop keeps taking connections while a page is built.
"""

from __future__ import annotations

import asyncio
import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiohttp import web

from judge.web.site import Answer, Site

log = logging.getLogger("judge.web")

# Threads that read the store and build pages for the loop.
WORKERS = 4
# A Host header the feed's links may be written with (a name or address and a port).
HOST = re.compile(r"^[A-Za-z0-9.\-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$")


def base_of(request: web.BaseRequest) -> str:
    """The scheme and host the page was asked at (the proxy's, where it says so), for the
    feed's absolute links; a Host header that is no host name gives relative links."""
    host = request.headers.get("X-Forwarded-Host") or request.host or ""
    if not HOST.match(host):
        return ""
    scheme = request.headers.get("X-Forwarded-Proto", request.scheme).lower()
    return f"{'https' if scheme == 'https' else 'http'}://{host}"


def application(site: Site, workers: int = WORKERS) -> web.Application:
    """The aiohttp application over a Site."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge-web")

    async def answer(request: web.Request) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, headers={"Allow": "GET, HEAD"})
        loop = asyncio.get_running_loop()
        try:
            found: Answer = await loop.run_in_executor(
                pool, site.respond, request.path, base_of(request)
            )
        except Exception:
            log.exception("web: the page %s could not be made", request.path)
            return web.Response(status=500, text="The page could not be made.")
        headers = found.all_headers()
        tag = found.headers.get("ETag")
        if tag is not None and tag in request.headers.get("If-None-Match", ""):
            return web.Response(status=304, headers={"ETag": tag})
        body = b"" if request.method == "HEAD" else found.body
        return web.Response(status=found.status, body=body, headers=headers)

    async def close_pool(_app: web.Application) -> None:
        pool.shutdown(wait=False, cancel_futures=True)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", answer)
    app.on_cleanup.append(close_pool)
    return app


class WebServer:
    """The pages served on `host`:`port` from a thread with its own event loop."""

    def __init__(self, site: Site, host: str, port: int) -> None:
        self.site = site
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="judge-web", daemon=True)

    def start(self) -> None:
        """Listen, or raise what kept it from listening (a port in use)."""
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as error:  # reported to start(), which the daemon's start awaits
            self._error = error
            self._ready.set()
        finally:
            loop.close()

    async def _serve(self) -> None:
        self._stop = asyncio.Event()
        runner = web.AppRunner(application(self.site), access_log=None)
        await runner.setup()
        try:
            where = web.TCPSite(runner, self.host, self.port)
            await where.start()
            sockets: Any = where._server.sockets if where._server is not None else []  # noqa: SLF001
            if sockets:
                self.port = sockets[0].getsockname()[1]  # port 0: the one given
            log.info("web: pages on http://%s:%d/", self.host, self.port)
            self._ready.set()
            await self._stop.wait()
        finally:
            await runner.cleanup()

    def stop(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)
        self._thread.join(timeout=10)
