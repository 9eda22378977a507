"""What every part of the desk shares and that imports nothing of the desk: the reply a command
makes, where the mail is being applied, the limit on lines read and how command words compare.

The desk's files import this leaf and each other downward only (docs/ARCHITECTURE.md, the
desk's floor plan); the entry point (commands.py) sits on top and imports the games' table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from judge.identity import PasswordWork

HELP_WORDS = {"HELP", "HELP.", "?"}
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
    # What the mail's picture is drawn from (judge.pictures.source.picture_request): the picture
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
