"""What HELP mercator answers: the month's time scales, the army/fleet's orders, the fast ferry
and the spare unit, with example mails on the world board (rules text: seed 000)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.variants import ExampleMail, OrderForm, VariantHelp, paragraphs_text

HELP = VariantHelp(
    intro="""\
Mercator (1985 rules, Doug Wakefield): thirteen powers on a map of the world.
Each season is a month (January 1901 first); March, June, September and
December are build seasons. An army boards a fleet at sea and travels with it
as one unit, the army/fleet A/F, until it lands or disembarks.

Each month's moves come in time scales; write your orders under a heading for
each (TS1, TS2, TS3), all TS1 orders first:
  TS1   armies board fleets (B), and land from them (L)
  TS2   the usual moves, supports and convoys, the A/F moves as one unit,
        the fast ferry (F/F)
  TS3   armies embark (E) on fleets or disembark (D); a fleet that did so may
        move on to a sea space
Retreats are time scale 4, after the month. A line without a heading takes
the time scale its order belongs in; an order under the wrong heading is
refused, naming the one it belongs in. A unit is written with its place in
brackets, A(Lon), or without them, A Lon.""",
    forms=(
        OrderForm("A(Lon) B F(ENC)", "the army in London boards the fleet in ENC", "TS1"),
        OrderForm("A(ENC) L Lon", "the army aboard the fleet in ENC lands in London"),
        OrderForm("F(ENC) S A(ENC) L Lon", "its carrying fleet supports the landing"),
        OrderForm("German A(Bel) B F(ENC)", "a partner's army boards your fleet"),
        OrderForm("F(Lon) - ENC", "a move", "TS2"),
        OrderForm("A/F(NTH) - HEL", "the army/fleet moves as one unit"),
        OrderForm("F(IRI) S F(ENC) - MAO", "a support"),
        OrderForm("F(ENC) F/F A(Lon) - Bre", "fast ferry: the army boarded in TS1 lands"),
        OrderForm("A(Yor) E F(NTH)", "the army in Yorkshire embarks on F(NTH)", "TS3"),
        OrderForm("A(NTH) D Hol", "the army aboard in NTH disembarks in Holland"),
        OrderForm("A(MAO) - Por, F(MAO) - WMS", "an A/F's split retreat", "Retreats"),
        OrderForm("F(Kie) R Bal", "a retreat"),
        OrderForm("Build A Par", "a build, as in the standard game", "Builds"),
        OrderForm("Remove F Bre", "a removal"),
        OrderForm("Place A Sil", "Germany's or Russia's spare unit (January)", "Spare unit"),
    ),
    forms_power="FRANCE",
    notes="""\
The spare unit: Germany and Russia begin with one more unit than their home
centres hold, an army or a fleet of their choice, placed secretly in a vacant
home or special province of their own with their January orders (Place A Sil,
Place F Pru); the others learn where with January's results. Units are brought
down to the supply centres a power holds at the third build season.

A win is claimed with SET CLAIM, alone or shared with one or two partners
(see HELP).""",
    examples=(
        ExampleMail(
            "ENGLAND",
            "January 1901: moves in TS2, an embarkation in TS3",
            ("TS2", "F(Lon) - ENC", "F(Edi) - NTH", "A(Lvp) - Yor", "TS3", "A(Yor) E F(NTH)"),
        ),
        ExampleMail(
            "ENGLAND",
            "February 1901, with A/F(NTH), F(ENC) and an army back in London",
            ("TS1", "A(Lon) B F(ENC)", "A(NTH) L Nwy", "TS2", "F(ENC) F/F A(Lon) - Bre"),
        ),
        ExampleMail(
            "GERMANY",
            "January 1901, with the spare army placed in Silesia",
            ("Place A Sil", "TS2", "A(Ber) - Pru", "A(Mun) - Ruh", "F(Kie) - Bal"),
        ),
    ),
)


def start_notes(case: Mapping[str, Any], power: str | None) -> str:
    """What a Mercator game's start mail says to `power` (None: the GM or an observer): the
    time scales, and the spare unit of a power that has one, with where it may go."""
    from judge.variants import game_board

    board = game_board("mercator", case)
    spare = [p.title() for p in sorted(board.powers) if board.powers[p].spare_units]
    paragraphs = [
        "Mercator: each month's orders come in time scales, under the headings TS1 (armies "
        "board fleets and land), TS2 (moves, supports, convoys, the fast ferry) and TS3 "
        "(armies embark and disembark); retreats follow the month. March, June, September "
        "and December are build seasons."
    ]
    if spare:
        paragraphs.append(
            f"{' and '.join(spare)} {'has' if len(spare) == 1 else 'have'} a spare unit, an "
            "army or a fleet placed secretly with the January orders in a vacant home or "
            "special province, and shown to everyone with January's results."
        )
    info = board.powers.get(power or "")
    if info is not None and info.spare_units:
        occupied = {str(u.get("loc", "")).split("/")[0] for u in case.get("units", ())}
        places = sorted((info.home_centres | info.home_provinces | info.build_only) - occupied)
        where = ", ".join(f"{board.provinces[p].name} ({p.title()})" for p in places)
        paragraphs.append(
            f"Your spare unit: place it with your January orders by a line Place A "
            f"{places[0].title()} (an army) or Place F ... (a fleet, on a coast), in one of "
            f"{where}."
        )
    paragraphs.append("HELP mercator shows every order form with example mails.")
    return paragraphs_text(paragraphs)
