"""`judge serve`: the four runners (inbound, processor, scheduler, sender) as loops over durable
rows, all in one process for the embedded default or one role per process (`--only`) for setups
where several processes share one PostgreSQL.

Every loop is safe to kill at any instant: what it had not committed is done again by the next run.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, delete
from sqlalchemy.engine import make_url

from judge.clock import now
from judge.config import Config
from judge.mail.outbound import RetryPolicy, Sender, transport_for
from judge.pictures.step import render_pending
from judge.processor import Processor, ProcessorSettings
from judge.scheduler import Round, run_round
from judge.store.db import is_sqlite, make_engine, session_scope, upgrade
from judge.store.inbox import release_claims
from judge.store.models import OutboxMessage, OutboxState, ReplyCount
from judge.store.outbox import Identity

log = logging.getLogger("judge.serve")

ROLES = ("inbound", "processor", "scheduler", "sender")

# Wait after an unexpected error in a loop (database gone, disk full) before trying again.
ERROR_PAUSE_SECONDS = 5.0

# The relay connection is closed once nothing was sent for this long, not at every pause, since
# opening it again costs more round trips than a mail; relays keep idle clients for minutes.
RELAY_IDLE_SECONDS = 2.0
# A processed mail makes the scheduler look again, but no more often than this (seconds).
SCHEDULER_WAKE_SECONDS = 2.0
# How long the start waits for the wake-up listener's LISTEN before the loops start polling.
WAKEUPS_READY_SECONDS = 10.0


def parse_roles(values: Iterable[str] | None) -> tuple[str, ...]:
    """Roles from `--only` values (repeatable, comma-separated); all roles when none are given."""
    chosen: list[str] = []
    for value in values or ():
        for role in value.split(","):
            role = role.strip().lower()
            if not role:
                continue
            if role not in ROLES:
                raise ValueError(f"unknown role {role!r}; the roles are {', '.join(ROLES)}")
            if role not in chosen:
                chosen.append(role)
    return tuple(chosen) or ROLES


class ServeError(RuntimeError):
    """The daemon cannot start as configured (a port in use, a store out of reach)."""


class Loop(threading.Thread):
    """Runs `step` while it finds work; when idle, sleeps up to `idle_seconds` or until woken."""

    def __init__(
        self,
        name: str,
        step: Callable[[], bool],
        idle_seconds: float,
        stop: threading.Event,
        on_exit: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(name=f"judge-{name}", daemon=True)
        self.step = step
        self.idle_seconds = idle_seconds
        self.stopping = stop
        self.on_exit = on_exit
        self.wakeup = threading.Event()

    def wake(self, *_: Any) -> None:
        """Look for work now (a new row was committed)."""
        self.wakeup.set()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                busy = self.step()
            except Exception:
                log.exception(
                    "%s: unexpected error; trying again in %.0f s", self.name, ERROR_PAUSE_SECONDS
                )
                self.stopping.wait(ERROR_PAUSE_SECONDS)
                continue
            if busy:
                continue
            self.wakeup.wait(self.idle_seconds)
            self.wakeup.clear()
        if self.on_exit is not None:
            try:
                self.on_exit()
            except Exception:  # the claim it gives back would otherwise expire by its lease
                log.exception("%s: could not finish cleanly", self.name)

    def stop(self) -> None:
        self.wakeup.set()


def housekeeping(engine: Engine, config: Config) -> bool:
    """The scheduler's chores beside the games: forget old daily reply counts."""
    cutoff = now().date() - timedelta(days=config.scheduler.keep_reply_counts_days)
    with session_scope(engine) as session:
        session.execute(delete(ReplyCount).where(ReplyCount.day < cutoff))
    return False


def schedule(engine: Engine, config: Config) -> bool:
    """One round of the scheduler: the chores, then every running game's deadline business
    (judge.scheduler). True when a game was acted on, so the loop looks again at once."""
    return bool(schedule_round(engine, config).done)


