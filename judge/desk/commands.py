"""The desk's entry point: game commands go to judge.desk.games, the rest to HELP and the echo.

A mail with no game command, no reply token and no seat behind its sender is answered as before
the desk knew games: HELP, END/SIGNOFF, and every other line taken as an order to echo.
"""

from __future__ import annotations

from judge.desk import games
from judge.desk.answer import one_answer
from judge.desk.help import help_reply, help_topic
from judge.desk.replies import HELP_WORDS, MAX_LINES, Reply, Where, plain_words
from judge.language.commands import looks_like_a_command
from judge.mail.mime import ReadMail

# Lines that end the commands of a mail, as on the classic judges.
_STOP_WORDS = {"END", "SIGNOFF", "SIGN OFF"}
MAP_NAME = "standard"


def handle(mail: ReadMail, where: Where | None = None) -> list[Reply]:
    """The mails one readable mail calls for: one answer to the sender first (everything the
    mail did, judge.desk.answer), then the mails other people must get, in order.

    Without `where` (no store at hand) only HELP and the echo are answered.
    """
    replies = None
    if where is not None:
        replies = games.handle(mail, where)
    return one_answer(mail.sender, replies if replies is not None else echo_or_help(mail))


def echo_or_help(mail: ReadMail) -> list[Reply]:
    """HELP, END/SIGNOFF and the echo of order lines that belong to no game."""
    lines = mail.text.split("\n") if mail.text else []
    skipped = max(0, len(lines) - MAX_LINES)
    lines = lines[:MAX_LINES]
    topics: list[str] = [""] if plain_words(mail.subject) in HELP_WORDS else []
    powers, provinces = games.reading_names()
    order_lines: list[str] = []
    for line in lines:
        word = plain_words(line)
        if word in _STOP_WORDS:
            break
        topic = help_topic(line)
        if topic is not None:
            topics.append(topic)
            order_lines.append("")  # keep line numbers matching the mail's text
        elif looks_like_a_command(line, powers, provinces):
            order_lines.append(line)
        else:
            order_lines.append("")  # a person's words: no order, no error
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
