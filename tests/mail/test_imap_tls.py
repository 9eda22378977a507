"""The IMAP poller over STARTTLS to a real Dovecot that has a certificate: `[imap] starttls`
upgrades the connection before the login, and the log says so."""

from __future__ import annotations

import logging
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from imapclient import IMAPClient
from sqlalchemy import Engine, select

from judge.mail.imap_inbound import ImapPoller, ImapSettings
from judge.store.db import make_engine, session_scope, upgrade
from judge.store.models import InboxMessage

pytestmark = pytest.mark.e2e

PASSWORD = "pw-tls"


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("imap-tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return key, cert


@pytest.fixture
def tls_dovecot(mailservers_module: Any, certificate: tuple[Path, Path]) -> Iterator[Any]:
    """A Dovecot of its own (the session's has no TLS) offering STARTTLS with the certificate."""
    problem = mailservers_module.missing_requirements()
    if problem:
        pytest.skip(problem)
    key, cert = certificate
    servers = mailservers_module.create({"judge": PASSWORD}, "tls.test")
    servers.dovecot_settings = {"ssl": "required", "ssl_cert": f"<{cert}", "ssl_key": f"<{key}"}
    servers.write_config()
    try:
        servers.start_dovecot()
        yield servers
    finally:
        servers.stop_dovecot()
        shutil.rmtree(servers.directory, ignore_errors=True)


def test_the_poller_logs_in_after_starttls(
    tls_dovecot: Any,
    certificate: tuple[Path, Path],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    _, cert = certificate
    trusted = ssl.create_default_context(cafile=str(cert))
    address = tls_dovecot.address("judge")
    message = EmailMessage()
    message["From"] = "alice@tls.test"
    message["To"] = address
    message["Subject"] = "orders"
    message["Message-ID"] = "<tls-1@tls.test>"
    message.set_content("HELP\n")
    with IMAPClient("127.0.0.1", port=tls_dovecot.imap_port, ssl=False, timeout=10) as client:
        client.starttls(trusted)
        client.login(address, PASSWORD)
        client.append("INBOX", bytes(message))

    engine: Engine = make_engine(f"sqlite:///{tmp_path / 'judge.sqlite3'}")
    upgrade(engine)
    settings = ImapSettings(
        host="127.0.0.1", port=tls_dovecot.imap_port, username=address, password=PASSWORD,
        starttls="always", tls_context=trusted,
    )  # fmt: skip
    caplog.set_level(logging.INFO, logger="judge.mail.imap_inbound")
    poller = ImapPoller(engine, settings)
    try:
        result = poller.sync_once()
        assert poller._client is not None
        sock = poller._client.socket()
        assert isinstance(sock, ssl.SSLSocket) and sock.version() is not None
    finally:
        poller._drop()
    assert result.stored == 1
    with session_scope(engine) as session:
        assert session.scalars(select(InboxMessage.message_id)).all() == ["tls-1@tls.test"]
    engine.dispose()
    connected = [
        r.getMessage() for r in caplog.records if ": connected, STARTTLS TLSv1" in r.getMessage()
    ]
    assert len(connected) == 1 and "Dovecot" in connected[0], connected
