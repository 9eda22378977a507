"""Where each province of the standard and Youngstown boards lies on the globe, for drawing.

Each entry is the approximate latitude and longitude (degrees north, degrees east) of the middle
of the region the province stands for: a fact of geography, not taken from any map file. Seas
are placed at the middle of the water they name, the off-board spaces of Youngstown where the
board's edges send them (the Americas, Africa south of the Sahara, the southern oceans).
tools/convert_map_sources.py projects them onto each map's canvas (`PROJECTIONS`), then moves
markers apart where two provinces that are not neighbours would touch, or a neighbour link would
pass over a third province (`spread`), and writes the result as each province's `at`.
maps/standard.md and maps/youngstown.md say so.
"""

from __future__ import annotations

from collections.abc import Mapping

from judge.pictures.layout import EDGE_MARGIN

# (latitude, longitude) of every province both boards share or the standard board has.
EUROPE: dict[str, tuple[float, float]] = {
    "adr": (43.0, 15.5), "aeg": (38.5, 25.0), "alb": (41.0, 20.0), "ank": (40.5, 34.0),
    "apu": (41.0, 16.2), "arm": (40.0, 42.0), "bal": (55.5, 18.0), "bar": (71.0, 38.0),
    "bel": (50.6, 4.5), "ber": (52.5, 13.4), "bla": (43.0, 34.0), "boh": (49.8, 15.0),
    "bot": (62.5, 20.0), "bre": (48.2, -3.5), "bud": (47.3, 20.0), "bul": (42.7, 25.0),
    "bur": (47.0, 4.5), "cly": (56.8, -5.0), "con": (41.2, 28.5), "den": (56.0, 9.5),
    "eas": (34.0, 29.0), "edi": (56.5, -2.3), "eng": (50.0, -2.5), "fin": (63.0, 27.0),
    "gal": (49.5, 23.5), "gas": (44.0, 0.0), "gre": (39.5, 22.0), "hel": (54.5, 7.5),
    "hol": (52.3, 5.5), "ion": (37.5, 18.5), "iri": (51.5, -8.0), "kie": (54.0, 10.0),
    "lon": (51.5, 0.0), "lvn": (57.0, 25.0), "lvp": (54.0, -3.0), "lyo": (42.5, 4.5),
    "mao": (44.0, -15.0), "mar": (43.8, 5.5), "mos": (55.7, 38.0), "mun": (48.8, 11.0),
    "naf": (33.5, 2.0), "nao": (56.0, -18.0), "nap": (40.8, 15.0), "nth": (56.0, 3.0),
    "nwg": (67.0, 3.0), "nwy": (61.0, 9.0), "par": (48.5, 2.3), "pic": (50.0, 2.5),
    "pie": (45.0, 7.8), "por": (39.5, -8.0), "pru": (54.0, 20.0), "rom": (42.0, 12.5),
    "ruh": (51.3, 7.5), "rum": (45.5, 25.0), "ser": (43.8, 20.8), "sev": (47.5, 37.0),
    "sil": (51.0, 17.0), "ska": (58.0, 9.5), "smy": (38.5, 30.0), "spa": (40.0, -3.5),
    "stp": (61.0, 33.0), "swe": (62.0, 15.5), "swi": (46.8, 8.2), "syr": (35.5, 38.0),
    "tri": (45.3, 15.0), "tun": (34.5, 9.5), "tus": (43.5, 11.2), "tyr": (47.0, 12.0),
    "tys": (40.0, 12.0), "ukr": (49.5, 30.0), "ven": (45.4, 12.0), "vie": (48.0, 16.5),
    "wal": (52.3, -3.7), "war": (52.2, 21.0), "wes": (38.5, 3.0), "yor": (54.0, -1.2),
}  # fmt: skip

