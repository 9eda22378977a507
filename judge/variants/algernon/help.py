"""What HELP algernon answers: the maze, what a player learns of it and how, and the portal
orders, with example mails on a small maze of the package's own (the demonstration maze of
rule 4, its players named by initials as a game's are); rules text: seed 003."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from judge.engine.geography import Map
from judge.variants import ExampleMail, OrderForm, VariantHelp, paragraphs_text
from judge.variants.algernon.generator import MAX_PLAYERS, MIN_PLAYERS

# The demonstration maze of rule 4 (player A's homes DL, MN, PZ; B's PW, QV, WG), its players
# named TAG and JDB: each space's numbered portals and the space behind each.
_PORTALS = {
    "dl": ["mn", "pz", "vt", "hb"],
    "mn": ["dl", "jc", "sq"],
    "pz": ["dl", "jc", "mk"],
    "pw": ["qv", "wg", "rt"],
    "qv": ["pw", "wg", "cj", "rh"],
    "wg": ["pw", "qv", "wd", "rh"],
    "jc": ["pz", "mn", "rt", "hb"],
    "rt": ["jc", "vt", "wd", "pw"],
    "cj": ["vt", "mk", "qv"],
    "hb": ["jc", "rh", "dl"],
    "vt": ["dl", "sq", "rt", "wd", "cj", "mk"],
    "sq": ["mn", "vt", "rh"],
    "mk": ["pz", "vt", "cj"],
    "wd": ["vt", "rt", "wg"],
    "rh": ["sq", "hb", "qv", "wg"],
}
_CENTRES = {"dl", "mn", "pz", "pw", "qv", "wg", "jc", "rt", "cj", "hb"}


@cache
def example_maze() -> Map:
    """The maze HELP's examples are written on."""
    from judge.variants.algernon.maze import maze_board

    return maze_board(
        {
            "map": {"name": "help_maze", "title": "HELP's example maze", "victory_centres": 6},
            "powers": {"TAG": {"homes": ["dl", "mn", "pz"]}, "JDB": {"homes": ["pw", "qv", "wg"]}},
            "provinces": {
                space: {
                    **({"centre": True} if space in _CENTRES else {}),
                    "portals": {str(n): behind for n, behind in enumerate(portals, start=1)},
                }
                for space, portals in _PORTALS.items()
            },
        }
    )


HELP = VariantHelp(
    intro="""\
Algernon Diplomacy (Thomas Galloway): a maze nobody sees. The judge makes a maze
for the number of players the GM names; each player is a set of initials (TAG), and
every unit is a maze rat. Each space has numbered portals 1, 2, 3 ... leading
out of it, and you are told at the start only how many portals leave each of
your home spaces and which of them lead to your other homes. Where the others
lead you learn by going (or trying to go) through them: the first time a rat
tries a new space you are told its name, whether it is a supply centre (home
or neutral), the portal you came in by, how many portals leave it, and who
resisted you. After each build every player's supply-centre count is
published; nothing else is (players may tell each other what they like).

Orders name your rat by its space and the portal, never the space beyond:""",
    forms=(
        OrderForm("DL to 3", "the rat in DL attacks out of portal 3", "Moves"),
        OrderForm("MN h", "it holds (so does a rat without an order)"),
        OrderForm("PZ s 1", "supports the rat at the other end of PZ's portal 1"),
        OrderForm("MN s 2 (PZ to 2)", "supports PZ's attack out of its portal 2 (both lead to JC)"),
        OrderForm("PZ(3,2,1)", "if dislodged, retreat out of portal 3, else 2, else 1", "Retreats"),
        OrderForm("Build DL, MN, PZ", "builds in DL first, then MN, then PZ", "Builds"),
    ),
    forms_power="TAG",
    notes="""\
Retreats are written with the moves, for any rat you think may be dislodged;
without one the GM retreats it out of the first open portal from 1. Builds are
written each fall as a list of your home spaces in order of preference (a home
another player has entered is skipped); without one they are placed at random.
Your results list what your rats found (e.g. "VT1 6": came in by VT's portal 1,
6 portals leave it; "RT2 NSC 4": a neutral supply centre) and your units
("Units At: DL, MN, PZ"). MAP sends you the part of the maze you have learned.
Press to another player needs his initials, which you learn when you meet him.""",
    examples=(
        ExampleMail("TAG", "the first spring", ("DL to 3", "MN s 2 (PZ to 2)", "PZ to 2")),
        ExampleMail(
            "TAG",
            "a fall with a retreat ready and builds hoped for",
            ("DL h", "PZ(3,2,1)", "Build DL, MN, PZ"),
        ),
    ),
    board=example_maze,
    create_words=f" N (N: the number of players, {MIN_PLAYERS} to {MAX_PLAYERS})",
)


def start_notes(case: Mapping[str, Any], power: str | None) -> str:
    """What an Algernon game's start mail says: the secret maze and how a player learns it;
    to a player, his initials and what he already knows is the map the mail carries."""
    paragraphs = [
        "Algernon: the maze is secret. Every unit is a maze rat; each space has numbered "
        "portals. You know how many portals leave each of your home spaces and which lead "
        "to your other homes; the rest you learn by moving (or trying to move) through "
        "portals: the first time a rat tries a space you are told its name, whether it is "
        "a supply centre, the portal you came in by, how many portals leave it, and who "
        "resisted you. After each build every player's supply-centre count is published, "
        "nothing more."
    ]
    homes = sorted(str(u["loc"]).upper() for u in case.get("units", ()) if u.get("power") == power)
    if power is not None and homes:
        first, last = homes[0], homes[-1]
        paragraphs.append(
            f"You are {power}, with rats at {', '.join(homes)}. Order a rat by its space and a "
            f"portal number: {first} to 1 (attack out of portal 1), {first} h (hold), {first} "
            f"s 2 (support out of portal 2); a retreat list {first}(2,1) for a rat that may be "
            f"dislodged and, each fall, a build list Build {first}, {last}. The other players' "
            "initials are yours to learn when your rats meet theirs."
        )
    paragraphs.append("HELP algernon shows every order form with example mails.")
    return paragraphs_text(paragraphs)
