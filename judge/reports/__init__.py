"""Results reports: what players, observers and the game master read after each phase.

`PhaseReport` carries one adjudicated phase; `report_text` writes it in the `judge` style (the
njudge results layout mapping tools parse) or the `postal` style (zine notation) for one
`Viewer`; `mail_context` feeds mail_templates/results_*.txt.j2. See README.md here.
"""

from judge.reports.phase import PhaseReport
from judge.reports.text import (
    STYLES,
    Style,
    mail_context,
    report_text,
    results_mail,
    template_name,
)
from judge.reports.view import (
    MASTER,
    OBSERVER,
    Viewer,
    Visibility,
    everything_public,
    view_for,
)

__all__ = [
    "MASTER",
    "OBSERVER",
    "STYLES",
    "PhaseReport",
    "Style",
    "Viewer",
    "Visibility",
    "everything_public",
    "mail_context",
    "report_text",
    "results_mail",
    "template_name",
    "view_for",
]
