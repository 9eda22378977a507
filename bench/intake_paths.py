#!/usr/bin/env python3
"""The judge's two intake paths measured end to end through a real Postfix and Dovecot: from a
player's submission to Postfix until the judge's reply lies in the player's mailbox.

- **IMAP IDLE**: Postfix delivers the mail to the judge's Dovecot mailbox; the judge, waiting in
  IDLE, is told of it, fetches it, answers through Postfix, which delivers to the player.
- **IMAP polling**: the same, with `idle = false` and a short `poll_seconds` (the judge SELECTs
  the folder every poll instead of waiting for Dovecot's IDLE notice).
- **LMTP**: Postfix hands mail for the judge's address straight to the judge's LMTP listener
  (`transport_maps`: `judge@domain lmtp:inet:127.0.0.1:PORT`); the reply goes as above.

Each mail is sent alone and its reply awaited before the next (latency, not throughput). The
arrival is the ctime of the reply's file in the player's Maildir (Dovecot renames it into new/
when the delivery is complete); the judge's own stamps split the time into: to the judge (submit
to the inbox row's commit), in the judge (to the relay's 250) and back (relay to mailbox).
IMAP IDLE is also run with Dovecot settings that might shorten its notice (`--dovecot`).

    bench/intake_paths.py                      # every path, 40 mails each
    bench/intake_paths.py --mails 100 --path lmtp --path idle

Needs root and Postfix/Dovecot (deploy/install-test-packages.sh), like the e2e tests.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import platform
import shutil
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from sqlalchemy import select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.store.db import make_engine, session_scope  # noqa: E402
from judge.store.models import InboxMessage, OutboxMessage  # noqa: E402

PASSWORD = "pw-bench"
DOMAIN = "paths.bench.test"
# Dovecot settings tried against its IDLE notice (name=value, as in dovecot.conf).
DEFAULT_DOVECOT_VARIANTS = (
    "imap_idle_notify_interval=1 secs",
    "mailbox_idle_check_interval=1 secs",
)


def load_mailservers() -> Any:
    spec = importlib.util.spec_from_file_location("mailservers", ROOT / "deploy" / "mailservers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mailservers"] = module
    spec.loader.exec_module(module)
    return module


@dataclass
class Path_:
    """One way for mail to reach the judge, as a configuration of the judge and the servers."""

    name: str
    label: str
    imap: dict[str, Any] | None  # the [imap] section, or None for LMTP
    dovecot: dict[str, str]


@dataclass
class Result:
    path: Path_
    totals_ms: list[float]
    to_judge_ms: list[float]
    processing_ms: list[float]
    in_judge_ms: list[float]
    back_ms: list[float]


def judge_config(directory: Path, address: str, servers: Any, path: Path_, lmtp_port: int) -> Path:
    lines = [
        "[judge]",
        f'data_dir = "{directory / "data"}"',
        f'address = "{address}"',
        "[database]",
        f'url = "sqlite:///{directory / "judge.sqlite3"}"',
        "[smtp]",
    ]
    if path.imap is None:
        lines += ["enabled = true", 'host = "127.0.0.1"', f"port = {lmtp_port}", "lmtp = true"]
    else:
        lines += ["enabled = false", "[imap]"]
        imap = {
            "host": "127.0.0.1",
            "port": servers.imap_port,
            "ssl": False,
            "login_without_tls": True,
            "username": address,
            "password": PASSWORD,
            **path.imap,
        }
        for key, value in imap.items():
            rendered = (
                ("true" if value else "false")
                if isinstance(value, bool)
                else (repr(value) if isinstance(value, int | float) else f'"{value}"')
            )
            lines.append(f"{key} = {rendered}")
    lines += [
        "[relay]",
        'host = "127.0.0.1"',
        f"port = {servers.smtp_port}",
        'starttls = "never"',
        "[processor]",
        "replies_per_day = 1000000",
        "[log]",
        'level = "INFO"',
    ]
    config = directory / "judge.toml"
    config.write_text("\n".join(lines) + "\n")
    return config


@contextlib.contextmanager
def judge_serve(config: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUDGE_")}
    env["JUDGE_CONFIG"] = str(config)
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "judge.cli", "serve"],
            cwd=config.parent,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    try:
        yield process
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def wait_for(
    predicate: Any, timeout: float, what: str, process: subprocess.Popen[bytes], log: Path
) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if process.poll() is not None:
            raise RuntimeError(f"judge serve exited:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.002)
    raise RuntimeError(f"no {what} within {timeout} s:\n{log.read_text(errors='replace')[-3000:]}")


def mail(player: str, judge: str, n: int, tag: str) -> bytes:
    message = EmailMessage()
    message["From"] = player
    message["To"] = judge
    message["Subject"] = f"path {n}"
    message["Message-ID"] = f"<{tag}-{n}@{DOMAIN}>"
    message.set_content("HELP\n")
    return bytes(message)


def replies(box: Path) -> dict[str, int]:
    """The files in a Maildir's new/ with their ctime in ns (when the delivery completed)."""
    found = {}
    with contextlib.suppress(FileNotFoundError), os.scandir(box / "new") as entries:
        for entry in entries:
            with contextlib.suppress(FileNotFoundError):
                found[entry.name] = entry.stat().st_ctime_ns
    return found


