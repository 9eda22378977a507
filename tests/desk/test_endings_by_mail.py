"""Games ended by agreement: secret SET DRAW / SET CONCEDE votes by mail, read when the phase is
processed, announced in the results (the rule itself: test_endings.py)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import Engine
from test_deadlines import DEADLINE, scheduled
from test_deadlines import HOLDS as ALL_HOLD
from test_games_by_mail import GM, POWERS, observe_by_reply, player, send
from test_games_by_mail import body_of as raw_body

from judge.desk.processing import REPORT_STYLE
from judge.games.seats import SeatStatus
from judge.store import OutboxMessage, session_scope
from judge.store.game_queries import find_game, seat_of
from judge.store.games import GameStatus


def body_of(row: OutboxMessage) -> str:
    return raw_body(row).replace("\r\n", "\n")


# One unit of each power that stays put through 1901 when ordered to hold.
HOLDS = {
    "Austria": "A VIE H",
    "England": "F LON H",
    "France": "A PAR H",
    "Germany": "A BER H",
    "Italy": "A ROM H",
    "Russia": "A MOS H",
    "Turkey": "A CON H",
}


def hold_everywhere(engine: Engine, started: dict[str, str]) -> None:
    """An order from every power, so that nobody misses a move (the postal rule would put a
    power that misses two in civil disorder, and it would then have no vote)."""
    for power, order in HOLDS.items():
        assert [r.kind for r in send(engine, order, sender=player(power), to=started[power])] == [
            "orders_read"
        ]


def process(engine: Engine) -> list[OutboxMessage]:
    return send(engine, "SIGNON M alpha gmsecret\nPROCESS", sender=GM)


def game_state(engine: Engine) -> tuple[str, dict[str, object]]:
    """The game's status and each seat's standing votes."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        votes = {
            s.power: (s.draw_vote, s.concession)
            for s in game.seats
            if s.draw_vote is not None or s.concession is not None
        }
        return str(game.status), votes


def eliminate(engine: Engine, power: str) -> None:
    """Take every unit and centre of `power` off the stored board."""
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None and game.position is not None
        position = dict(game.position)
        position["units"] = [u for u in position["units"] if u["power"] != power]
        position["centers"] = {p: c for p, c in position["centers"].items() if p != power}
        game.position = position


def test_a_unanimous_draw_is_declared_with_the_next_results(
    engine: Engine, started: dict[str, str]
) -> None:
    observe_by_reply(engine, "watcher@example.org")
    for power in POWERS[:-1]:
        rows = send(engine, "SET DRAW", sender=player(power), to=started[power])
        # Secret: the voter alone hears of the vote.
        assert [(r.kind, r.to_addr) for r in rows] == [("draw_vote", player(power))]
    text = body_of(rows[0])
    assert "Russia votes in game alpha for a draw of all the surviving\npowers" in text
    assert "A vote holds for S1901M only" in text

    # One survivor has not voted: no draw, and every vote is cleared with the phase.
    hold_everywhere(engine, started)
    rows = process(engine)
    assert not any("declared a draw" in body_of(r) for r in rows if r.kind == "results")
    assert game_state(engine) == ("active", {})

    for power in POWERS:
        send(engine, "SET DRAW", sender=player(power), to=started[power])
    hold_everywhere(engine, started)
    rows = process(engine)
    results = {r.to_addr: body_of(r) for r in rows if r.kind == "results"}
    assert set(results) == {player(p) for p in POWERS} | {GM, "watcher@example.org"}
    for text in results.values():
        assert (
            "Game 'alpha' has been declared a draw between Austria, England, France, Germany, "
            "Italy, Russia and Turkey." in text
        )
        assert text.rstrip().endswith("The game is over.  Thank you for playing.")
    status, _ = game_state(engine)
    assert status == GameStatus.FINISHED
    # SUMMARY tells how it ended, after the fact.
    rows = send(engine, "SUMMARY alpha", sender="watcher@example.org")
    assert (
        "The game ended in a draw between Austria, England, France, Germany, Italy, Russia "
        "and Turkey." in " ".join(body_of(rows[0]).split())
    )
    # A finished game takes no more votes.
    rows = send(engine, "SET DRAW", sender=player("France"), to=started["France"])
    assert "SET DRAW not taken: game alpha is over (finished)" in body_of(rows[0])


