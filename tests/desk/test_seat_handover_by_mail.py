"""A seat handed to the one standing by: the new holder's mail that makes the seat his comes
before that phase's results, and the player who lost it is told so (after a ROLLBACK gave it
back to him too), never left to find out."""

from __future__ import annotations

from sqlalchemy import Engine
from test_deadlines import HOLDS
from test_games_by_mail import GM, POWERS, body_of, kinds, player, send

VOLUNTEER = "volunteer@example.org"
GM_PROCESS = "SIGNON MASTER alpha gmsecret\nPROCESS MISSED"


def play_without_italy(engine: Engine, started: dict[str, str]) -> list:  # type: ignore[type-arg]
    for power in POWERS:
        if power != "Italy":
            send(engine, HOLDS[power], sender=player(power), to=started[power])
    return send(engine, GM_PROCESS, sender=GM)


def test_the_seat_is_handed_over_before_its_results_and_its_old_player_told(
    engine: Engine, started: dict[str, str]
) -> None:
    play_without_italy(engine, started)
    send(engine, "JOIN alpha vpw Italy", sender=VOLUNTEER)
    rows = play_without_italy(engine, started)
    to_volunteer = [r for r in rows if r.to_addr == VOLUNTEER]
    assert [k for r in to_volunteer for k in kinds(r)] == ["standby_takes_seat", "results"]
    (lost,) = [r for r in rows if r.to_addr == player("Italy")]
    assert lost.kind == "seat_lost" and "Italy is no longer yours" in lost.subject
    assert "passed to the player who stood by" in " ".join(body_of(lost).split())


def test_after_a_rollback_the_old_player_is_told_again_when_he_loses_it(
    engine: Engine, started: dict[str, str]
) -> None:
    play_without_italy(engine, started)
    send(engine, "JOIN alpha vpw Italy", sender=VOLUNTEER)
    play_without_italy(engine, started)
    rows = send(engine, "SIGNON MASTER alpha gmsecret\nROLLBACK", sender=GM)
    assert any(r.to_addr == player("Italy") for r in rows)  # the seat is his again
    rows = send(engine, GM_PROCESS, sender=GM)
    assert [r.kind for r in rows if r.to_addr == player("Italy")] == ["seat_lost"]
