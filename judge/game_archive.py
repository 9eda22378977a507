"""One game as a JSON document (docs/GAME-EXPORT.md): written from the store, read back into one,
and replayed through the engine to prove that the history it carries is the one adjudicated.

A judge keeper moves a game to another judge, keeps an archive, or hands a finished game to a
tool with it. So the document carries what play needs (map, rules, status, board, settings, and
every processed phase with the board before it, the orders as given and the results) and none of
what identifies or authenticates people: no addresses, passwords, hashes or reply tokens, players
by power only (their names only on request). Settings are copied without any key that names a
secret or an address (`SECRET_WORDS`), at any depth.

An imported game has nobody in its seats: powers still in play come in open, those in civil
disorder or eliminated keep that standing. A running game comes in without a deadline, so the
scheduler leaves it alone until its GM sets one or processes the phase; the GM is whoever the
importer names (`import_game(gm=...)`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.orm import Session

from judge.adjudicate_json import CaseError, read_case, run_case
from judge.clock import now
from judge.engine.rules import UnknownRuleSet, rules_from_names
from judge.games.seats import SeatStatus
from judge.identity import hash_password
from judge.store.game_queries import (
    add_ledger_entries,
    create_game,
    find_game,
    history,
    ledger_of,
)
from judge.store.games import GAME_NAME_LENGTH, Game, GameStatus, Person, PhaseRecord, Seat
from judge.variants import UnknownVariant, board_of

FORMAT = "judge-game-export"
VERSION = 1

# A settings key containing one of these words is never exported: it holds a secret (the GM's
# password hash, a token) or reaches a person (an address).
SECRET_WORDS = ("password", "hash", "token", "secret", "address", "email", "mail")

# Where seating keeps the GM's password hash in Game.settings (judge.desk.seating.GM_PASSWORD).
GM_PASSWORD = "gm_password_hash"

# A power's standing in the export: only what play needs, not who holds the seat.
IN_PLAY = "in play"
STANDINGS = {
    SeatStatus.CIVIL_DISORDER: "civil disorder",
    SeatStatus.ELIMINATED: "eliminated",
}
SEAT_STATUS_OF_STANDING = {IN_PLAY: SeatStatus.OPEN} | {v: k for k, v in STANDINGS.items()}


class ArchiveError(ValueError):
    """A document that cannot be imported: the message names the field and what is wrong."""


def _public(settings: Any) -> Any:
    """The settings without any key that names a secret or an address, at any depth."""
    if isinstance(settings, Mapping):
        return {
            key: _public(value)
            for key, value in settings.items()
            if not any(word in str(key).lower() for word in SECRET_WORDS)
        }
    if isinstance(settings, list):
        return [_public(value) for value in settings]
    return settings


def _when(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


def export_game(session: Session, game: Game, *, names: bool = False) -> dict[str, Any]:
    """The game as an export document; with `names`, each power's current player by the name
    they gave (never an address)."""
    powers = []
    for seat in game.seats:
        entry: dict[str, Any] = {
            "power": seat.power,
            "standing": STANDINGS.get(SeatStatus(seat.status), IN_PLAY),
            "missed_turns": seat.missed_turns,
        }
        if names:
            entry["player"] = seat.person.name if seat.person is not None else None
        powers.append(entry)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "name": game.name,
        "variant": game.variant,
        "rules": list(game.rules),
        "status": str(game.status),
        "phase": game.phase,
        "position": game.position,
        "settings": _public(game.settings or {}),
        "powers": powers,
        "phases": [_phase(record) for record in history(session, game)],
    }
    ledger = ledger_of(session, game)
    if ledger:  # a game with money (Mercenary): every movement of it, in order
        document["ledger"] = [
            {
                "phase": e.phase,
                "processed": e.phase_record_id is not None,
                "from": e.payer,
                "to": e.payee,
                "currency": e.currency,
                "amount": e.amount,
                "why": e.why,
            }
            for e in ledger
        ]
    return document


def _phase(record: PhaseRecord) -> dict[str, Any]:
    return {
        "phase": record.phase,
        "processed_at": _when(record.processed_at),
        "position_before": record.position_before,
        "orders": record.orders,
        "results": record.results,
    }


def dumps(document: Mapping[str, Any]) -> str:
    """The document as the file holds it: indented JSON, keys in the document's order."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def loads(text: str) -> dict[str, Any]:
    """A document read from text; ArchiveError when it is not a JSON object."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ArchiveError(f"not JSON: {exc}") from None
    if not isinstance(document, dict):
        raise ArchiveError(f"expected a JSON object, got {type(document).__name__}")
    return document


def _field(document: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = document.get(name)
    if not isinstance(value, kind):
        wanted = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ArchiveError(f"{name}: expected {wanted}, got {value!r}")
    return value


def check_document(document: Mapping[str, Any]) -> None:
    """Raise ArchiveError naming the first field that an import could not take."""
    if document.get("format") != FORMAT:
        raise ArchiveError(f"format: expected {FORMAT!r}, got {document.get('format')!r}")
    if document.get("version") != VERSION:
        raise ArchiveError(
            f"version: this judge reads version {VERSION}, got {document.get('version')!r}"
        )
    name = _field(document, "name", str)
    if not name.strip() or len(name.strip()) > GAME_NAME_LENGTH or len(name.split()) != 1:
        raise ArchiveError(
            f"name: expected one word of at most {GAME_NAME_LENGTH} characters, got {name!r}"
        )
    variant = _field(document, "variant", str)
    try:
        game_map = board_of(variant)
    except (FileNotFoundError, KeyError, ValueError, UnknownVariant) as exc:
        raise ArchiveError(f"variant: unknown variant {variant!r} ({exc})") from None
    rules = _field(document, "rules", list)
    if not all(isinstance(r, str) for r in rules):
        raise ArchiveError(f"rules: expected rule set names, got {rules!r}")
    try:
        rules_from_names(rules)
    except UnknownRuleSet as exc:
        raise ArchiveError(f"rules: {exc}") from None
    status = _field(document, "status", str)
    if status not in set(GameStatus):
        raise ArchiveError(f"status: expected one of {', '.join(GameStatus)}, got {status!r}")
    phase = document.get("phase")
    position = document.get("position")
    if status != GameStatus.FORMING and not (isinstance(phase, str) and isinstance(position, dict)):
        raise ArchiveError(f"phase, position: a {status} game needs both")
    if position is not None:
        _case(position, rules, "position")
        if position.get("phase") != phase:
            raise ArchiveError(f"position.phase: {position.get('phase')!r} is not phase {phase!r}")
    _field(document, "settings", dict)
    powers = _field(document, "powers", list)
    seen: set[str] = set()
    for i, entry in enumerate(powers):
        where = f"powers[{i}]"
        if not isinstance(entry, dict):
            raise ArchiveError(f"{where}: expected an object, got {entry!r}")
        power = entry.get("power")
        if power not in game_map.powers or power in seen:
            raise ArchiveError(f"{where}.power: {power!r} is not a power of {variant} given once")
        seen.add(power)
        if entry.get("standing") not in SEAT_STATUS_OF_STANDING:
            raise ArchiveError(
                f"{where}.standing: expected one of {', '.join(SEAT_STATUS_OF_STANDING)}, "
                f"got {entry.get('standing')!r}"
            )
        missed = entry.get("missed_turns", 0)
        if not (isinstance(missed, int) and missed >= 0):
            raise ArchiveError(f"{where}.missed_turns: expected a count, got {missed!r}")
    phases = _field(document, "phases", list)
    names: set[str] = set()
    for i, record in enumerate(phases):
        where = f"phases[{i}]"
        if not isinstance(record, dict):
            raise ArchiveError(f"{where}: expected an object, got {record!r}")
        name_ = record.get("phase")
        if not isinstance(name_, str) or name_ in names:
            raise ArchiveError(f"{where}.phase: expected a phase not given before, got {name_!r}")
        names.add(name_)
        before = record.get("position_before")
        if not isinstance(before, dict):
            raise ArchiveError(f"{where}.position_before: expected an object, got {before!r}")
        _case(before, rules, f"{where}.position_before")
        if before.get("phase") != name_:
            raise ArchiveError(
                f"{where}.position_before.phase: {before.get('phase')!r} is not {name_!r}"
            )
        orders = record.get("orders")
        if not (
            isinstance(orders, dict)
            and all(
                isinstance(lines, list) and all(isinstance(x, str) for x in lines)
                for lines in orders.values()
            )
        ):
            raise ArchiveError(f"{where}.orders: expected lists of order strings per power")
        if not isinstance(record.get("results"), dict):
            raise ArchiveError(f"{where}.results: expected an object")
        _moment(record.get("processed_at"), f"{where}.processed_at")
    for i, entry in enumerate(document.get("ledger", ())):
        where = f"ledger[{i}]"
        if not (
            isinstance(entry, dict)
            and all(
                isinstance(entry.get(k), str) for k in ("phase", "from", "to", "currency", "why")
            )
            and type(entry.get("amount")) is int
            and entry["amount"] > 0
        ):
            raise ArchiveError(
                f"{where}: expected phase, from, to, currency, a whole amount above 0 and why"
            )


def _case(case: dict[str, Any], rules: list[str], where: str) -> None:
    try:
        read_case(case, rules=rules)
    except CaseError as exc:
        raise ArchiveError(f"{where}: {exc}") from None


def _moment(value: Any, where: str) -> datetime:
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ArchiveError(f"{where}: expected an ISO date and time, got {value!r}") from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def import_game(
    session: Session,
    document: Mapping[str, Any],
    *,
    name: str | None = None,
    gm: Person | None = None,
    gm_password: str | None = None,
) -> Game:
    """Create the document's game in the store (under `name` if given); ArchiveError when the
    document is unfit or a game of that name exists. `gm` and `gm_password` make someone its GM
    (the export carries neither)."""
    check_document(document)
    key = (name if name is not None else document["name"]).strip()  # kept as written
    if not key or len(key) > GAME_NAME_LENGTH or len(key.split()) != 1:
        raise ArchiveError(f"name: {key!r} cannot be a game name")
    if find_game(session, key) is not None:
        raise ArchiveError(f"name: a game named {key} exists already; import it under another name")
    settings = dict(_public(document["settings"]))
    if gm_password is not None:
        settings[GM_PASSWORD] = hash_password(gm_password)
    game = create_game(
        session,
        key,
        variant=document["variant"],
        rules=document["rules"],
        gm=gm,
        phase=document.get("phase"),
        position=document.get("position"),
        settings=settings,
    )
    standing = {entry["power"]: entry for entry in document["powers"]}
    for power in board_of(document["variant"]).powers:
        entry = standing.get(power, {"standing": IN_PLAY, "missed_turns": 0})
        seat_status = SEAT_STATUS_OF_STANDING[entry["standing"]]
        session.add(
            Seat(
                game=game,
                power=power,
                status=seat_status,
                missed_turns=entry.get("missed_turns", 0),
                absences=[],
            )
        )
    for record in document["phases"]:
        session.add(
            PhaseRecord(
                game_id=game.id,
                phase=record["phase"],
                position_before=record["position_before"],
                orders=record["orders"],
                results=record["results"],
                processed_at=_moment(record["processed_at"], "processed_at"),
            )
        )
    session.flush()
    records = {record.phase: record for record in history(session, game)}
    for entry in document.get("ledger", ()):
        record = records.get(entry["phase"]) if entry.get("processed") else None
        add_ledger_entries(session, game, entry["phase"], [entry], record)
    game.status = document["status"]
    game.deadline = None  # nothing runs until the GM sets a deadline or processes
    game.phase_started_at = now()
    game.checked_at = now()
    session.flush()
    return game


def replay(document: Mapping[str, Any]) -> list[str]:
    """Adjudicate every phase again from its board and orders; the phases whose results differ
    from the ones recorded, each with the first field that differs (empty: all agree)."""
    differences = []
    for record in document.get("phases", ()):
        case = {**record["position_before"], "orders": record["orders"]}
        try:
            again = run_case(case, rules=list(document.get("rules", ())))
        except CaseError as exc:
            differences.append(f"{record.get('phase')}: cannot be adjudicated: {exc}")
            continue
        recorded = record["results"]
        for key in sorted(set(again) | set(recorded)):
            if again.get(key) != recorded.get(key):
                differences.append(
                    f"{record['phase']}: {key} recorded {recorded.get(key)!r}, "
                    f"adjudicated again {again.get(key)!r}"
                )
                break
    return differences
