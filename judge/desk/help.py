"""HELP and HELP <variant>: the judge's commands, or one variant's order forms and example mails
(its record's `desk.help`), as the desk answers them whatever else a mail holds."""

from __future__ import annotations

from typing import Any

from judge.desk.replies import HELP_WORDS, Reply, plain_words

# HELP <variant>'s column of order forms, at most this wide (the meanings follow it).
FORM_COLUMN = 30


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
        if found is not None and found.desk.help is not None:
            return Reply("help", "help_variant", variant_help_context(found))
    return Reply("help", "help", {"variants": listed, "topic": topic or ""})


def variant_help_context(found: Any) -> dict[str, Any]:
    """What the help_variant template prints of a variant's record: its help, each form's
    line padded to one column, each example mail's power as the variant writes it."""
    helped = found.desk.help
    forms = [{"group": f.group, "line": f.line, "meaning": f.meaning} for f in helped.forms]
    examples = [
        {"power": found.language.power_title(e.power), "when": e.when, "lines": list(e.lines)}
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
