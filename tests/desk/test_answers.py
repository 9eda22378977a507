"""The judge's answers (issue 15, points 3 to 8) through the processor on SQLite: one answer per
mail, errors that say what happened, who is told what and in which order, names as given, and
the SET DEADLINE answer that says when the phase will actually run.
"""

from __future__ import annotations

from email import message_from_bytes

from sqlalchemy import Engine
from test_deadlines import HOLDS
from test_games_by_mail import GM, POWERS, body_of, kinds, observe_by_reply, player, send
from test_master import GM_SIGNON, gm_address, reply_to

from judge.desk.answer import one_answer
from judge.desk.replies import Reply
from judge.store import OutboxMessage


def text_of(row: OutboxMessage) -> str:
    """The mail's text with its lines as the template wrote them, folds undone."""
    return " ".join(body_of(row).split())


def subject(row: OutboxMessage) -> str:
    return " ".join(str(message_from_bytes(row.raw)["Subject"]).split())


# --- 3. one mail, one answer --------------------------------------------------------------------
def test_a_mail_of_signon_orders_wait_and_press_gets_one_answer(
    engine: Engine, started: dict[str, str]
) -> None:
    mail = "SIGNON Italy alpha pw-Italy\nF NAP-ION\nSET WAIT\nPRESS\nForza!\nENDPRESS\nLIST nosuch"
    rows = send(engine, mail, sender="away@example.net")
    answers = [r for r in rows if r.to_addr == "away@example.net"]
    assert len(answers) == 1  # one mail says everything the mail did
    [answer] = answers
    assert kinds(answer) == ["signed_on", "wait_set", "press_sent", "orders_read", "desk_problems"]
    text = body_of(answer)
    positions = [
        text.index("You hold Italy in game alpha."),
        text.index("Italy has set WAIT in game alpha"),
        text.index("Your press in game alpha (S1901M) was sent"),
        text.index("= Fleet Naples -> Ionian Sea"),
        text.index("Some lines of your mail could not be carried out"),
    ]
    assert positions == sorted(positions)
    assert subject(answer).startswith("alpha: you play Italy; Italy waits in S1901M;")
    assert subject(answer).endswith("; not all done")
    # Every part speaks of Italy's seat: the answer carries its reply address.
    assert reply_to(answer) == started["Italy"]
    # What others must be told stays a mail of its own: the press, and the holder's copy of
    # the orders (the seat acted from an address not on record).
    others = [r for r in rows if r.to_addr != "away@example.net"]
    assert {r.kind for r in others} == {"press", "orders_read"}
    assert [r.to_addr for r in others if r.kind == "orders_read"] == [player("Italy")]


def test_a_mail_of_one_command_is_answered_by_that_mail_alone(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "A PAR-BUR", sender=player("France"), to=started["France"])
    [answer] = rows
    assert answer.kind == "orders_read"
    assert subject(answer) == "alpha: France orders for S1901M"
    assert "Your mail did" not in body_of(answer)


def test_parts_for_different_reply_addresses_name_each_and_set_none(engine: Engine) -> None:
    """A GM who creates a game and takes a seat in it in one mail: the GM's reply address and
    the seat's are both written, each under its part; the answer's Reply-To is neither."""
    rows = send(engine, "CREATE beta gm-pw standard\nSIGNON France beta own-pw", sender=GM)
    [answer] = rows
    assert kinds(answer) == ["game_created", "signed_on"]
    assert reply_to(answer) is None
    assert text_of(answer).count("(Replies about this go to judge+") == 2


def test_the_gm_s_results_stay_a_mail_of_their_own_before_the_missed_turns(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, f"{GM_SIGNON}\nPROCESS MISSED", sender=GM)  # nobody sent orders
    to_gm = [r for r in rows if r.to_addr == GM]
    assert [r.kind for r in to_gm][0] == "results"  # as every reader gets it
    # The seven missed moves of the phase are one mail, naming each power.
    assert to_gm[1].kind == "missed_turn"
    assert all(f"{power} ({power.lower()}@" in body_of(to_gm[1]) for power in POWERS)
    assert len(to_gm) == 2 and to_gm[0].id < to_gm[1].id