def judge_stamps(config_dir: Path, message_id: str) -> tuple[float, float, float] | None:
    """(received_at, processed_at, sent_at) of the mail and its reply, in seconds since the
    epoch."""
    engine = make_engine(f"sqlite:///{config_dir / 'judge.sqlite3'}")
    try:
        with session_scope(engine) as session:
            row = session.execute(
                select(InboxMessage.received_at, InboxMessage.processed_at, OutboxMessage.sent_at)
                .join(OutboxMessage, OutboxMessage.inbox_id == InboxMessage.id)
                .where(InboxMessage.message_id == message_id)
            ).first()
    finally:
        engine.dispose()
    if row is None or row[2] is None:
        return None
    return row[0].timestamp(), row[1].timestamp(), row[2].timestamp()


def run_path(servers: Any, path: Path_, index: int, count: int, gap: float) -> Result:
    judge = servers.address(f"judge{index}")
    player = servers.address(f"player{index}")
    box = servers.maildir(player)
    if servers.dovecot_settings != path.dovecot:
        servers.reconfigure_dovecot(path.dovecot)
    directory = Path(tempfile.mkdtemp(prefix="jpaths"))
    lmtp_port = servers_free_port()
    if path.imap is None:
        servers.route(judge, f"lmtp:inet:127.0.0.1:{lmtp_port}")
    config = judge_config(directory, judge, servers, path, lmtp_port)
    log = directory / "judge.log"
    tag = f"path{index}-{os.getpid()}"
    result = Result(path, [], [], [], [], [])
    try:
        with judge_serve(config, log) as process:
            ready = "IDLE in use" if path.imap and path.imap.get("idle", True) else None
            if path.imap is None:
                ready = "inbound: LMTP listener"
            elif not path.imap.get("idle", True):
                ready = "polling every"
            wait_for(lambda: ready in log.read_text(errors="replace"), 60, ready, process, log)
            for n in range(-3, count):  # three warm-up mails first
                before = replies(box)
                raw = mail(player, judge, n, tag)
                submitted = time.time()
                with smtplib.SMTP("127.0.0.1", servers.smtp_port, timeout=30) as smtp:
                    smtp.sendmail(player, [judge], raw)
                fresh = wait_for(
                    lambda before=before: set(replies(box)) - set(before),
                    60,
                    f"reply to mail {n}",
                    process,
                    log,
                )
                arrived = replies(box)[next(iter(fresh))] / 1e9
                stamps = wait_for(
                    lambda n=n: judge_stamps(directory, f"{tag}-{n}@{DOMAIN}"),
                    30,
                    "the judge's stamps",
                    process,
                    log,
                )
                if n >= 0:
                    received, processed, sent = stamps
                    result.totals_ms.append((arrived - submitted) * 1000)
                    result.to_judge_ms.append((received - submitted) * 1000)
                    result.processing_ms.append((processed - received) * 1000)
                    result.in_judge_ms.append((sent - received) * 1000)
                    result.back_ms.append((arrived - sent) * 1000)
                time.sleep(gap)
    except BaseException:
        print(f"judge log:\n{log.read_text(errors='replace')[-4000:]}", file=sys.stderr)
        raise
    finally:
        if path.imap is None:
            servers.route(judge, None)
        shutil.rmtree(directory, ignore_errors=True)
    return result


