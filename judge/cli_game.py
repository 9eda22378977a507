"""`judge game export|import|replay`: a game out of the store as JSON, into a store from JSON, and
a check that a document's history is what the engine adjudicates (docs/GAME-EXPORT.md).

The store is the one the other subcommands use (--config, $JUDGE_CONFIG, ./judge.toml, the
JUDGE_DATABASE_URL override), or the one --db names. Exit status: 0 done, 1 the game or the
document is refused (one line on stderr says why), 2 a bad configuration.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path


def _database_url(args: argparse.Namespace) -> str:
    if args.db:
        return str(args.db)
    from judge.config import ConfigError, load  # only the store's subcommands read it

    try:
        return load(args.config).database_url
    except ConfigError as error:
        print(f"judge: {error}", file=sys.stderr)
        raise SystemExit(2) from None


def _add_store(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="TOML configuration (default: $JUDGE_CONFIG, else ./judge.toml, else built-in defaults)",
    )
    parser.add_argument(
        "--db", metavar="URL", help="the store's database URL (overrides the configuration)"
    )


def cmd_export(args: argparse.Namespace) -> int:
    """Write one game as JSON to standard output or --output."""
    from judge.game_archive import dumps, export_game
    from judge.store.db import make_engine, session_scope, upgrade
    from judge.store.game_queries import find_game

    engine = make_engine(_database_url(args))
    upgrade(engine)
    try:
        with session_scope(engine) as session:
            game = find_game(session, args.game)
            if game is None:
                print(
                    f"judge game export: there is no game named {args.game.lower()}",
                    file=sys.stderr,
                )
                return 1
            text = dumps(export_game(session, game, names=args.names))
    finally:
        engine.dispose()
    if args.output and args.output != "-":
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _read_document(name: str) -> dict:
    from judge.game_archive import loads

    text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    return loads(text)


def cmd_import(args: argparse.Namespace) -> int:
    """Create a game in the store from an export document."""
    from judge.game_archive import ArchiveError, import_game
    from judge.store.db import make_engine, session_scope, upgrade
    from judge.store.game_queries import create_person, find_person_by_address

    try:
        document = _read_document(args.file)
    except (OSError, ArchiveError) as error:
        print(f"judge game import: {args.file}: {error}", file=sys.stderr)
        return 1
    password = None
    if args.gm_password_file and not args.gm:
        print("judge game import: --gm-password-file needs --gm ADDRESS", file=sys.stderr)
        return 1
    if args.gm:
        if args.gm_password_file:
            lines = Path(args.gm_password_file).read_text(encoding="utf-8").splitlines()
            password = lines[0].strip() if lines else ""
        else:
            password = getpass.getpass(f"GM password for {args.gm}: ")
        if not password:
            print("judge game import: the GM needs a password", file=sys.stderr)
            return 1
    engine = make_engine(_database_url(args))
    upgrade(engine)
    try:
        with session_scope(engine) as session:
            gm = None
            if args.gm:
                gm = find_person_by_address(session, args.gm) or create_person(session, args.gm)
            game = import_game(session, document, name=args.name, gm=gm, gm_password=password)
            print(
                f"imported game {game.name}: {game.variant}, {game.status}"
                + (f", in {game.phase}" if game.phase else "")
                + ", every seat open to a SIGNON"
                + (
                    ""
                    if game.status != "active"
                    else "; no deadline until the GM sets one or processes"
                )
            )
    except ArchiveError as error:
        print(f"judge game import: {error}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Adjudicate every phase of a document again and say whether the results agree."""
    from judge.game_archive import ArchiveError, check_document, replay

    try:
        document = _read_document(args.file)
        check_document(document)
    except (OSError, ArchiveError) as error:
        print(f"judge game replay: {args.file}: {error}", file=sys.stderr)
        return 1
    differences = replay(document)
    for line in differences:
        print(line)
    if differences:
        return 1
    print(f"{len(document['phases'])} phases adjudicated again: every result agrees")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `judge game` and its subcommands."""
    game = subparsers.add_parser("game", help="export, import or replay a game as JSON")
    game_sub = game.add_subparsers(dest="game_command", metavar="COMMAND")

    export = game_sub.add_parser("export", help="write a game as JSON (docs/GAME-EXPORT.md)")
    export.add_argument("game", help="the game's name")
    _add_store(export)
    export.add_argument(
        "-o", "--output", metavar="FILE", help="write here instead of standard output"
    )
    export.add_argument(
        "--names",
        action="store_true",
        help="add each power's current player by the name they gave (never an address)",
    )
    export.set_defaults(func=cmd_export)

    imp = game_sub.add_parser("import", help="create a game from an export document")
    imp.add_argument("file", help="the document, or - for standard input")
    _add_store(imp)
    imp.add_argument("--name", help="import under this name instead of the document's")
    imp.add_argument(
        "--gm",
        metavar="ADDRESS",
        help="make the person with this address the GM (the password is asked for)",
    )
    imp.add_argument(
        "--gm-password-file",
        metavar="FILE",
        help="read the GM password from the first line of FILE instead of asking",
    )
    imp.set_defaults(func=cmd_import)

    check = game_sub.add_parser(
        "replay", help="adjudicate every phase of a document again and compare the results"
    )
    check.add_argument("file", help="the document, or - for standard input")
    check.set_defaults(func=cmd_replay)
