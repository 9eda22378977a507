"""Every mail template renders, through the same strict environment the judge sends mail with.

Templates with a known caller are rendered with the context that caller passes (the daemon's
replies in judge/desk and judge/processor, the results mails from judge.reports). A template
added since gets a stand-in for each variable it names, which still proves that it parses, that
it starts with its Subject line and that it renders at all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jinja2 import meta
from report_scenarios import fall_1901, fall_1905_victory, spring_1901

from judge.render import environment, render_mail
from judge.reports import MASTER, OBSERVER, Viewer, mail_context, results_mail, template_name
from judge.resources import data_dir

JUDGE = {"judge_name": "Helsinki Judge", "judge_address": "judge@example.org"}

KNOWN: dict[str, dict[str, Any]] = {
    "help": {"variants": [{"name": "mercator", "title": "Mercator"}], "topic": ""},
    "echo": {
        "subject": "my orders",
        "lines": [
            {"source": "A PAR-BUR", "error": None, "full": "Army Paris -> Burgundy"},
            {"source": "A PAR-XYZ", "error": "unknown province XYZ", "full": None},
        ],
        "errors": 1,
        "skipped": 2,
        "max_lines": 300,
    },
    "nothing_read": {"subject": "hello"},
    "reply_limit": {"limit": 20, "address": "player@example.org"},
    "unreadable": {"problem": "no text part", "subject": "picture"},
    "held_notice": {
        "inbox_id": 7,
        "sender": "player@example.org",
        "subject": "orders",
        "message_id": "<1@example.org>",
        "received_at": "2026-11-22T21:00:00+00:00",
        "error": "Traceback ...",
    },
    "game_created": {
        "game": "alpha",
        "variant": "Standard",
        "rules": ["postal-1972"],
        "powers": ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"],
        "reply_address": "judge+gmtokenabcdefgh@example.org",
        "secret": False,
    },
    "signed_on": {
        "game": "alpha",
        "power": "France",
        "reply_address": "judge+abcdefghijklmnop@example.org",
        "open_powers": ["Italy"],
        "open_seats": 1,
        "started": False,
        "phase": "",
        "board": "",
    },
    "game_started": {
        "game": "alpha",
        "power": "France",
        "phase": "S1901M",
        "reply_address": "judge+abcdefghijklmnop@example.org",
        "units": ["Fleet Brest", "Army Marseilles", "Army Paris"],
        "deadline": "Sat Apr 04 2026 23:30:00 +0000",
        "board": "",
        "notes": "",
    },
    "own_map": {"game": "maze", "map": "Your map of the maze (TAG): ...\n"},
    "board_picture": {
        "game": "alpha",
        "phase": "F1901M",
        "variant": "Standard",
        "units": ["France: Army Burgundy, Army Marseilles, Fleet Mid-Atlantic Ocean"],
        "centres": ["France (3): bre, mar, par"],
    },
    "orders_read": {
        "game": "alpha",
        "power": "France",
        "phase": "S1901M",
        "lines": [
            {
                "source": "A PAR-BUR",
                "error": None,
                "full": "Army Paris -> Burgundy",
                "replaced": "A PAR - PIC",
                "note": None,
            },
            {
                "source": "F PAR-BUR",
                "error": None,
                "full": "Army Paris -> Burgundy",
                "replaced": "A PAR - BUR",
                "note": "Paris holds an army, not a fleet: the order is taken for the army",
            },
            {"source": "A PAR-XYZ", "error": "line 2, column 7: ...", "full": None},
        ],
        "errors": 1,
        "missing": ["Army Marseilles"],
        "retreats": [],
        "adjustment": False,
        "due": "",
    },
    "desk_problems": {"subject": "orders", "problems": ["line 1: there is no game named x"]},
    "observing": {"game": "alpha", "phase": "S1901M"},
    "game_list": {
        "games": [{"name": "alpha", "status": "active", "phase": "S1901M", "variant": "standard"}]
    },
    "game_detail": {
        "game": "alpha",
        "status": "forming",
        "phase": "",
        "variant": "standard",
        "rules": [],
        "seats": [{"power": "France", "holder": "open"}],
        "observers": 1,
    },
    "results_judge": mail_context(spring_1901(), "judge"),
    "results_postal": mail_context(spring_1901(), "postal"),
}


class Anything:
    """A stand-in value for a template variable nobody has given a sample for yet."""

    def __getattr__(self, name: str) -> Anything:
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __getitem__(self, key: object) -> Anything:
        return self

    def __call__(self, *args: object, **kwargs: object) -> Anything:
        return self

    def __iter__(self) -> Iterator[Anything]:
        return iter([self])

    def __len__(self) -> int:
        return 1

    def __str__(self) -> str:
        return "sample"

    def __int__(self) -> int:
        return 1

    def __gt__(self, other: object) -> bool:
        return True

    def __lt__(self, other: object) -> bool:
        return False


def templates() -> list[str]:
    folder = data_dir("mail_templates")
    return sorted(p.name.removesuffix(".txt.j2") for p in folder.glob("*.txt.j2"))


# Sample contexts kept one file per template (tests/reports/template_contexts/NAME.json), so
# each part of the desk adds its own samples without touching this file.
CONTEXT_FILES = Path(__file__).parent / "template_contexts"
KNOWN.update(
    {path.stem: json.loads(path.read_text()) for path in sorted(CONTEXT_FILES.glob("*.json"))}
)


def context_for(name: str) -> dict[str, Any]:
    if name in KNOWN:
        return {**JUDGE, **KNOWN[name]}
    env = environment()
    assert env.loader is not None
    source = env.loader.get_source(env, f"{name}.txt.j2")[0]
    return {variable: Anything() for variable in meta.find_undeclared_variables(env.parse(source))}


def test_the_results_templates_are_among_them() -> None:
    assert {"results_judge", "results_postal"} <= set(templates())


@pytest.mark.parametrize("name", templates())
def test_template_renders(name: str) -> None:
    mail = render_mail(name, **context_for(name))
    assert mail.subject and "None" not in mail.subject
    assert mail.body.strip()


def test_results_mail_in_judge_style() -> None:
    context = mail_context(fall_1901(), "judge", Viewer.of_power("GERMANY"))
    mail = render_mail(template_name("judge"), **JUDGE, **context)
    assert mail.subject == "Helsinki Judge:helsinki - F1901M Results"
    lines = mail.body.splitlines()
    assert lines[0] == ":: Judge: Helsinki Judge  Game: helsinki  Variant: Standard"  # as named
    assert lines[1] == ":: Deadline: F1901R Tue Dec 01 2026 18:00:00 +0000"
    assert lines[2] == ""
    assert lines[3] == "Movement results for Fall of 1901.  (helsinki.002)"
    assert "The German Army in Berlin can retreat to Kiel or Munich or Prussia." in mail.body


def test_results_mail_after_the_game_ends_has_no_deadline_header() -> None:
    mail = render_mail("results_judge", **JUDGE, **mail_context(fall_1905_victory(), "judge"))
    assert ":: Deadline:" not in mail.body
    assert mail.body.rstrip().endswith("The game is over.  Thank you for playing.")


def test_results_mail_in_postal_style() -> None:
    context = mail_context(spring_1901(), "postal", MASTER)
    mail = render_mail(template_name("postal"), **JUDGE, **context)
    assert mail.subject == "helsinki: Spring 1901 Movement results"
    assert mail.body.startswith("Game helsinki: Spring 1901 Movement (S1901M)\n")


def test_results_mail_renders_one_readers_mail() -> None:
    mail = results_mail(fall_1905_victory(), "postal", OBSERVER, JUDGE)
    assert mail.subject == "helsinki: Fall 1905 Movement results"
    assert "FRANCE WINS. Game over." in mail.body


def test_unknown_style_has_no_template() -> None:
    with pytest.raises(ValueError):
        template_name("fancy")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_the_stand_in_renders_known_templates_too(name: str) -> None:
    """The fallback for new templates is itself checked on the templates we know."""
    env = environment()
    assert env.loader is not None
    source = env.loader.get_source(env, f"{name}.txt.j2")[0]
    names = meta.find_undeclared_variables(env.parse(source))
    assert names, name
    assert render_mail(name, **{n: Anything() for n in names}).subject


def test_help_names_every_command_the_reader_knows() -> None:
    """A command added to the reader and left out of HELP is a command nobody finds."""
    from judge.language.commands import COMMAND_SPELLINGS

    rendered = render_mail("help", **JUDGE)
    text = rendered.body
    words = set(re.findall(r"[A-Z][A-Z]+", text))
    for spelling in COMMAND_SPELLINGS:
        for word in spelling.split():
            # SET NOWAIT is written SET WAIT / SET NOWAIT, SET [NO]PARTIAL and the like.
            assert word in words or (word.startswith("NO") and word[2:] in words), spelling
