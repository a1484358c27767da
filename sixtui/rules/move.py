"""The :class:`Move` value type."""

from __future__ import annotations

from dataclasses import dataclass

from sixtui.rules.square import Square


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a player: in Connect6 and Game of 6, one stone or dot.

    ``str(move)`` is its notation; a game's :meth:`~sixtui.rules.game.Game.parse_move`
    reads it back.

    >>> str(Move(Square(9, 9)))
    'J10'
    """

    to: Square

    def __str__(self) -> str:
        return str(self.to)
