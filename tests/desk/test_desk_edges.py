"""Edges between the desk's modules: the GM's spellings on the way in through the command
reader, orders sent to a paused or finished game, and order lines sent to the GM's reply address.
"""

from __future__ import annotations

from sqlalchemy import Engine
from test_games_by_mail import GM, body_of, player, send
from test_master import alpha, gm_address

from judge.games.seats import SeatStatus
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
    assert [r.kind for r in rows] == ["became+orders_read"]


def test_a_dislodged_unit_of_a_power_in_civil_disorder_is_removed_under_postal_rules(
    engine: Engine, started: dict[str, str]
) -> None:
    """Seed 004 / postal-1972: a power in civil disorder does not retreat; the phase's history
    keeps the civil disorder the engine saw."""
    from judge.store import session_scope
    from judge.store.game_queries import find_game, history

    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.rules = ["postal-1972"]
        seat = next(s for s in game.seats if s.power == "AUSTRIA")
        seat.status = SeatStatus.CIVIL_DISORDER
        # Italy attacks Trieste with support; Austria's fleet there is dislodged.
        game.position = {
            **game.position,
            "units": [
                {"power": "AUSTRIA", "type": "F", "loc": "tri"},
                {"power": "AUSTRIA", "type": "A", "loc": "vie"},
                {"power": "ITALY", "type": "A", "loc": "ven"},
                {"power": "ITALY", "type": "F", "loc": "adr"},
                {"power": "FRANCE", "type": "A", "loc": "par"},
            ],
        }
    send(engine, "A VEN-TRI\nF ADR S A VEN-TRI", sender=player("Italy"), to=started["Italy"])
    rows = send(engine, "SIGNON MASTER alpha gmsecret\nPROCESS", sender=GM)
    results = [body_of(r) for r in rows if r.kind == "results" and r.to_addr == GM]
    assert results and "Fleet Trieste" in results[0]
    # The fleet has no retreat (its power is in civil disorder): the retreat phase removes it.
    rows = send(engine, "SIGNON MASTER alpha gmsecret\nPROCESS S1901R", sender=GM)
    assert "results" in [r.kind for r in rows]
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert game.phase == "F1901M"
        units = {(u["power"], u["type"], u["loc"]) for u in game.position["units"]}
        assert units == {
            ("AUSTRIA", "A", "vie"),
            ("ITALY", "A", "tri"),
            ("ITALY", "F", "adr"),
            ("FRANCE", "A", "par"),
        }
        movement, retreat = history(session, game)[-2:]
        assert movement.position_before["civil_disorder"] == ["AUSTRIA"]
        [dislodged] = movement.results["dislodged"]
        assert (dislodged["loc"], dislodged["retreats"]) == ("tri", [])
        assert retreat.position_before["civil_disorder"] == ["AUSTRIA"]


def test_the_mails_of_one_game_thread_together(engine: Engine, started: dict[str, str]) -> None:
    """Every mail about game alpha refers to one thread root, replies to the player's own mails
    (which keep answering those mails) and notices alike; another game has another root."""
    from email import message_from_bytes

    from judge.store import OutboxMessage, session_scope

    root = "<game.alpha@example.org>"
    rows = send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    send(engine, "CREATE beta gmsecret standard", sender=GM)
    rows += send(engine, "SIGNON MASTER alpha gmsecret\nPROCESS", sender=GM)
    with session_scope(engine) as session:
        every = session.query(OutboxMessage).order_by(OutboxMessage.id).all()
        mails = {r.id: message_from_bytes(r.raw) for r in every}
        kinds = {r.id: r.kind for r in every}
    about_alpha = [i for i, k in kinds.items() if k in ("game_started", "orders_read", "results")]
    assert {kinds[i] for i in about_alpha} == {"game_started", "orders_read", "results"}
    for i in about_alpha:
        assert mails[i]["References"].split()[0] == root, kinds[i]
    orders_reply = next(i for i in about_alpha if kinds[i] == "orders_read")
    assert mails[orders_reply]["In-Reply-To"] != root  # it answers the player's mail
    notice = next(i for i in about_alpha if kinds[i] == "results")
    assert mails[notice]["In-Reply-To"] == root
    beta = next(
        i for i, k in kinds.items() if k == "game_created" and "beta" in mails[i]["Subject"]
    )
    assert mails[beta]["References"].split()[0] == "<game.beta@example.org>"
    # Mail about no game (HELP) starts no game thread.
    rows = send(engine, "HELP", sender="who@example.org")
    assert "<game." not in message_from_bytes(rows[0].raw)["References"]


def test_a_volunteer_joins_to_stand_by_and_takes_the_seat_at_the_second_miss(
    engine: Engine, started: dict[str, str]
) -> None:
    """Seed 004: a first missed move announces the seat for a replacement; JOIN game password
    power stands by for it; a second miss hands the seat to the volunteer."""
    from test_deadlines import HOLDS
    from test_games_by_mail import POWERS

    from judge.store import session_scope
    from judge.store.game_queries import find_game

    volunteer = "volunteer@example.org"
    rows = send(engine, "JOIN alpha vpw Italy", sender=volunteer)
    assert "has no open seat and seeks no replacement for Italy" in body_of(rows[-1])

    def play_without_italy() -> list:
        for power in POWERS:
            if power != "Italy":
                send(engine, HOLDS[power], sender=player(power), to=started[power])
        return send(engine, "SIGNON MASTER alpha gmsecret\nPROCESS MISSED", sender=GM)

    rows = play_without_italy()
    assert "replacement_sought" in [r.kind for r in rows]
    rows = send(engine, "JOIN alpha vpw Italy", sender=volunteer)
    assert {(r.kind, r.to_addr) for r in rows} == {
        ("standing_by", volunteer),
        ("standby_notice", GM),
    }
    assert any("you stand by for Italy" in r.subject for r in rows)
    # A second volunteer finds the place taken.
    rows = send(engine, "JOIN alpha pw2 Italy", sender="late@example.org")
    assert "seeks no replacement" in body_of(rows[-1])

    rows = play_without_italy()
    handed = {r.kind: r for r in rows if r.to_addr == volunteer}
    assert set(handed) == {"standby_takes_seat", "results"}
    assert "judge+" in body_of(handed["standby_takes_seat"])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        italy = next(s for s in game.seats if s.power == "ITALY")
        assert italy.person is not None and italy.person.address_of_record == volunteer
        assert italy.status == SeatStatus.PLAYING


def test_a_refusal_for_a_seat_threads_with_its_game(
    engine: Engine, started: dict[str, str]
) -> None:
    from email import message_from_bytes

    send(engine, "SIGNON MASTER alpha gmsecret\nPAUSE", sender=GM)
    rows = send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    [refusal] = [r for r in rows if r.kind == "desk_problems"]
    assert message_from_bytes(refusal.raw)["References"].split()[0] == "<game.alpha@example.org>"
    # A stranger's refusal belongs to no game.
    rows = send(engine, "A PAR-BUR", sender="stranger@example.org")
    assert "<game." not in str(message_from_bytes(rows[-1].raw)["References"])