def test_results_that_are_all_the_gm_gets_answer_the_gm_s_mail(
    engine: Engine, started: dict[str, str]
) -> None:
    """Every order in: the GM's PROCESS is answered by the results alone, which refer to the
    GM's mail (and stay outside the daily cap); the players' results refer to the game."""
    for power in POWERS:
        send(engine, HOLDS[power], sender=player(power), to=started[power])
    rows = send(engine, f"{GM_SIGNON}\nPROCESS", sender=GM)
    [to_gm] = [r for r in rows if r.to_addr == GM]
    assert to_gm.kind == "results"
    answered = message_from_bytes(to_gm.raw)
    assert answered["In-Reply-To"].startswith("<g") and answered["Auto-Submitted"] == "auto-replied"
    france = next(r for r in rows if r.to_addr == player("France"))
    assert message_from_bytes(france.raw)["In-Reply-To"].startswith("<game.alpha@")


def test_one_answer_keeps_the_mails_to_others_and_stands_where_its_first_part_stood() -> None:
    notice = Reply("results", "results_judge", {"game": "alpha"}, to="me@example.org")
    other = Reply("game_started", "game_started", {"game": "alpha"}, to="you@example.org")
    mine = Reply("game_started", "game_started", {"game": "alpha"}, to="Me@Example.org")
    first = Reply("signed_on", "signed_on", {"game": "alpha"}, reply_to="judge+a@example.org")
    out = one_answer("me@example.org", [notice, first, other, mine])
    assert [r.kind for r in out] == ["results", "signed_on+game_started", "game_started"]
    assert out[1].to is None and out[1].game == "alpha" and out[1].reply_to == first.reply_to
    assert [p.kind for p in out[1].parts] == ["signed_on", "game_started"]
    assert one_answer("me@example.org", [first]) == [first]
    # Nothing but a results mail for the sender: it stays a notice, marked as the answer.
    [results, started] = one_answer("me@example.org", [notice, other])
    assert results.answering and results.to == "me@example.org" and not started.answering


# --- 4. errors that say what happened -----------------------------------------------------------
def test_signon_power_game_without_a_password_says_it_reads_two_ways(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "SIGNON Germany alpha", sender="newbie@example.net")
    text = text_of(rows[0])
    assert "there is no game named ermany" in text
    assert "can be read two ways" in text
    assert "if you meant Germany in game alpha, the password is missing" in text
    assert "SIGNON Germany alpha <your password>" in text
    # When the word after the power names no game either, it may be a password: not repeated.
    rows = send(engine, "SIGNON Germany s3cr3t", sender="newbie@example.net")
    text = text_of(rows[0])
    assert "can be read two ways" in text and "s3cr3t" not in text
    assert "write SIGNON Germany <game> <your password>" in text


def test_a_signon_to_a_seat_someone_holds_says_it_is_taken_first(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "SIGNON France alpha guess", sender="stranger@example.net")
    text = text_of(rows[0])
    assert "France in game alpha is taken" in text
    assert text.index("is taken") < text.index("not the right one")
    assert "LIST alpha shows its open seats" in text
    # The holder mistyping the password from the address of record is told just that.
    rows = send(engine, "SIGNON France alpha guess", sender=player("France"))
    text = text_of(rows[0])
    assert "the password given for France in game alpha is not the right one" in text
    assert "is taken" not in text


