"""HELP <variant>: every order form and every line of every example mail a variant's HELP
prints is read by that variant's own reader (the one that reads orders for the adjudication),
so HELP can never teach a form the judge refuses; plain HELP lists HELP <variant> for each."""

from __future__ import annotations

import pytest

from judge.desk.commands import help_reply
from judge.render import render_mail
from judge.variants import ExampleMail, Variant, board_of, variants_with_help

HELPED = [v.name for v in variants_with_help()]


def refused(found: Variant, power: str, lines: list[str]) -> dict[int, str]:
    """The lines the variant's reader refuses, by index, with its reason."""
    assert found.desk.help is not None
    board = found.desk.help.board() if found.desk.help.board is not None else board_of(found.name)
    read = found.language.read_orders(board, {power: lines})
    return {index: str(result.reason) for (_p, index), result in read.unreadable.items()}


def test_the_five_variants_are_explained() -> None:
    assert {"standard", "mercator", "1885", "mercenary", "algernon"} <= set(HELPED)


@pytest.mark.parametrize("name", HELPED)
def test_every_form_that_help_lists_is_read(name: str) -> None:
    found = next(v for v in variants_with_help() if v.name == name)
    assert found.desk.help is not None and found.desk.help.forms
    for form in found.desk.help.forms:
        assert refused(found, found.desk.help.forms_power, [form.line]) == {}, form.line


@pytest.mark.parametrize("name", HELPED)
def test_every_example_mail_is_read_whole(name: str) -> None:
    found = next(v for v in variants_with_help() if v.name == name)
    assert found.desk.help is not None and found.desk.help.examples
    for example in found.desk.help.examples:
        assert refused(found, example.power, list(example.lines)) == {}, example


def test_the_check_finds_a_wrong_example() -> None:
    """A form the reader refuses (a move under TS1 in Mercator) fails the check."""
    found = next(v for v in variants_with_help() if v.name == "mercator")
    wrong = ExampleMail("FRANCE", "a wrong mail", ("TS1", "A(Par) - Bur"))
    assert refused(found, wrong.power, list(wrong.lines)) != {}


@pytest.mark.parametrize("name", HELPED)
def test_help_variant_prints_its_forms_and_examples(name: str) -> None:
    reply = help_reply(name.upper())
    mail = render_mail(reply.template, judge_name="Judge", judge_address="j@x", **reply.context)
    found = next(v for v in variants_with_help() if v.name == name)
    assert found.desk.help is not None
    assert found.title in mail.subject
    for form in found.desk.help.forms:
        assert form.line in mail.body
    for example in found.desk.help.examples:
        assert "\n".join(f"    {line}" for line in example.lines) in mail.body


def test_plain_help_lists_each_variant_and_an_unknown_topic_is_said() -> None:
    reply = help_reply()
    body = render_mail(reply.template, judge_name="J", judge_address="j@x", **reply.context).body
    for name in HELPED:
        assert f"HELP {name} " in body
    reply = help_reply("chess")
    body = render_mail(reply.template, judge_name="J", judge_address="j@x", **reply.context).body
    assert 'There is no help on "chess"' in body
