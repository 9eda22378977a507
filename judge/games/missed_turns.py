"""Missed turns: what happens to a seat that sent no orders, under a game's chosen policy.

Two policies, as pure transitions over a seat's record taken when a phase is processed (or its
grace ends):

- postal (the 1972 house rules of seed 004): a first miss, units follow the player's general
  orders or stand, the GM is told and the seat is announced for a replacement who stands by; a
  second miss hands the seat to that replacement, or with nobody standing by puts it in civil
  disorder for good (units stand, may be supported, are removed instead of retreating).
- njudge: a seat still late when grace ends is abandoned; anyone may take it over, and unless
  the game says otherwise the phase waits for a taker.

Each transition returns the new record and the events the caller must act on (mail the GM,
announce the seat, mark civil disorder, use standby orders, restart the clock ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from judge.engine.calendar import ADJUSTMENTS, MOVEMENT, RETREATS
from judge.games.seats import OrdersState, SeatOrders, SeatStatus


class SeatRefused(ValueError):
    """A take-over or stand-by the policy does not allow; the message is for the reply."""


class Fallback(StrEnum):
    """What stands in for orders a seat did not send."""

    GENERAL_ORDERS = "general orders"  # the player's general orders on file, read by the GM
    HOLD = "hold"  # every unordered unit stands
    DISBAND = "disband"  # unordered dislodged units are disbanded (the rulebook's default)
    REMOVE = "remove"  # civil disorder: dislodged units are removed, never retreated
    # Unordered builds are waived; owed disbands fall to the civil-disorder removal rule.
    DEFAULT_ADJUSTMENT = "default adjustment"


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat's standing over the whole game, as the missed-turn policies read and write it."""

    power: str
    player: str | None
    status: SeatStatus = SeatStatus.PLAYING
    # Turns missed by the current holder; a new holder starts at 0.
    missed: int = 0
    # Postal: announced after a first miss; the holder plays on while a replacement is sought.
    replacement_sought: bool = False
    # Postal: the replacement standing by, who takes the seat at the holder's next miss.
    standby: str | None = None
    # The holder has general orders on file (house rule I.C) for the GM to follow.
    general_orders: bool = False


# Events: what the caller must do after a transition. Each names the power it concerns.
@dataclass(frozen=True, slots=True)
class UnitsFallBack:
    """Play `fallback` for the seat's units this phase; `partial` when some orders did arrive
    (then only the unordered units fall back)."""

    power: str
    fallback: Fallback
    partial: bool = False


@dataclass(frozen=True, slots=True)
class TellGM:
    """Mail the game master what happened to the seat and why."""

    power: str
    player: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class AnnounceOpenSeat:
    """Tell the game (and whoever lists open seats) that the seat wants a player.

    `standby` True: the postal rule, the volunteer stands by and sends orders to be used if the
    holder misses again. False: njudge's, the first to sign on takes the seat at once.
    """

    power: str
    standby: bool


@dataclass(frozen=True, slots=True)
class Abandoned:
    """njudge: the holder is dropped for lateness; counts against the player's record."""

    power: str
    player: str | None


@dataclass(frozen=True, slots=True)
class CivilDisorder:
    """Mark the power in civil disorder: never taken over, units stand, removed if dislodged."""

    power: str


@dataclass(frozen=True, slots=True)
class TakenOver:
    """The seat changes hands: send `new` the seat's password and position, tell the game."""

    power: str
    old: str | None
    new: str


@dataclass(frozen=True, slots=True)
class UseStandbyOrders:
    """Postal: adjudicate this phase with the orders the replacement sent while standing by
    (units with none stand)."""

    power: str
    player: str


@dataclass(frozen=True, slots=True)
class StandbyAccepted:
    """Postal: `player` stands by for the seat; acknowledge and ask for stand-by orders."""

    power: str
    player: str


@dataclass(frozen=True, slots=True)
class WaitForTaker:
    """njudge: do not process this phase until the open seat is taken (or the GM forces it)."""

    power: str


@dataclass(frozen=True, slots=True)
class RestartClock:
    """A taker joined a waiting phase: give the phase a fresh deadline from now
    (timing.next_deadline) so the newcomer has the game's usual time."""

    power: str


