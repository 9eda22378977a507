"""Commands that name a power, on a secret board: SIGNON with a generated power's initials (the
start mail's hint, as written), and answers that never tell anyone whether a power exists: a
wrong power, a letter, a prefix and a wrong password read alike to a stranger, even once the
guesses are counted; JOIN's preferences, SET DRAW and SET CONCEDE and PRESS TO name only the
powers the writer has met; LIST numbers seats by their holders."""

from __future__ import annotations

import re
import sys
from datetime import timedelta
from pathlib import Path

from sqlalchemy import Engine

from judge import clock
from judge.store import session_scope
from judge.store.game_queries import find_game
from tests.variants.algernon import leakcheck
from tests.variants.algernon.test_by_mail import GM, board, engine, started

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

__all__ = ["engine"]


def _answer(engine: Engine, text: str, sender: str) -> str:
    rows = mail.send(engine, text, sender=sender)
    assert len(rows) == 1, [r.kind for r in rows]
    return mail.body_of(rows[0])


def test_the_start_mail_s_signon_line_signs_on(engine: Engine) -> None:
    """The hint of the start mail, copied with the password filled in, from an address the
    judge has never seen: the seat acts and its orders are read."""
    rows = mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    starts = []
    for i in range(3):
        starts += mail.send(engine, f"JOIN maze pw{i}", sender=f"p{i}@example.org")
    start = next(r for r in starts if r.kind == "game_started" and r.to_addr == "p1@example.org")
    text = mail.body_of(start)
    hint = re.search(r"(SIGNON \S+ maze) <your password>", text)
    assert hint is not None, text
    maze = board(engine)
    power = next(p for p in maze.powers if hint.group(1).split()[1].upper() == p)
    home = sorted(maze.powers[power].home_centres)[0].upper()
    rows = mail.send(engine, f"{hint.group(1)} pw1\n{home} h", sender="elsewhere@example.org")
    body = "\n".join(mail.body_of(r) for r in rows)
    assert "expected a power" not in body and "not signed on" not in body
    assert f"{home} h" in body and "Not done" not in body
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        seat = next(s for s in game.seats if s.power == power)
        assert seat.orders_state != "none"


def test_a_signon_without_its_password_says_so(engine: Engine) -> None:
    seats = started(engine, 3)
    power = sorted(seats)[0].title()
    text = _answer(engine, f"SIGNON {power} maze", "forgetful@example.org")
    assert f"write SIGNON {power} maze <your password>" in " ".join(text.split())


def test_a_wrong_power_reads_as_a_wrong_password(engine: Engine) -> None:
    seats = started(engine, 4)
    maze = board(engine)
    mine, other = sorted(seats)[:2]
    pw = {p: f"pw{i}" for i, p in enumerate(sorted(seats, key=lambda p: seats[p][0]))}
    letter = maze.powers[other].letter
    tries = {
        "no such power": ("ZZZ", pw[mine]),
        "another's seat, my password": (other, pw[mine]),
        "a real seat, a wrong password": (other, "guess"),
        "a prefix": (other[:2], pw[other]),
        "njudge's letter": (letter, pw[other]),
    }
    answers = {}
    for i, (why, (word, password)) in enumerate(tries.items()):
        text = _answer(engine, f"SIGNON {word} maze {password}", f"stranger{i}@example.org")
        # The word as written, as a whole word only (a prefix such as JO is no part of JOIN).
        answers[why] = re.sub(rf"\b{re.escape(word)}\b", "<POWER>", text, flags=re.IGNORECASE)
    assert len(set(answers.values())) == 1, answers
    assert "not signed on" in answers["no such power"]
    assert "its powers are" not in answers["no such power"]
    # The glued form of njudge with the letter reads the same.
    glued = _answer(engine, f"SIGNON {letter}maze {pw[other]}", "stranger9@example.org")
    assert "not signed on" in glued and "is taken" not in glued


def test_counted_guesses_read_alike_for_a_power_and_for_none(engine: Engine) -> None:
    """Past the free failures a guess must wait: the refusal is the same for a power that
    exists and for one that does not, so counting guesses tells nothing either."""
    seats = started(engine, 3)
    real = sorted(seats)[0]
    last = {}
    start = clock.now()
    for word in (real, "ZZZ"):
        for n in range(5):
            clock.set_now(start + timedelta(seconds=n))
            sender = f"guesser{n}.{word.lower()}@example.org"  # the sender's own count apart
            last[word] = _answer(engine, f"SIGNON {word} maze wrong{n}", sender)
    assert "not checked" in last[real]
    assert last[real].replace(real, "<POWER>") == last["ZZZ"].replace("ZZZ", "<POWER>")


def test_join_reads_no_preference_of_a_secret_board(engine: Engine) -> None:
    mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        wanted = sorted(s.power for s in game.seats)[-1]
    text = _answer(engine, f"JOIN maze pw {wanted}", "p@example.org")
    assert f"the preferences {wanted} were not read" in text
    assert "2 still open" in text
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        own = next(s.power for s in game.seats if s.person is not None)
        others = [s.power for s in game.seats if s.power not in (own, wanted)]
    for power in others:  # no power named, open or taken, but the joiner's own
        assert power.title() not in text and power not in text


def test_votes_and_press_name_only_powers_met(engine: Engine) -> None:
    seats = started(engine, 3)
    maze = board(engine)
    mine, other = sorted(seats)[:2]
    address, reply = seats[mine]
    rows = mail.send(
        engine, f"SET CONCEDE {other}\nSET DRAW {mine} ZZZ\nSET DRAW", sender=address, to=reply
    )
    text = "\n".join(mail.body_of(r) for r in rows)
    assert f"{other} unknown to you" in text and "ZZZ unknown to you" in text
    assert "its powers are" not in text
    assert "for a draw of all the surviving powers." in " ".join(text.split())
    found = leakcheck.leaks(maze, leakcheck.start(maze)[mine], text)
    assert all(other in f for f in found)  # his own word, echoed


def test_press_before_the_start_names_no_power(engine: Engine) -> None:
    mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    mail.send(engine, "JOIN maze pw0", sender="p0@example.org")
    text = _answer(engine, "SIGNON ZZZ maze pw0\nPRESS TO ZZZ\nhello\nENDPRESS", "p0@example.org")
    assert "its powers are" not in text
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        own = next(s for s in game.seats if s.person is not None)
        token = own.reply_token
    rows = mail.send(
        engine,
        "PRESS TO ZZZ\nhello\nENDPRESS",
        sender="p0@example.org",
        to=f"judge+{token}@example.org",
    )
    text = "\n".join(mail.body_of(r) for r in rows)
    assert "ZZZ unknown to you" in text and "its powers are" not in text


def test_list_numbers_a_secret_board_s_seats_by_their_holders(engine: Engine) -> None:
    mail.send(engine, "CREATE maze secret algernon 12", sender=GM)
    for i in range(6):
        mail.send(engine, f"JOIN maze pw{i}", sender=f"p{i}@example.org")
    text = _answer(engine, "LIST maze", "someone@example.org")
    holders = re.findall(r"^\s*Seat \d+\s+(\S+)", text, re.M)
    assert holders == ["taken"] * 6 + ["open"] * 6
