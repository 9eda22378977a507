"""A generated power's initials are never a word of the judge's own mails: the desk and the
reports write them in capitals ("You play HAC", "(HAC s VT4)"), so a player must never read
"FOR" or "RAT" and wonder whether it is a player, and the leak test's check of a mail's words
(leakcheck.py, which also reads initials name-cased) must never take a word of the judge's for
a power's name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from judge.variants.algernon.generator import _CONSONANTS, _INITIALS_STOP, _VOWELS
from judge.variants.algernon.offensive import OFFENSIVE

ROOT = Path(__file__).resolve().parents[3]
# A word the generator could draw as initials: consonant, vowel, consonant, alone.
DRAWABLE = re.compile(
    rf"(?<![A-Za-z0-9_])([{_CONSONANTS}][{_VOWELS}][{_CONSONANTS}])(?![A-Za-z0-9_])", re.I
)
# Where the words of a player's mails come from: the templates, and the sentences of the
# desk, the command and order readers, the reports and the variant's own modules.
SOURCES = ("judge/desk", "judge/language", "judge/reports", "judge/variants/algernon")


def words_of_the_judge_s_mails() -> dict[str, str]:
    """Every drawable word the judge's mails may hold -> one place it comes from."""
    found: dict[str, str] = {}
    for template in sorted((ROOT / "mail_templates").glob("*.j2")):
        for word in DRAWABLE.findall(template.read_text(encoding="utf-8")):
            found.setdefault(word.lower(), template.name)
    modules = [p for d in SOURCES for p in sorted((ROOT / d).glob("*.py"))]
    modules += [ROOT / "judge" / "scheduler.py", ROOT / "judge" / "processor.py"]
    for module in modules:
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for word in DRAWABLE.findall(node.value):
                    found.setdefault(word.lower(), str(module.relative_to(ROOT)))
    return found


def test_no_word_of_the_judge_s_mails_can_be_drawn_as_initials() -> None:
    drawable = words_of_the_judge_s_mails()
    assert len(drawable) > 40  # the scan reads the templates and the sources
    # The offensive words are never drawn either (their list names them, so the scan finds them).
    missing = {w: where for w, where in drawable.items() if w not in _INITIALS_STOP | OFFENSIVE}
    assert missing == {}, "add these to generator._INITIALS_STOP"