Event = (
    UnitsFallBack
    | TellGM
    | AnnounceOpenSeat
    | Abandoned
    | CivilDisorder
    | TakenOver
    | UseStandbyOrders
    | StandbyAccepted
    | WaitForTaker
    | RestartClock
)


@dataclass(frozen=True, slots=True)
class PostalPolicy:
    """Seed 004's rule. `counted_kinds`: the phase kinds in which a miss counts; the seed speaks
    of missed moves, so only movement by default (a missed retreat or build has its own
    rulebook default and is reported to the GM)."""

    counted_kinds: frozenset[str] = frozenset({MOVEMENT})

    @property
    def open_seats_block(self) -> bool:
        """Postal seats are never open and waiting: the holder plays until replaced."""
        return False


@dataclass(frozen=True, slots=True)
class NjudgePolicy:
    """njudge's rule. `wait_for_takeover` True is njudge's NoNMR default: the phase waits for
    someone to take an abandoned seat. False processes with the abandoned seat's units holding,
    while the seat stays open to any taker."""

    wait_for_takeover: bool = True

    @property
    def open_seats_block(self) -> bool:
        """Pass to timing.due_actions so an abandoned seat keeps the phase waiting."""
        return self.wait_for_takeover


Policy = PostalPolicy | NjudgePolicy


@dataclass(frozen=True, slots=True)
class Transition:
    """One seat's new record and what the caller must do about it."""

    record: SeatRecord
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Settlement:
    """Every seat after a phase is settled; `process` False means the phase must wait."""

    records: tuple[SeatRecord, ...]
    events: tuple[Event, ...]
    process: bool


def fallback_for(record: SeatRecord, kind: str) -> Fallback:
    """What stands in for a seat's missing orders in a phase of `kind`.

    Civil disorder ignores general orders: its units never move, support or convoy.
    """
    if kind not in (MOVEMENT, RETREATS, ADJUSTMENTS):
        raise ValueError(f"phase kind {kind!r} is not M, R or A")
    if record.status is SeatStatus.CIVIL_DISORDER:
        return {MOVEMENT: Fallback.HOLD, RETREATS: Fallback.REMOVE}.get(
            kind, Fallback.DEFAULT_ADJUSTMENT
        )
    if record.general_orders and record.status is SeatStatus.PLAYING:
        return Fallback.GENERAL_ORDERS
    return {MOVEMENT: Fallback.HOLD, RETREATS: Fallback.DISBAND}.get(
        kind, Fallback.DEFAULT_ADJUSTMENT
    )


def settle_seat(
    policy: Policy,
    record: SeatRecord,
    orders: SeatOrders,
    kind: str,
    *,
    force: bool = False,
    counted: bool = True,
) -> Transition:
    """Apply the policy to one seat as its phase is processed (or its grace ends).

    `force` is the GM's PROCESS despite open seats: an open seat's units fall back instead of
    the phase waiting for a taker. `counted` False is a phase run before its deadline (the GM's
    early PROCESS): a holder without orders missed no deadline, so his units fall back and
    nothing is counted, announced or taken from him.
    """
    if orders.power != record.power:
        raise ValueError(f"orders of {orders.power} given for the seat of {record.power}")
    if record.status is SeatStatus.ELIMINATED or not orders.owes_orders:
        return Transition(record)
    if record.status is SeatStatus.CIVIL_DISORDER:
        return Transition(record, (UnitsFallBack(record.power, fallback_for(record, kind)),))
    if record.status is SeatStatus.RESIGNED:
        # "If no replacement can be found, then the country goes into civil disorder."
        new = replace(record, status=SeatStatus.CIVIL_DISORDER, replacement_sought=False)
        reason = "given up and no replacement found: civil disorder"
        return Transition(
            new,
            (
                CivilDisorder(record.power),
                UnitsFallBack(record.power, fallback_for(new, kind)),
                TellGM(record.power, record.player, reason),
            ),
        )
    if record.status is SeatStatus.OPEN:
        if orders.orders is OrdersState.COMPLETE:
            # The seat's holder came back, or its taker ordered before the desk seated them:
            # the units have their orders, so there is nothing to wait for.
            return Transition(record)
        if policy.open_seats_block and not force:
            return Transition(record, (WaitForTaker(record.power),))
        return Transition(record, (UnitsFallBack(record.power, fallback_for(record, kind)),))
    if orders.orders is OrdersState.COMPLETE:
        return Transition(record)
    if not counted:
        partial = orders.orders is OrdersState.PARTIAL
        return Transition(
            record, (UnitsFallBack(record.power, fallback_for(record, kind), partial=partial),)
        )
    if isinstance(policy, PostalPolicy):
        return _postal_miss(policy, record, orders, kind)
    return _njudge_miss(policy, record, orders, kind, force=force)


