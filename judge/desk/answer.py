"""One mail, one answer: everything the desk has to say to a mail's sender goes in one mail.

The desk's handlers each add what they have to say as they go (a `Reply`), so a mail that signs
on and sends orders, or sets the deadline and the grace, would get a mail for each. `one_answer`
puts every reply meant for the sender (`to` None, or the sender's own address, as the start
notice to the player whose SIGNON took the last seat) into one mail, each part under a heading,
in the order the desk made them (judge.desk.games: the commands' replies as the mail's lines
called for them, then the orders read, then what was not done). The mails other people must get (the other
players, the GM, the observers, a holder's copy of orders sent from elsewhere) stay mails of
their own, and so do a phase's results and press, which every reader gets alike (mapping tools
read the results mail as it is), the sender too; when such a mail is all the sender gets (a
GM's PROCESS), it is marked as the answer (`Reply.answering`), so it refers to the mail it
answers while it stays a notice (never held back by the sender's daily cap). The answer takes
the place of its first part among them, so what the desk says in order is sent in order: a player's "you play" before the
game's start, the GM's results before the missed turns they settled.

A single part is sent exactly as its own template writes it (a GM's PROCESS is answered by the
results mail itself). Parts about one game thread under that game; the answer carries the
Reply-To the parts agree on, none when they name different ones (each part's own address is
then written under its heading).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from judge.desk.replies import Reply
from judge.identity import normalise_address
from judge.render import RenderedMail, render_mail

# The template and kind of an answer of several parts.
ANSWER = "answer"
# Mails every reader of a game gets alike: never folded into the sender's answer.
STANDALONE_KINDS = frozenset({"results", "press"})
# How a part is headed in an answer of several, where its own subject would say less.
_HEADINGS = {"desk_problems": "Not done"}
_KIND_LENGTH = 64  # the outbox's kind column
_SUBJECT_PARTS = 3  # parts named in an answer's subject before "and N more"
_RULE = "-" * 72


def one_answer(sender: str | None, replies: list[Reply]) -> list[Reply]:
    """The desk's replies with every one meant for `sender` folded into one answer (`to`
    None), which stands where the first of them stood; the other mails in their order."""
    own = normalise_address(sender).lower() if sender else None

    def for_sender(reply: Reply) -> bool:
        if reply.to is None:
            return True
        if reply.kind in STANDALONE_KINDS or own is None:
            return False
        return normalise_address(reply.to).lower() == own

    parts = [reply for reply in replies if for_sender(reply)]
    if not parts:
        return _standalone_answer(own, replies)
    answer = replace(parts[0], to=None) if len(parts) == 1 else _combined(parts)
    out: list[Reply] = []
    for reply in replies:
        if reply is parts[0]:
            out.append(answer)
        elif not for_sender(reply):
            out.append(reply)
    return out


def _standalone_answer(own: str | None, replies: list[Reply]) -> list[Reply]:
    """The mails, the first standalone one to the sender marked as the mail's answer."""
    out = list(replies)
    for index, reply in enumerate(out):
        if own is not None and reply.to and normalise_address(reply.to).lower() == own:
            out[index] = replace(reply, answering=True)
            break
    return out


def _combined(parts: list[Reply]) -> Reply:
    reply_tos = {part.reply_to for part in parts if part.reply_to}
    games = {part.game for part in parts if part.game}
    kinds = "+".join(dict.fromkeys(part.kind for part in parts))
    while len(kinds) > _KIND_LENGTH:
        kinds = kinds.rsplit("+", 1)[0]
    context: dict[str, Any] = {}
    if len(games) == 1:
        context["game"] = games.pop()
    return Reply(
        kinds,
        ANSWER,
        context,
        reply_to=reply_tos.pop() if len(reply_tos) == 1 else None,
        parts=tuple(replace(part, to=None) for part in parts),
        # A part's picture (MAP's) goes with the answer: one picture a mail, the first asked.
        picture=next((part.picture for part in parts if part.picture is not None), None),
    )


def render_reply(reply: Reply, common: dict[str, Any]) -> RenderedMail:
    """A reply's subject and body: its template with `common` (what every template may use
    about the judge), or, for an answer of several parts, each part under its heading."""
    if not reply.parts:
        return render_mail(reply.template, **common, **reply.context)
    rendered = [render_mail(part.template, **common, **part.context) for part in reply.parts]
    headings = [
        _HEADINGS.get(p.kind, mail.subject) for p, mail in zip(reply.parts, rendered, strict=True)
    ]
    sections = []
    for number, (part, heading, mail) in enumerate(
        zip(reply.parts, headings, rendered, strict=True), 1
    ):
        lines = [f"{number}. {heading}", _RULE]
        if part.reply_to and reply.reply_to is None:
            lines.append(f"(Replies about this go to {part.reply_to}.)")
        sections.append("\n".join(lines) + "\n\n" + mail.body.rstrip("\n"))
    index = "\n".join(f"  {n}. {h}" for n, h in enumerate(headings, 1))
    body = (
        f"Your mail did {len(sections)} things; each is answered below, in the order of "
        f"your mail:\n{index}\n\n" + "\n\n\n".join(sections) + "\n"
    )
    return RenderedMail(subject=_subject(reply.parts, rendered), body=body)


def _subject(parts: tuple[Reply, ...], rendered: list[RenderedMail]) -> str:
    """The parts' subjects in one line: a game's name said once, what was not done last."""
    titles = [
        mail.subject
        for part, mail in zip(parts, rendered, strict=True)
        if part.kind not in _HEADINGS
    ]
    refused = len(titles) < len(parts)
    if not titles:
        return rendered[0].subject
    prefixes = {title.split(": ", 1)[0] for title in titles if ": " in title}
    lead = ""
    if len(prefixes) == 1 and all(": " in title for title in titles):
        lead = prefixes.pop() + ": "
        titles = [title.split(": ", 1)[1] for title in titles]
    if len(titles) > _SUBJECT_PARTS:
        more = len(titles) - _SUBJECT_PARTS
        titles = [*titles[:_SUBJECT_PARTS], f"and {more} more"]
    subject = lead + "; ".join(titles)
    return subject + "; not all done" if refused else subject
