"""The votes that end a game: SET DRAW / NODRAW, SET CLAIM (a win claimed together, where the
variant has claims) and SET CONCEDE / NOCONCEDE, each for the seat the mail acts for.

Votes are secret: only the voter (and a copy to their address of record) is told. A vote
holds for the current phase only, as on njudge; it is read and cleared when the phase is
processed (judge.desk.endings says how the votes combine). A draw list must include the
voter's own power (a draw that leaves one out is a concession: SET CONCEDE) and only powers
still in the game (a unit or a centre); a power letter list (`SET DRAW AEF`) is read as njudge
wrote it."""

from __future__ import annotations

from collections.abc import Iterable

from judge.desk.endings import CLAIMS, surviving_powers
from judge.desk.mail_state import (
    MailState,
    power_named,
    power_title,
    reply_address,
)
from judge.desk.player_settings import running_seat, tell_seat
from judge.desk.replies import Reply
from judge.desk.secret_boards import (
    board_of_game,
    power_written,
    secret_board_of,
)
from judge.engine.geography import Map
from judge.language import command_values as cv
from judge.store.games import (
    Game,
    Seat,
)
from judge.variants import variant


def _and(game: Game, powers: Iterable[str]) -> str:
    names = [power_title(game, p) for p in powers]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


# --- SET PASSWORD ------------------------------------------------------------------------------


def _powers_written(seat: Seat, game_map: Map, word: str) -> list[str] | None:
    """The powers one written word names for the seat's player: a power's name, unique prefix
    or letter, or njudge's glued letters (`AEF`); on a secret board only the initials of a
    power he knows (`power_written`). None when it names none."""
    game = seat.game
    power = power_written(game, game_map, word, seat.power)
    if power is not None:
        return [power]
    if secret_board_of(game) is not None:
        return None
    letters = [power_named(game_map, letter) for letter in word]
    if len(word) > 1 and all(letters):
        return [p for p in letters if p is not None]
    return None


def _voter(state: MailState, command: cv.Command) -> tuple[Seat, Map, frozenset[str]] | None:
    """The acting seat of a running game whose power is still in it, the game's map and its
    surviving powers; else None with the reason among the problems."""
    seat = running_seat(state, command)
    if seat is None:
        return None
    game = seat.game
    survivors = surviving_powers(game.position)
    if seat.power not in survivors:
        state.problems.append(
            f"line {command.line_no}: {command.redacted()} not taken: {power_title(seat.game, seat.power)} has "
            "no unit and no supply centre left, so it has no vote"
        )
        return None
    return seat, board_of_game(game), survivors


def _named_powers(
    state: MailState, command: cv.Command, seat: Seat, game_map: Map, words: Iterable[str]
) -> list[str] | None:
    """The powers the words name, in the map's order, or None with the unknown words among the
    problems."""
    named: list[str] = []
    unknown: list[str] = []
    for word in words:
        powers = _powers_written(seat, game_map, word)
        if powers is None:
            unknown.append(word)
        else:
            named.extend(powers)
    if unknown:
        state.problems.append(
            f"line {command.line_no}: {command.redacted()} not taken: "
            f"{_no_power(seat, game_map, ', '.join(unknown))}"
        )
        return None
    return [p for p in game_map.powers if p in named]


def _no_power(seat: Seat, game_map: Map, written: str) -> str:
    """Why a word names no power: the game's powers listed, or on a secret board the word
    unknown to the player whether or not such a power exists."""
    if secret_board_of(seat.game) is not None:
        return f"{written} unknown to you (you name the players you have met, by their initials)"
    known = ", ".join(power_title(seat.game, p) for p in game_map.powers)
    return f"game {seat.game.name} has no power {written}; its powers are {known}"


