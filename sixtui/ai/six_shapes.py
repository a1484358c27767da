"""Shape threats of Six: the rows, triangles and circles a team is one or two pieces from.

A *threat* of a team is a place for a shape (see :mod:`sixtui.rules.shapes`) that
holds only that team's pieces and lacks one or two of them. The empty cells of a
threat lacking one are the team's *winning cells*: a piece there completes a
shape. Two winning cells are a *double threat*, which one move of the other team
cannot stop. Everything here reads a board of cell keys → team, as the engine
keeps it (see :mod:`sixtui.rules.hexes`).

>>> from sixtui.rules.hexes import Hex, pack, unpack
>>> row = {pack(Hex(q, 0)): 0 for q in range(1, 5)}  # four in a row, 1,0 .. 4,0
>>> board = ShapeBoard(row, centre_may_be_opponent=True)
>>> sorted(len(threat.missing) for threat in board.threats(0))  # 0,0-5,0; 1,0-6,0; -1,0-4,0
[2, 2, 2]
>>> board.winning_cells(0)
set()
>>> [str(unpack(cell)) for cell in sorted(board.double_threat_cells(0))]
['0,0', '5,0']
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtui.rules.hexes import AXIS_STEPS, NEIGHBOUR_STEPS
from sixtui.rules.shapes import SHAPE_SIZE, TRIANGLES, ShapeId, cells_of

# What a shape holding this many pieces of one team (and none of the other) is worth to
# that team: a shape one short is a win next turn unless it is stopped.
SHAPE_WORTH = (0, 1, 4, 16, 64, 400, 400)


@dataclass(frozen=True)
class Threat:
    """A place for a shape of ``team`` that lacks the pieces on ``missing`` (one or two)."""

    shape: ShapeId
    team: int
    missing: tuple[int, ...]


def shapes_with(cell: int) -> list[ShapeId]:
    """Every shape that has a piece on ``cell`` (37 of them), and last the circle round it.

    >>> len(shapes_with(0)), shapes_with(0)[-1]
    (37, ('circle', 0))
    """
    shapes: list[ShapeId] = [
        ("row", axis, cell - k * step)
        for axis, step in enumerate(AXIS_STEPS)
        for k in range(SHAPE_SIZE)
    ]
    shapes += [
        ("triangle", orientation, cell - member)
        for orientation, offsets in enumerate(TRIANGLES)
        for member in offsets
    ]
    shapes += [("circle", cell + step) for step in NEIGHBOUR_STEPS]
    shapes.append(("circle", cell))
    return shapes


_SHAPES_WITH: dict[int, tuple[ShapeId, ...]] = {}
_CELLS: dict[ShapeId, tuple[int, ...]] = {}


def _shapes_with(cell: int) -> tuple[ShapeId, ...]:
    """:func:`shapes_with` but the circle round ``cell``, remembered: the search asks often."""
    shapes = _SHAPES_WITH.get(cell)
    if shapes is None:
        if len(_SHAPES_WITH) > 1 << 14:
            _SHAPES_WITH.clear()
        shapes = _SHAPES_WITH[cell] = tuple(shapes_with(cell)[:-1])
    return shapes


def _cells(shape: ShapeId) -> tuple[int, ...]:
    cells = _CELLS.get(shape)
    if cells is None:
        if len(_CELLS) > 1 << 16:
            _CELLS.clear()
        cells = _CELLS[shape] = tuple(cells_of(shape))
    return cells


class ShapeBoard:
    """The shapes of one layout: whose each is, how full, and what it threatens.

    ``board`` is read, never changed, so a search may change it between questions.
    ``centre_may_be_opponent`` is the ruleset's: where it is false, a piece of the
    other team in a circle's middle spoils the circle.
    """

    def __init__(self, board: dict[int, int], centre_may_be_opponent: bool) -> None:
        self.board = board
        self.centre_may_be_opponent = centre_may_be_opponent

    def owner(self, shape: ShapeId) -> tuple[int, int] | None:
        """The team with pieces in ``shape`` and how many, ``(team, 0)`` for an empty one,
        or ``None`` when both teams have pieces there (or its middle spoils a circle)."""
        get = self.board.get
        team = -1
        count = 0
        for cell in _cells(shape):
            owner = get(cell)
            if owner is None:
                continue
            if owner != team and team >= 0:
                return None
            team = owner
            count += 1
        if shape[0] == "circle" and not self.centre_may_be_opponent and team >= 0:
            centre = get(shape[1])
            if centre is not None and centre != team:
                return None
        return max(team, 0), count

    def threats(self, team: int) -> list[Threat]:
        """Every threat of ``team``: shapes near its pieces lacking one or two of them."""
        found = []
        for shape in self._shapes_near(team):
            held = self.owner(shape)
            if held is not None and held[0] == team and held[1] >= SHAPE_SIZE - 2:
                missing = tuple(cell for cell in _cells(shape) if cell not in self.board)
                if missing:
                    found.append(Threat(shape, team, missing))
        return found

    def winning_cells(self, team: int) -> set[int]:
        """The empty cells where a piece of ``team`` completes a shape."""
        return {threat.missing[0] for threat in self.threats(team) if len(threat.missing) == 1}

    def double_threat_cells(self, team: int) -> set[int]:
        """The empty cells where a piece of ``team`` leaves it two winning cells or more,
        counting the ones it has already: the other team can stop only one."""
        before = self.winning_cells(team)
        ahead: dict[int, set[int]] = {}
        for threat in self.threats(team):
            if len(threat.missing) == 2:
                first, second = threat.missing
                ahead.setdefault(first, set()).add(second)
                ahead.setdefault(second, set()).add(first)
        return {cell for cell, wins in ahead.items() if len((wins | before) - {cell}) >= 2}

    def placing_gain(self, cell: int, team: int) -> int:
        """How much a piece of ``team`` on the empty ``cell`` changes the worth of the
        shapes through it, for ``team``: its own grow, the other team's are spoilt."""
        return self._change(cell, team, placing=True)

    def lifting_gain(self, cell: int, team: int) -> int:
        """How much lifting ``team``'s piece from ``cell`` changes the worth for ``team``."""
        return self._change(cell, team, placing=False)

    def worth(self, team: int) -> int:
        """The worth of every shape near the layout for ``team``, less the other team's."""
        total = 0
        for shape in self._shapes_near(None):
            held = self.owner(shape)
            if held is not None:
                total += SHAPE_WORTH[held[1]] if held[0] == team else -SHAPE_WORTH[held[1]]
        return total

    def _change(self, cell: int, team: int, placing: bool) -> int:
        shapes = _shapes_with(cell)
        if not self.centre_may_be_opponent:
            # Under these rules a piece in a circle's middle spoils it or, lifted, frees it.
            shapes = (*shapes, ("circle", cell))
        board = self.board
        before = board.get(cell)
        was = sum(self._worth(shape, team) for shape in shapes)
        if placing:
            board[cell] = team
        else:
            del board[cell]
        now = sum(self._worth(shape, team) for shape in shapes)
        if before is None:
            del board[cell]
        else:
            board[cell] = before
        return now - was

    def _worth(self, shape: ShapeId, team: int) -> int:
        held = self.owner(shape)
        if held is None:
            return 0
        return SHAPE_WORTH[held[1]] if held[0] == team else -SHAPE_WORTH[held[1]]

    def _shapes_near(self, team: int | None) -> set[ShapeId]:
        """The shapes with a piece of ``team`` (of either team for ``None``)."""
        shapes: set[ShapeId] = set()
        for cell, owner in self.board.items():
            if team is None or owner == team:
                shapes.update(_shapes_with(cell))
        return shapes
