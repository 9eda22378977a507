"""The GM's press settings by mail: SET PRESS, SET PARTIAL, SET OBSERVER, SET PUBLISH and SET
PRESS LIMIT, each confirmed to the GM and announced to every player and observer once per mail.
What each setting means: press.py's docstring; the settings as they stand: press_rules.py."""

from __future__ import annotations

from typing import Any

from judge.desk.mail_state import (
    MailState,
    game_readers,
    gm_required,
)

# Where the press settings are kept in Game.settings, and their defaults.
from judge.desk.press_rules import (
    KINDS_KEY,
    LIMIT_KEY,
    OBSERVERS_KEY,
    PARTIAL_KEY,
    PUBLISH_KEY,
    press_rules,
)
from judge.desk.replies import Reply
from judge.language import command_values as cv
from judge.store.games import Game


def _set(state: MailState, command: cv.Command, key: str, value: Any) -> None:
    game = gm_required(state, command)
    if game is None:
        return
    game.settings = {**(game.settings or {}), key: value}
    _announce_settings(state, game)


def _set_press(state: MailState, command: cv.SetPress) -> None:
    _set(state, command, KINDS_KEY, command.kind.lower())


def _set_partial(state: MailState, command: cv.SetPartialPress) -> None:
    _set(state, command, PARTIAL_KEY, command.allowed)


def _set_observers(state: MailState, command: cv.SetObserverPress) -> None:
    _set(state, command, OBSERVERS_KEY, command.level.lower())


def _set_publish(state: MailState, command: cv.SetPublish) -> None:
    _set(state, command, PUBLISH_KEY, command.when.lower())


def _set_press_limit(state: MailState, command: cv.SetPressLimit) -> None:
    _set(state, command, LIMIT_KEY, command.limit)


def _announce_settings(state: MailState, game: Game) -> None:
    """Confirm the game's press settings to the GM and tell every player and observer; several
    SET lines in one mail make one mail each, with the settings as the mail leaves them."""
    state.replies[:] = [
        r
        for r in state.replies
        if not (r.kind == "press_settings" and r.context.get("game") == game.name)
    ]
    words = press_rules(game).words()
    state.replies.append(
        Reply("press_settings", "press_settings", {"game": game.name, "announce": False, **words})
    )
    gm_address = game.gm.address_of_record if game.gm is not None else None
    for reader in game_readers(state.session, game, state.where.judge_address):
        if reader.master or reader.address in (gm_address, state.sender):
            continue
        state.replies.append(
            Reply(
                "press_settings",
                "press_settings",
                {"game": game.name, "announce": True, **words},
                to=reader.address,
                reply_to=reader.reply_to,
            )
        )


# --- writers -------------------------------------------------------------------------------------


HANDLERS = {
    cv.SetPress: _set_press,
    cv.SetPartialPress: _set_partial,
    cv.SetObserverPress: _set_observers,
    cv.SetPublish: _set_publish,
    cv.SetPressLimit: _set_press_limit,
}
