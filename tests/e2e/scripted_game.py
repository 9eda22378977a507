"""Helpers for the scripted seven-player game over real Postfix and Dovecot (test_scripted_game).

Every account of the game (seven players, the GM, an observer, a forger, and a second address of
one player) gets a `Mailbox` that remembers every mail the account received. The script *takes*
the mails it expects from a mailbox (waiting, bounded, until they arrive) and checks them. What
every mail must be (from the judge, to that address alone, with its owner's Reply-To or none) is
checked as soon as it is fetched; at the end `ScriptedGame.check_every_mail` proves that nothing
arrived the script did not take, that every mail sent to the judge got exactly one answer
(`check_one_answer_each`), that no mail carries what belongs to another reader (reply token,
password, orders echo or reminder, a secret vote, partial press: `check_privacy`), and that the
game's mails thread to one root (`check_threading`).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import smtplib
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from email.utils import getaddresses
from pathlib import Path
from typing import Any

import pytest
from harness import JudgeProcess, judge_sections
from sqlalchemy import select

from judge.store.db import session_scope
from judge.store.games import Game
from judge.store.models import OutboxMessage

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
JUDGE_NAME = "Diplomacy Judge"  # judge.config's default name, in every results subject

_ident = itertools.count(1)


@dataclass(frozen=True)
class Received:
    """One mail as the reader's mailbox holds it, with the headers the checks need."""

    uid: int
    raw: bytes
    subject: str
    sender: str
    to: tuple[str, ...]
    reply_to: tuple[str, ...]
    in_reply_to: str
    references: tuple[str, ...]
    body: str
    list_unsubscribe: str = ""  # the header as sent: an observer's leave address (RFC 8058)
    message_id: str = ""

    @classmethod
    def parse(cls, uid: int, raw: bytes) -> Received:
        message = BytesParser(policy=default).parsebytes(raw)
        body = message.get_body(preferencelist=("plain",))
        return cls(
            uid=uid,
            raw=raw,
            # A fold right after "Subject:" (the judge folds long subjects so) leaves a blank.
            subject=str(message.get("Subject", "")).strip(),
            sender=_addresses(message.get_all("From", []))[0] if message.get("From") else "",
            to=tuple(_addresses(message.get_all("To", []))),
            reply_to=tuple(_addresses(message.get_all("Reply-To", []))),
            in_reply_to=str(message.get("In-Reply-To", "")).strip().strip("<>"),
            references=tuple(r.strip("<>") for r in str(message.get("References", "")).split()),
            body=str(body.get_content()) if body is not None else "",
            list_unsubscribe=" ".join(str(message.get("List-Unsubscribe", "")).split()),
            message_id=str(message.get("Message-ID", "")).strip(),
        )

    def text(self) -> str:
        """Everything a reader can see: the headers and the decoded text."""
        head = self.raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
        return head.decode(errors="replace") + "\n" + self.body


def _addresses(values: Iterable[Any]) -> list[str]:
    return [address.lower() for _, address in getaddresses([str(v) for v in values]) if address]


class Mailbox:
    """One account's mail, fetched incrementally over IMAP; `take` marks the mails the script
    expected, so whatever is left untaken at the end arrived without the script knowing why."""

    def __init__(
        self,
        name: str,
        account: Any,
        check: Callable[[Mailbox, Received], None],
        owner: str | None,
    ) -> None:
        self.name = name
        self.account = account
        self.address = str(account.address).lower()
        # Whose private mail this box may hold: a power's name, "GM", or None (the observer and
        # the forger, whose mail carries nobody's reply address).
        self.owner = owner
        self.mails: dict[int, Received] = {}
        self.taken: set[int] = set()
        self._check = check

    def refresh(self) -> None:
        """Fetch the mails that arrived since the last look (by UID; flags untouched)."""
        last = max(self.mails, default=0)
        with self.account.imap() as client:
            client.select_folder("INBOX", readonly=True)
            uids = [u for u in client.search(["UID", f"{last + 1}:*"]) if u > last]
            if not uids:
                return
            for uid, data in sorted(client.fetch(uids, ["BODY.PEEK[]"]).items()):
                mail = Received.parse(uid, data[b"BODY[]"])
                self._check(self, mail)
                self.mails[uid] = mail

    def untaken(self) -> list[Received]:
        return [m for uid, m in sorted(self.mails.items()) if uid not in self.taken]

    def find(self, match: Callable[[Received], bool]) -> list[Received]:
        return [m for m in self.untaken() if match(m)]


