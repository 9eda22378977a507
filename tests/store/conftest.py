"""Fixtures that run the store's tests on SQLite and on a real PostgreSQL started for the session.

The PostgreSQL server is Debian's (initdb in a temporary folder, loopback port, run as the
`postgres` user when the tests run as root, since PostgreSQL refuses root). Without the binaries
the PostgreSQL half is skipped, except under CI, where it must run.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from judge import clock
from judge.store import make_engine, upgrade


def _pg_bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One throwaway PostgreSQL cluster; `new_database()` hands out fresh empty databases."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="jpg"))
        self.data = self.root / "data"
        self.port = _free_port()
        self._counter = itertools.count(1)
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            os.chmod(self.root, 0o711)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.admin: Engine | None = None

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args],
            check=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=120,
        )

    def start(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )
        self.admin = create_engine(self.url("postgres"), isolation_level="AUTOCOMMIT")

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        assert self.admin is not None
        name = f"judge_test_{next(self._counter)}"
        with self.admin.connect() as connection:
            connection.execute(text(f"CREATE DATABASE {name}"))
        return self.url(name)

    def stop(self) -> None:
        if self.admin is not None:
            self.admin.dispose()
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL cluster for the whole test session (skipped where it cannot be had)."""
    bindir = _pg_bindir()
    if bindir is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL binaries are missing; CI must install postgresql")
        pytest.skip("PostgreSQL binaries not installed")
    server = PostgresServer(bindir)
    try:
        server.start()
    except (subprocess.CalledProcessError, KeyError) as error:
        detail = getattr(error, "stderr", b"") or b""
        shutil.rmtree(server.root, ignore_errors=True)
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL did not start: {error} {detail.decode(errors='replace')}")
        pytest.skip(f"PostgreSQL did not start: {error}")
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database URL on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'data' / 'judge.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_database()


@pytest.fixture
def engine(store_url: str) -> Iterator[Engine]:
    """An engine on a database brought up to the newest schema."""
    made = make_engine(store_url)
    upgrade(made)
    yield made
    made.dispose()


@pytest.fixture(autouse=True)
def _real_clock() -> Iterator[None]:
    """Every test starts and ends with the clock following real time."""
    clock.reset()
    yield
    clock.reset()
