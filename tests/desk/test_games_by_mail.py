"""Games by mail through the processor: create, seven sign-ons, orders by token, PROCESS, results.

Every mail goes in as an inbox row and every answer comes out as an outbox row, as in the daemon.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select

from judge import clock
from judge.processor import ProcessorSettings, process_next
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import current_orders, find_game, history, observers_of
from judge.store.games import GameStatus
from judge.store.inbox import accept
from judge.store.outbox import Identity
from tests.migrated import migrated_sqlite

SETTINGS = ProcessorSettings(
    identity=Identity("judge@example.org", "Test Judge"),
    keeper="keeper@example.org",
    replies_per_day=100,
    lease=timedelta(minutes=5),
)
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
GM = "gm@example.org"


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = migrated_sqlite(tmp_path / "judge.sqlite3")
    clock.set_now(datetime(2026, 4, 1, 8, tzinfo=UTC))
    yield made
    clock.reset()
    made.dispose()


counter = iter(range(100_000))


def send(
    engine: Engine,
    body: str,
    *,
    sender: str,
    to: str = "judge@example.org",
    subject: str = "game",
    settings: ProcessorSettings = SETTINGS,
) -> list[OutboxMessage]:
    """Deliver one mail (envelope recipient `to`), process it, return the outbox rows it caused."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Message-ID"] = f"<g{next(counter)}@example.org>"
    message.set_content(body)
    with session_scope(engine) as session:
        row_id, _ = accept(
            session, message.as_bytes(), source="test", envelope_to=to, envelope_from=sender
        )
    assert process_next(engine, settings) == row_id
    with session_scope(engine) as session:
        rows = session.scalars(
            select(OutboxMessage).where(OutboxMessage.inbox_id == row_id).order_by(OutboxMessage.id)
        )
        return list(rows)


def observe_by_reply(engine: Engine, sender: str, game: str = "alpha") -> list[OutboxMessage]:
    """OBSERVE game, then the reply to the confirmation that alone makes `sender` an observer."""
    rows = send(engine, f"OBSERVE {game}", sender=sender)
    assert [r.kind for r in rows] == ["observe_confirm"], [r.kind for r in rows]
    confirm = message_from_bytes(rows[0].raw)["Reply-To"]
    assert confirm is not None and confirm.startswith("judge+")
    return send(engine, "yes", sender=sender, to=str(confirm))


def kinds(row: OutboxMessage) -> list[str]:
    """What an outbox row answers: one kind, or the kinds of an answer of several parts."""
    return row.kind.split("+")


def body_of(row: OutboxMessage) -> str:
    payload = message_from_bytes(row.raw).get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def player(power: str) -> str:
    return f"{power.lower()}@example.org"


def reply_address(row: OutboxMessage) -> str:
    """The seat's reply address: the Reply-To header, also written in the mail's text."""
    header = message_from_bytes(row.raw)["Reply-To"]
    assert header is not None and re.fullmatch(r"judge\+[a-z2-7]{16}@example\.org", header)
    assert header in body_of(row)
    return str(header)


def set_position(engine: Engine, phase: str, game_name: str = "alpha", **fields: Any) -> None:
    """Put the game in `phase` with the position's `fields` replaced (units, dislodged, centers),
    as a test's starting point that playing there would take many mails to reach."""
    with session_scope(engine) as session:
        game = find_game(session, game_name)
        assert game is not None and game.position is not None
        game.phase = phase
        game.position = {**game.position, "phase": phase, **fields}


def stored_orders(engine: Engine, power: str, game_name: str = "alpha") -> dict[str, str]:
    """The order lines the judge keeps for the power (POWER), by key."""
    with session_scope(engine) as session:
        game = find_game(session, game_name)
        assert game is not None
        return dict(current_orders(session, game).get(power, {}))


def dislodged(power: str, kind: str, loc: str, attacker_from: str) -> dict[str, Any]:
    """A dislodged unit as a stored position keeps it (dislodged by a move over land)."""
    return {
        "power": power,
        "type": kind,
        "loc": loc,
        "attacker_from": attacker_from,
        "attacker_convoyed": False,
    }


