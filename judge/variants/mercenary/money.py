"""The money of a Mercenary game: who holds how many pounds of which currency, what each
currency is worth, the Alliances of Currency, and the ledger every movement of money goes
through (seed 001, rules 2, 3, 8 and 10).

Money is exact: holdings are whole pounds (int), values and rates are Fractions of the strongest
currency. Where pounds of one currency become pounds of another the result is rounded down to
whole pounds (docs/RULES.md); nothing else ever divides.

A game's money travels with its position as JSON (a case's ``"money"``, a result's
``"money_after"``)::

    {"holdings": {"FRANCE": {"FRANCE": 900, "GERMANY": 40}},
     "values": {"FRANCE": "1", "ITALY": "4/7"},
     "alliances": [["AUSTRIA", "ITALY"]]}

with ``"forming"`` beside them while a season that formed an alliance waits for its retreats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from judge.engine.geography import Map
from judge.engine.results import BANK, Payment

STARTING_BALANCE = 1000  # rule 3
# Rule 2: Warsaw is no centre for money (it still builds and counts for victory).
NOT_COUNTED = frozenset({"war"})


@dataclass
class Money:
    """A game's money between phases. `alliances` are in force; `forming` are alliances agreed
    this season that take effect when it ends (rule 8 b), kept only while its retreats wait."""

    holdings: dict[str, dict[str, int]]
    values: dict[str, Fraction]
    alliances: tuple[tuple[str, ...], ...] = ()
    forming: tuple[tuple[str, ...], ...] = ()

    def balance(self, power: str, currency: str) -> int:
        return self.holdings.get(power, {}).get(currency, 0)

    def alliance_of(self, power: str) -> tuple[str, ...] | None:
        return next((a for a in self.alliances if power in a), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "holdings": {
                power: {c: n for c, n in sorted(held.items()) if n}
                for power, held in sorted(self.holdings.items())
            },
            "values": {c: fraction_text(v) for c, v in sorted(self.values.items())},
            "alliances": [list(a) for a in self.alliances],
        }
        if self.forming:
            out["forming"] = [list(a) for a in self.forming]
        return out

    def copy(self) -> Money:
        return Money(
            {p: dict(h) for p, h in self.holdings.items()},
            dict(self.values),
            self.alliances,
            self.forming,
        )


def fraction_text(value: Fraction) -> str:
    """``Fraction(4, 7)`` -> ``"4/7"``, ``Fraction(1)`` -> ``"1"``."""
    return str(value)


def value_words(value: Fraction) -> str:
    """A value as the results print it: ``1``, ``13/20 (0.650)``."""
    return str(value) if value.denominator == 1 else f"{value} ({float(value):.3f})"


# --- exchange values (rules 3 b, 8 a) ------------------------------------------------------------
def counted_centres(game_map: Map, centers: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Each power's supply centres as money counts them: Warsaw never (rule 2)."""
    return {
        power: len(set(centers.get(power, ())) - NOT_COUNTED) for power in sorted(game_map.powers)
    }


def effective_centres(
    counts: Mapping[str, int], alliances: Iterable[tuple[str, ...]]
) -> dict[str, Fraction]:
    """The centres each currency is valued by: its power's own, or in an Alliance of Currency
    the average of the members' plus one (rule 8 a: 5, 4 and 3 count as 5 each)."""
    out = {power: Fraction(n) for power, n in counts.items()}
    for members in alliances:
        average = Fraction(sum(counts.get(m, 0) for m in members), len(members))
        for member in members:
            out[member] = average + 1
    return out


def exchange_values(
    counts: Mapping[str, int], alliances: Iterable[tuple[str, ...]] = ()
) -> dict[str, Fraction]:
    """Each currency's value relative to the strongest (rule 3 b: 8 centres against the
    strongest's 14 are worth 4/7). The strongest is the currency with the most effective
    centres, alliances included, so it is worth 1; a power with no centres, 0."""
    effective = effective_centres(counts, alliances)
    strongest = max(effective.values(), default=Fraction(0))
    if strongest == 0:
        return {power: Fraction(0) for power in effective}
    return {power: n / strongest for power, n in effective.items()}


