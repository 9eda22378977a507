"""The GM's commands through the processor on SQLite: the GM's reply address, PREVIEW, PAUSE and
RESUME, TERMINATE, FORCE BEGIN, EJECT and the takeover of an open seat, REPLACE, BECOME, ROLLBACK,
the GM's PROCESS settling missed turns, and who the GM is when a map has a power lettered M.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from types import SimpleNamespace

from sqlalchemy import Engine
from test_deadlines import HOLDS, scheduled
from test_games_by_mail import GM, POWERS, body_of, kinds, observe_by_reply, player, send

from judge import clock
from judge.desk import seating
from judge.desk.mail_state import MailState, is_master_word
from judge.desk.replies import Where
from judge.language import command_values as cv
from judge.mail.mime import ReadMail
from judge.map_files import load_map
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import current_orders, find_game, history
from judge.store.games import Game, GameStatus

GM_SIGNON = "SIGNON M alpha gmsecret"
TOKEN_ADDRESS = re.compile(r"judge\+[a-z2-7]{16}@example\.org")


def reply_to(row: OutboxMessage) -> str | None:
    return message_from_bytes(row.raw)["Reply-To"]


def gm_address(engine: Engine) -> str:
    """The GM's reply address of game alpha, as the judge's mails to the GM carry it."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and game.gm_token is not None
        return f"judge+{game.gm_token}@example.org"


