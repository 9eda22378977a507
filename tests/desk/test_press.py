"""Press through the processor on SQLite: PRESS and BROADCAST by players, observers and the GM,
datelines checked against the board, the GM's press settings, and press kept for the results
with WITHHOLD and RELEASE (seed 004, section II)."""

from __future__ import annotations

from email import message_from_bytes

from sqlalchemy import Engine, select
from test_games_by_mail import GM, POWERS, body_of, observe_by_reply, player, send

from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import find_game
from judge.store.games import GameStatus, Press

GM_SIGNON = "SIGNON M alpha gmsecret"
WATCHER = "watcher@example.org"


def by_reader(rows: list[OutboxMessage]) -> dict[str, list[OutboxMessage]]:
    out: dict[str, list[OutboxMessage]] = {}
    for row in rows:
        out.setdefault(row.to_addr, []).append(row)
    return out


def press_rows(engine: Engine) -> list[Press]:
    with session_scope(engine) as session:
        rows = list(session.scalars(select(Press).order_by(Press.id)))
        session.expunge_all()
        return rows


def problems(rows: list[OutboxMessage]) -> str:
    """The text of what was not done (alone, or in an answer of several parts)."""
    found = [body_of(r) for r in rows if "desk_problems" in r.kind.split("+")]
    assert found, [r.kind for r in rows]
    return found[0]


def assert_private(rows: list[OutboxMessage], started: dict[str, str]) -> None:
    """No mail carries another reader's address or any reply address but the reader's own."""
    own_token = {player(p): address for p, address in started.items()}
    for row in rows:
        mail = message_from_bytes(row.raw)
        text = body_of(row) + str(mail["Subject"]) + str(mail["Reply-To"])
        for power, address in started.items():
            if row.to_addr != player(power):
                assert address not in text and player(power) not in text, (row.to_addr, power)
        assert mail["Reply-To"] in (None, own_token.get(row.to_addr)) or row.to_addr == GM
        if row.to_addr != GM:
            assert WATCHER not in text or row.to_addr == WATCHER


def observe(engine: Engine) -> None:
    rows = observe_by_reply(engine, WATCHER)
    assert [r.kind for r in rows] == ["observing"]


def test_a_white_broadcast_reaches_everyone_but_the_writer(
    engine: Engine, started: dict[str, str]
) -> None:
    observe(engine)
    text = "(Ankara) - The Turkish government today denied everything."
    rows = send(
        engine, f"BROADCAST\n{text}\nENDPRESS", sender=player("Turkey"), to=started["Turkey"]
    )
    mails = by_reader(rows)
    others = [player(p) for p in POWERS if p != "Turkey"]
    assert sorted(a for a, r in mails.items() if r[0].kind == "press") == sorted(
        [*others, WATCHER, GM]
    )
    france = body_of(mails[player("France")][0])
    assert "from Turkey" in france
    assert "(Ankara) - The Turkish government today denied everything." in france
    assert "((Ankara))" not in france
    assert "turkey@example.org" not in france  # players are named by power, never by address
    # The player's copy carries the seat's reply address, so a reply acts for the seat.
    assert message_from_bytes(mails[player("France")][0].raw)["Reply-To"] == started["France"]
    gm_copy = body_of(mails[GM][0])
    assert "Press #1 in game alpha" in gm_copy and "written by Turkey" in gm_copy
    [confirmation] = mails[player("Turkey")]
    assert confirmation.kind == "press_sent"
    assert "was sent to everyone in the game" in body_of(confirmation)
    assert "the dateline (Ankara) is yours" in body_of(confirmation)
    assert_private(rows, started)
    [row] = press_rows(engine)
    assert row.from_power == "TURKEY" and row.to_powers is None and row.published_at is not None
    assert row.dateline == "(Ankara)" and row.text.startswith(" - The Turkish")


def test_a_dateline_not_held_by_the_writer_gets_double_parentheses(
    engine: Engine, started: dict[str, str]
) -> None:
    text = "(ank) The French ambassador to Turkey was assassinated today."
    rows = send(engine, f"PRESS\n{text}\nENDPRESS", sender=player("France"), to=started["France"])
    mails = by_reader(rows)
    turkey = body_of(mails[player("Turkey")][0])
    assert "((Ankara)) The French ambassador" in turkey
    assert "you do not hold it" in body_of(mails[player("France")][0])


