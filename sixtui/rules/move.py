"""The :class:`Move` value type, for every game of the library."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sixtui.rules.errors import IllegalMove
from sixtui.rules.hexes import Hex
from sixtui.rules.square import Square

_HEX = r"[+-]?[0-9]+\s*,\s*[+-]?[0-9]+"
_HEX_MOVE = re.compile(rf"\s*(?:({_HEX})\s*>\s*)?({_HEX})(?:\s*:\s*({_HEX}))?\s*(!)?\s*")


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a player.

    In Connect6 and Game of 6 a move is one stone or dot: ``to`` is a
    :class:`Square`. In Six it places a piece (``to``), or lifts the piece on
    ``origin`` and puts it on ``to``, naming with ``keep`` a cell of the group
    that stays when the lift splits the layout into groups that tie for
    largest. ``declare`` (written ``!``) makes the move declare a shape: it
    wins if the team may then declare one, and is an ordinary move otherwise.
    A move with ``to`` of ``None`` only declares (written ``declare``).

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

    @classmethod
    def parse(cls, text: str) -> Move:
        """Reads any move's notation; the game then checks it against its board.

        >>> Move.parse("j10")
        Move.parse('J10')
        >>> Move.parse("0,0>1,1!")
        Move.parse('0,0>1,1!')
        """
        if not isinstance(text, str):
            raise IllegalMove(f"{text!r} is not a move")
        if text.strip().lower() == "declare":
            return cls(None, declare=True)
        if "," not in text:
            return cls(Square.parse(text))
        found = _HEX_MOVE.fullmatch(text)
        if found is None:
            raise IllegalMove(
                f"{text!r} is not a move: write a cell like 2,-1, a move like 0,0>1,1, or declare"
            )
        origin, to, keep, bang = found.groups()
        return cls(
            Hex.parse(to),
            None if origin is None else Hex.parse(origin),
            None if keep is None else Hex.parse(keep),
            bang is not None,
        )

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __str__(self) -> str:
        if self.to is None:
            return "declare"
        text = str(self.to) if self.origin is None else f"{self.origin}>{self.to}"
        if self.keep is not None:
            text += f":{self.keep}"
        return text + "!" if self.declare else text
