"""The IMAP poller: takes mail from a mailbox folder into the inbox, acknowledging only after commit.

One cycle: SELECT the folder, compare UIDVALIDITY with the one stored, FETCH `BODY.PEEK[]` of every
UID above the last one stored (so the server never marks a mail read on our behalf), store the raw
bytes and the new last UID in one transaction, and only after that commit flag the mails \\Seen and
move them to the processed folder. A crash anywhere leaves either a mail not yet stored (fetched
again next time) or one stored but not moved (moved next time without fetching); re-delivery of the
same mail is ignored by the inbox. Between cycles the poller waits in IDLE where the server has it,
else it polls; after a dropped connection it reconnects after 1 s, doubling up to a ceiling
([imap] reconnect_max_seconds). The password goes only over TLS (IMAPS or STARTTLS), or in clear
to a server on loopback where the operator allowed it (judge.mail.credentials). The log says what
the connection does: connected (with the server's greeting), waiting in IDLE or polling,
reconnecting, recovered.
"""

from __future__ import annotations

import contextlib
import logging
import re
import socket
import ssl as ssl_module
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Any

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError
from sqlalchemy import Engine
from sqlalchemy.exc import OperationalError

from judge.mail.credentials import clear_login_refusal, trusting
from judge.store.db import session_scope
from judge.store.imap_state import read_state, record
from judge.store.inbox import accept

log = logging.getLogger(__name__)

# IMAP servers may end an IDLE after 30 minutes (RFC 2177): renew it well before.
IDLE_RENEW_SECONDS = 9 * 60
# How often a waiting IDLE or poll checks whether it was asked to stop.
STOP_CHECK_SECONDS = 1.0
# A batch of fetched mails is stored in one transaction; bounded by count and by size.
BATCH_COUNT = 50
BATCH_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class ImapSettings:
    """How to reach one mailbox and where to put mail once it is stored."""

    host: str
    port: int
    username: str
    password: str
    folder: str = "INBOX"
    processed_folder: str = "Processed"
    use_ssl: bool = False
    starttls: str = "auto"  # without use_ssl: "auto" where offered, "always" or refuse, "never"
    login_without_tls: bool = False  # only ever for a server on loopback
    idle: bool = True
    poll_seconds: float = 30.0
    timeout_seconds: float = 60.0
    backoff_initial: float = 1.0
    backoff_max: float = 10.0
    tls_context: ssl_module.SSLContext | None = None

    @classmethod
    def from_section(cls, section: Any) -> ImapSettings:
        """Settings from the [imap] section of the judge's configuration (judge.config)."""
        return cls(
            host=section.host,
            port=int(section.port),
            username=section.username,
            password=section.password,
            folder=section.folder,
            processed_folder=section.processed_folder,
            use_ssl=bool(section.ssl),
            starttls=str(section.starttls),
            login_without_tls=bool(section.login_without_tls),
            tls_context=trusting(section.ca_file),
            idle=bool(section.idle),
            poll_seconds=float(section.poll_seconds),
            backoff_max=float(section.reconnect_max_seconds),
        )

    @property
    def mailbox_key(self) -> str:
        """The key of this folder's state row: account, server and folder."""
        return f"imap://{self.username}@{self.host}:{self.port}/{self.folder}"


@dataclass(frozen=True)
class SyncResult:
    """What one cycle did: mails newly stored, mails already stored, mails moved out."""

    stored: int
    duplicates: int
    moved: int


class LoginRefused(Exception):
    """The judge will not log in on this connection (no TLS where it needs TLS): say why, retry."""


# Anything that means the connection, the server or the database is gone: reconnect, carry on.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    LoginRefused,
    OperationalError,
    OSError,
    socket.timeout,
    ssl_module.SSLError,
    IMAPClientError,
    EOFError,
)


def envelope_of(raw: bytes) -> tuple[str | None, str | None]:
    """(envelope sender, envelope recipient) as the delivering server recorded them.

    Dovecot's LMTP writes `Return-Path` and `Delivered-To` (with the +token of a plus-address)
    at the top of the stored copy; the first of each is the one that server added.
    """
    try:
        headers = BytesHeaderParser(policy=compat32).parsebytes(raw, headersonly=True)
        sender = headers.get("Return-Path")
        recipient = headers.get("Delivered-To")
    except Exception:  # a header block too broken to read has no trustworthy envelope
        return None, None

    def clean(value: Any) -> str | None:
        if value is None:
            return None
        text = str(value).strip().strip("<>").strip()
        return text[:998] or None

    return clean(sender), clean(recipient)


def batches(
    uids: Sequence[int], sizes: dict[int, int], count: int, limit: int
) -> Iterable[list[int]]:
    """Split UIDs into fetch batches of at most `count` mails and about `limit` bytes."""
    batch: list[int] = []
    total = 0
    for uid in uids:
        size = sizes.get(uid, 0)
        if batch and (len(batch) >= count or total + size > limit):
            yield batch
            batch, total = [], 0
        batch.append(uid)
        total += size
    if batch:
        yield batch


