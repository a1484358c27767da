"""Hexagon cells of the Six table and their notation ``q,r``.

Cells use axial coordinates: the six neighbours of ``q,r`` are ``q±1,r``,
``q,r±1``, ``q+1,r-1`` and ``q-1,r+1``. Row ``r`` is drawn at horizontal
position ``q + r/2``, so ``q±1`` are the left and right neighbours in a row.

Inside the engine a cell is a *key*, one int, so that stepping to a neighbour
is one addition: ``key = q * STRIDE + r``. The table has no edge, but a layout
of at most 42 pieces cannot drift anywhere near ``STRIDE / 2`` cells away.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sixtui.rules.errors import IllegalMove

STRIDE = 1 << 20
_HALF = STRIDE // 2

# The six neighbour steps, as keys: q+1, q-1, r+1, r-1, (q+1, r-1), (q-1, r+1).
NEIGHBOUR_STEPS = (STRIDE, -STRIDE, 1, -1, STRIDE - 1, 1 - STRIDE)
# The same steps in order round a cell, each next to the one before.
RING_STEPS = (STRIDE, STRIDE - 1, -1, -STRIDE, 1 - STRIDE, 1)
# One step along each of the three axes of a row.
AXIS_STEPS = (STRIDE, 1, STRIDE - 1)

_NOTATION = re.compile(r"\s*([+-]?[0-9]{1,6})\s*,\s*([+-]?[0-9]{1,6})\s*")


class Hex(NamedTuple):
    """A cell of the hexagonal table.

    >>> Hex.parse("2,-1")
    Hex(q=2, r=-1)
    >>> str(Hex(0, 0)), Hex(1, 0) in Hex(0, 0).neighbours()
    ('0,0', True)
    """

    q: int
    r: int

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Reads ``q,r`` (spaces around the comma are forgiven)."""
        found = _NOTATION.fullmatch(text) if isinstance(text, str) else None
        if found is None:
            raise IllegalMove(f"{text!r} is not a cell: write q,r like 2,-1")
        q, r = int(found.group(1)), int(found.group(2))
        if not (-_HALF < q < _HALF and -_HALF < r < _HALF):
            raise IllegalMove(f"{q},{r} is too far from the layout")
        return cls(q, r)

    def neighbours(self) -> list[Hex]:
        return [unpack(pack(self) + step) for step in NEIGHBOUR_STEPS]

    def __str__(self) -> str:
        return f"{self.q},{self.r}"


def is_cell(cell: object) -> bool:
    """Whether ``cell`` is a :class:`Hex` of whole numbers that notation can write."""
    return (
        type(cell) is Hex
        and type(cell.q) is int
        and type(cell.r) is int
        and -_HALF < cell.q < _HALF
        and -_HALF < cell.r < _HALF
    )


def pack(cell: Hex) -> int:
    return cell.q * STRIDE + cell.r


def unpack(key: int) -> Hex:
    cell = _UNPACKED.get(key)
    if cell is None:
        r = (key + _HALF) % STRIDE - _HALF
        cell = Hex((key - r) // STRIDE, r)
        if len(_UNPACKED) < _UNPACKED_LIMIT:
            _UNPACKED[key] = cell
    return cell


# Layouts stay near the middle of the table: remember the cells met there.
_UNPACKED: dict[int, Hex] = {}
_UNPACKED_LIMIT = 1 << 14
