"""One Mercenary phase, whatever its kind: the variant's adjudicator (the `Variant` record's
`adjudicate`). The board is the standard game's under the 1971 rules (rule 1: the rule set
postal-1972); the money is this package's.

A movement phase, in order:
1. Leaving an Alliance of Currency takes effect at once (rule 8 c; any phase).
2. Each money line is checked (checks.py), then the power's lines are reserved against its
   balances in the order written: a line that would overdraw is refused whole (rule 10).
3. Second orders and offers are settled (bribes.py); offers paid, transfers paid.
4. Bids on the orders finally given weigh in the movement as tie-breakers (rule 6): a bid on
   another power's order is first converted into its currency (6 d), every bid weighs its
   pounds times its currency's value this season (7 d), a bid for a unit to stand counts double
   (6 c); the resolver (judge.engine.resolve) gives the equal-strength contests to the heavier
   side and names the orders that met an equal force, whose bids are paid (6 a).
5. Conversions are made (rule 7), usable from the next season.
6. Alliances every member asked for are formed (rule 8 b).
7. If the season ends here, its income and payments (season.py). A power left with no unit
   and no centre loses its foreign money (rule 10), whatever the phase.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from judge.engine.adjudicate import adjudicate as standard_adjudicate
from judge.engine.adjudicate import update_centres, winners
from judge.engine.adjustments import adjustments_due
from judge.engine.calendar import MOVEMENT, RETREATS, STANDARD, following_phase, parse_phase
from judge.engine.geography import Map
from judge.engine.orders import Hold, Order
from judge.engine.position import Position, province_of
from judge.engine.resolve import MovementOutcome, never_succeeds, resolve_movement
from judge.engine.results import BANK, FAILURE, ILLEGAL, SUCCESS, VOID, OrderResult, PhaseResult
from judge.engine.rules import Rules
from judge.variants.mercenary.bribes import Placed, settle_bribes
from judge.variants.mercenary.checks import (
    alliance_members,
    line_problem,
    names,
    pounds,
)
from judge.variants.mercenary.matching import is_movement_order, order_code, same_order
from judge.variants.mercenary.money import (
    Ledger,
    Money,
    converted,
    counted_centres,
    exchange_values,
    money_from_json,
    opening_money,
    season_values,
    value_words,
)
from judge.variants.mercenary.orders import (
    AllianceWish,
    Bid,
    Conversion,
    LeaveAlliance,
    Offer,
    SecondOrder,
)
from judge.variants.mercenary.season import end_season, forfeit_if_out

MONEY_KEY = "money"  # where the position's state keeps the money
NOT_THIS_PHASE = "money lines and second orders go with a season's movement orders"
# How a second order that was not used, and the first order it replaced, are reported (the
# results text shows the order a unit was really given by these).
NOT_USED = "second order not used"
REPLACED = "replaced by its second order"
ONE_SECOND = "a unit has one second order at most (rule 5 a)"
REFUSED = "line "  # a refused line's reason names it first


def money_in(position: Position, game_map: Map) -> Money:
    """The position's money; the opening money when a case carries none."""
    raw = position.state.get(MONEY_KEY)
    if raw is None:
        return opening_money(game_map, position.centers)
    return money_from_json(raw)


class _Sheet:
    """The result of every line of every power, filled in as the phase goes."""

    def __init__(self, orders: Mapping[str, Sequence[Any]]) -> None:
        self.orders = orders
        self.results: dict[str, list[OrderResult | None]] = {
            power: [None] * len(lines) for power, lines in orders.items()
        }

    def lines(self) -> list[Placed]:
        """Every line, the powers in alphabetical order and each power's in the order given,
        so that the ledger's order does not depend on how the orders were handed in."""
        return [
            Placed(power, index, value)
            for power in sorted(self.orders)
            for index, value in enumerate(self.orders[power])
        ]

    def set(self, line: Placed, result: str, reason: str = "") -> None:
        self.results[line.power][line.index] = OrderResult(result, reason)

    def refuse(self, line: Placed, why: str) -> None:
        self.set(line, ILLEGAL, f"{REFUSED}{line.index + 1}: {why}")

    def done(self) -> dict[str, tuple[OrderResult, ...]]:
        return {
            power: tuple(r if r is not None else OrderResult(VOID, "") for r in results)
            for power, results in self.results.items()
        }