@dataclass
class Player:
    """A seat's holder: the power, the mailbox and the password."""

    power: str
    box: Mailbox
    password: str

    @property
    def address(self) -> str:
        return self.box.address

    reply_address: str = ""  # the seat's judge+TOKEN address, from the first mail carrying it


class ScriptedGame:
    """The game under test: the judge's process and address, and every reader's mailbox."""

    def __init__(
        self,
        judge: JudgeProcess,
        judge_address: str,
        game: str,
        *,
        gm: Any,
        gm_password: str,
        observer: Any,
        forger: Any,
        timeout: float = 90.0,
    ) -> None:
        self.judge = judge
        self.judge_address = judge_address
        self.game = game
        self.players: dict[str, Player] = {}
        # Each reader's reply address (judge+TOKEN) by owner, learnt from the first mail that
        # carries one: a seat's from signed_on, the GM's from game_created.
        self.reply_addresses: dict[str, str] = {}
        self.gm = self.mailbox("GM", gm, "GM")
        self.gm_password = gm_password
        self.observer = self.mailbox("observer", observer, None)
        # The forger sends mail that claims to be others; what comes back to its own address
        # (refusals) is checked like everyone's.
        self.forger = self.mailbox("forger", forger, None)
        self.extra: list[Mailbox] = []
        # Words only some readers' mailboxes may hold (a secret vote, partial press): the
        # words and the owners allowed to read them.
        self.private: list[tuple[str, frozenset[str]]] = []
        # The Message-ID of every mail the script sent the judge: each gets one answer.
        self.sent: list[str] = []
        self.timeout = timeout

    def keep_private(self, words: str, *owners: str) -> None:
        """`words` may appear in mail to `owners` only (checked at the end)."""
        self.private.append((words, frozenset(owners)))

    def mailbox(self, name: str, account: Any, owner: str | None) -> Mailbox:
        return Mailbox(name, account, self.check_on_arrival, owner)

    def add_player(self, power: str, account: Any, password: str) -> Player:
        player = Player(power, self.mailbox(power, account, power), password)
        self.players[power] = player
        return player

    def sign_on_everyone(
        self, powers: Sequence[str], make: Callable[[], Any], prefix: str, first_phase: str
    ) -> dict[str, Received]:
        """Each power's player signs on in turn (a new account and password each), and the game
        starts: the last SIGNON's one answer holds the start, every other reader (the GM and the
        observer too) is told in a mail of its own. Each player's start mail, by power."""
        for power in powers:
            player = self.add_player(power, make(), f"{prefix}-{power.lower()}-pw")
            ident = self.send(
                player.box.account,
                f"SIGNON {power} {self.game} {player.password}",
                subject="sign on",
            )
            signed = self.reply(player.box, ident, f"{power}'s signed_on", f"{self.game}: you play")
            assert player.reply_address and player.reply_address in signed.body
        last = self.players[powers[-1]]
        started = f"the game has started ({first_phase})"
        assert signed.subject == f"{self.game}: you play {last.power}; {started}", signed.subject
        told = self.take(
            {
                box: (lambda m: m.subject == f"{self.game}: {started}")
                for box in [*(p.box for p in self.players.values() if p is not last), self.gm]
                + [self.observer]
            },
            "game_started",
        )
        return {**{p.power: told[p.box] for p in self.players.values() if p is not last},
                last.power: signed}  # fmt: skip

    def add_second_address(self, power: str, account: Any) -> Mailbox:
        """Another address of a power's player, not on record: mail from it acts only with the
        password, and its answers go there (with a copy to the address of record)."""
        box = self.mailbox(f"{power} (away)", account, power)
        self.extra.append(box)
        return box

    @property
    def gm_reply_address(self) -> str:
        return self.reply_addresses.get("GM", "")

    # --- sending ----------------------------------------------------------------------------
    def send(
        self,
        account: Any,
        body: str,
        *,
        to: str | None = None,
        subject: str = "orders",
        from_header: str | None = None,
    ) -> str:
        """Mail `body` from `account` to the judge (or `to`); return the Message-ID.

        `from_header` puts another address in From: than the account's own (a forgery: the
        envelope and the submission are the forger's)."""
        recipient = to or self.judge_address
        ident = f"scripted-{next(_ident)}-{time.monotonic_ns()}@example.test"
        message = EmailMessage()
        message["From"] = from_header or account.address
        message["To"] = recipient
        message["Subject"] = subject
        message["Message-ID"] = f"<{ident}>"
        message.set_content(body + "\n")
        with smtplib.SMTP("127.0.0.1", account.servers.smtp_port, timeout=30) as smtp:
            smtp.sendmail(account.address, [recipient], bytes(message))
        self.sent.append(ident)
        return ident

    # --- waiting for mail -------------------------------------------------------------------
    def boxes(self) -> list[Mailbox]:
        """The game's readers: every player, the GM and the observer."""
        return [*(p.box for p in self.players.values()), self.gm, self.observer]

    def every_box(self) -> list[Mailbox]:
        """Every mailbox the script watches, the forger's and second addresses included."""
        return [*self.boxes(), self.forger, *self.extra]

    def take(
        self,
        wanted: dict[Mailbox, Callable[[Received], bool]],
        what: str,
        count: int = 1,
    ) -> dict[Mailbox, Received]:
        """Wait until each mailbox holds `count` untaken mails that match its test; take them.

        Returns the last taken mail of each box (count is almost always one). Fails with the
        judge's log and the mailboxes' untaken subjects when time runs out, and at once when the
        judge dies or holds a mail it failed on.
        """
        end = time.monotonic() + self.timeout
        missing = list(wanted)
        while True:
            self.judge.assert_alive()
            self.judge.no_held()
            for box in missing:
                box.refresh()  # only the boxes still waiting: each look is an IMAP login
            missing = [box for box in missing if len(box.find(wanted[box])) < count]
            if not missing:
                break
            if time.monotonic() > end:
                detail = "\n".join(
                    f"  {box.name}: untaken {[m.subject for m in box.untaken()]}" for box in missing
                )
                raise AssertionError(
                    f"timed out after {self.timeout} s waiting for {what} in "
                    f"{[b.name for b in missing]}:\n{detail}\n"
                    f"inbox {self.judge.inbox_states()} outbox {self.judge.outbox_states()}\n"
                    f"{self.judge.log_tail(3000)}"
                )
            time.sleep(0.05)
        got: dict[Mailbox, Received] = {}
        for box, match in wanted.items():
            for mail in box.find(match)[:count]:
                box.taken.add(mail.uid)
                got[box] = mail
        return got

    def reply(
        self, box: Mailbox, ident: str, what: str = "the judge's reply", subject: str = ""
    ) -> Received:
        """The judge's answer to the mail `ident` (threaded to it by In-Reply-To); `subject`
        picks one when the mail has several answers."""
        return self.take(
            {box: lambda m: m.in_reply_to == ident and m.subject.startswith(subject)}, what
        )[box]

    def settle(self) -> None:
        """Wait until the judge has read every mail sent to it and sent every mail it wrote."""
        end = time.monotonic() + self.timeout
        while True:
            self.judge.assert_alive()
            self.judge.no_held()
            inbox, outbox = self.judge.inbox_states(), self.judge.outbox_states()
            if inbox.get("new", 0) == 0 and outbox.get("pending", 0) == 0:
                return
            if time.monotonic() > end:
                raise AssertionError(f"the judge did not settle: {inbox} {outbox}")
            time.sleep(0.2)

    # --- the game's moves -------------------------------------------------------------------
    def orders(self, power: str, text: str, subject: str = "orders") -> Received:
        """A player's orders mailed to the seat's reply address; the judge's echo back."""
        player = self.players[power]
        ident = self.send(player.box.account, text, to=player.reply_address, subject=subject)
        return self.reply(
            player.box, ident, f"{power}'s orders echo", f"{self.game}: {power} orders for"
        )

    def orders_all(self, texts: dict[str, str], subject: str = "orders") -> dict[str, Received]:
        """Several players mail their orders at once (to their reply addresses); the echoes."""
        idents = {
            power: self.send(
                self.players[power].box.account,
                text,
                to=self.players[power].reply_address,
                subject=subject,
            )
            for power, text in texts.items()
        }
        wanted = {
            self.players[power].box: (lambda m, ident=ident: m.in_reply_to == ident)
            for power, ident in idents.items()
        }
        got = self.take(wanted, "the orders echoes")
        for box, mail in got.items():
            assert mail.subject.startswith(f"{self.game}: {box.name} orders for "), mail.subject
            assert "\n0 of " in mail.body, mail.body  # every line read without an error
        return {box.name: mail for box, mail in got.items()}

    def gm_mail(self, commands: str, *, by_token: bool = False) -> str:
        """The GM mails commands after a SIGNON with the GM password, or with no password to
        the GM's reply address (`by_token`); returns the Message-ID."""
        if by_token:
            return self.send(self.gm.account, commands, to=self.gm_reply_address, subject="gm")
        return self.send(
            self.gm.account, f"SIGNON M {self.game} {self.gm_password}\n{commands}", subject="gm"
        )

    def observe(self) -> Received:
        """The observer asks to observe the game and confirms by replying to the token address
        the judge mails; returns the judge's "Observing" mail."""
        ident = self.send(self.observer.account, f"OBSERVE {self.game}", subject="watching")
        asked = self.reply(self.observer, ident, "the OBSERVE's confirmation", "Confirm observing")
        ident = self.send(
            self.observer.account,
            "> Confirm observing",
            to=asked.reply_to[0],
            subject="Re: confirm",
        )
        return self.reply(self.observer, ident, "observing", f"Observing {self.game}")

    def take_everyone(
        self, match: Callable[[Received], bool], what: str, readers: list[Mailbox] | None = None
    ) -> dict[str, Received]:
        """One mail matching `match` in each of `readers` (default: every player, the GM and the
        observer), taken; by reader name."""
        boxes = readers if readers is not None else self.boxes()
        got = self.take({box: match for box in boxes}, what)
        return {box.name: mail for box, mail in got.items()}

    def results_subject(self, phase: str) -> str:
        return f"{JUDGE_NAME}:{self.game} - {phase} Results"

    def take_results(self, phase: str) -> dict[str, Received]:
        """Every reader's results mail of `phase`: each power's, the observer's and the GM's."""
        subject = self.results_subject(phase)
        boxes = {box: (lambda m: m.subject == subject) for box in self.boxes()}
        got = self.take(boxes, f"the results of {phase}")
        return {box.name: mail for box, mail in got.items()}

    def process(
        self, phase: str, *, by_token: bool = False, missed: bool = False
    ) -> dict[str, Received]:
        """The GM processes `phase` by mail (naming it, so a wrong phase is refused); `missed`:
        the powers without orders have missed the deadline (PROCESS MISSED)."""
        self.gm_mail(f"PROCESS {phase}{' MISSED' if missed else ''}", by_token=by_token)
        return self.take_results(phase)

    def outbox_order(self, *mails: Received) -> list[int]:
        """Where the judge's outbox put each mail (its row id): the order the judge wrote them
        in, which is the order its sender hands them on."""
        ids = [mail.message_id for mail in mails]
        with session_scope(self.judge.engine) as session:
            found = dict(
                session.execute(
                    select(OutboxMessage.message_id, OutboxMessage.id).where(
                        OutboxMessage.message_id.in_(ids)
                    )
                ).all()
            )
        return [found[i] for i in ids]

    def dump(self, directory: Path) -> None:
        """Write every mail each reader received to directory/READER/UID.eml, for a failure's
        post-mortem (pytest keeps the test's tmp_path)."""
        for box in self.every_box():
            folder = directory / box.name
            folder.mkdir(parents=True, exist_ok=True)
            for uid, mail in box.mails.items():
                (folder / f"{uid:03d}.eml").write_bytes(mail.raw)

    # --- reading the store (what no mail command does yet) ---------------------------------
    def holds(self, power: str) -> str:
        """Hold orders for every unit the power has now, read from the store."""
        with session_scope(self.judge.engine) as session:
            game = session.scalars(select(Game).where(Game.name == self.game)).one()
            assert game.position is not None
            units = [u for u in game.position["units"] if u["power"] == power.upper()]
        return "\n".join(f"{u['type']} {u['loc'].upper()} H" for u in units)

    def phase(self) -> str:
        """The game's phase and status as the store holds them ("S1901M active")."""
        with session_scope(self.judge.engine) as session:
            game = session.scalars(select(Game).where(Game.name == self.game)).one()
            return f"{game.phase} {game.status}"

    def short_reminders(self, lead: float) -> None:
        """Remind missing seats `lead` seconds before a movement deadline instead of a day.

        Written in the store by the test: no command sets the reminder lead (njudge had none;
        judge.games.timing keeps it as `reminder_hours`), and the judge's clock cannot be moved
        in a child process, so without this a deadline a few seconds ahead would never see its
        reminder. The scheduler sees the change (the game's settings are in its fingerprint)."""
        with session_scope(self.judge.engine) as session:
            game = (
                session.scalars(select(Game).where(Game.name == self.game).with_for_update())
            ).one()
            timing = dict(game.settings.get("timing") or {})
            timing["movement"] = {
                **dict(timing.get("movement") or {}),
                "reminder_hours": [lead / 3600],
            }
            game.settings = {**game.settings, "timing": timing}

    # --- what every mail must be ----------------------------------------------------------
    def check_on_arrival(self, box: Mailbox, mail: Received) -> None:
        """What holds for every mail the moment it is fetched: from the judge, to this address
        alone, and any Reply-To is the owner's own reply address (the first one seen; the
        observer and the forger get none)."""
        assert mail.sender == self.judge_address.lower(), (box.name, mail.subject, mail.sender)
        assert mail.to == (box.address,), (box.name, mail.subject, mail.to)
        if box.owner is None:
            if mail.subject.startswith("Confirm observing") and mail.reply_to:
                # An OBSERVE is confirmed by a reply to the token address this mail names.
                self.check_token_address(mail.reply_to)
                return
            assert mail.reply_to == (), (box.name, mail.subject, mail.reply_to)
            return
        known = self.reply_addresses.get(box.owner)
        if mail.reply_to and known is None:
            local, _, domain = self.judge_address.partition("@")
            assert len(mail.reply_to) == 1, mail.reply_to
            assert re.fullmatch(
                rf"{re.escape(local)}\+[a-z2-7]{{16}}@{re.escape(domain)}", mail.reply_to[0]
            ), mail.reply_to
            known = self.reply_addresses[box.owner] = mail.reply_to[0]
            if box.owner in self.players:
                self.players[box.owner].reply_address = known
        assert mail.reply_to in ((), (known,)), (box.name, mail.subject, mail.reply_to)

    def check_token_address(self, reply_to: tuple[str, ...]) -> None:
        """One judge+TOKEN@domain address: the shape of every reply address the judge gives."""
        local, _, domain = self.judge_address.partition("@")
        assert len(reply_to) == 1, reply_to
        assert re.fullmatch(
            rf"{re.escape(local)}\+[a-z2-7]{{16}}@{re.escape(domain)}", reply_to[0]
        ), reply_to

    def check_every_mail(self) -> None:
        """At the end: nothing arrived that the script did not take and check, and no mail
        carries another reader's reply token, anybody's password, or another power's orders
        acknowledgement."""
        self.settle()
        for box in self.every_box():
            box.refresh()
            assert box.untaken() == [], (
                f"{box.name} got mail the script did not expect: "
                f"{[(m.subject, m.body[:300]) for m in box.untaken()]}"
            )
        self.check_one_answer_each()
        self.check_privacy()
        self.check_threading()

    def check_one_answer_each(self) -> None:
        """Every mail the script sent the judge got exactly one answer (the one mail that
        refers to it by In-Reply-To), whatever it held; what the judge tells others refers to
        the game's thread instead."""
        answers = Counter(
            mail.in_reply_to for box in self.every_box() for mail in box.mails.values()
        )
        for ident in self.sent:
            assert answers[ident] == 1, (ident, answers[ident], "answers instead of one")

    def check_threading(self) -> None:
        """Every mail about the game refers to one thread root (In-Reply-To or References), so
        a reader's mail program files the game's mails together. Refusals ("Not done: ...")
        answer the refused mail alone."""
        roots: set[str] | None = None
        for box in self.every_box():
            for mail in box.mails.values():
                if mail.subject.startswith("Not done:"):
                    continue
                refers = {*mail.references, mail.in_reply_to} - {""}
                roots = refers if roots is None else roots & refers
                assert roots, (box.name, mail.subject, "shares no thread root with the others")

    def check_privacy(self) -> None:
        """No mail carries another reader's reply token, anybody's password, or another power's
        orders acknowledgement or reminder."""
        passwords = [self.gm_password, *(p.password for p in self.players.values())]
        tokens = {owner: _token(address) for owner, address in self.reply_addresses.items()}
        assert len(tokens) == len(self.players) + 1, tokens  # the seats and the GM
        for box in self.every_box():
            for mail in box.mails.values():
                text = mail.text()
                for secret in passwords:
                    assert secret not in text, (box.name, mail.subject, "a password")
                for owner, token in tokens.items():
                    if owner != box.owner:
                        assert token not in text, (box.name, mail.subject, f"{owner}'s token")
                for words, owners in self.private:
                    if box.owner not in owners:
                        assert words not in text, (box.name, mail.subject, words)
                for power in self.players or POWERS:
                    if power != box.owner:
                        # orders_read and orders_reminder are the power's own business
                        assert f"{self.game}: {power} orders for" not in mail.subject, (
                            box.name,
                            mail.subject,
                        )
                        assert f"read your orders for {power}" not in mail.body, (
                            box.name,
                            mail.subject,
                        )