def _postal_miss(
    policy: PostalPolicy, record: SeatRecord, orders: SeatOrders, kind: str
) -> Transition:
    power, fallback = record.power, fallback_for(record, kind)
    if orders.orders is OrdersState.PARTIAL:
        # "If no move is received": orders that arrived, even short, are not a missed turn.
        return Transition(record, (UnitsFallBack(power, fallback, partial=True),))
    if kind not in policy.counted_kinds:
        reason = f"no orders for the {_KIND_WORDS[kind]}; the rulebook default applies"
        return Transition(
            record, (UnitsFallBack(power, fallback), TellGM(power, record.player, reason))
        )
    missed = record.missed + 1
    if missed == 1:
        reason = "first missed move: units follow general orders or stand; replacement sought"
        new = replace(record, missed=missed, replacement_sought=True)
        return Transition(
            new,
            (
                UnitsFallBack(power, fallback),
                TellGM(power, record.player, reason),
                AnnounceOpenSeat(power, standby=True),
            ),
        )
    if record.standby is not None:
        reason = f"second missed move: {record.standby} replaces {record.player}"
        new = SeatRecord(power, record.standby)
        return Transition(
            new,
            (
                TakenOver(power, record.player, record.standby),
                UseStandbyOrders(power, record.standby),
                TellGM(power, record.player, reason),
            ),
        )
    reason = "second missed move and no replacement: civil disorder"
    new = replace(
        record,
        status=SeatStatus.CIVIL_DISORDER,
        missed=missed,
        replacement_sought=False,
        standby=None,
        general_orders=False,
    )
    return Transition(
        new,
        (
            CivilDisorder(power),
            UnitsFallBack(power, fallback_for(new, kind)),
            TellGM(power, record.player, reason),
        ),
    )


def _njudge_miss(
    policy: NjudgePolicy, record: SeatRecord, orders: SeatOrders, kind: str, *, force: bool
) -> Transition:
    power = record.power
    new = replace(record, status=SeatStatus.OPEN, missed=record.missed + 1, general_orders=False)
    events: list[Event] = [
        Abandoned(power, record.player),
        AnnounceOpenSeat(power, standby=False),
        TellGM(power, record.player, "late at the end of grace: abandoned, open to any taker"),
    ]
    if policy.wait_for_takeover and not force:
        events.append(WaitForTaker(power))
    else:
        partial = orders.orders is OrdersState.PARTIAL
        events.append(UnitsFallBack(power, fallback_for(new, kind), partial=partial))
    return Transition(new, tuple(events))


_KIND_WORDS = {MOVEMENT: "movement", RETREATS: "retreats", ADJUSTMENTS: "adjustments"}


def settle_phase(
    policy: Policy,
    records: Iterable[SeatRecord],
    orders: Mapping[str, SeatOrders],
    kind: str,
    *,
    force: bool = False,
    counted: bool = True,
) -> Settlement:
    """Settle every seat as a phase is processed; the phase waits if any seat says so.
    `counted` False: the phase runs before its deadline, and no missing orders count as missed
    (settle_seat).

    Every seat not eliminated needs its SeatOrders in `orders`, so a seat the desk forgot is an
    error rather than a silent miss.
    """
    new_records: list[SeatRecord] = []
    events: list[Event] = []
    for record in records:
        if record.status is SeatStatus.ELIMINATED:
            new_records.append(record)
            continue
        if record.power not in orders:
            raise ValueError(f"no orders state given for {record.power}")
        transition = settle_seat(
            policy, record, orders[record.power], kind, force=force, counted=counted
        )
        new_records.append(transition.record)
        events.extend(transition.events)
    waiting = any(isinstance(event, WaitForTaker) for event in events)
    return Settlement(tuple(new_records), tuple(events), process=not waiting)


