"""The `judge` command. Each group of subcommands lives in its own module with a `register`."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

# Modules that add subcommands, with the subcommands each adds; each defines
# register(subparsers) and sets `func` on its parsers.
COMMAND_MODULES = {
    "judge.cli_adjudicate": ("adjudicate", "map"),
    "judge.cli_daemon": ("serve", "db", "mail"),
    "judge.cli_game": ("game",),
}


def _modules_for(argv: list[str] | None) -> list[str]:
    """The module of the subcommand named in `argv`, or every module (for help or a typo).

    A run of `judge adjudicate` thus starts without the daemon's and the store's imports."""
    words = sys.argv[1:] if argv is None else argv
    command = next((w for w in words if not w.startswith("-")), None)
    for module, commands in COMMAND_MODULES.items():
        if command in commands:
            return [module]
    return list(COMMAND_MODULES)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, the width found as shutil.get_terminal_size finds it without
    importing shutil (and the archive modules it imports): every add_argument makes one to check
    its metavar, which cost each start of `judge adjudicate` 2 ms."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = _terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _terminal_columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """The judge's parsers, the subcommands' too (add_subparsers makes them of this class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="judge", description="A play-by-email Diplomacy judge.")
    # prog given: argparse would otherwise build a help formatter to find it.
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="judge")
    for name in _modules_for(argv):
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(argv)
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
