"""Placing a piece of Six from the hand: where it may go, and why not elsewhere.

A piece from the hand goes on an empty cell that shares a side with the layout;
the first piece of the game goes on a cell its ruleset names. ``board`` maps the
key of each piece's cell to its team; ``touching`` counts, for every cell next
to a piece, the pieces around it (see :mod:`sixtui.rules.hexes` for keys).

>>> from sixtui.rules.hexes import Hex, pack, unpack
>>> from sixtui.rules.six_rulesets import RULESETS
>>> board = {pack(Hex(0, 0)): 0}
>>> touching = {pack(cell): 1 for cell in Hex(0, 0).neighbours()}
>>> [str(unpack(key)) for key in placement_cells(board, touching, ())][:3]
['-1,0', '-1,1', '0,-1']
>>> check_placement(board, touching, pack(Hex(2, 0)), RULESETS["steffen"], False)
Traceback (most recent call last):
...
sixtui.rules.errors.IllegalMove: 2,0 does not touch the layout
"""

from __future__ import annotations

from sixtui.rules.errors import IllegalMove
from sixtui.rules.hexes import Hex, pack, unpack
from sixtui.rules.six_rulesets import Ruleset


def placement_cells(
    board: dict[int, int], touching: dict[int, int], first_cells: tuple[Hex, ...]
) -> list[int]:
    """The cells a piece from the hand may go on, in order: ``first_cells`` when they
    are given (the game's first piece), else every empty cell next to the layout."""
    if first_cells:
        return sorted(pack(cell) for cell in first_cells)
    cells = [cell for cell in touching if cell not in board]
    cells.sort()
    return cells


def check_placement(
    board: dict[int, int],
    touching: dict[int, int],
    to: int,
    rules: Ruleset,
    opening: bool,
) -> None:
    """Raises :class:`IllegalMove` if a piece from the hand may not go on ``to``;
    ``opening`` tells that it would be the first piece of the game."""
    cell = unpack(to)
    if to in board:
        raise IllegalMove(f"{cell} is taken")
    if opening and rules.first_cells:
        allowed = rules.first_cells
        if cell not in allowed:
            if rules.preplaced:
                raise IllegalMove(
                    f"Black's first piece goes on {', '.join(map(str, allowed[:-1]))} or "
                    f"{allowed[-1]}: touching the red piece, not the black one"
                )
            raise IllegalMove(f"the first piece goes in the middle of the table, on {allowed[0]}")
    elif not touching.get(to):
        raise IllegalMove(f"{cell} does not touch the layout")