def test_process_with_the_game_s_name_is_understood_or_answered_with_the_right_form(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "PROCESS alpha", sender=GM)
    text = text_of(rows[0])
    assert "PROCESS is the GM's, and takes the phase, not the game" in text
    assert "SIGNON M alpha <the GM password>" in text
    send(engine, "CREATE beta other-pw standard", sender=GM)
    rows = send(engine, f"{GM_SIGNON}\nPROCESS beta", sender=GM)
    text = text_of(rows[0])
    assert "this mail acts as the GM of game alpha, not beta" in text
    assert "PROCESS S1901M" in text
    rows = send(engine, f"{GM_SIGNON}\nPROCESS Alpha", sender=GM)  # any case
    assert "results" in {r.kind for r in rows}
    rows = send(engine, "PROCESS alpha F1901M", sender=GM, to=gm_address(engine))
    assert "results" in {r.kind for r in rows}


def test_a_mistyped_province_is_answered_with_the_province_meant(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, "A VIE-GALICYA", sender=player("Austria"), to=started["Austria"])
    text = text_of(rows[0])
    assert "found 'GALICYA' (did you mean Galicia?)" in text
    assert "Baltic" not in text


# --- 5. who is told what ------------------------------------------------------------------------
def test_the_gm_and_observers_are_told_the_game_has_started_after_the_players(
    engine: Engine,
) -> None:
    send(engine, "CREATE beta gm-pw standard", sender=GM)
    observe_by_reply(engine, "watcher@example.org", "beta")
    for power in POWERS:
        rows = send(engine, f"SIGNON {power} beta pw-{power}", sender=player(power))
    started = {r.to_addr: r for r in rows if "game_started" in kinds(r)}
    notices = {r.to_addr: r for r in rows if r.kind == "game_start_notice"}
    assert set(notices) == {GM, "watcher@example.org"}
    assert set(started) == {player(p) for p in POWERS}
    for row in notices.values():
        assert "Every seat of game beta is taken and the game has started" in text_of(row)
        assert "Austria name not given" in text_of(row)
        assert "You play" not in text_of(row)
    # The last player's "you play" comes first: in its answer before the start, and the
    # answer is written (and sent) before any start notice.
    answer = started[player("Turkey")]
    assert kinds(answer) == ["signed_on", "game_started"]
    assert all(answer.id < row.id for row in rows if row is not answer)


def test_a_seat_given_by_replace_is_told_before_the_start_it_causes(engine: Engine) -> None:
    send(engine, "CREATE beta gm-pw standard", sender=GM)
    for power in POWERS[:-1]:
        send(engine, f"SIGNON {power} beta pw-{power}", sender=player(power))
    rows = send(engine, "SIGNON M beta gm-pw\nREPLACE Turkey new@example.net", sender=GM)
    to_new = [r for r in rows if r.to_addr == "new@example.net"]
    assert [r.kind for r in to_new] == ["seat_given", "game_started"]
    assert to_new[0].id < to_new[1].id


def test_set_name_gives_the_name_summary_shows(engine: Engine, started: dict[str, str]) -> None:
    rows = send(
        engine, "SET NAME  Ada   Lovelace ", sender=player("England"), to=started["England"]
    )
    [answer] = rows
    assert answer.kind == "name_set" and reply_to(answer) == started["England"]
    assert "Ada Lovelace" in text_of(answer)
    rows = send(engine, f"{GM_SIGNON}\nSET NAME Gamesmaster General", sender=GM)
    assert rows[0].kind == "name_set"
    rows = send(engine, "SUMMARY alpha", sender="reader@example.org")
    text = body_of(rows[0])
    assert "England    Ada Lovelace" in text
    assert "Game master: Gamesmaster General" in text
    assert "SET NAME <name>" in text
    # Not from a From: line alone, not an address, not by the GM for a player.
    rows = send(engine, "SET NAME Mallory", sender=player("France"))
    assert "SET NAME Mallory not taken" in text_of(rows[0])
    rows = send(engine, "SET NAME me@example.net", sender=player("France"), to=started["France"])
    assert "may hold no mail address" in text_of(rows[0])
    rows = send(engine, f"{GM_SIGNON}\nBECOME France\nSET NAME Puppet", sender=GM)
    assert "it is the player's own choice" in text_of(rows[0])
    rows = send(engine, "SUMMARY alpha", sender="reader@example.org")
    assert "Mallory" not in body_of(rows[0]) and "Puppet" not in body_of(rows[0])


