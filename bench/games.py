#!/usr/bin/env python3
"""Games benchmark: many started games in one store, their deadlines all due at once; the time
until every one is processed and every results mail is queued in the outbox.

The games are written straight into the store (persons, games, seats and current orders, as the
desk would have left them after seven sign-ons and a round of orders), not sent by mail, so
seeding 1,000 games takes seconds and the figure is the scheduler's alone. Each standard game is
in Spring 1901 with its movement deadline at the same moment and no grace (the deadline is the
end), and has some orders in: four powers with complete orders (opening moves), two with
partial orders, one with none, so every game also goes through the missed-turn policy (postal:
a first missed move, the GM told and a replacement sought). The clock is then set to the
deadline and the scheduler function the daemon runs (`judge.serve.schedule`, as its loop does:
again while it reports work) is timed until it finds nothing more to do.

    .venv/bin/python bench/games.py                      # 1,000 games on SQLite
    .venv/bin/python bench/games.py --games 200 --profile
    .venv/bin/python bench/games.py --db postgresql      # a private PostgreSQL (deploy/postgres.sh)

It checks what it measured: every game in Fall 1901, one results mail per player and GM per
game in the outbox; it exits non-zero otherwise. Figures go to stdout (--json for one line).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import io
import json
import os
import platform
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, func, insert, select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge import clock  # noqa: E402
from judge.config import Config  # noqa: E402
from judge.games.seats import OrdersState, SeatStatus  # noqa: E402
from judge.identity import hash_password, new_reply_token  # noqa: E402
from judge.map_files import load_map, start_case  # noqa: E402
from judge.serve import schedule  # noqa: E402
from judge.store.db import make_engine, session_scope, upgrade  # noqa: E402
from judge.store.games import (  # noqa: E402
    CurrentOrder,
    Game,
    GameStatus,
    Person,
    PersonAddress,
    Seat,
)
from judge.store.models import OutboxMessage  # noqa: E402

JUDGE = "judge@bench.test"
DEADLINE = datetime(2026, 4, 4, 23, 30, tzinfo=UTC)
STARTED = DEADLINE - timedelta(days=3, hours=15)
# Opening moves per power, in the short form the desk stores (unit key: the province).
OPENINGS: dict[str, dict[str, str]] = {
    "AUSTRIA": {"vie": "A VIE - GAL", "bud": "A BUD - SER", "tri": "F TRI - ALB"},
    "ENGLAND": {"lon": "F LON - NTH", "edi": "F EDI - NWG", "lvp": "A LVP - YOR"},
    "FRANCE": {"par": "A PAR - BUR", "mar": "A MAR - SPA", "bre": "F BRE - MAO"},
    "GERMANY": {"ber": "A BER - KIE", "mun": "A MUN - RUH", "kie": "F KIE - DEN"},
    "ITALY": {"rom": "A ROM - APU", "ven": "A VEN H", "nap": "F NAP - ION"},
    "RUSSIA": {
        "mos": "A MOS - UKR",
        "war": "A WAR - GAL",
        "sev": "F SEV - BLA",
        "stp": "F STP/SC - BOT",
    },
    "TURKEY": {"con": "A CON - BUL", "smy": "A SMY - CON", "ank": "F ANK - BLA"},
}
# How far each power's orders are in every game: four complete, two partial, one none.
ORDERS_IN = {
    "AUSTRIA": OrdersState.COMPLETE,
    "ENGLAND": OrdersState.COMPLETE,
    "FRANCE": OrdersState.COMPLETE,
    "GERMANY": OrdersState.COMPLETE,
    "ITALY": OrdersState.PARTIAL,
    "RUSSIA": OrdersState.PARTIAL,
    "TURKEY": OrdersState.NONE,
}
# No grace: the deadline is the end, so every game is processed at it.
TIMING = {"movement": {"grace_hours": 0}}


def seed_games(engine: Engine, games: int) -> None:
    """Write `games` started standard games straight into the store, in a few bulk inserts."""
    game_map = load_map("standard")
    position = start_case(game_map)
    password_hash = hash_password("bench-password")  # one argon2 hash, shared: seeding only
    with session_scope(engine) as session:
        next_person = (session.scalar(select(func.max(Person.id))) or 0) + 1
        next_game = (session.scalar(select(func.max(Game.id))) or 0) + 1
        persons: list[dict[str, Any]] = []
        addresses: list[dict[str, Any]] = []
        game_rows: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        orders: list[dict[str, Any]] = []

        def person(address: str) -> int:
            nonlocal next_person
            pid = next_person
            next_person += 1
            persons.append({"id": pid, "name": None, "created_at": STARTED})
            addresses.append(
                {"person_id": pid, "address": address, "is_primary": True, "added_at": STARTED}
            )
            return pid

        for n in range(games):
            game_id = next_game + n
            name = f"bench{game_id}"
            gm = person(f"gm-{name}@bench.test")
            game_rows.append(
                {
                    "id": game_id,
                    "name": name,
                    "variant": "standard",
                    "rules": [],
                    "status": GameStatus.ACTIVE,
                    "phase": "S1901M",
                    "position": position,
                    "settings": {"timing": TIMING},
                    "deadline": DEADLINE,
                    "phase_started_at": STARTED,
                    "checked_at": STARTED,
                    "seed": game_id,
                    "gm_person_id": gm,
                    "gm_token": new_reply_token(),
                    "created_at": STARTED,
                    "updated_at": STARTED,
                }
            )
            for power, state in ORDERS_IN.items():
                holder = person(f"{power.lower()}-{name}@bench.test")
                seats.append(
                    {
                        "game_id": game_id,
                        "power": power,
                        "person_id": holder,
                        "password_hash": password_hash,
                        "reply_token": new_reply_token(),
                        "status": SeatStatus.PLAYING,
                        "wait": False,
                        "missed_turns": 0,
                        "absences": [],
                        "signed_on_at": STARTED,
                        "orders_state": state,
                        "orders_changed_at": STARTED if state != OrdersState.NONE else None,
                        "replacement_sought": False,
                    }
                )
                given = list(OPENINGS[power].items())
                if state == OrdersState.PARTIAL:
                    given = given[:1]
                elif state == OrdersState.NONE:
                    given = []
                orders.extend(
                    {
                        "game_id": game_id,
                        "phase": "S1901M",
                        "power": power,
                        "unit": unit,
                        "text": text,
                        "written_at": STARTED,
                    }
                    for unit, text in given
                )
        session.execute(insert(Person), persons)
        session.execute(insert(PersonAddress), addresses)
        session.execute(insert(Game), game_rows)
        session.execute(insert(Seat), seats)
        session.execute(insert(CurrentOrder), orders)


def run_scheduler(engine: Engine, config: Config) -> tuple[float, list[float]]:
    """Run the daemon's scheduler step at the deadline until it reports nothing more to do, as
    its loop does; return the seconds taken in all and in each round."""
    clock.set_now(DEADLINE)
    rounds: list[float] = []
    began = time.perf_counter()
    while True:
        start = time.perf_counter()
        busy = schedule(engine, config)
        rounds.append(time.perf_counter() - start)
        if not busy:
            break
    return time.perf_counter() - began, rounds


def check(engine: Engine, games: int) -> dict[str, int]:
    """What the run left: games moved on, and the outbox rows by kind. Raises if incomplete."""
    with session_scope(engine) as session:
        moved = session.scalar(select(func.count()).where(Game.phase == "F1901M")) or 0
        kinds = dict(
            session.execute(
                select(OutboxMessage.kind, func.count()).group_by(OutboxMessage.kind)
            ).all()
        )
    if moved != games:
        raise SystemExit(f"only {moved} of {games} games were processed")
    if kinds.get("results", 0) != games * 8:
        raise SystemExit(f"{kinds.get('results', 0)} results mails, expected {games * 8}")
    return {str(k): int(v) for k, v in kinds.items()}


@contextlib.contextmanager
def store(db: str) -> Iterator[str]:
    """A fresh store: a SQLite file in a temporary folder, or a private PostgreSQL."""
    directory = tempfile.mkdtemp(prefix="jgames", dir="/tmp")
    try:
        if db == "sqlite":
            yield f"sqlite:///{directory}/judge.sqlite3"
            return
        script = ROOT / "deploy" / "postgres.sh"
        out = subprocess.run(
            [str(script), "start", "--fast", directory],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        values = dict(line.split("=", 1) for line in out.split() if "=" in line)
        try:
            yield values["DATABASE_URL"]
        finally:
            subprocess.run([str(script), "stop", directory], capture_output=True, check=False)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--profile", action="store_true", help="print the scheduler's profile")
    parser.add_argument("--json", action="store_true", help="one line of JSON instead of text")
    args = parser.parse_args(argv)
    config = Config()
    config.judge.address = JUDGE
    with store(args.db) as url:
        engine = make_engine(url)
        try:
            upgrade(engine)
            began = time.perf_counter()
            seed_games(engine, args.games)
            seeded = time.perf_counter() - began
            profiler = cProfile.Profile() if args.profile else None
            if profiler is not None:
                profiler.enable()
            seconds, rounds = run_scheduler(engine, config)
            if profiler is not None:
                profiler.disable()
            kinds = check(engine, args.games)
            # The daemon's loop goes on looking: a round over the same games with nothing due.
            start = time.perf_counter()
            if schedule(engine, config):
                raise SystemExit("a round after all was done still found work")
            idle = time.perf_counter() - start
        finally:
            clock.reset()
            engine.dispose()
    mails = sum(kinds.values())
    figures = {
        "db": args.db,
        "games": args.games,
        "seed_seconds": round(seeded, 2),
        "seconds": round(seconds, 2),
        "games_per_second": round(args.games / seconds, 1),
        "mails": mails,
        "mails_per_second": round(mails / seconds, 1),
        "round_seconds": [round(r, 2) for r in rounds],
        "idle_round_seconds": round(idle, 3),
        "mails_by_kind": kinds,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{args.games} games on {args.db}: all processed and {mails} mails queued in "
            f"{seconds:.2f} s ({args.games / seconds:.1f} games/s, {mails / seconds:.0f} "
            f"mails/s; seeding took {seeded:.2f} s)"
        )
        print("mails: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
        print(
            "rounds: "
            + ", ".join(f"{r:.2f} s" for r in rounds)
            + f"; then a round with nothing due: {idle:.3f} s"
        )
    if profiler is not None:
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(35)
        print(out.getvalue(), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
