"""MAP [game]: a player's own map of a secret board (Algernon: the part of the maze his rats
have learned, from his knowledge alone); the GM's is the whole board. A game whose board is
public has no secret to show: the reply says where its map is."""

from __future__ import annotations

from judge.desk.commands import Reply
from judge.desk.mail_state import MailState, gm_reply_address, reply_address
from judge.desk.secret_boards import secret_board_of
from judge.language import command_values as cv
from judge.variants import MASTER


def _own_map(state: MailState, command: cv.OwnMap) -> None:
    where = f"line {command.line_no}"
    seat = state.acting
    game = seat.game if seat is not None else state.gm_game
    if command.game is not None and (game is None or game.name != command.game.lower()):
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
            f"{where}: MAP needs your seat: send it to your seat's reply address, or after "
            "SIGNON power game password"
        )
        return
    secret = secret_board_of(game)
    if secret is None:
        state.problems.append(
            f"{where}: the board of game {game.name} is public: `judge map {game.variant}` "
            "prints it"
        )
        return
    case = game.position if game.position is not None else None
    if case is None:
        state.problems.append(f"{where}: game {game.name} has not started")
        return
    reader = seat.power if seat is not None else MASTER
    state.replies.append(
        Reply(
            "own_map",
            "own_map",
            {"game": game.name, "map": secret.board_text(case, reader)},
            reply_to=reply_address(state, seat)
            if seat is not None
            else gm_reply_address(state.where.judge_address, game),
        )
    )


HANDLERS = {cv.OwnMap: _own_map}
