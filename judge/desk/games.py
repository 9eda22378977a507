"""Games by mail at the desk: one mail read with the command grammar and applied in mail order.

The mail is read with judge.language.commands and each command goes to the module that applies
it (the HANDLERS of judge.desk.seating, orders, processing, master, player_settings, press and
history, game_settings), inside the processor's transaction, so the game's changes and every mail they cause
commit together. Who may act for a seat is judge.identity's decision: the seat's reply token
(the +TOKEN of the envelope recipient) or its password on a SIGNON line of the same mail; a
From: line never does, since anyone can type any From: line.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from judge.desk import (
    board_views,
    game_settings,
    general_orders,
    history,
    ledger,
    master,
    observing,
    orders,
    player_settings,
    press,
    press_release,
    press_settings,
    processing,
    seating,
    votes,
)
from judge.desk.help import help_reply
from judge.desk.mail_state import (
    MailState,
    master_game,
    province_words,
    seat_credentials,
    seats_held_by,
)
from judge.desk.orders import orders_reply
from judge.desk.replies import HELP_WORDS, MAX_LINES, Reply, Where, plain_words
from judge.desk.secret_boards import reading_words, secret_game_names
from judge.desk.secret_notices import reader_view
from judge.identity import authenticate, token_from_recipients
from judge.language import command_values as cv
from judge.language.commands import opens_an_order, read_mail_commands
from judge.mail.mime import ReadMail
from judge.map_files import available_maps, load_map
from judge.store.game_queries import observer_for_token, seat_for_token
from judge.variants import variant

# The map whose names tell order lines from mistyped commands before any game is known; the
# names of the judge's other boards count too (a 1885 player signs on as Spain or Sweden).
READING_MAP = "standard"


@functools.cache
def reading_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The powers and the province words of every board the judge has (read once)."""
    powers: dict[str, None] = {}
    provinces: dict[str, None] = {}
    for name in [READING_MAP, *(m for m in available_maps() if m != READING_MAP)]:
        board = load_map(name)
        powers.update(dict.fromkeys(board.powers))
        provinces.update(dict.fromkeys(province_words(board)))
    return tuple(powers), tuple(provinces)


Handler = Callable[[MailState, Any], None]


def _handlers(*modules: Any) -> Mapping[type, Handler]:
    """Every module's HANDLERS in one table; a command claimed by two modules is a bug."""
    table: dict[type, Handler] = {}
    for module in modules:
        for kind, handler in module.HANDLERS.items():
            assert kind not in table, f"{kind.__name__} is handled twice"
            table[kind] = handler
    return table


HANDLERS = _handlers(
    board_views,
    seating,
    observing,
    orders,
    processing,
    master,
    game_settings,
    player_settings,
    votes,
    press,
    press_settings,
    press_release,
    history,
    general_orders,
    ledger,
)


@lru_cache(maxsize=4)
def _read_commands(
    text: str, seat_words: tuple[str, ...], secret_games: tuple[str, ...]
) -> tuple[cv.CommandLine, ...]:
    """The mail's commands, read once: a mail whose passwords are hashed between runs
    (judge.identity.PasswordWork) is run again with the same text, inside the transaction.
    `seat_words` are the places a secret board's seat knows, read as the start of orders;
    `secret_games` the games whose powers are in no board file (SIGNON takes any word there)."""
    known_powers, known_provinces = reading_names()
    return tuple(
        read_mail_commands(
            text,
            known_powers=known_powers,
            known_provinces=[*known_provinces, *seat_words],
            secret_games=secret_games,
        )
    )