def test_writer_parentheses_do_not_count_only_the_board_does(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine,
        "PRESS\n((Paris)) All is calm.\nENDPRESS",
        sender=player("France"),
        to=started["France"],
    )
    assert "(Paris) All is calm." in body_of(by_reader(rows)[player("Italy")][0])
    assert "((Paris))" not in body_of(by_reader(rows)[player("Italy")][0])


def test_a_province_without_a_centre_belongs_to_the_unit_standing_there(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine, "PRESS\n(Burgundy) Quiet.\nENDPRESS", sender=player("France"), to=started["France"]
    )
    assert "((Burgundy)) Quiet." in body_of(by_reader(rows)[player("Germany")][0])
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and game.position is not None
        units = [{**u, "loc": "bur"} if u["loc"] == "par" else u for u in game.position["units"]]
        game.position = {**game.position, "units": units}
    rows = send(
        engine, "PRESS\n(Burgundy) Quiet.\nENDPRESS", sender=player("France"), to=started["France"]
    )
    assert "(Burgundy) Quiet." in body_of(by_reader(rows)[player("Germany")][0])
    assert "((Burgundy))" not in body_of(by_reader(rows)[player("Germany")][0])


def test_a_city_off_the_map_is_printed_as_written_in_double_parentheses(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine,
        "PRESS\n\n(Geneva) Talks begin.\n(not a dateline, just an aside in brackets) ok\nENDPRESS",
        sender=player("Italy"),
        to=started["Italy"],
    )
    mails = by_reader(rows)
    assert "((Geneva)) Talks begin." in body_of(mails[player("Austria")][0])
    assert "no province of the map" in body_of(mails[player("Italy")][0])
    rows = send(
        engine,
        "PRESS\n(this is not a dateline at all, only prose) ok\nENDPRESS",
        sender=player("Italy"),
        to=started["Italy"],
    )
    assert "(this is not a dateline at all, only prose) ok" in body_of(
        by_reader(rows)[player("Austria")][0]
    )
    assert press_rows(engine)[-1].dateline is None


def test_grey_press_hides_the_writer_from_everyone_but_the_gm(
    engine: Engine, started: dict[str, str]
) -> None:
    observe(engine)
    rows = send(
        engine,
        "PRESS GREY\nBeware the Bear.\nENDPRESS",
        sender=player("Austria"),
        to=started["Austria"],
    )
    mails = by_reader(rows)
    for address in [*(player(p) for p in POWERS if p != "Austria"), WATCHER]:
        [mail] = mails[address]
        text = body_of(mail)
        assert "Beware the Bear." in text and "the writer is not named" in text
        assert "Austria" not in text and "austria" not in text
        assert "Austria" not in (mail.subject or "")
    assert "written by Austria as grey press" in body_of(mails[GM][0])
    assert "readers are not told who wrote it" in body_of(mails[player("Austria")][0])
    assert_private(rows, started)


def test_partial_press_reaches_only_its_powers_and_the_gm(
    engine: Engine, started: dict[str, str]
) -> None:
    observe(engine)
    rows = send(
        engine,
        "PRESS TO GI\nLet us share the Balkans.\nENDPRESS",
        sender=player("Austria"),
        to=started["Austria"],
    )
    mails = by_reader(rows)
    assert set(mails) == {player("Germany"), player("Italy"), GM, player("Austria")}
    germany = body_of(mails[player("Germany")][0])
    assert "to Germany, Italy only" in germany and "from Austria" in germany
    assert_private(rows, started)
    row = press_rows(engine)[-1]
    assert row.to_powers == ["GERMANY", "ITALY"]
    rows = send(
        engine,
        "PRESS TO Russia, M\nHello.\nENDPRESS",
        sender=player("Turkey"),
        to=started["Turkey"],
    )
    assert set(by_reader(rows)) == {player("Russia"), GM, player("Turkey")}


