"""Where a person's new text ends: the lines a writer typed in this mail, without the quotes,
attributions, signatures, closings, gateway footers and copies of earlier mail that mail programs
put around them.

Mail programs mark these in many ways (the reply-parsing libraries collect them): a ``-- ``
line, "Sent from my iPhone", "- Jamis", an "On ... wrote:" line in a dozen languages (Gnus
writes its own, Android wraps the Russian one over two lines), Yahoo's "--- On ... wrote:",
Outlook's From:/Sent: block, "-----Original Message-----", supercite quotes (`LK>`), "[...]"
between quotes, a virus scanner's "This message has been scanned" and uuencoded attachments.
A line that looks like an order or a command is never dropped below a signature without a word:
`new_text` keeps it (and what follows it), so it is still read and answered.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Lines after which everything is a copy of another mail.
_COPY_LINES = re.compile(
    r"^\s*(?:-{2,}\s*(?:original message|forwarded message|ursprüngliche nachricht|"
    r"weitergeleitete nachricht|message d'origine|message transféré|mensaje original|"
    r"messaggio originale|oorspronkelijk bericht|исходное сообщение|пересылаемое сообщение)"
    r"\s*-{2,}|begin forwarded message:|_{10,}|={10,})\s*$",
    re.IGNORECASE,
)
# The words an attribution line ends with ("On Mon, Ann wrote:"), in the languages mail
# programs write them in.
_SAID = (
    r"wrote|writes|said|schrieb|a écrit|escribió|scrisse|skrev|napisał|schreef|kirjoitti|"
    r"написал|написала|пишет|escreveu|írta|napsal|έγραψε|yazdı|写道|が書きました"
)
_ATTRIBUTION = re.compile(rf"^.{{0,300}}?(?:{_SAID})\s*:?\s*$", re.IGNORECASE)
# What an attribution names beside the verb: a date, an address, or "On"/"Am"/"Le" ... first.
_SAYS_WHO = re.compile(r"\d|@|^\s*(?:-+\s*)?(?:on|am|le|el|il|op|em|den|w dniu)\b", re.IGNORECASE)
# A line ending with a colon that introduces quotes (Gnus and supercite write their own).
_INTRODUCES = re.compile(r"^\s*\S.{10,300}:\s*$")
# A MIME boundary and part headers in a body its program failed to mark as multipart.
_BOUNDARY = re.compile(r"^--[\w'()+,./:=?-]{8,}\s*$")
_PART_HEADER = re.compile(r"^content-(?:type|transfer-encoding|disposition)\s*:", re.IGNORECASE)
# The header block Outlook and Yahoo put above a copy instead of `>` lines.
_FROM_HEADER = re.compile(r"^\s*\*?(?:from|von|de|от)\s*:\*?\s+\S", re.IGNORECASE)
_NEXT_HEADER = re.compile(
    r"^\s*\*?(?:sent|date|to|subject|cc|gesendet|an|betreff|datum|envoyé|à|objet|"
    r"отправлено|кому|тема)\s*:",
    re.IGNORECASE,
)
# Quoted lines: `>`, and supercite's `LK>` (initials before the mark).
_QUOTE = re.compile(r"^\s*(?:[A-Za-z]{1,4})?>")
# An elision between quotes ("[...]", "[snip]").
_ELISION = re.compile(r"^\s*[\[<(]\s*(?:\.{2,}|…|snip(?:ped)?)\s*[\])>]\s*$", re.IGNORECASE)
# Signatures without the "-- " line: a dash and a name ("- Jamis", "-Carl"), the phones' and
# mail apps' own lines.
_DASH_NAME = re.compile(r"^\s*[-–—~]{1,2}\s*[^\W\d_][\w.' ]{0,30}$")
_SENT_FROM = re.compile(
    r"^\s*(?:sent from (?:my|the|mail|yahoo|outlook|windows)\b.*|sent via\b.*|"
    r"get outlook for \w+.*|envoyé de mon \w+.*|von meinem \w+ gesendet.*|"
    r"enviado desde mi \w+.*|inviato da(?:l mio)? \w+.*|отправлено с \w+.*)$",
    re.IGNORECASE,
)
# A closing ("Thanks,", "BR,", "Happy hacking,"), when only a name or two follows it.
_CLOSING = re.compile(
    r"^\s*(?:thanks?(?: you| again| a lot)?|many thanks|cheers|regards|best(?: regards| wishes)?|"
    r"kind regards|warm regards|br|brgds|rgds|yours(?: truly| sincerely)?|sincerely|"
    r"happy hacking|take care|ciao|gruß|grüße|viele grüße|mfg|cordialement|saludos|"
    r"с уважением|спасибо)\s*[,.!]?\s*$",
    re.IGNORECASE,
)
_NAME_LINES = 3
# A name under a closing: a few words of letters, none a unit's letter or word of an order.
_NAME = re.compile(
    r"^\s*[-–—~]{0,2}\s*(?!(?:a|f|army|fleet)\b)[^\W\d_][\w.']*(?:\s+[^\W\d_][\w.']*){0,3}\s*$",
    re.I,
)
# Lines a mail gateway adds below the writer's text.
_GATEWAY = re.compile(
    r"(?:has been (?:scanned|checked) (?:for|by)|believed to be clean|protects your network|"
    r"virus(?:-| )?(?:free|checked|scanned)|scanned by \w+|"
    r"this (?:e-?mail|message) (?:and any attachments )?(?:is|are|may be) (?:confidential|"
    r"intended))",
    re.IGNORECASE,
)
# A uuencoded file in a plain body: "begin 666 name", its lines, "end".
_UU_BEGIN = re.compile(r"^begin [0-7]{3,4} \S")


def new_text(body: str, looks_like_a_command: Callable[[str], bool] | None = None) -> str:
    """The lines the sender wrote in this mail: no quotes, attribution, signature, closing,
    footer or copy of another mail. Below a signature or footer, a line `looks_like_a_command`
    accepts (an order, a command, a mistyped one) is kept with everything after it, so that
    no order is dropped without an answer."""
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.rstrip()
        end = _ends_here(lines, index)
        if end is not None:
            copy = _COPY_LINES.match(line) or _FROM_HEADER.match(line) or _BOUNDARY.match(line)
            rest = None if copy else _resumes(lines, end, looks_like_a_command)
            if rest is None:
                break
            index = rest
            continue
        if _UU_BEGIN.match(line):
            index = _after_uuencoded(lines, index)
            continue
        if _QUOTE.match(line) or _ELISION.match(line):
            index += 1
            continue
        skip = _attribution_length(lines, index)
        if skip:
            if not _next_is_quote(lines, index + skip):
                break  # an unquoted copy of the mail answered (Yahoo, Outlook) follows
            index += skip
            continue
        kept.append(stripped)
        index += 1
    while kept and not kept[-1].strip():
        kept.pop()
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept)


def _ends_here(lines: list[str], index: int) -> int | None:
    """Where the writer's text ends at this line, if it does: the index of the line after
    the marker; None when the line is the writer's."""
    line = lines[index]
    stripped = line.strip()
    if stripped in ("--", "-- ") or line.rstrip() == "--":
        return index + 1
    if _COPY_LINES.match(line) or _SENT_FROM.match(line) or _GATEWAY.search(line):
        return index + 1
    if _BOUNDARY.match(line) and index + 1 < len(lines) and _PART_HEADER.match(lines[index + 1]):
        return index + 1
    if _FROM_HEADER.match(line) and any(
        _NEXT_HEADER.match(following) for following in lines[index + 1 : index + 4]
    ):
        return index + 1
    if _DASH_NAME.match(line) and not any(s.strip() for s in lines[index + 1 : index + 3]):
        return index + 1
    if _CLOSING.match(line):
        rest = [s for s in lines[index + 1 :] if s.strip()]
        if len(rest) <= _NAME_LINES and all(_NAME.match(s) for s in rest):
            return index + 1
    return None


