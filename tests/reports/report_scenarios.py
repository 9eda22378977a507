"""Phases of a game, adjudicated by the engine, for the report tests and their golden texts.

Each scenario is a position, the orders in the judge's own order language, and the game facts a
caller would pass; `build` runs the engine on them, so the reports are written from real results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from judge.engine.adjudicate import adjudicate
from judge.engine.position import Dislodged, Position, Unit
from judge.engine.rules import Rules
from judge.language.orders import parse_order
from judge.map_files import load_map
from judge.reports import PhaseReport

STANDARD = load_map("standard")
DEADLINE = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def units(text: str) -> tuple[Unit, ...]:
    """``"FRANCE A par, F bre"`` lines -> units."""
    out = []
    for line in text.strip().splitlines():
        power, rest = line.split(maxsplit=1)
        for part in rest.split(","):
            kind, loc = part.split()
            out.append(Unit(power, kind, loc))
    return tuple(out)


def home_centres() -> dict[str, frozenset[str]]:
    return {name: power.home_centres for name, power in STANDARD.powers.items()}


def build(
    phase: str,
    board: Sequence[Unit],
    orders: Mapping[str, Sequence[str]],
    centers: Mapping[str, frozenset[str]] | None = None,
    dislodged: Sequence[Dislodged] = (),
    **facts: object,
) -> PhaseReport:
    position = Position(
        phase=phase,
        units=tuple(board),
        centers=dict(centers if centers is not None else home_centres()),
        dislodged=tuple(dislodged),
    )
    parsed = {p: [parse_order(line, STANDARD) for line in lines] for p, lines in orders.items()}
    result = adjudicate(STANDARD, position, parsed, Rules())
    defaults: dict[str, object] = {"game": "helsinki", "next_deadline": DEADLINE}
    defaults.update(facts)
    return PhaseReport(STANDARD, position, parsed, result, **defaults)  # type: ignore[arg-type]


def start_units() -> tuple[Unit, ...]:
    return tuple(u for p in STANDARD.powers.values() for u in p.starting_units)


def spring_1901() -> PhaseReport:
    """The opening: Galicia and the Black Sea bounce, a void support, Italy sends nothing."""
    return build(
        "S1901M",
        start_units(),
        {
            "AUSTRIA": ["A vie-gal", "A bud-ser", "F tri-alb"],
            "ENGLAND": ["F lon-nth", "F edi-nwg", "A lvp-yor"],
            "FRANCE": ["A par-bur", "A mar S A par-bur", "F bre-mao"],
            "GERMANY": ["A ber-kie", "F kie-den", "A mun S A ber-sil"],
            "RUSSIA": ["A war-gal", "A mos-ukr", "F sev-bla", "F stp/sc-bot"],
            "TURKEY": ["F ank-bla", "A con-bul", "A smy-arm"],
        },
        sequence=1,
    )


FALL_BOARD = """
GERMANY A ber, F den
RUSSIA A sil, A war, F bal
ENGLAND F nth, F nwy, F eng
FRANCE A bur, A bel, A pic
"""


def fall_1901() -> PhaseReport:
    """Berlin falls to a supported attack from Silesia and may retreat to Kiel, Munich or
    Prussia (not Silesia, where the attack came from); a French support is cut; the fall goes
    to retreats, so no centres change yet."""
    return build(
        "F1901M",
        units(FALL_BOARD),
        {
            "GERMANY": ["A ber-sil", "F den H"],
            "RUSSIA": ["A sil-ber", "F bal S A sil-ber", "A war H"],
            "ENGLAND": ["F nth S F nwy", "F nwy S F nth", "F eng-pic"],
            "FRANCE": ["A bur H", "A bel-hol", "A pic S A bur"],
        },
        sequence=2,
    )


def fall_1901_retreats() -> PhaseReport:
    """The retreat that follows: Berlin goes to Kiel; then the centres change hands."""
    before = fall_1901()
    return build(
        "F1901R",
        before.result.units_after,
        {"GERMANY": ["A ber-kie"]},
        dislodged=before.result.dislodged,
        sequence=3,
    )


ANNIHILATION_BOARD = """
GERMANY A bel, F nth, A mun
FRANCE A bur, A ruh, A pic
ENGLAND A hol, F eng
"""


def fall_1902_annihilation() -> PhaseReport:
    """Belgium is taken from Burgundy with support from the Ruhr; Picardy and Holland are held
    and the attack came from Burgundy, so the German army has nowhere to go: (d/a)."""
    centres = home_centres()
    centres["GERMANY"] = centres["GERMANY"] | {"bel"}
    return build(
        "F1902M",
        units(ANNIHILATION_BOARD),
        {
            "GERMANY": ["A bel H", "F nth S A bel", "A mun-bur"],
            "FRANCE": ["A bur-bel", "A ruh S A bur-bel", "A pic H"],
            "ENGLAND": ["A hol H", "F eng-nth"],
        },
        centers=centres,
        sequence=5,
    )


WINTER_BOARD = """
AUSTRIA A vie, A bud, F tri, A gal, A ser
RUSSIA A war, F sev, A ukr
GERMANY A ber, A mun, F kie
"""


def winter_1901() -> PhaseReport:
    """Russia builds (one build refused: Warsaw is occupied), Germany waives, Austria owes two
    removals and sends nothing, so civil disorder removes the units farthest from home."""
    centres = home_centres()
    centres["AUSTRIA"] = frozenset({"vie", "bud", "tri"})
    centres["RUSSIA"] = frozenset({"mos", "war", "sev", "stp", "rum"})
    centres["GERMANY"] = frozenset({"ber", "mun", "kie", "den"})
    return build(
        "W1901A",
        units(WINTER_BOARD),
        {
            "RUSSIA": ["Build A war", "Build F stp/nc", "Build A mos"],
            "GERMANY": ["waive"],
        },
        centers=centres,
        sequence=4,
    )


VICTORY_CENTRES = {
    "FRANCE": "bre par mar spa por bel hol lon edi lvp nwy swe den kie ber tun rom",
    "GERMANY": "mun",
    "ITALY": "nap ven",
    "AUSTRIA": "vie bud tri ser",
    "RUSSIA": "mos war sev stp rum",
    "TURKEY": "ank con smy bul gre",
}

VICTORY_BOARD = """
FRANCE A bur, A ruh, F mao, A kie, A ber
ITALY A ven
"""


def fall_1905_victory() -> PhaseReport:
    """France walks into Munich, left empty, for its eighteenth centre and wins."""
    centres = {p: frozenset(c.split()) for p, c in VICTORY_CENTRES.items()}
    centres["ENGLAND"] = frozenset()
    return build(
        "F1905M",
        units(VICTORY_BOARD),
        {
            "FRANCE": ["A bur-mun", "A ruh S A bur-mun", "A kie S A bur-mun", "F mao H"],
            "ITALY": ["A ven H"],
        },
        centers=centres,
        sequence=14,
    )


SCENARIOS = {
    "s1901m_opening": spring_1901,
    "f1901m_dislodged": fall_1901,
    "f1901r_retreat": fall_1901_retreats,
    "f1902m_annihilation": fall_1902_annihilation,
    "w1901a_builds": winter_1901,
    "f1905m_victory": fall_1905_victory,
}


CONVOY_BOARD = """
ENGLAND A lon, F nth, F eng
FRANCE A pic, A bre, F mao
GERMANY A hol, F hel
"""


def spring_1902_convoys() -> PhaseReport:
    """A convoy to Norway that arrives although its fleet is attacked, a move across the sea
    that no fleet convoys, a convoy order that matches no move, and a support given to another
    power's unit."""
    centres = home_centres()
    return build(
        "S1902M",
        units(CONVOY_BOARD),
        {
            "ENGLAND": ["A lon-nwy", "F nth C A lon-nwy", "F eng C A pic-wal"],
            "FRANCE": ["A pic-lon", "A bre-pic", "F mao S F eng"],
            "GERMANY": ["A hol-bel", "F hel-nth"],
        },
        centers=centres,
        sequence=6,
    )


def fall_1903_retreats() -> PhaseReport:
    """Two retreats to the same province both fail and the units are destroyed; one unit is
    disbanded by order and one gets no order at all."""
    board = units("""
RUSSIA A mos, A sev
TURKEY A ukr, A rum
AUSTRIA A bud
""")
    dislodged = (
        Dislodged(Unit("RUSSIA", "A", "war"), "pru", retreats=("gal", "lvn")),
        Dislodged(Unit("AUSTRIA", "A", "boh"), "mun", retreats=("gal", "tyr")),
        Dislodged(Unit("TURKEY", "F", "bla"), "sev", retreats=("con",)),
        Dislodged(Unit("RUSSIA", "F", "bot"), "swe", retreats=("fin", "lvn")),
    )
    return build(
        "F1903R",
        board,
        {
            "RUSSIA": ["A war-gal"],
            "AUSTRIA": ["A boh-gal"],
            "TURKEY": ["F bla disband"],
        },
        dislodged=dislodged,
        sequence=9,
    )


SCENARIOS["s1902m_convoys"] = spring_1902_convoys
SCENARIOS["f1903r_retreats"] = fall_1903_retreats
