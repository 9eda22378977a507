"""The notices of a game whose board is secret, reader by reader (judge.desk.secret_notices):
a player is told of his own seat (his reminder, his late notice, his missed move, the seat the
GM gives him, the copy of his own answer) and of the game's progress with no other power
named; the GM reads every notice as written; observers read no power at all. Every mail a
player gets is checked against what he may know (leakcheck.py)."""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from pathlib import Path

from sqlalchemy import Engine, func, select

from judge import clock
from judge.scheduler import run_due
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import find_game
from judge.store.outbox import Identity
from tests.variants.algernon import leakcheck
from tests.variants.algernon.test_by_mail import GM, board, engine, started

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "desk"))
import test_games_by_mail as mail  # noqa: E402

__all__ = ["engine"]

IDENTITY = Identity("judge@example.org", "Test Judge")
DEADLINE = datetime(2026, 4, 4, 23, 30, tzinfo=UTC)  # the first deadline of a game started Apr 1
GRACE_ENDS = DEADLINE + timedelta(days=7)


def scheduled(engine: Engine, at: datetime) -> list[OutboxMessage]:
    """Run the scheduler at `at`; the mails it wrote."""
    clock.set_now(at)
    with session_scope(engine) as session:
        before = session.scalar(select(func.max(OutboxMessage.id))) or 0
    run_due(engine, IDENTITY)
    with session_scope(engine) as session:
        return list(
            session.scalars(
                select(OutboxMessage).where(OutboxMessage.id > before).order_by(OutboxMessage.id)
            )
        )


def holds(engine: Engine, power: str) -> str:
    maze = board(engine)
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None and game.position is not None
        units = [u["loc"] for u in game.position["units"] if u["power"] == power]
    assert all(u in maze.provinces for u in units)
    return "\n".join(f"{u.upper()} h" for u in units)


def named(power: str, text: str) -> bool:
    """Whether `text` names the power, as a word of its own, in capitals or name-cased."""
    return re.search(rf"\b{power}\b", text, re.IGNORECASE) is not None


def by_reader(
    rows: list[OutboxMessage], seats: dict[str, tuple[str, str]]
) -> dict[str, list[tuple[str, str]]]:
    """power (or GM) -> [(kind, body)] of the rows addressed to it."""
    who = {address: power for power, (address, _) in seats.items()} | {GM: "GM"}
    out: dict[str, list[tuple[str, str]]] = {}
    for row in rows:
        out.setdefault(who.get(row.to_addr, row.to_addr), []).append((row.kind, mail.body_of(row)))
    return out


def no_leak(engine: Engine, told: dict[str, list[tuple[str, str]]]) -> None:
    """No player's mail names a power, a space or a portal he has not met (at the start)."""
    maze = board(engine)
    allowed = leakcheck.start(maze)
    for power, mails in told.items():
        if power in allowed:
            for kind, body in mails:
                assert leakcheck.leaks(maze, allowed[power], body) == [], (power, kind)


def test_reminders_and_late_notices_name_the_reader_alone(engine: Engine) -> None:
    seats = started(engine, 3)
    on_time, *late = sorted(seats)
    mail.send(engine, holds(engine, on_time), sender=seats[on_time][0], to=seats[on_time][1])
    told = by_reader(scheduled(engine, DEADLINE - timedelta(hours=23)), seats)
    assert set(told) == set(late)
    for power in late:
        assert [kind for kind, _ in told[power]] == ["reminder"]
        body = told[power][0][1]
        assert f"order of {power}" in " ".join(body.split()) and "Still without orders" in body
        # The maze's pieces are rats in every sentence, never the engine's armies.
        assert "Rat " in body and "Army" not in body, body
    no_leak(engine, told)

    told = by_reader(scheduled(engine, DEADLINE), seats)
    for power in late:
        kinds = [kind for kind, _ in told[power]]
        assert kinds == ["late"], kinds
        body = told[power][0][1]
        assert f"order of {power}." in " ".join(body.split()) and "Also late" not in body
    assert [kind for kind, _ in told[on_time]] == ["late_list"]
    assert "as soon as the late orders are in" in told[on_time][0][1]
    assert "Late:" not in told[on_time][0][1]
    gm = dict(told["GM"])["late_list"]
    assert all(p in gm for p in late)  # the GM reads every late power
    no_leak(engine, told)


def test_a_missed_move_is_told_to_its_player_alone(engine: Engine) -> None:
    seats = started(engine, 3)
    on_time, missing, other = sorted(seats)
    for power in (on_time, other):
        mail.send(engine, holds(engine, power), sender=seats[power][0], to=seats[power][1])
    told = by_reader(scheduled(engine, GRACE_ENDS), seats)
    assert "replacement_sought" in [kind for kind, _ in told[missing]]
    for power in (on_time, other):
        assert "replacement_sought" not in [kind for kind, _ in told[power]]
        assert not any(named(missing, body) for _, body in told[power])
    assert "missed_turn" in [kind for kind, _ in told["GM"]]
    no_leak(engine, told)