def test_a_draw_of_named_powers_needs_every_voter_on_the_same_list(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in ("Austria", "Germany", "Italy", "Russia", "Turkey"):
        eliminate(engine, power.upper())
    with session_scope(engine) as session:  # the postal report style announces it too
        game = find_game(session, "alpha")
        assert game is not None
        game.settings = {**game.settings, REPORT_STYLE: "postal"}
    send(engine, "SET DRAW England France", sender=player("England"), to=started["England"])
    send(engine, "SET DRAW EF", sender=player("France"), to=started["France"])
    _, votes = game_state(engine)
    # A list naming every survivor is the draw of all survivors.
    assert votes == {"ENGLAND": ([], None), "FRANCE": ([], None)}
    rows = process(engine)
    text = body_of(next(r for r in rows if r.to_addr == GM))
    assert "DRAW agreed by unanimous vote: ENGLAND, FRANCE. Game over." in text


def test_draw_votes_that_differ_end_nothing(engine: Engine, started: dict[str, str]) -> None:
    for power in ("Austria", "Italy", "Russia", "Turkey"):
        eliminate(engine, power.upper())
    send(engine, "SET DRAW England, France", sender=player("England"), to=started["England"])
    send(engine, "SET DRAW England, France", sender=player("France"), to=started["France"])
    send(engine, "SET DRAW", sender=player("Germany"), to=started["Germany"])
    rows = process(engine)
    assert not any("declared a draw" in body_of(r) for r in rows)
    assert game_state(engine)[0] == "active"


def test_draw_refusals(engine: Engine, started: dict[str, str]) -> None:
    eliminate(engine, "ITALY")
    france = started["France"]
    cases = {
        "SET DRAW France, Spain": "game alpha has no power SPAIN; its powers are Austria,",
        "SET DRAW France, Italy": "Italy has no unit and no supply centre left",
        "SET DRAW England, Germany": "a draw you vote for must include France",
        "SET DRAW France": "a draw is shared by two powers or more",
    }
    for line, reason in cases.items():
        rows = send(engine, line, sender=player("France"), to=france)
        assert [r.kind for r in rows] == ["desk_problems"], line
        assert reason in body_of(rows[0]), (line, body_of(rows[0]))
    rows = send(engine, "SET DRAW", sender=player("Italy"), to=started["Italy"])
    assert "Italy has no unit and no supply centre left, so it has no vote" in body_of(rows[0])
    rows = send(engine, "SET DRAW", sender=player("France"))
    assert "SET DRAW not taken: this mail came from your address" in body_of(rows[0])
    assert game_state(engine) == ("active", {})


def test_nodraw_takes_a_vote_back(engine: Engine, started: dict[str, str]) -> None:
    england = started["England"]
    send(engine, "SET DRAW", sender=player("England"), to=england)
    assert game_state(engine)[1] == {"ENGLAND": ([], None)}
    rows = send(engine, "SET NODRAW", sender=player("England"), to=england)
    assert "England no longer votes for a draw in game alpha." in body_of(rows[0])
    assert game_state(engine)[1] == {}


def test_a_concession_every_other_survivor_agrees_to_ends_the_game(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in POWERS:
        if power != "France":
            rows = send(engine, "SET CONCEDE F", sender=player(power), to=started[power])
            assert [(r.kind, r.to_addr) for r in rows] == [("concession_vote", player(power))]
    # The last to concede was Turkey; the reply names the power conceded to, and keeps it secret.
    assert "Turkey concedes game alpha to France." in body_of(rows[0])
    assert "nobody else, the game master included, is told" in body_of(rows[0])
    rows = process(engine)
    results = [body_of(r) for r in rows if r.kind == "results"]
    assert results and all("Game 'alpha' has been conceded to France." in t for t in results)
    assert game_state(engine) == ("finished", {})


def test_a_concession_short_of_one_vote_ends_nothing(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in ("Austria", "England", "Germany", "Italy", "Russia"):
        send(engine, "SET CONCEDE France", sender=player(power), to=started[power])
    rows = send(engine, "SET CONCEDE France", sender=player("Turkey"), to=started["Turkey"])
    rows = send(engine, "SET NOCONCEDE", sender=player("Turkey"), to=started["Turkey"])
    assert "Turkey no longer concedes game alpha to France." in body_of(rows[0])
    process(engine)
    assert game_state(engine) == ("active", {})


def test_concession_refusals(engine: Engine, started: dict[str, str]) -> None:
    eliminate(engine, "ITALY")
    germany = started["Germany"]
    cases = {
        "SET CONCEDE Germany": "you play Germany; a power concedes to another one",
        "SET CONCEDE Italy": "Italy has no unit and no supply centre left",
        "SET CONCEDE Spain": "game alpha has no power SPAIN",
    }
    for line, reason in cases.items():
        rows = send(engine, line, sender=player("Germany"), to=germany)
        assert reason in body_of(rows[0]), (line, body_of(rows[0]))
    assert game_state(engine) == ("active", {})


def test_votes_in_a_forming_game_are_refused(engine: Engine) -> None:
    send(engine, "CREATE beta gmsecret standard", sender=GM)
    send(engine, "SIGNON France beta pw", sender=player("France"))
    rows = send(
        engine, "SIGNON France beta pw\nSET DRAW\nSET CONCEDE England", sender=player("France")
    )
    text = body_of(rows[-1])
    assert "line 2: SET DRAW not taken: game beta has not started yet" in text
    assert "line 3: SET CONCEDE ENGLAND not taken: game beta has not started yet" in text


def test_a_power_in_civil_disorder_does_not_block_a_draw_and_shares_it(
    engine: Engine, started: dict[str, str]
) -> None:
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        seat = seat_of(session, game, "TURKEY")
        assert seat is not None
        seat.person = None
        seat.status = SeatStatus.CIVIL_DISORDER
    for power in POWERS[:-1]:
        send(engine, "SET DRAW", sender=player(power), to=started[power])
    rows = process(engine)
    text = body_of(next(r for r in rows if r.to_addr == GM))
    assert "draw between Austria, England, France, Germany, Italy, Russia and Turkey." in text


def test_a_draw_is_declared_when_the_scheduler_runs_the_phase(
    engine: Engine, started: dict[str, str]
) -> None:
    for power in POWERS:
        rows = send(engine, f"SET DRAW\n{ALL_HOLD[power]}", sender=player(power), to=started[power])
        assert [r.kind for r in rows] == ["draw_vote+orders_read"]
    rows = scheduled(engine, DEADLINE)
    results = [body_of(r) for r in rows if r.kind == "results"]
    assert len(results) == len(POWERS) + 1  # the players and the GM
    assert all("has been declared a draw between Austria, England" in t for t in results)
    assert game_state(engine) == ("finished", {})
    # A finished game has no deadline: the scheduler leaves it alone.
    assert scheduled(engine, DEADLINE + timedelta(days=30)) == []
