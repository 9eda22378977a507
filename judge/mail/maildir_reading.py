"""Reading the judge's own outgoing Maildir, decoded, for `judge mail list` and `judge mail show`.

Without a relay the sender writes every mail to a Maildir (judge.mail.outbound.MaildirTransport,
./judge-data/outbox-maildir under ./run.sh). Read as files, those mails are raw: encoded-word
subjects, quoted-printable or base64 bodies. Here they are numbered in the order they were
written (the judge names each file after its outbox row; other writers' names carry the moment
and a counter) and shown as a person reads mail: headers decoded, the text decoded from its
transfer encoding and charset.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from email.utils import getaddresses, parsedate_to_datetime
from pathlib import Path

# The headers `show` prints, in this order, when the mail has them.
SHOWN_HEADERS = (
    "Date",
    "From",
    "To",
    "Reply-To",
    "Subject",
    "Message-ID",
    "In-Reply-To",
    "List-Unsubscribe",
)
# A Maildir file name as Python's mailbox (and most writers) make it: seconds, then
# M<microseconds>, then P<pid> and Q<counter> or other unique parts, then the host.
_DELIVERED = re.compile(r"(\d+)\.(?:M(\d+))?[^.]*?(?:Q(\d+))?\.")
# The judge's own: named after the outbox row (judge.mail.outbound.Outgoing.of).
_OUTBOX_ROW = re.compile(r"outbox-(\d+)-")


@dataclass(frozen=True)
class StoredMail:
    """One mail of the Maildir: its number in delivery order, its key and the parsed mail."""

    number: int
    key: str
    raw: bytes
    message: EmailMessage

    def header(self, name: str) -> str:
        """A header decoded (RFC 2047 words and all), its folds undone; "" when absent."""
        value = self.message.get(name)
        return " ".join(str(value).split()) if value is not None else ""

    @property
    def to(self) -> str:
        found = [address for _, address in getaddresses([self.header("To")]) if address]
        return ", ".join(found) or self.header("To")

    @property
    def when(self) -> str:
        """The Date header as a short local-free stamp (2026-04-01 08:00), or as written."""
        written = self.header("Date")
        try:
            return parsedate_to_datetime(written).strftime("%Y-%m-%d %H:%M")
        except (TypeError, ValueError):
            return written

    def text(self) -> str:
        """The mail's text: every text/plain part decoded from its transfer encoding and
        charset (the judge writes one); a part that cannot be decoded is shown as found."""
        parts = [p for p in self.message.walk() if p.get_content_type() == "text/plain"]
        if not parts and not self.message.is_multipart():
            parts = [self.message]
        texts = []
        for part in parts:
            try:
                texts.append(str(part.get_content()))
            except (LookupError, ValueError):
                payload = part.get_payload(decode=True)
                texts.append(
                    payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
                )
        return "\n".join(text.replace("\r\n", "\n").rstrip("\n") for text in texts) + "\n"

    def shown(self) -> str:
        """The mail as `judge mail show` prints it: the headers that matter, then the text."""
        head = [f"{name}: {self.header(name)}" for name in SHOWN_HEADERS if self.header(name)]
        return "\n".join(head) + "\n\n" + self.text()


def _delivery_order(file: Path) -> tuple[int, float, int, int, str]:
    """How to sort a Maildir file among the others: the judge's own files by their outbox row
    (the order the judge wrote them: judge.mail.outbound names each after its row); others by
    the moment in their name (seconds and microseconds, then the writer's counter), else by
    when the file was written."""
    key = file.name.split(":", 1)[0]
    row = _OUTBOX_ROW.match(key)
    if row is not None:
        return (0, float(row.group(1)), 0, 0, key)
    found = _DELIVERED.match(key)
    if found is None:
        try:
            return (1, file.stat().st_mtime, 0, 0, key)
        except OSError:
            return (1, 0.0, 0, 0, key)
    seconds, micros, counter = (int(group or 0) for group in found.groups())
    return (1, float(seconds), micros, counter, key)


def read_maildir(path: Path) -> list[StoredMail]:
    """Every mail in the Maildir at `path` (new/ and cur/), numbered from 1 in delivery order;
    FileNotFoundError when there is no Maildir there."""
    folders = [path / "new", path / "cur"]
    if not any(folder.is_dir() for folder in folders):
        raise FileNotFoundError(path)
    parser = BytesParser(policy=default)
    found: list[tuple[tuple[int, float, int, int, str], str, bytes]] = []
    for folder in folders:
        for file in folder.iterdir() if folder.is_dir() else ():
            if file.name.startswith("."):
                continue
            try:
                raw = file.read_bytes()
            except OSError:  # gone meanwhile (a mail program moved it)
                continue
            order = _delivery_order(file)
            found.append((order, order[-1], raw))
    found.sort(key=lambda item: item[0])
    return [
        StoredMail(number, key, raw, parser.parsebytes(raw))  # type: ignore[arg-type]
        for number, (_, key, raw) in enumerate(found, start=1)
    ]


def list_line(mail: StoredMail) -> str:
    """One line of `judge mail list`: number, date, recipient, subject."""
    return f"{mail.number:>4}  {mail.when:<16}  {mail.to:<32}  {mail.header('Subject')}"