def test_the_seat_the_gm_hands_over_reaches_its_new_player_only(engine: Engine) -> None:
    seats = started(engine, 3)
    power = sorted(seats)[1]
    rows = mail.send(
        engine, f"SIGNON MASTER maze secret\nREPLACE {power} new@example.org", sender=GM
    )
    kinds = {row.to_addr: row.kind for row in rows}
    assert kinds.get("new@example.org") == "seat_given"  # his password and reply address
    assert "password for the seat" in next(
        mail.body_of(r) for r in rows if r.to_addr == "new@example.org"
    )
    for other, (address, _) in seats.items():
        if other != power:
            assert address not in kinds  # who took which seat is the GM's to know


def test_a_roll_back_names_only_the_reader_s_own_power(engine: Engine) -> None:
    seats = started(engine, 3)
    for power in seats:
        mail.send(engine, holds(engine, power), sender=seats[power][0], to=seats[power][1])
    mail.send(engine, "SIGNON MASTER maze secret\nPROCESS", sender=GM)
    rows = mail.send(engine, "SIGNON MASTER maze secret\nROLLBACK", sender=GM)
    told = by_reader(rows, seats)
    for power in seats:
        body = dict(told[power])["rolled_back"]
        assert f"stand again for {power}" in " ".join(body.split())
        assert not any(named(p, body) for p in seats if p != power)
    assert all(p in dict(told["GM"])["rolled_back"] for p in seats)
    no_leak(engine, told)


def test_a_forced_start_and_the_observer_s_start_name_no_power(engine: Engine) -> None:
    mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    mail.send(engine, "JOIN maze pw0", sender="p0@example.org")
    rows = mail.send(engine, "SIGNON MASTER maze secret\nFORCE BEGIN", sender=GM)
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        powers = [s.power for s in game.seats]
        seat = next(s for s in game.seats if s.person is not None)
        player, own = seat.person.address_of_record, seat.power
    forced = {r.to_addr: mail.body_of(r) for r in rows if r.kind == "game_forced"}
    assert "In civil disorder" in forced[GM]
    assert player in forced and "civil disorder" not in forced[player]
    for power in powers:
        if power != own:
            assert not named(power, forced[player])


def test_an_observer_reads_the_start_without_the_players(engine: Engine) -> None:
    mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    ask = mail.send(engine, "OBSERVE maze", sender="watcher@example.org")
    confirm_to = message_from_bytes(ask[0].raw)["Reply-To"]
    mail.send(engine, "yes", sender="watcher@example.org", to=str(confirm_to))
    rows: list[OutboxMessage] = []
    for i in range(3):
        rows += mail.send(engine, f"JOIN maze pw{i}", sender=f"p{i}@example.org")
    start = [mail.body_of(r) for r in rows if r.to_addr == "watcher@example.org"]
    assert len(start) == 1 and "the game has started" in start[0]
    maze = board(engine)
    assert not any(named(p, start[0]) for p in maze.powers)


def test_the_copy_of_a_player_s_answer_reaches_his_address(engine: Engine) -> None:
    seats = started(engine, 3)
    power = sorted(seats)[0]
    pw = f"pw{sorted(seats, key=lambda p: seats[p][0]).index(power)}"
    rows = mail.send(
        engine,
        f"SIGNON {power} maze {pw}\n{holds(engine, power)}",
        sender="travelling@example.org",
    )
    copies = [r for r in rows if r.to_addr == seats[power][0]]
    assert [r.kind for r in copies] == ["orders_read"]


def test_an_abandoned_seat_is_told_to_its_player_and_taken_with_join(engine: Engine) -> None:
    """njudge's policy: the late player is told his seat is abandoned, and how it is taken (JOIN:
    a secret board's seat is never signed on to while open); the others hear only that the
    phase starts again once someone took it, with no power named."""
    seats = started(engine, 3)
    mail.send(engine, "SIGNON MASTER maze secret\nSET NONMR", sender=GM)
    late, *others = sorted(seats)
    for power in others:
        mail.send(engine, holds(engine, power), sender=seats[power][0], to=seats[power][1])
    told = by_reader(scheduled(engine, GRACE_ENDS), seats)
    opened = dict(told[late]).get("seat_open", "")
    assert late in opened and "JOIN maze <a password of your own>" in opened
    for power in others:
        assert "seat_open" not in dict(told.get(power, []))
    no_leak(engine, told)
    clock.set_now(GRACE_ENDS + timedelta(hours=2))
    rows = mail.send(engine, "JOIN maze newpw", sender="newcomer@example.org")
    assert "signed_on" in rows[0].kind
    told = by_reader(scheduled(engine, GRACE_ENDS + timedelta(hours=2)), seats)
    for power in others:
        restarted = dict(told[power])["deadline_restarted"]
        assert "A seat has been taken over" in restarted and not named(late, restarted)
    assert late in dict(told["GM"])["deadline_restarted"]


def text_of(row: OutboxMessage) -> str:
    """A mail as its reader reads it: the subject, then the body."""
    return f"{message_from_bytes(row.raw)['Subject']}\n{mail.body_of(row)}"


