"""argparse as the `judge` command uses it: its parsers, and their help formatter."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, the width found as shutil.get_terminal_size finds it without
    importing shutil (and the archive modules it imports): every add_argument makes one to check
    its metavar, which cost each start of the judge 2 ms."""

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


class JudgeParser(argparse.ArgumentParser):
    """The judge's parsers, the subcommands' too (add_subparsers makes them of this class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