def take_over(policy: Policy, record: SeatRecord, player: str) -> Transition:
    """Someone offers to play the seat; what the policy makes of it.

    Postal: the volunteer stands by for a seat that missed a move and takes it at the holder's
    next miss. njudge: an open seat is taken at once and the waiting phase gets a fresh clock.
    A seat in civil disorder is never taken over.
    """
    power = record.power
    if record.status is SeatStatus.CIVIL_DISORDER:
        raise SeatRefused(f"{power} is in civil disorder and may not be taken over")
    if record.status is SeatStatus.ELIMINATED:
        raise SeatRefused(f"{power} is out of the game")
    if player == record.player:
        raise SeatRefused(f"{player} already plays {power}")
    if record.status is SeatStatus.RESIGNED:
        new = SeatRecord(power, player)
        return Transition(
            new,
            (
                TakenOver(power, record.player, player),
                TellGM(power, record.player, f"{player} replaces {record.player}, who resigned"),
            ),
        )
    if isinstance(policy, PostalPolicy):
        if not record.replacement_sought:
            raise SeatRefused(f"{power} is not open for a replacement")
        if record.standby is not None:
            raise SeatRefused(f"{record.standby} already stands by for {power}")
        return Transition(
            replace(record, standby=player),
            (
                StandbyAccepted(power, player),
                TellGM(power, record.player, f"{player} stands by to replace {record.player}"),
            ),
        )
    if record.status is not SeatStatus.OPEN:
        raise SeatRefused(f"{power} is played by {record.player} and is not open")
    new = SeatRecord(power, player)
    events: tuple[Event, ...] = (
        TakenOver(power, record.player, player),
        TellGM(power, record.player, f"{player} took over the abandoned seat"),
    )
    if policy.wait_for_takeover:
        events = (*events, RestartClock(power))
    return Transition(new, events)


def withdraw_standby(record: SeatRecord) -> Transition:
    """Postal: the volunteer standing by withdraws; the search for a replacement goes on."""
    if record.standby is None:
        raise SeatRefused(f"nobody stands by for {record.power}")
    reason = f"{record.standby} no longer stands by"
    return Transition(
        replace(record, standby=None),
        (TellGM(record.power, record.player, reason), AnnounceOpenSeat(record.power, standby=True)),
    )


def resign(policy: Policy, record: SeatRecord) -> Transition:
    """The holder gives the seat up (RESIGN).

    Postal: a replacement standing by takes the seat at once; otherwise the seat is announced
    and goes into civil disorder if its next phase is processed with nobody found. njudge: the
    seat is abandoned like a late one (open to any taker), without counting a missed turn.
    """
    power = record.power
    if record.status is not SeatStatus.PLAYING:
        raise SeatRefused(f"{power} is not being played, so it cannot be given up")
    if isinstance(policy, PostalPolicy):
        if record.standby is not None:
            return Transition(
                SeatRecord(power, record.standby),
                (
                    TakenOver(power, record.player, record.standby),
                    TellGM(power, record.player, f"resigned; {record.standby} takes over"),
                ),
            )
        new = replace(record, status=SeatStatus.RESIGNED, replacement_sought=True)
        return Transition(
            new,
            (
                TellGM(power, record.player, "resigned; replacement sought"),
                AnnounceOpenSeat(power, standby=False),
            ),
        )
    new = replace(record, status=SeatStatus.OPEN, general_orders=False)
    return Transition(
        new,
        (
            TellGM(power, record.player, "resigned: open to any taker"),
            AnnounceOpenSeat(power, standby=False),
        ),
    )


POLICIES: dict[str, Policy] = {
    "postal": PostalPolicy(),
    "njudge": NjudgePolicy(),
    # njudge with the phase going on while an abandoned seat waits for a taker.
    "njudge-no-wait": NjudgePolicy(wait_for_takeover=False),
}


def policy_named(name: str) -> Policy:
    """The missed-turn policy a game's settings name."""
    try:
        return POLICIES[name.strip().lower()]
    except KeyError:
        known = ", ".join(POLICIES)
        raise ValueError(f"missed-turn policy {name!r} is not known (known: {known})") from None
