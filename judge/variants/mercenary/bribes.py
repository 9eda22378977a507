"""Second orders and the offers that buy them (rules 5 a to 5 e), settled before the movement.

A unit's second order is used when its named payer pays the power at least the named sum in the
named currency this season. What the payer pays the power is its plain transfers (5 e) and its
offers whose condition is met by the orders finally given (5 b; 5 c: whether that order is the
unit's first or its second). The choice of orders and the payments depend on each other, so
they are settled together, deterministically:

1. Every second order starts as used.
2. Over and over, a second order stays used exactly when the money its payer pays under the
   orders now chosen reaches its price; stop when nothing changes.
3. If the choices go round in a circle instead (a bribe whose payment needs the very order its
   second order turns away: Germany pays for ``A Par H`` and France's second order, bought by
   Germany, is ``A Par - Bur``), the second orders that change within the circle are dropped
   for good (their units take their first orders) and the rest are settled again from step 1.

Starting from "used" makes a deal both sides wrote go through (the offer pays for the second
order and the second order is bought by the offer); step 3 ends every circle, since each pass
drops at least one second order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from judge.engine.orders import Order
from judge.engine.position import province_of
from judge.variants.mercenary.matching import same_order
from judge.variants.mercenary.orders import Offer, SecondOrder


@dataclass(frozen=True)
class Placed:
    """A line of one power: its place in the power's lines, and its value."""

    power: str
    index: int
    value: object


@dataclass(frozen=True)
class Settlement:
    """The outcome: the provinces whose second orders are used, and the offers paid."""

    used: frozenset[str]
    paid: tuple[Placed, ...]
    dropped_in_circle: frozenset[str]


def _currency(written: str | None, default: str) -> str:
    return written or default


class _Bribes:
    def __init__(
        self,
        firsts: Mapping[str, Order | None],
        seconds: Mapping[str, Placed],
        offers: Sequence[Placed],
    ) -> None:
        self.firsts = firsts  # province -> the unit's first order (None: none, or void)
        self.seconds = seconds  # province -> its second order's line
        self.offers = offers  # the offers and transfers that passed their checks

    def order_given(self, prov: str, used: frozenset[str]) -> Order | None:
        if prov in used:
            second = self.seconds[prov].value
            assert isinstance(second, SecondOrder)
            return second.order
        return self.firsts.get(prov)

    def offer_paid(self, line: Placed, used: frozenset[str]) -> bool:
        offer = line.value
        assert isinstance(offer, Offer)
        if offer.condition is None:
            return True
        given = self.order_given(province_of(offer.condition.loc), used)
        return given is not None and same_order(offer.condition, given)

    def earned(self, prov: str, used: frozenset[str]) -> bool:
        line = self.seconds[prov]
        second = line.value
        assert isinstance(second, SecondOrder)
        currency = _currency(second.currency, second.payer)
        total = 0
        for offer_line in self.offers:
            offer = offer_line.value
            assert isinstance(offer, Offer)
            if (
                offer_line.power == second.payer
                and offer.payee == line.power
                and _currency(offer.currency, offer_line.power) == currency
                and self.offer_paid(offer_line, used)
            ):
                total += offer.amount
        return total >= second.amount

    def settle(self) -> Settlement:
        dropped: set[str] = set()
        while True:
            candidates = frozenset(p for p in self.seconds if p not in dropped)
            used = candidates
            seen: list[frozenset[str]] = []
            while True:
                following = frozenset(p for p in candidates if self.earned(p, used))
                if following == used:
                    paid = tuple(o for o in self.offers if self.offer_paid(o, used))
                    return Settlement(used, paid, frozenset(dropped))
                seen.append(used)
                if following in seen:
                    circle = seen[seen.index(following) :]
                    every = frozenset().union(*circle)
                    always = frozenset.intersection(*circle)
                    dropped |= every - always
                    break
                used = following


def settle_bribes(
    firsts: Mapping[str, Order | None],
    seconds: Mapping[str, Placed],
    offers: Sequence[Placed],
) -> Settlement:
    """Which second orders are used and which offers are paid (the module's rule)."""
    return _Bribes(firsts, seconds, offers).settle()