def alpha(engine: Engine) -> Game:
    """Game alpha as stored now (detached; its seats loaded)."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        _ = [(s.person, s.status) for s in game.seats]
        session.expunge_all()
        return game


def by_kind(rows: list[OutboxMessage], kind: str) -> dict[str, str]:
    """The bodies of the rows that say `kind` (alone or in an answer of several), by address."""
    return {r.to_addr: body_of(r) for r in rows if kind in kinds(r)}


def test_the_gm_reply_address_acts_as_the_gm_and_a_from_line_does_not(
    engine: Engine, started: dict[str, str]
) -> None:
    address = gm_address(engine)
    assert TOKEN_ADDRESS.fullmatch(address) and address not in started.values()
    with session_scope(engine) as session:
        created = session.query(OutboxMessage).filter_by(kind="game_created").one()
        assert reply_to(created) == address
    # The GM's own From: line without the password or the reply address changes nothing.
    rows = send(engine, "PAUSE", sender=GM)
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "PAUSE is the GM's" in body_of(rows[0])
    assert alpha(engine).status == GameStatus.ACTIVE
    # Mail to the GM's reply address pauses the game, from any address.
    rows = send(engine, "PAUSE", sender="gm-at-work@example.net", to=address)
    assert alpha(engine).status == GameStatus.PAUSED
    paused = by_kind(rows, "game_paused")
    assert set(paused) == {player(p) for p in POWERS} | {GM}
    assert {reply_to(r) for r in rows if r.to_addr == GM} == {address}
    # The player's reply address is no GM's: a PAUSE sent there is refused.
    rows = send(engine, "RESUME", sender=player("France"), to=started["France"])
    assert "RESUME is the GM's" in body_of(rows[-1])


def test_preview_goes_to_the_gm_alone_and_changes_nothing(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, "A PAR-BUR\nF BRE-MAO", sender=player("France"), to=started["France"])
    observe_by_reply(engine, "watcher@example.org")
    rows = send(engine, "PREVIEW", sender=GM, to=gm_address(engine))
    assert [(r.kind, r.to_addr) for r in rows] == [("preview", GM)]
    text = body_of(rows[0])
    assert "PREVIEW" in rows[0].subject and "Nothing is stored" in text
    assert "France: Army Paris -> Burgundy." in text
    assert "Movement results for Spring of 1901." in text
    assert reply_to(rows[0]) == gm_address(engine)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and game.phase == "S1901M"
        assert history(session, game) == []
        assert current_orders(session, game)["FRANCE"] == {
            "par": "A PAR - BUR",
            "bre": "F BRE - MAO",
        }
        assert all(s.missed_turns == 0 for s in game.seats)
    # Without the GM's proof, no preview.
    rows = send(engine, "PREVIEW", sender=player("France"), to=started["France"])
    assert [r.kind for r in rows] == ["desk_problems"]


def test_pause_stops_the_clock_and_orders_and_resume_gives_a_fresh_deadline(
    engine: Engine, started: dict[str, str]
) -> None:
    observe_by_reply(engine, "watcher@example.org")
    send(engine, "OBSERVE alpha", sender=GM)  # the GM observing is told once, as the GM
    rows = send(engine, f"{GM_SIGNON}\nPAUSE", sender=GM)
    paused = [r for r in rows if r.kind == "game_paused"]
    assert sorted(r.to_addr for r in paused) == sorted(
        [player(p) for p in POWERS] + ["watcher@example.org", GM]
    )
    assert "orders are not taken" in body_of(paused[0])
    assert alpha(engine).deadline is None
    # A paused game takes no orders, and its deadline passing does nothing.
    rows = send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    assert [r.kind for r in rows] == ["desk_problems"]
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and current_orders(session, game) == {}
    rows = send(engine, "A PAR-BUR", sender=player("France"))
    assert "a From: line alone can be forged" in body_of(rows[-1])
    assert scheduled(engine, datetime(2026, 5, 1, tzinfo=UTC)) == []
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    assert "is paused; RESUME it before PROCESS" in body_of(rows[-1])
    rows = send(engine, f"{GM_SIGNON}\nPAUSE", sender=GM)
    assert "is paused, not running" in body_of(rows[-1])

    # RESUME on 1 May (a Friday): the phase keeps its name, the deadline counts from now.
    rows = send(engine, f"{GM_SIGNON}\nRESUME", sender=GM)
    resumed = by_kind(rows, "game_resumed")
    assert len(resumed) == 9
    game = alpha(engine)
    assert game.status == GameStatus.ACTIVE and game.phase == "S1901M"
    assert game.deadline == datetime(2026, 5, 4, 23, 30, tzinfo=UTC)
    assert "Orders are due by Mon May 04 2026 23:30:00 +0000." in resumed[player("Italy")]
    rows = send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    assert [r.kind for r in rows] == ["orders_read"]


def test_terminate_ends_the_game_and_everyone_is_told(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, f"{GM_SIGNON}\nTERMINATE", sender=GM)
    assert set(by_kind(rows, "game_terminated")) == {player(p) for p in POWERS} | {GM}
    game = alpha(engine)
    assert game.status == GameStatus.TERMINATED and game.deadline is None
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    assert "is not running (terminated)" in body_of(rows[-1])
    rows = send(engine, f"{GM_SIGNON}\nTERMINATE", sender=GM)
    assert "TERMINATE not done: game alpha is terminated" in body_of(rows[-1])


def test_force_begin_puts_the_open_seats_in_civil_disorder(engine: Engine) -> None:
    send(engine, "CREATE alpha gmsecret standard", sender=GM)
    rows = send(engine, f"{GM_SIGNON}\nFORCE BEGIN", sender=GM)
    assert "nobody has signed on" in body_of(rows[-1])
    addresses = {}
    for power in ("France", "England"):
        rows = send(engine, f"SIGNON {power} alpha pw-{power}", sender=player(power))
        addresses[power] = reply_to(rows[0])
    observe_by_reply(engine, "watcher@example.org")
    rows = send(engine, f"{GM_SIGNON}\nFORCE BEGIN", sender=GM)
    assert sorted(r.to_addr for r in rows if r.kind == "game_started") == [
        player("England"),
        player("France"),
    ]
    forced = by_kind(rows, "game_forced")
    assert set(forced) == {player("England"), player("France"), GM, "watcher@example.org"}
    assert "Austria, Germany, Italy, Russia, Turkey" in forced[GM]
    game = alpha(engine)
    assert game.status == GameStatus.ACTIVE and game.phase == "S1901M"
    assert {s.power: str(s.status) for s in game.seats if s.person is None} == {
        p: "civil disorder" for p in ("AUSTRIA", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
    }
    # A power in civil disorder is never taken over.
    rows = send(engine, "SIGNON Italy alpha mine", sender="late@example.org")
    assert "Italy is in civil disorder and may not be taken over" in body_of(rows[-1])
    # The phase runs with their units standing; results mark them.
    send(engine, "A PAR-BUR", sender=player("France"), to=addresses["France"])
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    results = by_kind(rows, "results")
    assert "France: Army Paris -> Burgundy." in results[player("England")]
    assert alpha(engine).phase == "F1901M"
    # After the fall the centre list marks them, as njudge's did.
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    results = by_kind(rows, "results")
    assert re.search(r"Italy: .*\(\* CD \*\)", results[GM])
    assert not re.search(r"France: .*\(\* CD \*\)", results[GM])


def test_eject_opens_the_seat_and_a_signon_takes_it_over(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    rows = send(engine, f"{GM_SIGNON}\nEJECT France", sender=GM)
    told = by_kind(rows, "removed_from_game")
    assert set(told) == {player("France")} and "no longer act" in told[player("France")]
    opened = by_kind(rows, "seat_vacated")
    assert player("France") not in opened and {GM, player("Italy")} <= set(opened)
    assert "SIGNON France alpha <a password of their own>" in opened[player("Italy")]
    assert not any(s.person is not None for s in alpha(engine).seats if s.power == "FRANCE")
    # The old reply address no longer acts for France.
    rows = send(engine, "A PAR-PIC", sender=player("France"), to=started["France"])
    assert "belongs to no seat" in body_of(rows[-1])

    # Anyone may take the open seat of the running game, with a password of their own.
    rows = send(
        engine, "SIGNON France alpha newpw\nA MAR-SPA", sender="Jack Layh <jack@example.net>"
    )
    signed = [r for r in rows if "signed_on" in kinds(r)]
    assert [(r.kind, r.to_addr) for r in signed] == [("signed_on+orders_read", "jack@example.net")]
    new_address = reply_to(signed[0])
    assert new_address not in (None, started["France"])
    text = body_of(signed[0])
    assert "The game is in S1901M." in text and "starts when every seat" not in text
    taken = by_kind(rows, "seat_taken_over")
    assert "jack@example.net" not in taken and {GM, player("Italy")} <= set(taken)
    assert "France is now played by Jack Layh" in taken[player("Italy")]
    assert "jack@example.net" not in taken[player("Italy")]
    assert [r.kind for r in rows if r.to_addr == "jack@example.net"] == ["signed_on+orders_read"]
    rows = send(engine, "F BRE-MAO", sender="jack@example.net", to=str(new_address))
    assert [r.kind for r in rows] == ["orders_read"]
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert current_orders(session, game)["FRANCE"] == {
            "par": "A PAR - BUR",
            "mar": "A MAR - SPA",
            "bre": "F BRE - MAO",
        }


def test_eject_by_address_removes_an_observer(engine: Engine, started: dict[str, str]) -> None:
    observe_by_reply(engine, "watcher@example.org")
    rows = send(engine, f"{GM_SIGNON}\nEJECT watcher@example.org", sender=GM)
    assert [r.to_addr for r in rows] == ["watcher@example.org"]
    assert "no longer observe" in rows[0].subject
    rows = send(engine, f"{GM_SIGNON}\nEJECT nobody@example.org", sender=GM)
    assert "neither plays, stands by for nor observes" in body_of(rows[-1])


def test_eject_by_address_takes_a_volunteer_off_standing_by(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in POWERS:
        if power != "Italy":  # Italy misses the spring: a replacement is sought
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    send(engine, "JOIN alpha vpw Italy", sender="volunteer@example.org")
    rows = send(engine, f"{GM_SIGNON}\nEJECT volunteer@example.org", sender=GM)
    (told,) = [r for r in rows if r.to_addr == "volunteer@example.org"]
    assert told.subject == "alpha: you no longer stand by for a seat"
    assert "taken you off the volunteers standing by for a seat in game alpha" in body_of(told)
    assert "observers" not in body_of(told)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert all(seat.standby_person_id is None for seat in game.seats)


def test_replace_gives_the_seat_a_new_player_password_and_reply_address(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, f"{GM_SIGNON}\nREPLACE England new@example.net", sender=GM)
    given = [r for r in rows if r.kind == "seat_given"]
    assert [r.to_addr for r in given] == ["new@example.net"]
    text = body_of(given[0])
    password = re.search(r"Your password for the seat is\s+(\S+)", text)
    assert password is not None
    new_address = reply_to(given[0])
    assert new_address is not None and new_address in text and new_address != started["England"]
    assert "Fleet London" in text and "Orders are due by Sat Apr 04 2026" in text
    assert set(by_kind(rows, "removed_from_game")) == {player("England")}
    assert player("England") not in by_kind(rows, "seat_taken_over")
    assert "new@example.net" not in by_kind(rows, "seat_taken_over")
    # The old holder's reply address and password stop acting; the new ones act.
    rows = send(engine, "F LON-NTH", sender=player("England"), to=started["England"])
    assert "belongs to no seat" in body_of(rows[-1])
    rows = send(engine, "SIGNON England alpha pw-England\nF LON-NTH", sender=player("England"))
    assert "not the right one" in body_of(rows[-1])
    rows = send(
        engine, f"SIGNON England alpha {password.group(1)}\nF LON-NTH", sender="new@example.net"
    )
    assert "orders_read" in kinds(rows[0])
    rows = send(engine, "F EDI-NWG", sender="new@example.net", to=str(new_address))
    assert [r.kind for r in rows] == ["orders_read"]
    # A second REPLACE to the same address is refused.
    rows = send(engine, f"{GM_SIGNON}\nREPLACE England new@example.net", sender=GM)
    assert "plays England already" in body_of(rows[-1])
    rows = send(engine, f"{GM_SIGNON}\nREPLACE France new@example.net", sender=GM)
    assert "new@example.net plays England already" in body_of(rows[-1])
    rows = send(engine, f"{GM_SIGNON}\nREPLACE France nobody", sender=GM)
    assert "'nobody' is no mail address" in body_of(rows[-1])
    assert not [r for r in rows if r.kind != "desk_problems"]


def test_become_lets_the_gm_order_for_a_power_in_that_mail_only(
    engine: Engine, started: dict[str, str]
) -> None:
    gm = gm_address(engine)
    rows = send(engine, "BECOME Germany\nA MUN-RUH", sender=GM, to=gm)
    assert [r.kind for r in rows] == ["became+orders_read"]
    assert "= Army Munich -> Ruhr" in body_of(rows[0])
    # The answer carries the GM's reply address, not Germany's.
    assert reply_to(rows[0]) == gm
    rows = send(engine, "A BER-KIE", sender=GM, to=gm)
    assert "orders not taken" in body_of(rows[-1])
    rows = send(engine, "BECOME Germany\nA BER-KIE", sender=player("France"), to=started["France"])
    assert "BECOME is the GM's" in body_of(rows[-1])
    assert "France has no unit to order in Berlin" in body_of(rows[0])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert current_orders(session, game) == {"GERMANY": {"mun": "A MUN - RUH"}}


def test_rollback_returns_to_the_phase_with_its_orders(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, f"{GM_SIGNON}\nROLLBACK", sender=GM)
    assert "no processed phase" in body_of(rows[-1])
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    send(engine, "A BUR-MUN", sender=player("France"), to=started["France"])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    assert alpha(engine).phase == "S1902M"  # nothing to retreat or build

    rows = send(engine, f"{GM_SIGNON}\nROLLBACK F1901X", sender=GM)
    assert "line 2, column 10: expected a phase (S1901M)" in body_of(rows[-1])
    assert alpha(engine).phase == "S1902M"
    rows = send(engine, f"{GM_SIGNON}\nROLLBACK W1901A", sender=GM)
    assert "has not processed W1901A; it has S1901M, F1901M" in body_of(rows[-1])

    clock.advance(timedelta(days=2))
    rows = send(engine, f"{GM_SIGNON}\nROLLBACK S1901M", sender=GM)
    told = by_kind(rows, "rolled_back")
    assert set(told) == {player(p) for p in POWERS} | {GM}
    assert "The results of S1901M, F1901M no longer stand." in told[GM]
    game = alpha(engine)
    assert game.phase == "S1901M" and game.status == GameStatus.ACTIVE
    assert {"power": "FRANCE", "type": "A", "loc": "par"} in (game.position or {})["units"]
    assert game.deadline == datetime(2026, 4, 6, 23, 30, tzinfo=UTC)
    with session_scope(engine) as session:
        stored = find_game(session, "alpha")
        assert stored is not None
        assert history(session, stored) == []
        orders = current_orders(session, stored)
        assert orders["FRANCE"] == {"par": "A PAR - BUR", "bre": "F BRE H", "mar": "A MAR H"}
        assert len(orders) == 7
        assert {str(s.orders_state) for s in stored.seats} == {"complete"}
    # PROCESS again gives the same spring.
    rows = send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    assert "France: Army Paris -> Burgundy." in by_kind(rows, "results")[GM]
    assert alpha(engine).phase == "F1901M"


def test_rollback_to_an_adjustment_phase_finds_complete_builds_complete(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    send(engine, "F NAP-ION", sender=player("Italy"), to=started["Italy"])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    send(engine, "F ION-TUN", sender=player("Italy"), to=started["Italy"])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    assert alpha(engine).phase == "W1901A"  # Italy is due one build for Tunis
    send(engine, "Build F Naples", sender=player("Italy"), to=started["Italy"])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    assert alpha(engine).phase == "S1902M"

    send(engine, f"{GM_SIGNON}\nROLLBACK W1901A", sender=GM)
    with session_scope(engine) as session:
        stored = find_game(session, "alpha")
        assert stored is not None and stored.phase == "W1901A"
        assert current_orders(session, stored)["ITALY"] == {"nap": "F NAP B"}
        # Its one build due is ordered: complete, so the phase may run early again.
        italy = next(s for s in stored.seats if s.power == "ITALY")
        assert str(italy.orders_state) == "complete"


def test_rollback_puts_the_seats_back_as_the_phase_found_them(
    engine: Engine, started: dict[str, str]
) -> None:
    """Italy misses spring, a volunteer stands by and takes the seat at the second miss;
    rolling back to spring gives Italy's player the seat again, with no missed turn, and the
    volunteer's reply address no longer acts for it."""
    volunteer = "Vera.Volunteer@example.org"

    def without_italy() -> list[OutboxMessage]:
        for power in POWERS:
            if power != "Italy":
                send(engine, HOLDS[power], sender=player(power), to=started[power])
        return send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)

    def italy() -> dict[str, object]:
        with session_scope(engine) as session:
            game = find_game(session, "alpha")
            assert game is not None
            seat = next(s for s in game.seats if s.power == "ITALY")
            return {
                "holder": seat.person.address_of_record if seat.person else None,
                "token": seat.reply_token,
                "status": str(seat.status),
                "missed": seat.missed_turns,
                "sought": seat.replacement_sought,
                "standby": seat.standby_person_id,
            }

    before = italy()
    assert before["holder"] == player("Italy") and before["missed"] == 0
    without_italy()
    send(engine, "JOIN alpha vpw Italy", sender=volunteer)
    rows = without_italy()
    assert "standby_takes_seat" in [r.kind for r in rows]
    # The GM reads the volunteer's address as written, the sentence's first letter raised.
    to_gm = next(body_of(r) for r in rows if "missed_turn" in r.kind.split("+"))
    assert "Second missed move: Vera.Volunteer@example.org replaces italy@" in to_gm
    taken = italy()
    assert taken["holder"] == volunteer and taken["token"] != before["token"]

    rows = send(engine, f"{GM_SIGNON}\nROLLBACK S1901M", sender=GM)
    told = by_kind(rows, "rolled_back")
    assert "The seats of Italy are as they were before S1901M" in told[GM]
    assert player("Italy") in told
    assert "You no longer hold Italy" in told[volunteer]
    assert "You no longer hold" not in told[player("Italy")]
    assert italy() == before
    # The seat answers to its player's reply address again, not to the volunteer's.
    rows = send(engine, "A ROM H", sender=player("Italy"), to=started["Italy"])
    assert [r.kind for r in rows] == ["orders_read"]
    rows = send(engine, "A ROM H", sender=volunteer, to=f"judge+{taken['token']}@example.org")
    assert "orders_read" not in [r.kind for r in rows]
    # A rollback to a phase whose seats did not change since says nothing of seats.
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    rows = send(engine, f"{GM_SIGNON}\nROLLBACK S1901M", sender=GM)
    assert "The seats of" not in by_kind(rows, "rolled_back")[GM]


