"""The standard map, as every order-language test reads orders against it."""

from __future__ import annotations

import pytest

from judge.engine.geography import Map
from judge.map_files import load_map


@pytest.fixture(scope="session")
def standard() -> Map:
    return load_map("standard")
