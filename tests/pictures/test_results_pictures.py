"""A results mail of each variant carries its picture: the processor writes the row with what the
picture is drawn from, the sender does not take it until the picture step has attached the SVG
and the PNG, and the attached mail is the same mail (headers, Message-ID, text) with its
pictures. Each reader gets the picture of what that reader may see (Algernon: his own maze, the
GM the whole, observers none).
"""

from __future__ import annotations

import sys
from datetime import timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from judge.map_files import load_map
from judge.pictures.board import readable_whole
from judge.pictures.step import PICTURE_BUDGET, render_pending
from judge.store import OutboxMessage, session_scope
from judge.store.outbox import claim_due
from judge.variants import variant, variant_names

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "desk"))
import test_games_by_mail as mail  # noqa: E402
from test_games_by_mail import GM  # noqa: E402

POWERS = {
    "standard": mail.POWERS,
    "mercator": tuple(p.title() for p in load_map(variant("mercator").default_map).powers),
    "mercenary": mail.POWERS,
    "youngstown": (
        "Austria", "China", "England", "France", "Germany", "India", "Italy", "Japan",
        "Russia", "Turkey",
    ),
}  # fmt: skip
if "1885" in variant_names():  # 1885's rules, when they are built
    POWERS["1885"] = (
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Spain", "Sweden", "Turkey",
    )  # fmt: skip


def parsed(row: OutboxMessage) -> EmailMessage:
    message = message_from_bytes(row.raw, policy=default)
    assert isinstance(message, EmailMessage)
    return message


def attached(row: OutboxMessage) -> dict[str, bytes]:
    """content type -> bytes of each attachment of a row's mail."""
    out = {}
    for part in parsed(row).iter_attachments():
        data = part.get_content()
        out[part.get_content_type()] = data.encode() if isinstance(data, str) else data
    return out


def rows(engine: Engine, ids: list[int]) -> list[OutboxMessage]:
    with session_scope(engine) as session:
        found = session.scalars(select(OutboxMessage).where(OutboxMessage.id.in_(ids)))
        return sorted(found, key=lambda r: r.id)


def play_one_phase(engine: Engine, name: str, powers: tuple[str, ...]) -> list[OutboxMessage]:
    game = f"pic{name}"
    assert [r.kind for r in mail.send(engine, f"CREATE {game} gmsecret {name}", sender=GM)] == [
        "game_created"
    ]
    for power in powers:  # JOIN takes any open seat: every power gets a player
        mail.send(engine, f"JOIN {game} pw-{power}", sender=mail.player(power))
    mail.send(engine, f"OBSERVE {game}", sender="watcher@example.org")
    return mail.send(engine, f"SIGNON M {game} gmsecret\nPROCESS\n", sender=GM)


@pytest.mark.parametrize("name", sorted(POWERS))
def test_a_results_mail_carries_its_picture(engine: Engine, name: str) -> None:
    made = play_one_phase(engine, name, POWERS[name])
    results = [r for r in made if r.kind == "results"]
    assert len(results) >= len(POWERS[name]) + 1
    assert all(r.picture is not None for r in results)
    before = {r.id: parsed(r) for r in results}
    # Not sendable before the picture is drawn: the sender claims none of them.
    claimed = []
    while (row := claim_due(engine, lease=timedelta(minutes=5))) is not None:
        claimed.append(row.id)
    assert not set(claimed) & set(before)
    assert render_pending(engine) >= len(results)
    after = rows(engine, list(before))
    for row in after:
        assert row.picture is None
        message, old = parsed(row), before[row.id]
        for header in ("Message-ID", "From", "To", "Subject", "Reply-To", "References"):
            assert message[header] == old[header]
        text = message.get_body(("plain",))
        assert text is not None and text.get_content() == old.get_content()
        files = attached(row)
        assert files["image/png"][:8] == b"\x89PNG\r\n\x1a\n"
        assert sum(len(data) for data in files.values()) <= PICTURE_BUDGET
        assert set(files) <= {"image/svg+xml", "image/png"}, row.to_addr
        if "image/svg+xml" in files:  # it rides along where it fits
            svg = files["image/svg+xml"].decode()
            assert svg.startswith("<svg") and 'id="u-' in svg and 'id="c-' in svg
    # Every reader of a public board readable whole is shown the same picture, drawn once; on a
    # wider board each power his own part (its SVG with it), observers and the GM the whole.
    pictures = {attached(r)["image/png"] for r in after}
    if readable_whole(load_map(variant(name).default_map).canvas[0]):
        assert len(pictures) == 1
        assert all("image/svg+xml" in attached(r) for r in after)
    else:
        assert len(pictures) == len(POWERS[name]) + 1
        players = {mail.player(power) for power in POWERS[name]}
        for row in after:  # a player's SVG, where it rides along, is of his own part
            svg = attached(row).get("image/svg+xml")
            if svg is not None:
                assert (b'id="view"' in svg) == (row.to_addr in players), row.to_addr
    # And now the sender takes them.
    while (row := claim_due(engine, lease=timedelta(minutes=5))) is not None:
        claimed.append(row.id)
    assert set(before) <= set(claimed)