def converted(amount: int, value_from: Fraction, value_to: Fraction) -> int:
    """`amount` pounds of a currency worth `value_from` in pounds of one worth `value_to`,
    rounded down to whole pounds (the bank keeps the fraction)."""
    if value_to <= 0:
        raise ValueError("a currency worth nothing cannot be bought")
    exact = amount * value_from / value_to
    return exact.numerator // exact.denominator


def season_values(
    values: Mapping[str, Fraction],
    circulation: Mapping[str, int],
    net_change: Mapping[str, int],
) -> dict[str, Fraction]:
    """The values rule 6 uses this season (rule 7 d): a currency whose pounds in circulation
    rose or fell by m% through the season's conversions is worth m% more or less (2000 purple
    pounds with a net 700 converted away: 35% less)."""
    out = dict(values)
    for currency, change in net_change.items():
        total = circulation.get(currency, 0)
        if change and total:
            out[currency] = values.get(currency, Fraction(0)) * (1 + Fraction(change, total))
    return out


def opening_money(game_map: Map, centers: Mapping[str, Iterable[str]]) -> Money:
    """The money at the start of a game: 1,000 pounds of its own currency each (rule 3), every
    currency valued by the centres held (rule 3 a: equal on the standard board)."""
    powers = sorted(game_map.powers)
    return Money(
        holdings={p: {p: STARTING_BALANCE} for p in powers},
        values=exchange_values(counted_centres(game_map, centers)),
    )


def opening_payments(game_map: Map) -> list[Payment]:
    """The ledger's first entries: the bank gives each power its starting balance (rule 3)."""
    return [
        Payment(BANK, power, power, STARTING_BALANCE, "rule 3: the starting balance")
        for power in sorted(game_map.powers)
    ]


# --- the ledger ----------------------------------------------------------------------------------
class Overdrawn(ValueError):
    """A payment larger than the payer's balance (rule 10: no deficits)."""


@dataclass
class Ledger:
    """Holdings being changed in one phase: every change is a `Payment` kept in order, and no
    power's balance goes below zero (the bank's has no bottom)."""

    holdings: dict[str, dict[str, int]]
    payments: list[Payment] = field(default_factory=list)

    @classmethod
    def of(cls, money: Money) -> Ledger:
        return cls({p: dict(h) for p, h in money.holdings.items()})

    def balance(self, power: str, currency: str) -> int:
        return self.holdings.get(power, {}).get(currency, 0)

    def pay(self, payer: str, payee: str, currency: str, amount: int, why: str) -> None:
        """Move `amount` pounds of `currency`; refuse (Overdrawn) rather than go below zero."""
        if amount <= 0:
            return
        if payer != BANK:
            held = self.balance(payer, currency)
            if held < amount:
                raise Overdrawn(
                    f"{payer.title()} holds {held} {currency.title()} pounds, not {amount}"
                )
            self.holdings[payer][currency] = held - amount
        if payee != BANK:
            held_by = self.holdings.setdefault(payee, {})
            held_by[currency] = held_by.get(currency, 0) + amount
        self.payments.append(Payment(payer, payee, currency, amount, why))


# --- JSON ----------------------------------------------------------------------------------------
def payment_json(payment: Payment) -> dict[str, Any]:
    return {
        "from": payment.payer,
        "to": payment.payee,
        "currency": payment.currency,
        "amount": payment.amount,
        "why": payment.why,
    }


def payment_of(raw: Mapping[str, Any]) -> Payment:
    return Payment(
        str(raw["from"]), str(raw["to"]), str(raw["currency"]), int(raw["amount"]), str(raw["why"])
    )