def test_help_names_set_name(engine: Engine) -> None:
    rows = send(engine, "HELP", sender="who@example.org")
    assert "SET NAME your name" in body_of(rows[0])


# --- 7. names as given --------------------------------------------------------------------------
def test_a_game_is_named_as_its_creator_wrote_it_and_found_in_any_case(engine: Engine) -> None:
    rows = send(engine, "CREATE Rm1 gm-pw standard", sender=GM)
    assert subject(rows[0]) == "Game Rm1 created"
    rows = send(engine, "CREATE RM1 gm-pw standard", sender="other@example.org")
    assert "a game named Rm1 exists already" in text_of(rows[0])
    for power in POWERS:
        send(engine, f"SIGNON {power} rm1 pw-{power}", sender=player(power))
    rows = send(engine, "SIGNON M RM1 gm-pw\nPROCESS", sender=GM)
    results = [r for r in rows if r.kind == "results"]
    assert results and all(
        ":: Judge: Test Judge  Game: Rm1  Variant:" in body_of(r) for r in results
    )
    assert all(subject(r) == "Test Judge:Rm1 - S1901M Results" for r in results)
    rows = send(engine, "LIST", sender="who@example.org")
    assert "  Rm1 " in body_of(rows[0])


# --- 8. when the phase will actually run --------------------------------------------------------
def test_set_deadline_says_when_the_phase_runs_and_how_to_shorten_grace(
    engine: Engine, started: dict[str, str]
) -> None:
    rows = send(engine, f"{GM_SIGNON}\nSET DEADLINE +2m", sender=GM)
    [answer] = [r for r in rows if r.to_addr == GM]
    text = text_of(answer)
    assert "When S1901M runs:" in text
    assert "at the latest at the deadline, Wed Apr 01 2026 08:02:00 +0000" in text
    assert (
        "With orders missing at the deadline: it waits for them until grace ends, "
        "Sat Apr 11 2026 23:30:00 +0000 (10 days 15 hours after the deadline)" in text
    )
    assert "the units of a power that sent nothing stand" in text
    assert "SET GRACE <date> ends this phase's grace sooner" in text
    assert "SET MOVE GRACE <hours> for the movement phases to come" in text
    # The players read when the phase runs; how to change it is the GM's.
    france = next(r for r in rows if r.to_addr == player("France"))
    assert "When S1901M runs:" in text_of(france) and "SET MOVE GRACE" not in text_of(france)

    rows = send(engine, f"{GM_SIGNON}\nSET NONMR\nSET GRACE +2m", sender=GM)
    [answer] = [r for r in rows if r.to_addr == GM]
    text = text_of(answer)
    assert answer.kind == "game_setting"  # one answer for both commands
    assert "Your mail did 2 things" in text
    assert "there is no grace, so it runs then" in text
    rows = send(engine, f"{GM_SIGNON}\nSET GRACE +1d", sender=GM)
    text = text_of(rows[0])
    assert "a power still late is abandoned, and the phase waits until someone takes" in text


def test_outbox_rows_of_one_mail_are_in_the_desk_s_order(
    engine: Engine, started: dict[str, str]
) -> None:
    """The processor writes the answer where the desk put it: the sender's answer to a SET
    DEADLINE before the notices to the players it causes."""
    rows = send(engine, f"{GM_SIGNON}\nSET DEADLINE +1d", sender=GM)  # rows in outbox order
    assert (rows[0].to_addr, rows[0].kind) == (GM, "game_setting")
    assert {r.kind for r in rows[1:]} == {"setting_notice"}