def orders_states(engine: Engine) -> dict[str, str]:
    """The seats whose orders state is other than none, as the scheduler would read them."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        return {s.power: str(s.orders_state) for s in game.seats if s.orders_state != "none"}


@pytest.fixture
def started(engine: Engine) -> dict[str, str]:
    """A standard game with seven players; returns each power's reply address."""
    created = send(engine, "CREATE alpha gmsecret standard", sender=GM)
    assert [r.kind for r in created] == ["game_created"]
    assert "SIGNON <power> alpha" in body_of(created[0])
    addresses: dict[str, str] = {}
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} alpha pw-{power}", sender=player(power))
        own = [r for r in rows if "signed_on" in kinds(r)]
        assert len(own) == 1 and own[0].to_addr == player(power)
        addresses[power] = reply_address(own[0])
    # The seventh sign-on starts the game and tells every player: the seventh in the one answer
    # to the SIGNON, after "you play Turkey"; the GM is told the game has started.
    assert [r.kind for r in rows][0] == "signed_on+game_started"
    started_mails = [r for r in rows if "game_started" in kinds(r)]
    assert sorted(r.to_addr for r in started_mails) == sorted(player(p) for p in POWERS)
    last = body_of(rows[0])
    assert last.index("You hold Turkey") < last.index("Every seat of game alpha is taken")
    assert "Army Paris" in body_of(next(r for r in started_mails if r.to_addr == player("France")))
    assert [r.to_addr for r in rows if r.kind == "game_start_notice"] == [GM]
    return addresses


def test_seven_sign_ons_start_the_game(engine: Engine, started: dict[str, str]) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert game.status == GameStatus.ACTIVE
        assert game.phase == "S1901M"
        assert game.position is not None and len(game.position["units"]) == 22
        assert len(set(started.values())) == 7


def test_orders_by_token_a_forgery_and_processing(engine: Engine, started: dict[str, str]) -> None:
    france = started["France"]
    rows = send(engine, "A PAR-PIC\nF BRE-MAO\nA MAR-SPA", sender=player("France"), to=france)
    assert [r.kind for r in rows] == ["orders_read"]
    text = body_of(rows[0])
    assert "= Army Paris -> Picardy" in text
    assert "Still without orders (they hold unless ordered): " not in text
    assert "Every unit of France has an order." in text

    # A correction replaces the earlier order for the same unit.
    rows = send(engine, "A PAR-BUR\nA PAR-XYZ", sender=player("France"), to=france)
    text = body_of(rows[0])
    assert "(replaces A PAR - PIC)" in text
    assert "ERROR: line 2, column 7:" in text

    # A forged From: line alone changes nothing and the reply says why.
    rows = send(engine, "A PAR-GAS", sender=player("France"))
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "a From: line alone can be forged" in body_of(rows[0])

    # England orders by the password instead; one unit left without an order.
    rows = send(
        engine,
        "SIGNON England alpha pw-England\nF LON-NTH\nF EDI-NWG",
        sender="somewhere@example.net",
    )
    # One answer to the sender (signed on, then the orders read) and, as the address is not
    # England's, the orders reply alone to England's.
    answer, copy = rows
    assert (answer.kind, answer.to_addr) == ("signed_on+orders_read", "somewhere@example.net")
    assert (copy.kind, copy.to_addr) == ("orders_read", player("England"))
    assert "Still without orders (they hold unless ordered): Army Liverpool." in body_of(copy)
    assert body_of(copy).rstrip() in body_of(answer)
    # A wrong password for a held seat does not take it.
    rows = send(engine, "SIGNON Germany alpha guess\nA MUN-BUR", sender="thief@example.net")
    assert "not the right one" in body_of(rows[-1])

    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        orders = current_orders(session, game)
    assert orders == {
        "FRANCE": {"par": "A PAR - BUR", "bre": "F BRE - MAO", "mar": "A MAR - SPA"},
        "ENGLAND": {"lon": "F LON - NTH", "edi": "F EDI - NWG"},
    }
    assert orders_states(engine) == {"FRANCE": "complete", "ENGLAND": "partial"}

    # PROCESS without the GM password is refused; with it, everyone gets the results.
    rows = send(engine, "PROCESS", sender=GM)
    assert "SIGNON M game password" in body_of(rows[0])
    observe_by_reply(engine, "watcher@example.org")
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    results = {r.to_addr: body_of(r) for r in rows if r.kind == "results"}
    reply_tos = {r.to_addr: message_from_bytes(r.raw)["Reply-To"] for r in rows}
    assert reply_tos[player("France")] == france
    # The GM's copy carries the game's GM reply address; an observer's carries none.
    assert reply_tos[GM] is not None and reply_tos[GM].startswith("judge+")
    assert reply_tos[GM] != france
    assert reply_tos["watcher@example.org"] is None
    expected = {player(p) for p in POWERS} | {"watcher@example.org", GM}
    assert set(results) == expected
    for text in results.values():
        assert "Movement results for Spring of 1901." in text
        assert "France: Army Paris -> Burgundy." in text
        assert "France: Fleet Brest -> Mid-Atlantic Ocean." in text
        assert "England: Fleet London -> North Sea." in text

    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert game.phase == "F1901M"
        assert {"power": "FRANCE", "type": "A", "loc": "bur"} in game.position["units"]
        assert current_orders(session, game) == {}
        assert [record.phase for record in history(session, game)] == ["S1901M"]
    assert orders_states(engine) == {}


