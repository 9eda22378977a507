"""OBSERVE, UNOBSERVE and LIST: the readers of a game who play no seat, and what the judge tells
anyone of its games. An observer confirms his address by the token mailed to it
(`observer_token_mail`) before he gets the game's broadcasts; LIST shows each game as anyone
may see it."""

from __future__ import annotations

from sqlalchemy import select

from judge.desk.mail_state import (
    MailState,
    game_named,
    power_title,
    sender_person,
)
from judge.desk.replies import Reply
from judge.desk.secret_boards import (
    secret_board_of,
)
from judge.identity import reply_to_address
from judge.language import command_values as cv
from judge.store.game_queries import (
    ask_to_observe,
    confirm_observer,
    observers_of,
    remove_observer,
)
from judge.store.games import (
    Game,
    Observer,
)


def _observe(state: MailState, command: cv.Observe) -> None:
    """OBSERVE game: mail the sender's address a confirmation whose Reply-To carries a token;
    only a mail to that address makes them an observer (a forged From: changes nothing). A
    player's own address never observes the game it plays in (it has every mail already)."""
    game = game_named(state, command.game, command.line_no)
    if game is None:
        return
    person = sender_person(state)
    if any(seat.person is not None and seat.person.id == person.id for seat in game.seats):
        state.problems.append(
            f"line {command.line_no}: OBSERVE {game.name} changed nothing: this address plays "
            f"in {game.name} and already receives its mails"
        )
        return
    row = ask_to_observe(state.session, game, person)
    if row.confirmed_at is not None:
        state.replies.append(
            Reply("observing", "observing", {"game": game.name, "phase": game.phase or ""})
        )
        return
    assert row.confirm_token is not None
    confirm_address = reply_to_address(state.where.judge_address, row.confirm_token)
    state.replies.append(
        Reply(
            "observe_confirm",
            "observe_confirm",
            {"game": game.name, "confirm_address": confirm_address},
            reply_to=confirm_address,
        )
    )


def _unobserve(state: MailState, command: cv.Unobserve) -> None:
    """UNOBSERVE game: stop following the game (or drop a request not yet confirmed)."""
    game = game_named(state, command.game, command.line_no)
    if game is None:
        return
    if not remove_observer(state.session, game, sender_person(state)):
        state.problems.append(
            f"line {command.line_no}: UNOBSERVE {game.name} changed nothing: this address does "
            f"not observe {game.name}"
        )
        return
    state.replies.append(Reply("unobserved", "unobserved", {"game": game.name}))


def observer_token_mail(state: MailState, row: Observer) -> None:
    """A mail to an observer's token address: confirms an observer who asked, and stops one
    already observing (the one-click List-Unsubscribe of the game's mails, RFC 8058)."""
    game = state.session.get(Game, row.game_id)
    assert game is not None
    address = row.person.address_of_record
    sender = (state.mail.sender or "").lower()
    # The answer to the observer's own mail, or a notice to the observer's address when the
    # token came back from elsewhere (a forwarded confirmation): never to a stranger.
    to = None if address is not None and sender == address.lower() else address
    if confirm_observer(state.session, row):
        context = {"game": game.name, "phase": game.phase or ""}
        state.replies.append(Reply("observing", "observing", context, to=to))
        return
    remove_observer(state.session, game, row.person)
    state.replies.append(Reply("unobserved", "unobserved", {"game": game.name}, to=to))


def _list(state: MailState, command: cv.ListGames) -> None:
    """LIST: the games and their status; LIST game: its seats (holders without addresses)."""
    session = state.session
    if command.game is None:
        games = session.scalars(select(Game).order_by(Game.name))
        rows = [
            {"name": g.name, "status": str(g.status), "phase": g.phase or "", "variant": g.variant}
            for g in games
        ]
        state.replies.append(Reply("game_list", "game_list", {"games": rows}))
        return
    game = game_named(state, command.game, command.line_no)
    if game is None:
        return
    secret = secret_board_of(game) is not None  # a secret board names no power to anyone
    holders = [
        (
            power_title(game, seat.power),
            (seat.person.name or "taken") if seat.person is not None else "open",
        )
        for seat in game.seats
    ]
    if secret:
        # Numbered in the order of their holders, not of the powers' initials: a player who
        # finds his own name at seat 2 learns nothing of where other initials sort.
        holders = [
            (f"Seat {number}", holder)
            for number, (_, holder) in enumerate(
                sorted(holders, key=lambda h: (h[1] == "open", h[1] == "taken", h[1])), start=1
            )
        ]
    seats = [{"power": power, "holder": holder} for power, holder in holders]
    state.replies.append(
        Reply(
            "game_detail",
            "game_detail",
            {
                "game": game.name,
                "status": str(game.status),
                "phase": game.phase or "",
                "variant": game.variant,
                "rules": list(game.rules),
                "seats": seats,
                "observers": len(observers_of(session, game)),
            },
        )
    )


HANDLERS = {
    cv.Observe: _observe,
    cv.Unobserve: _unobserve,
    cv.ListGames: _list,
}
