"""Build hook: compile the adjudication path and the pictures' drawing with mypyc
(judge/compiled.py lists the modules).

Runs on `pip install .` and `pip install -e .`. Where compiling is impossible (no C compiler, no
Python headers) or JUDGE_PURE_PYTHON is set, it says so and the judge installs as plain Python,
which does the same work more slowly. The compiled files are built in build/judge-mypyc and go
into the wheel, or beside their sources for an editable install; judge/compiled.py keeps a
stale build from shadowing edited source.
"""

from __future__ import annotations

import os
import runpy
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# Each module's C in a file of its own (multi_file), compiled on every core (--parallel): one C
# file for the whole group took the install from scratch 71 s on two cores, these 47 s, the
# compiled code as quick.
_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="judge-compiled",
    ext_modules=mypycify({args!r}, opt_level="3", group_name={group!r}, multi_file=True),
)
"""


_INPUTS = "judge-build-inputs.txt"  # beside the compiled files in build/judge-mypyc


class CompileHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        root = Path(self.root)
        listing = runpy.run_path(str(root / "judge" / "compiled.py"))
        modules: tuple[str, ...] = listing["COMPILED_MODULES"]
        group: str = listing["SHARED_LIBRARY"].removesuffix("__mypyc")
        if version == "editable":
            self._remove_old_builds(root, group)  # a wheel build leaves the tree be
        if os.environ.get(listing["PURE_ENV"]):
            self.app.display_info("judge: JUDGE_PURE_PYTHON is set: not compiling")
            return
        # A wheel takes the compiled files from build/; an editable install imports the
        # sources in place, so there they go beside the sources.
        out = root / "build" / "judge-mypyc"
        # The last build is used again where it was made from the same inputs (the sources of
        # the group, the build hook, the list; judge/compiled.py's install_fingerprint) by the
        # same Python and mypyc: an install of an unchanged checkout compiles nothing.
        inputs = self._inputs(listing, root)
        built = self._last_build(out, inputs)
        if built is None:
            shutil.rmtree(out, ignore_errors=True)
            sources = [listing["source_path"](root, module) for module in modules]
            built = self._compile(sources, group, out)
            if built:
                (out / _INPUTS).write_text(inputs, encoding="utf-8")
        else:
            self.app.display_info("judge: the compiled files of the last build are up to date")
        if not built:
            return
        for path in built:
            relative = path.relative_to(out)
            if version == "editable":
                shutil.copy(path, root / relative)  # dated now: newer than its source
            else:
                build_data["force_include"][str(path)] = str(relative)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def _inputs(self, listing: dict, root: Path) -> str:
        """What a build is made from, as one line: the fingerprint of the sources and the
        versions of Python and mypyc that compile them."""
        from importlib.metadata import version

        fingerprint = listing["install_fingerprint"](root)
        return f"{fingerprint} python {sys.version.split()[0]} mypy {version('mypy')}\n"

    def _last_build(self, out: Path, inputs: str) -> list[Path] | None:
        """The compiled files in `out` where they were built from `inputs`, else None."""
        try:
            if (out / _INPUTS).read_text(encoding="utf-8") != inputs:
                return None
        except OSError:
            return None
        built = [path for path in out.rglob("*") if path.is_file() and path.name != _INPUTS]
        return built or None

    def _remove_old_builds(self, root: Path, group: str) -> None:
        """Every compiled file of an earlier editable build: of the modules listed now and of
        any a former list named (judge/compiled.py's guard checks only the listed ones)."""
        suffixes = (".so", ".pyd")
        for old in [*(root / "judge").rglob("*"), *root.glob(group + "__mypyc.*")]:
            if old.suffix in suffixes and old.is_file():
                old.unlink()

    def _compile(self, sources: list[Path], group: str, out: Path) -> list[Path]:
        """Compile with mypyc in a scratch folder; the built files land under `out`."""
        # Modules the group imports but that are not compiled are read, not checked; the
        # build's own environment lacks the judge's dependencies (orjson, lark): mypy takes
        # them as untyped.
        args = ["--follow-imports=silent", "--ignore-missing-imports", *map(str, sources)]
        with tempfile.TemporaryDirectory(prefix="judge-mypyc-") as scratch:
            setup = Path(scratch) / "setup.py"
            setup.write_text(_SETUP.format(args=args, group=group), encoding="utf-8")
            command = [
                sys.executable,
                str(setup),
                "build_ext",
                "--build-lib",
                str(out),
                "--build-temp",
                str(Path(scratch) / "tmp"),
                "--parallel",
                str(os.cpu_count() or 1),
            ]
            self.app.display_info(
                "judge: compiling the adjudication path and the pictures with mypyc"
            )
            done = subprocess.run(
                command,
                cwd=scratch,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                env={**os.environ, "MYPY_CACHE_DIR": str(Path(scratch) / "mypy-cache")},
            )
            if done.returncode != 0:
                tail = "\n".join(done.stdout.splitlines()[-15:])
                self.app.display_warning(
                    f"judge: mypyc could not compile; installing plain Python:\n{tail}"
                )
                return []
            return [path for path in out.rglob("*") if path.is_file()]
