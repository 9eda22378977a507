"""The adjudication path and the pictures' drawing compiled by mypyc (judge/compiled.py,
hatch_build.py), and their source.

The source is the reference: the engine's tests run on it too, in a process where it is forced,
the compiled pictures are compared with the source's byte for byte, and a compiled file older
than its source is never imported.
"""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge import compiled
from judge.compiled import COMPILED_MODULES, PURE_ENV, compiled_paths, is_compiled, stale_modules

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
# test.sh sets this: it installs a C compiler, so its build must have compiled the group.
REQUIRED = bool(os.environ.get("JUDGE_REQUIRE_COMPILED"))


def _tree(tmp_path: Path, *, source_newer: bool) -> Path:
    """A package `pkg.mod` with a compiled file, the source older or newer than it."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    source, built = pkg / "mod.py", pkg / f"mod{SUFFIX}"
    source.write_text("X = 1\n")
    built.write_bytes(b"")
    older, newer = 1_700_000_000, 1_700_000_100
    os.utime(source, (newer, newer) if source_newer else (older, older))
    os.utime(built, (older, older) if source_newer else (newer, newer))
    return tmp_path


def test_a_compiled_file_older_than_its_source_is_stale(tmp_path: Path) -> None:
    root = _tree(tmp_path, source_newer=True)
    assert compiled_paths(root, "pkg.mod") == [str(root / "pkg" / f"mod{SUFFIX}")]
    assert stale_modules(root, ["pkg.mod"]) == ["pkg.mod"]


def test_a_fresh_build_and_a_module_never_compiled_are_not_stale(tmp_path: Path) -> None:
    root = _tree(tmp_path, source_newer=False)
    (root / "pkg" / "plain.py").write_text("Y = 2\n")
    assert stale_modules(root, ["pkg.mod", "pkg.plain"]) == []
    assert compiled_paths(root, "pkg.plain") == []


def test_the_source_finder_serves_only_the_group(tmp_path: Path) -> None:
    root = _tree(tmp_path, source_newer=True)
    finder = compiled._SourceFirst(root, ["pkg.mod"])
    spec = finder.find_spec("pkg.mod")
    assert spec is not None and spec.origin == str(root / "pkg" / "mod.py")
    assert finder.find_spec("pkg.other") is None


def _run(code: str, **env: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_pure_python_switch_imports_every_module_of_the_group_from_source() -> None:
    code = (
        "import judge, importlib\n"
        "from judge.compiled import COMPILED_MODULES, is_compiled\n"
        "mods = [importlib.import_module(m) for m in COMPILED_MODULES]\n"
        "print(judge.PURE_PYTHON_REASON)\n"
        "print(sum(is_compiled(m) for m in COMPILED_MODULES), "
        "all(m.__file__.endswith('.py') for m in mods))"
    )
    reason, counts = _run(code, **{PURE_ENV: "1"}).splitlines()
    assert reason == f"{PURE_ENV} is set"
    assert counts == "0 True"


@pytest.mark.skipif(
    not REQUIRED and not any(compiled_paths(ROOT, m) for m in COMPILED_MODULES),
    reason="this install is plain Python (no C compiler at build time)",
)
def test_the_installed_build_compiles_the_whole_group() -> None:
    """What test.sh installs is compiled, all of it, and fresh (else the figures in
    docs/PERFORMANCE.md are not what runs)."""
    import importlib

    assert not os.environ.get(PURE_ENV)
    for module in COMPILED_MODULES:
        importlib.import_module(module)
    assert [m for m in COMPILED_MODULES if not is_compiled(m)] == []
    assert stale_modules(ROOT) == []


# Modules of the judge that run while a phase is adjudicated but stay Python, and why.
LEFT_AS_PYTHON = {
    "judge.cli_adjudicate": "the command's loop: a call or two a line",
    "judge.language.orders": "Lark's transformer (untyped): hands out the scanner once a phase",
    "judge.language.names": "a map's name table: looks up a word once, the scanner keeps it",
    "judge.language.board_parsers": "a variant's Lark parser per map, made once",
    "judge.variants": "the variant records, asked a few times a phase",
    "judge.variants.mercator.language": "Lark's transformer (untyped): the lines the quick "
    "reader leaves",
    "judge.variants.af_language": "the army/fleet grammars' shared transformer callbacks "
    "(untyped, as Lark's): the lines the quick reader leaves",
}


def test_what_a_standard_phase_and_a_mercator_month_run_is_compiled() -> None:
    """Every module of the judge whose functions run while bench/adjudicate.py's phases and
    bench/mercator.py's month are adjudicated is in the compiled group, or in LEFT_AS_PYTHON
    with its reason (traced on the source, where every Python function call is seen)."""
    code = (
        "import collections, json, sys\n"
        "sys.path[:0] = ['bench']\n"
        "from adjudicate import midgame_case, opening_case\n"
        "from mercator import month_case\n"
        "from judge.cli_adjudicate import batch_output\n"
        "lines = [json.dumps(c) for c in (opening_case(), midgame_case(), month_case())]\n"
        "for line in lines: batch_output(line, None, None)\n"  # tables and caches made
        "seen = set()\n"
        "def note(frame, event, arg):\n"
        "    if event == 'call': seen.add(frame.f_globals.get('__name__') or '')\n"
        "sys.setprofile(note)\n"
        "for line in lines: batch_output(line, None, None)\n"
        "sys.setprofile(None)\n"
        "print(' '.join(sorted(m for m in seen if m.startswith('judge'))))\n"
    )
    ran = set(_run(code, **{PURE_ENV: "1"}).split())
    assert "judge.variants.mercator.phases" in ran and "judge.engine.resolve" in ran
    assert sorted(ran - set(COMPILED_MODULES) - set(LEFT_AS_PYTHON)) == []


@pytest.mark.slow
def test_the_engine_tests_pass_on_the_source_too() -> None:
    """The DATC, the rule sets and the order language, run again on the plain Python source."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/engine",
            "tests/language",
            "tests/test_adjudication_cases.py",
            "tests/test_adjudicate_json_codec.py",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, PURE_ENV: "1"},
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout


