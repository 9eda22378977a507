"""What a mail of password guesses costs everybody else, with argon2 inside the processor's
transaction (as before) and outside it (judge.identity.PasswordWork), in one run.

    .venv/bin/python bench/passwords.py [--rounds 10]

A SQLite store (a temporary file) with a started seven-player game. Each round a mail of 299
wrong `SIGNON Germany ...` lines is processed (a mail reads three wrong passwords, three
argon2 hashes) while another thread stores small mails into the inbox as the SMTP listener
does, one write transaction each, back to back; the figure is how long those writes waited
while the guessing mail was processed. The failure counts are cleared between rounds so each
round hashes. "inside" runs the mail with its argon2 work done in place (PasswordWork(inline),
the judge's behaviour before); "outside" is the judge's: rolled back, hashed with no
transaction open, run again. Also measured: a right `SIGNON` (one hash), whose mail now runs
twice. Figures go to docs/PERFORMANCE-mail.md with the command above; compare ratios only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from argon2.exceptions import VerificationError  # noqa: E402
from sqlalchemy import Engine, delete  # noqa: E402

from judge import identity, processor  # noqa: E402
from judge.processor import ProcessorSettings, process_next  # noqa: E402
from judge.store import make_engine, session_scope, upgrade  # noqa: E402
from judge.store.inbox import accept  # noqa: E402
from judge.store.models import PasswordFailure  # noqa: E402
from judge.store.outbox import Identity  # noqa: E402

SETTINGS = ProcessorSettings(identity=Identity("judge@example.org", "Judge"), replies_per_day=0)
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
_count = iter(range(10**9))


def mail(body: str, sender: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "judge@example.org"
    message["Subject"] = "bench"
    message["Message-ID"] = f"<b{next(_count)}@example.org>"
    message.set_content(body)
    return message.as_bytes()


def store(engine: Engine, raw: bytes) -> int:
    with session_scope(engine) as session:
        return accept(session, raw, source="bench")[0]


def run(engine: Engine, body: str, sender: str) -> float:
    """Store and process one mail; seconds the processor took."""
    row = store(engine, mail(body, sender))
    start = time.perf_counter()
    assert process_next(engine, SETTINGS, row) == row
    return time.perf_counter() - start


def started_game(engine: Engine) -> None:
    run(engine, "CREATE alpha gmsecret standard", "gm@example.org")
    for power in POWERS:
        run(engine, f"SIGNON {power} alpha pw-{power}", f"{power.lower()}@example.org")


def with_work(inline: bool) -> Callable[[], Any]:
    """The PasswordWork the processor makes for each mail: in place (inside the transaction)
    or the judge's own (outside)."""
    real = identity.PasswordWork
    return (lambda: real(inline=True)) if inline else real


def forget_failures(engine: Engine) -> None:
    """Clear the back-off, so the next mail's passwords are hashed."""
    with session_scope(engine) as session:
        session.execute(delete(PasswordFailure))


class FreeHasher:
    """A hasher that costs nothing: the baseline of what the guessing mail costs without argon2."""

    def __init__(self) -> None:
        self.real = identity._HASHER

    def verify(self, stored: str, password: str) -> bool:
        raise VerificationError("not the password")

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)


def guessing_round(engine: Engine) -> tuple[float, list[float]]:
    """Process one guessing mail while another thread writes; (processor s, each write's s)."""
    forget_failures(engine)
    guesses = "\n".join(f"SIGNON Germany alpha guess{n}" for n in range(299))
    row = store(engine, mail(guesses, "thief@example.net"))
    waits: list[float] = []
    done = threading.Event()

    def writer() -> None:
        while not done.is_set():
            raw = mail("HELP", "ann@example.org")
            start = time.perf_counter()
            with session_scope(engine) as session:
                accept(session, raw, source="bench")
            waits.append(time.perf_counter() - start)

    thread = threading.Thread(target=writer)
    thread.start()
    start = time.perf_counter()
    assert process_next(engine, SETTINGS, row) == row
    took = time.perf_counter() - start
    done.set()
    thread.join()
    return took, waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{folder}/bench.sqlite3")
        upgrade(engine)
        started_game(engine)
        results: dict[str, dict[str, list[float]]] = {}
        real_hasher = identity._HASHER
        modes = (
            ("inside the transaction (before)", True, real_hasher),
            ("outside the transaction (now)", False, real_hasher),
            ("no argon2 at all (baseline)", False, FreeHasher()),
        )
        for _ in range(args.rounds):
            for name, inline, hasher in modes:
                processor.PasswordWork = with_work(inline)  # type: ignore[assignment,misc]
                identity._HASHER = hasher  # type: ignore[assignment]
                took, waits = guessing_round(engine)
                forget_failures(engine)
                right = run(engine, "SIGNON Germany alpha pw-Germany", "germany@example.org")
                figures = results.setdefault(
                    name, {"mail": [], "wait": [], "writes": [], "right": []}
                )
                figures["mail"].append(took)
                figures["wait"].append(max(waits))
                figures["writes"].append(len(waits))
                figures["right"].append(right)
        processor.PasswordWork = identity.PasswordWork  # type: ignore[misc]
        identity._HASHER = real_hasher
        engine.dispose()
    print(f"rounds: {args.rounds}; argon2 as judge.identity sets it; SQLite, one process")
    print(
        "| argon2 | guessing mail, median ms | longest write wait during it, median ms (max) "
        "| writes done during it, median | right SIGNON mail, median ms |"
    )
    print("|---|---|---|---|---|")
    for name, figures in results.items():
        print(
            f"| {name} | {statistics.median(figures['mail']) * 1e3:.1f} | "
            f"{statistics.median(figures['wait']) * 1e3:.1f} ({max(figures['wait']) * 1e3:.1f}) | "
            f"{statistics.median(figures['writes']):.0f} | "
            f"{statistics.median(figures['right']) * 1e3:.1f} |"
        )


if __name__ == "__main__":
    main()
