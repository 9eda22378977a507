"""MAP [game]: the board as it stands, as a picture (judge/pictures) with its units and centres
in words. A public board's game is shown to anyone who names it; a secret board (Algernon) only
to its players, each his own map (the part of the maze his rats have learned, from his
knowledge alone, as text with its picture beside it), and to the GM, the whole board."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.desk.mail_state import MailState, gm_reply_address, power_title, reply_address
from judge.desk.replies import Reply
from judge.desk.secret_boards import board_of_game, secret_board_of
from judge.language import command_values as cv
from judge.pictures.source import PictureSource, picture_request
from judge.store.game_queries import find_game
from judge.store.games import Game
from judge.variants import MASTER, OBSERVERS, variant


def _own_map(state: MailState, command: cv.OwnMap) -> None:
    where = f"line {command.line_no}"
    seat = state.acting
    game = seat.game if seat is not None else state.gm_game
    if command.game is not None and (game is None or game.name != command.game.lower()):
        named = find_game(state.session, command.game)
        if named is not None and secret_board_of(named) is None:
            _public_board(state, named, where, MASTER if named is state.gm_game else OBSERVERS)
            return
        seat = None
        game = state.gm_game if state.gm_game is not None else None
        if game is None or game.name != command.game.lower():
            state.problems.append(
                f"{where}: MAP shows your own map: send it to your seat's reply address, or "
                f"after SIGNON power {command.game.lower()} password"
            )
            return
    if game is None:
        state.problems.append(
            f"{where}: MAP needs a game: name it (MAP game), or send it to your seat's reply "
            "address, or after SIGNON power game password"
        )
        return
    reader = seat.power if seat is not None else MASTER
    secret = secret_board_of(game)
    if secret is None:
        _public_board(state, game, where, reader)
        return
    case = game.position if game.position is not None else None
    if case is None:
        state.problems.append(f"{where}: game {game.name} has not started")
        return
    state.replies.append(
        Reply(
            "own_map",
            "own_map",
            {"game": game.name, "map": secret.board_text(case, reader)},
            reply_to=reply_address(state, seat)
            if seat is not None
            else gm_reply_address(state.where.judge_address, game),
            picture=picture_request(PictureSource(case, game=game.name), reader),
        )
    )


def _public_board(state: MailState, game: Game, where: str, reader: str) -> None:
    """The current position of a game on a public board, in words and as a picture."""
    case = game.position
    if case is None or game.phase is None:
        state.problems.append(f"{where}: game {game.name} has not started")
        return
    state.replies.append(
        Reply(
            "board_picture",
            "board_picture",
            {
                "game": game.name,
                "phase": game.phase,
                "variant": variant(game.variant).title,
                **board_words(game, case),
            },
            picture=picture_request(PictureSource(case, game=game.name), reader),
        )
    )


def board_words(game: Game, case: Mapping[str, Any]) -> dict[str, list[str]]:
    """The units and centres of a position, a line per power, for the text beside the picture."""
    board = board_of_game(game)
    kinds = {"A": "Army", "F": "Fleet", "AF": "Army/fleet"}

    def place(loc: str) -> str:
        province, _, coast = loc.partition("/")
        found = board.provinces.get(province)
        name = found.name if found is not None else province
        return f"{name} ({coast})" if coast else name

    units: dict[str, list[str]] = {}
    for unit in case.get("units", ()):
        units.setdefault(unit["power"], []).append(
            f"{kinds.get(unit['type'], unit['type'])} {place(unit['loc'])}"
        )
    centres = case.get("centers") or {}
    return {
        "units": [
            f"{power_title(game, p)}: {', '.join(sorted(u))}" for p, u in sorted(units.items())
        ],
        "centres": [
            f"{power_title(game, p)} ({len(c)}): {', '.join(sorted(c))}"
            for p, c in sorted(centres.items())
            if c
        ],
    }


HANDLERS = {cv.OwnMap: _own_map}
