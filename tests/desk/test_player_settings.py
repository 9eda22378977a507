"""A player's own settings through the processor on SQLite: SET PASSWORD, SET ADDRESS and RESIGN,
each by the seat's reply token or a SIGNON with its password, never by a From: line alone."""

from __future__ import annotations

from email import message_from_bytes

from sqlalchemy import Engine
from test_games_by_mail import GM, POWERS, observe_by_reply, player, send
from test_games_by_mail import body_of as raw_body
from test_games_by_mail import kinds as kinds_of

from judge.desk.phase_terms import MISSED_TURNS
from judge.identity import verify_password
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import (
    create_person,
    current_orders,
    find_game,
    find_person_by_address,
    seat_of,
)
from judge.store.games import GameStatus


def body_of(row: OutboxMessage) -> str:
    """The mail's text with its line ends as written in the template."""
    return raw_body(row).replace("\r\n", "\n")


def seat_row(engine: Engine, power: str) -> dict[str, object]:
    """What the store holds for one seat of game alpha."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        seat = seat_of(session, game, power.upper())
        assert seat is not None
        return {
            "status": str(seat.status),
            "holder": seat.person.address_of_record if seat.person is not None else None,
            "password_hash": seat.password_hash,
            "token": seat.reply_token,
            "replacement_sought": seat.replacement_sought,
            "orders": current_orders(session, game).get(power.upper(), {}),
        }


# --- SET PASSWORD ------------------------------------------------------------------------------
def test_set_password_by_token_changes_it_and_never_echoes_it(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "SET PASSWORD n3w-S3cret!", sender=player("France"), to=started["France"])
    assert [(r.kind, r.to_addr) for r in rows] == [("password_changed", player("France"))]
    text = body_of(rows[0])
    assert "n3w-S3cret!" not in text and "n3w-S3cret!" not in (rows[0].subject or "")
    assert "SIGNON France alpha <the new password>" in text
    assert message_from_bytes(rows[0].raw)["Reply-To"] == started["France"]
    stored = seat_row(engine, "France")
    assert verify_password(str(stored["password_hash"]), "n3w-S3cret!")
    assert stored["token"] is not None and started["France"].startswith("judge+")

    # The old password no longer acts for the seat; the new one does.
    rows = send(engine, "SIGNON France alpha pw-France\nA PAR-BUR", sender="x@example.net")
    assert "not the right one" in body_of(rows[-1])
    rows = send(engine, "SIGNON France alpha n3w-S3cret!\nA PAR-BUR", sender=player("France"))
    assert "orders_read" in kinds_of(rows[0])


def test_set_password_after_signon_elsewhere_is_copied_to_the_address_of_record(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine, "SIGNON England alpha pw-England\nSET PASSWORD other", sender="cafe@example.net"
    )
    changed = [r for r in rows if "password_changed" in kinds_of(r)]
    assert sorted(r.to_addr for r in changed) == ["cafe@example.net", player("England")]
    assert verify_password(str(seat_row(engine, "England")["password_hash"]), "other")


def test_set_password_from_the_address_alone_is_refused(
    engine: Engine, started: dict[str, str]
) -> None:
    before = seat_row(engine, "Germany")["password_hash"]
    rows = send(engine, "SET PASSWORD stolen", sender=player("Germany"))
    assert [r.kind for r in rows] == ["desk_problems"]
    text = body_of(rows[0])
    assert "line 1: SET PASSWORD ******** not taken" in text
    assert "a From: line alone can be forged" in text
    assert "stolen" not in text
    assert seat_row(engine, "Germany")["password_hash"] == before
    # Nobody's seat at all: told how to name one.
    rows = send(engine, "SET PASSWORD stolen", sender="stranger@example.net")
    assert "SET PASSWORD ******** not taken: no seat is named" in body_of(rows[0])


# --- SET ADDRESS -------------------------------------------------------------------------------
def test_set_address_tells_the_old_and_the_new_address(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine, "SET ADDRESS italia@example.net", sender=player("Italy"), to=started["Italy"]
    )
    assert sorted((r.kind, r.to_addr) for r in rows) == [
        ("address_changed", "italia@example.net"),
        ("address_changed", player("Italy")),
    ]
    text = body_of(rows[0])
    assert "is now\n  italia@example.net\nin place of\n  italy@example.org" in text
    assert seat_row(engine, "Italy")["holder"] == "italia@example.net"
    with session_scope(engine) as session:  # the old address is still known to be the player's
        old = find_person_by_address(session, player("Italy"))
        new = find_person_by_address(session, "italia@example.net")
        assert old is not None and new is not None and old.id == new.id

    # The results now go to the new address, still with the seat's reply address.
    rows = send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)
    results = {r.to_addr: r for r in rows if r.kind == "results"}
    assert "italia@example.net" in results and player("Italy") not in results
    assert message_from_bytes(results["italia@example.net"].raw)["Reply-To"] == started["Italy"]


def test_set_address_without_argument_takes_the_senders(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "SIGNON Russia alpha pw-Russia\nSET ADDRESS", sender="Ivan@Mail.Example.RU")
    changed = [r for r in rows if "address_changed" in kinds_of(r)]
    # The sender is answered as it wrote its address, and not twice as the new address.
    assert sorted(r.to_addr for r in changed) == ["Ivan@Mail.Example.RU", player("Russia")]
    assert seat_row(engine, "Russia")["holder"] == "Ivan@mail.example.ru"
    # Sending it again changes nothing and says so, to the sender only.
    rows = send(engine, "SET ADDRESS", sender="Ivan@mail.example.ru", to=started["Russia"])
    assert [(r.kind, r.to_addr) for r in rows] == [("address_changed", "Ivan@mail.example.ru")]
    assert "nothing changed" in body_of(rows[0])


def test_set_address_refusals_change_nothing(engine: Engine, started: dict[str, str]) -> None:
    turkey = started["Turkey"]
    cases = {
        "SET ADDRESS austria@example.org": "is on record for another person",
        "SET ADDRESS not-an-address": "not-an-address is not a mail address",
        "SET ADDRESS judge@example.org": "is the judge's own address",
        "SET ADDRESS judge+abc@example.org": "is the judge's own address",
        "SET ADDRESS ok@example.net, austria@example.org": "is on record for another person",
    }
    for line, reason in cases.items():
        rows = send(engine, line, sender=player("Turkey"), to=turkey)
        assert [r.kind for r in rows] == ["desk_problems"], line
        assert "line 1: SET ADDRESS not taken: " in body_of(rows[0])
        assert reason in body_of(rows[0]), line
    assert seat_row(engine, "Turkey")["holder"] == player("Turkey")
    with session_scope(engine) as session:
        assert find_person_by_address(session, "ok@example.net") is None
    # Without a seat: refused, nobody's address changes.
    rows = send(engine, "SET ADDRESS evil@example.net", sender=player("Turkey"))
    assert "a From: line alone can be forged" in body_of(rows[0])
    assert seat_row(engine, "Turkey")["holder"] == player("Turkey")


# --- RESIGN ------------------------------------------------------------------------------------
def test_resign_opens_the_seat_and_the_game_is_told(
    engine: Engine, started: dict[str, str]
) -> None:
    observe_by_reply(engine, "watcher@example.org")
    italy = started["Italy"]
    rows = send(engine, "A VEN-PIE\nRESIGN\nA ROM-APU", sender=player("Italy"), to=italy)
    answer = rows[0]
    assert (answer.kind, answer.to_addr) == ("resigned+orders_read+desk_problems", player("Italy"))
    told = sorted(r.to_addr for r in rows if r.kind == "seat_resigned")
    others = [player(p) for p in POWERS if p != "Italy"]
    assert told == sorted([*others, GM, "watcher@example.org"])
    to_gm = body_of(next(r for r in rows if r.kind == "seat_resigned" and r.to_addr == GM))
    assert "(italy@example.org)" in to_gm and "replacement sought" in to_gm
    to_player = body_of(next(r for r in rows if r.to_addr == player("France")))
    assert "italy@example.org" not in to_player
    assert "A replacement is sought: the first to sign on for Italy" in to_player
    # The order after RESIGN was not taken; the one before it was withdrawn with the seat.
    problems = body_of(next(r for r in rows if "desk_problems" in kinds_of(r)))
    assert "line 3: orders not taken: Italy was resigned at line 2 of this mail" in problems
    stored = seat_row(engine, "Italy")
    assert stored == {
        "status": "resigned",
        "holder": None,
        "password_hash": None,
        "token": None,
        "replacement_sought": True,
        "orders": {},
    }
    # The old reply address acts for nothing now.
    rows = send(engine, "A VEN-TYR", sender=player("Italy"), to=italy)
    assert "belongs to no seat now" in body_of(rows[0])
    # The first replacement to sign on takes the seat.
    rows = send(engine, "SIGNON Italy alpha newpw", sender="newitaly@example.net")
    assert seat_row(engine, "Italy")["holder"] == "newitaly@example.net"


def test_resign_under_the_njudge_policy_leaves_the_seat_open_to_any_taker(
    engine: Engine, started: dict[str, str]
) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.settings = {**game.settings, MISSED_TURNS: "njudge"}
    rows = send(engine, "RESIGN", sender=player("Austria"), to=started["Austria"])
    resigned = next(r for r in rows if r.kind == "resigned")
    assert "The seat is open: anyone may sign on for Austria" in body_of(resigned)
    assert seat_row(engine, "Austria")["status"] == "open"


def test_resign_refusals(engine: Engine, started: dict[str, str]) -> None:
    rows = send(engine, "RESIGN", sender=player("Austria"))
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "line 1: RESIGN not taken: this mail came from your address" in body_of(rows[0])
    assert seat_row(engine, "Austria")["holder"] == player("Austria")
    rows = send(engine, "SIGNON M alpha gmsecret\nRESIGN", sender=GM)
    assert "RESIGN not taken: no seat is named" in body_of(rows[-1])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.status = GameStatus.FINISHED
    rows = send(engine, "RESIGN", sender=player("Austria"), to=started["Austria"])
    assert "line 1: RESIGN not taken: game alpha is over" in body_of(rows[0])
    assert seat_row(engine, "Austria")["holder"] == player("Austria")


def test_resign_before_the_start_frees_the_seat(engine: Engine) -> None:
    send(engine, "CREATE beta gmsecret standard", sender=GM)
    send(engine, "SIGNON France beta pw", sender=player("France"))
    rows = send(engine, "SIGNON France beta pw\nRESIGN", sender=player("France"))
    kinds = [(r.kind, r.to_addr) for r in rows]
    assert kinds == [("signed_on+resigned", player("France")), ("seat_resigned", GM)]
    assert "The game has not started: the seat is open again" in body_of(rows[0])
    with session_scope(engine) as session:
        game = find_game(session, "beta")
        assert game is not None
        seat = seat_of(session, game, "FRANCE")
        assert seat is not None and seat.person is None and seat.status == "open"


# --- the GM acting for a power ---------------------------------------------------------------------
def test_the_gm_as_a_power_may_reset_its_password_but_not_make_the_players_choices(
    engine: Engine, started: dict[str, str]
) -> None:
    lines = [
        "SIGNON M alpha gmsecret",
        "BECOME Italy",
        "SET PASSWORD reset-by-gm",
        "SET DRAW",
        "SET CONCEDE France",
        "SET ADDRESS gm-friend@example.net",
        "RESIGN",
    ]
    rows = send(engine, "\n".join(lines), sender=GM)
    changed = {r.to_addr: body_of(r) for r in rows if "password_changed" in kinds_of(r)}
    assert set(changed) == {GM, player("Italy")}
    assert "changed by the game master" in changed[player("Italy")]
    assert started["Italy"] in changed[player("Italy")]
    assert started["Italy"] not in changed[GM]  # the player's reply address stays the player's
    problems = body_of(next(r for r in rows if "desk_problems" in kinds_of(r)))
    for number, command in ((4, "SET DRAW"), (5, "SET CONCEDE FRANCE"), (7, "RESIGN")):
        assert f"line {number}: {command} not taken: it is the player's own choice" in problems
    assert "line 6: SET ADDRESS gm-friend@example.net not taken" in problems
    stored = seat_row(engine, "Italy")
    assert verify_password(str(stored["password_hash"]), "reset-by-gm")
    assert stored["holder"] == player("Italy") and stored["status"] == "playing"


def test_a_replacement_standing_by_takes_the_seat_at_once(
    engine: Engine, started: dict[str, str]
) -> None:
    """Postal: after a first missed move a volunteer may stand by (no command names one yet, so
    the store is set as that command would); a RESIGN then hands the seat to them at once."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        seat = seat_of(session, game, "ITALY")
        assert seat is not None
        seat.replacement_sought = True
        seat.standby = create_person(session, "volunteer@example.net", "Val")
    rows = send(engine, "RESIGN", sender=player("Italy"), to=started["Italy"])
    handed = [r for r in rows if r.kind == "standby_takes_seat"]
    assert [r.to_addr for r in handed] == ["volunteer@example.net"]
    new_address = message_from_bytes(handed[0].raw)["Reply-To"]
    assert new_address and new_address != started["Italy"] and new_address in body_of(handed[0])
    assert "The replacement who stood by takes the seat at once." in body_of(
        next(r for r in rows if r.kind == "seat_resigned")
    )
    stored = seat_row(engine, "Italy")
    assert stored["holder"] == "volunteer@example.net" and stored["status"] == "playing"
    assert stored["replacement_sought"] is False
    # The new holder acts for the seat by the new reply address, and sets a password.
    rows = send(
        engine, "SET PASSWORD mine\nA VEN H", sender="volunteer@example.net", to=new_address
    )
    assert [r.kind for r in rows] == ["password_changed+orders_read"]
    # The old holder's reply address no longer does.
    rows = send(engine, "A VEN-TYR", sender=player("Italy"), to=started["Italy"])
    assert "belongs to no seat now" in body_of(rows[0])
