"""Subcommands of the mail daemon: `serve`, `db upgrade`, `mail held`, `mail retry ID`, and
`mail list` / `mail show N` to read the mail the judge wrote to its Maildir, decoded."""

from __future__ import annotations

import argparse
import logging
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.config import Config
    from judge.mail.maildir_reading import StoredMail


def _add_config(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="TOML configuration (default: $JUDGE_CONFIG, else ./judge.toml if present, else built-in defaults)",
    )


def _config(args: argparse.Namespace) -> Config:
    # Imported here: `judge adjudicate` starts without the daemon's configuration reader.
    from judge.config import ConfigError, load

    try:
        return load(args.config)
    except ConfigError as error:
        print(f"judge: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the daemon's subcommands."""
    serve = subparsers.add_parser(
        "serve", help="run the judge: inbound, processor, scheduler and sender"
    )
    _add_config(serve)
    serve.add_argument(
        "--only",
        action="append",
        metavar="ROLE",
        help="run only these roles (inbound, processor, scheduler, sender); repeat or comma-separate",
    )
    serve.set_defaults(func=cmd_serve)

    db = subparsers.add_parser("db", help="the judge's database")
    db_sub = db.add_subparsers(dest="db_command", metavar="COMMAND")
    upgrade = db_sub.add_parser("upgrade", help="bring the database schema up to date")
    _add_config(upgrade)
    upgrade.set_defaults(func=cmd_db_upgrade)

    mail = subparsers.add_parser("mail", help="mails the judge holds or wrote")
    mail_sub = mail.add_subparsers(dest="mail_command", metavar="COMMAND")
    held = mail_sub.add_parser("held", help="list mails the processor failed on")
    _add_config(held)
    held.set_defaults(func=cmd_mail_held)
    retry = mail_sub.add_parser("retry", help="process a held mail again")
    _add_config(retry)
    retry.add_argument("id", type=int, help="the inbox id (from `judge mail held`)")
    retry.set_defaults(func=cmd_mail_retry)
    listing = mail_sub.add_parser(
        "list", help="the mails the judge wrote to its Maildir (no relay), numbered"
    )
    _add_config(listing)
    listing.add_argument("--to", metavar="ADDRESS", help="only the mails to this address")
    listing.set_defaults(func=cmd_mail_list)
    show = mail_sub.add_parser("show", help="one mail of the judge's Maildir, decoded")
    _add_config(show)
    show.add_argument("number", type=int, help="the mail's number (from `judge mail list`)")
    show.add_argument("--raw", action="store_true", help="the mail as written, undecoded")
    show.set_defaults(func=cmd_mail_show)


def _setup_logging(config: Config) -> None:
    logging.basicConfig(
        level=getattr(logging, config.log.level.upper(), logging.INFO),
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
        stream=sys.stderr,
        force=True,
    )
    # aiosmtpd logs every SMTP command and alembic every plugin at INFO; the judge's own lines
    # already say what happened to each mail.
    for noisy in ("mail.log", "alembic"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the judge until SIGTERM or SIGINT."""
    from judge.heap import keep_freed_memory
    from judge.serve import Daemon, ServeError, parse_roles

    keep_freed_memory()  # a long-running process: its pictures' pages stay with it
    config = _config(args)
    try:
        roles = parse_roles(args.only)
    except ValueError as error:
        print(f"judge serve: {error}", file=sys.stderr)
        return 2
    _setup_logging(config)
    try:
        Daemon(config, roles).run()
    except ServeError as error:
        logging.getLogger("judge.serve").error("%s", error)
        return 1
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    """Create or migrate the store."""
    from judge.store.db import current_revision, make_engine, upgrade

    config = _config(args)
    engine = make_engine(config.database_url)
    upgrade(engine)
    print(f"database at revision {current_revision(engine)}")
    engine.dispose()
    return 0


def cmd_mail_held(args: argparse.Namespace) -> int:
    """List held mails: id, when, from, subject, and the last line of the error."""
    from judge.mail.mime import read_mail
    from judge.store.db import make_engine, session_scope, upgrade
    from judge.store.inbox import held

    config = _config(args)
    engine = make_engine(config.database_url)
    upgrade(engine)
    with session_scope(engine) as session:
        rows = held(session)
        if not rows:
            print("no held mails")
        for row in rows:
            mail = read_mail(row.raw)
            error = (row.error or "").strip().splitlines()
            print(
                f"{row.id}\t{row.received_at:%Y-%m-%d %H:%M}\t{mail.sender or '(no sender)'}\t"
                f"{mail.subject or '(no subject)'}\t{error[-1] if error else ''}"
            )
    engine.dispose()
    return 0


def cmd_mail_retry(args: argparse.Namespace) -> int:
    """Put a held mail back and process it now; its replies go out with the next sender run."""
    from judge.processor import ProcessorSettings, process_next
    from judge.store.db import make_engine, session_scope, upgrade
    from judge.store.inbox import release
    from judge.store.models import InboxMessage

    config = _config(args)
    _setup_logging(config)
    engine = make_engine(config.database_url)
    upgrade(engine)
    with session_scope(engine) as session:
        if not release(session, args.id):
            print(f"judge mail retry: no held mail {args.id}", file=sys.stderr)
            return 1
    process_next(engine, ProcessorSettings.from_config(config), inbox_id=args.id)
    with session_scope(engine) as session:
        row = session.get(InboxMessage, args.id)
        assert row is not None
        print(f"mail {row.id}: {row.state}: {row.outcome or ''}")
        failed = row.state == "held"
    engine.dispose()
    return 1 if failed else 0


def cmd_mail_list(args: argparse.Namespace) -> int:
    """List the mails the judge wrote to its Maildir: number, date, recipient, subject."""
    from judge.mail.maildir_reading import list_line

    config = _config(args)
    mails = _outgoing(config)
    if mails is None:
        return 1
    if args.to:
        wanted = args.to.strip().lower()
        mails = [m for m in mails if wanted in m.to.lower()]
    if not mails:
        print("no mails" + (f" to {args.to}" if args.to else ""))
    for mail in mails:
        print(list_line(mail))
    return 0


def cmd_mail_show(args: argparse.Namespace) -> int:
    """Print one mail of the judge's Maildir decoded: its headers and its text."""
    config = _config(args)
    mails = _outgoing(config)
    if mails is None:
        return 1
    if not 1 <= args.number <= len(mails):
        print(
            f"judge mail show: no mail {args.number}; `judge mail list` numbers them 1 to "
            f"{len(mails)}",
            file=sys.stderr,
        )
        return 1
    mail = mails[args.number - 1]
    if args.raw:
        sys.stdout.buffer.write(mail.raw)
        sys.stdout.flush()
    else:
        sys.stdout.write(mail.shown())
    return 0


def _outgoing(config: Config) -> list[StoredMail] | None:
    """The mails of the judge's outgoing Maildir, or None (and why, on stderr) without one."""
    from judge.mail.maildir_reading import read_maildir

    try:
        return read_maildir(config.maildir_path)
    except FileNotFoundError:
        how = (
            f"the judge sends its mail through the relay {config.relay.host}"
            if config.relay.host
            else "the judge has written no mail yet"
        )
        print(f"judge mail: no Maildir at {config.maildir_path} ({how})", file=sys.stderr)
        return None