def test_unknown_command_gets_the_nearest_spelling(engine: Engine) -> None:
    rows = send(engine, "SINGON France alpha pw", sender=player("France"))
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "'SINGON' is no command; did you mean SIGNON?" in body_of(rows[0])


def test_a_help_subject_is_answered_beside_the_commands(engine: Engine) -> None:
    rows = send(engine, "LIST", sender="who@example.org", subject="help")
    assert [r.kind for r in rows] == ["help+game_list"]  # one mail answers both
    assert "CREATE game password variant" in body_of(rows[0])
    assert "Games on Test Judge" in body_of(rows[0])


def test_list_and_observe(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, "LIST", sender="who@example.org")
    assert "alpha" in body_of(rows[0]) and "active" in body_of(rows[0])
    rows = send(engine, "LIST alpha", sender="who@example.org")
    text = body_of(rows[0])
    assert "France" in text and "@" not in text.replace("judge@example.org", "")
    rows = observe_by_reply(engine, "who@example.org")
    assert [r.kind for r in rows] == ["observing"]
    assert "You now observe game alpha" in body_of(rows[0])
    rows = send(engine, "UNOBSERVE alpha", sender="who@example.org")
    assert [r.kind for r in rows] == ["unobserved"]
    rows = send(engine, "UNOBSERVE alpha", sender="who@example.org")
    assert "does not observe alpha" in body_of(rows[0])


def observer_addresses(engine: Engine) -> list[str]:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        return [p.address_of_record or "" for p in observers_of(session, game)]


def test_observe_waits_for_the_reply_to_its_token(engine: Engine, started: dict[str, str]) -> None:
    """A forged OBSERVE (From: an address that never answers) changes nothing; the reply to the
    token address mailed to the sender, and only that, makes an observer."""
    rows = send(engine, "OBSERVE alpha", sender="forged@example.org")
    assert [r.kind for r in rows] == ["observe_confirm"] and rows[0].to_addr == "forged@example.org"
    confirm = str(message_from_bytes(rows[0].raw)["Reply-To"])
    assert confirm in body_of(rows[0])
    assert observer_addresses(engine) == []
    # A mail from that address to the judge's plain address does not confirm.
    send(engine, "OBSERVE alpha", sender="forged@example.org")
    assert observer_addresses(engine) == []
    rows = send(engine, "", sender="forged@example.org", to=confirm)
    assert [r.kind for r in rows] == ["observing"]
    assert observer_addresses(engine) == ["forged@example.org"]


def test_a_player_never_observes_the_game_it_plays(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, "OBSERVE alpha", sender=player("France"))
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "plays in alpha" in body_of(rows[0])
    assert observer_addresses(engine) == []


def test_join_fills_a_seat_and_a_taken_name_is_refused(engine: Engine) -> None:
    send(engine, "CREATE beta gmpw standard", sender=GM)
    rows = send(engine, "JOIN beta mine France", sender="joiner@example.org")
    assert "You hold France in game beta." in body_of(rows[0])
    rows = send(engine, "CREATE beta other standard", sender="x@example.org")
    assert "a game named beta exists already" in body_of(rows[0])
    # One player, one seat: neither SIGNON nor JOIN gives the same player a second.
    rows = send(engine, "SIGNON Italy beta mine2", sender="joiner@example.org")
    assert (
        "Italy not taken: you play France in beta already, and a player holds one seat"
        in body_of(rows[0])
    )
    rows = send(engine, "JOIN beta mine3", sender="joiner@example.org")
    assert "JOIN beta not taken: you play France in beta already" in body_of(rows[0])


