"""A game's money at the desk (variants that keep a ledger: Mercenary): the GM's LEDGER command
(rule 11: the GM adds pounds to a power's holding or takes them), and order lines that change
the game at once (leaving an Alliance of Currency, rule 8 c). Both change the stored position
through the variant's record, never by its name, and are announced to everyone in the game;
LEDGER's change is written into the game's ledger like every payment of a phase
(judge.desk.processing writes those).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from judge.desk.mail_state import MailState, game_readers, gm_required, power_title
from judge.desk.replies import Reply
from judge.language import command_values as cv
from judge.language.names import NameLookupError, name_table
from judge.store.game_queries import add_ledger_entries
from judge.store.games import Game, GameStatus
from judge.variants import board_of, variant

ANNOUNCEMENT = "announcement"  # mail_templates/announcement.txt.j2: a title and a text


def announce(state: MailState, game: Game, title: str, text: str) -> None:
    """Mail `text` under `title` to everyone in the game (players, GM, observers), once each."""
    context = {"game": game.name, "phase": game.phase or "", "title": title, "text": text}
    for reader in game_readers(state.session, game, state.where.judge_address):
        state.replies.append(
            Reply(ANNOUNCEMENT, ANNOUNCEMENT, context, to=reader.address, reply_to=reader.reply_to)
        )


def apply_at_once(
    state: MailState,
    game: Game,
    change: Callable[[Mapping[str, Any]], tuple[dict[str, Any], str]],
) -> str:
    """A line that changes the game at once: the stored position changed by the variant, the
    change announced to all under its first line; the words the echo gives the line.
    ValueError: why not now."""
    assert game.position is not None
    position, text = change(game.position)
    game.position = position
    first = text.splitlines()[0]
    announce(state, game, first.rstrip("."), text)
    return first


def _ledger(state: MailState, command: cv.Ledger) -> None:
    """LEDGER power change currency [why]: the GM's change to a power's holding."""
    where = f"line {command.line_no}"
    game = gm_required(state, command)
    if game is None:
        return
    adjust = variant(game.variant).desk.adjust_holding
    if adjust is None:
        state.problems.append(f"{where}: LEDGER not done: game {game.name} keeps no money")
        return
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or game.position is None:
        state.problems.append(f"{where}: LEDGER not done: game {game.name} is {game.status}")
        return
    table = name_table(board_of(game.variant))
    try:
        power = table.power(command.power)
        currency = table.power(command.currency)
    except NameLookupError as exc:
        state.problems.append(f"{where}: LEDGER not done: {exc.message}")
        return
    try:
        position, entry, text = adjust(game.position, power, currency, command.change, command.why)
    except ValueError as exc:
        state.problems.append(f"{where}: LEDGER not done: {exc}")
        return
    game.position = position
    assert game.phase is not None
    add_ledger_entries(state.session, game, game.phase, [entry])
    announce(state, game, f"the game master changed {power_title(game, power)}'s money", text)


HANDLERS = {cv.Ledger: _ledger}
