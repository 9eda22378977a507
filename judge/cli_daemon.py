"""Subcommands of the mail daemon: serve, db, mail."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the daemon's subcommands (filled in as the daemon is built)."""