def _fraction(raw: Any, where: str) -> Fraction:
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise ValueError(f'{where}: expected a fraction such as "4/7", got {raw!r}')
    try:
        value = Fraction(raw)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f'{where}: expected a fraction such as "4/7", got {raw!r}') from None
    if value < 0:
        raise ValueError(f"{where}: a value is never below 0, got {raw!r}")
    return value


def _power(raw: Any, powers: frozenset[str], where: str) -> str:
    if not isinstance(raw, str) or raw.upper() not in powers:
        known = ", ".join(sorted(powers))
        raise ValueError(f"{where}: {raw!r} is no power of the board ({known})")
    return raw.upper()


def _alliances(raw: Any, powers: frozenset[str], where: str) -> tuple[tuple[str, ...], ...]:
    if not isinstance(raw, list):
        raise ValueError(f"{where}: expected a list of alliances (lists of powers), got {raw!r}")
    out: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for i, members in enumerate(raw):
        if not isinstance(members, list) or len(members) < 2:
            raise ValueError(f"{where}[{i}]: an alliance is a list of two powers or more")
        names = tuple(sorted({_power(m, powers, f"{where}[{i}]") for m in members}))
        if len(names) < 2 or seen & set(names):
            raise ValueError(f"{where}[{i}]: a power is in one alliance at most, of two or more")
        seen.update(names)
        out.append(names)
    return tuple(sorted(out))


def money_of(raw: Any, game_map: Map, centers: Mapping[str, Iterable[str]]) -> Money:
    """A case's ``"money"`` checked: ValueError names the field (``money.holdings.FRANCE``).
    Values left out are worked out from the centres and alliances (rule 3 b)."""
    if not isinstance(raw, Mapping):
        raise ValueError(f"money: expected an object, got {raw!r}")
    powers = frozenset(game_map.powers)
    unknown = set(raw) - {"holdings", "values", "alliances", "forming"}
    if unknown:
        raise ValueError(f"money: unknown field {sorted(unknown)[0]!r}")
    holdings: dict[str, dict[str, int]] = {p: {} for p in sorted(powers)}
    raw_holdings = raw.get("holdings", {})
    if not isinstance(raw_holdings, Mapping):
        raise ValueError(f"money.holdings: expected an object, got {raw_holdings!r}")
    for power, held in raw_holdings.items():
        name = _power(power, powers, "money.holdings")
        if not isinstance(held, Mapping):
            raise ValueError(f"money.holdings.{name}: expected an object, got {held!r}")
        for currency, amount in held.items():
            cur = _power(currency, powers, f"money.holdings.{name}")
            if type(amount) is not int or amount < 0:
                raise ValueError(
                    f"money.holdings.{name}.{cur}: expected whole pounds, 0 or more, got {amount!r}"
                )
            holdings[name][cur] = amount
    alliances = _alliances(raw.get("alliances", []), powers, "money.alliances")
    forming = _alliances(raw.get("forming", []), powers, "money.forming")
    raw_values = raw.get("values")
    if raw_values is None:
        values = exchange_values(counted_centres(game_map, centers), alliances)
    else:
        if not isinstance(raw_values, Mapping):
            raise ValueError(f"money.values: expected an object, got {raw_values!r}")
        values = {p: Fraction(0) for p in sorted(powers)}
        for currency, value in raw_values.items():
            cur = _power(currency, powers, "money.values")
            values[cur] = _fraction(value, f"money.values.{cur}")
    return Money(holdings, values, alliances, forming)


def money_from_json(raw: Mapping[str, Any]) -> Money:
    """Money as this package wrote it (a position's state, already checked)."""
    return Money(
        holdings={p: dict(h) for p, h in raw.get("holdings", {}).items()},
        values={c: Fraction(v) for c, v in raw.get("values", {}).items()},
        alliances=tuple(tuple(a) for a in raw.get("alliances", ())),
        forming=tuple(tuple(a) for a in raw.get("forming", ())),
    )
