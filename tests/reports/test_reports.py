"""Results reports in both styles: golden texts for whole phases, and the rules they must keep.

Golden texts live in tests/reports/golden/NAME.STYLE.txt. After a deliberate change to a report
layout, rewrite them with ``REPORTS_REGEN=1 .venv/bin/pytest tests/reports`` and read the diff.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from report_scenarios import (
    SCENARIOS,
    build,
    fall_1901,
    fall_1901_retreats,
    fall_1902_annihilation,
    fall_1903_retreats,
    fall_1905_victory,
    spring_1901,
    spring_1902_convoys,
    winter_1901,
)

from judge.engine.orders import Waive
from judge.engine.position import province_of
from judge.engine.results import SUCCESS
from judge.reports import (
    MASTER,
    OBSERVER,
    STYLES,
    PhaseReport,
    Viewer,
    report_text,
)
from judge.reports.judge_style import power_title
from judge.reports.phase import entries
from judge.reports.postal_style import entry_text

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_golden_text(name: str, style: str) -> None:
    text = report_text(SCENARIOS[name](), style)  # type: ignore[arg-type]
    path = GOLDEN / f"{name}.{style}.txt"
    if os.environ.get("REPORTS_REGEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text()


def _order_lines(text: str, power: str) -> list[str]:
    """The lines of the orders part (before the first double blank or closing) for one power."""
    head = text.split("\n\n\n")[0].split("\nThe next phase")[0]
    return [line for line in head.splitlines() if line.startswith(f"{power_title(power)}:")]


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_judge_style_lists_every_order_and_marks_the_failed_ones(name: str) -> None:
    report = SCENARIOS[name]()
    text = report_text(report, "judge")
    dislodged = {d.unit.province for d in report.result.dislodged}
    for power, orders in report.orders.items():
        lines = _order_lines(text, power)
        assert len(lines) >= len(orders), (power, lines)
        results = report.result.results[power]
        for order_line, order, outcome in zip(lines, orders, results, strict=False):
            hit = not isinstance(order, Waive) and province_of(order.loc) in dislodged
            assert ("(*" in order_line) == (outcome.result != SUCCESS or hit), order_line
            assert order_line.endswith("dislodged*)") == hit, order_line


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_postal_style_lists_every_order_and_underlines_the_failed_ones(name: str) -> None:
    report = SCENARIOS[name]()
    text = report_text(report, "postal")
    flat = " ".join(text.split())
    for power, power_entries in entries(report).items():
        for entry in power_entries:
            written = entry_text(report, entry, nmr_mark=bool(report.orders.get(power)))
            assert written in flat, written
            if entry.order is not None:
                assert written.startswith("_") == entry.failed, written


def test_spring_opening_bounces() -> None:
    report = spring_1901()
    text = report_text(report, "judge")
    assert "Austria: Army Vienna -> Galicia.  (*bounce*)" in text
    assert "Russia: Army Warsaw -> Galicia.  (*bounce*)" in text
    assert "Turkey: Fleet Ankara -> Black Sea.  (*bounce*)" in text
    assert "Germany: Army Munich SUPPORT Army Berlin -> Silesia.  (*void*)" in text
    assert "Italy: Army Rome, No Order Processed." in text
    assert "Ownership of supply centers" not in text  # spring: no centre changes
    assert "The deadline for orders will be Tue Dec 01 2026 18:00:00 +0000." in text
    postal = report_text(report, "postal")
    assert "_A Vie-Gal_" in postal and "A Bud-Ser," in postal
    assert "ITALY (nmr): F Nap H, A Rom H, A Ven H." in postal


def test_orders_played_from_general_orders_are_marked_in_both_styles() -> None:
    report = replace(spring_1901(), general_orders=frozenset({"FRANCE"}))
    text = report_text(report, "judge")
    assert "(France sent no orders: its general orders were played.)" in text
    assert "(Austria sent no orders" not in text
    postal = report_text(report, "postal")
    assert "FRANCE (general orders): " in postal
    assert "AUSTRIA (general orders)" not in postal
    # A private view keeps the mark only for its own power.
    assert report.restricted_to(["AUSTRIA"]).general_orders == frozenset()


def test_fall_dislodgement_lists_the_retreat_options() -> None:
    report = fall_1901()
    text = report_text(report, "judge")
    assert "Germany: Army Berlin -> Silesia.  (*bounce, dislodged*)" in text
    assert "France: Army Picardy SUPPORT Army Burgundy.  (*cut*)" in text
    assert "The German Army in Berlin can retreat to Kiel or Munich or Prussia." in text
    assert "The next phase of 'helsinki' will be Retreats for Fall of 1901." in text
    # Centres change only after the retreats.
    assert "Ownership of supply centers" not in text
    postal = report_text(report, "postal")
    assert "_A Ber-Sil_ (d --, Kie, Mun, Pru)" in postal
    assert "F Nth MS F Nwy, F Nwy MS F Nth" in postal


def test_retreat_then_centres_change_hands() -> None:
    report = fall_1901_retreats()
    text = report_text(report, "judge")
    assert "Germany: Army  Berlin -> Kiel." in text
    assert "Russia:    Berlin, Moscow, Sevastopol, St Petersburg, Warsaw." in text
    assert "Russia:    5 Supply centers,  3 Units:  Builds   2 units." in text
    postal = report_text(report, "postal")
    assert "GERMANY: DEN, Kie, Mun, ~~Ber~~ (3 centres, 2 units: builds 1)" in postal
    assert "RUSSIA: Home, BER (5 centres, 3 units: builds 2)" in postal


def test_annihilated_unit() -> None:
    report = fall_1902_annihilation()
    text = report_text(report, "judge")
    assert "Germany: Army Belgium HOLD.  (*dislodged*)" in text
    assert "Germany: Fleet North Sea SUPPORT Army Belgium.  (*cut*)" in text
    assert "The German Army in Belgium with no valid retreats was destroyed." in text
    assert "_A Bel H_ (d/a)" in report_text(report, "postal")


def test_convoys_and_foreign_support() -> None:
    report = spring_1902_convoys()
    text = report_text(report, "judge")
    assert "England: Fleet North Sea CONVOY Army London -> Norway.\n" in text
    assert "England: Fleet English Channel CONVOY French Army Picardy -> Wales.  (*void*)" in text
    assert "France: Army Picardy -> London.  (*no convoy*)" in text
    assert "France: Fleet Mid-Atlantic Ocean SUPPORT English Fleet English Channel.\n" in text
    postal = report_text(report, "postal")
    assert "ENGLAND: A Lon-Nwy, F Nth C A Lon-Nwy, _F Eng C A Pic-Wal_." in postal


def test_retreats_that_meet_are_destroyed() -> None:
    report = fall_1903_retreats()
    text = report_text(report, "judge")
    assert "Austria: Army  Bohemia -> Galicia (*bounce, destroyed*)." in text
    assert "Russia:  Army  Warsaw -> Galicia (*bounce, destroyed*)." in text
    assert "Russia:  Fleet Gulf of Bothnia, No Order Processed (DISBAND)." in text
    assert "Turkey:  Fleet Black Sea DISBAND." in text
    postal = report_text(report, "postal")
    assert "RUSSIA: _A War-Gal_ (off), F Bot (off, nmr)." in postal
    assert "TURKEY: F Bla (off)." in postal


def test_a_movement_order_in_a_retreat_phase_is_void() -> None:
    before = fall_1901()
    report = build(
        "F1901R",
        before.result.units_after,
        {"GERMANY": ["A ber H"]},
        dislodged=before.result.dislodged,
    )
    assert "Germany: Army Berlin holds.  (*void, destroyed*)" in report_text(report, "judge")
    assert "GERMANY: _A Ber H_ (off)." in report_text(report, "postal")


def test_winter_builds_and_civil_disorder() -> None:
    report = winter_1901()
    text = report_text(report, "judge")
    assert "Russia:  Builds a fleet in St Petersburg (north coast)." in text
    assert "Russia:  Builds an army in Warsaw.  (*void*)" in text
    assert "Germany: Build waived." in text
    assert "Austria: Defaults, removing the army in Galicia." in text
    postal = report_text(report, "postal")
    assert "RUSSIA: _B A War_, B F Stp(nc), B A Mos." in postal
    assert "AUSTRIA: A Gal (off, CD), A Ser (off, CD)." in postal


def test_victory_ends_the_game() -> None:
    report = fall_1905_victory()
    text = report_text(report, "judge")
    assert "France:   18 Supply centers,  5 Units:  Builds  13 units.  (* VICTORY!! *)" in text
    assert "Game 'helsinki' has ended in a victory for France." in text
    assert text.rstrip().endswith("The game is over.  Thank you for playing.")
    assert "The next phase" not in text
    postal = report_text(report, "postal")
    assert "FRANCE WINS. Game over." in postal
    assert "GERMANY: ~~Mun~~ (eliminated)" in postal


def test_draw_and_concession_announcements() -> None:
    drawn = replace(spring_1901(), draw=("AUSTRIA", "ENGLAND", "FRANCE"))
    text = report_text(drawn, "judge")
    assert "has been declared a draw between Austria, England and France." in text
    assert "The next phase" not in text
    postal = report_text(drawn, "postal")
    assert "DRAW agreed by unanimous vote: AUSTRIA, ENGLAND, FRANCE. Game over." in postal
    conceded = replace(spring_1901(), concession="TURKEY")
    assert "Game 'helsinki' has been conceded to Turkey." in report_text(conceded, "judge")
    assert "CONCEDED to TURKEY. Game over." in report_text(conceded, "postal")


def test_no_deadline_no_deadline_line() -> None:
    report = replace(spring_1901(), next_deadline=None)
    text = report_text(report, "judge")
    assert "The next phase of 'helsinki' will be Movement for Fall of 1901." in text
    assert "deadline" not in text
    assert "Next: Fall 1901 Movement." in report_text(report, "postal")


def test_civil_disorder_tag_on_the_ownership_line() -> None:
    report = replace(fall_1901_retreats(), civil_disorder=frozenset({"ITALY"}))
    assert "Italy:     3 Supply centers,  0 Units:  Builds   3 units.  (* CD *)" in report_text(
        report
    )


def test_unknown_style_refused() -> None:
    with pytest.raises(ValueError, match="report style"):
        report_text(spring_1901(), "fancy")  # type: ignore[arg-type]


# --- viewers ------------------------------------------------------------------------------------
def test_every_reader_sees_the_same_standard_results() -> None:
    report = fall_1901()
    for style in STYLES:
        texts = {
            report_text(report, style, viewer)
            for viewer in (OBSERVER, MASTER, Viewer.of_power("germany"), Viewer.of_power("RUSSIA"))
        }
        assert len(texts) == 1


def test_visibility_hook_is_applied_for_players_and_observers() -> None:
    seen: list[Viewer] = []

    def own_orders_only(report: PhaseReport, viewer: Viewer) -> PhaseReport:
        seen.append(viewer)
        return report.restricted_to([viewer.power] if viewer.power else [])

    report = fall_1901()
    german = Viewer.of_power("GERMANY")
    text = report_text(report, "judge", german, own_orders_only)
    assert "Germany: Army Berlin -> Silesia.  (*bounce, dislodged*)" in text
    assert "Russia:" not in text and "England:" not in text
    assert "The German Army in Berlin can retreat" in text
    postal = report_text(report, "postal", OBSERVER, own_orders_only)
    assert "GERMANY" not in postal and "RUSSIA" not in postal
    assert seen == [german, OBSERVER]


def test_the_master_sees_everything_whatever_the_hook() -> None:
    def nothing(report: PhaseReport, viewer: Viewer) -> PhaseReport:
        return report.restricted_to([])

    report = fall_1901()
    assert report_text(report, "judge", MASTER, nothing) == report_text(report, "judge")


def test_viewer_roles_are_checked() -> None:
    with pytest.raises(ValueError):
        Viewer("power")
    with pytest.raises(ValueError):
        Viewer("observer", "FRANCE")
    with pytest.raises(ValueError):
        Viewer("spectator")
