"""What HELP mercenary answers: the money lines beside the standard orders (bribes as second
orders, offers, transfers, bids, conversions, Alliances of Currency), with example mails (rules
text: seed 001)."""

from __future__ import annotations

from collections.abc import Mapping
from textwrap import fill
from typing import Any

from judge.variants import ExampleMail, OrderForm, VariantHelp

HELP = VariantHelp(
    intro="""\
Mercenary Diplomacy II (Patrick McHale): the standard game with money. Each
power starts with 1,000 pounds of its own currency (French pounds, German
pounds ...), named in orders by the power's adjective or name (FRENCH, FRANCE).
A currency is worth its power's supply centres over the strongest power's; the
values change each fall. Each season a power earns 100 of its own pounds for
each home centre it holds, and pays 100 for each home centre another holds.
The results show every power's holdings after each season.

Your orders are the standard game's (see HELP standard), with money lines
among them, one to a line, in any order: the money block of your mail. Money
is spent from what you hold when the phase is processed.""",
    forms=(
        OrderForm(
            "A Par - Bur IF GERMANY PAYS 200 GERMAN",
            "a second order for the unit, used if Germany pays you",
            "Bribes",
        ),
        OrderForm(
            "PAY 200 FRENCH TO GERMANY IF A Mun - Bur",
            "pay Germany if that order is given",
        ),
        OrderForm("PAY 100 FRENCH TO ITALY", "a transfer, no condition"),
        OrderForm("BID 150 ON A Par - Bur", "a bid for an order, yours or anyone's", "Bids"),
        OrderForm("BID 100 ON A Mun H", "a bid that a unit stands counts double"),
        OrderForm(
            "CONVERT 300 FRENCH TO GERMAN", "buy German pounds (yours next season)", "Conversions"
        ),
        OrderForm("CONVERT 300 GERMAN TO FRENCH", "sell them back for your own"),
        OrderForm(
            "ALLIANCE OF CURRENCY WITH ITALY", "ask for an Alliance of Currency", "Alliances"
        ),
        OrderForm("LEAVE ALLIANCE OF CURRENCY", "leave it (done at once)"),
    ),
    forms_power="FRANCE",
    notes="""\
Bids are paid from your own pounds. Where orders would stand off, the one with
the highest total bid (each currency counted at its value) succeeds; a bid is
paid out only where its order met an equal force, and a bid for an order that
is not given is ignored. A conversion goes at last season's rate, between your
own currency and another, and the pounds are yours to use the season after; the
season's conversions move each currency's value for the bids meanwhile. An
offer conditional on an order is paid when that order is given.""",
    examples=(
        ExampleMail(
            "FRANCE",
            "the spring of 1901: orders, a bribe offered, a bid and a conversion",
            (
                "A Par - Bur",
                "A Mar S A Par - Bur",
                "F Bre - MAO",
                "PAY 200 FRENCH TO GERMANY IF A Mun H",
                "BID 150 ON A Par - Bur",
                "CONVERT 100 FRENCH TO ITALIAN",
            ),
        ),
        ExampleMail(
            "GERMANY",
            "the spring of 1901: a second order that France's pounds may buy",
            ("A Mun - Bur", "A Mun H IF FRANCE PAYS 200 FRENCH", "A Ber - Kie", "F Kie - Den"),
        ),
    ),
)


def start_notes(case: Mapping[str, Any], power: str | None) -> str:
    """What a Mercenary game's start mail says: the currencies, what each is worth and every
    power's holdings (all public), and the reader's own purse."""
    from judge.variants import game_board

    board = game_board("mercenary", case)
    money = case.get("money") or {}
    holdings: Mapping[str, Mapping[str, int]] = money.get("holdings") or {}
    values: Mapping[str, str] = money.get("values") or {}

    def adjective(currency: str) -> str:
        found = board.powers.get(currency)
        return found.adjective if found is not None else currency.title()

    rows = []
    for holder in sorted(holdings):
        purse = ", ".join(
            f"{amount} {adjective(currency)}"
            for currency, amount in sorted(holdings[holder].items())
        )
        rows.append(f"  {holder.title():10}{purse} pounds")
    worth = ", ".join(
        f"{adjective(currency)} {value}" for currency, value in sorted(values.items())
    )
    text = [
        fill(
            "Mercenary Diplomacy II: the standard game with money. Each power has a currency "
            "of its own (written by its adjective in orders: FRENCH, GERMAN ...). A currency "
            "is worth its power's supply centres over the strongest power's; the values "
            "change each fall. Each season a power earns 100 of its own pounds for each home "
            f"centre it holds. Worth now (the strongest is 1): {worth}.",
            76,
        ),
        "Every power's holdings:\n" + "\n".join(rows),
    ]
    if power is not None and power in holdings:
        text.append(
            fill(
                "Bribes, bids, payments and conversions are money lines among your orders "
                "(BID 100 ON A Par - Bur, PAY 100 FRENCH TO ITALY ...).",
                76,
            )
        )
    text.append("HELP mercenary shows every money line with example mails.")
    return "\n\n".join(text) + "\n"
