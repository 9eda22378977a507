"""Press: PRESS and BROADCAST by players, observers and the GM, datelines checked against the
board; the GM's press settings are in press_settings.py (SET PRESS, PARTIAL, OBSERVER, PUBLISH,
LIMIT, read through press_rules.py), and press kept for the results that the GM may WITHHOLD or
RELEASE in press_release.py (seed 004, section II; njudge's press options).

Who writes, and for which game (the first that applies):
  1. the GM, after `SIGNON M game password` earlier in the mail or by mail to the game's GM
     reply address (mail_state.master_game): always allowed, whatever the settings (njudge:
     press to and from the Master is always allowed);
  2. a player, by the seat's reply token or `SIGNON power game password` (state.acting);
  3. anyone else, after an `OBSERVE game` line earlier in the same mail: the OBSERVE line names
     the game, and the writer must already be a confirmed observer of it (OBSERVE alone only
     asks: the confirmation mailed to the address must come back first, judge.desk.seating;
     seed 004 II.A: "anyone, even those who are not playing"). Such press is signed "an observer", never with an address, so a forged From:
     line gains nothing: it proves no identity and none is shown.
  Otherwise the press is refused, saying how to name the game. A From: line alone never makes
  a writer a player.

Kinds. WHITE press names the writing power in its heading ("Press from France"); GREY press
names nobody. njudge's white press always named the sender, and seed 004's "press without a
city dateline ... remain anonymous" is grey press: a postal game plays `SET PRESS GREY`. The GM
always sees who wrote what (the copy with its number). A writer who names no kind gets the
game's default, the first kind of its setting (GREY/WHITE: grey); observers under `SET OBSERVER
WHITE` write white whatever the default. Observers are named "an observer", the GM "the GM".

Datelines (seed 004 II.A/B). When the first non-blank line of the text opens with a name in
parentheses (any number of them, "(Ankara)" or "((Ankara))"), that name is a dateline if it is a
province of the game's map (its code, name, alias or a unique prefix: printed with the map's
name). It is printed in single parentheses only when the writer is the player who presides over
it *when the press is written*: for a supply centre, the power that owns it in the game's
position; for any other province, the power with a unit standing there. In every other case it
is printed in double parentheses. A parenthesised opening that is no province of the map but is
short (at most four words and 40 characters, with a letter in it) is taken as an unverifiable dateline and printed
as written in double parentheses (a city off the board can never be "from the city given");
the writer's confirmation says so and names the nearest provinces, so a typing slip is seen.
Anything longer in parentheses is no dateline: the text goes out as written.

Recipients. PRESS without TO and BROADCAST go to everyone in the game: every player, every
observer and the GM. `PRESS TO powers` (names, adjectives, letters, or njudge's glued letters
"FRG"; M, GM or MASTER for the GM) reaches only the seats of the powers named and the GM; the
recipients are named in the heading. The writer never gets a copy but a confirmation showing
the press as printed. Partial press under NOPARTIAL, and any press under SET PRESS NONE, is
refused, except press to the GM alone.

Publishing. Under `SET PUBLISH NOW` (the default) the mails go at once. Under `SET PUBLISH
RESULTS` (postal) the press is kept; the GM gets a copy at once with the number of the release
in the game ("#3": releases are numbered 1, 2, ... per game) and may `WITHHOLD 3` (seed 004
II.C: the editor may drop releases) or `RELEASE 3`. After each processed phase
`press_with_results` sends every reader one mail with all kept, not withheld releases it may
read, and marks them published. A withheld release never goes out unless released; releasing
it in a game that publishes NOW sends it at once.

Settings, in Game.settings: "press" (none, white, grey, white/grey, grey/white; default
white/grey), "press_partial" (bool, default true), "press_observers" (any, white, no; default
white), "press_publish" (now, results; default now), "press_limit" (SET PRESS LIMIT n: at most
n releases a UTC day from each player, counted per power, and each observer, counted per
person; absent: no limit). A change is confirmed to the GM and announced to every player and
observer, once per mail.

How much press. A release makes one mail per reader, so it is the cheapest way to make the
judge mail many people: before it is stored or sent it must fit the game's press limit (the
GM's press and press to the GM alone are never limited) and the sender's daily cap (the
processor's `replies_per_day`, which counts every mail a sender's mail makes the judge send,
plus-addresses as one sender: judge.mail.loopguard), with room for every mail it makes and the
writer's confirmation. Otherwise it is refused to the writer with the reason and nobody else
gets anything.

Storage (judge.store.games.Press): `from_power` is the writing power, or MASTER or OBSERVER;
`to_powers` is None for a white press to everyone, else the powers named plus markers: "+ALL"
(to everyone), "+MASTER" (addressed to the GM), "+GREY" (the writer is not shown). `dateline`
holds the dateline as printed ("(Ankara)"), `text` the rest. Anything that shows stored press
to readers must go through `release_view`, which keeps grey writers hidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import now
from judge.desk.mail_state import (
    MailState,
    game_readers,
    gm_reply_address,
    is_master_word,
    master_game,
    power_title,
    reply_address,
    sender_person,
)
from judge.desk.orders import game_position

# Where the press settings are kept in Game.settings, and their defaults.
from judge.desk.press_release import (
    master_copy,
    may_read,
    press_number,
    readers_words,
    release_mails,
    release_view,
)
from judge.desk.press_rules import GREY, MASTER, OBSERVER, TO_ALL, TO_MASTER, Writer, press_rules
from judge.desk.replies import Reply
from judge.desk.secret_boards import board_of_game, powers_known, secret_board_of
from judge.engine.geography import Map
from judge.engine.position import Position
from judge.language import command_values as cv
from judge.language.commands import read_mail_commands
from judge.language.names import NameLookupError, name_table
from judge.store.game_queries import find_game, observers_of
from judge.store.games import Game, GameStatus, Press
from judge.store.outbox import mails_counted
from judge.variants import MASTER as SECRET_MASTER
from judge.variants import OBSERVERS as SECRET_OBSERVERS

DATELINE_WORDS = 4

DATELINE_CHARS = 40

_DATELINE = re.compile(r"^[ \t]*\(+[ \t]*(?P<name>[^()\n]*?)[ \t]*\)+")

_CLOSED = (GameStatus.FINISHED, GameStatus.TERMINATED)


# --- settings ------------------------------------------------------------------------------------

def _writer(state: MailState, command: cv.Press | cv.Broadcast) -> Writer | None:
    where = f"line {command.line_no}"
    judge_address = state.where.judge_address
    game = master_game(state)
    if game is not None and game.gm is not None:
        return Writer(game, game.gm, MASTER, reply_to=gm_reply_address(judge_address, game))
    if state.acting is not None:
        seat = state.acting
        assert seat.person is not None
        return Writer(seat.game, seat.person, seat.power, seat, reply_address(state, seat))
    game = _observed_game(state, command.line_no)
    if game is not None:
        return Writer(game, sender_person(state), OBSERVER)
    why = f" ({state.refusal})" if state.refusal else ""
    state.problems.append(
        f"{where}: {command.keyword} not sent: it needs a game{why}. Players reply to the "
        "judge's last mail about their seat or put SIGNON power game password before it; the "
        "GM puts SIGNON M game password or writes to the GM reply address; anyone else "
        "puts OBSERVE game on a line before it"
    )
    return None

def _observed_game(state: MailState, line_no: int) -> Game | None:
    """The game of the last OBSERVE line before `line_no` in this mail, if the sender now
    observes it (the OBSERVE handler has run: the mail is applied in order)."""
    before = (state.mail.text or "").splitlines()[: line_no - 1]
    names = [v.game for v in read_mail_commands("\n".join(before)) if isinstance(v, cv.Observe)]
    if not names:
        return None
    game = find_game(state.session, names[-1])
    if game is None:
        return None
    person = sender_person(state)
    if all(p.id != person.id for p in observers_of(state.session, game)):
        return None
    return game


# --- datelines -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Dateline:
    """A dateline as printed, the text after it, and what the writer should be told about it."""

    printed: str | None  # "(Ankara)", "((Ankara))", or None: the press has no dateline
    text: str
    note: str | None = None

def read_dateline(
    text: str, game_map: Map, position: Position | None, power: str | None
) -> Dateline:
    """Split off and check the dateline of a press text (see the module's docstring)."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return Dateline(None, text)
    match = _DATELINE.match(lines[first])
    if match is None:
        return Dateline(None, text)
    written = " ".join(match.group("name").split())
    if (
        not any(c.isalpha() for c in written)
        or len(written) > DATELINE_CHARS
        or len(written.split()) > DATELINE_WORDS
    ):
        return Dateline(None, text)
    # Blank lines and indentation before a dateline are dropped: it opens the text.
    rest = "\n".join([lines[first][match.end() :], *lines[first + 1 :]])
    try:
        code = name_table(game_map).province(written)
    except NameLookupError as exc:
        hint = f" ({exc.message})" if exc.expected and exc.expected != ("a province",) else ""
        note = (
            f"the dateline {written!r} is no province of the map{hint}, so it was printed "
            f"(({written})), as from another source"
        )
        return Dateline(f"(({written}))", rest, note)
    name = game_map.provinces[code].name
    if power is not None and position is not None and _presides(game_map, position, code, power):
        return Dateline(f"({name})", rest, f"the dateline ({name}) is yours: single parentheses")
    if game_map.provinces[code].supply_centre:
        holder = "you do not hold it" if power else "only the power that holds it may"
    else:
        holder = "no unit of yours stands there" if power else "only a power with a unit there may"
    return Dateline(f"(({name}))", rest, f"the dateline is printed (({name})): {holder}")

def _presides(game_map: Map, position: Position, code: str, power: str) -> bool:
    """Whether `power` presides over the province now: owns the centre, or has a unit there."""
    if game_map.provinces[code].supply_centre:
        return position.owner_of(code) == power
    unit = position.unit_in(code)
    return unit is not None and unit.power == power


# --- sending -------------------------------------------------------------------------------------

def _recipients(
    state: MailState, writer: Writer, command: cv.Press | cv.Broadcast, game_map: Map
) -> list[str] | None:
    """The powers named after TO (MASTER for the GM); [] for everyone; None when refused."""
    written = getattr(command, "recipients", ())
    if not written:
        return []
    letters = {p.letter.upper(): name for name, p in game_map.powers.items() if p.letter}
    named: list[str] = []
    unknown: list[str] = []
    known: frozenset[str] | None = None
    if secret_board_of(writer.game) is not None:
        # A secret board: only the powers the writer has met, named in full; any other word
        # is unknown to him whether or not such a power exists (before the start he has met
        # nobody). An observer knows the powers the published counts name, as the observers'
        # own results show them, never the GM's list of who exists.
        if writer.seat is not None:
            known = powers_known(writer.game, writer.seat.power)
        elif writer.role == MASTER:
            known = powers_known(writer.game, SECRET_MASTER)
        else:
            known = powers_known(writer.game, SECRET_OBSERVERS)
        letters = {}
    for word in written:
        found = _power_word(game_map, letters, word)
        if known is not None and found is not None and not set(found) <= known | {MASTER}:
            found = None
        if found is None:
            unknown.append(word)
        else:
            named.extend(found)
    if unknown and known is not None:
        state.problems.append(
            f"line {command.line_no}: PRESS not sent: {', '.join(unknown)} unknown to you "
            "(M for the GM)"
        )
        return None
    if unknown:
        powers = ", ".join(power_title(writer.game, p) for p in game_map.powers)
        state.problems.append(
            f"line {command.line_no}: PRESS not sent: game {writer.game.name} has no power "
            f"{', '.join(unknown)}; its powers are {powers} (M for the GM)"
        )
        return None
    own = writer.seat.power if writer.seat is not None else None
    chosen = [p for p in dict.fromkeys(named) if p != own]
    if not chosen:
        state.problems.append(
            f"line {command.line_no}: PRESS not sent: it is addressed to nobody but yourself"
        )
        return None
    return chosen

def _power_word(game_map: Map, letters: dict[str, str], word: str) -> list[str] | None:
    upper = word.strip(" ,").upper()
    if is_master_word(upper, game_map):
        return [MASTER]
    try:
        return [name_table(game_map).power(upper)]
    except NameLookupError:
        pass
    if len(upper) > 1 and all(letter in letters for letter in upper):
        return [letters[letter] for letter in upper]  # njudge's glued letters: TO FRG
    return None

def _kind(
    state: MailState, writer: Writer, command: cv.Press | cv.Broadcast, only_gm: bool
) -> str | None:
    """'white' or 'grey', or None (refused, the problem said) under the game's settings."""
    rules = press_rules(writer.game)
    explicit = "grey" if command.grey else "white" if command.white else None
    where = f"line {command.line_no}: {command.keyword} not sent"
    if writer.role == MASTER or only_gm:
        return explicit or (rules.allowed[0] if rules.allowed else "white")
    if not rules.allowed:
        state.problems.append(
            f"{where}: game {writer.game.name} allows no press (SET PRESS NONE); "
            "only press to the GM (PRESS TO M) goes through"
        )
        return None
    allowed = rules.allowed
    if writer.role == OBSERVER:
        if rules.observers == "no":
            state.problems.append(
                f"{where}: observers may not send press in game {writer.game.name} "
                "(SET OBSERVER NO)"
            )
            return None
        if rules.observers == "white":
            allowed = tuple(k for k in allowed if k == "white")
            if not allowed:
                state.problems.append(
                    f"{where}: observers may send white press only, and game "
                    f"{writer.game.name} allows grey press only"
                )
                return None
    kind = explicit or allowed[0]
    if kind not in allowed:
        others = " or ".join(k.upper() for k in allowed)
        state.problems.append(
            f"{where}: {kind} press is not allowed "
            f"{'to observers ' if writer.role == OBSERVER else ''}in game {writer.game.name}; "
            f"write {others} or no kind at all"
        )
        return None
    return kind

def _press(state: MailState, command: cv.Press | cv.Broadcast) -> None:
    """A press release or broadcast: checked against the game's settings and the board, then
    published at once or kept for the results."""
    where = f"line {command.line_no}: {command.keyword} not sent"
    writer = _writer(state, command)
    if writer is None:
        return
    game = writer.game
    if game.status in _CLOSED:
        state.problems.append(f"{where}: game {game.name} is over; its press is closed")
        return
    if not command.text.strip():
        state.problems.append(f"{where}: there is no text between it and ENDPRESS")
        return
    game_map = board_of_game(game)
    to = _recipients(state, writer, command, game_map)
    if to is None:
        return
    only_gm = bool(to) and all(p == MASTER for p in to)
    rules = press_rules(game)
    if to and not only_gm and not rules.partial and writer.role != MASTER:
        state.problems.append(
            f"{where}: game {game.name} allows no partial press (SET NOPARTIAL): send it to "
            "everyone (no TO) or to the GM alone (TO M)"
        )
        return
    kind = _kind(state, writer, command, only_gm)
    if kind is None:
        return
    markers = [TO_ALL] if not to else []
    if kind == "grey":
        markers.append(GREY)
    to_powers = [p if p != MASTER else TO_MASTER for p in to] + markers
    pending = rules.publish == "results"
    judge_address = state.where.judge_address
    readers = 1 if pending and writer.role != MASTER else 0
    if not pending:
        readers = _reader_count(state.session, game, to_powers, judge_address, writer)
    too_many = _over_press_limit(state, writer, only_gm) or _over_daily_cap(state, readers)
    if too_many:
        state.problems.append(f"{where}: {too_many}")
        return
    position = game_position(game)[1] if game.position is not None else None
    power = writer.seat.power if writer.seat is not None else None
    if secret_board_of(game) is not None:  # the board is secret: a dateline is plain text
        dateline = Dateline(None, command.text)
    else:
        dateline = read_dateline(command.text, game_map, position, power)
    row = Press(
        game_id=game.id,
        author=writer.person,
        from_power=writer.role,
        to_powers=None if to_powers == [TO_ALL] else to_powers,
        dateline=dateline.printed,
        text=dateline.text,
        created_at=now(),
        phase=game.phase,
        published_at=None if pending else now(),
        held=False,
    )
    state.session.add(row)
    state.session.flush()
    number = press_number(state.session, row)
    if not pending:
        state.replies.extend(release_mails(state.session, game, row, judge_address, writer))
    elif writer.role != MASTER:
        state.replies.extend(master_copy(game, row, number, judge_address, pending=True))
    state.replies.append(
        Reply(
            "press_sent",
            "press_sent",
            {
                "game": game.name,
                "phase": game.phase or "",
                "release": release_view(game, row, number, master=False, writer_view=True),
                "readers": readers_words(game, row),
                "pending": pending,
                "note": dateline.note,
            },
            reply_to=writer.reply_to,
        )
    )


# --- how much press -----------------------------------------------------------------------------

def _reader_count(
    session: Session, game: Game, to_powers: list[str], judge_address: str, writer: Writer
) -> int:
    """How many mails a release to `to_powers` makes when published now (release_mails)."""
    row = Press(to_powers=None if to_powers == [TO_ALL] else to_powers)
    writer_address = writer.person.address_of_record
    return sum(
        1
        for reader in game_readers(session, game, judge_address)
        if reader.address != writer_address and may_read(row, reader.power, master=reader.master)
    )

def _over_press_limit(state: MailState, writer: Writer, only_gm: bool) -> str:
    """Why the game's press limit (SET PRESS LIMIT) refuses one more release from the writer
    today, or "". The GM's press and press to the GM alone are never limited (press to and
    from the GM is always allowed, as SET PRESS NONE leaves it)."""
    limit = press_rules(writer.game).limit
    if limit is None or writer.role == MASTER or only_gm:
        return ""
    start, tomorrow = _utc_day()
    mine = (
        Press.from_power == writer.role
        if writer.seat is not None
        else (Press.from_power == OBSERVER) & (Press.author_person_id == writer.person.id)
    )
    sent = [
        to_powers
        for to_powers in state.session.scalars(
            select(Press.to_powers).where(
                Press.game_id == writer.game.id, Press.created_at >= start, mine
            )
        )
        if to_powers != [TO_MASTER]
    ]
    if len(sent) < limit:
        return ""
    who = "an observer" if writer.role == OBSERVER else writer.role.title()
    return (
        f"game {writer.game.name} takes at most {limit} press releases a day from each player "
        f"and observer (SET PRESS LIMIT), and {len(sent)} came from you as {who} today; more "
        f"may be sent from {tomorrow:%Y-%m-%d} 00:00 UTC (press to the GM alone is not limited)"
    )

def _over_daily_cap(state: MailState, readers: int) -> str:
    """Why the sender's daily cap (the mails one sender makes the judge send a day, counted by
    the processor) leaves no room for a release that makes `readers` mails and a confirmation,
    or "". Checked before anything is sent, so a refused release reaches nobody."""
    cap = state.where.mails_per_day
    if cap <= 0:
        return ""
    # Mails to others this mail has made so far, and its one answer to the sender, whatever it
    # says (judge.desk.answer), which this release's confirmation joins.
    others = sum(1 for reply in state.replies if reply.to is not None)
    used = mails_counted(state.session, state.sender) + others
    if used + readers + 1 <= cap:
        return ""
    _, tomorrow = _utc_day()
    return (
        f"it would make the judge send {readers + 1} mails (one to each reader and your "
        f"confirmation), and mail from one address (its plus-addresses count as one) makes it "
        f"send at most {cap} a day; {used} are counted for yours today. The count starts "
        f"again at {tomorrow:%Y-%m-%d} 00:00 UTC"
    )

def _utc_day() -> tuple[datetime, date]:
    """The start of today (UTC), as the daily counts go, and tomorrow's date."""
    moment = now().astimezone(UTC)
    start = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    return start, (start + timedelta(days=1)).date()


# --- who reads what ------------------------------------------------------------------------------


HANDLERS = {
    cv.Press: _press,
    cv.Broadcast: _press,
}
