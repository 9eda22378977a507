"""A play-by-email judge for Diplomacy and its variants."""

__version__ = "0.1.0"
