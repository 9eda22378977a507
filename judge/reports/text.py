"""The entry points: a phase report as text for one reader, and as a rendered results mail."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from judge.render import RenderedMail, render_mail
from judge.reports.judge_style import deadline_text, judge_text
from judge.reports.phase import PhaseReport
from judge.reports.postal_style import postal_text
from judge.reports.view import OBSERVER, Viewer, Visibility, everything_public, view_for

Style = Literal["judge", "postal"]
STYLES: tuple[Style, ...] = ("judge", "postal")


def report_text(
    report: PhaseReport,
    style: Style = "judge",
    viewer: Viewer = OBSERVER,
    visibility: Visibility = everything_public,
) -> str:
    """The results body `viewer` reads, in the game's report style."""
    seen = view_for(report, viewer, visibility)
    if seen.text_writer is not None:
        return seen.text_writer(replace(seen, style=style))
    if style == "judge":
        return judge_text(seen)
    if style == "postal":
        return postal_text(seen)
    raise ValueError(f"unknown report style {style!r} (judge or postal)")


def mail_context(
    report: PhaseReport,
    style: Style = "judge",
    viewer: Viewer = OBSERVER,
    visibility: Visibility = everything_public,
    variant: str | None = None,
) -> dict[str, Any]:
    """What mail_templates/results_STYLE.txt.j2 needs, besides the judge's own name and address
    (which the caller adds, as for every template). `variant` is njudge's header word, the map's
    name unless given (a caller may add a modifier: "Standard Gunboat")."""
    next_phase = report.next_phase
    return {
        "game": report.game,
        "phase": report.phase.name,
        "phase_long": report.phase.long_name(),
        "next_phase": next_phase.name,
        "deadline": deadline_text(report.next_deadline) if report.next_deadline else "",
        "game_over": report.game_over,
        "variant": variant or report.game_map.name.title(),
        "body": report_text(report, style, viewer, visibility),
    }


def template_name(style: Style) -> str:
    """The template a style's results mail is rendered from."""
    if style not in STYLES:
        raise ValueError(f"unknown report style {style!r} (judge or postal)")
    return f"results_{style}"


def results_mail(
    report: PhaseReport,
    style: Style,
    viewer: Viewer,
    judge: dict[str, str],
    visibility: Visibility = everything_public,
    variant: str | None = None,
) -> RenderedMail:
    """The results mail for one reader, rendered; `judge` is the judge's own template context
    (judge_name, judge_address), as every template gets it."""
    context = mail_context(report, style, viewer, visibility, variant)
    return render_mail(template_name(style), **judge, **context)
