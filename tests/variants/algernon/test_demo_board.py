"""Every order form (section I) and every notation (section II) of the Algernon rules, played
on the demonstration maze of rule 4 (tests/cases/maps/algernon_demo.toml) through the same
function as `judge adjudicate`."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.adjudicate_json import CaseError, run_case
from judge.variants.algernon import opening_case
from judge.variants.algernon.generator import fairness, generate_maze
from judge.variants.algernon.knowledge import Knowledge
from judge.variants.algernon.language import read_desk_line, read_order
from judge.variants.algernon.maze import maze_board, maze_problems
from judge.variants.algernon.orders import (
    Attack,
    BuildList,
    RetreatList,
    Stand,
    SupportAttack,
    SupportInto,
    SupportOut,
    order_text,
)

DEMO = Path(__file__).resolve().parents[2] / "cases" / "maps" / "algernon_demo.toml"


def demo() -> dict[str, Any]:
    return tomllib.loads(DEMO.read_text())


def case(units: dict[str, list[str]], orders: dict[str, list[str]], phase: str = "S1901M") -> Any:
    c = opening_case(demo(), 7)
    c["phase"] = phase
    c["units"] = [{"power": p, "type": "A", "loc": s} for p, ss in units.items() for s in ss]
    c["orders"] = orders
    return c


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("VT to 3", Attack("vt", 3)),
        ("VT h", Stand("vt")),
        ("VT", Stand("vt")),
        ("VT s 2", SupportOut("vt", 2)),
        ("VT s 4 (SQ to 6)", SupportAttack("vt", 4, "sq", 6)),
        ("MK s 1 (1)", SupportInto("mk", 1, 1)),
        ("VT(3,2,5,1,6,4)", RetreatList("vt", (3, 2, 5, 1, 6, 4))),
        ("Build MK, VT, CJ", BuildList(("mk", "vt", "cj"))),
    ],
)
def test_every_order_form_reads_and_writes_back(text: str, value: Any) -> None:
    assert read_order(text) == value
    assert read_order(order_text(value)) == value


def test_the_demonstration_board_is_a_fair_maze() -> None:
    board = maze_board(demo())
    assert sorted(board.powers["A"].home_centres) == ["dl", "mn", "pz"]
    assert sorted(board.powers["B"].home_centres) == ["pw", "qv", "wg"]
    assert board.through_portal("pz", 2) == "jc"  # rule 5: "PZ2 lead to JC"
    assert fairness(board).problems == ()


def test_an_attack_learns_the_space_ii_b() -> None:
    out = run_case(case({"A": ["pz", "dl"], "B": ["pw"]}, {"A": ["PZ to 2", "DL to 3"]}))
    # II.B.2: came in through portal 1 of neutral centre JC, which has 4 portals.
    assert "PZ to 2: JC1 NSC 4" in out["reports"]["A"]
    assert "DL to 3: VT1 6" in out["reports"]["A"]  # II.B.1
    known = out["knowledge"]["A"]
    assert known["spaces"]["jc"] == {"portals": 4, "centre": "NSC"}
    assert ["jc", 1, "pz", 2] in known["links"]
    assert "Units At: JC, VT" in out["reports"]["A"]  # II.F


def test_home_centre_notation_and_bounce_with_the_holder_ii_b3_c1_d3() -> None:
    out = run_case(case({"A": ["rt"], "B": ["pw"]}, {"A": ["RT to 4"]}))
    assert "RT to 4: PW3 HSC 3 Bounce (B h PW)" in out["reports"]["A"]
    assert "(A a in PW3)" in out["reports"]["B"]  # II.E.1 for the holder


def test_bounce_self_ii_c2() -> None:
    out = run_case(case({"A": ["pz", "mn"]}, {"A": ["PZ to 2", "MN to 2"]}))
    assert "PZ to 2: JC1 NSC 4 B.S." in out["reports"]["A"]


def test_the_attacked_rat_s_moves_by_portal_ii_d() -> None:
    out = run_case(
        case({"A": ["dl"], "B": ["vt", "sq"]}, {"A": ["DL to 3"], "B": ["VT to 3", "SQ to 1"]})
    )
    # B's VT rat stays put only if its attack fails; here it leaves, so it opposes nobody.
    assert "(B to VT3)" not in out["reports"]["A"]
    out = run_case(
        case(
            {"A": ["dl", "rt"], "B": ["vt"]},
            {"A": ["DL to 3", "RT h"], "B": ["VT to 3"]},
        )
    )
    assert "DL to 3: VT1 6 Bounce (B to VT3)" in out["reports"]["A"]  # II.D.1
    out = run_case(case({"A": ["dl"], "B": ["vt", "sq"]}, {"A": ["DL to 3"], "B": ["VT s 2"]}))
    assert "(B s VT2)" in out["reports"]["A"]  # II.D.2


def test_an_attack_into_a_holding_rat_ii_e1() -> None:
    orders = {"A": ["MN h"], "B": ["SQ to 1"]}
    out = run_case(case({"A": ["mn"], "B": ["sq"]}, orders))
    assert out["reports"]["A"].startswith("MN h: (B a in MN3)")


def test_support_into_by_entry_portal_and_cut_mark() -> None:
    # SQ attacks MN (entering through MN3); JC supports it out JC2 (into MN) "(3)": the
    # attack coming into MN through MN's portal 3.
    orders = {"A": ["MN h", "PZ to 2"], "B": ["SQ to 1", "JC s 2 (3)"]}
    out = run_case(case({"A": ["mn", "pz"], "B": ["sq", "jc"]}, orders))
    report = out["reports"]["A"]
    assert "(B a in MN3)" in report
    assert "(B s/ in MN2)" in report  # PZ attacked JC and cut the support: the slashed s
    orders = {"A": ["MN h"], "B": ["SQ to 1", "JC s 2 (3)"]}
    out = run_case(case({"A": ["mn"], "B": ["sq", "jc"]}, orders))
    assert "(B s in MN2)" in out["reports"]["A"]
    assert "Dislodged;" in out["reports"]["A"]


def test_swap_tells_only_the_other_player() -> None:
    out = run_case(case({"A": ["dl"], "B": ["vt"]}, {"A": ["DL to 3"], "B": ["VT to 1"]}))
    assert out["reports"]["A"].startswith("DL to 3: Bounce (swap with B)")
    assert "vt" not in out["knowledge"]["A"]["spaces"]
    assert "B" in out["knowledge"]["A"]["players"]


def test_retreat_by_priority_list_and_by_default() -> None:
    orders = {"A": ["MN h", "MN(3,2,1)"], "B": ["SQ to 1", "JC s 2 (3)"]}
    out = run_case(case({"A": ["mn"], "B": ["sq", "jc"]}, orders))
    # MN3 leads back to SQ (the attacker's space), MN2 to JC (occupied): MN1 to DL is open.
    assert "retreat out MN1: DL1 HSC 4" in out["reports"]["A"]
    orders = {"A": ["MN h"], "B": ["SQ to 1", "JC s 2 (3)"]}
    out = run_case(case({"A": ["mn", "dl"], "B": ["sq", "jc"]}, orders))
    assert "no open portal; destroyed" in out["reports"]["A"]


def test_builds_by_priority_list_and_public_counts() -> None:
    c = case({"A": ["jc"], "B": ["pw"]}, {"A": ["JC h", "Build PZ, MN"]}, phase="F1901M")
    out = run_case(c)
    assert "Built at: PZ, MN" in out["reports"]["A"]
    assert "Supply centres: A 4, B 3" in out["public_report"]  # rule 7
    assert "Supply centres: A 4, B 3" in out["reports"]["B"]
    assert out["next_phase"] == "S1902M"


def test_random_builds_are_reproducible() -> None:
    c = case({"A": ["jc"], "B": ["pw"]}, {"A": ["JC h"]}, phase="F1901M")
    assert run_case(c)["units_after"] == run_case(c)["units_after"]


def test_desk_refusals_give_nothing_away() -> None:
    board = maze_board(demo())
    c = opening_case(demo(), 7)
    from judge.adjudicate_json import read_variant_case

    position = read_variant_case(c).position
    context = {"position": position, "power": "A", "phase": "S1901M"}

    def error(line: str) -> str | None:
        return read_desk_line(board, line, 4, dict(context)).error

    assert error("PZ to 4") == "line 4, column 7: PZ has 3 portals: there is no portal 4"
    assert error("PZ s 2 (SQ to 1)") == "line 4, column 9: SQ is unknown to you"
    assert error("PZ s 2 (XX to 1)") == "line 4, column 9: XX is unknown to you"
    assert error("VT to 1") == "line 4, column 1: VT is unknown to you"
    assert error("Build DL") == "line 4, column 7: builds are listed in a fall turn (rule 9)"
    context["phase"] = "F1901M"
    assert error("Build PW") == "line 4, column 7: PW is unknown to you"
    assert error("PZ to 2") is None


def test_a_case_without_a_maze_is_refused() -> None:
    with pytest.raises(CaseError, match="maze"):
        run_case({"variant": "algernon", "phase": "S1901M", "units": [], "orders": {}})


def test_maze_faults_are_named() -> None:
    bad = demo()
    bad["provinces"]["vt"]["portals"]["7"] = "vt"
    faults = maze_problems(bad)
    assert "space 'vt': portals are numbered 1 to 7 with none missing" not in faults
    assert "space 'vt': a portal leads back into the space itself" in faults
    bad = demo()
    del bad["provinces"]["mk"]["portals"]["2"]
    assert any("has no portal back" in f for f in maze_problems(bad))


def test_generated_mazes_are_reproducible_fair_and_scale() -> None:
    assert generate_maze(6, 11) == generate_maze(6, 11)
    assert generate_maze(6, 11) != generate_maze(6, 12)
    sizes = []
    for players in (2, 5, 12, 20):
        board = maze_board(generate_maze(players, 3))
        assert len(board.powers) == players and fairness(board).problems == ()
        sizes.append((len(board.provinces), len(board.supply_centres())))
    assert sizes == sorted(sizes)


def test_an_unfair_maze_says_why() -> None:
    bad = demo()
    bad["provinces"]["dl"]["portals"]["4"] = "pw"
    bad["provinces"]["pw"]["portals"]["4"] = "dl"
    bad["provinces"]["hb"]["portals"] = {"1": "jc", "2": "rh"}
    problems = fairness(maze_board(bad)).problems
    assert "A's home DL is next to B's home PW" in problems


def test_knowledge_round_trips() -> None:
    known = Knowledge({"vt": {"portals": 6, "centre": ""}}, {("rt", 2, "vt", 3)}, {"TAG"})
    assert Knowledge.from_json(known.as_json()) == known


def test_judge_map_prints_the_fairness_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from judge.cli import main

    assert main(["map", "algernon", "--players", "5", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "Algernon: 5 players" in out and "fair:" in out
    assert main(["map", "algernon", "--maze", str(DEMO)]) == 0
    assert "A: 1, 1, 2, 2" in capsys.readouterr().out