def servers_free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def paths_to_run(chosen: list[str], poll: float, variants: list[str]) -> list[Path_]:
    everything = [Path_("idle", "IMAP IDLE (Dovecot defaults)", {"idle": True}, {})]
    for variant in variants:
        name, _, value = variant.partition("=")
        everything.append(
            Path_(
                f"idle:{name.strip()}",
                f"IMAP IDLE, Dovecot {name.strip()} = {value.strip()}",
                {"idle": True},
                {name.strip(): value.strip()},
            )
        )
    everything += [
        Path_(
            "poll",
            f"IMAP polling every {poll:g} s (idle = false)",
            {"idle": False, "poll_seconds": poll},
            {},
        ),  # fmt: skip
        Path_("lmtp", "LMTP from Postfix (transport_maps)", None, {}),
    ]
    if not chosen:
        return everything
    return [p for p in everything if p.name in chosen or p.name.split(":")[0] in chosen]


def table(results: list[Result], command: str) -> str:
    lines = [
        f"Command: `{command}`",
        f"Machine: {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {platform.machine()}",
        "",
        "| path | mails | median ms | p90 ms | max ms | median to the judge "
        "| median in the judge (of it to processed) | median back |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        ordered = sorted(r.totals_ms)
        p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
        lines.append(
            f"| {r.path.label} | {len(ordered)} | {statistics.median(ordered):.1f} | {p90:.1f} | "
            f"{ordered[-1]:.1f} | {statistics.median(r.to_judge_ms):.1f} | "
            f"{statistics.median(r.in_judge_ms):.1f} ({statistics.median(r.processing_ms):.1f}) | "
            f"{statistics.median(r.back_ms):.1f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mails", type=int, default=40, help="mails per path")
    parser.add_argument(
        "--path",
        action="append",
        default=[],
        help="idle, poll or lmtp (repeatable; idle also runs the --dovecot variants)",
    )
    parser.add_argument("--poll-seconds", type=float, default=0.1)
    parser.add_argument(
        "--dovecot",
        action="append",
        help="a Dovecot setting NAME=VALUE to try with IMAP IDLE (repeatable; default: "
        + ", ".join(DEFAULT_DOVECOT_VARIANTS)
        + ")",
    )
    parser.add_argument("--gap", type=float, default=0.2, help="seconds between mails")
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)

    mailservers = load_mailservers()
    problem = mailservers.missing_requirements()
    if problem:
        print(problem, file=sys.stderr)
        return 1
    variants = args.dovecot if args.dovecot is not None else list(DEFAULT_DOVECOT_VARIANTS)
    chosen = paths_to_run(args.path, args.poll_seconds, variants)
    users = {f"{kind}{i}": PASSWORD for i in range(len(chosen)) for kind in ("judge", "player")}
    servers = mailservers.create(users, DOMAIN)
    results = []
    try:
        servers.start()
        for index, path in enumerate(chosen):
            results.append(run_path(servers, path, index, args.mails, args.gap))
    finally:
        servers.stop(drain_seconds=5)
        shutil.rmtree(servers.directory, ignore_errors=True)
    command = "bench/intake_paths.py " + " ".join(argv if argv is not None else sys.argv[1:])
    text = table(results, command.strip())
    print(text)
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
