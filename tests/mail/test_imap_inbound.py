"""The IMAP poller against a real Dovecot: stored before acknowledged, once, across crashes and drops."""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

import pytest
from imapclient import IMAPClient
from sqlalchemy import Engine, func, select

from judge.mail.imap_inbound import (
    ImapPoller,
    ImapSettings,
    LoginRefused,
    batches,
    envelope_of,
)
from judge.store.db import make_engine, session_scope, upgrade
from judge.store.imap_state import ImapFolderState
from judge.store.models import InboxMessage

pytestmark = pytest.mark.e2e


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    made = make_engine(database_url)
    upgrade(made)
    yield made
    made.dispose()


def _mail(sender: str, to: str, n: int, tag: str) -> bytes:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = f"orders {n}"
    message["Message-ID"] = f"<{tag}-{n}@example.test>"
    message.set_content(f"A Vie-Tri\nmail number {n}\n")
    return bytes(message)


def _settings(account: Any, **overrides: Any) -> ImapSettings:
    base = {
        "host": "127.0.0.1",
        "port": account.servers.imap_port,
        "username": account.address,
        "password": account.password,
        "backoff_initial": 0.1,
        "backoff_max": 0.5,
        "poll_seconds": 0.2,
        "login_without_tls": True,  # the test Dovecot has no TLS; it is on loopback
    }
    base.update(overrides)
    return ImapSettings(**base)


def _deliver(account: Any, count: int, tag: str, plus: str = "") -> list[bytes]:
    local, _, domain = account.address.partition("@")
    to = f"{local}+{plus}@{domain}" if plus else account.address
    sent = [_mail("alice@example.test", to, n, tag) for n in range(count)]
    for raw in sent:
        account.send([to], raw)
    return sent


def _inbox_rows(engine: Engine) -> list[InboxMessage]:
    with session_scope(engine) as session:
        return list(session.scalars(select(InboxMessage).order_by(InboxMessage.id)))


def _inbox_count(engine: Engine) -> int:
    with session_scope(engine) as session:
        return int(session.scalar(select(func.count()).select_from(InboxMessage)) or 0)


@contextmanager
def _running(poller: ImapPoller) -> Iterator[threading.Thread]:
    """The poller run in a thread of its own, stopped and its thread joined at the end."""
    thread = threading.Thread(target=poller.run, daemon=True)
    thread.start()
    try:
        yield thread
    finally:
        poller.stop()
        thread.join(timeout=10)


