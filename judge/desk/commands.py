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
# HELP <variant>'s column of order forms, at most this wide (the meanings follow it).
FORM_COLUMN = 30
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


def help_reply(topic: str | None = None) -> Reply:
    """HELP, or HELP <variant>: the judge's commands with the list of variants explained, or
    one variant's order forms and example mails (its record's `help`). A topic that names no
    variant gets the judge's HELP, which lists the ones there are."""
    from judge.variants import UnknownVariant, variant, variants_with_help

    listed = [{"name": v.name, "title": v.title} for v in variants_with_help()]
    if topic:
        try:
            found = variant(topic)
        except UnknownVariant:
            found = None
        if found is not None and found.help is not None:
            return Reply("help", "help_variant", variant_help_context(found))
    return Reply("help", "help", {"variants": listed, "topic": topic or ""})


def variant_help_context(found: Any) -> dict[str, Any]:
    """What the help_variant template prints of a variant's record: its help, each form's
    line padded to one column, each example mail's power as the variant writes it."""
    helped = found.help
    forms = [{"group": f.group, "line": f.line, "meaning": f.meaning} for f in helped.forms]
    examples = [
        {"power": found.power_title(e.power), "when": e.when, "lines": list(e.lines)}
        for e in helped.examples
    ]
    return {
        "variant_name": found.name,
        "title": found.title,
        "intro": helped.intro,
        "forms": forms,
        # The forms' column: as wide as the longest form up to FORM_COLUMN; a longer form has
        # its meaning on the line below.
        "width": min(max((len(f["line"]) for f in forms), default=0), FORM_COLUMN) + 2,
        "notes": helped.notes,
        "examples": examples,
        "rules_text": found.rules_text,
        "create_words": helped.create_words,
    }


def help_topic(line: str) -> str | None:
    """The topic of a HELP line (`HELP mercator` -> "mercator", `HELP` -> ""); None: the line
    is no HELP line."""
    words = plain_words(line).split(" ")
    if not words or words[0] not in HELP_WORDS:
        return None
    return " ".join(words[1:]).strip(".?!").lower()


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
    topics: list[str] = [""] if plain_words(mail.subject) in HELP_WORDS else []
    order_lines: list[str] = []
    for line in lines:
        word = plain_words(line)
        if word in _STOP_WORDS:
            break
        topic = help_topic(line)
        if topic is not None:
            topics.append(topic)
            order_lines.append("")  # keep line numbers matching the mail's text
        else:
            order_lines.append(line)
    replies: list[Reply] = [help_reply(topic) for topic in dict.fromkeys(topics)]
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