def test_the_gms_process_settles_missed_turns(engine: Engine, started: dict[str, str]) -> None:
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    observe_by_reply(engine, "watcher@example.org")
    rows = send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    missed = [r for r in rows if r.kind == "missed_turn"]
    assert [r.to_addr for r in missed] == [GM]
    assert "Italy" in missed[0].subject and reply_to(missed[0]) == gm_address(engine)
    assert "sent no orders by the time you processed the phase" in body_of(missed[0])
    sought = by_kind(rows, "replacement_sought")
    # The other players and the observer, and Italy's player, told what keeps the seat.
    assert set(sought) == {player(p) for p in POWERS} | {"watcher@example.org"}
    assert "You keep the seat by sending your orders" in sought[player("Italy")]
    seats = {s.power: s for s in alpha(engine).seats}
    assert seats["ITALY"].missed_turns == 1 and seats["ITALY"].replacement_sought
    assert seats["FRANCE"].missed_turns == 0
    # The second missed move puts Italy in civil disorder.
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    assert {s.power: str(s.status) for s in alpha(engine).seats}["ITALY"] == "civil disorder"


def test_the_gms_early_process_is_no_missed_deadline(
    engine: Engine, started: dict[str, str]
) -> None:
    """PROCESS before the deadline: Italy and France sent nothing, their units hold, nobody is
    told a replacement is sought and nothing is counted against them."""
    for power in POWERS:
        if power not in ("Italy", "France"):
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    assert "results" in {k for r in rows for k in kinds(r)}
    assert not [r for r in rows if {"missed_turn", "replacement_sought"} & set(kinds(r))]
    seats = {s.power: s for s in alpha(engine).seats}
    assert seats["ITALY"].missed_turns == 0 and not seats["ITALY"].replacement_sought
    assert seats["FRANCE"].missed_turns == 0 and str(seats["FRANCE"].status) == "playing"


