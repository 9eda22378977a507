"""Mercenary's results text (rule 9): the standard results in njudge's layout, with each unit's
order as finally given (a second order that was bought in place of the first), then the money:
every line of money with what came of it, the payments of the phase (bribes and transfers, bids
spent, conversions, income and payments by the rules), each power's holdings per currency, each
currency's value and the Alliances of Currency. The board's results follow the reader's report
style (njudge's layout or the postal zines' notation); the money is written the same in both, for
all to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from judge.engine.results import BANK, FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult, Payment
from judge.reports.judge_style import judge_text, power_title
from judge.reports.phase import PhaseReport, power_order
from judge.reports.postal_style import postal_text
from judge.variants.mercenary.checks import names, pounds
from judge.variants.mercenary.language import full_text
from judge.variants.mercenary.money import money_from_json, value_words
from judge.variants.mercenary.orders import (
    AllianceWish,
    Bid,
    Conversion,
    LeaveAlliance,
    Offer,
    SecondOrder,
)
from judge.variants.mercenary.phases import MONEY_KEY, NOT_USED, ONE_SECOND, REFUSED, REPLACED

MONEY_LINES = (Offer, Bid, Conversion, AllianceWish, LeaveAlliance)

# The payments of a phase, grouped as rule 9 lists them, by the rule their entry names.
_GROUPS = (
    ("Bribes and transfers", ("rule 5",)),
    ("Bids", ("rule 6",)),
    ("Conversions", ("rule 7",)),
    ("Income and payments by the rules", ("rule 4", "rule 10", "rule 3")),
)


def second_order_used(outcome: OrderResult) -> bool:
    """Whether a second order's result is its unit's order's (used), not why it was not."""
    return not outcome.reason.startswith((NOT_USED, ONE_SECOND, REFUSED))


def _given(orders: Sequence[Any], results: Sequence[OrderResult]) -> tuple[list[Any], list[Any]]:
    """The orders the units were finally given, with their results: a second order used in
    place of the first; money lines left to the money section."""
    shown, outcomes = [], []
    for order, outcome in zip(orders, results, strict=False):
        if isinstance(order, MONEY_LINES):
            continue
        if isinstance(order, SecondOrder):
            if not second_order_used(outcome):
                continue
            order = order.order
        elif outcome.result == VOID and outcome.reason.startswith(REPLACED):
            continue
        shown.append(order)
        outcomes.append(outcome)
    return shown, outcomes


def _mark(outcome: OrderResult) -> str:
    word = {SUCCESS: "", FAILURE: "fails", ILLEGAL: "refused", VOID: "void"}[outcome.result]
    if not word:
        return f"  ({outcome.reason})" if outcome.reason else ""
    return f"  (*{word}*: {outcome.reason})" if outcome.reason else f"  (*{word}*)"


def _money_lines(report: PhaseReport) -> list[str]:
    out: list[str] = []
    for power in power_order(report):
        orders = report.orders.get(power, ())
        results = report.result.results.get(power, ())
        for order, outcome in zip(orders, results, strict=False):
            if isinstance(order, (*MONEY_LINES, SecondOrder)):
                text = full_text(order, power, report.game_map)
                out.append(f"  {power_title(power)}: {text}.{_mark(outcome)}")
    return out


def _payment_line(payment: Payment, report: PhaseReport) -> str:
    payer = "the bank" if payment.payer == BANK else power_title(payment.payer)
    payee = "the bank" if payment.payee == BANK else power_title(payment.payee)
    amount = pounds(payment.amount, payment.currency, report.game_map)
    return f"  {payer} to {payee}: {amount} ({payment.why})"


def money_section(report: PhaseReport) -> list[str]:
    """The money part of the results: lines given, payments, holdings, values, alliances."""
    game_map = report.game_map
    out = ["", "Money:"]
    lines = _money_lines(report)
    if lines:
        out += ["", "Second orders and money lines:", *lines]
    payments = report.result.payments
    for title, rules in _GROUPS:
        group = [p for p in payments if p.why.startswith(rules)]
        if group:
            out += ["", f"{title}:", *(_payment_line(p, report) for p in group)]
    raw = dict(report.result.state_after or {}).get(MONEY_KEY)
    if raw is None:
        return out
    money = money_from_json(raw)
    out += ["", "Holdings:"]
    for power in sorted(game_map.powers):
        held = money.holdings.get(power, {})
        own = held.get(power, 0)
        foreign = [pounds(n, c, game_map) for c, n in sorted(held.items()) if c != power and n]
        text = pounds(own, power, game_map)
        if foreign:
            text += "; " + ", ".join(foreign)
        out.append(f"  {power_title(power)}: {text}")
    out += ["", "Currency values (the strongest is 1):"]
    out.append(
        "  "
        + ", ".join(
            f"{game_map.powers[c].adjective} {value_words(v)}"
            for c, v in sorted(money.values.items())
        )
    )
    if money.alliances:
        out += ["", "Alliances of Currency:"]
        out += [f"  {names(a)}" for a in money.alliances]
    if money.forming:
        out += ["", "Alliances of Currency formed, in force when the season ends:"]
        out += [f"  {names(a)}" for a in money.forming]
    return out


def mercenary_text(report: PhaseReport) -> str:
    """The results of a Mercenary phase: the board's results, then the money (rule 9)."""
    orders: dict[str, list[Any]] = {}
    results: dict[str, tuple[OrderResult, ...]] = {}
    for power, given in report.orders.items():
        shown, outcomes = _given(given, report.result.results.get(power, ()))
        orders[power] = shown
        results[power] = tuple(outcomes)
    board = replace(report, orders=orders, result=replace(report.result, results=results))
    if report.style == "postal":
        return postal_text(board, before_key=money_section(report))
    text = judge_text(board).rstrip("\n")
    return "\n".join([text, *money_section(report)]) + "\n"
