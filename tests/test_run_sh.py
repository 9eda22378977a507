"""./run.sh installs the judge only when what the install is made from changed since the last
install (judge/compiled.py's install_fingerprint), so a second start is quick and a `git pull`
or an edit of a compiled module's source still rebuilds."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from judge.compiled import COMPILED_MODULES, INSTALL_INPUTS, install_fingerprint, source_path

ROOT = Path(__file__).resolve().parent.parent


def _checkout(tmp_path: Path) -> Path:
    """A copy of what run.sh reads, with a .venv whose pip records its installs (the install
    itself is the build's, tested in test_packaging.py) and whose `judge` says it started."""
    root = tmp_path / "checkout"
    for name in ("run.sh", *INSTALL_INPUTS):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, root / name)
    for module in COMPILED_MODULES:
        source = source_path(ROOT, module)
        target = source_path(root, module)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    (root / "judge" / "other.py").write_text("X = 1\n")
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-m" ] && [ "$2" = pip ]; then echo "$@" >> "$(dirname "$0")/pip.log"; '
        "exit 0; fi\n"
        f'exec {sys.executable} "$@"\n'
    )
    (bin_dir / "judge").write_text('#!/bin/sh\necho "judge $*"\n')
    for script in (python, bin_dir / "judge"):
        script.chmod(0o755)
    return root


def _run(root: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_PURE_PYTHON"}
    done = subprocess.run(
        ["bash", str(root / "run.sh"), "--only", "inbound"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "judge serve --only inbound"
    return done.stdout


def _installs(root: Path) -> int:
    log = root / ".venv" / "bin" / "pip.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_run_sh_installs_once_then_only_after_a_change_of_what_the_install_is_made_of(
    tmp_path: Path,
) -> None:
    root = _checkout(tmp_path)
    _run(root)
    assert _installs(root) == 1
    _run(root)
    assert _installs(root) == 1  # nothing changed: straight to `judge serve`
    (root / "judge" / "other.py").write_text("X = 2\n")  # imported in place: no install
    _run(root)
    assert _installs(root) == 1
    compiled = source_path(root, "judge.engine.resolve")
    compiled.write_text(compiled.read_text() + "\n# edited\n")  # a pull or an edit
    _run(root)
    assert _installs(root) == 2
    pyproject = root / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + "\n# a new dependency\n")
    _run(root)
    assert _installs(root) == 3
    _run(root)
    assert _installs(root) == 3


def test_the_fingerprint_follows_the_build_inputs_and_the_pure_python_switch(
    tmp_path: Path, monkeypatch
) -> None:
    root = _checkout(tmp_path)
    monkeypatch.delenv("JUDGE_PURE_PYTHON", raising=False)
    first = install_fingerprint(root)
    assert install_fingerprint(root) == first
    (root / "judge" / "other.py").write_text("X = 3\n")
    assert install_fingerprint(root) == first
    monkeypatch.setenv("JUDGE_PURE_PYTHON", "1")
    assert install_fingerprint(root) != first
    monkeypatch.delenv("JUDGE_PURE_PYTHON")
    hook = root / "hatch_build.py"
    hook.write_text(hook.read_text() + "\n")
    assert install_fingerprint(root) != first