def test_the_gms_process_after_the_deadline_counts_the_missed_moves_once_per_reader(
    engine: Engine, started: dict[str, str]
) -> None:
    """Past the deadline PROCESS settles the misses as the scheduler would; Italy's and
    France's misses reach each reader in one mail, each holder told of his own seat."""
    for power in POWERS:
        if power not in ("Italy", "France"):
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    game = alpha(engine)
    assert game.deadline is not None
    clock.set_now(game.deadline + timedelta(minutes=1))
    try:
        rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    finally:
        clock.reset()
    sought = [r for r in rows if "replacement_sought" in kinds(r)]
    readers = [r.to_addr for r in sought]
    assert sorted(readers) == sorted({player(p) for p in POWERS})  # one each
    italy = body_of(next(r for r in sought if r.to_addr == player("Italy")))
    assert "You play Italy" in italy and "These powers missed the move too: France." in italy
    england = body_of(next(r for r in sought if r.to_addr == player("England")))
    assert "France, Italy sent no orders" in england and "You play" not in england
    (to_gm,) = [r for r in rows if "missed_turn" in kinds(r)]
    assert "France (" in body_of(to_gm) and "Italy (" in body_of(to_gm)
    seats = {s.power: s for s in alpha(engine).seats}
    assert seats["ITALY"].missed_turns == 1 and seats["FRANCE"].missed_turns == 1