def _resumes(
    lines: list[str], start: int, looks_like_a_command: Callable[[str], bool] | None
) -> int | None:
    """The first line below a marker that looks like a command (reading goes on from there),
    or None: nothing below the marker is the writer's orders."""
    if looks_like_a_command is None:
        return None
    for index in range(start, len(lines)):
        line = lines[index]
        if _QUOTE.match(line) or not line.strip():
            continue
        if _COPY_LINES.match(line) or _FROM_HEADER.match(line) or _NEXT_HEADER.match(line):
            return None  # a copy of another mail: its orders are not this mail's
        if _attribution_length(lines, index):
            return None
        if looks_like_a_command(line):
            return index
    return None


def _attribution_length(lines: list[str], index: int) -> int:
    """How many lines the attribution starting here takes (0: none): one, or two where a mail
    program wrapped it ("... <" then "ann@example.org> написал:")."""
    line = lines[index]
    if not line.strip():
        return 0
    if _ATTRIBUTION.match(line) and _SAYS_WHO.search(line) and not _QUOTE.match(line):
        return 1
    if _INTRODUCES.match(line) and len(line.split()) >= 4 and _next_is_quote(lines, index + 1):
        return 1
    if index + 1 < len(lines) and len(line) + len(lines[index + 1]) < 400:
        joined = f"{line.rstrip()} {lines[index + 1].strip()}"
        if lines[index + 1].strip() and _ATTRIBUTION.match(joined) and re.search(r"\d|@", line):
            return 2
    return 0


def _next_is_quote(lines: list[str], index: int) -> bool:
    """Whether the next line with text from `index` on is quoted (True at the mail's end)."""
    for following in lines[index:]:
        if following.strip():
            return bool(_QUOTE.match(following))
    return True


def _after_uuencoded(lines: list[str], index: int) -> int:
    """The line after a uuencoded block's `end` (or the mail's end)."""
    for following in range(index + 1, len(lines)):
        if lines[following].strip() == "end":
            return following + 1
    return len(lines)
