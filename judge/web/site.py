"""The pages by path, each kept in memory under the stamp it was built with (judge.web.stamps):
a request costs one read of the store, and a page is built again only when that read says
something it shows has changed. A processed phase's page depends on its record alone, so it is
built once and kept for as long as the record is.

`Site.respond(path, base)` is plain Python with no server in it: the server (judge.web.server)
hands it each GET, the tests and bench/web.py call it directly too.
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from judge.resources import data_dir
from judge.store.game_queries import find_game
from judge.store.games import PhaseRecord
from judge.web import pages, stamps
from judge.web.reading import read_scope, session_on

HTML = "text/html; charset=utf-8"
ATOM = "application/atom+xml; charset=utf-8"
CSS = "text/css; charset=utf-8"
# Pages kept in memory at most (the least recently asked go first).
KEPT_PAGES = 2000
BUILD_LOCKS = 64
# The feed is built with this in place of the scheme and host it is asked at, and kept so;
# each answer puts the asker's in (a Host header of its own makes no page built again).
BASE = "\x00base\x00"
# The longest a kept page of the list or a game is sent without being built again: what no
# stamp sees (a player's SET NAME) shows within this many seconds.
NAMES_SECONDS = 60.0
# A game's name as the store takes it, and a phase's name as the calendars write them.
GAME_NAME = re.compile(r"^[^/\s]{1,64}$")
PHASE_NAME = re.compile(r"^[A-Za-z]{1,3}\d{4}[MRABmrab]$")
# Sent with every answer: no script, no frames, nothing fetched from elsewhere.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; style-src 'self'; img-src 'self' data:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


@dataclass(frozen=True)
class Answer:
    """An HTTP answer: status, headers and body."""

    status: int
    body: bytes
    content_type: str = HTML
    headers: dict[str, str] = field(default_factory=dict)

    def all_headers(self) -> dict[str, str]:
        return {"Content-Type": self.content_type, **SECURITY_HEADERS, **self.headers}


@dataclass
class Kept:
    stamp: Hashable
    answer: Answer
    built: float


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The Jinja environment over web_templates/, every value escaped unless marked safe."""
    env = Environment(
        loader=FileSystemLoader(str(data_dir("web_templates"))),
        undefined=StrictUndefined,
        autoescape=select_autoescape(["html", "xml", "j2"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["svg"] = _svg
    return env


def _svg(text: str | None) -> Markup:
    """A picture drawn by judge.pictures, put in the page as it is: its every text and
    attribute was escaped when it was drawn (judge/pictures/svg.py)."""
    if not text:
        return Markup("")
    start = text.find("<svg")
    return Markup(text[start:] if start >= 0 else "")


def render(page: pages.Page, **extra: Any) -> bytes:
    template = environment().get_template(page.template)
    return template.render(**page.context, **extra).encode("utf-8")


class Site:
    """The pages of one judge over its store (read through a reading engine)."""

    def __init__(
        self,
        engine: Engine,
        *,
        judge_name: str,
        judge_address: str,
        domain: str,
        names_seconds: float = NAMES_SECONDS,
    ) -> None:
        self.engine = engine
        self.judge_name = judge_name
        self.judge_address = judge_address
        self.domain = domain
        self.names_seconds = names_seconds
        self._kept: OrderedDict[Hashable, Kept] = OrderedDict()
        self._lock = threading.Lock()
        # Builds of one page wait for each other: a lock per page, chosen by its key's hash
        # among a fixed few (a page never waits long for an unrelated one, and no request can
        # make the judge keep more locks).
        self._building = tuple(threading.Lock() for _ in range(BUILD_LOCKS))
        self.built = 0  # pages built (not sent from memory), for the tests and the bench
        self.reads = 0  # reading transactions opened, likewise

    # --- the routes ------------------------------------------------------------------------
    def respond(self, path: str, base: str = "") -> Answer:
        """The answer to a GET of `path`; `base` is the scheme and host the feed's links use."""
        parts = [p for p in path.split("?", 1)[0].split("/") if p]
        if not parts:
            return self._list()
        if parts == ["style.css"]:
            return _style()
        if len(parts) == 2 and parts[0] == "variants":
            return self._variant(parts[1])
        if parts[0] != "games" or len(parts) < 2 or not GAME_NAME.match(parts[1]):
            return not_found()
        name = parts[1]
        if len(parts) == 2:
            return self._game(name, "game", pages.game_page)
        if len(parts) == 3 and parts[2] == "press":
            return self._game(name, "press", pages.press_page)
        if len(parts) == 3 and parts[2] == "feed":
            kept = self._game(
                name,
                "feed",
                lambda session, game: pages.feed(session, game, BASE, self.domain),
                ATOM,
            )
            return _with_base(kept, base)
        if len(parts) == 3 and PHASE_NAME.match(parts[2]):
            return self._phase(name, parts[2].upper())
        return not_found()

    def _list(self) -> Answer:
        with self._reading() as connection:
            stamp = stamps.list_stamp(connection)
            return self._kept_or_built(
                "list",
                stamp,
                lambda: pages.game_list(session_on(connection)),
                HTML,
                expires=True,
            )

    def _game(
        self,
        name: str,
        what: Hashable,
        build: Callable[[Session, Any], pages.Page],
        content_type: str = HTML,
    ) -> Answer:
        with self._reading() as connection:
            found = stamps.game_stamp(connection, name)
            if found is None or not found.shown:
                return not_found()

            def make() -> pages.Page:
                session = session_on(connection)
                game = find_game(session, name)
                assert game is not None
                return build(session, game)

            key = ("game", name.lower(), what)
            return self._kept_or_built(key, found.stamp, make, content_type, expires=True)

    def _phase(self, name: str, phase: str) -> Answer:
        with self._reading() as connection:
            found = stamps.phase_stamp(connection, name, phase)
            if found is None or not found[0].shown:
                return not_found()
            game_stamp, record_id = found
            if record_id is None:
                # Not processed (yet): the phase under way is the game's page; a name that is
                # no phase of the game is not found.
                game = find_game(session_on(connection), name)
                if game is not None and (game.phase or "").upper() == phase:
                    return redirect(f"/games/{game.name}")
                return not_found()

            def make() -> pages.Page:
                session = session_on(connection)
                game = find_game(session, name)
                record = session.get(PhaseRecord, record_id)
                assert game is not None and record is not None
                return pages.phase_page(session, game, record)

            return self._kept_or_built(("phase", record_id), game_stamp.stamp, make, HTML)

    def _variant(self, name: str) -> Answer:
        key = ("variant", name.lower())
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None:
            return kept.answer
        page = pages.variant_page(name, self.judge_name, self.judge_address)
        if page is None:
            return not_found()
        answer = self._answer(page, HTML)
        self._keep(key, Kept(None, answer, time.monotonic()))
        return answer

    # --- keeping pages ---------------------------------------------------------------------
    def _reading(self) -> Any:
        self.reads += 1
        return read_scope(self.engine)

    def _kept_or_built(
        self,
        key: Hashable,
        stamp: Hashable,
        make: Callable[[], pages.Page],
        content_type: str,
        *,
        expires: bool = False,
    ) -> Answer:
        """The page kept under `key` when it was built under `stamp` (and, for a page that
        shows names, not longer ago than `names_seconds`), else built now and kept. Two requests
        for a page being built wait for the one build."""
        fresh = self._fresh(key, stamp, expires)
        if fresh is not None:
            return fresh
        with self._building[hash(key) % BUILD_LOCKS]:
            fresh = self._fresh(key, stamp, expires)
            if fresh is not None:
                return fresh
            answer = self._answer(make(), content_type)
            self._keep(key, Kept(stamp, answer, time.monotonic()))
            return answer

    def _fresh(self, key: Hashable, stamp: Hashable, expires: bool) -> Answer | None:
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or kept.stamp != stamp:
                return None
            if expires and time.monotonic() - kept.built > self.names_seconds:
                return None
            self._kept.move_to_end(key)
            return kept.answer

    def _keep(self, key: Hashable, kept: Kept) -> None:
        with self._lock:
            self._kept[key] = kept
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT_PAGES:
                self._kept.popitem(last=False)

    def _answer(self, page: pages.Page, content_type: str) -> Answer:
        self.built += 1
        body = render(page, judge_name=self.judge_name, variants=pages.variant_list())
        tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        return Answer(200, body, content_type, {"ETag": tag, "Cache-Control": "no-cache"})


def _with_base(answer: Answer, base: str) -> Answer:
    """A kept feed with the asker's scheme and host in its links (and in its ETag)."""
    if answer.status != 200:
        return answer
    body = answer.body.replace(BASE.encode(), base.encode())
    tag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    return Answer(answer.status, body, answer.content_type, {**answer.headers, "ETag": tag})


def not_found() -> Answer:
    body = render(pages.Page("not_found.html.j2", {}), judge_name="", variants=[])
    return Answer(404, body)


def redirect(to: str) -> Answer:
    return Answer(302, b"", "text/plain; charset=utf-8", {"Location": to})


@lru_cache(maxsize=1)
def _style() -> Answer:
    body = (data_dir("web_templates") / "style.css").read_bytes()
    return Answer(200, body, CSS, {"Cache-Control": "public, max-age=3600"})
