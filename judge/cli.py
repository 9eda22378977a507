"""The `judge` command. Each group of subcommands lives in its own module with a `register`."""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse

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


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    from judge.cli_parser import JudgeParser

    parser = JudgeParser(prog="judge", description="A play-by-email Diplomacy judge.")
    # prog given: argparse would otherwise build a help formatter to find it.
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", prog="judge")
    for name in _modules_for(argv):
        importlib.import_module(name).register(subparsers)
    return parser


def _quick_args(argv: list[str] | None) -> Any:
    """The arguments of the command line, where the subcommand's module reads it itself
    (`quick_args`: `judge adjudicate --batch FILE`, whose runs are many and short); else None."""
    words = sys.argv[1:] if argv is None else argv
    modules = _modules_for(words)
    if len(modules) != 1:
        return None
    quick = getattr(importlib.import_module(modules[0]), "quick_args", None)
    return quick(words) if quick is not None else None


def main(argv: list[str] | None = None, *, whole_process: bool = False) -> int:
    """Runs the command line; `whole_process`: this run is the process's own (`judge ...`,
    `python -m judge.cli ...`), which a command read by `quick_args` then leaves at once."""
    args = _quick_args(argv)
    if args is None:
        parser = build_parser(argv)
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
    try:
        code = int(args.func(args) or 0)
    except BrokenPipeError:
        # The reader went away (`judge ... | head`): nothing left to say to it.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130
    if whole_process and getattr(args, "leave_at_once", False):
        _leave(code)
    return code


def _leave(code: int) -> None:
    """Ends the process once its output is written, without the interpreter's teardown (a
    final garbage collection and every module's objects freed: 6 ms, a tenth of a batch
    command's start). For a command with nothing left to close: its files closed, no handler
    waiting at exit, no thread."""
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # the reader went away, or a stream was closed
        pass
    os._exit(code)


def command() -> int:
    """The `judge` command's entry point."""
    return main(whole_process=True)


if __name__ == "__main__":
    sys.exit(main(whole_process=True))
