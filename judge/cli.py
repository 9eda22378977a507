"""The `judge` command. Each group of subcommands lives in its own module with a `register`."""

from __future__ import annotations

import argparse
import importlib
import sys

# Modules that add subcommands; each defines register(subparsers) and sets `func` on its parsers.
COMMAND_MODULES = ("judge.cli_adjudicate", "judge.cli_daemon", "judge.cli_game")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="A play-by-email Diplomacy judge.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`judge ... | head`): nothing left to say to it.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
