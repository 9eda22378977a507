"""A layer of a picture by rows of cells (judge.pictures.cells): a window takes the things of
its cells and no others, and a layer drawn from the same objects as the last picture of it is
taken as that picture drew it, while one drawn from any other object is made again."""

from __future__ import annotations

from judge.pictures.cells import GRID, Grid, KeptLayer, Placed, Rows, cut


class Look:
    """What a thing is drawn from (the board keeps one object for each look of a thing)."""

    def __init__(self, name: str) -> None:
        self.name = name


class Drawn:
    """Texts of looks, counting the looks drawn."""

    def __init__(self) -> None:
        self.drawn: list[str] = []

    def __call__(self, looks: list[Look]) -> list[str]:
        self.drawn += [look.name for look in looks]
        return [f"<{look.name}/>" for look in looks]


GRID_OF_FOUR = Grid(4 * GRID, 4 * GRID, False)


def placed(looks: list[Look]) -> Placed[Look]:
    """Each look in a cell of its own, along the diagonal."""
    return Placed(
        GRID_OF_FOUR, [((i * GRID + 1, i * GRID + 1), look) for i, look in enumerate(looks)]
    )


def test_a_window_takes_the_things_of_its_cells_only() -> None:
    looks = [Look(n) for n in "abcd"]
    rows = Rows(GRID_OF_FOUR, placed(looks), Drawn())
    out: list[str] = []
    rows.cut(cut(GRID_OF_FOUR, (GRID + 10, GRID + 10, GRID - 20, GRID - 20), 0.0), out)
    assert out == ["<b/>"]
    whole: list[str] = []
    rows.cut(cut(GRID_OF_FOUR, None, 0.0), whole)
    assert whole == ["<a/>", "<b/>", "<c/>", "<d/>"]


def test_a_layer_drawn_from_the_same_objects_is_taken_as_the_last_picture_drew_it() -> None:
    looks = [Look(n) for n in "abcd"]
    kept = KeptLayer()
    first, again = Drawn(), Drawn()
    one = Rows(GRID_OF_FOUR, placed(looks), first, kept=kept, seen=looks)
    assert one.made() == ["<a/>", "<b/>", "<c/>", "<d/>"]
    two = Rows(GRID_OF_FOUR, placed(list(looks)), again, kept=kept, seen=list(looks))
    assert two.made() == one.made()
    assert first.drawn == ["a", "b", "c", "d"] and again.drawn == []


def test_a_layer_with_one_object_changed_is_made_again() -> None:
    looks = [Look(n) for n in "abcd"]
    kept = KeptLayer()
    Rows(GRID_OF_FOUR, placed(looks), Drawn(), kept=kept, seen=looks).made()
    changed = [*looks[:2], Look("c"), looks[3]]  # the same look, but another object
    drawn = Drawn()
    made = Rows(GRID_OF_FOUR, placed(changed), drawn, kept=kept, seen=changed).made()
    assert drawn.drawn == ["a", "b", "c", "d"] and made == ["<a/>", "<b/>", "<c/>", "<d/>"]
    fewer = looks[:3]
    drawn = Drawn()
    Rows(GRID_OF_FOUR, placed(fewer), drawn, kept=kept, seen=fewer).made()
    assert drawn.drawn == ["a", "b", "c"]
