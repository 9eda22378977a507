"""What each page shows, read from the store as an observer may see it.

Nothing here decides what is public: every piece comes from the view the mail already gives an
observer. The results of a phase are HISTORY's (`observer_results`: a secret board's public
report alone), the press is HISTORY's (`observer_press`: press to everyone, grey press unsigned,
never partial press), the seats are SUMMARY's for a non-GM (names, never addresses; a secret
board lists none), the pictures are drawn for OBSERVERS (a secret board gives none), and a
board's units and centres are MAP's words for a public board, never for a secret one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.desk.board_views import board_words
from judge.desk.game_settings import shown_on_web
from judge.desk.history import observer_press, observer_results, summary_context
from judge.desk.phase_clock import deadline_words
from judge.desk.secret_boards import board_of_game, secret_board_of
from judge.map_files import load_map, map_summary
from judge.pictures.source import PictureSource, picture_svg
from judge.render import render_mail
from judge.store.game_queries import find_game, history
from judge.store.games import Game, GameStatus, PhaseRecord
from judge.variants import OBSERVERS, variant, variant_names


@dataclass(frozen=True)
class Page:
    """A page to render: its template (in web_templates/) and what it is rendered from."""

    template: str
    context: dict[str, Any]


def _picture(source: PictureSource) -> str | None:
    """The picture an observer is sent of this position, as SVG to put in the page; None
    where an observer gets none (a secret board) or it cannot be drawn."""
    try:
        return picture_svg(source, OBSERVERS)
    except Exception:  # a stored board this judge can no longer draw: the page goes without
        return None


def _board_title(game: Game) -> str:
    """The board's title; a secret board's is its variant's word for it, nothing of the maze."""
    if secret_board_of(game) is not None:
        return "a maze of its own"
    try:
        return board_of_game(game).title
    except (FileNotFoundError, KeyError, ValueError):
        return ""


def _deadline(game: Game) -> str:
    if game.deadline is None or game.status != GameStatus.ACTIVE:
        return ""
    return deadline_words(game, game.deadline)


def _game_head(game: Game) -> dict[str, Any]:
    """The facts every page of a game starts with."""
    return {
        "name": game.name,
        "variant": variant(game.variant).title,
        "variant_name": variant(game.variant).name,
        "board": _board_title(game),
        "status": str(game.status),
        "phase": game.phase or "",
        "deadline": _deadline(game),
    }


def visible_games(session: Session) -> list[Game]:
    """The games the pages show (all but those whose GM said SET WEB OFF), by name."""
    games = session.scalars(select(Game).order_by(Game.name))
    return [game for game in games if shown_on_web(game.settings)]


def game_list(session: Session) -> Page:
    """`/`: every shown game with its variant, board, phase, deadline and public seats."""
    rows = []
    for game in visible_games(session):
        summary = summary_context(session, game)
        rows.append({**_game_head(game), "players": summary["players"]})
    return Page("index.html.j2", {"games": rows})


def _phase_links(game: Game, records: list[PhaseRecord]) -> list[dict[str, str]]:
    return [{"phase": r.phase, "href": f"/games/{game.name}/{r.phase}"} for r in records]


def game_page(session: Session, game: Game) -> Page:
    """`/games/NAME`: the position now (picture, units and centres on a public board), the
    last results an observer read, the phases played and the public seats."""
    records = history(session, game)
    summary = summary_context(session, game, records=records)
    case = game.position
    words: dict[str, list[str]] = {"units": [], "centres": []}
    picture = None
    if case is not None and secret_board_of(game) is None:
        words = board_words(game, case)
        picture = _picture(PictureSource(case, game=game.name))
    last = ""
    if records:
        last = observer_results(game, records[-1], len(records))
    context = {
        **_game_head(game),
        "picture": picture,
        "units": words["units"],
        "centres": words["centres"],
        "last_phase": records[-1].phase if records else "",
        "last_results": last.rstrip("\n"),
        "phases": _phase_links(game, records),
        "players": summary["players"],
        "outcome": summary["outcome"],
        "gm": summary["gm"],
        "years": summary["years"],
        "columns": summary["columns"],
    }
    return Page("game.html.j2", context)