def test_an_algernon_reader_sees_his_own_maze_the_gm_all_and_an_observer_none(
    engine: Engine,
) -> None:
    game = "picmaze"
    mail.send(engine, f"CREATE {game} gmsecret algernon 3", sender=GM)
    for i in range(3):
        mail.send(engine, f"JOIN {game} pw{i}", sender=f"p{i}@example.org")
    mail.send(engine, f"OBSERVE {game}", sender="watcher@example.org")
    made = [r for r in mail.send(engine, f"SIGNON M {game} gmsecret\nPROCESS\n", sender=GM)]
    results = {r.to_addr: r.id for r in made if r.kind == "results"}
    render_pending(engine)
    done = {r.to_addr: r for r in rows(engine, list(results.values()))}
    gm_svg = attached(done[GM])["image/svg+xml"].decode()
    assert "The whole maze" in gm_svg
    observers = [a for a in done if a.startswith("watcher")]
    assert all(attached(done[a]) == {} for a in observers)
    players = [a for a in done if a.startswith("p")]
    assert len(players) == 3
    for address in players:
        svg = attached(done[address])["image/svg+xml"].decode()
        assert "Your maze" in svg
        assert svg.count('id="p-') < gm_svg.count('id="p-')


def test_a_picture_that_cannot_be_drawn_does_not_hold_the_mail(engine: Engine) -> None:
    made = play_one_phase(engine, "standard", mail.POWERS)
    broken = next(r for r in made if r.kind == "results")
    with session_scope(engine) as session:
        row = session.get(OutboxMessage, broken.id)
        assert row is not None and row.picture is not None
        row.picture = {**row.picture, "source": {"case": {"variant": "no-such"}}}
    render_pending(engine)
    (after,) = rows(engine, [broken.id])
    assert after.picture is None and after.raw == broken.raw  # sent as it was, text alone


def test_map_mails_a_public_games_board_to_anyone_who_names_it(engine: Engine) -> None:
    play_one_phase(engine, "standard", mail.POWERS)
    render_pending(engine)
    (answer,) = mail.send(engine, "MAP picstandard", sender="stranger@example.org")
    assert answer.kind == "board_picture" and answer.picture is not None
    text = mail.body_of(answer)
    assert "F1901M" in text and "France: Army Marseilles, Army Paris, Fleet Brest" in text
    assert "France (3): bre, mar, par" in text
    render_pending(engine)
    (done,) = rows(engine, [answer.id])
    files = attached(done)
    assert set(files) == {"image/svg+xml", "image/png"}
    svg = files["image/svg+xml"].decode()
    assert 'id="u-FRANCE-par"' in svg and "F1901M" in svg
    assert 'id="o-' not in svg  # the position alone: no orders are drawn


def test_map_by_an_algernon_player_carries_the_picture_of_his_own_maze(engine: Engine) -> None:
    game = "mapmaze"
    mail.send(engine, f"CREATE {game} gmsecret algernon 3", sender=GM)
    seats = []
    for i in range(3):
        made = mail.send(engine, f"JOIN {game} pw{i}", sender=f"p{i}@example.org")
        seats.append(next(r for r in made if r.to_addr == f"p{i}@example.org"))
    token = mail.reply_address(seats[0])
    (answer,) = mail.send(engine, "MAP", sender="p0@example.org", to=token)
    assert answer.kind == "own_map" and "Your map of the maze" in mail.body_of(answer)
    render_pending(engine)
    (done,) = rows(engine, [answer.id])
    svg = attached(done)["image/svg+xml"].decode()
    assert "Your maze" in svg
