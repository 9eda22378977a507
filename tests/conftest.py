"""Shared fixtures: a real Postfix + Dovecot pair and a real PostgreSQL, each once per session.

Both come from the project's own deploy scripts (deploy/mailservers.py, deploy/postgres.sh), so the
tests exercise the scripts an operator runs. Where the binaries or root are missing, the tests that
need them are skipped, except under CI (the CI variable set), where they must run.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import shutil
import smtplib
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text

from tests.long_files import LONG_FIRST

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"

# Accounts on the private mail servers: the judge, a game master, and enough players that a
# burst of mail never meets the judge's daily reply cap per address.
MAIL_PASSWORD = "pw-test"
JUDGE_USER = "judge"
PLAYERS = tuple(f"player{n}" for n in range(1, 41))
# Spare accounts handed out one per test, so that no test reads mail another test left behind.
BOXES = tuple(f"box{n}" for n in range(1, 301))
MAIL_USERS = (JUDGE_USER, "gm", "alice", "bob", *PLAYERS, *BOXES)
_unused_boxes = iter(BOXES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files of LONG_FIRST first, in that order; every other test where it was."""
    rank = {path: index for index, path in enumerate(LONG_FIRST)}
    root = Path(__file__).resolve().parent.parent

    def key(item: pytest.Item) -> int:
        try:
            path = Path(str(item.path)).resolve().relative_to(root).as_posix()
        except ValueError:
            return len(rank)
        return rank.get(path, len(rank))

    items.sort(key=key)  # stable: a file's tests keep their order


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "e2e: end-to-end test over real mail servers")
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


def _skip_or_fail(reason: str) -> None:
    """Skip where the machine lacks something; under CI a missing piece is a failure."""
    if os.environ.get("CI"):
        pytest.fail(reason)
    pytest.skip(reason)


def load_deploy_module(name: str) -> ModuleType:
    """Import a script from deploy/ (not a package) as a module."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, DEPLOY / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def mailservers_module() -> ModuleType:
    """deploy/mailservers.py, imported."""
    return load_deploy_module("mailservers")


@pytest.fixture(scope="session")
def mail_servers(mailservers_module: ModuleType) -> Iterator[Any]:
    """A running Postfix (SMTP) + Dovecot (IMAP, LMTP) pair for the session.

    Accounts: judge, gm, alice, bob, player1..player40 @example.test, password MAIL_PASSWORD.
    """
    problem = mailservers_module.missing_requirements()
    if problem:
        _skip_or_fail(problem)
    servers = mailservers_module.create({u: MAIL_PASSWORD for u in MAIL_USERS})
    try:
        servers.start()
    except Exception:
        servers.stop(drain_seconds=0)
        raise
    yield servers
    servers.stop(drain_seconds=0)  # the session is over: nobody reads what is still queued
    shutil.rmtree(servers.directory, ignore_errors=True)


def poll_until(predicate: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
    """Poll `predicate` until it returns something true (which is returned) or time runs out.

    A bounded wait for a condition, never a fixed sleep: fast machines pass at once, slow ones
    get the whole budget, and a failure says what was awaited.
    """
    deadline = time.monotonic() + timeout
    delay = 0.02
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(delay)
        delay = min(delay * 1.5, 0.25)


@dataclass(frozen=True)
class MailAccount:
    """One account on the private servers, with the small helpers tests need."""

    address: str
    password: str
    servers: Any

    def imap(self) -> Any:
        """A logged-in IMAPClient (use as a context manager)."""
        from imapclient import IMAPClient

        client = IMAPClient("127.0.0.1", port=self.servers.imap_port, ssl=False, timeout=30)
        client.login(self.address, self.password)
        return client

    def messages(self, folder: str = "INBOX") -> dict[int, bytes]:
        """Every mail in a folder as raw bytes by UID (read with PEEK: flags stay as they were)."""
        with self.imap() as client:
            if not client.folder_exists(folder):
                return {}
            client.select_folder(folder, readonly=True)
            uids = client.search(["ALL"])
            if not uids:
                return {}
            return {u: d[b"BODY[]"] for u, d in client.fetch(uids, ["BODY.PEEK[]"]).items()}

    def count(self, folder: str = "INBOX") -> int:
        """How many mails a folder holds (a fresh connection, so never a stale view)."""
        with self.imap() as client:
            if not client.folder_exists(folder):
                return 0
            return int(client.folder_status(folder, [b"MESSAGES"])[b"MESSAGES"])

    def send(self, recipients: list[str], raw: bytes) -> None:
        """Submit one raw mail from this account to the private Postfix over SMTP."""
        with smtplib.SMTP("127.0.0.1", self.servers.smtp_port, timeout=30) as smtp:
            smtp.sendmail(self.address, recipients, raw)


@pytest.fixture
def wait_until() -> Callable[..., Any]:
    """poll_until: wait, bounded, for a condition (tests take it as a fixture)."""
    return poll_until


def _unused_account(servers: Any) -> MailAccount:
    try:
        user = next(_unused_boxes)
    except StopIteration:
        pytest.fail("the pool of spare mail accounts is used up; raise BOXES in tests/conftest.py")
    return MailAccount(f"{user}@{servers.domain}", MAIL_PASSWORD, servers)


@pytest.fixture
def mail_account(mail_servers: Any) -> MailAccount:
    """An account no other test of this session has touched."""
    return _unused_account(mail_servers)


@pytest.fixture
def new_account(mail_servers: Any) -> Callable[[], MailAccount]:
    """Hands out further untouched accounts, one per call."""
    return lambda: _unused_account(mail_servers)


@pytest.fixture
def make_account(mail_servers: Any) -> Callable[[str], MailAccount]:
    """Accounts by name (judge, gm, alice, bob, playerN) on the session's servers."""

    def make(user: str) -> MailAccount:
        return MailAccount(mail_servers.address(user), MAIL_PASSWORD, mail_servers)

    return make