def _set_draw(state: MailState, command: cv.SetDraw) -> None:
    """A secret vote for a draw (all survivors, or the powers listed), or its withdrawal."""
    found = _voter(state, command)
    if found is None:
        return
    seat, game_map, survivors = found
    game = seat.game
    where = f"line {command.line_no}: {command.redacted()} not taken"
    powers: list[str] = []
    if command.draw and command.powers:
        named = _named_powers(state, command, seat, game_map, command.powers)
        if named is None:
            return
        gone = [p for p in named if p not in survivors]
        if gone:
            state.problems.append(
                f"{where}: {_and(seat.game, gone)} {'has' if len(gone) == 1 else 'have'} no unit and no "
                "supply centre left; a draw is shared by powers still in the game"
            )
            return
        if seat.power not in named:
            state.problems.append(
                f"{where}: a draw you vote for must include {power_title(seat.game, seat.power)}; to give the "
                "game to another power, SET CONCEDE that power"
            )
            return
        if len(named) < 2:
            state.problems.append(
                f"{where}: a draw is shared by two powers or more; for the game to go to one "
                "power the others concede to it (SET CONCEDE)"
            )
            return
        # A list of every survivor is the draw of all survivors.
        powers = [] if set(named) == survivors else named
    had_vote = seat.draw_vote is not None
    seat.draw_vote = powers if command.draw else None
    in_draw = powers or [p for p in game_map.powers if p in survivors]
    tell_seat(
        state,
        seat,
        Reply(
            "draw_vote",
            "draw_vote",
            {
                "game": game.name,
                "power": power_title(seat.game, seat.power),
                "phase": game.phase,
                "draw": command.draw,
                "all_survivors": not powers,
                # A secret board's survivors are not named: the reader may not have met them.
                "powers": "" if not powers and secret_board_of(game) else _and(seat.game, in_draw),
                "had_vote": had_vote,
            },
            reply_to=reply_address(state, seat),
        ),
    )


def _set_claim(state: MailState, command: cv.SetClaim) -> None:
    """A claim of a win shared by the powers named (Mercator's rule 10: every member of the
    combine claims it in the same season), or its withdrawal. Claims are not secret: the
    partners must agree on them."""
    found = _voter(state, command)
    if found is None:
        return
    seat, game_map, survivors = found
    game = seat.game
    where = f"line {command.line_no}: {command.redacted()} not taken"
    if variant(game.variant).rules.decide_claims is None:
        state.problems.append(
            f"{where}: wins are not claimed in {variant(game.variant).title}: a victory is "
            "on the board; for a shared end vote for a draw (SET DRAW)"
        )
        return
    claims = dict(game.settings.get(CLAIMS, {}))
    had_claim = seat.power in claims
    combine = [seat.power]
    if command.claim and command.powers:
        named = _named_powers(state, command, seat, game_map, command.powers)
        if named is None:
            return
        if seat.power not in named:
            named = [seat.power, *named]
        if len(named) > 3:
            state.problems.append(f"{where}: a win is claimed by one, two or three powers")
            return
        gone = [p for p in named if p not in survivors]
        if gone:
            state.problems.append(f"{where}: {_and(seat.game, gone)} no longer in the game")
            return
        combine = [p for p in game_map.powers if p in named]
    if command.claim:
        claims[seat.power] = combine
    else:
        claims.pop(seat.power, None)
    game.settings = {**game.settings, CLAIMS: claims}
    tell_seat(
        state,
        seat,
        Reply(
            "claim_made",
            "claim_made",
            {
                "game": game.name,
                "power": power_title(seat.game, seat.power),
                "phase": game.phase,
                "claim": command.claim,
                "powers": _and(seat.game, combine),
                "partners": _and(seat.game, (p for p in combine if p != seat.power)),
                "had_claim": had_claim,
                "terms": variant(game.variant).desk.claim_terms,
            },
            reply_to=reply_address(state, seat),
        ),
    )


def _set_concede(state: MailState, command: cv.SetConcede) -> None:
    """A secret concession of the game to one surviving power, or its withdrawal."""
    found = _voter(state, command)
    if found is None:
        return
    seat, game_map, survivors = found
    game = seat.game
    where = f"line {command.line_no}: {command.redacted()} not taken"
    to: str | None = None
    if command.power is not None:
        power = power_written(game, game_map, command.power, seat.power)
        if power is None:
            state.problems.append(f"{where}: {_no_power(seat, game_map, command.power)}")
            return
        if power == seat.power:
            state.problems.append(
                f"{where}: you play {power_title(seat.game, power)}; a power concedes to another one (to end "
                "the game among several powers, SET DRAW)"
            )
            return
        if power not in survivors:
            state.problems.append(
                f"{where}: {power_title(seat.game, power)} has no unit and no supply centre left; the game "
                "can only be conceded to a power still in it"
            )
            return
        to = power
    had = seat.concession
    seat.concession = to
    tell_seat(
        state,
        seat,
        Reply(
            "concession_vote",
            "concession_vote",
            {
                "game": game.name,
                "power": power_title(seat.game, seat.power),
                "phase": game.phase,
                "to": power_title(seat.game, to) if to else "",
                "had": power_title(seat.game, had) if had else "",
            },
            reply_to=reply_address(state, seat),
        ),
    )


# --- RESIGN ------------------------------------------------------------------------------------


HANDLERS = {
    cv.SetDraw: _set_draw,
    cv.SetConcede: _set_concede,
    cv.SetClaim: _set_claim,
}
