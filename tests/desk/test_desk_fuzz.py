"""Nothing anyone sends to a running game makes the desk fail: random command lines, in random
order, with arguments right and wrong, from players, the GM and strangers, to the judge, the
seats' and the GM's reply addresses. A failure would hold the mail (`held_notice`); none may.
"""

from __future__ import annotations

import random

import pytest
from sqlalchemy import Engine, func, select
from test_games_by_mail import GM, POWERS, player, send
from test_master import gm_address

from judge.language.commands import COMMAND_SPELLINGS
from judge.store import session_scope
from judge.store.models import InboxMessage

ARGUMENTS = (
    "alpha", "beta", "nosuch", "gmsecret", "pw", "France", "Italy", "M", "MASTER", "F", "EG",
    "S1901M", "F1901M", "W1901A", "2026-04-10", "2026-04-10 12:00", "+2d", "Apr 10", "12:00",
    "TO", "FROM", "-MTWTF-", "CLOCK", "23:30", "MIN", "3d", "GRACE", "postal", "njudge",
    "WHITE", "GREY", "NOW", "RESULTS", "JUDGE", "POSTAL", "1", "#2", "someone@example.org",
    "A PAR-BUR", "(Paris)", "IF", "ELSE", "ENDIF", "Gal", "owned", "by", "Russia", "",
)  # fmt: skip
BLOCK_ENDS = {"PRESS": "ENDPRESS", "BROADCAST": "ENDPRESS", "GENERAL": "ENDGENERAL"}


def random_line(rng: random.Random) -> list[str]:
    spelling = rng.choice(COMMAND_SPELLINGS)
    words = [spelling, *rng.sample(ARGUMENTS, rng.randint(0, 4))]
    lines = [" ".join(w for w in words if w)]
    end = BLOCK_ENDS.get(spelling.split()[0])
    if end is not None:
        lines += [rng.choice(["(Paris) hello", "A PAR-BUR", "IF A Gal", "text"])]
        if rng.random() < 0.8:
            lines.append(end)
    if rng.random() < 0.3:
        lines.append(rng.choice(["A PAR-BUR", "F LON-NTH", "A VEN H", "Build A PAR", "X Y Z"]))
    return lines


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_commands_never_make_the_desk_fail(
    engine: Engine, started: dict[str, str], seed: int
) -> None:
    rng = random.Random(seed)
    senders = [player(p) for p in POWERS] + [GM, "stranger@example.org"]
    recipients = [*started.values(), gm_address(engine), "judge@example.org"]
    for _ in range(80):
        body: list[str] = []
        if rng.random() < 0.3:
            body.append("SIGNON MASTER alpha gmsecret")
        for _ in range(rng.randint(1, 4)):
            body += random_line(rng)
        rows = send(engine, "\n".join(body), sender=rng.choice(senders), to=rng.choice(recipients))
        assert "held_notice" not in [r.kind for r in rows], "\n".join(body)
    with session_scope(engine) as session:
        held = session.scalar(
            select(func.count()).select_from(InboxMessage).where(InboxMessage.state == "held")
        )
    assert held == 0
