"""Mails are rendered from templates in mail_templates/ through one strict Jinja environment.

StrictUndefined turns a missing variable into an error at render time instead of a blank in a
player's mail. A template's first line is `Subject: ...`, then a blank line, then the body.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from judge.resources import data_dir


@dataclass(frozen=True)
class RenderedMail:
    """The subject and body of one mail, ready for the outbox."""

    subject: str
    body: str


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The Jinja environment over the shipped mail templates."""
    return Environment(
        loader=FileSystemLoader(str(data_dir("mail_templates"))),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def render_mail(name: str, **context: Any) -> RenderedMail:
    """Render template `name` (without the .txt.j2 suffix) into a subject and a body."""
    text = environment().get_template(f"{name}.txt.j2").render(**context)
    head, separator, body = text.partition("\n\n")
    if not separator or not head.startswith("Subject:"):
        raise ValueError(f"template {name} must start with a 'Subject:' line and a blank line")
    subject = " ".join(head[len("Subject:") :].split())
    return RenderedMail(subject=subject, body=body.rstrip("\n") + "\n")
