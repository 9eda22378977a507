#!/usr/bin/env python3
"""Web pages benchmark: a game's page asked N times a second while the judge processes mail,
and the mail's latency with and without that load.

It starts the real `judge serve` (SQLite, `[web] enabled`) as a child process with its relay
pointed at a sink, as bench/mail.py does, plays a standard game into it by mail (CREATE, seven
SIGNONs, a PROCESS: the page has its picture, results and seats), then runs the same mail load
in rounds: HELP mails at --mail-rate a second for --seconds, alone and (in turn) while a load
generator (this script with --load, in a process of its own) asks for the game's page at --rate
a second. Mail latency is bench/mail.py's (inbox commit to the relay's 250); page latency is
the load generator's, request sent to the last byte read.

    .venv/bin/python bench/web.py --rate 200 --mail-rate 25 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import mail as mailbench  # noqa: E402  (bench/mail.py: the sink, the SMTP submitter, latencies)
from aiosmtpd.controller import Controller  # noqa: E402

GAME = "benchgame"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


async def _load(url: str, rate: float, seconds: float) -> dict[str, Any]:
    """Ask for `url` `rate` times a second for `seconds` (each request at its own moment, not
    waiting for the one before), and say how long each took and what came back."""
    import aiohttp

    times: list[float] = []
    statuses: dict[int, int] = {}
    late = 0
    connector = aiohttp.TCPConnector(limit=64)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def one() -> None:
            started = time.monotonic()
            async with session.get(url) as answer:
                await answer.read()
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
            times.append((time.monotonic() - started) * 1000)

        start = time.monotonic()
        tasks = []
        count = int(rate * seconds)
        for index in range(count):
            delay = start + index / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            elif delay < -0.05:
                late += 1
            tasks.append(asyncio.create_task(one()))
        await asyncio.gather(*tasks)
        elapsed = time.monotonic() - start
    return {
        "requests": count,
        "seconds": elapsed,
        "times_ms": times,
        "statuses": statuses,
        "late": late,
    }


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))]


def _config(directory: Path, smtp_port: int, relay_port: int, web_port: int) -> Path:
    path = mailbench.write_config(
        directory, f"sqlite:///{directory / 'judge.sqlite3'}", smtp_port, relay_port
    )
    path.write_text(
        path.read_text() + f'\n[web]\nenabled = true\nhost = "127.0.0.1"\nport = {web_port}\n'
    )
    return path


def _play_game(smtp_port: int, sink: mailbench.Sink) -> None:
    """CREATE, seven SIGNONs and a PROCESS, each waited for, so the page shows a played phase."""
    import smtplib
    from email.message import EmailMessage

    def send(sender: str, body: str, n: int) -> None:
        before = len(sink.arrivals)
        message = EmailMessage()
        message["From"] = sender
        message["To"] = mailbench.JUDGE
        message["Subject"] = "game"
        message["Message-ID"] = f"<setup-{n}-{os.getpid()}@players.test>"
        message.set_content(body + "\n")
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=60) as smtp:
            smtp.send_message(message)
        if not sink.wait_for(before + 1, timeout=60):
            raise RuntimeError(f"no answer to {body!r}")

    send("gm@players.test", f"CREATE {GAME} gmpw standard", 0)
    for n, power in enumerate(POWERS, start=1):
        send(f"{power.lower()}@players.test", f"SIGNON {power} {GAME} pw{n}", n)
    send("gm@players.test", f"SIGNON M {GAME} gmpw\nPROCESS", 99)
    time.sleep(2)  # the results mails to everyone go out


def _mail_round(
    smtp_port: int, sink: mailbench.Sink, url: str, tag: str, rate: float, seconds: float
) -> list[float]:
    count = int(rate * seconds)
    mails = []
    for n in range(count):
        sender, raw = mailbench.make_mail(n, "HELP", f"bench-{tag}")
        mails.append((sender, raw.replace(f"-{os.getpid()}@".encode(), f"-{tag}@".encode())))
    base = len(sink.arrivals)
    mailbench.submit(smtp_port, mails, 2, rate)
    if not sink.wait_for(base + count, timeout=120):
        raise RuntimeError(f"only {len(sink.arrivals) - base} of {count} replies")
    time.sleep(1)
    rows = mailbench.latencies(url, tag)
    return [total for total, _ in rows]


def measure(rate: float, mail_rate: float, seconds: float, rounds: int) -> dict[str, Any]:
    sink = mailbench.Sink()
    relay_port = mailbench.free_port()
    controller = Controller(
        sink, hostname="127.0.0.1", port=relay_port, server_hostname="sink.bench.test"
    )
    controller.start()
    directory = Path(tempfile.mkdtemp(prefix="jweb"))
    smtp_port, web_port = mailbench.free_port(), mailbench.free_port()
    config = _config(directory, smtp_port, relay_port, web_port)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env["JUDGE_CONFIG"] = str(config)
    log = directory / "judge.log"
    with open(log, "wb") as out:
        judge = subprocess.Popen(
            [sys.executable, "-m", "judge.cli", "serve"],
            cwd=directory,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    url = f"sqlite:///{directory / 'judge.sqlite3'}"
    page = f"http://127.0.0.1:{web_port}/games/{GAME}"
    try:
        mailbench.wait_port(smtp_port, judge, log, timeout=60)
        mailbench.wait_port(web_port, judge, log, timeout=60)
        _play_game(smtp_port, sink)
        warm = asyncio.run(_load(page, 20, 1))  # the page built once, kept from then on
        assert warm["statuses"] == {200: 20}, warm["statuses"]
        time.sleep(5)  # the results mails' pictures drawn and sent: the judge idle
        found: dict[str, list[float]] = {"alone": [], "loaded": []}
        pages: dict[str, Any] = {
            "requests": 0,
            "seconds": 0.0,
            "times_ms": [],
            "statuses": {},
            "late": 0,
        }
        # Alone and under the page load in turn, so a slower stretch of a shared machine
        # weighs on both alike.
        for turn in range(2 * rounds):
            label = "alone" if turn % 2 == 0 else "loaded"
            tag = f"{label}{turn}"
            if label == "alone":
                found[label] += _mail_round(smtp_port, sink, url, tag, mail_rate, seconds)
                continue
            loader = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--load",
                    page,
                    "--rate",
                    str(rate),
                    "--seconds",
                    str(seconds + 2),
                ],
                stdout=subprocess.PIPE,
                text=True,
            )
            time.sleep(1)  # the page load running before the mail starts
            found[label] += _mail_round(smtp_port, sink, url, tag, mail_rate, seconds)
            ran = json.loads(loader.communicate(timeout=seconds + 120)[0])
            pages["requests"] += ran["requests"]
            pages["seconds"] += ran["seconds"]
            pages["times_ms"] += ran["times_ms"]
            pages["late"] += ran["late"]
            for status, count in ran["statuses"].items():
                pages["statuses"][status] = pages["statuses"].get(status, 0) + count
    except BaseException:
        print(log.read_text(errors="replace")[-3000:], file=sys.stderr)
        raise
    finally:
        judge.send_signal(signal.SIGTERM)
        try:
            judge.wait(timeout=30)
        except subprocess.TimeoutExpired:
            judge.kill()
        controller.stop()
    return {**found, "pages": pages}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", type=float, default=200.0, help="page requests a second")
    parser.add_argument("--mail-rate", type=float, default=25.0, help="HELP mails a second")
    parser.add_argument("--seconds", type=float, default=20.0, help="each round's length")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each, alternating")
    parser.add_argument("--load", help=argparse.SUPPRESS)  # the load generator's own run
    args = parser.parse_args()
    if args.load:
        print(json.dumps(asyncio.run(_load(args.load, args.rate, args.seconds))))
        return 0
    found = measure(args.rate, args.mail_rate, args.seconds, args.rounds)
    pages = found["pages"]
    times = pages["times_ms"]
    print(f"load average {os.getloadavg()[0]:.1f}; {mailbench.describe_machine()}")
    print(
        f"pages: {pages['requests']} asked in {pages['seconds']:.1f} s = "
        f"{pages['requests'] / pages['seconds']:.0f}/s, statuses {pages['statuses']}, "
        f"{pages['late']} sent late; median {statistics.median(times):.1f} ms, "
        f"p99 {_percentile(times, 99):.1f} ms"
    )
    for label in ("alone", "loaded"):
        values = found[label]
        print(
            f"mail at {args.mail_rate:.0f}/s {'with' if label == 'loaded' else 'without'} the page "
            f"load: {len(values)} mails, median {statistics.median(values):.1f} ms, "
            f"p99 {_percentile(values, 99):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
