"""The house's floor plan, read from the code: every module of judge/ stands on a floor, imports
only from its own floor or those below, and no import circle joins more than two modules.

The floors are written out in docs/ARCHITECTURE.md ("Floors"); a new module falls on the floor of
its longest matching prefix below. A new upward import or a new circle fails here, naming the
line: move the function to the floor that owns it instead of reaching up for it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "judge"

# Bottom to top. A module belongs to the floor of the longest prefix that names it.
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("judge", "judge.compiled", "judge.clock", "judge.resources", "judge.config")),
    ("engine", ("judge.engine",)),
    ("reading", ("judge.map_files", "judge.language")),
    # Mail as text (its reader knows what looks like a command): reading a mail, the header gate, the loop guard's rules, credentials' rules.
    ("mail text", ("judge.mail",)),
    (
        "writing",
        (
            "judge.render",
            "judge.reports",
            "judge.pictures.scene",
            "judge.pictures.layout",
            "judge.pictures.board",
            "judge.pictures.shapes",
            "judge.pictures.shape_checks",
        ),
    ),
    ("variants", ("judge.variants",)),
    ("adjudication", ("judge.adjudicate_json",)),
    ("pictures", ("judge.pictures",)),
    ("games", ("judge.games", "judge.identity")),
    ("store", ("judge.store",)),
    ("desk", ("judge.desk",)),
    (
        "runners",
        (
            "judge.processor",
            "judge.scheduler",
            "judge.wakeups",
            "judge.game_archive",
            "judge.pictures.step",
            "judge.mail.imap_inbound",
            "judge.mail.smtp_listener",
            "judge.mail.outbound",
        ),
    ),
    (
        "top",
        (
            "judge.serve",
            "judge.cli",
            "judge.cli_adjudicate",
            "judge.cli_daemon",
            "judge.cli_game",
            "judge.web",
        ),
    ),
)

# Upward imports still standing, each a debt to pay by moving the function down; none may be added.
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()


def module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        names[dotted.removesuffix(".__init__")] = path
    return names


def floor_of(module: str) -> int:
    best, length = -1, -1
    for index, (_, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > length:
                best, length = index, len(prefix)
    return best


def imports_of(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The judge modules `module` imports (at any depth of its code), with the line."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".") if is_package else module.split(".")[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            # `from a import b` imports a (its __init__) and, where b is a module, a.b.
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != module:
                yield target, node.lineno


def graph() -> dict[str, set[str]]:
    known = module_names()
    return {m: {t for t, _ in imports_of(m, p, known)} for m, p in known.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups (Tarjan), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                groups.append(sorted(group))
    return groups


def test_every_module_stands_on_a_floor() -> None:
    assert [m for m in module_names() if floor_of(m) < 0] == []


def test_no_module_imports_from_a_floor_above_it() -> None:
    known = module_names()
    upward = []
    for module, path in sorted(known.items()):
        for target, line in imports_of(module, path, known):
            if floor_of(target) > floor_of(module) and (module, target) not in KNOWN_UPWARD:
                upward.append(
                    f"{path.relative_to(ROOT)}:{line}: {module} ({FLOORS[floor_of(module)][0]})"
                    f" imports {target} ({FLOORS[floor_of(target)][0]})"
                )
    assert upward == []


def test_the_known_upward_imports_still_stand() -> None:
    """A debt paid is struck off the list, so the list stays the truth."""
    edges = graph()
    assert [pair for pair in sorted(KNOWN_UPWARD) if pair[1] not in edges.get(pair[0], ())] == []


def test_no_import_circle_joins_more_than_two_modules() -> None:
    assert [group for group in circles(graph()) if len(group) > 2] == []


@pytest.mark.parametrize(
    ("edges", "largest"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, 3),
        ({"a": {"b"}, "b": {"a"}, "c": set()}, 2),
        ({"a": {"b"}, "b": set()}, 1),
    ],
)
def test_the_circle_finder_finds_circles(edges: dict[str, set[str]], largest: int) -> None:
    assert max(len(group) for group in circles(edges)) == largest


def test_an_upward_import_is_seen(tmp_path: Path) -> None:
    """The reader sees a function-level import too (the kind that hid the desk's circle)."""
    module = tmp_path / "low.py"
    module.write_text("def f():\n    from judge.serve import main\n    return main\n")
    known = {**module_names(), "judge.engine.low": module}
    assert ("judge.serve", 2) in set(imports_of("judge.engine.low", module, known))
    assert floor_of("judge.serve") > floor_of("judge.engine.low")