# A stream of the world board's phases, every reader's picture of each, each board's pictures
# of tools/make_doc_pictures.py, and every power's own picture of the openings of the boards
# too wide to read whole: what the pictures' compiled modules draw, as a digest.
PICTURES_DIGEST = """
import hashlib, sys
sys.path[:0] = ["bench", "tools"]
import pictures, make_doc_pictures
from judge.compiled import COMPILED_MODULES, is_compiled
from judge.map_files import load_map, start_case
from judge.pictures.source import PictureSource, picture_svg, picture_svgs
from judge.variants import MASTER, OBSERVERS
readers = [*sorted(load_map("mercator-world").powers), OBSERVERS, MASTER]
digest = hashlib.sha1()
for source in pictures.world_stream(12):
    drawn = picture_svgs(source, readers)
    for reader in readers:
        digest.update((drawn[reader] or "").encode())
for name, (source, reader) in sorted(make_doc_pictures.pictures().items()):
    digest.update((picture_svg(source, reader) or "").encode())
for board, variant in (("youngstown", "youngstown"), ("mercator-world", "mercator")):
    case = {**start_case(load_map(board)), "variant": variant, "map": board}
    powers = sorted(load_map(board).powers)
    drawn = picture_svgs(PictureSource(case), powers)
    for power in powers:
        digest.update((drawn[power] or "").encode())
print(sum(is_compiled(m) for m in COMPILED_MODULES if m.startswith("judge.pictures")))
print(digest.hexdigest())
"""


@pytest.mark.skipif(
    not REQUIRED and not any(compiled_paths(ROOT, m) for m in COMPILED_MODULES),
    reason="this install is plain Python (no C compiler at build time)",
)
def test_the_compiled_pictures_are_the_source_s_byte_for_byte() -> None:
    """The pictures' modules compiled draw what their source draws: a tuple compiled by mypyc
    is made anew where Python hands back the same object, so `box is near[0]` once told the
    compiled build a unit's own province from its neighbours wrongly, and France's windows on
    Youngstown came out in another order."""
    compiled = _run(PICTURES_DIGEST, **{PURE_ENV: ""}).split()
    source = _run(PICTURES_DIGEST, **{PURE_ENV: "1"}).split()
    pictures = sum(m.startswith("judge.pictures.") for m in COMPILED_MODULES)
    assert pictures >= 3 and compiled[0] == str(pictures) and source[0] == "0"
    assert compiled[1] == source[1]
