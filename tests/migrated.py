"""A migrated SQLite store for a test without running every migration again.

Most tests start from an empty store at the newest revision; running alembic's twelve
migrations for each cost about 0.1 s a test, a minute or more of the suite. The first call in a
process migrates one template file (the real `upgrade`, so the template is what the judge makes);
each call copies it with SQLite's backup API, which copies a consistent file whatever its WAL
holds.
"""

from __future__ import annotations

import sqlite3
import tempfile
from functools import cache
from pathlib import Path

from sqlalchemy import Engine

from judge.store import make_engine, upgrade


@cache
def _template() -> Path:
    path = Path(tempfile.mkdtemp(prefix="judge-migrated-")) / "template.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()
    return path


def migrated_sqlite(path: Path) -> Engine:
    """An engine on a new SQLite file at `path`, at the newest revision."""
    path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(_template())
    target = sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()
    return make_engine(f"sqlite:///{path}")
