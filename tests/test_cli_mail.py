"""`judge mail list` and `judge mail show N`: the judge's own outgoing Maildir, read decoded.

The mails are written as the daemon writes them without a relay: the processor answers a mail
in the store and the sender hands the answer to the Maildir transport; more mails go straight
to the transport with what makes them hard to read as files (an encoded-word subject, base64
and quoted-printable bodies).
"""

from __future__ import annotations

import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.cli import main
from judge.config import load
from judge.mail.maildir_reading import read_maildir
from judge.mail.outbound import MaildirTransport, Outgoing, RetryPolicy, send_one
from judge.processor import ProcessorSettings, process_next
from judge.store import make_engine, session_scope, upgrade
from judge.store.inbox import accept
from judge.store.outbox import Identity, compose_bytes

JUDGE = Identity("judge@example.org", "Diplomacy Judge")


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(
        f'[judge]\naddress = "judge@example.org"\ndata_dir = "{tmp_path / "data"}"\n',
        encoding="utf-8",
    )
    return path


_ROWS = iter(range(1, 1000))


def _deliver(config_file: Path, *, to: str, subject: str, body: str) -> None:
    """One mail written to the Maildir as the sender writes an outbox row's."""
    config = load(config_file, env={})
    _, raw = compose_bytes(JUDGE, to=to, subject=subject, body=body)
    key = f"outbox-{next(_ROWS)}-test"
    MaildirTransport(config.maildir_path).deliver(Outgoing(JUDGE.address, to, raw, key))


def _answered_by_the_judge(config_file: Path) -> None:
    """A HELP and an order line mailed to the judge, answered, and the answer sent."""
    config = load(config_file, env={})
    engine = make_engine(config.database_url)
    upgrade(engine)
    message = EmailMessage()
    message["From"] = "Ann <ann@example.org>"
    message["To"] = "judge@example.org"
    message["Subject"] = "hi"
    message["Message-ID"] = "<first@example.org>"
    message.set_content("HELP\nA Paris -> Burgundy\n")
    with session_scope(engine) as session:
        accept(session, message.as_bytes(), source="test", envelope_from="ann@example.org")
    process_next(engine, ProcessorSettings.from_config(config))
    assert send_one(engine, MaildirTransport(config.maildir_path), RetryPolicy())
    engine.dispose()
    time.sleep(0.001)


def test_the_list_numbers_the_mails_in_the_order_written_with_subjects_decoded(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _answered_by_the_judge(config_file)
    _deliver(
        config_file, to="bob@example.org", subject="Spiel Rm1: Jörg spielt Österreich", body="ok\n"
    )
    _deliver(config_file, to="cy@example.org", subject="long lines", body="x" * 200 + "\n")
    assert main(["mail", "list", "--config", str(config_file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[0].split()[0] == "1" and "ann@example.org" in lines[0]
    assert lines[0].endswith("Help from Diplomacy Judge; Orders read: hi")  # one answer
    assert lines[1].split()[0] == "2" and lines[1].endswith("Spiel Rm1: Jörg spielt Österreich")
    assert lines[2].split()[0] == "3" and lines[2].endswith("long lines")
    assert "=?" not in "\n".join(lines)

    assert main(["mail", "list", "--to", "BOB@example.org", "--config", str(config_file)]) == 0
    [only] = capsys.readouterr().out.splitlines()
    assert only.split()[0] == "2"


def test_show_prints_the_headers_and_the_text_decoded(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _answered_by_the_judge(config_file)
    _deliver(
        config_file,
        to="bob@example.org",
        subject="Grüße aus Wien",
        body="Grüße, Jörg: " + "ä" * 90 + "\nzweite Zeile\n",
    )
    _deliver(config_file, to="cy@example.org", subject="long", body="y" * 200 + "\nend\n")
    config = load(config_file, env={})
    raw = {m.number: m.raw for m in read_maildir(config.maildir_path)}
    assert b"base64" in raw[2] and b"quoted-printable" in raw[3]  # unreadable as files

    assert main(["mail", "show", "1", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("Date: ")
    assert "From: Diplomacy Judge <judge@example.org>\nTo: ann@example.org\n" in shown
    assert "In-Reply-To: <first@example.org>" in shown
    assert "= Army Paris -> Burgundy" in shown and "CREATE game password variant" in shown

    assert main(["mail", "show", "2", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert "Subject: Grüße aus Wien\n" in shown
    assert "\n\nGrüße, Jörg: " + "ä" * 90 + "\nzweite Zeile\n" in shown

    assert main(["mail", "show", "3", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert "\n\n" + "y" * 200 + "\nend\n" in shown and "=\n" not in shown

    assert main(["mail", "show", "3", "--raw", "--config", str(config_file)]) == 0
    assert "quoted-printable" in capsys.readouterr().out


def test_a_number_not_listed_and_a_missing_maildir_are_told(
    config_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mail", "list", "--config", str(config_file)]) == 1
    assert "no Maildir at" in capsys.readouterr().err
    _deliver(config_file, to="bob@example.org", subject="one", body="1\n")
    assert main(["mail", "show", "2", "--config", str(config_file)]) == 1
    assert "no mail 2; `judge mail list` numbers them 1 to 1" in capsys.readouterr().err