def schedule_round(engine: Engine, config: Config) -> Round:
    """`schedule`, also saying when anything next falls due (the loop sleeps until then)."""
    housekeeping(engine, config)
    identity = Identity(config.judge.address, config.judge.name)
    return run_round(engine, identity, keeper=config.judge.keeper)


def scheduler_sleep(next_check: datetime | None, at: datetime, cap: float) -> float:
    """Seconds the scheduler may sleep: until the earliest moment anything falls due by time
    (a reminder, a deadline, the end of a delay or of grace), never more than `cap` (the
    configured `scheduler.poll_seconds`), since a mail that completes the last orders of a
    phase makes early processing due without the scheduler being told, and a game another
    process held is looked at again only on the next round. Never less than a tenth of a
    second, so a moment just past does not spin the loop."""
    if next_check is None:
        return cap
    return max(0.1, min(cap, (next_check - at).total_seconds()))


class SchedulerLoop(Loop):
    """The scheduler's loop: after a round with nothing done it sleeps until the next moment
    anything is due (`scheduler_sleep`) instead of a fixed poll."""

    def __init__(
        self, engine: Engine, config: Config, stop: threading.Event, on_acted: Callable[[], None]
    ) -> None:
        self.next_check: datetime | None = None
        self.cap = config.scheduler.poll_seconds
        self.asked_soon = False
        self.last_round = -SCHEDULER_WAKE_SECONDS

        def step() -> bool:
            if self.asked_soon:
                # Asked by a processed mail: no sooner than SCHEDULER_WAKE_SECONDS after the
                # round before, but never dropped, since that mail may be the one that counts.
                self.asked_soon = False
                rest = self.last_round + SCHEDULER_WAKE_SECONDS - time.monotonic()
                if rest > 0 and stop.wait(rest):
                    return False
            self.last_round = time.monotonic()
            round_ = schedule_round(engine, config)
            self.next_check = round_.next_check
            if round_.done:
                on_acted()
            return bool(round_.done)

        super().__init__("scheduler", step, config.scheduler.poll_seconds, stop)

    def wake_soon(self, *_: Any) -> None:
        """A mail was processed: it may have completed a phase's orders (early processing) or
        moved a deadline, so look soon rather than at the next poll, but at most every
        SCHEDULER_WAKE_SECONDS, as a round per mail slows a burst of mail."""
        self.asked_soon = True
        self.wake()

    @property  # type: ignore[override]
    def idle_seconds(self) -> float:
        return scheduler_sleep(self.next_check, now(), self.cap)

    @idle_seconds.setter
    def idle_seconds(self, value: float) -> None:
        self.cap = value


def describe(config: Config, roles: tuple[str, ...]) -> list[str]:
    """The first lines `judge serve` logs: where its configuration came from and what runs where."""
    lines = [f"configuration: {config.source}"]
    if config.source.startswith("built-in defaults"):
        lines[0] += " (no configuration file; this is the embedded default)"
    url = make_url(config.database_url)
    store = (
        "SQLite file " + str(url.database)
        if url.get_backend_name() == "sqlite"
        else url.render_as_string(hide_password=True)
    )
    lines.append(f"store: {store}")
    lines.append("roles: " + ", ".join(roles))
    if config.web.enabled:
        lines.append(f"web: read-only pages on http://{config.web.host}:{config.web.port}/")
    if "inbound" in roles:
        if config.smtp.enabled:
            kind = "LMTP" if config.smtp.lmtp else "SMTP"
            lines.append(
                f"inbound: {kind} listener on {config.smtp.host}:{config.smtp.port} for {', '.join(config.served)}"
            )
        if config.imap.host:
            lines.append(
                f"inbound: IMAP {config.imap.username}@{config.imap.host}:{config.imap.port} folder {config.imap.folder}"
            )
            if config.smtp.enabled:
                lines.append(
                    "inbound: the SMTP listener runs beside IMAP (an IMAP-only judge sets "
                    "[smtp] enabled = false; docs/DEPLOY.md)"
                )
        if not config.smtp.enabled and not config.imap.host:
            lines.append("inbound: nothing configured (SMTP listener disabled, no IMAP host)")
    if "sender" in roles:
        if config.relay.host:
            r = config.relay
            tls = "TLS" if r.ssl else f"STARTTLS {r.starttls}"
            login = f"login as {r.username}" if r.username else "no login"
            lines.append(f"outbound: relay {r.host}:{r.port} ({tls}, {login})")
        else:
            lines.append(
                f"outbound: no relay configured; outgoing mail is written to the Maildir {config.maildir_path}"
            )
    return lines