def handle(mail: ReadMail, where: Where) -> list[Reply] | None:
    """The replies and mails a game mail calls for; None when the mail is none of the games'
    business (no game command, no reply token, and a sender who holds no seat), so the desk's
    HELP-and-echo answers it as before.
    """
    lines = mail.text.splitlines()[:MAX_LINES] if mail.text else []
    session = where.session
    token = token_from_recipients(
        [where.envelope_to, mail.headers.get("delivered-to")], where.judge_address
    )
    values = _read_commands(
        "\n".join(lines), tuple(reading_words(session, token)), secret_game_names(session)
    )
    for_games = any(
        isinstance(v, cv.CommandError)
        or (isinstance(v, cv.Command) and not isinstance(v, cv.Help | cv.SignOff))
        for v in values
    )
    held = seats_held_by(session, mail.sender) if mail.sender else []
    if not for_games and token is None and not held:
        return None
    state = MailState(mail, where)
    observer = observer_for_token(session, token) if token is not None else None
    if observer is not None:
        # An observer's token address does one thing, whatever the mail says (a quoted
        # confirmation is no command): before confirmation it confirms; after, it is the
        # List-Unsubscribe address of the game's mails and stops the observing.
        observing.observer_token_mail(state, observer)
        return _answers(state)
    if token is not None:
        seat = seat_for_token(session, token)
        if seat is None and master_game(state) is not None:
            state.refusal = (
                "this mail went to the GM's reply address, which acts as the GM, not as a "
                "power: put BECOME power on a line before order lines"
            )
        elif seat is None:
            state.refusal = (
                "this mail was sent to a reply address that belongs to no seat now (the seat "
                "may have passed to another player); sign on with the password instead"
            )
        else:
            decision = authenticate(mail.sender, token, None, seat_credentials(seat))
            state.acting = seat if decision.authorised else None
            state.refusal = decision.reason or None
            if decision.authorised and decision.copy_to:
                state.copies[seat.id] = decision.copy_to
    elif held:
        # Ask judge.identity why the sender's own address is not enough, in its words.
        state.refusal = authenticate(mail.sender, None, None, seat_credentials(held[0])).reason
    if plain_words(mail.subject) in HELP_WORDS and not any(isinstance(v, cv.Help) for v in values):
        state.replies.append(help_reply())  # a Subject: of HELP asks for it too
    for value in values:
        _apply(state, value)
    return _answers(state)


def _apply(state: MailState, value: cv.CommandLine) -> None:
    """Apply one command, order line or error of the mail; a person's words do nothing."""
    if isinstance(value, cv.Prose):
        if not _reads_own_lines(state):
            return
        value = cv.OrderLine(value.line_no, value.text)
    if isinstance(value, cv.CommandError):
        own = _own_order_line(state, value)
        if own is None:
            state.problems.append(str(value))
            return
        value = own
    if isinstance(value, cv.Help):
        state.replies.append(help_reply(value.topic))
        return
    if isinstance(value, cv.SignOff):
        return
    handler = HANDLERS.get(type(value))
    if handler is None:
        state.problems.append(
            f"line {value.line_no}: {value.keyword} is not handled by this judge yet; "
            "nothing was changed by it"
        )
        return
    handler(state, value)


def _own_order_line(state: MailState, error: cv.CommandError) -> cv.OrderLine | None:
    """The line the command reader took for a mistyped command, as an order line after all
    where its first word opens an order of the acting seat's own variant (Mercator's
    `Place A Mun`, near PHASE to a reader that knows no game); None: the error stands."""
    if not error.order_word or not state.mail.text:
        return None
    if not _opens_own_order(state, error.order_word):
        return None
    return cv.OrderLine(error.line_no, state.mail.text.splitlines()[error.line_no - 1].rstrip())


def _opens_own_order(state: MailState, word: str) -> bool:
    """Whether an order of the acting seat's own variant opens with `word`."""
    seat = state.acting
    if seat is None:
        return False
    grammar = variant(seat.game.variant).language.order_grammar
    return grammar is not None and opens_an_order(word, grammar)


def _reads_own_lines(state: MailState) -> bool:
    """Whether the acting seat's variant has an order language of its own (Mercator's time
    scale headings, TS2): its lines are all handed to its reader, as before prose was told
    apart, since the standard names do not say what opens its orders."""
    seat = state.acting
    return seat is not None and variant(seat.game.variant).language.order_grammar is not None


def _answers(state: MailState) -> list[Reply]:
    """The mail's replies in a fixed order: what was done, the orders read, then the problems."""
    replies = list(state.replies)
    for seat in dict.fromkeys(state.ordered_seats):
        reply = orders_reply(state, seat)
        replies.append(reply)
        replies.extend(replace(reply, to=copy) for copy in state.copies.get(seat.id, ()))
    if state.problems:
        context: dict[str, Any] = {"subject": state.mail.subject, "problems": state.problems}
        game = state.acting.game if state.acting is not None else state.gm_game
        if game is not None:
            context["game"] = game.name  # the refusal threads with the game's other mails
        replies.append(Reply("desk_problems", "desk_problems", context))
    if not replies:
        replies.append(Reply("nothing", "nothing_read", {"subject": state.mail.subject}))
    # A secret board's notices as each reader may read them, before any is folded into the
    # sender's answer (judge.desk.answer), so a notice to the sender passes the same gate.
    return [view for reply in replies if (view := reader_view(state.session, reply)) is not None]