def test_the_gm_is_master_or_gm_and_m_only_where_no_power_has_that_letter(
    engine: Engine, started: dict[str, str]
) -> None:
    standard = load_map("standard")
    assert is_master_word("M", standard) and is_master_word("gm", standard)
    assert not is_master_word("F", standard) and not is_master_word("MAST", standard)
    lettered_m = SimpleNamespace(powers={"MOSCOW": SimpleNamespace(letter="M")})
    assert not is_master_word("M", lettered_m)  # type: ignore[arg-type]
    assert is_master_word("MASTER", lettered_m)  # type: ignore[arg-type]
    assert is_master_word("GM", lettered_m)  # type: ignore[arg-type]
    rows = send(engine, "SIGNON M alpha gmsecret\nPREVIEW", sender=GM)
    assert [r.kind for r in rows] == ["preview"]
    # SIGNON MASTER and GM at the desk (the command reader hands them on as the power word).
    for word in ("MASTER", "GM", "m"):
        with session_scope(engine) as session:
            mail = ReadMail(GM, "", "gm", None, (), "", "text/plain")
            state = MailState(mail, Where(session, "judge@example.org"))
            command = cv.SignOn(power=word, game="alpha", password="gmsecret", line_no=1)
            seating.HANDLERS[cv.SignOn](state, command)
            assert state.gm_game is not None and state.problems == []
            wrong = cv.SignOn(power=word, game="alpha", password="guess", line_no=2)
            seating.HANDLERS[cv.SignOn](state, wrong)
            assert state.problems == ["line 2: the GM password of game alpha is not right"]


