#!/usr/bin/env python3
"""Mail benchmark: mails a second end to end (SMTP in, reply out) and the latency from accept to
reply sent, on SQLite and on PostgreSQL.

It starts the real `judge serve` as a child process with its SMTP listener on loopback and its relay
pointed at a sink (an aiosmtpd server in this process that records each reply as it arrives), sends
a burst of mails over a few parallel SMTP connections, and waits until every reply has reached the
sink. Throughput is mails divided by the time from the first submission to the last reply at the
sink; latency is per mail, from the inbox row's `received_at` (the commit before the 250 answer) to
the outbox row's `sent_at` (after the relay's 250), both stamped by the judge's own clock.

    .venv/bin/python bench/mail.py                       # both databases, 1000 mails
    .venv/bin/python bench/mail.py --db sqlite --mails 2000 --connections 8

PostgreSQL comes from deploy/postgres.sh (needs the Debian postgresql package; as root it runs as
the postgres user). Figures go to stdout, and with --markdown FILE as a table.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import shutil
import signal
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.store.db import make_engine, session_scope  # noqa: E402
from judge.store.models import InboxMessage, OutboxMessage  # noqa: E402

JUDGE = "judge@bench.test"


class Sink:
    """An aiosmtpd handler that records when each reply arrived (the relay the judge sends to)."""

    def __init__(self) -> None:
        self.arrivals: list[float] = []
        self.lock = threading.Lock()
        self.changed = threading.Condition(self.lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.changed:
            self.arrivals.append(time.monotonic())
            self.changed.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        with self.changed:
            while len(self.arrivals) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
        return True


@dataclass
class Result:
    """The figures of one run."""

    rate: float
    database: str
    mails: int
    connections: int
    submit_seconds: float
    total_seconds: float
    latencies_ms: list[float]
    processed_ms: list[float]
    replies: int

    @property
    def mails_per_second(self) -> float:
        return self.mails / self.total_seconds

    def percentile(self, p: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
        return ordered[index]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port(port: int, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"judge serve exited:\n{log.read_text(errors='replace')[-3000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"judge serve did not listen on {port} within {timeout} s")


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A private PostgreSQL from deploy/postgres.sh, removed afterwards."""
    directory = tempfile.mkdtemp(prefix="jpg", dir="/tmp")
    script = ROOT / "deploy" / "postgres.sh"
    out = subprocess.run(
        [str(script), "start", "--fast", directory], capture_output=True, text=True, check=True
    ).stdout
    values = dict(line.split("=", 1) for line in out.split() if "=" in line)
    try:
        yield values["DATABASE_URL"]
    finally:
        subprocess.run([str(script), "stop", directory], capture_output=True, check=False)
        shutil.rmtree(directory, ignore_errors=True)


def write_config(directory: Path, database_url: str, smtp_port: int, relay_port: int) -> Path:
    """The judge's configuration for the run: shipped defaults except addresses and ports."""
    path = directory / "judge.toml"
    path.write_text(
        f"""[judge]
data_dir = "{directory / "data"}"
address = "{JUDGE}"

[database]
url = "{database_url}"

[smtp]
enabled = true
host = "127.0.0.1"
port = {smtp_port}

[relay]
host = "127.0.0.1"
port = {relay_port}
starttls = "never"

[processor]
replies_per_day = 1000000

[log]
level = "WARNING"
"""
    )
    return path


def make_mail(n: int, body: str, kind: str = "bench") -> tuple[str, bytes]:
    sender = f"player{n % 500}@players.test"
    message = EmailMessage()
    message["From"] = sender
    message["To"] = JUDGE
    message["Subject"] = f"{kind} {n}"
    message["Message-ID"] = f"<{kind}-{n}-{os.getpid()}@players.test>"
    message.set_content(body + "\n")
    return sender, bytes(message)


def submit(port: int, mails: list[tuple[str, bytes]], connections: int, rate: float = 0.0) -> None:
    """Send every mail to the judge's listener over `connections` parallel SMTP sessions.

    With `rate` > 0 the mails are offered at that many a second in all (mail i at i/rate seconds
    after the start), so latency is measured under a steady load rather than behind a queue.
    """
    errors: list[BaseException] = []
    start = time.monotonic()

    def worker(first: int) -> None:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
                for index in range(first, len(mails), connections):
                    if rate > 0:
                        delay = start + index / rate - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                    sender, raw = mails[index]
                    smtp.sendmail(sender, [JUDGE], raw)
        except BaseException as error:  # reported after the join
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def latencies(database_url: str, tag: str) -> list[tuple[float, float]]:
    """Per mail, in milliseconds: (accept to reply sent, accept to processed).

    The second says how much of the wait is before the processor and how much after it.
    """
    engine = make_engine(database_url)
    try:
        with session_scope(engine) as session:
            rows = session.execute(
                select(InboxMessage.received_at, OutboxMessage.sent_at, InboxMessage.processed_at)
                .join(OutboxMessage, OutboxMessage.inbox_id == InboxMessage.id)
                .where(InboxMessage.message_id.like(f"bench-%-{tag}@players.test"))
                .where(OutboxMessage.sent_at.is_not(None))
            ).all()
    finally:
        engine.dispose()
    return [
        ((sent - received).total_seconds() * 1000, (done - received).total_seconds() * 1000)
        for received, sent, done in rows
    ]