def test_a_volunteer_learns_the_seat_he_stands_by_for_only_when_it_is_his(engine: Engine) -> None:
    """A stranger who JOINs to stand by for a seat whose replacement is sought is told nothing
    of it, not even its initials (rule 3: nobody learns more than the rules give), also when he
    guessed them as a preference; the GM is told which seat. The mail that hands him the seat at
    its second missed move names it and tells him what its player knew (his map). A player of
    the game never stands by for a second seat."""
    seats = started(engine, 3)
    maze = board(engine)
    on_time, missing, other = sorted(seats)
    for power in (on_time, other):
        mail.send(engine, holds(engine, power), sender=seats[power][0], to=seats[power][1])
    scheduled(engine, GRACE_ENDS)  # a first missed move: a replacement is sought for `missing`

    rows = mail.send(engine, "JOIN maze pwx", sender=seats[on_time][0])
    answer = text_of(rows[0])
    assert [r.kind for r in rows] == ["desk_problems"]
    assert f"you play {on_time} in maze already" in answer
    assert leakcheck.leaks(maze, leakcheck.start(maze)[on_time], answer) == []

    volunteer = "volunteer@example.org"
    rows = mail.send(engine, f"LIST maze\nJOIN maze vpw {missing}", sender=volunteer)
    assert {(r.kind, r.to_addr) for r in rows} == {
        ("game_detail+standing_by+desk_problems", volunteer),
        ("standby_notice", GM),
    }
    answer = text_of(next(r for r in rows if r.to_addr == volunteer))
    assert "You stand by in game maze" in " ".join(answer.split())
    assert f"the preferences {missing} were not read" in answer
    stranger = leakcheck.Allowed("a stranger")  # knows no space and no player
    assert leakcheck.leaks(maze, stranger, answer.replace(f"preferences {missing} ", "")) == []
    gm = text_of(next(r for r in rows if r.to_addr == GM))
    assert missing in gm  # the GM knows which seat the volunteer stands by for

    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None and game.deadline is not None
        second_grace = game.deadline + timedelta(days=8)
    for power in (on_time, other):
        mail.send(engine, holds(engine, power), sender=seats[power][0], to=seats[power][1])
    rows = scheduled(engine, second_grace)
    handed = [r for r in rows if r.to_addr == volunteer and r.kind == "standby_takes_seat"]
    assert len(handed) == 1
    text = text_of(handed[0])
    knows = leakcheck.start(maze)[missing]
    knows.players.update(maze.powers)  # the fall's supply-centre counts are public (rule 7)
    assert leakcheck.leaks(maze, knows, text) == []
    assert f"you now play {missing}" in text
    assert "Your map of the maze" in text
    assert all(home.upper() in text for home in maze.powers[missing].home_centres)


def test_initials_and_space_ids_read_as_the_maze_writes_them(engine: Engine) -> None:
    """A player writes HAC and DN in his orders and reads them so in the reports: every
    sentence of the desk writes them the same way (the variant's Variant.language.power_title), never
    name-cased like a word of the sentence ("You play Hac")."""
    mail.send(engine, "CREATE maze secret algernon 3", sender=GM)
    rows: list[OutboxMessage] = []
    for i in range(3):
        rows += mail.send(engine, f"JOIN maze pw{i}", sender=f"p{i}@example.org")
    maze = board(engine)
    with session_scope(engine) as session:
        game = find_game(session, "maze")
        assert game is not None
        seats = {
            s.power: (s.person.address_of_record, f"judge+{s.reply_token}@example.org")
            for s in game.seats
        }
    power, *others = sorted(seats)
    home = sorted(maze.powers[power].home_centres)[0].upper()
    answer = next(
        r for r in rows if r.to_addr == seats[power][0] and "signed_on" in r.kind.split("+")
    )
    assert f"you play {power}" in text_of(answer)  # the subject
    assert f"You hold {power} in game maze." in text_of(answer)
    started = next(
        r for r in rows if r.to_addr == seats[power][0] and "game_started" in r.kind.split("+")
    )
    assert f"You play {power}, with" in text_of(started)
    assert f"Rat {home}" in text_of(started)

    joined = rows
    rows = mail.send(engine, f"{home} h", sender=seats[power][0], to=seats[power][1])
    assert f"orders for {power} in game maze" in " ".join(text_of(rows[0]).split())
    rows += scheduled(engine, DEADLINE - timedelta(hours=23))  # reminders
    reminder = next(r for r in rows if r.to_addr == seats[others[0]][0] and r.kind == "reminder")
    assert f"order of {others[0]}" in " ".join(text_of(reminder).split())
    rows += scheduled(engine, DEADLINE)  # late notices, and the GM's list of the late
    late = next(r for r in rows if r.to_addr == GM and r.kind == "late_list")
    assert all(p in text_of(late) for p in others)
    rows += mail.send(engine, "RESIGN", sender=seats[others[1]][0], to=seats[others[1]][1])
    resigned = next(r for r in rows if r.to_addr == GM and r.kind == "seat_resigned")
    assert f"{others[1]} has resigned" in text_of(resigned)
    for row in joined + rows:
        assert leakcheck.name_cased(maze, text_of(row)) == [], (row.kind, text_of(row))
