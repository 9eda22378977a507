"""Games whose board nobody sees (Algernon): the board each reader may be shown, the powers a
command may name for a reader, and which games they are. A secret board is the variant record's
`secret_board`; nothing here tests a variant's name. Which of such a game's notices reach
whom is judge.desk.secret_notices.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.desk.mail_state import power_named
from judge.engine.geography import Map
from judge.store.games import Game
from judge.variants import SecretBoard, game_board, variant, variant_names

# Where a forming game with its own board keeps its opening case until it starts.
OPENING = "opening"


def secret_board_of(game: Game) -> SecretBoard | None:
    return variant(game.variant).secret_board


@functools.cache
def _secret_variants() -> tuple[str, ...]:
    """The variants whose games have a secret board (asked of each variant's record once)."""
    return tuple(name for name in variant_names() if variant(name).secret_board is not None)


def secret_game_names(session: Session) -> tuple[str, ...]:
    """The games whose board is secret, in lower case: their powers are in no board file, so
    the command reader takes any word for a power in a SIGNON to one of them. Which games
    these are is public (LIST names every game's variant)."""
    kinds = _secret_variants()
    if not kinds:
        return ()
    names = session.scalars(select(Game.name).where(Game.variant.in_(kinds)))
    return tuple(sorted(name.lower() for name in names))


def powers_known(game: Game, reader: str) -> frozenset[str]:
    """The powers `reader` (a power, or MASTER) knows in a game whose board is secret, from the
    game's case (its opening while it forms: his own)."""
    secret = secret_board_of(game)
    assert secret is not None
    case = game_case(game)
    return secret.known_powers(case, reader) if case is not None else frozenset()


def power_written(game: Game, game_map: Map, written: str, reader: str | None) -> str | None:
    """The power a word of a command names. On a public board: its name, a unique prefix or
    its letter (`power_named`). On a secret board only a power's initials in full, and for a
    `reader` holding a seat (his power) only a power he knows: a letter or a prefix would let
    anyone ask, word by word, which powers exist (docs/RULES.md, Algernon)."""
    if secret_board_of(game) is None:
        return power_named(game_map, written)
    word = written.strip().upper()
    if word not in game_map.powers:
        return None
    if reader is not None and word != reader and word not in powers_known(game, reader):
        return None
    return word


def game_case(game: Game) -> Mapping[str, Any] | None:
    """The game's case: its position once started, its opening while it forms."""
    if game.position is not None:
        return game.position
    opening = game.settings.get(OPENING)
    return opening if isinstance(opening, Mapping) else None


def seat_knowledge(game: Game, power: str) -> str:
    """What the new holder of `power` is told of a secret board in the mail that makes the seat
    his (a stand-by's, a takeover's, the GM's REPLACE): what its player knows, as MAP shows it.
    Nothing on a public board, or before the start."""
    secret = secret_board_of(game)
    if secret is None or game.position is None:
        return ""
    return secret.board_text(game.position, power)


def board_of_game(game: Game) -> Map:
    """The board the game plays on: its own (a generated maze) or its variant's."""
    return game_board(game.variant, game_case(game))


def results_visibility(secret: SecretBoard) -> Any:
    """The reports' Visibility for a secret board: each reader's own results text (a player
    his private report, an observer the public counts); the GM's comes from `master_writer`."""
    from dataclasses import replace

    from judge.reports import PhaseReport, Viewer
    from judge.variants import OBSERVERS

    def view(report: PhaseReport, viewer: Viewer) -> PhaseReport:
        reader = viewer.power if viewer.power is not None else OBSERVERS
        return replace(
            report,
            text_writer=lambda r: secret.results_text(r.result, reader) + agreed_end(r, False),
        )

    return view


def master_writer(secret: SecretBoard) -> Any:
    """The GM's results text of a secret board (the reports give the GM the whole report)."""
    from judge.variants import MASTER

    return lambda report: secret.results_text(report.result, MASTER) + agreed_end(report, True)


def agreed_end(report: Any, master: bool) -> str:
    """The line that tells every reader of a secret board that a draw or a concession ended
    the game: the GM with the powers named, the others without the initials of players they
    may never have met; "" when no vote ended it."""
    from judge.reports.variant_text import powers_and

    if report.draw:
        who = f" between {powers_and(report.draw)}" if master else ""
        return f"\nThe game ends in a draw{who}, agreed by vote of the players in it.\n"
    if report.concession:
        who = f" to {report.concession}" if master else " to one player"
        return f"\nThe game ends: the other players conceded it{who}.\n"
    return ""


def visibility_of(game: Game) -> Any:
    """What each reader of the game's results may see: everything (the standard game) or the
    reader's own view of a secret board."""
    from judge.reports import everything_public

    secret = secret_board_of(game)
    return results_visibility(secret) if secret is not None else everything_public


def reading_words(session: Session, token: str | None) -> list[str]:
    """The places the seat of a reply token knows on a secret board: the command reader takes
    lines that start with one as order lines. Words only from what the seat knows, so how a
    line is read never depends on what exists unseen."""
    if token is None:
        return []
    from judge.store.game_queries import seat_for_token

    seat = seat_for_token(session, token)
    if seat is None or seat.game.position is None:
        return []
    secret = secret_board_of(seat.game)
    if secret is None:
        return []
    return sorted(secret.known_places(seat.game.position, seat.power))