def _leave_alliances(
    sheet: _Sheet, game_map: Map, position: Position, money: Money
) -> tuple[tuple[str, ...], ...]:
    """Rule 8 c: every member who leaves is out at once; an alliance of one is no alliance."""
    alliances = [set(a) for a in money.alliances]
    for line in sheet.lines():
        if not isinstance(line.value, LeaveAlliance):
            continue
        problem = line_problem(game_map, position, money, line.power, line.value)
        if problem:
            sheet.refuse(line, problem)
            continue
        for members in alliances:
            if line.power in members:
                left = sorted(members - {line.power})
                members.discard(line.power)
                sheet.set(line, SUCCESS, f"left the Alliance of Currency with {names(left)}")
    return tuple(sorted(tuple(sorted(a)) for a in alliances if len(a) > 1))


def adjudicate_mercenary(
    game_map: Map, position: Position, orders: Mapping[str, Sequence[Any]], rules: Rules
) -> PhaseResult:
    phase = parse_phase(position.phase, STANDARD)
    money = money_in(position, game_map)
    sheet = _Sheet(orders)
    alliances = _leave_alliances(sheet, game_map, position, money)
    if alliances != money.alliances:
        counts = counted_centres(game_map, position.centers)
        money = Money(money.holdings, exchange_values(counts, alliances), alliances, money.forming)
    ledger = Ledger.of(money)
    if phase.kind == MOVEMENT:
        movement = _Movement(game_map, position, money, sheet, ledger, rules)
        result = movement.run()
        forming = movement.formed
    else:
        result = _other_phase(game_map, position, sheet, rules)
        forming = ()
    forming = tuple(sorted({*money.forming, *forming}))
    # A season ends with its movement, or with its retreats where units were dislodged.
    season_over = phase.kind == RETREATS or (phase.kind == MOVEMENT and not result.dislodged)
    values = money.values
    if season_over:
        alliances = _joined(alliances, forming)
        forming = ()
        values = end_season(
            game_map,
            ledger,
            position.centers,
            result.centers_after,
            phase.is_fall,
            alliances,
        )
    forfeit_if_out(game_map, ledger, result.units_after, result.centers_after)
    after = Money(ledger.holdings, values, alliances, forming)
    return PhaseResult(
        phase=result.phase,
        results=sheet.done(),
        units_after=result.units_after,
        centers_after=result.centers_after,
        next_phase=result.next_phase,
        dislodged=result.dislodged,
        contested=result.contested,
        disbanded=result.disbanded,
        victory=result.victory,
        state_after={**position.state, MONEY_KEY: after.to_json()},
        payments=tuple(ledger.payments),
    )


def _joined(
    alliances: tuple[tuple[str, ...], ...], formed: tuple[tuple[str, ...], ...]
) -> tuple[tuple[str, ...], ...]:
    """The alliances in force once `formed` join them: a member of a new alliance leaves its
    old one, and an alliance of one is none."""
    joining = {p for members in formed for p in members}
    kept = [tuple(p for p in a if p not in joining) for a in alliances]
    return tuple(sorted({a for a in [*kept, *formed] if len(a) > 1}))


def _other_phase(game_map: Map, position: Position, sheet: _Sheet, rules: Rules) -> PhaseResult:
    """Retreats and adjustments: the standard game's, with money lines refused."""
    engine: dict[str, list[Order]] = {}
    where: dict[tuple[str, int], tuple[str, int]] = {}
    for line in sheet.lines():
        if isinstance(line.value, LeaveAlliance):
            continue
        if isinstance(line.value, SecondOrder | Offer | Bid | Conversion | AllianceWish):
            sheet.refuse(line, NOT_THIS_PHASE)
            continue
        own = engine.setdefault(line.power, [])
        where[(line.power, line.index)] = (line.power, len(own))
        own.append(line.value)
    result = standard_adjudicate(game_map, position, engine, rules)
    for (power, index), (_, at) in where.items():
        sheet.results[power][index] = result.results[power][at]
    return result


