"""Every page of the scripted games, found by following the links from `/`, and the check of
each against what an observer may know: no address, reply token, confirmation token or
password of the store; no partial press line; grey press never signed; no game its GM keeps
off the pages; and on a secret board's pages (Algernon) nothing of the maze: every text and
every id of every picture read by the Algernon leak check (tests/variants/algernon/leakcheck.py)
against an observer's allowance (no space; the players' initials once a fall's counts are out).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import select

from judge.store import session_scope
from judge.store.game_queries import find_game, history
from judge.store.games import Game, Observer, PersonAddress, Seat
from judge.variants.algernon import case_board
from judge.web.site import Site
from tests.variants.algernon import leakcheck
from tests.web.scripted import Scripted

HREF = re.compile(r'href="(/[^"#]*)"')
TAG = re.compile(r"<[^>]+>")
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
RELEASE = re.compile(r'<article class="release">\s*<p class="from">(.*?)</p>(.*?)</article>', re.S)


@dataclass(frozen=True)
class Shown:
    path: str
    status: int
    body: str


def crawl(site: Site, start: tuple[str, ...] = ("/",)) -> Iterator[Shown]:
    """Every page reachable from `start` by the pages' own links (and each game's feed)."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.add(path)
        answer = site.respond(path, "http://pages.example.org")
        while answer.status == 302:
            path = answer.headers["Location"]
            answer = site.respond(path, "http://pages.example.org")
        body = answer.body.decode("utf-8")
        yield Shown(path, answer.status, body)
        for link in HREF.findall(body):
            link = html.unescape(link)
            if link not in seen and not link.endswith(".css"):
                todo.append(link)


def visible_text(body: str) -> str:
    """A page's text as a reader sees it (tags dropped, entities read), with its attributes."""
    attributes = " ".join(re.findall(r'="([^"]*)"', body))
    return html.unescape(TAG.sub(" ", body)) + "\n" + html.unescape(attributes)


@dataclass
class Secrets:
    """What no page may show, read from the store and the script."""

    forbidden: set[str]
    private_lines: set[str]
    grey_lines: set[str]
    hidden: list[str]
    mazes: dict[str, tuple[object, leakcheck.Allowed]]


def secrets_of(engine: object, found: Scripted) -> Secrets:
    forbidden: set[str] = set(found.passwords)
    mazes: dict[str, tuple[object, leakcheck.Allowed]] = {}
    with session_scope(engine) as session:  # type: ignore[arg-type]
        forbidden |= set(session.scalars(select(PersonAddress.address)))
        forbidden |= {t for t in session.scalars(select(Seat.reply_token)) if t}
        forbidden |= {t for t in session.scalars(select(Game.gm_token)) if t}
        forbidden |= {t for t in session.scalars(select(Observer.confirm_token)) if t}
        for name in found.shown:
            game = find_game(session, name)
            assert game is not None
            if game.variant != "algernon" or game.position is None:
                continue
            board = case_board(game.position)
            allowed = leakcheck.Allowed("*observer*")
            if any(r.phase.startswith("F") for r in history(session, game)):
                allowed.players.update(board.powers)  # rule 7: the counts after a fall
            mazes[name] = (board, allowed)
    return Secrets(forbidden, found.private_lines, found.grey_lines, found.hidden, mazes)


def leaks(page: Shown, secrets: Secrets) -> list[str]:
    """What `page` shows that an observer may not know."""
    found: list[str] = []
    text = visible_text(page.body)
    for secret in secrets.forbidden | secrets.private_lines:
        if secret.lower() in page.body.lower() or secret.lower() in text.lower():
            found.append(f"{page.path}: shows {secret!r}")
    for name in secrets.hidden:
        if re.search(rf"\b{re.escape(name)}\b", text):
            found.append(f"{page.path}: names the hidden game {name}")
    for sender, release in RELEASE.findall(page.body):
        grey = any(line in html.unescape(release) for line in secrets.grey_lines)
        if grey and "unsigned" not in sender:
            found.append(f"{page.path}: grey press signed {html.unescape(sender)!r}")
    for name, (board, allowed) in secrets.mazes.items():
        if not page.path.startswith(f"/games/{name}"):
            continue
        plain = visible_text(SVG.sub(" ", page.body))
        found += [f"{page.path}: {leak}" for leak in leakcheck.leaks(board, allowed, plain)]  # type: ignore[arg-type]
        for svg in SVG.findall(page.body):
            found += [f"{page.path}: {leak}" for leak in leakcheck.svg_leaks(board, allowed, svg)]  # type: ignore[arg-type]
    return found