class PostgresCluster:
    """A cluster started by deploy/postgres.sh; `new_database()` hands out fresh empty databases."""

    def __init__(self) -> None:
        # Short and under /tmp: the server's Unix socket lives in this directory.
        self.directory = Path(tempfile.mkdtemp(prefix="jpg", dir="/tmp"))
        self.port = 0
        self._counter = itertools.count(1)
        self.admin: Engine | None = None

    def start(self) -> None:
        result = subprocess.run(
            [str(DEPLOY / "postgres.sh"), "start", "--fast", str(self.directory)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        if result.returncode != 0:
            raise RuntimeError(f"deploy/postgres.sh start failed: {result.stderr}")
        values = dict(line.split("=", 1) for line in result.stdout.split() if "=" in line)
        self.port = int(values["PG_PORT"])
        self.admin = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        assert self.admin is not None
        name = f"judge_e2e_{os.getpid()}_{next(self._counter)}"
        with self.admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
        return self.url(name)

    def stop(self) -> None:
        if self.admin is not None:
            self.admin.dispose()
        subprocess.run(
            [str(DEPLOY / "postgres.sh"), "stop", str(self.directory)],
            capture_output=True,
            check=False,
            timeout=120,
        )
        shutil.rmtree(self.directory, ignore_errors=True)


def _postgres_available() -> str | None:
    if shutil.which("pg_ctl") or list(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl")):
        return None
    return "PostgreSQL binaries not installed (deploy/install-test-packages.sh)"


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[PostgresCluster]:
    """One PostgreSQL cluster for the session (fsync off: the server itself is never crashed)."""
    problem = _postgres_available()
    if problem:
        _skip_or_fail(problem)
    cluster = PostgresCluster()
    try:
        cluster.start()
    except Exception as error:
        cluster.stop()
        _skip_or_fail(str(error))
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database on each backend: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'judge.sqlite3'}"
    cluster: PostgresCluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_database()
