"""Subcommands `judge adjudicate` and `judge map`: the engine without mail or database."""

from __future__ import annotations

import json
import os
import stat
import sys
from types import SimpleNamespace
from typing import IO, TYPE_CHECKING, Any

from judge.adjudicate_json import (
    CaseError,
    dumps_line,
    dumps_line_bytes,
    loads_case,
    loads_case_quickly,
    run_case,
)
from judge.engine.geography import MapError
from judge.language.orders import OrderSyntaxError, parse_order
from judge.map_files import available_maps, load_map, map_summary, start_case

if TYPE_CHECKING:
    import argparse


def _open_input(name: str) -> IO[str]:
    return sys.stdin if name == "-" else open(name, encoding="utf-8")  # noqa: SIM115


def _open_lines(name: str) -> IO[bytes]:
    """A batch's input as bytes: its common line goes to orjson undecoded."""
    return sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115


def _rules_arg(value: str | None) -> list[str] | None:
    return [n.strip() for n in value.split(",") if n.strip()] if value else None


def _one(args: argparse.Namespace) -> int:
    if args.picture and _picture_suffix("judge adjudicate", args.picture) is None:
        return 2
    try:
        with _open_input(args.file) as stream:
            text = stream.read()
    except OSError as exc:
        print(f"judge adjudicate: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        case = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"judge adjudicate: input is not JSON: {exc}", file=sys.stderr)
        return 2
    try:
        out = run_case(case, variant=args.variant, rules=_rules_arg(args.rules))
    except CaseError as exc:
        print(f"judge adjudicate: {exc}", file=sys.stderr)
        return 2
    if args.picture:
        from judge.pictures.source import PictureSource, picture_svg

        if args.variant and "variant" not in case:
            case["variant"] = args.variant
        orders = case.get("orders") or {}
        svg = picture_svg(PictureSource(case, orders, out))
        if _write_picture("judge adjudicate", args.picture, svg) != 0:
            return 2
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def _picture_suffix(command: str, path: str) -> str | None:
    """ ".svg" or ".png", by the file's name; None (and why, on stderr) for any other."""
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in (".svg", ".png"):
        print(f"{command}: --picture {path}: name a .svg or .png file", file=sys.stderr)
        return None
    return suffix


def _write_picture(command: str, path: str, svg: str | None) -> int:
    """Write a picture to `path`: SVG or PNG by its suffix."""
    from pathlib import Path

    suffix = _picture_suffix(command, path)
    if suffix is None:
        return 2
    if svg is None:
        print(f"{command}: this board has no picture to show", file=sys.stderr)
        return 2
    if suffix == ".svg":
        data = svg.encode("utf-8")
    else:
        from judge.pictures.png import PictureError, png_of

        try:
            data = png_of(svg)
        except PictureError as exc:
            print(f"{command}: {exc}", file=sys.stderr)
            return 2
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        print(f"{command}: cannot write {path}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0


def _batch_line(line: str, variant: str | None, rules: list[str] | None) -> dict[str, Any]:
    try:
        case = loads_case(line)
    except json.JSONDecodeError as exc:
        return {"error": f"input is not JSON: {exc}"}
    try:
        return run_case(case, variant=variant, rules=rules)
    except CaseError:
        pass
    # The message quotes the faulty value: read the line as the standard library reads it
    # (loads_case gives a float for an integer past 64 bits), so it is quoted as written.
    try:
        return run_case(json.loads(line), variant=variant, rules=rules)
    except CaseError as exc:
        return {"error": str(exc)}


def batch_output(line: str, variant: str | None, rules: list[str] | None) -> str:
    """One input line of `--batch` -> its output line (without the newline)."""
    return dumps_line(_batch_line(line, variant, rules))


def batch_output_bytes(line: bytes, variant: str | None, rules: list[str] | None) -> bytes:
    """One input line of `--batch` as bytes -> its output line (without the newline): what
    `batch_output` gives for its text, the common line neither decoded nor its result encoded
    (a batch's lines are thousands); a line that is not UTF-8 is an error line of its own."""
    try:
        case = loads_case_quickly(line)
    except ValueError:
        pass
    else:
        try:
            return dumps_line_bytes(run_case(case, variant=variant, rules=rules))
        except CaseError:
            pass  # worded by the text's path, which quotes the faulty value as written
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        return dumps_line_bytes({"error": f"input is not UTF-8 text: {exc}"})
    return batch_output(text, variant, rules).encode("ascii")


# Characters `str.strip` takes for white space that `bytes.strip` does not (the ASCII
# information separators); any other ASCII character after `bytes.strip` is text.
_TEXT_SPACES = frozenset(b"\x1c\x1d\x1e\x1f")


def _blank(line: bytes) -> bool:
    """Whether a line is blank as its text's `str.strip` reads it (Unicode's spaces too)."""
    stripped = line.strip()
    if not stripped:
        return True
    first = stripped[0]
    if first < 0x80 and first not in _TEXT_SPACES:
        return False
    return not line.decode("utf-8", "replace").strip()


_CHUNK = 64  # lines handed to a worker at a time with --jobs


def _chunk_output(task: tuple[list[bytes], str | None, list[str] | None]) -> bytes:
    """A worker's share of `--batch --jobs`: the output lines of a chunk of input lines."""
    lines, variant, rules = task
    return b"".join(batch_output_bytes(line, variant, rules) + b"\n" for line in lines)


def _chunks(stream: IO[bytes], variant: str | None, rules: list[str] | None) -> Any:
    chunk: list[bytes] = []
    for line in stream:
        if _blank(line):
            continue
        chunk.append(line)
        if len(chunk) == _CHUNK:
            yield chunk, variant, rules
            chunk = []
    if chunk:
        yield chunk, variant, rules


class _Output:
    """A batch's output lines, written as bytes in blocks (a result is some kilobytes and a
    batch thousands of them); each line at once where someone may be waiting for it: on a
    terminal, or when the input is not a file (a pipe a program feeds case by case)."""

    _BLOCK = 1 << 18

    def __init__(self, out: IO[str], stream: IO[bytes]) -> None:
        out.flush()
        self._text = out
        self._bytes: IO[bytes] | None = getattr(out, "buffer", None)
        self._waiting = out.isatty() or not _is_file(stream)
        self._parts: list[bytes] = []
        self._size = 0

    def write(self, data: bytes) -> None:
        """Lines, each ended by its newline."""
        self._parts.append(data)
        self._added(len(data))

    def write_line(self, line: bytes) -> None:
        """One line, without its newline."""
        self._parts += (line, b"\n")
        self._added(len(line) + 1)

    def _added(self, size: int) -> None:
        self._size += size
        if self._waiting or self._size >= self._BLOCK:
            self.flush()

    def flush(self) -> None:
        data = b"".join(self._parts)
        self._parts.clear()
        self._size = 0
        if self._bytes is None:  # a text stream put in stdout's place
            self._text.write(data.decode("ascii"))
            self._text.flush()
        else:
            self._bytes.write(data)
            self._bytes.flush()


def _is_file(stream: IO[bytes]) -> bool:
    try:
        return stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # no descriptor: a stream in memory
        return True


def _batch_jobs(
    stream: IO[bytes], out: _Output, variant: str | None, rules: list[str] | None, jobs: int
) -> None:
    """The lines spread over `jobs` worker processes, the output written in input order."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    # Read the map and build its order parser before the workers fork, so each starts warm.
    try:
        warm = load_map(variant or "standard")
        parse_order("waive", warm)
    except (MapError, KeyError, FileNotFoundError, OrderSyntaxError):
        pass  # every line will say what is wrong with its variant
    with context.Pool(jobs) as pool:
        for data in pool.imap(_chunk_output, _chunks(stream, variant, rules)):
            out.write(data)


def _batch(args: argparse.Namespace) -> int:
    rules = _rules_arg(args.rules)
    jobs = args.jobs if args.jobs > 0 else (os.cpu_count() or 1)
    try:
        stream = _open_lines(args.file)
    except OSError as exc:
        print(f"judge adjudicate: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    with stream:
        out = _Output(sys.stdout, stream)
        if jobs > 1:
            _batch_jobs(stream, out, args.variant, rules, jobs)
        else:
            for line in stream:
                if not _blank(line):
                    out.write_line(batch_output_bytes(line, args.variant, rules))
        out.flush()
    return 0


def _adjudicate(args: argparse.Namespace) -> int:
    if args.batch and args.picture:
        print("judge adjudicate: --picture draws one case, not a --batch", file=sys.stderr)
        return 2
    return _batch(args) if args.batch else _one(args)


def _own_board(args: argparse.Namespace) -> int | None:
    """`judge map VARIANT --players N --seed S` or `--maze FILE`: a board of a variant whose
    games carry their own (Algernon's maze), generated or given, checked and summed up."""
    if args.players is None and args.maze is None:
        return None
    from judge.variants import UnknownVariant, variant

    try:
        found = variant(args.name)
    except UnknownVariant as exc:
        print(f"judge map: {exc}", file=sys.stderr)
        return 2
    if found.rules.board_in_case is None or found.rules.new_game is None:
        print(f"judge map: {found.name} games play on maps/ boards", file=sys.stderr)
        return 2
    try:
        if args.maze is not None:
            import tomllib

            with open(args.maze, "rb") as handle:
                case: dict[str, Any] = {"maze": tomllib.load(handle)}
        else:
            case = found.rules.new_game([str(args.players)], args.seed)
        board = found.rules.board_in_case(case)
    except (OSError, ValueError, MapError) as exc:
        print(f"judge map: {exc}", file=sys.stderr)
        return 2
    if args.picture:
        from judge.pictures.source import PictureSource, picture_svg

        return _write_picture("judge map", args.picture, picture_svg(PictureSource(case)))
    if args.start:
        json.dump(case, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    summary = (
        found.report.board_summary(board) if found.report.board_summary else map_summary(board)
    )
    sys.stdout.write(summary.rstrip("\n") + "\n")
    return 0


def _map(args: argparse.Namespace) -> int:
    own = _own_board(args)
    if own is not None:
        return own
    try:
        game_map = load_map(args.name)
    except (FileNotFoundError, KeyError) as exc:
        known = ", ".join(available_maps())
        print(f"judge map: unknown map {args.name!r} ({exc}); known maps: {known}", file=sys.stderr)
        return 2
    except MapError as exc:
        print(f"judge map: {exc}", file=sys.stderr)
        return 2
    if args.picture:
        from judge.pictures.source import board_picture_svg

        return _write_picture("judge map", args.picture, board_picture_svg(game_map))
    if args.start:
        json.dump(start_case(game_map), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(map_summary(game_map).rstrip("\n") + "\n")
    return 0


def quick_args(words: list[str]) -> SimpleNamespace | None:
    """`adjudicate --batch [--jobs N] [FILE]` read as argparse reads it (`register` below),
    without argparse: its import and its parsers cost each start 3 ms, and a batch run is often
    short. None for any other command line, which argparse reads and words the faults of."""
    if words[:2] != ["adjudicate", "--batch"]:
        return None
    rest, jobs = words[2:], 1
    if rest[:1] == ["--jobs"] and len(rest) > 1 and rest[1].isascii() and rest[1].isdigit():
        rest, jobs = rest[2:], int(rest[1])
    if len(rest) > 1 or (rest and rest[0] != "-" and rest[0].startswith("-")):
        return None
    return SimpleNamespace(
        command="adjudicate",
        file=rest[0] if rest else "-",
        batch=True,
        jobs=jobs,
        variant=None,
        rules=None,
        picture=None,
        func=_adjudicate,
        leave_at_once=True,
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    adj = subparsers.add_parser(
        "adjudicate",
        help="adjudicate one phase given as JSON (docs/ADJUDICATE.md)",
        description="Adjudicate a phase: a JSON case in, a JSON result out.",
    )
    adj.add_argument("file", nargs="?", default="-", help="case file, or - for standard input")
    adj.add_argument(
        "--batch", action="store_true", help="one case a line in, one result a line out"
    )
    adj.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="with --batch: spread the lines over N worker processes (0: one per core); "
        "the output is the same, in input order",
    )
    adj.add_argument("--variant", help="map/variant when the case does not name one")
    adj.add_argument("--rules", help="rule sets, comma separated (e.g. postal-1972,key-rule)")
    adj.add_argument(
        "--picture",
        metavar="FILE",
        help="also draw the position after the phase, with its orders, to FILE (.svg or .png)",
    )
    # Nothing is left to close when it ends: `judge` leaves without the interpreter's teardown.
    adj.set_defaults(func=_adjudicate, leave_at_once=True)

    mp = subparsers.add_parser("map", help="a map's summary, or its starting position")
    mp.add_argument("name", help="map name, e.g. standard or youngstown")
    mp.add_argument(
        "--start", action="store_true", help="print the starting position as an adjudicate case"
    )
    mp.add_argument("--players", type=int, help="a generated board for N players (Algernon's maze)")
    mp.add_argument("--seed", type=int, default=0, help="the seed of a generated board")
    mp.add_argument("--maze", help="a board file of the variant's own to check (Algernon)")
    mp.add_argument(
        "--picture",
        metavar="FILE",
        help="draw the board with its starting position to FILE (.svg or .png)",
    )
    mp.set_defaults(func=_map)
