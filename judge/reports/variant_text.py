"""Pieces every variant's own results layout shares (judge/variants/*/report.py): a failed
order's mark and the line that ends the results (a win, a claimed win in the variant's words,
a draw, a concession, or the next phase and its deadline)."""

from __future__ import annotations

from typing import Any

from judge.engine.results import FAILURE, ILLEGAL, VOID
from judge.reports.judge_style import deadline_text, power_title
from judge.reports.phase import PhaseReport


def powers_and(powers: tuple[str, ...]) -> str:
    """``France``, ``France and Italy``, ``Austria, England and France``."""
    names = [power_title(p) for p in powers]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def failure_mark(result: Any) -> str:
    """After a failed or void order: ``  (*fails*: bounced)``, ``  (*void*)``."""
    word = {FAILURE: "fails", ILLEGAL: "void", VOID: "void"}.get(result.result, result.result)
    return f"  (*{word}*: {result.reason})" if result.reason else f"  (*{word}*)"


def closing_line(report: PhaseReport, claimed_how: str) -> str | None:
    """The results' last line: a win, a win claimed together (`claimed_how` follows the names:
    ", who claimed the win together (rule 10)"), a draw, a concession, or the next phase with
    its deadline; None when the game is over for another reason."""
    if report.result.victory:
        return f"The game is won by {powers_and(report.result.victory)}."
    if report.claimed:
        return f"The game is won by {powers_and(report.claimed)}{claimed_how}."
    if report.draw:
        return f"The game ends in a draw between {powers_and(report.draw)}."
    if report.concession:
        return f"The game is conceded to {power_title(report.concession)}."
    if report.game_over:
        return None
    nxt = "".join(
        f"The win claimed by {powers_and(combine)} is not granted this phase; a claim holds for "
        "one phase, so claim it again (SET CLAIM) for the next.\n"
        for combine in report.claims_not_won
    )
    nxt += f"The next phase is {report.next_phase.long_name()}"
    if report.next_deadline:
        nxt += f"; orders are due {deadline_text(report.next_deadline)}"
    return nxt + "."
