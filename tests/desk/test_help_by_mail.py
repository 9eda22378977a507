"""HELP <variant> by mail: a stranger's `HELP mercator` (no game, no seat) and a player's
inside a game mail are answered with the variant's order forms, never read as an order line."""

from __future__ import annotations

from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, send


def test_a_stranger_s_help_mercator_is_the_variant_s_help(engine: Engine) -> None:
    (row,) = send(engine, "HELP mercator", sender="new@example.org")
    text = body_of(row)
    assert "expected a province" not in text
    assert "Help on Mercator" in row.subject
    assert "TS1" in text and "A(Lon) B F(ENC)" in text and "Place A Sil" in text


def test_help_lines_in_a_mail_with_commands(engine: Engine, started: dict[str, str]) -> None:
    """A player's mail to his seat with HELP 1885 and plain HELP: both answered."""
    rows = send(engine, "HELP 1885\nHELP", sender=player("France"), to=started["France"])
    text = "\n".join(body_of(r) for r in rows)
    assert "Rome: Fleet" in text and "HELP algernon" in text
    assert "expected a province" not in text


def test_the_gm_s_help_names_what_process_does(engine: Engine, started: dict[str, str]) -> None:
    (row,) = send(engine, "HELP", sender=GM)
    text = " ".join(body_of(row).split())
    assert "PROCESS [phase] [MISSED]" in text
    assert "Before its deadline a power without orders has missed nothing" in text