# Youngstown's own provinces (Europe's splits, Africa, the Middle East and Asia).
YOUNGSTOWN: dict[str, tuple[float, float]] = {
    "pos": (52.4, 16.9), "sax": (51.0, 13.0), "klu": (46.8, 23.6), "mon": (42.5, 19.3),
    "ire": (53.2, -8.0),
    "alg": (34.5, 2.0), "sah": (25.0, 2.0), "mor": (32.0, -6.0), "lib": (31.5, 14.0),
    "pen": (31.5, 22.0), "fez": (25.0, 15.0), "egy": (26.5, 30.0), "sue": (30.5, 33.0),
    "sud": (15.0, 30.0), "eth": (9.0, 38.5), "dan": (13.0, 42.0), "eaf": (0.0, 37.0),
    "mog": (3.0, 45.0), "ade": (12.0, 49.0), "red": (20.0, 38.5), "jor": (31.0, 36.0),
    "syr": (35.5, 38.0), "bag": (33.3, 44.4), "nej": (25.0, 45.0), "yem": (16.0, 47.0),
    "per": (27.0, 51.0), "ira": (32.0, 54.0), "afg": (34.0, 66.0), "tur": (42.0, 65.0),
    "ara": (15.0, 62.0), "som": (4.0, 55.0), "wio": (-5.0, 65.0), "snd": (26.0, 67.5),
    "raj": (24.0, 72.0), "kas": (34.0, 75.5), "del": (28.6, 77.0), "dec": (18.0, 77.0),
    "mad": (13.0, 79.5), "cey": (7.8, 80.7), "nep": (28.0, 84.0), "cal": (22.5, 88.0),
    "ben": (15.0, 88.0), "eio": (-2.0, 85.0), "tib": (31.5, 88.0), "sin": (41.0, 85.0),
    "oms": (58.0, 72.0), "sib": (60.0, 110.0), "omo": (47.0, 103.0), "imo": (42.0, 113.0),
    "kan": (36.5, 103.0), "sik": (27.0, 103.0), "han": (30.6, 114.3), "pek": (39.9, 116.4),
    "can": (23.1, 113.3), "man": (45.0, 125.0), "kor": (37.5, 127.0), "vla": (45.0, 134.0),
    "yel": (35.0, 123.0), "ecs": (29.0, 125.0), "for": (23.7, 121.0), "scs": (13.0, 114.0),
    "brm": (21.0, 95.0), "sha": (21.5, 98.5), "and": (10.0, 95.0), "tha": (15.0, 100.5),
    "lao": (19.0, 102.5), "vtn": (21.0, 105.8), "ton": (19.5, 108.5), "ann": (15.5, 108.0),
    "cam": (12.5, 104.9), "sai": (10.5, 106.7), "sia": (8.5, 102.0), "joh": (3.0, 102.0),
    "sum": (0.0, 101.0), "mal": (-3.0, 108.0), "jav": (-7.0, 110.0), "bor": (0.0, 114.0),
    "bru": (5.0, 115.0), "cel": (2.0, 123.0), "phi": (12.0, 122.0), "tim": (-11.0, 125.0),
    "jap": (40.0, 134.0), "kyu": (32.5, 130.8), "osa": (33.5, 134.5), "kyo": (36.5, 136.0),
    "fuj": (33.5, 138.5), "tok": (36.0, 140.0), "aki": (40.0, 140.5), "hok": (43.5, 142.5),
    "kar": (48.0, 143.0), "sak": (51.5, 143.0), "okh": (55.0, 148.0), "npo": (40.0, 160.0),
    "spo": (10.0, 150.0),
    # The spaces off the printed board: the Atlantic's west (A, B), the southern ocean (C),
    # Africa south of the Sahara (D to G), the Indian Ocean's south (H, I), south of Timor
    # (J), the Pacific's east (K, L), which the board joins to the Atlantic's west.
    "oba": (52.0, -38.0), "obb": (30.0, -38.0), "obc": (-16.0, 5.0), "obd": (8.0, -6.0),
    "obe": (12.0, 10.0), "obf": (5.0, 24.0), "obg": (-9.0, 33.0), "obh": (-12.0, 52.0),
    "obi": (-16.0, 70.0), "obj": (-17.0, 118.0), "obk": (-5.0, 178.0), "obl": (38.0, 178.0),
    "sao": (5.0, -22.0),
    # Impassable spaces, drawn as grey markers.
    "aci": (72.0, 70.0), "cas": (42.0, 51.0), "him": (30.5, 80.5),
}  # fmt: skip

# map -> (longitudes, their x; latitudes, their y; canvas): each coordinate is interpolated
# between the listed points, so a crowded region (Europe on the Youngstown board) gets more
# of the picture than open ocean or steppe while every province keeps its order east to west
# and north to south.
PROJECTIONS: dict[
    str,
    tuple[
        tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[int, int]
    ],
] = {
    "standard": ((-22.5, 44.0), (20.0, 985.0), (72.5, 33.0), (15.0, 785.0), (1000, 800)),
    "youngstown": (
        (-42.0, -12.0, 45.0, 95.0, 120.0, 150.0, 180.0),
        (0.0, 140.0, 1100.0, 1600.0, 1850.0, 2250.0, 2400.0),
        (76.0, 33.0, -20.0),
        (0.0, 720.0, 1180.0),
        (2400, 1200),
    ),
}


def _interpolate(value: float, points: tuple[float, ...], values: tuple[float, ...]) -> float:
    """`value` mapped piecewise-linearly from `points` (ascending or descending) to `values`."""
    pairs = list(zip(points, values, strict=True))
    if points[0] > points[-1]:
        pairs.reverse()
    if value <= pairs[0][0]:
        (a, va), (b, vb) = pairs[0], pairs[1]
    elif value >= pairs[-1][0]:
        (a, va), (b, vb) = pairs[-2], pairs[-1]
    else:
        (a, va), (b, vb) = next(
            (p, q) for p, q in zip(pairs, pairs[1:], strict=False) if p[0] <= value <= q[0]
        )
    return va + (value - a) * (vb - va) / (b - a)


def places(name: str, codes: list[str]) -> dict[str, tuple[float, float]]:
    """The latitude and longitude of each province of the map `name` (KeyError if any lacks one)."""
    table = {**EUROPE, **YOUNGSTOWN} if name == "youngstown" else EUROPE
    return {code: table[code] for code in codes}


def project(name: str, where: Mapping[str, tuple[float, float]]) -> dict[str, list[float]]:
    longitudes, xs, latitudes, ys, (width, height) = PROJECTIONS[name]
    out = {}
    for code, (lat, lon) in where.items():
        x = min(max(_interpolate(lon, longitudes, xs), EDGE_MARGIN), width - EDGE_MARGIN)
        y = min(max(_interpolate(lat, latitudes, ys), EDGE_MARGIN), height - EDGE_MARGIN)
        out[code] = [x, y]
    return out
