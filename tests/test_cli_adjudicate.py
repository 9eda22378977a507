"""`judge adjudicate` and `judge map` as a user runs them: a real process, JSON in and out."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any

import pytest

JUDGE = [sys.executable, "-m", "judge.cli"]


def run(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(JUDGE + args, input=stdin, capture_output=True, text=True, timeout=60)


def start_case() -> dict[str, Any]:
    proc = run(["map", "standard", "--start"])
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_map_summary_names_powers_and_centres() -> None:
    proc = run(["map", "standard"])
    assert proc.returncode == 0
    assert "ENGLAND" in proc.stdout and "34 supply centres" in proc.stdout


def test_unknown_map_is_one_line_and_exit_2() -> None:
    proc = run(["map", "atlantis"])
    assert proc.returncode == 2
    assert "atlantis" in proc.stderr and "Traceback" not in proc.stderr


def test_a_game_plays_phase_by_phase_through_the_command() -> None:
    """Spring and fall 1901, then the winter builds, each phase fed the last one's result."""
    case = start_case()
    case["orders"] = {
        "FRANCE": ["A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"],
        "GERMANY": ["A Mun - Bur", "F Kie - Den", "A Ber - Kie"],
        "ENGLAND": ["F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"],
    }
    proc = run(["adjudicate", "-"], json.dumps(case))
    assert proc.returncode == 0, proc.stderr
    spring = json.loads(proc.stdout)
    assert [r["result"] for r in spring["results"]["FRANCE"]] == ["success"] * 3
    assert [r["result"] for r in spring["results"]["GERMANY"]] == ["failure", "success", "success"]
    assert spring["next_phase"] == "F1901M"

    fall = {
        "variant": "standard",
        "phase": spring["next_phase"],
        "units": spring["units_after"],
        "centers": spring["centers_after"],
        "orders": {
            "FRANCE": ["F Mao - Por", "A Bur - Bel"],
            "ENGLAND": ["F Nth C A Yor - Nwy", "A Yor - Nwy"],
        },
    }
    proc = run(["adjudicate", "-"], json.dumps(fall))
    assert proc.returncode == 0, proc.stderr
    after = json.loads(proc.stdout)
    assert after["next_phase"] == "W1901A"
    assert set(after["centers_after"]["FRANCE"]) == {"bre", "mar", "par", "por", "bel"}
    assert "nwy" in after["centers_after"]["ENGLAND"]
    assert "den" in after["centers_after"]["GERMANY"]

    winter = {
        "variant": "standard",
        "phase": "W1901A",
        "units": after["units_after"],
        "centers": after["centers_after"],
        "orders": {"FRANCE": ["Build A Par", "Build F Bre", "Build A Mar"]},
    }
    proc = run(["adjudicate", "-"], json.dumps(winter))
    assert proc.returncode == 0, proc.stderr
    built = json.loads(proc.stdout)
    assert [r["result"] for r in built["results"]["FRANCE"]] == ["success", "success", "void"]
    assert built["next_phase"] == "S1902M"


def test_batch_keeps_order_and_reports_bad_lines_in_place() -> None:
    case = start_case()
    case["orders"] = {"ITALY": ["A Ven - Tyr"]}
    lines = [
        json.dumps(case),
        "{not json",
        json.dumps({**case, "variant": "nowhere"}),
        json.dumps(case),
    ]
    proc = run(["adjudicate", "--batch", "-"], "\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    outs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(outs) == 4
    assert outs[0]["results"]["ITALY"][0]["result"] == "success"
    assert "error" in outs[1] and "JSON" in outs[1]["error"]
    assert "variant" in outs[2]["error"] and "nowhere" in outs[2]["error"]
    assert outs[3] == outs[0]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"variant": "nowhere"}, "variant"),
        ({"phase": "X1901M"}, "phase"),
        ({"units": [{"power": "FRANCE", "type": "A", "loc": "zzz"}]}, "units[0].loc"),
        ({"units": [{"power": "FRANCE", "type": "Q", "loc": "par"}]}, "units[0].type"),
        ({"units": [{"power": "FRANCE", "type": "A", "loc": "nth"}]}, "units[0].loc"),
        ({"centers": {"FRANCE": ["bur"]}}, "centers.FRANCE"),
        ({"orders": {"FRANCE": "A Par - Bur\nA Mar H"}}, None),
        ({"orders": {"FRANCE": [1, 2]}}, "orders.FRANCE"),
        ({"rules": ["no-such-rules"]}, "rules"),
        ({"units": "everything"}, "units"),
    ],
)
def test_malformed_input_is_one_line_naming_the_field(
    change: dict[str, Any], field: str | None
) -> None:
    case = {**start_case(), **change}
    proc = run(["adjudicate", "-"], json.dumps(case))
    if field is None:  # orders given as one text block are accepted
        assert proc.returncode == 0, proc.stderr
        return
    assert proc.returncode == 2
    message = proc.stderr.strip()
    assert "\n" not in message and "Traceback" not in message
    assert field in message