def _token(reply_address: str) -> str:
    match = re.fullmatch(r"[^+@]+\+([a-z2-7]+)@.+", reply_address)
    assert match is not None, reply_address
    return match.group(1)


def on_backend(name: str) -> pytest.MarkDecorator:
    """A scripted game on one store only ("sqlite" or "postgresql"): the store is the same code
    on both and the standard game's script plays on both, so the variants' scripts share the
    backends out and the suite keeps its time."""
    return pytest.mark.parametrize("database_url", [name], indirect=True)


@contextlib.contextmanager
def played(
    game: str,
    title: str,
    *,
    mail_servers: Any,
    new_account: Callable[[], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
) -> Iterator[tuple[ScriptedGame, str]]:
    """A scripted game by mail (the tests' `scripted` fixture): the game's judge and script
    (scripted_judge) and this run's password prefix for the block; when the block ends, every
    mail checked (ScriptedGame.check_every_mail), all of them kept under tmp_path/mail, pass or
    fail, and the time the game took printed."""
    started_at = time.monotonic()
    script, prefix = scripted_judge(
        game,
        mail_servers=mail_servers,
        new_account=new_account,
        database_url=database_url,
        tmp_path=tmp_path,
        judge_process=judge_process,
    )
    try:
        yield script, prefix
        script.check_every_mail()
    finally:
        script.dump(tmp_path / "mail")
    print(f"scripted {title}: {time.monotonic() - started_at:.1f} s")


def scripted_judge(
    game: str,
    *,
    mail_servers: Any,
    new_account: Callable[[], Any],
    database_url: str,
    tmp_path: Path,
    judge_process: Callable[..., Any],
) -> tuple[ScriptedGame, str]:
    """A judge serving its own IMAP account (looked at every 50 ms, the scheduler every half
    second), and the ScriptedGame of `game` with a GM, an observer and a forger; and the
    prefix that makes this run's passwords its own."""
    judge_box = new_account()
    sections = judge_sections(
        tmp_path,
        database_url,
        judge_box.address,
        mail_servers=mail_servers,
        imap_password=judge_box.password,
    )
    # IDLE stays in use, but Dovecot announces a new mail half a second after it lands: a
    # short poll takes it sooner, and a scripted game waits on hundreds of such round trips.
    sections["imap"]["poll_seconds"] = 0.05
    sections["scheduler"] = {"poll_seconds": 0.5}
    judge = judge_process(sections)
    judge.start()
    judge.wait_ready()
    prefix = tmp_path.name[-12:]
    script = ScriptedGame(
        judge,
        judge_box.address,
        game,
        gm=new_account(),
        gm_password=f"{prefix}-gm-secret",
        observer=new_account(),
        forger=new_account(),
    )
    return script, prefix