def phase_page(session: Session, game: Game, record: PhaseRecord) -> Page:
    """`/games/NAME/PHASE`: one processed phase, its picture and results as an observer got
    them, and the phases before and after it. Only the record and the phases before it are
    read, which a later phase never changes, so the page is the same for as long as the
    record is kept (a ROLLBACK deletes it)."""
    records = history(session, game)
    index = next(i for i, r in enumerate(records) if r.id == record.id)
    previous = records[index - 1].phase if index > 0 else ""
    following = str(record.results.get("next_phase") or "")
    picture = _picture(
        PictureSource(record.position_before, record.orders, record.results, game.name)
    )
    context = {
        "name": game.name,
        "variant": variant(game.variant).title,
        "variant_name": variant(game.variant).name,
        "phase": record.phase,
        "processed": deadline_words(game, record.processed_at),
        "picture": picture,
        "results": observer_results(game, record, index + 1).rstrip("\n"),
        "previous": previous,
        "next": following,
    }
    return Page("phase.html.j2", context)


def press_page(session: Session, game: Game) -> Page:
    """`/games/NAME/press`: the press and broadcasts every observer read, under the phase
    each was written in."""
    records = history(session, game)
    by_phase = observer_press(session, game, records)
    groups = [
        {"phase": r.phase, "releases": by_phase[r.id], "current": False}
        for r in records
        if by_phase.get(r.id)
    ]
    if by_phase.get(None):
        groups.append({"phase": game.phase or "", "releases": by_phase[None], "current": True})
    return Page("press.html.j2", {**_game_head(game), "groups": groups})


def feed(session: Session, game: Game, base: str, domain: str) -> Page:
    """`/games/NAME/feed`: an Atom feed, one entry per processed phase with its results as an
    observer read them, newest first. Entry ids are tag URIs on the judge's mail domain and
    the record's id, so a phase played again after a ROLLBACK is a new entry."""
    records = history(session, game)
    entries = [
        {
            "id": f"tag:{domain},{record.processed_at:%Y-%m-%d}:{game.name}/{record.id}",
            "phase": record.phase,
            "updated": _atom_time(record.processed_at),
            "href": f"{base}/games/{game.name}/{record.phase}",
            "results": observer_results(game, record, number).rstrip("\n"),
        }
        for number, record in enumerate(records, start=1)
    ]
    entries.reverse()
    updated = records[-1].processed_at if records else game.created_at
    context = {
        **_game_head(game),
        "id": f"tag:{domain},{game.created_at:%Y-%m-%d}:{game.name}",
        "updated": _atom_time(updated),
        "href": f"{base}/games/{game.name}",
        "self_href": f"{base}/games/{game.name}/feed",
        "entries": entries,
    }
    return Page("feed.xml.j2", context)


def _atom_time(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def variant_page(name: str, judge_name: str, judge_address: str) -> Page | None:
    """`/variants/NAME`: what the variant is, its boards (as `judge map` summarises them), and
    the judge's HELP text (the commands, the same for every variant). None: no such variant."""
    if name.lower() not in variant_names():
        return None
    found = variant(name)
    boards = []
    for board_name in found.maps:
        try:
            board = load_map(board_name)
        except (FileNotFoundError, KeyError, ValueError):
            continue
        boards.append({"title": board.title, "summary": map_summary(board)})
    help_text = render_mail("help", judge_name=judge_name, judge_address=judge_address).body
    context = {
        "title": found.title,
        "name": found.name,
        "rules": found.rules_text,
        "units": [found.language.unit_words.get(kind, kind) for kind in found.rules.unit_kinds],
        "rule_sets": list(found.rules.rule_sets),
        "calendar": found.calendar,
        "secret": found.secret_board is not None,
        "boards": boards,
        "help": help_text.rstrip("\n"),
    }
    return Page("variant.html.j2", context)


def variant_list() -> list[dict[str, str]]:
    return [{"name": n, "title": variant(n).title} for n in variant_names()]


def shown_game(session: Session, name: str) -> Game | None:
    """The game called `name` if its pages are shown, else None (no such game, or SET WEB OFF:
    the same answer, so the pages do not tell that a hidden game exists)."""
    game = find_game(session, name)
    if game is None or not shown_on_web(game.settings):
        return None
    return game
