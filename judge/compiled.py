"""The modules compiled to C by mypyc at install time, and the guard that keeps them honest.

The source of every module below is the reference: it is plain Python that runs as it is, and
`pip install` (hatch_build.py) also compiles it with mypyc where a C compiler is present, which
makes adjudication about twice as fast (docs/PERFORMANCE.md). Beside each compiled module lies
its source, and Python would import the compiled file first, so an edit to the source after
the build would go unseen. `prefer_source_if_needed` (run by judge/__init__.py before anything
else is imported) prevents that: when, in a checkout, any compiled file is older than its
source, or JUDGE_PURE_PYTHON is set, all of the group are imported from source. All or none,
because compiled modules reach each other's classes directly.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from pathlib import Path
    from types import ModuleType

# Dotted names, each a module of this package: the adjudication path, and the drawing of a
# phase's pictures (the board's windows, the cells of its layers, the SVG text), which every
# phase of a game runs for each reader. Each must type-check under mypy (mypyc refuses code that
# does not), and a compiled module must give what its source gives (tests/test_compiled.py).
COMPILED_MODULES = (
    "judge.adjudicate_json",
    "judge.engine.adjudicate",
    "judge.engine.adjustments",
    "judge.engine.calendar",
    "judge.engine.orders",
    "judge.engine.position",
    "judge.engine.resolve",
    "judge.engine.results",
    "judge.engine.retreats",
    "judge.engine.rules",
    "judge.engine.topology",
    "judge.language.fast_orders",
    "judge.pictures.board",
    "judge.pictures.cells",
    "judge.pictures.scene",
    "judge.pictures.svg",
    "judge.variants.aboard",
    "judge.variants.mercator.adjustments",
    "judge.variants.mercator.month",
    "judge.variants.mercator.orders",
    "judge.variants.mercator.ownership",
    "judge.variants.mercator.phases",
    "judge.variants.mercator.reading",
    "judge.variants.mercator.removals",
    "judge.variants.mercator.retreats",
    "judge.variants.standard.reading",
)

# The library mypyc shares between the modules of the group, at the top of the import path.
SHARED_LIBRARY = "judge_native__mypyc"

PURE_ENV = "JUDGE_PURE_PYTHON"

# The folder above the package, as a plain string: the check at every start of the judge runs on
# os.path alone (pathlib, and what it imports, costs a `judge adjudicate` 3 ms).
_PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def source_path(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def _source_file(root: str | os.PathLike[str], module: str) -> str:
    """source_path on os.path: the file name as a string."""
    return os.path.join(root, *module.split(".")) + ".py"


# What an install of a checkout is made from, beside the compiled modules' sources: a change to
# any of them (a `git pull`, an edit) calls for `pip install -e .` again (run.sh asks).
INSTALL_INPUTS = ("pyproject.toml", "hatch_build.py", "judge/compiled.py")


def install_fingerprint(root: Path | None = None) -> str:
    """A hash of everything an editable install of the checkout at `root` is built from: the
    files of INSTALL_INPUTS, the source of every compiled module and whether JUDGE_PURE_PYTHON
    is set (the build then compiles nothing). Another Python source needs no install: an
    editable install imports it in place."""
    import hashlib  # run.sh's question only: every other start of the judge goes without
    from pathlib import Path

    root = Path(root or _PACKAGE_PARENT)
    digest = hashlib.sha256(f"{PURE_ENV}={bool(os.environ.get(PURE_ENV))}\n".encode())
    paths = [root / name for name in INSTALL_INPUTS]
    paths += [source_path(root, module) for module in COMPILED_MODULES]
    for path in paths:
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"\0missing\0")
    return digest.hexdigest()


def compiled_paths(
    root: str | os.PathLike[str], module: str, listed: dict[str, list[str]] | None = None
) -> list[str]:
    """The extension files of `module` under `root` (none where it was not compiled);
    `listed` keeps each folder's listing for the next module of the same folder."""
    folder, name = os.path.split(_source_file(root, module))
    names = None if listed is None else listed.get(folder)
    if names is None:
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        if listed is not None:
            listed[folder] = names
    stem = name.removesuffix(".py")
    wanted = {stem + suffix for suffix in importlib.machinery.EXTENSION_SUFFIXES}
    return [os.path.join(folder, found) for found in names if found in wanted]


def stale_modules(
    root: str | os.PathLike[str], modules: Iterable[str] = COMPILED_MODULES
) -> list[str]:
    """Modules whose compiled file is older than their source (edited since the build)."""
    stale = []
    listed: dict[str, list[str]] = {}  # three folders for the whole group, each read once
    for module in modules:
        source = _source_file(root, module)
        for compiled in compiled_paths(root, module, listed):
            try:
                if os.stat(source).st_mtime > os.stat(compiled).st_mtime:
                    stale.append(module)
                    break
            except OSError:
                continue
    return stale


def is_compiled(module: str) -> bool:
    """Was `module` loaded from a compiled extension?"""
    loaded = sys.modules.get(module)
    origin = getattr(getattr(loaded, "__spec__", None), "origin", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


class _SourceFirst:
    """A finder that imports the named modules from their .py files, compiled copies or not."""

    def __init__(self, root: str, modules: Sequence[str]) -> None:
        self.root = root
        self.modules = frozenset(modules)

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in self.modules:
            return None
        import importlib.util  # only when the source is wanted: it costs a start-up 4 ms

        return importlib.util.spec_from_file_location(name, _source_file(self.root, name))


def prefer_source_if_needed(root: str = _PACKAGE_PARENT) -> str:
    """Import the group from source where it must be; return why ("" when compiled is used)."""
    if os.environ.get(PURE_ENV):
        reason = f"{PURE_ENV} is set"
    else:
        # Only a checkout is edited; in an installed wheel the files' times say nothing.
        if not os.path.exists(os.path.join(root, "pyproject.toml")):
            return ""
        stale = stale_modules(root)
        if not stale:
            return ""
        reason = f"{', '.join(stale)} changed since it was compiled; rebuild with pip install -e ."
        print(f"judge: using the Python source of the compiled modules: {reason}", file=sys.stderr)
    if not any(isinstance(f, _SourceFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(root, COMPILED_MODULES))
    return reason
