"""The roles on two hosts against one PostgreSQL and one mail server, one host SIGKILLed mid-burst.

Each host is a network namespace (tests/e2e/hosts.py) running the scaled-out layout as three
processes: `--only inbound,scheduler` (IMAP from the shared Dovecot), `--only processor` and
`--only sender` (through the shared Postfix). Both read the same mailbox and share the rows.
Halfway through a burst every process of the first host is SIGKILLed: the second host must
finish the work, each mail processed exactly once and every reply delivered, the only extra
copy being a reply the killed sender had handed to the relay without recording it (the gap
tests/e2e/test_crash.py describes).
"""

from __future__ import annotations

import os
import shutil
import smtplib
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from harness import JudgeProcess, header_values, judge_sections, message_ids, relay_acceptances
from hosts import HostNetwork, NetworkUnavailable
from imapclient import IMAPClient
from sqlalchemy import func, select, text

from judge.store.db import session_scope
from judge.store.models import InboxMessage, InboxState, OutboxMessage, OutboxState

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MAILS = 200
RATE = 40.0  # mails a second offered to Postfix, so the burst is still arriving at the kill
PASSWORD = "pw-hosts"
SENDERS = ("s1", "s2", "s3")
LAYOUT = ("inbound,scheduler", "processor", "sender")
DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def network() -> Iterator[HostNetwork]:
    made = HostNetwork(hosts=2)
    try:
        made.create()
    except NetworkUnavailable as error:
        _unavailable(str(error))
    yield made
    made.remove()


