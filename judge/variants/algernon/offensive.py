"""Words a generated maze never uses as a player's initials or a space's id: the offensive ones
its letters can spell (initials are consonant, vowel, consonant; ids two or three consonants).
Small and plain on purpose: a word here is one a player must never be named by, or read as the
name of a place, in the judge's mails."""

from __future__ import annotations

OFFENSIVE = frozenset(
    {
        # consonant, vowel, consonant: a player's initials
        "cok", "cum", "dic", "dik", "fag", "fap", "fuc", "fuk", "fuq", "fux", "gag", "git",
        "jap", "jiz", "kik", "kok", "kum", "nig", "nob", "pis", "pus", "sex", "suk", "tit",
        "vag", "wop", "zit",
        # two or three consonants: a space's id
        "cnt", "dck", "fck", "fgt", "fk", "fkn", "kkk", "ngr", "nzs", "sht", "ss",
    }
)  # fmt: skip
