"""The rules page (docs/rules.md, also the help screen) speaks of seats as the screens do."""

import re
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
FOR_PROGRAMMERS = "- For programmers:"


def test_the_rules_page_counts_seats_from_1_and_the_library_from_0():
    bullets = re.split(r"\n(?=\s*- )", RULES.read_text(encoding="utf-8"))
    notes = [bullet for bullet in bullets if bullet.startswith(FOR_PROGRAMMERS)]
    assert len(notes) == 1 and "counts seats and teams from **0**" in notes[0]
    for bullet in bullets:
        if bullet in notes:
            continue
        text = " ".join(bullet.split())
        assert not re.search(r"\b(?:seats?|teams?) (?:[0-9]+, )*0\b", text, re.IGNORECASE), text
