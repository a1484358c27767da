"""The :class:`Move` value type, for every game of the library."""

from __future__ import annotations

from dataclasses import dataclass

from sixtui.rules.hexes import Hex
from sixtui.rules.square import Square


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a player.

    In Connect6 and Game of 6 a move is one stone or dot: ``to`` is a
    :class:`Square`. In Six it places a piece (``to``), or lifts the piece on
    ``origin`` and puts it on ``to``, naming with ``keep`` a cell of the group
    that stays when the lift splits the layout into groups that tie for
    largest; ``declare`` claims the win, and a move with ``to`` of ``None``
    only declares.

    ``str(move)`` is its notation; a game's ``parse_move`` reads it back.

    >>> str(Move(Square(9, 9)))
    'J10'
    >>> str(Move(Hex(1, 1), origin=Hex(0, 0), keep=Hex(7, 0), declare=True))
    '0,0>1,1:7,0!'
    >>> str(Move(None, declare=True))
    'declare'
    """

    to: Square | Hex | None
    origin: Hex | None = None
    keep: Hex | None = None
    declare: bool = False

    def __str__(self) -> str:
        if self.to is None:
            return "declare"
        text = str(self.to) if self.origin is None else f"{self.origin}>{self.to}"
        if self.keep is not None:
            text += f":{self.keep}"
        return text + "!" if self.declare else text