class Daemon:
    """The chosen roles of the judge in one process; `start()`, then `stop()` (or `run()`)."""

    def __init__(
        self, config: Config, roles: tuple[str, ...] = ROLES, engine: Engine | None = None
    ) -> None:
        self.config = config
        self.roles = roles
        self.engine = engine or make_engine(config.database_url)
        self.stopping = threading.Event()
        self.loops: dict[str, Loop] = {}
        self.listener: Any = None
        self.imap: Any = None
        self.imap_thread: threading.Thread | None = None
        self.wakeups: threading.Thread | None = None
        self.web: Any = None

    def start(self) -> None:
        for line in describe(self.config, self.roles):
            log.info("%s", line)
        upgrade(self.engine)
        if is_sqlite(self.engine):
            self._release_stale_claims()
        config = self.config
        if "processor" in self.roles:
            processor = Processor(self.engine, ProcessorSettings.from_config(config))

            def process() -> bool:
                done = processor.step() is not None
                if done:
                    self._wake_sending()
                scheduler = self.loops.get("scheduler")
                if done and isinstance(scheduler, SchedulerLoop):
                    scheduler.wake_soon()
                return done

            self.loops["processor"] = Loop(
                "processor",
                process,
                config.processor.poll_seconds,
                self.stopping,
                on_exit=processor.release,
            )
        if "sender" in self.roles:
            transport = transport_for(config)
            sender = Sender(self.engine, transport, RetryPolicy.from_config(config))
            last_sent = [time.monotonic()]

            def send() -> bool:
                if sender.step():
                    last_sent[0] = time.monotonic()
                    return True
                if time.monotonic() - last_sent[0] >= RELAY_IDLE_SECONDS:
                    transport.close()  # nothing due for a while: hold no relay connection
                return False

            self.loops["sender"] = Loop(
                "sender",
                send,
                config.outbound.poll_seconds,
                self.stopping,
                on_exit=sender.release,
            )
            self._transport = transport

            # The pictures the sender's mails wait for are drawn beside it, in a loop of their
            # own, so text mails go out while pictures are drawn (judge/pictures/step.py).
            def draw_pictures() -> bool:
                if render_pending(self.engine):
                    self.loops["sender"].wake()
                    return True
                return False

            self.loops["pictures"] = Loop(
                "pictures", draw_pictures, config.outbound.poll_seconds, self.stopping
            )
        if "scheduler" in self.roles:

            def wake_sender() -> None:
                self._wake_sending()

            self.loops["scheduler"] = SchedulerLoop(
                self.engine, config, self.stopping, on_acted=wake_sender
            )
        self._start_wakeups()
        for loop in self.loops.values():
            loop.start()
        if "inbound" in self.roles:
            self._start_inbound()
        if config.web.enabled:
            self._start_web()

    def _start_web(self) -> None:
        """The read-only pages (judge/web/), on their own reading engine and thread."""
        from judge.web.reading import reading_engine
        from judge.web.server import WebServer
        from judge.web.site import Site

        config = self.config
        site = Site(
            reading_engine(config.database_url),
            judge_name=config.judge.name,
            judge_address=config.judge.address,
            domain=config.domain,
        )
        server = WebServer(site, config.web.host, config.web.port)
        try:
            server.start()
        except Exception as error:
            raise ServeError(
                f"cannot serve the web pages on {config.web.host}:{config.web.port}: {error}"
            ) from error
        self.web = server

    def _wake_sending(self) -> None:
        """New outbox rows: the sender and the picture step look now."""
        for name in ("pictures", "sender"):
            if name in self.loops:
                self.loops[name].wake()

    def _start_wakeups(self) -> None:
        """On PostgreSQL, hear of rows other processes commit for this process's loops
        (judge.wakeups); LISTEN is in force before the loops' first look, so nothing committed
        in between goes unheard. A database out of reach leaves the loops polling."""
        if is_sqlite(self.engine) or not self.loops:
            return
        from judge.store import notify
        from judge.wakeups import WakeupListener

        wakes: dict[str, Callable[[], None]] = {}
        if "processor" in self.loops:
            wakes[notify.INBOX] = self.loops["processor"].wake
        if "sender" in self.loops:
            wakes[notify.OUTBOX] = self._wake_sending
        scheduler = self.loops.get("scheduler")
        if isinstance(scheduler, SchedulerLoop):
            wakes[notify.PROCESSED] = scheduler.wake_soon
        listener = WakeupListener(self.engine, wakes, self.stopping)
        listener.start()
        listener.listening.wait(WAKEUPS_READY_SECONDS)
        self.wakeups = listener

    def _release_stale_claims(self) -> None:
        """On SQLite one process per role is all there can be, so claims left at start are stale."""
        with session_scope(self.engine) as session:
            if "processor" in self.roles:
                freed = release_claims(session)
                if freed:
                    log.info("freed %d inbox claims left by a stopped processor", freed)
            if "sender" in self.roles:
                rows = session.query(OutboxMessage).filter(
                    OutboxMessage.state == OutboxState.PENDING,
                    OutboxMessage.claimed_until.is_not(None),
                )
                for row in rows:
                    row.claimed_until = None

    def _wake_processor(self, *_: Any) -> None:
        loop = self.loops.get("processor")
        if loop is not None:
            loop.wake()

    def _start_inbound(self) -> None:
        config = self.config
        if config.smtp.enabled:
            from judge.mail.smtp_listener import start_listener

            try:
                self.listener = start_listener(
                    self.engine,
                    config.serves,
                    host=config.smtp.host,
                    port=config.smtp.port,
                    lmtp=config.smtp.lmtp,
                    max_message_bytes=config.smtp.max_message_bytes,
                    on_stored=self._wake_processor,
                )
            except Exception as error:
                raise ServeError(
                    f"cannot listen on {config.smtp.host}:{config.smtp.port}: {error}"
                ) from error
        if config.imap.host:
            from judge.mail.imap_inbound import ImapPoller, ImapSettings

            self.imap = ImapPoller(
                self.engine, ImapSettings.from_section(config.imap), on_stored=self._wake_processor
            )
            self.imap_thread = threading.Thread(
                target=self.imap.run, name="judge-imap", daemon=True
            )
            self.imap_thread.start()

    def stop(self) -> None:
        """Stop taking mail first, then let the loops finish the row they are on."""
        if self.web is not None:
            self.web.stop()
            self.web.site.engine.dispose()
            self.web = None
        if self.listener is not None:
            self.listener.stop()
            self.listener = None
        if self.imap is not None:
            self.imap.stop()
            if self.imap_thread is not None:
                self.imap_thread.join(timeout=30)
            self.imap = None
        self.stopping.set()
        for loop in self.loops.values():
            loop.stop()
        for loop in self.loops.values():
            loop.join(timeout=60)
        if self.wakeups is not None:
            self.wakeups.join(timeout=10)
        transport = getattr(self, "_transport", None)
        if transport is not None:
            transport.close()
        self.engine.dispose()
        log.info("stopped")

    def run(self) -> None:
        """Start, run until SIGTERM or SIGINT, then stop cleanly."""
        done = threading.Event()

        def on_signal(signum: int, _frame: Any) -> None:
            log.info("signal %d: stopping", signum)
            done.set()

        previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            self.start()
            log.info("running")
            while not done.wait(1.0):
                pass
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
