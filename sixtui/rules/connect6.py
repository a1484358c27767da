"""Connect6: one stone to open, then two a turn; six or more in a row wins.

>>> from sixtui.rules import new_game
>>> g = new_game("connect6")
>>> for point in ["J10", "A1", "A2", "K10", "L10", "B1", "B2", "M10", "N10", "C1", "C2", "O10"]:
...     g.play(point)
>>> g.result
Result(winner=0, reason='six-in-a-row', points=())
>>> g
<Connect6 size=19; team 0 won (six-in-a-row); 12 moves: (4 earlier) L10 B1 B2 M10 N10 C1 C2 O10>
>>> g.undo()
Move.parse('O10')
>>> g
<Connect6 size=19; seat 0 to move, 2 stones left; 11 moves: (3 earlier) K10 L10 B1 B2 M10 N10 C1 C2>
"""

from __future__ import annotations

from sixtui.rules.gridgame import OFF, GridGame


class Connect6(GridGame):
    """Connect6 on a square board of 6 to 19 points a side (19 by default)."""

    name = "connect6"
    MIN_SIZE = 6
    MAX_SIZE = 19

    def could_still_win(self, team: int) -> bool:
        """Whether some six points in a line hold no stone of the other team: where none
        do, ``team`` can no longer make six, and a time-out against it is a draw.

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6", size=6)
        >>> for point in ["A1", "B1", "B2", "C1", "C2"]:
        ...     g.play(point)
        >>> g.could_still_win(0), g.could_still_win(1)
        (True, True)
        """
        cells, steps = self._cells, self._line_steps
        other = 1 - team
        return any(
            all(cells[index + reach * step] not in (other, OFF) for reach in range(6))
            for index in self._index_of_key
            for step in steps
        )