def test_a_year_is_played_through_to_the_builds(engine: Engine, started: dict[str, str]) -> None:
    france, gm = started["France"], "SIGNON M alpha gmsecret\nPROCESS"
    send(engine, "A MAR-SPA\nF BRE-MAO", sender=player("France"), to=france)
    send(engine, gm, sender=GM)
    send(engine, "F MAO-POR", sender=player("France"), to=france)
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS S1901M", sender=GM)
    assert "game alpha is in F1901M, not S1901M" in body_of(rows[0])
    rows = send(engine, gm, sender=GM)
    assert "France:    5 Supply centers,  3 Units:  Builds   2 units." in body_of(rows[0])
    # Paris is occupied: the build can never succeed, and the echo says so when it arrives.
    rows = send(engine, "Build A PAR", sender=player("France"), to=france)
    assert "ERROR: line 1, column 1: PAR is occupied" in body_of(rows[0])
    assert "1 of 1 line had errors." in body_of(rows[0])
    assert orders_states(engine) == {}
    rows = send(engine, "Build A MAR", sender=player("France"), to=france)
    assert orders_states(engine) == {"FRANCE": "partial"}  # two builds are due
    rows = send(engine, "Build F BRE\nBuild A PAR", sender=player("France"), to=france)
    assert "left to the rules" in body_of(rows[0])
    assert "1 of 2 lines had errors." in body_of(rows[0])
    assert orders_states(engine) == {"FRANCE": "complete"}
    rows = send(engine, gm, sender=GM)
    text = body_of(rows[0])
    assert "France:  Builds a fleet in Brest." in text
    assert "France:  Builds an army in Marseilles." in text
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and game.position is not None
        assert game.phase == "S1902M"
        assert {"power": "FRANCE", "type": "F", "loc": "bre"} in game.position["units"]
        assert [r.phase for r in history(session, game)] == ["S1901M", "F1901M", "W1901A"]


def test_a_reply_address_no_seat_has_acts_for_nobody(engine: Engine) -> None:
    rows = send(
        engine, "A PAR-BUR", sender=player("France"), to="judge+abcdefghijklmnop@example.org"
    )
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "belongs to no seat" in body_of(rows[0])


def test_an_observers_mail_carries_a_one_click_unsubscribe(
    engine: Engine, started: dict[str, str]
) -> None:
    """RFC 8058: the game's mails to an observer name a mailto: leave address; a mail to it stops
    the observing. The confirmation address, used once, no longer does anything."""
    first = send(engine, "OBSERVE alpha", sender="watcher@example.org")
    confirm = str(message_from_bytes(first[0].raw)["Reply-To"])
    observe_by_reply(engine, "watcher@example.org")  # asks again: the same address, confirmed
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    to_watcher = [r for r in rows if r.to_addr == "watcher@example.org"]
    assert "results" in [r.kind for r in to_watcher]
    mail = message_from_bytes(to_watcher[0].raw)
    assert all(
        message_from_bytes(r.raw)["List-Unsubscribe"] == mail["List-Unsubscribe"]
        for r in to_watcher
    )
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    found = re.search(r"<mailto:([^?>]+)", str(mail["List-Unsubscribe"]))
    assert found is not None
    leave = found.group(1)
    assert leave.startswith("judge+") and leave != confirm
    for row in rows:
        if row.to_addr != "watcher@example.org":
            assert message_from_bytes(row.raw)["List-Unsubscribe"] is None
    rows = send(engine, "", sender="watcher@example.org", to=confirm)
    assert observer_addresses(engine) == ["watcher@example.org"]
    rows = send(engine, "", sender="watcher@example.org", to=leave)
    assert [r.kind for r in rows] == ["unobserved"]
    assert observer_addresses(engine) == []


def test_a_mail_of_many_wrong_passwords_costs_a_few_hashes(
    engine: Engine, started: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """299 guesses in one mail: three are hashed, the rest answered "not checked"."""
    from judge import identity
    from judge.desk.seating import MAX_PASSWORD_FAILURES

    real = identity._HASHER

    class CountingHasher:
        """The real hasher, counting its verifications (each one a slow argon2 hash)."""

        calls = 0

        def verify(self, stored: str, password: str) -> bool:
            CountingHasher.calls += 1
            return real.verify(stored, password)

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    monkeypatch.setattr(identity, "_HASHER", CountingHasher())
    guesses = "\n".join(f"SIGNON Germany alpha guess{n}" for n in range(299))
    rows = send(engine, guesses, sender="thief@example.net")
    body = body_of(rows[-1])
    assert CountingHasher.calls == MAX_PASSWORD_FAILURES
    assert body.count("not the right one") == MAX_PASSWORD_FAILURES
    assert body.count("not checked") == 299 - MAX_PASSWORD_FAILURES
