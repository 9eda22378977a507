"""A scene copied for a reader's window (`with_changes`) keeps every field of the scene it is
copied from but those changed, and shares what the phase's pictures share."""

from __future__ import annotations

import dataclasses

from judge.pictures.scene import Part, Scene, with_changes


def _unlike_defaults() -> dict[str, object]:
    """Each field of a scene given a value of its type other than its default, in order."""
    values: dict[str, object] = {}
    for f in dataclasses.fields(Scene):
        values[f.name] = {
            "title": "t",
            "width": 3.0,
            "height": 4.0,
            "wraps": True,
            "inset": (1.0, 2.0, 3.0, 4.0),
            "static": object(),
            "label_size": 7.0,
            "view": (5.0, 6.0, 7.0, 8.0),
            "mark_scale": 0.5,
            "parts": (Part((0.0, 0.0, 1.0, 1.0), 9.0, 0.6),),
            "shown_width": 480.0,
            "id_suffix": "-2",
            "first_ground": True,
            "ground_lines": 0.5,
            "land": (((0.0, 0.0),),),
            "impassable": ("M0 0z",),
            "barriers": (((0.0, 0.0), (1.0, 1.0)),),
            "crossings": (((1.0, 1.0), (2.0, 2.0)),),
        }.get(f.name, [f.name] if f.name not in ("powers", "shared") else {f.name: f.name})
    return values


def test_a_copied_scene_keeps_every_field_but_those_changed() -> None:
    # Each field given a value other than its default, so one left out of the copy shows.
    scene = Scene(**_unlike_defaults())  # type: ignore[arg-type]
    copied = with_changes(scene)
    for f in dataclasses.fields(Scene):  # equal (compiled, a float is made anew when read)
        assert getattr(copied, f.name) == getattr(scene, f.name), f.name
    assert copied.static is scene.static and copied.shared is scene.shared
    changed = with_changes(scene, view=None, id_suffix="")
    assert changed.view is None and changed.id_suffix == ""
    assert changed.shared is scene.shared and scene.view == (5.0, 6.0, 7.0, 8.0)


def test_a_scene_takes_its_fields_in_order_with_the_dataclass_defaults() -> None:
    """Scene's `__init__` is written out (compiled, the one `dataclass` writes runs as Python):
    each field by position and by name, in the dataclass's order; those left out as the
    dataclass's defaults, a list or dict of its own for each scene."""
    fields = dataclasses.fields(Scene)
    values = _unlike_defaults()
    by_position = Scene(*values.values())  # type: ignore[arg-type]
    by_name = Scene(**values)  # type: ignore[arg-type]
    assert [f.name for f in fields] == list(values)
    for f in fields:  # equal (compiled, a float is made anew when read)
        assert getattr(by_position, f.name) == values[f.name] == getattr(by_name, f.name), f.name
    first, second = Scene("t", 1.0, 2.0), Scene("t", 1.0, 2.0)
    for f in fields[3:]:
        if f.default_factory is not dataclasses.MISSING:
            assert getattr(first, f.name) == f.default_factory(), f.name
            assert getattr(first, f.name) is not getattr(second, f.name), f.name
        else:
            assert getattr(first, f.name) == f.default, f.name
