"""The engine stays pure: it imports nothing but itself and the standard library's plain parts."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from judge.adjudicate_json import run_case
from judge.map_files import load_map, start_case

ENGINE = Path(__file__).resolve().parents[2] / "judge" / "engine"
ALLOWED_STDLIB = {
    "__future__",
    "collections",
    "dataclasses",
    "enum",
    "functools",
    "itertools",
    "re",
    "typing",
    "math",
    "heapq",
    "bisect",
    "operator",
    "fractions",  # exact values and rates (Mercenary's money): pure and deterministic
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_engine_imports_only_itself_and_plain_stdlib() -> None:
    offenders = {}
    for path in ENGINE.rglob("*.py"):
        bad = {
            name
            for name in _imports(path)
            if not name.startswith("judge.engine") and name.split(".")[0] not in ALLOWED_STDLIB
        }
        if bad:
            offenders[path.name] = sorted(bad)
    assert offenders == {}


def test_same_input_same_result() -> None:
    """Deterministic: a crowded phase adjudicated twice in one process gives the same JSON."""
    case = start_case(load_map("standard"))
    case["orders"] = {
        "FRANCE": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Eng"],
        "GERMANY": ["A Mun - Bur", "A Ber - Mun", "F Kie - Hol"],
        "ENGLAND": ["F Lon - Eng", "F Edi - Nth", "A Lvp - Wal"],
    }
    first = json.dumps(run_case(case), sort_keys=True)
    second = json.dumps(run_case(json.loads(json.dumps(case))), sort_keys=True)
    assert first == second


def test_youngstown_plays_through_the_same_interface() -> None:
    """A Youngstown spring: India's armies bounce in the Deccan, its fleet sails, Japan holds."""
    case = start_case(load_map("youngstown"))
    case["orders"] = {
        "INDIA": ["A Del - Dec", "A Cal - Dec", "F Mad - Ben"],
        "JAPAN": ["F Tok - Npo", "F Kyo H"],
    }
    out = run_case(case)
    assert [r["result"] for r in out["results"]["INDIA"]] == ["failure", "failure", "success"]
    assert [r["result"] for r in out["results"]["JAPAN"]] == ["success", "success"]
    assert out["contested"] == ["dec"]
    assert out["next_phase"] == "F1901M"
    locs = {u["loc"] for u in out["units_after"]}
    assert {"ben", "npo", "del", "cal"} <= locs and "mad" not in locs


# A variant's rule modules are as pure as the engine: they may import the engine, their own
# variant's rule modules, the rule modules variants share (below) and the plain standard
# library; reading text (language.py, reading.py, desk.py: the desk's lines), writing results
# (report.py), drawing them (picture.py, with judge.pictures), explaining them to players
# (help.py: HELP <variant> and the start mail) and the record (__init__.py) may use more.
VARIANTS = ENGINE.parent / "variants"
NOT_RULES = {
    "__init__.py",
    "language.py",
    "reading.py",
    "report.py",
    "desk.py",
    "picture.py",
    "help.py",
}
# Algernon draws its random builds and mazes from a random.Random seeded by the case (never the
# module's shared generator): deterministic, so still pure.
VARIANT_STDLIB = ALLOWED_STDLIB | {"random"}
# Rule modules several variants share, kept beside the variants: as pure as the engine.
SHARED_RULES = {"aboard.py", "claims.py", "order_checks.py"}


def test_shared_variant_rule_modules_import_only_the_engine() -> None:
    offenders = {}
    for name in sorted(SHARED_RULES):
        bad = {
            imported
            for imported in _imports(VARIANTS / name)
            if not imported.startswith("judge.engine")
            and imported.split(".")[0] not in ALLOWED_STDLIB
        }
        if bad:
            offenders[name] = sorted(bad)
    assert offenders == {}


def test_variant_rule_modules_import_only_the_engine_and_their_own_rules() -> None:
    offenders = {}
    for path in VARIANTS.rglob("*.py"):
        if path.name in NOT_RULES or path.parent == VARIANTS:
            continue
        own = f"judge.variants.{path.parent.name}"
        shared = {f"judge.variants.{m.removesuffix('.py')}" for m in SHARED_RULES}
        bad = {
            name
            for name in _imports(path)
            if not (name.startswith("judge.engine") or name.startswith(own) or name in shared)
            and name.split(".")[0] not in VARIANT_STDLIB
            and name != own
        }
        if bad:
            offenders[str(path.relative_to(VARIANTS))] = sorted(bad)
    assert offenders == {}
    assert (VARIANTS / "mercator" / "month.py").is_file()
    assert (VARIANTS / "v1885" / "moves.py").is_file()