def test_the_gm_observing_gets_the_results_once(engine: Engine, started: dict[str, str]) -> None:
    observe_by_reply(engine, GM)
    rows = send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    results = [r for r in rows if r.kind == "results"]
    assert sorted(r.to_addr for r in results) == sorted([player(p) for p in POWERS] + [GM])
    gm_mail = next(r for r in results if r.to_addr == GM)
    assert reply_to(gm_mail) == gm_address(engine)


def test_a_seat_abandoned_under_njudges_rule_is_taken_over_by_a_signon(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, f"{GM_SIGNON}\nSET NMR njudge", sender=GM)
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)
    italy = next(s for s in alpha(engine).seats if s.power == "ITALY")
    assert italy.person is None and str(italy.status) == "open"
    # The old holder's reply address is dead; a newcomer's SIGNON takes the seat.
    rows = send(engine, "A ROM-APU", sender=player("Italy"), to=started["Italy"])
    assert "belongs to no seat" in body_of(rows[-1])
    rows = send(engine, "SIGNON Italy alpha fresh\nA ROM-APU", sender="Lew <lew@example.net>")
    assert [r.kind for r in rows if r.to_addr == "lew@example.net"] == ["signed_on+orders_read"]
    assert "Italy is now played by Lew" in by_kind(rows, "seat_taken_over")[GM]
    italy = next(s for s in alpha(engine).seats if s.power == "ITALY")
    assert str(italy.status) == "playing" and italy.missed_turns == 0
    # A second taker finds the seat held: the password is the new holder's.
    rows = send(engine, "SIGNON Italy alpha other", sender="late@example.org")
    assert "not the right one" in body_of(rows[-1])


def test_a_resigned_seat_is_taken_over_by_a_signon(engine: Engine, started: dict[str, str]) -> None:
    send(engine, "RESIGN", sender=player("Turkey"), to=started["Turkey"])
    turkey = next(s for s in alpha(engine).seats if s.power == "TURKEY")
    assert turkey.person is None and str(turkey.status) == "resigned"
    rows = send(engine, "SIGNON Turkey alpha mine", sender="Warnick <rw@example.net>")
    assert [r.kind for r in rows if r.to_addr == "rw@example.net"] == ["signed_on"]
    assert "Turkey is now played by Warnick" in by_kind(rows, "seat_taken_over")[player("Russia")]
    turkey = next(s for s in alpha(engine).seats if s.power == "TURKEY")
    assert str(turkey.status) == "playing" and not turkey.replacement_sought