def run(
    database: str,
    database_url: str,
    count: int,
    connections: int,
    body: str,
    rate: float,
    layout: tuple[tuple[str, ...], ...] = ((),),
) -> Result:
    """One benchmark run against a fresh judge on `database_url`.

    `layout` lists the judge processes by their `--only` roles; `((),)` is one process with all.
    """
    sink = Sink()
    relay_port = free_port()
    # A fixed server name: otherwise aiosmtpd looks up the machine's name on every connection.
    controller = Controller(
        sink, hostname="127.0.0.1", port=relay_port, server_hostname="sink.bench.test"
    )
    controller.start()
    directory = Path(tempfile.mkdtemp(prefix="jbench"))
    smtp_port = free_port()
    config = write_config(directory, database_url, smtp_port, relay_port)
    log = directory / "judge.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env["JUDGE_CONFIG"] = str(config)
    processes = []
    with open(log, "wb") as out:
        for roles in layout:
            only = [f"--only={','.join(roles)}"] if roles else []
            processes.append(
                subprocess.Popen(
                    [sys.executable, "-m", "judge.cli", "serve", *only],
                    cwd=directory,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                )
            )
    inbound = next(
        (p for p, roles in zip(processes, layout, strict=True) if not roles or "inbound" in roles)
    )
    try:
        wait_port(smtp_port, inbound, log, timeout=60)
        # Warm up: the first mails pay for imports, connections and caches.
        warm = [make_mail(n, body, "warm") for n in range(20)]
        submit(smtp_port, warm, 2)
        if not sink.wait_for(len(warm), timeout=60):
            raise RuntimeError(f"warm-up replies missing:\n{log.read_text()[-3000:]}")
        base = len(sink.arrivals)
        mails = [make_mail(n, body) for n in range(count)]
        started = time.monotonic()
        submit(smtp_port, mails, connections, rate)
        submitted = time.monotonic()
        if not sink.wait_for(base + count, timeout=max(120, count / 5)):
            raise RuntimeError(
                f"only {len(sink.arrivals) - base} of {count} replies arrived:\n"
                f"{log.read_text(errors='replace')[-3000:]}"
            )
        finished = sink.arrivals[base + count - 1]
        # The sink sees a reply a moment before the judge commits it as sent: wait for the commits.
        deadline = time.monotonic() + 30
        measured = latencies(database_url, str(os.getpid()))
        while len(measured) < count and time.monotonic() < deadline:
            time.sleep(0.1)
            measured = latencies(database_url, str(os.getpid()))
        return Result(
            rate=rate,
            database=database if len(layout) == 1 else f"{database}, {len(layout)} processes",
            mails=count,
            connections=connections,
            submit_seconds=submitted - started,
            total_seconds=finished - started,
            latencies_ms=[total for total, _ in measured],
            processed_ms=[done for _, done in measured],
            replies=len(sink.arrivals) - base,
        )
    except BaseException:
        print(f"judge log:\n{log.read_text(errors='replace')[-4000:]}", file=sys.stderr)
        raise
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        controller.stop()
        shutil.rmtree(directory, ignore_errors=True)


def describe_machine() -> str:
    cpus = os.cpu_count()
    return f"{platform.python_implementation()} {platform.python_version()}, {cpus} CPUs, {platform.machine()}"


def report(results: list[Result], command: str) -> str:
    lines = [
        f"Command: `{command}`",
        f"Machine: {describe_machine()}",
        "",
        "| database | offered | mails | connections | mails/s end to end | submit s "
        "| median ms | p99 ms | max ms | median ms to processed |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.database} | {f'{r.rate:g}/s' if r.rate else 'burst'} | {r.mails} | "
            f"{r.connections} | {r.mails_per_second:.0f} | "
            f"{r.submit_seconds:.2f} | {r.percentile(50):.1f} | {r.percentile(99):.1f} | "
            f"{max(r.latencies_ms):.1f} | {statistics.median(r.processed_ms):.1f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--mails", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--body", default="HELP", help="the text of every mail")
    parser.add_argument(
        "--rate",
        type=float,
        action="append",
        help="offer mails at this many a second (repeatable); 0 means a burst (the default)",
    )
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    parser.add_argument(
        "--processors",
        type=int,
        default=0,
        help="on PostgreSQL also run the judge scaled out: one process taking mail, this many "
        "processor processes and one sender process (`judge serve --only ...`)",
    )
    args = parser.parse_args(argv)

    results = []
    for rate in args.rate or [0.0]:
        if args.db in ("sqlite", "both"):
            with tempfile.TemporaryDirectory(prefix="jbdb") as tmp:
                url = f"sqlite:///{tmp}/judge.sqlite3"
                results.append(run("SQLite", url, args.mails, args.connections, args.body, rate))
        if args.db in ("postgresql", "both"):
            with postgres() as url:
                results.append(
                    run("PostgreSQL", url, args.mails, args.connections, args.body, rate)
                )
            if args.processors:
                layout = (
                    ("inbound", "scheduler"),
                    *(("processor",),) * args.processors,
                    ("sender",),
                )
                with postgres() as url:
                    results.append(
                        run(
                            "PostgreSQL",
                            url,
                            args.mails,
                            args.connections,
                            args.body,
                            rate,
                            layout,
                        )
                    )
    command = "bench/mail.py " + " ".join(argv if argv is not None else sys.argv[1:])
    text = report(results, command.strip())
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    for r in results:
        if r.replies != r.mails or len(r.latencies_ms) != r.mails:
            print(
                f"{r.database}: {r.replies} replies, {len(r.latencies_ms)} latencies for "
                f"{r.mails} mails",
                file=sys.stderr,
            )
            return 1
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
