"""The desk's entry point: game commands go to judge.desk.games, the rest to HELP and the echo.

A mail with no game command, no reply token and no seat behind its sender is answered as before
the desk knew games: HELP, END/SIGNOFF, and every other line taken as an order to echo.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from judge.mail.mime import ReadMail

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from judge.identity import PasswordWork

# Lines that end the commands of a mail, as on the classic judges.
_STOP_WORDS = {"END", "SIGNOFF", "SIGN OFF"}
HELP_WORDS = {"HELP", "HELP.", "?"}
MAP_NAME = "standard"
# At most this many lines of a mail are read, so one huge mail cannot make a huge reply.
MAX_LINES = 300


@dataclass(frozen=True)
class Reply:
    """One mail the desk wants sent back to the sender: a template and what it needs."""

    kind: str
    template: str
    context: dict[str, Any] = field(default_factory=dict)
    # None: the reply goes to the mail's sender; otherwise the address of another reader (a
    # player told of the game's start, an observer sent the results).
    to: str | None = None
    # A seat's reply address (judge+TOKEN@domain) for the Reply-To header, so that answering
    # the mail acts for the seat.
    reply_to: str | None = None
    # What the mail's picture is drawn from (judge.pictures.step.picture_request): the picture
    # step attaches it before the mail is sent. None: a mail without a picture.
    picture: dict[str, Any] | None = None
    # An answer of several parts (judge.desk.answer): the replies it holds, in mail order.
    parts: tuple[Reply, ...] = ()
    # A mail to the sender's address that is also the answer to the mail (a GM's PROCESS is
    # answered by the results, which stay a notice like every reader's): it refers to the mail.
    answering: bool = False

    @property
    def game(self) -> str | None:
        """The game the mail is about (every game template's context names it as `game`): its
        mails thread under the game's root (judge.store.outbox.game_thread_id)."""
        game = self.context.get("game")
        return game if isinstance(game, str) and game else None


@dataclass(frozen=True)
class Where:
    """What the desk needs beyond the mail to act on games: the processor's transaction, the
    judge's own address (reply addresses are made from it), the envelope recipient and the row.
    """

    session: Session
    judge_address: str
    envelope_to: str | None = None
    inbox_id: int | None = None
    # The processor's argon2 work for this mail, done outside its transaction (None: done in
    # place, for callers that cannot run the mail again).
    passwords: PasswordWork | None = None
    # The daily cap on the mails one sender makes the judge send (0: none), for press to check
    # before it goes.
    mails_per_day: int = 0


def plain_words(line: str) -> str:
    """A line in upper case with its spaces evened out, as command words are compared."""
    return " ".join(line.strip().upper().split())


def handle(mail: ReadMail, where: Where | None = None) -> list[Reply]:
    """The mails one readable mail calls for: one answer to the sender first (everything the
    mail did, judge.desk.answer), then the mails other people must get, in order.

    Without `where` (no store at hand) only HELP and the echo are answered.
    """
    from judge.desk.answer import one_answer

    replies = None
    if where is not None:
        from judge.desk import games

        replies = games.handle(mail, where)
    return one_answer(mail.sender, replies if replies is not None else echo_or_help(mail))


def echo_or_help(mail: ReadMail) -> list[Reply]:
    """HELP, END/SIGNOFF and the echo of order lines that belong to no game."""
    lines = mail.text.split("\n") if mail.text else []
    skipped = max(0, len(lines) - MAX_LINES)
    lines = lines[:MAX_LINES]
    from judge.desk.games import reading_names
    from judge.language.commands import looks_like_a_command

    powers, provinces = reading_names()
    wants_help = plain_words(mail.subject) in HELP_WORDS
    order_lines: list[str] = []
    for line in lines:
        word = plain_words(line)
        if word in _STOP_WORDS:
            break
        if word in HELP_WORDS:
            wants_help = True
            order_lines.append("")  # keep line numbers matching the mail's text
        elif looks_like_a_command(line, powers, provinces):
            order_lines.append(line)
        else:
            order_lines.append("")  # a person's words: no order, no error
    replies: list[Reply] = []
    if wants_help:
        replies.append(Reply("help", "help"))
    order_text = "\n".join(order_lines)
    if order_text.strip():
        replies.append(echo(order_text, mail.subject, skipped))
    if not replies:
        replies.append(Reply("nothing", "nothing_read", {"subject": mail.subject}))
    return replies


def echo(text: str, subject: str, skipped: int = 0) -> Reply:
    """Parse the order lines on the standard map and describe each: its full form or its error."""
    from judge.language.format import format_order
    from judge.language.orders import parse_orders
    from judge.map_files import load_map

    game_map = load_map(MAP_NAME)
    described = []
    errors = 0
    for parsed in parse_orders(text, game_map):
        if parsed.order is None or parsed.error is not None:
            errors += 1
            message = str(parsed.error) if parsed.error is not None else "not an order"
            described.append({"source": parsed.text, "error": message, "full": None})
            continue
        full = format_order(parsed.order, game_map, "full")
        if parsed.power:
            full = f"{parsed.power.title()}: {full}"
        described.append({"source": parsed.text, "error": None, "full": full})
    context = {
        "subject": subject,
        "lines": described,
        "errors": errors,
        "skipped": skipped,
        "max_lines": MAX_LINES,
    }
    return Reply("echo", "echo", context)
