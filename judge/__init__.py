"""A play-by-email judge for Diplomacy and its variants."""

from judge.compiled import prefer_source_if_needed

__version__ = "0.1.0"

# Before any module of the compiled group is imported: their source wins over a stale build.
PURE_PYTHON_REASON = prefer_source_if_needed()