def test_stored_once_then_flagged_and_moved(
    engine: Engine, mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    _deliver(mail_account, 5, "once", plus="tok42")
    wait_until(lambda: mail_account.count() == 5, what="five mails delivered")
    poller = ImapPoller(engine, _settings(mail_account))
    result = poller.sync_once()
    poller._drop()

    assert (result.stored, result.duplicates, result.moved) == (5, 0, 5)
    rows = _inbox_rows(engine)
    assert sorted(r.message_id for r in rows) == sorted(f"once-{n}@example.test" for n in range(5))
    local, _, domain = mail_account.address.partition("@")
    assert {r.envelope_to for r in rows} == {f"{local}+tok42@{domain}"}
    assert {r.envelope_from for r in rows} == {mail_account.address}
    assert {r.source for r in rows} == {"imap"}
    assert mail_account.count("INBOX") == 0
    assert mail_account.count("Processed") == 5
    with mail_account.imap() as client:
        client.select_folder("Processed", readonly=True)
        flags = client.get_flags(client.search(["ALL"]))
    assert all(b"\\Seen" in f for f in flags.values())

    # A second cycle finds nothing new and stores nothing twice.
    again = ImapPoller(engine, _settings(mail_account)).sync_once()
    assert (again.stored, again.moved) == (0, 0)
    assert _inbox_count(engine) == 5


def test_crash_before_commit_leaves_mail_unread_and_it_is_stored_next_time(
    engine: Engine,
    mail_account: Any,
    wait_until: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _deliver(mail_account, 3, "precommit")
    wait_until(lambda: mail_account.count() == 3, what="three mails delivered")
    import judge.mail.imap_inbound as module

    def explode(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError("killed between fetch and commit")

    monkeypatch.setattr(module, "record", explode)
    with pytest.raises(RuntimeError):
        ImapPoller(engine, _settings(mail_account)).sync_once()
    monkeypatch.undo()

    assert _inbox_count(engine) == 0
    assert mail_account.count("INBOX") == 3
    with mail_account.imap() as client:
        client.select_folder("INBOX", readonly=True)
        assert client.search(["SEEN"]) == []  # BODY.PEEK[] left them unread

    result = ImapPoller(engine, _settings(mail_account)).sync_once()
    assert (result.stored, result.moved) == (3, 3)
    assert _inbox_count(engine) == 3


def test_crash_after_commit_moves_without_fetching_again(
    engine: Engine,
    mail_account: Any,
    wait_until: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _deliver(mail_account, 4, "postcommit")
    wait_until(lambda: mail_account.count() == 4, what="four mails delivered")

    def explode(self: ImapPoller, client: IMAPClient, uids: list[int]) -> int:
        if uids:
            raise ConnectionResetError("dropped after the commit, before the move")
        return 0

    monkeypatch.setattr(ImapPoller, "_acknowledge", explode)
    with pytest.raises(ConnectionResetError):
        ImapPoller(engine, _settings(mail_account)).sync_once()
    monkeypatch.undo()
    assert _inbox_count(engine) == 4
    assert mail_account.count("INBOX") == 4

    fetched: list[list[int]] = []
    original = ImapPoller._store_batch

    def spy(self: ImapPoller, client: IMAPClient, uids: list[int], validity: int) -> Any:
        fetched.append(uids)
        return original(self, client, uids, validity)

    monkeypatch.setattr(ImapPoller, "_store_batch", spy)
    result = ImapPoller(engine, _settings(mail_account)).sync_once()
    assert fetched == []
    assert (result.stored, result.duplicates, result.moved) == (0, 0, 4)
    assert mail_account.count("INBOX") == 0
    assert _inbox_count(engine) == 4


def test_changed_uidvalidity_rescans_and_dedupes(
    engine: Engine, mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    settings = _settings(mail_account)
    _deliver(mail_account, 2, "validity")
    wait_until(lambda: mail_account.count() == 2, what="two mails delivered")
    ImapPoller(engine, settings).sync_once()
    # The same two mails come back under a new UIDVALIDITY with low UIDs (a rebuilt mailbox).
    with mail_account.imap() as client:
        client.select_folder("Processed")
        client.copy(client.search(["ALL"]), "INBOX")
    with session_scope(engine) as session:
        row = session.get(ImapFolderState, settings.mailbox_key)
        assert row is not None
        row.uidvalidity += 1
        row.last_uid = 10**6
    result = ImapPoller(engine, settings).sync_once()
    assert (result.stored, result.duplicates, result.moved) == (0, 2, 2)
    assert _inbox_count(engine) == 2


def test_idle_wakes_the_poller_and_it_reconnects_after_a_drop(
    engine: Engine, mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    woken: list[int] = []
    poller = ImapPoller(engine, _settings(mail_account), on_stored=woken.extend)
    with _running(poller) as thread:
        wait_until(lambda: poller.connects == 1, what="the first connection")
        _deliver(mail_account, 2, "idle")
        wait_until(lambda: _inbox_count(engine) == 2, what="two mails stored through IDLE")
        assert len(woken) == 2

        # Cut the connection under the poller's feet; it must come back and keep working.
        assert poller._client is not None
        poller._client.socket().shutdown(2)
        wait_until(lambda: poller.connects >= 2, what="a reconnection")
        _deliver(mail_account, 1, "after-drop")
        wait_until(lambda: _inbox_count(engine) == 3, what="a mail stored after the drop")
    assert not thread.is_alive()
    assert mail_account.count("INBOX") == 0


def test_polls_where_the_server_has_no_idle(
    engine: Engine, mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    class NoIdle(IMAPClient):
        def has_capability(self, capability: str) -> bool:
            return capability.upper() != "IDLE" and super().has_capability(capability)

    def factory(settings: ImapSettings) -> IMAPClient:
        return NoIdle(settings.host, port=settings.port, ssl=False, timeout=10)

    poller = ImapPoller(engine, _settings(mail_account), client_factory=factory)
    with _running(poller) as thread:
        wait_until(lambda: poller.connects == 1, what="the first connection")
        _deliver(mail_account, 2, "poll")
        wait_until(lambda: _inbox_count(engine) == 2, what="two mails stored by polling")
    assert not thread.is_alive()


def test_envelope_is_read_from_the_delivery_headers() -> None:
    raw = (
        b"Return-Path: <alice@example.test>\r\nDelivered-To: judge+abc@example.test\r\n"
        b"Delivered-To: judge@example.test\r\nSubject: x\r\n\r\nbody\r\n"
    )
    assert envelope_of(raw) == ("alice@example.test", "judge+abc@example.test")
    assert envelope_of(b"\xff\xfe garbage without headers") == (None, None)


def test_batches_respect_count_and_size() -> None:
    sizes = {1: 10, 2: 10, 3: 100, 4: 10, 5: 10}
    assert list(batches([1, 2, 3, 4, 5], sizes, count=2, limit=1000)) == [[1, 2], [3, 4], [5]]
    assert list(batches([1, 2, 3, 4, 5], sizes, count=10, limit=50)) == [[1, 2], [3], [4, 5]]


def test_settings_come_from_the_imap_section_of_the_config() -> None:
    from judge.config import from_mapping

    config = from_mapping(
        {
            "imap": {
                "host": "mail.example.test",
                "port": 143,
                "ssl": False,
                "username": "j",
                "password": "p",
                "idle": False,
                "poll_seconds": 5,
                "starttls": "always",
                "login_without_tls": True,
                "reconnect_max_seconds": 4,
            }
        }
    )
    settings = ImapSettings.from_section(config.imap)
    assert (settings.host, settings.port, settings.use_ssl, settings.idle) == (
        "mail.example.test",
        143,
        False,
        False,
    )
    assert settings.poll_seconds == 5.0
    assert (settings.starttls, settings.login_without_tls) == ("always", True)
    assert (settings.backoff_initial, settings.backoff_max) == (1.0, 4.0)
    defaults = ImapSettings.from_section(from_mapping({}).imap)
    assert (defaults.starttls, defaults.login_without_tls, defaults.backoff_max) == (
        "auto",
        False,
        10.0,
    )
    assert settings.mailbox_key == "imap://j@mail.example.test:143/INBOX"


def test_keeps_retrying_while_the_imap_server_is_down_and_carries_on_when_it_is_back(
    engine: Engine,
    mail_account: Any,
    mail_servers: Any,
    wait_until: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="judge.mail.imap_inbound")
    poller = ImapPoller(engine, _settings(mail_account))
    with _running(poller) as thread:
        wait_until(lambda: poller.connects == 1, what="the first connection")
        mail_servers.stop_dovecot()
        try:
            # Its IMAP process may outlive Dovecot's master: cut the connection as well.
            assert poller._client is not None
            poller._client.socket().shutdown(2)
            # Postfix keeps the mail queued while Dovecot is away; the poller keeps trying.
            _deliver(mail_account, 2, "server-down")
            wait_until(lambda: poller.failures >= 5, what="reconnection attempts refused")
            assert thread.is_alive()
        finally:
            mail_servers.start_dovecot()
        wait_until(lambda: _inbox_count(engine) == 2, timeout=60, what="mail stored after restart")
        assert poller.connects == 2
    assert not thread.is_alive()
    # The log tells the story, with the server's name; no wait exceeds the ceiling (0.5 s).
    said = [r.getMessage() for r in caplog.records]
    where = f"IMAP {mail_account.address}@127.0.0.1:{mail_servers.imap_port}"
    connected = [m for m in said if m.startswith(where) and ": connected, " in m]
    assert len(connected) == 2 and all("Dovecot" in m and "ready" in m for m in connected)
    assert any(m == f"{where}: IDLE in use, waiting for new mail" for m in said)
    waits = [float(m.rsplit("reconnecting in ", 1)[1].split()[0]) for m in said
             if "reconnecting in" in m]  # fmt: skip
    assert waits[:5] == [0.1, 0.2, 0.4, 0.5, 0.5], waits
    assert any(m.startswith(f"{where}: recovered after ") for m in said)


def test_mail_landing_just_before_idle_starts_is_not_left_waiting(
    engine: Engine, mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    """Dovecot's IDLE announces only mail that arrives after it starts: the poller must not
    sleep through a mail that came in between its last look and the IDLE command."""
    delivered: list[bool] = []

    class LateMail(IMAPClient):
        def idle(self) -> Any:
            if not delivered:
                delivered.append(True)
                _deliver(mail_account, 1, "before-idle")
                wait_until(lambda: mail_account.count() == 1, what="the mail in the mailbox")
            return super().idle()

    def factory(settings: ImapSettings) -> IMAPClient:
        return LateMail(settings.host, port=settings.port, ssl=False, timeout=10)

    poller = ImapPoller(engine, _settings(mail_account, poll_seconds=1.0), client_factory=factory)
    with _running(poller) as thread:
        wait_until(lambda: _inbox_count(engine) == 1, timeout=20, what="the late mail stored")
    assert delivered and not thread.is_alive()


def test_idle_never_waits_past_a_poll(
    engine: Engine, mail_account: Any, wait_until: Callable[..., Any]
) -> None:
    """With IDLE in use the folder is still looked at every poll_seconds: each wait for the
    server's news is at most what is left of the poll (Dovecot announces a new mail half a
    second after it lands, so a short poll finds it sooner)."""
    timeouts: list[float] = []

    class Recording(IMAPClient):
        def idle_check(self, timeout: float | None = None) -> Any:
            timeouts.append(float(timeout or 0))
            return super().idle_check(timeout=timeout)

    def factory(settings: ImapSettings) -> IMAPClient:
        return Recording(settings.host, port=settings.port, ssl=False, timeout=10)

    poller = ImapPoller(engine, _settings(mail_account, poll_seconds=0.2), client_factory=factory)
    with _running(poller):
        wait_until(lambda: len(timeouts) >= 3, what="three waits in IDLE")
    assert timeouts and max(timeouts) <= 0.2 + 1e-9, timeouts


class LoginRecorder(IMAPClient):
    """An IMAPClient that notes every LOGIN it sends."""

    logins: list[str] = []

    def login(self, username: str, password: str) -> Any:
        LoginRecorder.logins.append(username)
        return super().login(username, password)


def _recording(settings: ImapSettings) -> IMAPClient:
    return LoginRecorder(settings.host, port=settings.port, ssl=False, timeout=10)


@pytest.mark.parametrize(
    ("starttls", "allowed", "reason"),
    [
        ("auto", False, "the password is never sent in clear"),
        ("never", False, 'not encrypted (starttls = "never")'),
        (
            "always",
            True,
            'no STARTTLS offered, which [imap] starttls = "always" requires',
        ),
    ],
)
def test_no_imap_login_in_clear_unless_allowed_for_loopback(
    engine: Engine,
    mail_account: Any,
    caplog: pytest.LogCaptureFixture,
    wait_until: Callable[..., Any],
    starttls: str,
    allowed: bool,
    reason: str,
) -> None:
    """The test Dovecot offers no TLS: with the default settings the poller will not log in,
    says why, and keeps trying (the mail stays on the server until the setting is right)."""
    LoginRecorder.logins = []
    settings = _settings(mail_account, starttls=starttls, login_without_tls=allowed)
    with pytest.raises(LoginRefused, match=re.escape(reason)):
        ImapPoller(engine, settings, client_factory=_recording).sync_once()
    poller = ImapPoller(engine, settings, client_factory=_recording)
    with _running(poller):
        wait_until(lambda: poller.failures >= 2, what="two refused attempts")
    assert LoginRecorder.logins == [] and poller.connects == 0
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(reason in m and "reconnecting in" in m for m in warnings), warnings
