"""Algernon (Thomas Galloway, ../shared/seeds/003): a secret maze of numbered portals, maze rats,
and players who learn only what their own rats find. Each game carries its own maze (generated
from a seed stored with the game, or given by the GM as a board file), and every reader is
shown the game through `SECRET_BOARD`: a player his own reports and map, the GM everything,
observers the supply-centre counts published after each build (rule 7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge.engine.calendar import STANDARD
from judge.engine.geography import Map, MapError
from judge.engine.results import PhaseResult
from judge.variants import MASTER, OBSERVERS, Desk, Language, Report, Rulebook, SecretBoard, Variant
from judge.variants.algernon.generator import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    fairness_text,
    generate_maze,
)
from judge.variants.algernon.help import HELP, start_notes
from judge.variants.algernon.knowledge import knowledge_of, starting_knowledge
from judge.variants.algernon.language import read_desk_line, read_maze_orders
from judge.variants.algernon.maze import maze_board
from judge.variants.algernon.phases import adjudicate_algernon


def case_board(case: Mapping[str, Any]) -> Map:
    """The maze a case or game carries under "maze" (the board file's shape)."""
    data = case.get("maze")
    if not isinstance(data, Mapping):
        raise MapError("maze: an Algernon case carries its maze (the board file's shape)")
    return maze_board(data)


def opening_case(maze: Mapping[str, Any], seed: int | str) -> dict[str, Any]:
    """The first turn of a game on `maze`: a rat on every home, each player knowing rule 4's
    facts of his homes; the seed kept for the builds drawn at random."""
    board = maze_board(maze)
    return {
        "variant": "algernon",
        "phase": "S1901M",
        "maze": dict(maze),
        "units": [
            {"power": name, "type": "A", "loc": home}
            for name, power in sorted(board.powers.items())
            for home in sorted(power.home_centres)
        ],
        "centers": {name: sorted(p.home_centres) for name, p in sorted(board.powers.items())},
        "state": {
            "seed": str(seed),
            "knowledge": {
                name: starting_knowledge(board, name).as_json() for name in sorted(board.powers)
            },
        },
        "orders": {},
    }


def new_game(words: Sequence[str], seed: int) -> dict[str, Any]:
    """CREATE name password algernon N: a maze generated for N players from the game's seed."""
    if len(words) != 1 or not words[0].isdigit():
        raise ValueError(
            f"an Algernon game names its number of players: CREATE game password algernon N "
            f"(N from {MIN_PLAYERS} to {MAX_PLAYERS})"
        )
    players = int(words[0])
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"an Algernon maze is made for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    return opening_case(generate_maze(players, seed), seed)


def results_text(result: PhaseResult, reader: str) -> str:
    """The results a reader reads: a player his private report, the GM the full one,
    observers the public counts."""
    state = result.state_after or {}
    if reader == MASTER:
        return str(state.get("master_report", ""))
    if reader == OBSERVERS:
        return str(state.get("public_report", ""))
    return str((state.get("reports") or {}).get(reader, "Units At: none\n"))


def board_text(case: Mapping[str, Any], reader: str) -> str:
    """What a reader may be shown of the maze: a player his own map, the GM the whole maze,
    observers nothing."""
    from judge.variants.algernon.mapping import master_map_text, player_map_text

    board = case_board(case)
    if reader == MASTER:
        return master_map_text(board)
    if reader == OBSERVERS or reader not in board.powers:
        return "The maze is secret (rule 3): observers read the supply-centre counts alone.\n"
    units = sorted(u["loc"] for u in case.get("units", []) if u.get("power") == reader)
    return player_map_text(knowledge_of(board, case.get("state") or {}, reader), reader, units)


def known_powers(case: Mapping[str, Any], reader: str) -> frozenset[str]:
    board = case_board(case)
    if reader == MASTER:
        return frozenset(board.powers)
    state = case.get("state") or {}
    if reader not in board.powers:
        # An observer (or a stranger): the players the last published counts name (rule 7),
        # the same for every player's knowledge.
        return frozenset(
            name for power in board.powers for name in knowledge_of(board, state, power).centres
        )
    known = knowledge_of(board, state, reader)
    # Those his rats met, and those the counts published after a build name (rule 7).
    return frozenset(known.players | set(known.centres))


def known_places(case: Mapping[str, Any], reader: str) -> frozenset[str]:
    board = case_board(case)
    if reader not in board.powers:
        return frozenset()
    return frozenset(knowledge_of(board, case.get("state") or {}, reader).spaces)


def picture_scene(case: Mapping[str, Any], reader: str) -> Any:
    """The picture `reader` may see of the game's maze (judge/variants/algernon/picture.py)."""
    from judge.variants.algernon.picture import picture_scene as scene

    return scene(case_board(case), case, reader)


def case_result_fields(state: Mapping[str, Any]) -> dict[str, Any]:
    """`judge adjudicate`'s result: each power's private report, what each knows after the
    turn, the GM's full report and the public one."""
    return {
        "reports": dict(state.get("reports") or {}),
        "knowledge": dict(state.get("knowledge") or {}),
        "master_report": state.get("master_report", ""),
        "public_report": state.get("public_report", ""),
    }


def initials_as_written(power: str) -> str:
    """A player's initials in every sentence as the maze writes them (TAG): name-cased ("Tag")
    they read as a word of the mail, and are no longer what the player writes in his orders."""
    return power


ALGERNON = Variant(
    name="algernon",
    title="Algernon",
    default_map="standard",  # never played on: every game and case carries its own maze
    maps=(),
    calendar=STANDARD,
    rules=Rulebook(
        adjudicate=adjudicate_algernon,  # type: ignore[arg-type]
        unit_kinds=("A",),
        board_in_case=case_board,
        new_game=new_game,
    ),
    language=Language(
        read_orders=read_maze_orders,
        read_desk_line=read_desk_line,
        order_grammar="algernon",  # grammar/algernon.lark
        unit_words={"A": "Rat"},  # the maze's pieces stand on the board as armies (phases.RAT)
        power_title=initials_as_written,
    ),
    desk=Desk(help=HELP, start_notes=start_notes),
    rules_text="Algernon Diplomacy (um01) by Thomas Galloway, with the readings in docs/RULES.md",
    report=Report(board_summary=fairness_text),
    secret_board=SecretBoard(
        results_text=results_text,
        board_text=board_text,
        known_powers=known_powers,
        known_places=known_places,
        case_result_fields=case_result_fields,
        picture_scene=picture_scene,
    ),
)
