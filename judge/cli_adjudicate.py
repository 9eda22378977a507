"""Subcommands `judge adjudicate` and `judge map`."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the offline adjudication subcommands (filled in with the resolver)."""