@pytest.fixture
def shared_database(network: HostNetwork) -> Iterator[str]:
    """A PostgreSQL on the machine that the hosts reach at the network's gateway address."""
    if shutil.which("pg_ctl") is None and not list(Path("/usr/lib/postgresql").glob("*/bin")):
        _unavailable("PostgreSQL is not installed (deploy/install-test-packages.sh)")
    directory = tempfile.mkdtemp(prefix="jpg", dir="/tmp")
    script = str(DEPLOY / "postgres.sh")
    result = subprocess.run(
        [script, "start", "--fast", "--listen", f"{network.gateway}/24", directory],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    try:
        assert result.returncode == 0, result.stderr
        port = dict(line.split("=", 1) for line in result.stdout.split())["PG_PORT"]
        yield f"postgresql+psycopg://postgres@{network.gateway}:{port}/judge"
    finally:
        subprocess.run([script, "stop", directory], capture_output=True, timeout=120, check=False)
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def gateway_certificate(network: HostNetwork, tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate (and its key) for the gateway address: the hosts log in to
    Dovecot across their network, where the judge sends a password only over TLS, trusting
    this certificate as a private CA's ([imap] ca_file)."""
    if shutil.which("openssl") is None:
        _unavailable("openssl is not installed")
    key, cert = tmp_path / "gateway.key", tmp_path / "gateway.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
        + ["-keyout", str(key), "-out", str(cert), "-subj", f"/CN={network.gateway}"]
        + ["-addext", f"subjectAltName=IP:{network.gateway}"],
        capture_output=True,
        timeout=60,
        check=True,
    )
    return cert, key


@pytest.fixture
def shared_mail(
    network: HostNetwork, mailservers_module: ModuleType, gateway_certificate: tuple[Path, Path]
) -> Iterator[Any]:
    """Postfix and Dovecot on the machine, also on the network's gateway address, Dovecot
    offering STARTTLS with the gateway's certificate."""
    problem = mailservers_module.missing_requirements()
    if problem:
        _unavailable(problem)
    users = {user: PASSWORD for user in ("judge", *SENDERS)}
    servers = mailservers_module.create(users, also_listen=(network.gateway,))
    cert, key = gateway_certificate
    servers.dovecot_settings = {"ssl": "yes", "ssl_cert": f"<{cert}", "ssl_key": f"<{key}"}
    servers.write_config()
    try:
        servers.start()
        yield servers
    finally:
        servers.stop(drain_seconds=5)
        shutil.rmtree(servers.directory, ignore_errors=True)


def _mail(sender: str, judge: str, n: int, tag: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = judge
    message["Subject"] = f"hosts {n}"
    message["Message-ID"] = f"<hosts-{n}-{tag}@example.test>"
    message.set_content("HELP\n")
    return bytes(message)


def _mailbox(servers: Any, address: str) -> dict[int, bytes]:
    with IMAPClient("127.0.0.1", port=servers.imap_port, ssl=False, timeout=30) as client:
        client.login(address, PASSWORD)
        client.select_folder("INBOX", readonly=True)
        uids = client.search(["ALL"])
        if not uids:
            return {}
        return {u: d[b"BODY[]"] for u, d in client.fetch(uids, ["BODY.PEEK[]"]).items()}


def _counts(judge: JudgeProcess) -> tuple[int, int, int]:
    """(mails stored, mails handled, replies sent)."""
    with session_scope(judge.engine) as session:
        stored = session.scalar(select(func.count()).select_from(InboxMessage))
        handled = session.scalar(
            select(func.count())
            .select_from(InboxMessage)
            .where(InboxMessage.state != InboxState.NEW)
        )
        sent = session.scalar(
            select(func.count())
            .select_from(OutboxMessage)
            .where(OutboxMessage.state == OutboxState.SENT)
        )
    return int(stored or 0), int(handled or 0), int(sent or 0)


def _replies_logged(process: JudgeProcess, after: int = 0) -> int:
    return process.log_path.read_text(errors="replace")[after:].count(": replied: ")


def test_one_host_killed_mid_burst_loses_nothing(
    network: HostNetwork,
    shared_database: str,
    shared_mail: Any,
    gateway_certificate: tuple[Path, Path],
    tmp_path: Path,
    judge_process: Callable[..., JudgeProcess],
    wait_until: Callable[..., Any],
) -> None:
    servers = shared_mail
    judge_address = servers.address("judge")
    senders = [servers.address(user) for user in SENDERS]
    tag = tmp_path.name

    hosts: list[list[JudgeProcess]] = []
    for host in range(network.hosts):
        directory = tmp_path / f"host{host}"
        directory.mkdir()
        processes = []
        for roles in LAYOUT:
            sections = judge_sections(
                directory,
                shared_database,
                judge_address,
                mail_servers=servers,
                imap_password=PASSWORD,
            )
            # Everything the host reaches, it reaches over the network, as another machine would.
            sections["imap"].update(
                host=network.gateway,
                starttls="always",  # across a network, the password goes only over TLS
                login_without_tls=False,
                ca_file=str(gateway_certificate[0]),
            )
            sections["relay"]["host"] = network.gateway
            sections["processor"]["claim_seconds"] = 3.0
            sections["outbound"]["claim_seconds"] = 3.0
            name = roles.split(",")[0]
            process = judge_process(
                sections,
                directory=directory,
                name=name,
                only=roles,
                prefix=network.prefix(host),
            )
            processes.append(process)
        hosts.append(processes)
    doomed, survivor = hosts
    observer = survivor[0]  # reads the shared database from the machine itself

    try:
        for process in (*doomed, *survivor):
            process.start()
        for process in (*doomed, *survivor):
            process.wait_ready()
            wait_until(
                lambda process=process: (
                    process.assert_alive()
                    or "running" in process.log_path.read_text(errors="replace")
                ),
                timeout=60,
                what=f"{process.log_path.name} running",
            )
        with session_scope(observer.engine) as session:
            clients = set(
                session.scalars(
                    text(
                        "SELECT DISTINCT host(client_addr) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND client_addr IS NOT NULL"
                    )
                )
            )
        assert {network.address(0), network.address(1)} <= clients, clients

        errors: list[BaseException] = []

        def burst() -> None:
            start = time.monotonic()
            try:
                with smtplib.SMTP("127.0.0.1", servers.smtp_port, timeout=30) as smtp:
                    for n in range(MAILS):
                        delay = start + n / RATE - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                        sender = senders[n % len(senders)]
                        smtp.sendmail(sender, [judge_address], _mail(sender, judge_address, n, tag))
            except BaseException as error:  # reported by the test's thread
                errors.append(error)

        feeder = threading.Thread(target=burst, daemon=True)
        feeder.start()
        processor_a, processor_b = doomed[1], survivor[1]
        wait_until(
            lambda: _counts(observer)[2] >= MAILS // 4 and _replies_logged(processor_a) > 0,
            timeout=180,
            what="a quarter of the replies sent, some by the first host",
        )
        for process in doomed:
            process.kill()
        handled_at_kill = _counts(observer)[1]
        survivor_log_at_kill = len(processor_b.log_path.read_text(errors="replace"))
        assert handled_at_kill < MAILS, "the kill came after the burst was handled"

        feeder.join(timeout=120)
        assert not feeder.is_alive() and not errors, errors
        wait_until(
            lambda: all(p.assert_alive() or True for p in survivor) and observer.settled(MAILS),
            timeout=240,
            what=f"all {MAILS} mails handled and every reply sent by the second host",
        )
    except AssertionError as error:
        tails = "\n".join(f"{p.log_path}:\n{p.log_tail(1500)}" for p in (*doomed, *survivor))
        raise AssertionError(f"{error}\n{tails}") from None

    assert _replies_logged(processor_b, survivor_log_at_kill) > 0, "the second host took over"
    for process in (*doomed, *survivor):
        log = process.log_path.read_text(errors="replace")
        assert "Traceback" not in log, f"{process.log_path}:\n{log[-3000:]}"
    with session_scope(observer.engine) as session:
        inbox = session.execute(select(InboxMessage.message_id, InboxMessage.state)).all()
        outbox = session.execute(
            select(
                OutboxMessage.message_id,
                OutboxMessage.inbox_id,
                OutboxMessage.state,
                OutboxMessage.attempts,
            )
        ).all()
    expected = {f"hosts-{n}-{tag}@example.test" for n in range(MAILS)}
    # Processed exactly once: one inbox row per mail, each done, each with exactly one reply.
    assert sorted(m for m, _ in inbox) == sorted(expected)
    assert {s for _, s in inbox} == {InboxState.DONE}
    assert len(outbox) == MAILS
    assert len({row.inbox_id for row in outbox}) == MAILS
    assert {row.state for row in outbox} == {OutboxState.SENT}

    # Every reply delivered, as often as Postfix took it; a second copy only of a reply the
    # killed sender had in hand (one at most), and never more copies than sending attempts.
    reply_ids = {row.message_id.strip("<>") for row in outbox}
    attempts = {row.message_id.strip("<>"): row.attempts for row in outbox}

    def delivered() -> Counter[str] | None:
        seen: Counter[str] = Counter()
        for sender in senders:
            seen.update(message_ids(_mailbox(servers, sender)))
        accepted = relay_acceptances(servers.postfix_log)
        if set(seen) >= reply_ids and all(seen[m] == accepted[m] for m in reply_ids):
            return seen
        return None

    seen = wait_until(delivered, timeout=180, what="every reply in the senders' mailboxes")
    assert set(seen) == reply_ids
    twice = {m for m in reply_ids if seen[m] > 1}
    assert sum(seen[m] - 1 for m in twice) <= 1, twice
    assert all(seen[m] <= attempts[m] for m in twice)
    for sender in senders:
        for raw in _mailbox(servers, sender).values():
            (in_reply_to,) = header_values(raw, "In-Reply-To")
            assert in_reply_to.strip("<>") in expected
    print(
        f"two hosts: {MAILS} mails, first host killed with {handled_at_kill} handled; "
        f"{len(twice)} replies handed to the relay twice"
    )
