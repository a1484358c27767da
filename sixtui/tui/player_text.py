"""What players write (names, chat, commands) made safe to show to everyone else.

Text a player typed is never read as markup and never reaches a terminal as control
codes: the lobby draws it through the line API (plain segments, no markup), and
:func:`printable` first takes out every character that would not be drawn as itself.
Widths are counted in terminal cells, since a Chinese character or an emoji takes two.
"""

from __future__ import annotations

import unicodedata

from rich.cells import cell_len

# Letters by their category that draw nothing at all: a name made of them would look empty.
# The Hangul fillers and the blank braille pattern.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Combining marks kept on one character: enough for any language, too few to stack
# marks into the lines above and below ("zalgo" text).
MARKS_PER_CHARACTER = 2
ELLIPSIS = "…"


def printable(text: str) -> str:
    """``text`` with only characters drawn as themselves: control characters go (an escape
    sequence loses its ESC and shows as the plain text left), and so do invisible formatting
    (zero-width characters, direction overrides), unassigned and private-use characters;
    every kind of space and line break becomes one plain space.

    >>> printable("\\x1b[31mred\\x1b[0m and [b]bold[/b]")
    '[31mred[0m and [b]bold[/b]'
    >>> printable("a\\u200bb\\u202ec\\td")
    'abc d'
    """
    kept: list[str] = []
    marks = 0
    for character in text:
        category = unicodedata.category(character)
        if category[0] == "Z" or character in "\t\n\r\v\f\x85":
            kept.append(" ")
            marks = 0
        elif category[0] == "C" or character in INVISIBLE_LETTERS:
            continue
        elif category in ("Mn", "Me"):
            marks += 1
            if marks <= MARKS_PER_CHARACTER and kept:
                kept.append(character)
        else:
            kept.append(character)
            marks = 0
    return "".join(kept)


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes."""
    return cell_len(text)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` cells, ending in … when some had to go.

    >>> cut("alexandra", 6), cut("bob", 6), cut("日本語です", 6)
    ('alexa…', 'bob', '日本…')
    """
    if cells(text) <= width:
        return text
    kept, used = [], 0
    for character in text:
        used += cells(character)
        if used > width - 1:
            break
        kept.append(character)
    return "".join(kept) + ELLIPSIS


def fit_cells(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, then padded with spaces to exactly that many."""
    shown = cut(text, width)
    return shown + " " * (width - cells(shown))


def shown_word(text: str, width: int = 24) -> str:
    """A word a player typed, as a message quotes it back: printable and short.

    >>> shown_word("conect6"), shown_word("\\x1b[2Jdone", 8)
    ('conect6', '[2Jdone')
    """
    return cut(printable(text), width)


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken between words where it can.

    >>> wrap_cells("ann: hello there, everyone", 12)
    ['ann: hello', 'there,', 'everyone']
    >>> wrap_cells("日本語のテキスト", 6)
    ['日本語', 'のテキ', 'スト']
    """
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        joined = f"{line} {word}" if line else word
        if cells(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for character in word:  # a word longer than a line is broken where it must be
            if cells(line + character) > width:
                lines.append(line)
                line = ""
            line += character
    if line:
        lines.append(line)
    return lines