def test_unknown_powers_and_empty_press_are_refused_and_nothing_is_sent(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(
        engine,
        "PRESS TO Germany, Narnia\nHello.\nENDPRESS\nPRESS\n\nENDPRESS",
        sender=player("France"),
        to=started["France"],
    )
    assert [r.kind for r in rows] == ["desk_problems"]
    text = problems(rows)
    assert "line 1: PRESS not sent: game alpha has no power NARNIA" in text
    assert "line 4: PRESS not sent: there is no text" in text
    assert press_rows(engine) == []


def test_a_forged_from_line_sends_no_press_and_a_stranger_is_told_how(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "BROADCAST\nI am France.\nENDPRESS", sender=player("France"))
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "BROADCAST not sent: it needs a game" in problems(rows)
    assert "From: line alone" in problems(rows)
    rows = send(engine, "PRESS\nHi all.\nENDPRESS", sender="nobody@example.org")
    assert [r.kind for r in rows] == ["desk_problems"]
    assert "OBSERVE game on a line before it" in problems(rows)
    assert press_rows(engine) == []


def test_an_observer_writes_white_press_signed_as_an_observer(
    engine: Engine, started: dict[str, str]
) -> None:
    # Before the confirmation comes back, OBSERVE publishes nothing: a forged From: is no observer.
    rows = send(engine, "OBSERVE alpha\nBROADCAST\nGood luck all.\nENDPRESS", sender=WATCHER)
    assert {r.to_addr for r in rows} == {WATCHER}
    assert [r.kind for r in rows] == ["observe_confirm+desk_problems"]
    assert "BROADCAST not sent: it needs a game" in problems(rows)
    assert press_rows(engine) == []
    observe_by_reply(engine, WATCHER)
    rows = send(engine, "OBSERVE alpha\nBROADCAST\nGood luck all.\nENDPRESS", sender=WATCHER)
    mails = by_reader(rows)
    italy = body_of(mails[player("Italy")][0])
    assert "from an observer" in italy and WATCHER not in italy
    assert f"an observer (From: {WATCHER}, unproven)" in body_of(mails[GM][0])
    assert [r.kind for r in mails[WATCHER]] == ["observing+press_sent"]
    rows = send(engine, "OBSERVE alpha\nPRESS GREY\nWho am I?\nENDPRESS", sender=WATCHER)
    assert "grey press is not allowed to observers in game alpha" in problems(rows)
    send(engine, f"{GM_SIGNON}\nSET OBSERVER NO", sender=GM)
    rows = send(engine, "OBSERVE alpha\nBROADCAST\nHello?\nENDPRESS", sender=WATCHER)
    assert "observers may not send press in game alpha" in problems(rows)
    send(engine, f"{GM_SIGNON}\nSET OBSERVER ANY", sender=GM)
    rows = send(engine, "OBSERVE alpha\nPRESS GREY\nWho am I?\nENDPRESS", sender=WATCHER)
    assert "the writer is not named" in body_of(by_reader(rows)[player("Italy")][0])


def test_the_gm_sets_the_press_and_the_players_are_told(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "SET PRESS NONE", sender=player("France"), to=started["France"])
    assert "SET PRESS is the GM's" in problems(rows)
    rows = send(engine, f"{GM_SIGNON}\nSET PRESS NONE\nSET NOPARTIAL", sender=GM)
    mails = by_reader(rows)
    [to_gm] = mails[GM]
    assert "press allowed:      NONE" in body_of(to_gm) and "partial press:      not" in body_of(
        to_gm
    )
    assert [r.kind for r in mails[player("France")]] == ["press_settings"]
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        assert game.settings["press"] == "none" and game.settings["press_partial"] is False
    rows = send(engine, "BROADCAST\nHello\nENDPRESS", sender=player("France"), to=started["France"])
    assert "game alpha allows no press (SET PRESS NONE)" in problems(rows)
    # Press to the GM alone always goes through, and the GM may always write.
    rows = send(
        engine, "PRESS TO M\nA word, GM.\nENDPRESS", sender=player("France"), to=started["France"]
    )
    assert set(by_reader(rows)) == {GM, player("France")}
    rows = send(engine, f"{GM_SIGNON}\nBROADCAST\nThe GM speaks.\nENDPRESS", sender=GM)
    assert "from the GM" in body_of(by_reader(rows)[player("Italy")][0])
    send(engine, f"{GM_SIGNON}\nSET PRESS WHITE", sender=GM)
    rows = send(
        engine, "PRESS TO Italy\nPsst.\nENDPRESS", sender=player("France"), to=started["France"]
    )
    assert "game alpha allows no partial press (SET NOPARTIAL)" in problems(rows)
    rows = send(
        engine, "PRESS GREY\nPsst.\nENDPRESS", sender=player("France"), to=started["France"]
    )
    assert "grey press is not allowed in game alpha; write WHITE" in problems(rows)


def test_grey_white_makes_grey_the_default_and_white_may_be_asked_for(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, f"{GM_SIGNON}\nSET GREY/WHITE", sender=GM)
    rows = send(engine, "PRESS\nWho?\nENDPRESS", sender=player("France"), to=started["France"])
    assert "the writer is not named" in body_of(by_reader(rows)[player("Italy")][0])
    rows = send(engine, "PRESS WHITE\nMe.\nENDPRESS", sender=player("France"), to=started["France"])
    assert "from France" in body_of(by_reader(rows)[player("Italy")][0])


def test_press_kept_for_the_results_withheld_and_released(
    engine: Engine, started: dict[str, str]
) -> None:
    observe(engine)
    send(engine, f"{GM_SIGNON}\nSET PUBLISH RESULTS", sender=GM)
    rows = send(
        engine,
        "BROADCAST\n(Paris) Vive la France.\nENDPRESS",
        sender=player("France"),
        to=started["France"],
    )
    mails = by_reader(rows)
    assert set(mails) == {GM, player("France")}  # nobody reads it before the results
    assert "WITHHOLD 1 keeps it back" in body_of(mails[GM][0])
    assert "kept and will be published with the results of S1901M" in body_of(
        mails[player("France")][0]
    )
    send(
        engine,
        "PRESS TO Russia\nSecret plan.\nENDPRESS",
        sender=player("Turkey"),
        to=started["Turkey"],
    )
    send(engine, "BROADCAST\nLibel!\nENDPRESS", sender=player("Italy"), to=started["Italy"])
    rows = send(engine, f"{GM_SIGNON}\nWITHHOLD 3\nWITHHOLD 9", sender=GM)
    assert "press #3 withheld" in (by_reader(rows)[GM][0].subject or "")
    assert "game alpha has no press #9" in problems(rows)
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    digests = {r.to_addr: body_of(r) for r in rows if r.kind == "press"}
    assert set(digests) == {*(player(p) for p in POWERS), WATCHER, GM}
    assert "(Paris) Vive la France." in digests[player("Germany")]
    assert (
        "Secret plan." not in digests[player("Germany")] and "Secret plan." not in digests[WATCHER]
    )
    assert "Secret plan." in digests[player("Russia")] and "Secret plan." in digests[GM]
    assert all("Libel!" not in text for text in digests.values())
    published = [r.published_at is not None for r in press_rows(engine)]
    assert published == [True, True, False]
    rows = send(engine, f"{GM_SIGNON}\nRELEASE 1\nRELEASE 3", sender=GM)
    assert "press #1 of game alpha was published already" in problems(rows)
    assert "published with the next results" in body_of(by_reader(rows)[GM][0])
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    assert "Libel!" in body_of(next(r for r in rows if r.kind == "press" and r.to_addr == WATCHER))
    # A second PROCESS publishes nothing again.
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    assert not [r for r in rows if r.kind == "press"]


def test_release_in_a_game_that_publishes_now_sends_at_once(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, f"{GM_SIGNON}\nSET PUBLISH RESULTS", sender=GM)
    send(engine, "BROADCAST\nLater.\nENDPRESS", sender=player("Italy"), to=started["Italy"])
    send(engine, f"{GM_SIGNON}\nWITHHOLD 1\nSET PUBLISH NOW", sender=GM)
    rows = send(engine, f"{GM_SIGNON}\nRELEASE 1", sender=GM)
    mails = by_reader(rows)
    assert "Later." in body_of(mails[player("France")][0])
    assert "has been published" in body_of(mails[GM][-1])


def test_press_to_a_finished_game_is_refused(engine: Engine, started: dict[str, str]) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        game.status = GameStatus.FINISHED
    rows = send(engine, "BROADCAST\nGG\nENDPRESS", sender=player("France"), to=started["France"])
    assert "game alpha is over; its press is closed" in problems(rows)


def test_the_gm_answers_a_kept_release_from_its_copy_by_the_gm_reply_address(
    engine: Engine, started: dict[str, str]
) -> None:
    send(engine, f"{GM_SIGNON}\nSET PUBLISH RESULTS", sender=GM)
    rows = send(
        engine, "PRESS TO Germany\nA rumour.\nENDPRESS", sender=player("Italy"), to=started["Italy"]
    )
    mails = by_reader(rows)
    assert "with the results of S1901M, to Germany and the GM" in body_of(mails[player("Italy")][0])
    gm_reply = message_from_bytes(mails[GM][0].raw)["Reply-To"]
    assert gm_reply is not None and gm_reply not in started.values()
    rows = send(engine, "WITHHOLD 1", sender=GM, to=str(gm_reply))
    assert [r.kind for r in rows] == ["press_held"]
    assert press_rows(engine)[0].held is True
    # The same line from a player's reply address is no GM's.
    rows = send(engine, "RELEASE 1", sender=player("Italy"), to=started["Italy"])
    assert "RELEASE is the GM's" in problems(rows)
    assert press_rows(engine)[0].held is True