def test_unreadable_order_is_a_result_not_an_error() -> None:
    case = start_case()
    case["orders"] = {"ENGLAND": ["F Lon - Liv", "A Lvp - Yor"]}
    proc = run(["adjudicate", "-"], json.dumps(case))
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["results"]["ENGLAND"]
    assert results[0]["result"] == "illegal"
    assert "Liv" in results[0]["reason"]
    assert results[1]["result"] == "success"


def test_random_damage_to_a_case_never_gives_a_traceback() -> None:
    """Bytes flipped, fields dropped and values swapped: always a result or a one-line error."""
    rng = random.Random(1901)
    base = start_case()
    base["orders"] = {"FRANCE": ["A Par - Bur"], "RUSSIA": ["F Stp/sc - Bot"]}
    text = json.dumps(base)
    lines = []
    for _ in range(150):
        choice = rng.random()
        if choice < 0.4:
            i = rng.randrange(len(text))
            lines.append(text[:i] + rng.choice('{}[]",:xq0') + text[i + 1 :])
        elif choice < 0.7:
            damaged = dict(base)
            damaged.pop(rng.choice(list(damaged)))
            lines.append(json.dumps(damaged))
        else:
            damaged = dict(base)
            key = rng.choice(list(damaged))
            damaged[key] = rng.choice([None, 7, "x", [], {}, [None], {"a": None}])
            lines.append(json.dumps(damaged))
    proc = run(
        ["adjudicate", "--batch", "-"], "\n".join(line.replace("\n", " ") for line in lines) + "\n"
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    outs = proc.stdout.splitlines()
    assert len(outs) == len([line for line in lines if line.strip()])
    for out in outs:
        value = json.loads(out)
        assert "error" in value or "results" in value


@pytest.mark.parametrize("jobs", ["2", "3", "0"])
def test_batch_with_jobs_writes_the_same_bytes_in_input_order(jobs: str) -> None:
    case = start_case()
    rng = random.Random(7)
    lines = []
    for i in range(300):  # several chunks per worker, each line a little different
        c = dict(case)
        c["orders"] = {"FRANCE": [rng.choice(["A Par - Bur", "A Par H", "A Par - Pic", "A Par-"])]}
        c["orders"]["ITALY"] = [f"A Ven - {rng.choice(['Tyr', 'Pie', 'Rom', 'Apu', 'Xyz'])}"]
        lines.append(json.dumps(c))
        if i % 37 == 0:
            lines += ["{not json", "", "   ", json.dumps({**case, "variant": "nowhere"})]
    text = "\n".join(lines) + "\n"
    one = run(["adjudicate", "--batch", "-"], text)
    many = run(["adjudicate", "--batch", "--jobs", jobs, "-"], text)
    assert one.returncode == many.returncode == 0, many.stderr
    assert many.stdout == one.stdout
    assert len(one.stdout.splitlines()) == len([line for line in lines if line.strip()])


@pytest.mark.parametrize("name", ["standard", "youngstown", "1885"])
def test_map_picture_draws_the_board_and_its_start(name: str, tmp_path: Any) -> None:
    svg_file, png_file = tmp_path / "board.svg", tmp_path / "board.png"
    for target in (svg_file, png_file):
        proc = run(["map", name, "--picture", str(target)])
        assert proc.returncode == 0, proc.stderr
    svg = svg_file.read_text()
    start = json.loads(run(["map", name, "--start"]).stdout)
    for unit in start["units"]:
        assert f'id="u-{unit["power"]}-{unit["loc"]}"' in svg
    assert png_file.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_map_picture_of_a_generated_maze_is_the_whole_maze(tmp_path: Any) -> None:
    target = tmp_path / "maze.svg"
    proc = run(["map", "algernon", "--players", "4", "--seed", "9", "--picture", str(target)])
    assert proc.returncode == 0, proc.stderr
    assert "The whole maze" in target.read_text()


def test_adjudicate_picture_draws_the_position_after_the_case(tmp_path: Any) -> None:
    case = start_case()
    case["orders"] = {"FRANCE": ["A Par - Bur", "A Mar - Bur", "F Bre - Mao"]}
    target = tmp_path / "after.svg"
    proc = run(["adjudicate", "-", "--picture", str(target)], json.dumps(case))
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    svg = target.read_text()
    for unit in out["units_after"]:
        assert f'id="u-{unit["power"]}-{unit["loc"]}"' in svg
    assert 'id="u-FRANCE-mao"' in svg  # the fleet moved
    # Three orders drawn; the two armies bounced in Burgundy: their arrows are marked failed.
    assert svg.count('<g id="o-') == 3
    assert svg.count('class="move failed"') == 2


def test_picture_file_must_be_svg_or_png(tmp_path: Any) -> None:
    for args in (["map", "standard"], ["adjudicate", "-"]):
        proc = run([*args, "--picture", str(tmp_path / "board.gif")], json.dumps(start_case()))
        assert proc.returncode == 2 and ".svg or .png" in proc.stderr
        assert not (tmp_path / "board.gif").exists()


def test_the_standard_game_on_a_board_of_another_calendar() -> None:
    """A case plays in its variant's calendar whatever the board's own: the standard game on
    the monthly 1885 board moves in spring and fall and builds in winter."""
    proc = run(["map", "1885", "--start"])
    assert proc.returncode == 0, proc.stderr
    case = json.loads(proc.stdout)
    case.update(variant="standard", map="1885", phase="F1885M")
    case["orders"] = {"FRANCE": ["A Par - Bur"]}
    proc = run(["adjudicate", "-"], json.dumps(case))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    fall = json.loads(proc.stdout)
    assert fall["results"]["FRANCE"][0]["result"] == "success"
    assert fall["next_phase"] == "W1885A"


# What a start of `judge adjudicate --batch` need not import: the daemon's libraries, and what
# only other paths of the judge need (a map's TOML once its reading is kept, paths as objects,
# the terminal's width through shutil, threads, the fractions of Mercenary's bids, argparse
# for a command line read by `quick_args`).
NOT_AT_START = (
    "argparse",
    "sqlalchemy",
    "jinja2",
    "lark",
    "email",
    "multiprocessing",
    "tomllib",
    "pathlib",
    "shutil",
    "threading",
    "fractions",
)

_MODULES_AFTER_BATCH = """
import json, os, sys
sys.argv = ["judge", "adjudicate", "--batch", sys.argv[1]]
stdout = sys.stdout
sys.stdout = open(os.devnull, "w")
from judge.cli import main
assert main() == 0
stdout.write(json.dumps(sorted(sys.modules)))
"""


def test_a_batch_starts_without_the_modules_it_does_not_need(tmp_path: Any) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text(json.dumps(start_case()) + "\n", encoding="utf-8")
    for _ in range(2):  # the first run may read the map's TOML and keep its reading
        proc = subprocess.run(
            [sys.executable, "-c", _MODULES_AFTER_BATCH, str(cases)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
    loaded = set(json.loads(proc.stdout))
    assert "judge.adjudicate_json" in loaded
    assert not {m for m in loaded if m.split(".")[0] in NOT_AT_START}


@pytest.mark.parametrize("columns", ["60", "133", None])
def test_the_help_is_as_wide_as_argparse_would_make_it(
    columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    from judge.cli_parser import HelpFormatter

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    ours, theirs = HelpFormatter("judge"), argparse.HelpFormatter("judge")
    assert (ours._width, ours._max_help_position) == (theirs._width, theirs._max_help_position)


@pytest.mark.parametrize(
    "words",
    [
        ["adjudicate", "--batch"],
        ["adjudicate", "--batch", "-"],
        ["adjudicate", "--batch", "cases.jsonl"],
        ["adjudicate", "--batch", "--jobs", "3", "cases.jsonl"],
        ["adjudicate", "--batch", "--jobs", "0"],
    ],
)
def test_a_batch_command_line_is_read_as_argparse_reads_it(words: list[str]) -> None:
    from judge.cli import build_parser
    from judge.cli_adjudicate import quick_args

    quick = quick_args(words)
    assert quick is not None
    assert vars(quick) == vars(build_parser(words).parse_args(words))


@pytest.mark.parametrize(
    "words",
    [
        ["adjudicate", "cases.json"],
        ["adjudicate", "--batch", "--variant", "mercator", "cases.jsonl"],
        ["adjudicate", "--batch", "--jobs", "-1", "cases.jsonl"],
        ["adjudicate", "--batch", "--jobs=2", "cases.jsonl"],
        ["adjudicate", "--batch", "a.jsonl", "b.jsonl"],
        ["adjudicate", "--batch", "--picture", "x.svg"],
        ["adjudicate", "--jobs", "2", "--batch"],
        ["map", "standard"],
    ],
)
def test_any_other_command_line_is_left_to_argparse(words: list[str]) -> None:
    from judge.cli_adjudicate import quick_args

    assert quick_args(words) is None


def test_a_batch_goes_on_past_a_line_that_is_not_utf8() -> None:
    """The input is bytes: a line that is not UTF-8 text is an error line, the rest adjudicated."""
    case = json.dumps(start_case()).encode()
    proc = subprocess.run(
        [*JUDGE, "adjudicate", "--batch", "-"],
        input=case + b"\n" + b'{"phase": "\xff"}\n' + case + b"\n",
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    outs = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [("error" in out) for out in outs] == [False, True, False]
    assert "UTF-8" in outs[1]["error"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_line_of_unicode_spaces_is_blank(jobs: str) -> None:
    """Blank as its text reads it: information separators, a no-break and an ideographic space."""
    case = json.dumps(start_case())
    text = f"{case}\n\x1c\x1f \n\u00a0\u3000\n\t\n{case}\n"
    proc = run(["adjudicate", "--batch", "--jobs", jobs, "-"], text)
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == 2


def test_a_program_feeding_a_batch_case_by_case_gets_each_answer_at_once() -> None:
    """Fed through a pipe, each result is written as its line is read: a program may send a
    case, wait for its result and send the next (the output is not held back in a buffer)."""
    import select

    case = json.dumps(start_case())
    proc = subprocess.Popen(
        [*JUDGE, "adjudicate", "--batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        for _ in range(3):
            proc.stdin.write(case + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no result while the input stays open"
            assert "results" in json.loads(proc.stdout.readline())
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        assert proc.stdout.read() == ""
    finally:
        proc.kill()
        proc.wait()


_WHOLE_PROCESS = """
import atexit, sys
atexit.register(lambda: sys.stderr.write("torn down\\n"))
from judge.cli import main
sys.exit(main(sys.argv[1:], whole_process=True))
"""


@pytest.mark.parametrize(
    ("words", "torn_down"),
    [
        (["adjudicate", "--batch", "-"], False),
        (["adjudicate", "-"], False),
        (["map", "standard"], True),
    ],
)
def test_judge_adjudicate_leaves_without_the_interpreter_s_teardown(
    words: list[str], torn_down: bool
) -> None:
    """Run as the process itself, `judge adjudicate` ends once its output is written (the
    teardown costs a short batch a tenth of its time); its output is whole and its status kept."""
    case = json.dumps(start_case())
    proc = subprocess.run(
        [sys.executable, "-c", _WHOLE_PROCESS, *words],
        input=case + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert ("torn down" in proc.stderr) == torn_down
    if words[0] == "adjudicate":
        assert "results" in json.loads(proc.stdout)
