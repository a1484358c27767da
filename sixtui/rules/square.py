"""Points of a square board and their notation: column letter, then row number.

Columns are lettered from ``A`` at the left (the letter ``I`` included) and
rows numbered from 1 at the bottom, so ``A1`` is the bottom-left point.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sixtui.rules.errors import IllegalMove

COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SIZE = len(COLUMN_LETTERS)

_NOTATION = re.compile(r"\s*([A-Za-z])([0-9]{1,2})\s*")


class Square(NamedTuple):
    """A point (Connect6) or cell (Game of 6), counted from 0 at the bottom left.

    >>> Square.parse("j10")
    Square(col=9, row=9)
    >>> str(Square(0, 18))
    'A19'
    """

    col: int
    row: int

    @classmethod
    def parse(cls, text: str) -> Square:
        """Reads notation such as ``J10`` (any case). Board limits are not checked here."""
        found = _NOTATION.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise IllegalMove(f"{text!r} is not a point: write a column letter and a row, like J10")
        letter, number = found.groups()
        return cls(COLUMN_LETTERS.index(letter.upper()), int(number) - 1)

    def __str__(self) -> str:
        if 0 <= self.col < MAX_SIZE:
            return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"
        return f"column {self.col + 1}, row {self.row + 1}"


def board_limits(size: int) -> str:
    """Describes a board's extent in words, for error messages."""
    return f"columns A–{COLUMN_LETTERS[size - 1]}, rows 1–{size}"
