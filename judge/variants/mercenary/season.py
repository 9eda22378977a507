"""The money that moves when a season ends (rules 4, 8 b and 10), and the values it ends with.

A season ends with its movement phase, or with its retreat phase when units were dislodged (an
autumn's captures are known only then). In order: each power's income (4 a), in an autumn the
captures (4 b, 4 c), each home centre another power holds (4 d), then the exchange values from
the centres held and the alliances in force (3 b, 8 a). Powers and centres go in alphabetical
order, so the ledger's order is the same every time.

A payment a rule demands of a power that holds less than the sum is paid as far as the power's
own currency goes, and the entry says so: there are no deficits (rule 10) and no debts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from judge.engine.geography import Map
from judge.engine.position import Unit
from judge.engine.results import BANK
from judge.variants.mercenary.money import (
    NOT_COUNTED,
    Ledger,
    counted_centres,
    exchange_values,
)

INCOME = 100  # rule 4 a, per home centre held
CAPTURE = 100  # rules 4 b and 4 c, per centre captured
OCCUPATION = 100  # rule 4 d, per home centre another power holds


def pay_as_far_as_held(
    ledger: Ledger, payer: str, payee: str, currency: str, amount: int, why: str
) -> None:
    """A payment a rule demands: in full, or all the payer holds of it."""
    held = ledger.balance(payer, currency)
    if held < amount:
        why = f"{why} ({held} of {amount}: all {payer.title()} held)"
        amount = held
    ledger.pay(payer, payee, currency, amount, why)


def _owner_of(centers: Mapping[str, Iterable[str]]) -> dict[str, str]:
    return {c: power for power, owned in centers.items() for c in owned}


def end_season(
    game_map: Map,
    ledger: Ledger,
    centers_before: Mapping[str, frozenset[str]],
    centers_after: Mapping[str, frozenset[str]],
    autumn: bool,
    alliances: Iterable[tuple[str, ...]],
) -> dict[str, Fraction]:
    """Pay the season's income, captures and occupied home centres into `ledger`; return the
    exchange values the season ends with."""
    owner_after = _owner_of(centers_after)
    owner_before = _owner_of(centers_before)
    powers = sorted(game_map.powers)
    for power in powers:
        homes = game_map.powers[power].home_centres - NOT_COUNTED
        held = sorted(homes & set(centers_after.get(power, ())))
        if held:
            names = ", ".join(game_map.provinces[c].name for c in held)
            ledger.pay(BANK, power, power, INCOME * len(held), f"rule 4 a: income for {names}")
    if autumn:
        for centre in sorted(owner_after):
            captor, loser = owner_after[centre], owner_before.get(centre)
            if centre in NOT_COUNTED or captor == loser:
                continue
            name = game_map.provinces[centre].name
            if loser is None:
                ledger.pay(BANK, captor, captor, CAPTURE, f"rule 4 c: {name} captured, neutral")
            else:
                pay_as_far_as_held(
                    ledger,
                    loser,
                    captor,
                    loser,
                    CAPTURE,
                    f"rule 4 b: {name} captured from {loser.title()}",
                )
    for power in powers:
        for centre in sorted(game_map.powers[power].home_centres - NOT_COUNTED):
            holder = owner_after.get(centre)
            if holder is not None and holder != power:
                pay_as_far_as_held(
                    ledger,
                    power,
                    holder,
                    power,
                    OCCUPATION,
                    f"rule 4 d: home centre {game_map.provinces[centre].name} held by "
                    f"{holder.title()}",
                )
    return exchange_values(counted_centres(game_map, centers_after), alliances)


def forfeit_if_out(
    game_map: Map, ledger: Ledger, units: Iterable[Unit], centers: Mapping[str, frozenset[str]]
) -> list[str]:
    """Rule 10: a power with no unit and no centre left loses all its foreign currency to the
    bank. The powers that lost some."""
    standing = {u.power for u in units} | {p for p, owned in centers.items() if owned}
    out = []
    for power in sorted(game_map.powers):
        if power in standing:
            continue
        for currency, amount in sorted(ledger.holdings.get(power, {}).items()):
            if currency != power and amount > 0:
                ledger.pay(power, BANK, currency, amount, "rule 10: out of the game")
                if power not in out:
                    out.append(power)
    return out
