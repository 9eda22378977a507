"""Edges between the desk's modules: the GM's spellings on the way in through the command
reader, orders sent to a paused or finished game, and order lines sent to the GM's reply address.
"""

from __future__ import annotations

from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, send
from test_master import alpha, gm_address

from judge.store.games import GameStatus


def test_signon_master_and_gm_are_read_as_the_game_master(
    engine: Engine, started: dict[str, str]
) -> None:
    for word in ("MASTER", "GM", "master"):
        rows = send(engine, f"SIGNON {word} alpha gmsecret\nPAUSE", sender=GM)
        assert "desk_problems" not in [r.kind for r in rows], body_of(rows[-1])
        assert alpha(engine).status == GameStatus.PAUSED
        send(engine, f"SIGNON {word} alpha gmsecret\nRESUME", sender=GM)
        assert alpha(engine).status == GameStatus.ACTIVE
    rows = send(engine, "SIGNON MASTER alpha wrong\nPAUSE", sender=GM)
    assert "GM password of game alpha is not right" in body_of(rows[-1])
    assert alpha(engine).status == GameStatus.ACTIVE


def test_orders_to_a_paused_game_are_told_it_is_paused(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, "SIGNON MASTER alpha gmsecret\nPAUSE", sender=GM)
    rows = send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    text = body_of(rows[-1])
    assert "is paused by its GM: orders are taken again when it resumes" in text
    assert "not running yet" not in text


def test_order_lines_to_the_gm_reply_address_ask_for_become(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "A PAR-BUR", sender=GM, to=gm_address(engine))
    text = body_of(rows[-1])
    assert "GM's reply address" in text and "BECOME power" in text
    rows = send(engine, "BECOME France\nA PAR-BUR", sender=GM, to=gm_address(engine))
    assert "orders_read" in [r.kind for r in rows]