class _Movement:
    """One movement phase's money and moves (the module's steps 2 to 6)."""

    def __init__(
        self,
        game_map: Map,
        position: Position,
        money: Money,
        sheet: _Sheet,
        ledger: Ledger,
        rules: Rules,
    ) -> None:
        self.map = game_map
        self.position = position
        self.money = money
        self.sheet = sheet
        self.ledger = ledger
        self.rules = rules
        self.formed: tuple[tuple[str, ...], ...] = ()

    # --- step 2: checks and the reservation of every pound a line may spend ---------------------
    def _accepted(self) -> list[Placed]:
        reserved: dict[tuple[str, str], int] = {}
        out = []
        for line in self.sheet.lines():
            value = line.value
            if not isinstance(value, SecondOrder | Offer | Bid | Conversion | AllianceWish):
                continue
            problem = line_problem(self.map, self.position, self.money, line.power, value)
            if problem:
                self.sheet.refuse(line, problem)
                continue
            spend = spending(line.power, value)
            if spend is not None:
                currency, amount = spend
                if amount == 0:
                    self.sheet.set(line, VOID, "a sum of 0: nothing to do")
                    continue
                before = reserved.get((line.power, currency), 0)
                held = self.money.balance(line.power, currency)
                if before + amount > held:
                    self.sheet.refuse(
                        line,
                        f"{line.power.title()} holds {pounds(held, currency, self.map)} and the "
                        f"lines before this one may spend {before} of them: {amount} more would "
                        "overdraw (rule 10: no deficits)",
                    )
                    continue
                reserved[(line.power, currency)] = before + amount
            out.append(line)
        return out

    def run(self) -> PhaseResult:
        by_kind: dict[type, list[Placed]] = {}
        for line in self._accepted():
            by_kind.setdefault(type(line.value), []).append(line)
        engine, where = self._bribes(by_kind.get(SecondOrder, []), by_kind.get(Offer, []))
        conversions = by_kind.get(Conversion, [])
        outcome = self._movement(engine, by_kind.get(Bid, []), conversions)
        for (power, index), (_, at) in where.items():
            self.sheet.results[power][index] = outcome.results[power][at]
        self._conversions(conversions)
        self._alliances(by_kind.get(AllianceWish, []))
        return self._board_after(outcome)

    # --- step 3: second orders and offers --------------------------------------------------------
    def _bribes(
        self, second_lines: list[Placed], offers: list[Placed]
    ) -> tuple[dict[str, list[Order]], dict[tuple[str, int], tuple[str, int]]]:
        """Settle the second orders and offers, pay what is paid; the orders the resolver gets."""
        firsts, seconds = self._first_and_second_orders(second_lines)
        settlement = settle_bribes(firsts, seconds, offers)
        for line in offers:
            offer = line.value
            assert isinstance(offer, Offer)
            if line in settlement.paid:
                if offer.condition is None:
                    why = "rule 5 e: transfer"
                else:
                    why = f"rule 5 b: for {order_code(offer.condition)}"
                currency = offer.currency or line.power
                self.ledger.pay(line.power, offer.payee, currency, offer.amount, why)
                self.sheet.set(line, SUCCESS, "paid")
            else:
                self.sheet.set(line, VOID, "not paid: that order was not given")
        return self._engine_orders(settlement.used, seconds, settlement.dropped_in_circle)

    # --- step 4: bids, and the movement ------------------------------------------------------------
    def _movement(
        self, engine: dict[str, list[Order]], bids: list[Placed], conversions: list[Placed]
    ) -> MovementOutcome:
        """The movement with the bids as tie weights; the bids that met an equal force paid."""
        worth = season_values(
            self.money.values, _circulation(self.money), self._net_conversions(conversions)
        )
        weights: dict[tuple[str, int], Fraction] = {}
        counted: list[tuple[Placed, str, int, tuple[str, int], Fraction]] = []
        for line in bids:
            bid = line.value
            assert isinstance(bid, Bid)
            found = self._given(bid.order, engine)
            if found is None:
                self.sheet.set(line, VOID, "ignored: that order was not given (rule 6 e)")
                continue
            key, given = found
            owner = key[0]
            amount = bid.amount
            if owner != line.power:  # rule 6 d: converted, paid or not
                amount = converted(
                    bid.amount, self.money.values[line.power], worth_of(self.money, owner)
                )
                why = f"rule 6 d: bid on {order_code(given)} converted"
                self.ledger.pay(line.power, BANK, line.power, bid.amount, why)
                self.ledger.pay(BANK, line.power, owner, amount, why)
            weight = amount * worth.get(owner, Fraction(0))
            if isinstance(given, Hold):
                weight *= 2  # rule 6 c: a bid for a unit to stand counts double
            weights[key] = weights.get(key, Fraction(0)) + weight
            counted.append((line, owner, amount, key, weight))
        outcome = resolve_movement(self.map, self.position, engine, self.rules, weights)
        # Where the season's conversions moved a currency's value (7 d), each bid's result says
        # the weight it counted at, so that the sides can be compared.
        changed = any(worth.get(c) != v for c, v in self.money.values.items())
        for line, owner, amount, key, weight in counted:
            told = (
                f"; counted at {value_words(worth.get(owner, Fraction(0)))} a pound this season "
                f"(rule 7 d), a weight of {value_words(weight)}"
                if changed
                else ""
            )
            if key in outcome.evenly_opposed and amount > 0:
                given = engine[key[0]][key[1]]
                why = f"rule 6 a: bid spent on {order_code(given)}"
                self.ledger.pay(line.power, BANK, owner, amount, why)
                self.sheet.set(
                    line,
                    SUCCESS,
                    f"paid {pounds(amount, owner, self.map)}: the order met an equal force{told}",
                )
            else:
                self.sheet.set(line, SUCCESS, f"not paid: the order met no equal force{told}")
        return outcome

    # --- step 5: conversions ---------------------------------------------------------------------
    def _conversions(self, conversions: list[Placed]) -> None:
        for line in conversions:
            conversion = line.value
            assert isinstance(conversion, Conversion)
            source = conversion.source or line.power
            target = conversion.target
            got = converted(
                conversion.amount, self.money.values[source], worth_of(self.money, target)
            )
            why = f"rule 7: {pounds(conversion.amount, source, self.map)} converted"
            self.ledger.pay(line.power, BANK, source, conversion.amount, why)
            self.ledger.pay(BANK, line.power, target, got, why)
            self.sheet.set(line, SUCCESS, f"{pounds(got, target, self.map)}, usable next season")

    def _board_after(self, outcome: MovementOutcome) -> PhaseResult:
        """The board after the movement, as the standard adjudicator leaves it (the results are
        the sheet's)."""
        centers = dict(self.position.centers)
        phase = parse_phase(self.position.phase, STANDARD)
        units = outcome.units_after
        if phase.is_fall and not outcome.dislodged:
            centers = update_centres(self.map, units, centers)
        nxt = following_phase(
            phase,
            retreats_due=bool(outcome.dislodged),
            adjustments_due=phase.is_fall and adjustments_due(self.map, units, centers),
        )
        return PhaseResult(
            phase=phase.name,
            results={},
            units_after=tuple(units),
            centers_after=centers,
            next_phase=nxt.name,
            dislodged=outcome.dislodged,
            contested=outcome.contested,
            victory=winners(self.map, units, centers, self.rules),
        )

    def _first_and_second_orders(
        self, second_lines: list[Placed]
    ) -> tuple[dict[str, Order | None], dict[str, Placed]]:
        firsts: dict[str, Order | None] = {}
        for line in self.sheet.lines():
            if is_movement_order(line.value):
                prov = province_of(line.value.loc)  # type: ignore[attr-defined]
                unit = self.position.unit_in(prov)
                if unit is None or unit.power != line.power:
                    continue
                # Two first orders for one unit: the unit holds (DATC 4.D.3), none is given.
                firsts[prov] = None if prov in firsts else line.value  # type: ignore[assignment]
        seconds: dict[str, Placed] = {}
        twice: set[str] = set()
        for line in second_lines:
            second = line.value
            assert isinstance(second, SecondOrder)
            prov = province_of(second.order.loc)  # type: ignore[union-attr]
            if prov in seconds:
                twice.add(prov)
            seconds[prov] = line
        for line in second_lines:
            prov = province_of(line.value.order.loc)  # type: ignore[attr-defined]
            if prov in twice:
                self.sheet.set(line, VOID, ONE_SECOND)
                seconds.pop(prov, None)
        return firsts, seconds

    def _engine_orders(
        self, used: frozenset[str], seconds: Mapping[str, Placed], circled: frozenset[str]
    ) -> tuple[dict[str, list[Order]], dict[tuple[str, int], tuple[str, int]]]:
        """The orders the resolver gets (first orders, or the second orders used instead), and
        where each line's result will be found among them."""
        engine: dict[str, list[Order]] = {power: [] for power in self.sheet.orders}
        where: dict[tuple[str, int], tuple[str, int]] = {}
        paid_by: dict[tuple[str, str, str], int] = {}
        for payment in self.ledger.payments:
            key = (payment.payer, payment.payee, payment.currency)
            paid_by[key] = paid_by.get(key, 0) + payment.amount
        for line in self.sheet.lines():
            value = line.value
            if is_movement_order(value):
                prov = province_of(value.loc)  # type: ignore[attr-defined]
                unit = self.position.unit_in(prov)
                if prov in used and unit is not None and unit.power == line.power:
                    second = seconds[prov].value
                    assert isinstance(second, SecondOrder)
                    self.sheet.set(line, VOID, f"{REPLACED}, bought by {second.payer.title()}")
                    continue
            elif isinstance(value, SecondOrder):
                prov = province_of(value.order.loc)  # type: ignore[union-attr]
                if seconds.get(prov) != line:
                    continue  # refused or void already
                if prov not in used:
                    currency = value.currency or value.payer
                    paid = paid_by.get((value.payer, line.power, currency), 0)
                    why = (
                        f"{NOT_USED}: its bribe went round in a circle"
                        if prov in circled
                        else f"{NOT_USED}: {value.payer.title()} paid "
                        f"{pounds(paid, currency, self.map)} of the {value.amount} asked"
                    )
                    self.sheet.set(line, VOID, why)
                    continue
                value = value.order
            else:
                continue
            own = engine.setdefault(line.power, [])
            where[(line.power, line.index)] = (line.power, len(own))
            own.append(value)  # type: ignore[arg-type]
        return engine, where

    def _given(
        self, named: Order, engine: dict[str, list[Order]]
    ) -> tuple[tuple[str, int], Order] | None:
        """The order finally given that a bid names, by its place among the resolver's orders;
        a unit with no order stands, so a bid for it to stand finds a hold made for it."""
        prov = province_of(named.loc)  # type: ignore[union-attr]
        unit = self.position.unit_in(prov)
        if unit is None:
            return None
        own = engine.setdefault(unit.power, [])
        mine = [i for i, o in enumerate(own) if province_of(o.loc) == prov]  # type: ignore[union-attr]
        if len(mine) > 1:
            return None  # several orders: the unit holds, none of them is given
        if not mine:
            if not isinstance(named, Hold):
                return None
            own.append(Hold(unit.kind, unit.loc))
            return (unit.power, len(own) - 1), own[-1]
        given = own[mine[0]]
        if not same_order(named, given):
            return None
        if never_succeeds(self.map, self.position, unit.power, given, self.rules) is not None:
            return None  # an order that can never be valid is no order given: the unit holds
        return (unit.power, mine[0]), given

    def _net_conversions(self, conversions: list[Placed]) -> dict[str, int]:
        """Rule 7 d: how many pounds of each currency the season's conversions take away from
        (negative) or add to circulation."""
        net: dict[str, int] = {}
        for line in conversions:
            conversion = line.value
            assert isinstance(conversion, Conversion)
            source = conversion.source or line.power
            got = converted(
                conversion.amount,
                self.money.values[source],
                worth_of(self.money, conversion.target),
            )
            net[source] = net.get(source, 0) - conversion.amount
            net[conversion.target] = net.get(conversion.target, 0) + got
        return net

    def _alliances(self, wishes: list[Placed]) -> None:
        """Rule 8 b: an alliance is formed when every member asks for the same one."""
        asked: dict[tuple[str, ...], set[str]] = {}
        for line in wishes:
            assert isinstance(line.value, AllianceWish)
            asked.setdefault(alliance_members(line.power, line.value), set()).add(line.power)
        formed = []
        for line in wishes:
            assert isinstance(line.value, AllianceWish)
            members = alliance_members(line.power, line.value)
            missing = sorted(set(members) - asked[members])
            if missing:
                self.sheet.set(line, FAILURE, f"not formed: {names(missing)} did not ask for it")
            else:
                self.sheet.set(
                    line, SUCCESS, f"formed: in force from the end of the season ({names(members)})"
                )
                if members not in formed:
                    formed.append(members)
        self.formed = tuple(formed)


def worth_of(money: Money, currency: str) -> Fraction:
    return money.values.get(currency, Fraction(0))


def _circulation(money: Money) -> dict[str, int]:
    """Rule 7 d: the pounds of each currency held by all the powers at the season's start."""
    out: dict[str, int] = {}
    for held in money.holdings.values():
        for currency, amount in held.items():
            out[currency] = out.get(currency, 0) + amount
    return out


def spending(power: str, value: Any) -> tuple[str, int] | None:
    """The currency and the most a line may spend of it (its reservation), or None."""
    if isinstance(value, Offer):
        return value.currency or power, value.amount
    if isinstance(value, Bid):
        return power, value.amount
    if isinstance(value, Conversion):
        return value.source or power, value.amount
    return None
