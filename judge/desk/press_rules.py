"""What every part of press shares: the GM's press settings as they stand (`press_rules`, kept in
Game.settings under the keys below), the markers stored beside power names in a release, and
who writes. The commands are in press.py (PRESS, BROADCAST), press_settings.py (SET PRESS ...)
and press_release.py (publishing, WITHHOLD, RELEASE); press.py's docstring tells the whole."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.store.games import Game, Person, Seat

# Where the press settings are kept in Game.settings, and their defaults.


KINDS_KEY = "press"

PARTIAL_KEY = "press_partial"

OBSERVERS_KEY = "press_observers"

PUBLISH_KEY = "press_publish"

LIMIT_KEY = "press_limit"

DEFAULT_KINDS = "white/grey"

DEFAULT_OBSERVERS = "white"

DEFAULT_PUBLISH = "now"

# Markers stored in Press.from_power and Press.to_powers beside power names.

MASTER = "MASTER"

OBSERVER = "OBSERVER"

TO_ALL = "+ALL"

TO_MASTER = "+MASTER"

GREY = "+GREY"

# An opening in parentheses longer than this is prose, not a dateline.


@dataclass(frozen=True)
class PressRules:
    """A game's press settings, read from Game.settings with the defaults filled in."""

    kinds: str = DEFAULT_KINDS  # none, white, grey, white/grey or grey/white
    partial: bool = True
    observers: str = DEFAULT_OBSERVERS  # any, white or no
    publish: str = DEFAULT_PUBLISH  # now or results
    limit: int | None = None  # releases a day from each player and observer; None: no limit

    @property
    def allowed(self) -> tuple[str, ...]:
        """The kinds of press allowed, the default first: ("grey", "white") for GREY/WHITE."""
        return () if self.kinds == "none" else tuple(self.kinds.split("/"))

    def words(self) -> dict[str, Any]:
        """The settings as a template shows them."""
        return {
            "kinds": self.kinds.upper(),
            "partial": self.partial,
            "observers": self.observers.upper(),
            "publish": self.publish.upper(),
            "limit": self.limit,
        }


def press_rules(game: Game) -> PressRules:
    settings = game.settings or {}
    return PressRules(
        kinds=str(settings.get(KINDS_KEY, DEFAULT_KINDS)),
        partial=bool(settings.get(PARTIAL_KEY, True)),
        observers=str(settings.get(OBSERVERS_KEY, DEFAULT_OBSERVERS)),
        publish=str(settings.get(PUBLISH_KEY, DEFAULT_PUBLISH)),
        limit=_limit(settings.get(LIMIT_KEY)),
    )


def _limit(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None


@dataclass(frozen=True)
class Writer:
    """Who writes a press release, in which game, and as what."""

    game: Game
    person: Person
    role: str  # MASTER, OBSERVER, or the seat's power
    seat: Seat | None = None
    reply_to: str | None = None  # the Reply-To of the confirmation: the seat's or the GM's
