"""Declaring in Six: the shapes on the table, and which of them a team may declare.

With declaring on, a completed shape wins only when its team declares it. A team
may declare a shape of its own that is still on the table and that it completed
no earlier than the other team completed its latest shape: once the other team
completes a shape, the right to the older ones is gone.

A shape is kept as its shape id (see :mod:`sixtui.rules.shapes`) with its team
added at the end, and with the number of the move that completed it.

>>> from sixtui.rules.hexes import Hex, pack
>>> anything = lambda centre, team: True
>>> row = {pack(Hex(q, -1)): 0 for q in range(6)}
>>> rights = DeclaringRights().after(row, list(row), 11, anything)
>>> [shape[0] for shape in rights.declarable(0)], rights.declarable(1)
(['row'], [])
>>> both = row | {pack(Hex(q, 1)): 1 for q in range(6)}
>>> rights = rights.after(both, [pack(Hex(5, 1))], 12, anything)
>>> rights.declarable(0), [shape[0] for shape in rights.declarable(1)]
([], ['row'])
"""

from __future__ import annotations

from collections.abc import Callable

from sixtui.rules.shapes import ShapeId, circle_at, shapes_through, still_stands

CentreRule = Callable[[int, int], bool]


def shape_team(shape: ShapeId) -> int:
    """The team of a shape as kept here (its last element)."""
    return shape[-1]


class DeclaringRights:
    """The shapes on the table, each with the number of the move that completed it
    (its place in the game's history, from 1), and each team's latest completion.

    Never changed once made: :meth:`after` makes the rights after a move, so a
    game may keep the rights before each move to take it back.
    """

    __slots__ = ("last_completion", "shapes")

    def __init__(
        self, shapes: dict[ShapeId, int] | None = None, last_completion: tuple[int, int] = (-1, -1)
    ) -> None:
        self.shapes: dict[ShapeId, int] = {} if shapes is None else shapes
        self.last_completion = last_completion

    def declarable(self, team: int) -> list[ShapeId]:
        """The team's shapes on the table completed no earlier than the other team's last."""
        rival_completed = self.last_completion[1 - team]
        return [
            shape
            for shape, since in self.shapes.items()
            if shape_team(shape) == team and since >= rival_completed
        ]

    def after(
        self, board: dict[int, int], changed: list[int], number: int, centre_allows: CentreRule
    ) -> DeclaringRights:
        """The rights once move ``number`` has changed the pieces on ``changed`` cells:
        the shapes it broke are gone, those it completed are new."""
        shapes = self.shapes.copy()
        for shape in [
            s for s in shapes if not still_stands(board, s, shape_team(s), centre_allows)
        ]:
            del shapes[shape]
        completion = list(self.last_completion)
        for side in (0, 1):
            found = set()
            for cell in changed:
                if board.get(cell) == side:
                    found.update(shapes_through(board, cell, side, centre_allows))
                elif circle_at(board, cell, side, centre_allows):
                    found.add(("circle", cell))
            for shape in found:
                shape = (*shape, side)
                if shape not in shapes:
                    shapes[shape] = number
                    completion[side] = number
        return DeclaringRights(shapes, (completion[0], completion[1]))
