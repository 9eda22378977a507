"""Game export and import (judge.game_archive, `judge game ...`): a game played through the
desk's own processing, with a dislodgement, a retreat, builds and an order nobody could read,
is written out, adjudicated again phase by phase, read back into another store and written out
again unchanged.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from judge.cli import main
from judge.desk.phase_records import phase_report
from judge.desk.processing import process_phase
from judge.game_archive import (
    ArchiveError,
    check_document,
    dumps,
    export_game,
    import_game,
    loads,
    replay,
)
from judge.games.seats import SeatStatus
from judge.identity import verify_password
from judge.map_files import load_map, start_case
from judge.reports import OBSERVER, report_text
from judge.store import make_engine, session_scope, upgrade
from judge.store.game_queries import (
    create_game,
    create_person,
    find_game,
    history,
    set_order,
    sign_on,
)
from judge.store.games import GameStatus

# 1901 with a German attack that dislodges the French army in Burgundy, its retreat, builds.
PHASES = [
    (
        "S1901M",
        {
            "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
            "GERMANY": ["A MUN - RUH", "A BER - MUN", "F KIE - DEN"],
            "ENGLAND": ["F LON - NTH", "A XYZ - ABC"],  # the second cannot be read
        },
    ),
    (
        "F1901M",
        {
            "FRANCE": ["A BUR H", "F MAO - POR"],
            "GERMANY": ["A RUH - BUR", "A MUN S A RUH - BUR", "F DEN H"],
        },
    ),
    ("F1901R", {"FRANCE": ["A BUR - PIC"]}),
    ("W1901A", {"FRANCE": ["BUILD A MAR", "BUILD F BRE"], "GERMANY": ["BUILD A BER"]}),
]


def _db_url(tmp_path: Path, name: str) -> str:
    return f"sqlite:///{tmp_path / name}"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[Engine, str]]:
    url = _db_url(tmp_path, "judge.sqlite3")
    engine = make_engine(url)
    upgrade(engine)
    yield engine, url
    engine.dispose()


def play(engine: Engine) -> dict[str, str]:
    """Game `alpha` through 1901 by the same processing the GM's PROCESS uses; returns the
    body of the results mail the GM was sent for each phase."""
    sent: dict[str, str] = {}
    standard = load_map("standard")
    with session_scope(engine) as session:
        gm = create_person(session, "gm@example.org", "Game Master")
        game = create_game(
            session,
            "alpha",
            rules=["postal-1972"],
            powers=list(standard.powers),
            gm=gm,
            settings={
                "gm_password_hash": "$argon2id$secret",
                "report": "postal",
                "timing": {"zone": "UTC"},
                "keeper": {"note": "moved from the old judge", "contact_address": "x@example.org"},
            },
        )
        for seat in game.seats:
            person = create_person(session, f"{seat.power.lower()}@example.org", seat.power.title())
            sign_on(session, seat, person, f"pw-{seat.power}")
        game.status = GameStatus.ACTIVE
        game.phase = "S1901M"
        game.position = start_case(standard)
        session.flush()
        for phase, orders in PHASES:
            assert game.phase == phase
            for power, lines in orders.items():
                for index, line in enumerate(lines):
                    set_order(session, game, power, f"{index}", line)
            replies = process_phase(session, game, "judge@example.org")
            sent[phase] = next(r.context["body"] for r in replies if r.to == "gm@example.org")
        assert game.phase == "S1902M"
    return sent


@pytest.fixture
def played(store: tuple[Engine, str]) -> tuple[Engine, str]:
    play(store[0])
    return store


def test_the_history_tells_each_phase_as_its_results_mail_did(store: tuple[Engine, str]) -> None:
    """The reports rebuilt from the stored phases (HISTORY's) are the ones mailed at the time,
    the line with the then next deadline aside: an unreadable order, a dislodgement with its
    retreats, the retreat and the builds included."""
    engine = store[0]
    sent = play(engine)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        for sequence, record in enumerate(history(session, game), start=1):
            told = report_text(phase_report(game, record, sequence), "postal", OBSERVER)
            mailed = re.sub(r", orders due [^.]*\.", ".", sent[record.phase])
            assert told.rstrip() == mailed.rstrip(), record.phase
    assert "(d --" in sent["F1901M"] and "B F Bre" in sent["W1901A"]


@pytest.fixture(scope="module")
def played_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """One played game for the tests that only read it (or import under new names)."""
    engine = make_engine(_db_url(tmp_path_factory.mktemp("archive"), "judge.sqlite3"))
    upgrade(engine)
    play(engine)
    yield engine
    engine.dispose()


def exported(engine: Engine, name: str = "alpha", **options: bool) -> dict:
    with session_scope(engine) as session:
        game = find_game(session, name)
        assert game is not None
        return export_game(session, game, **options)


def test_the_export_holds_every_phase_and_no_secret(played: tuple[Engine, str]) -> None:
    document = exported(played[0])
    assert document["format"] == "judge-game-export" and document["version"] == 1
    assert (document["name"], document["variant"], document["rules"]) == (
        "alpha",
        "standard",
        ["postal-1972"],
    )
    assert (document["status"], document["phase"]) == ("active", "S1902M")
    assert [p["phase"] for p in document["phases"]] == ["S1901M", "F1901M", "F1901R", "W1901A"]
    fall = document["phases"][1]
    assert fall["orders"]["GERMANY"] == ["A RUH - BUR", "A MUN S A RUH - BUR", "F DEN H"]
    assert fall["results"]["dislodged"][0]["loc"] == "bur"
    assert document["phases"][0]["results"]["results"]["ENGLAND"][1]["result"] == "illegal"
    assert document["position"]["phase"] == "S1902M"
    # Settings that matter for play stay; secrets and addresses go, at any depth.
    assert document["settings"] == {
        "report": "postal",
        "timing": {"zone": "UTC"},
        "keeper": {"note": "moved from the old judge"},
    }
    assert {p["power"]: p["standing"] for p in document["powers"]}["FRANCE"] == "in play"
    text = dumps(document)
    assert "@" not in text and "argon2" not in text and "player" not in text
    with session_scope(played[0]) as session:
        game = find_game(session, "alpha")
        assert game is not None
        tokens = [seat.reply_token for seat in game.seats]
    assert all(token and token not in text for token in tokens)


def test_names_only_on_request(played_once: Engine) -> None:
    document = exported(played_once, names=True)
    assert {p["power"]: p["player"] for p in document["powers"]}["FRANCE"] == "France"
    assert "@" not in dumps(document)


def test_every_exported_phase_adjudicates_again_to_its_stored_results(
    played_once: Engine,
) -> None:
    document = exported(played_once)
    assert replay(document) == []
    # A tampered result is found, and named by phase and field.
    tampered = copy.deepcopy(document)
    tampered["phases"][1]["results"]["dislodged"] = []
    assert replay(tampered) == [
        "F1901M: dislodged recorded [], adjudicated again "
        + repr(document["phases"][1]["results"]["dislodged"])
    ]


def test_export_import_export_is_the_same_document(
    played: tuple[Engine, str], tmp_path: Path
) -> None:
    document = exported(played[0])
    other = make_engine(_db_url(tmp_path, "other.sqlite3"))
    upgrade(other)
    try:
        with session_scope(other) as session:
            game = import_game(session, loads(dumps(document)))
            assert all(seat.person is None for seat in game.seats)
            assert all(seat.status == SeatStatus.OPEN for seat in game.seats)
            assert game.deadline is None  # nothing runs until the GM says so
            assert [r.phase for r in history(session, game)] == [
                p["phase"] for p in document["phases"]
            ]
        assert exported(other) == document
    finally:
        other.dispose()


def test_import_refuses_a_name_that_exists_and_may_take_another(
    played: tuple[Engine, str],
) -> None:
    engine = played[0]
    document = exported(engine)
    with (
        pytest.raises(ArchiveError, match="a game named alpha exists already"),
        session_scope(engine) as session,
    ):
        import_game(session, document)
    with session_scope(engine) as session:
        gm = create_person(session, "newgm@example.org")
        game = import_game(session, document, name="Beta", gm=gm, gm_password="gm-pass")
        assert game.name == "Beta" and game.gm is gm  # as written, found in any case
        assert verify_password(game.settings["gm_password_hash"], "gm-pass")
    copy_ = exported(engine, "beta")
    assert copy_ == {**document, "name": "Beta"}


def test_civil_disorder_is_kept_and_a_held_seat_comes_in_open(store: tuple[Engine, str]) -> None:
    engine = store[0]
    play(engine)
    with session_scope(engine) as session:
        game = find_game(session, "alpha")
        assert game is not None
        italy = next(s for s in game.seats if s.power == "ITALY")
        italy.status = SeatStatus.CIVIL_DISORDER
        italy.missed_turns = 2
    document = exported(engine)
    assert {"power": "ITALY", "standing": "civil disorder", "missed_turns": 2} in document["powers"]
    with session_scope(engine) as session:
        game = import_game(session, document, name="gamma")
        seats = {s.power: s for s in game.seats}
        assert seats["ITALY"].status == SeatStatus.CIVIL_DISORDER
        assert seats["FRANCE"].status == SeatStatus.OPEN


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "format: expected 'judge-game-export'"),
        (lambda d: d.update(version=9), "version: this judge reads version 1"),
        (lambda d: d.update(name="two words"), "name: expected one word"),
        (lambda d: d.update(variant="nowhere"), "variant: unknown variant 'nowhere'"),
        (lambda d: d.update(rules=["no-such-rules"]), "rules:"),
        (lambda d: d.update(status="sleeping"), "status: expected one of"),
        (lambda d: d["position"].update(phase="F1902M"), "position.phase"),
        (lambda d: d["powers"].append({"power": "MARS", "standing": "in play"}), "powers[7].power"),
        (lambda d: d["powers"][0].update(standing="asleep"), "powers[0].standing"),
        (lambda d: d["phases"][1].update(phase="S1901M"), "phases[1].phase"),
        (
            lambda d: d["phases"][0]["position_before"].update(units=[{"power": "X"}]),
            "phases[0].position_before: units[0]",
        ),
        (lambda d: d["phases"][0].update(orders={"FRANCE": "A PAR H"}), "phases[0].orders"),
        (lambda d: d["phases"][0].update(processed_at="yesterday"), "phases[0].processed_at"),
    ],
)
def test_an_unfit_document_is_refused_naming_the_field(
    played_once: Engine, change, message: str
) -> None:
    document = exported(played_once)
    change(document)
    with pytest.raises(ArchiveError) as caught:
        check_document(document)
    assert message in str(caught.value)
    with pytest.raises(ArchiveError), session_scope(played_once) as session:
        import_game(session, document, name="delta")
    with session_scope(played_once) as session:
        assert find_game(session, "delta") is None


def test_the_cli_exports_imports_and_replays(
    played: tuple[Engine, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine, url = played
    assert main(["game", "export", "alpha", "--db", url]) == 0
    text = capsys.readouterr().out
    assert json.loads(text) == exported(engine)
    out = tmp_path / "alpha.json"
    assert main(["game", "export", "ALPHA", "--db", url, "-o", str(out)]) == 0
    assert out.read_text() == text

    assert main(["game", "replay", str(out)]) == 0
    assert "4 phases adjudicated again: every result agrees" in capsys.readouterr().out

    assert main(["game", "import", str(out), "--db", url]) == 1
    assert "a game named alpha exists already" in capsys.readouterr().err
    other = _db_url(tmp_path, "other.sqlite3")
    password = tmp_path / "gm-password"
    password.write_text("s3cret\n")
    assert (
        main(
            [
                "game",
                "import",
                str(out),
                "--db",
                other,
                "--gm",
                "gm@example.org",
                "--gm-password-file",
                str(password),
            ]
        )
        == 0
    )
    said = capsys.readouterr().out
    assert "imported game alpha: standard, active, in S1902M" in said
    assert main(["game", "export", "alpha", "--db", other]) == 0
    assert capsys.readouterr().out == text

    assert main(["game", "import", str(out), "--db", other, "--gm-password-file", "x"]) == 1
    assert "--gm-password-file needs --gm ADDRESS" in capsys.readouterr().err
    assert main(["game", "export", "nosuch", "--db", url]) == 1
    assert "there is no game named nosuch" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    assert main(["game", "import", str(broken), "--db", other]) == 1
    assert "not JSON" in capsys.readouterr().err


def test_a_forming_game_round_trips_and_comes_in_open(store: tuple[Engine, str]) -> None:
    engine = store[0]
    with session_scope(engine) as session:
        create_game(session, "forming", powers=list(load_map("standard").powers))
    document = exported(engine, "forming")
    assert (document["status"], document["phase"], document["position"]) == ("forming", None, None)
    assert document["phases"] == []
    with session_scope(engine) as session:
        game = import_game(session, document, name="forming2")
        assert game.status == GameStatus.FORMING and len(game.seats) == 7
    assert exported(engine, "forming2") == {**document, "name": "forming2"}