class ImapPoller:
    """Moves mail from one IMAP folder into the inbox; `run()` loops until `stop()` is called."""

    def __init__(
        self,
        engine: Engine,
        settings: ImapSettings,
        *,
        on_stored: Callable[[list[int]], None] | None = None,
        client_factory: Callable[[ImapSettings], IMAPClient] | None = None,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.on_stored = on_stored
        self._client_factory = client_factory or _connect
        self._client: IMAPClient | None = None
        self._stopping = threading.Event()
        self._waiting_said = False  # whether this connection's way of waiting was logged
        self.connects = 0  # successful logins, for monitoring and tests
        self.failures = 0  # cycles cut short by a lost server, connection or database

    # --- public -------------------------------------------------------------------------------
    def stop(self) -> None:
        """Ask `run()` to return at its next check (within about a second)."""
        self._stopping.set()

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def run(self) -> None:
        """Sync, wait for news (IDLE or poll), sync again; reconnect with backoff after drops."""
        backoff = self.settings.backoff_initial
        down_since: float | None = None  # when the first of the failures in a row happened
        failed = 0
        while not self.stopping:
            try:
                self.sync_once()
                if down_since is not None:
                    log.info(
                        "IMAP %s: recovered after %.0f s and %d failed attempts",
                        self._where(),
                        time.monotonic() - down_since,
                        failed,
                    )
                    down_since, failed = None, 0
                backoff = self.settings.backoff_initial
                self._wait_for_news()
            except CONNECTION_ERRORS as error:
                self.failures += 1
                failed += 1
                if down_since is None:
                    down_since = time.monotonic()
                log.warning("IMAP %s: %s; reconnecting in %.1f s", self._where(), error, backoff)
                self._drop()
                if self._stopping.wait(backoff):
                    break
                backoff = min(backoff * 2, self.settings.backoff_max)
        self._drop()

    def sync_once(self) -> SyncResult:
        """One cycle over the folder: store what is new, then flag and move what is stored."""
        client = self._connection()
        selected = client.select_folder(self.settings.folder)
        uidvalidity = int(selected[b"UIDVALIDITY"])
        key = self.settings.mailbox_key
        with session_scope(self.engine) as session:
            known = read_state(session, key)
        last_uid = known[1] if known is not None and known[0] == uidvalidity else 0
        if known is not None and known[0] != uidvalidity:
            log.warning("IMAP %s: UIDVALIDITY changed, rescanning the folder", key)

        present = sorted(int(u) for u in client.search(["UNDELETED"]))
        stored_before = [u for u in present if u <= last_uid]
        fresh = [u for u in present if u > last_uid]
        stored = duplicates = 0
        moved = self._acknowledge(client, stored_before)
        if fresh:
            sizes = {
                int(uid): int(data.get(b"RFC822.SIZE", 0))
                for uid, data in client.fetch(fresh, ["RFC822.SIZE"]).items()
            }
            for batch in batches(fresh, sizes, BATCH_COUNT, BATCH_BYTES):
                new_ids, dupes = self._store_batch(client, batch, uidvalidity)
                stored += len(new_ids)
                duplicates += dupes
                if new_ids and self.on_stored is not None:
                    self.on_stored(new_ids)
                moved += self._acknowledge(client, batch)
        return SyncResult(stored=stored, duplicates=duplicates, moved=moved)

    # --- steps --------------------------------------------------------------------------------
    def _store_batch(
        self, client: IMAPClient, uids: list[int], uidvalidity: int
    ) -> tuple[list[int], int]:
        """Fetch one batch and commit it with the new last UID; nothing is acknowledged yet."""
        fetched = client.fetch(uids, ["BODY.PEEK[]"])
        new_ids: list[int] = []
        duplicates = 0
        with session_scope(self.engine) as session:
            for uid in uids:
                data = fetched.get(uid)
                raw = None if data is None else data.get(b"BODY[]")
                if raw is None:
                    # Expunged by someone else between SEARCH and FETCH: nothing to store.
                    continue
                sender, recipient = envelope_of(raw)
                row_id, is_new = accept(
                    session, raw, source="imap", envelope_to=recipient, envelope_from=sender
                )
                if is_new:
                    new_ids.append(row_id)
                else:
                    duplicates += 1
            record(session, self.settings.mailbox_key, uidvalidity, max(uids))
        return new_ids, duplicates

    def _acknowledge(self, client: IMAPClient, uids: list[int]) -> int:
        """Flag stored mails \\Seen and move them to the processed folder."""
        if not uids:
            return 0
        client.add_flags(uids, [b"\\Seen"], silent=True)
        if client.has_capability("MOVE"):
            client.move(uids, self.settings.processed_folder)
        else:
            client.copy(uids, self.settings.processed_folder)
            client.delete_messages(uids, silent=True)
            if client.has_capability("UIDPLUS"):
                client.uid_expunge(uids)
            else:
                client.expunge()
        return len(uids)

    def _wait_for_news(self) -> None:
        """Return when the folder may hold new mail, when IDLE needs renewing, or on stop."""
        client = self._connection()
        if not (self.settings.idle and client.has_capability("IDLE")):
            if not self._waiting_said:
                self._waiting_said = True
                log.info(
                    "IMAP %s: polling every %.0f s (%s)",
                    self._where(),
                    self.settings.poll_seconds,
                    "the server has no IDLE" if self.settings.idle else "idle = false",
                )
            self._stopping.wait(self.settings.poll_seconds)
            return
        # IDLE announces only mail that arrives after it starts, and SEARCH answers from the
        # session's view as of its last refresh: refresh it (NOOP), look once more, then wait.
        # The instant between that look and IDLE is covered by never idling longer than a poll.
        client.noop()
        if client.search(["UNDELETED"]):
            return
        client.idle()
        if not self._waiting_said:
            self._waiting_said = True
            log.info("IMAP %s: IDLE in use, waiting for new mail", self._where())
        try:
            waited = 0.0
            limit = min(IDLE_RENEW_SECONDS, self.settings.poll_seconds)
            while not self.stopping and waited < limit:
                # Never past the poll: a server that announces mail late (Dovecot waits half a
                # second after a change) is still looked at every poll_seconds.
                step = min(STOP_CHECK_SECONDS, limit - waited)
                responses = client.idle_check(timeout=step)
                if any(_is_news(r) for r in responses):
                    return
                waited += step
        finally:
            client.idle_done()

    # --- connection ---------------------------------------------------------------------------
    def _connection(self) -> IMAPClient:
        if self._client is None:
            client = self._client_factory(self.settings)
            try:
                tls = self._secure(client)
                client.login(self.settings.username, self.settings.password)
                if not client.folder_exists(self.settings.processed_folder):
                    with contextlib.suppress(IMAPClientError):
                        client.create_folder(self.settings.processed_folder)
            except BaseException:
                with contextlib.suppress(Exception):
                    client.shutdown()
                raise
            self._client = client
            self._waiting_said = False
            self.connects += 1
            log.info(
                "IMAP %s (%s): connected, %s, logged in",
                self._where(),
                _greeting(client),
                tls,
            )
        return self._client

    def _secure(self, client: IMAPClient) -> str:
        """STARTTLS as configured; refuse a login in clear unless allowed (on loopback only).
        Returns how the connection is protected, for the log."""
        s = self.settings
        sock = client.socket()
        if s.use_ssl:
            return f"TLS {_tls_version(sock)}".strip()
        if s.starttls != "never":
            if client.has_capability("STARTTLS"):
                client.starttls(s.tls_context or ssl_module.create_default_context())
                return f"STARTTLS {_tls_version(client.socket())}".strip()
            if s.starttls == "always":
                raise LoginRefused('no STARTTLS offered, which [imap] starttls = "always" requires')
        because = 'starttls = "never"' if s.starttls == "never" else "it offers no STARTTLS"
        refusal = clear_login_refusal(
            str(sock.getpeername()[0]),
            allowed=s.login_without_tls,
            section="imap",
            unencrypted_because=because,
        )
        if refusal is not None:
            raise LoginRefused(refusal)
        return "no TLS (login in clear allowed on loopback)"

    def _drop(self) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        with contextlib.suppress(Exception):
            client.logout()
        with contextlib.suppress(Exception):
            client.shutdown()

    def _where(self) -> str:
        return f"{self.settings.username}@{self.settings.host}:{self.settings.port}"


def _connect(settings: ImapSettings) -> IMAPClient:
    """A fresh connection (login comes after, in the poller)."""
    return IMAPClient(
        settings.host,
        port=settings.port,
        ssl=settings.use_ssl,
        ssl_context=settings.tls_context,
        timeout=settings.timeout_seconds,
    )


def _tls_version(sock: Any) -> str:
    return str(sock.version() or "") if isinstance(sock, ssl_module.SSLSocket) else ""


_CAPABILITY_CODE = re.compile(rb"\[[^\]]*\]\s*")


def _greeting(client: IMAPClient) -> str:
    """The server's greeting without its capability list, e.g. "Dovecot (Debian) ready."."""
    welcome = getattr(client, "welcome", b"") or b""
    if isinstance(welcome, str):
        welcome = welcome.encode()
    text = _CAPABILITY_CODE.sub(b"", welcome.removeprefix(b"* ").removeprefix(b"OK ")).strip()
    return text.decode("utf-8", "replace")[:200] or "no greeting"


def _is_news(response: Any) -> bool:
    """Whether an untagged IDLE response announces new mail (removals by others do not count)."""
    if isinstance(response, tuple) and len(response) >= 2:
        kind = response[1]
        return kind in (b"EXISTS", b"RECENT")
    return False
