"""The three winning shapes of Six, found through the cells a move changed.

A shape is named by a small tuple, its *shape id*: ``("row", axis, first)``,
``("triangle", orientation, corner)`` or ``("circle", centre)``, with cells as
keys (see :mod:`sixtui.rules.hexes`). Sorting ids by :data:`KIND_ORDER` puts
rows before triangles before circles, the order in which a result names them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sixtui.rules.hexes import AXIS_STEPS, NEIGHBOUR_STEPS, STRIDE

ShapeId = tuple
KIND_ORDER = {"row": 0, "triangle": 1, "circle": 2}
SHAPE_SIZE = 6

# The 3-2-1 triangle {0,0 1,0 2,0 0,1 1,1 0,2} and its point reflection.
_TRIANGLE = (0, STRIDE, 2 * STRIDE, 1, STRIDE + 1, 2)
TRIANGLES = (_TRIANGLE, tuple(-offset for offset in _TRIANGLE))


def cells_of(shape: ShapeId) -> list[int]:
    """The keys of the six pieces that make the shape."""
    kind = shape[0]
    if kind == "row":
        step = AXIS_STEPS[shape[1]]
        return [shape[2] + k * step for k in range(SHAPE_SIZE)]
    if kind == "triangle":
        return [shape[2] + offset for offset in TRIANGLES[shape[1]]]
    return [shape[1] + step for step in NEIGHBOUR_STEPS]


def shapes_through(
    board: dict[int, int], cell: int, team: int, centre_allows: Callable[[int, int], bool]
) -> Iterator[ShapeId]:
    """Every shape of ``team`` that has a piece on ``cell``.

    ``centre_allows(centre, team)`` says whether a circle round that centre counts.
    """
    get = board.get
    friends = 0
    for step in NEIGHBOUR_STEPS:
        if get(cell + step) == team:
            friends += 1
    if not friends:
        return
    for axis, step in enumerate(AXIS_STEPS):
        first = cell
        while get(first - step) == team:
            first -= step
        last = cell
        while get(last + step) == team:
            last += step
        # Every window of six on the run that holds ``cell``.
        for start in range(max(first, cell - 5 * step), min(last - 5 * step, cell) + 1, step):
            yield ("row", axis, start)
    if friends < 2:
        return  # in a triangle or a circle every piece touches two others of the shape
    for orientation, offsets in enumerate(TRIANGLES):
        for member in offsets:
            corner = cell - member
            for offset in offsets:
                if get(corner + offset) != team:
                    break
            else:
                yield ("triangle", orientation, corner)
    for step in NEIGHBOUR_STEPS:
        centre = cell + step
        if circle_at(board, centre, team, centre_allows):
            yield ("circle", centre)


def circle_at(
    board: dict[int, int], centre: int, team: int, centre_allows: Callable[[int, int], bool]
) -> bool:
    get = board.get
    for step in NEIGHBOUR_STEPS:
        if get(centre + step) != team:
            return False
    return centre_allows(centre, team)


def still_stands(
    board: dict[int, int], shape: ShapeId, team: int, centre_allows: Callable[[int, int], bool]
) -> bool:
    if shape[0] == "circle":
        return circle_at(board, shape[1], team, centre_allows)
    return all(board.get(cell) == team for cell in cells_of(shape))


def by_kind(shape: ShapeId) -> tuple[int, ShapeId]:
    """A sort key: rows before triangles before circles, then by the shape id."""
    return KIND_ORDER[shape[0]], shape


def first_by_kind(shapes: list[ShapeId]) -> ShapeId:
    return min(shapes, key=by_kind)
