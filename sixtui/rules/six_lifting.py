"""The second round of Six: lifting a piece, the groups a lift leaves, and captures.

A seat with no pieces in hand lifts a piece of its team and puts it on another
empty cell against the layout left. A lift that splits the layout is forbidden
or, where the ruleset allows it, keeps a largest group and captures the rest.
:class:`CutPoints` finds in one pass which pieces split the layout, and what
lifting each of them leaves. ``board`` maps the key of each piece's cell to its
team; ``touching`` counts, for every cell next to a piece, the pieces around it
(see :mod:`sixtui.rules.hexes` for keys).

>>> from sixtui.rules.hexes import Hex, pack, unpack
>>> line = {pack(Hex(q, 0)): q % 2 for q in range(5)}  # 0,0 .. 4,0
>>> sorted(str(unpack(cell)) for cell in CutPoints(line).cut_cells)
['1,0', '2,0', '3,0']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sixtui.rules.errors import IllegalMove
from sixtui.rules.hexes import NEIGHBOUR_STEPS, RING_STEPS, pack, unpack
from sixtui.rules.move import Move
from sixtui.rules.six_moves import MOVES


def _arcs(mask: int) -> int:
    """How many runs of set bits the 6-bit ``mask`` has, read round a circle."""
    return sum(1 for bit in range(6) if mask >> bit & 1 and not mask >> (bit - 1) % 6 & 1) or (
        1 if mask else 0
    )


_ARCS = tuple(_arcs(mask) for mask in range(64))


class CutPoints:
    """One depth-first pass over the layout that tells, for every piece, which
    groups lifting it would leave (Hopcroft–Tarjan articulation points).

    The pass numbers pieces in the order it first reaches them, so the pieces
    below a piece in the search tree are one slice of that order.
    """

    def __init__(self, board: dict[int, int]) -> None:
        self.order: list[int] = []
        self.number: dict[int, int] = {}
        self.end: list[int] = []
        self.cut_children: dict[int, list[int]] = {}
        self.cut_cells: set[int] = set()  # the pieces whose lifting splits the layout
        if board:
            self._search(board, next(iter(board)))

    def _search(self, board: dict[int, int], root: int) -> None:
        order, end, cut_children = self.order, self.end, self.cut_children
        # -1 until reached; cells off the layout are not keys at all.
        number = self.number = dict.fromkeys(board, -1)
        get_number = number.get
        steps = NEIGHBOUR_STEPS

        def visit(cell: int, parent: int) -> int:
            """Numbers the pieces below ``cell``; returns the lowest number they reach."""
            here = len(order)
            number[cell] = here
            order.append(cell)
            end.append(0)
            lowest = here
            for step in steps:
                seen = get_number(cell + step)
                if seen is None:
                    continue
                if seen < 0:
                    child = len(order)
                    below = visit(cell + step, here)
                    if below >= here:
                        cut_children.setdefault(here, []).append(child)
                    elif below < lowest:
                        lowest = below
                elif seen < lowest and seen != parent:
                    lowest = seen
            end[here] = len(order)
            return lowest

        visit(root, -1)
        self.cut_cells = {
            order[here] for here, children in cut_children.items() if here != 0 or len(children) > 1
        }

    def parts_without(self, cell: int) -> list[tuple[int, int]]:
        """The groups left when ``cell`` is lifted, as (size, where): ``where`` is the
        search number of the group's first piece, or -1 for the pieces above ``cell``."""
        here = self.number[cell]
        parts = [(self.end[child] - child, child) for child in self.cut_children.get(here, ())]
        if here != 0:
            parts.append((len(self.order) - 1 - sum(size for size, _ in parts), -1))
        return parts

    def members(self, cell: int, part: tuple[int, int]) -> list[int]:
        """The pieces of one group of :meth:`parts_without`."""
        where = part[1]
        if where >= 0:
            return self.order[where : self.end[where]]
        here = self.number[cell]
        cut_off = {cell}
        for child in self.cut_children[here]:
            cut_off.update(self.order[child : self.end[child]])
        return [c for c in self.order if c not in cut_off]


# -- the moves of a seat in the second round ----------------------------------------------


def second_round_moves(
    board: dict[int, int],
    touching: dict[int, int],
    cuts: CutPoints,
    team: int,
    split_captures: bool,
) -> list[Move]:
    """Every move of ``team`` lifting a piece, in order of the cells lifted, then of
    the cells put on (then of the groups kept)."""
    frontier = [cell for cell in touching if cell not in board]
    frontier.sort()
    splitting = cuts.cut_cells
    rows = MOVES.rows
    own = [cell for cell, owner in board.items() if owner == team]
    own.sort()
    moves: list[Move] = []
    for origin in own:
        if origin in splitting:
            if split_captures:
                moves += _capturing_moves(board, touching, cuts, origin, frontier)
            continue
        row = rows.get(origin)
        # The cells that touched this piece alone leave the frontier with it.
        cut_off = [
            origin + step
            for step in NEIGHBOUR_STEPS
            if touching.get(origin + step) == 1 and origin + step not in board
        ]
        try:
            if cut_off:
                moves += [row[to] for to in frontier if to not in cut_off]  # type: ignore[index]
            else:
                moves += list(map(row.__getitem__, frontier))  # type: ignore[union-attr]
        except (KeyError, AttributeError, TypeError):  # not all made yet
            moves += MOVES.row_moves(origin, frontier, cut_off or ())
    return moves


def _capturing_moves(
    board: dict[int, int],
    touching: dict[int, int],
    cuts: CutPoints,
    origin: int,
    frontier: list[int],
) -> list[Move]:
    """The moves lifting ``origin`` when that splits the layout."""
    here, end, order = cuts.number[origin], cuts.end, cuts.order
    below = cuts.cut_children[here]
    sizes = [end[child] - child for child in below]
    above = len(order) - 1 - sum(sizes) if here else 0
    if above > max(sizes):
        # Usually the part above the lifted piece stays and the small parts below go.
        removed = [origin]
        for child in below:
            removed += order[child : end[child]]
        return MOVES.row_moves(origin, frontier, _cut_off(board, touching, removed))
    parts = cuts.parts_without(origin)
    largest = max(size for size, _ in parts)
    staying = [part for part in parts if part[0] == largest]
    choices = []
    for kept in staying:
        removed = [origin]
        for part in parts:
            if part is not kept:
                removed += cuts.members(origin, part)
        cut_off = _cut_off(board, touching, removed)
        if len(staying) == 1:
            return MOVES.row_moves(origin, frontier, cut_off)
        keep = min(cuts.members(origin, kept))
        choices += [(to, keep) for to in frontier if to not in cut_off]
    choices.sort()
    return [MOVES.get(origin, to, keep, False) for to, keep in choices]


def _cut_off(board: dict[int, int], touching: dict[int, int], removed: list[int]) -> set[int]:
    """The empty cells that touch the layout only through ``removed`` pieces."""
    lost: dict[int, int] = {}
    for cell in removed:
        for step in NEIGHBOUR_STEPS:
            near = cell + step
            if near not in board:
                lost[near] = lost.get(near, 0) + 1
    return {cell for cell, count in lost.items() if count >= touching[cell]}


def can_lift_without_split(
    board: dict[int, int], team: int, cut_points: Callable[[], CutPoints]
) -> bool:
    """Whether ``team`` has a piece whose lift leaves the layout in one group.

    Most layouts have a piece whose neighbours touch one another round it, which
    settles it; ``cut_points`` gives the layout's :class:`CutPoints` otherwise.

    >>> from sixtui.rules.hexes import Hex, pack
    >>> line = {pack(Hex(q, 0)): q % 2 for q in range(5)}  # team 1 on 1,0 and 3,0
    >>> can_lift_without_split(line, 1, lambda: CutPoints(line))
    False
    >>> ring = {pack(cell): 0 for cell in Hex(0, 0).neighbours()}
    >>> can_lift_without_split(ring, 0, lambda: CutPoints(ring))
    True
    """
    for cell, owner in board.items():
        if owner == team and _holds_nothing_together(board, cell):
            return True
    cut_cells = cut_points().cut_cells
    return any(owner == team and cell not in cut_cells for cell, owner in board.items())


# The steps round a cell one by one, so that its ring is read in one expression.
_R0, _R1, _R2, _R3, _R4, _R5 = RING_STEPS


def _holds_nothing_together(board: dict[int, int], cell: int) -> bool:
    """Whether the pieces round ``cell`` touch one another round it, so that lifting
    its piece splits nothing (a piece can split the layout only otherwise)."""
    around = (
        (cell + _R0 in board)
        | (cell + _R1 in board) << 1
        | (cell + _R2 in board) << 2
        | (cell + _R3 in board) << 3
        | (cell + _R4 in board) << 4
        | (cell + _R5 in board) << 5
    )
    return _ARCS[around] <= 1


# -- checking one move ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Lift:
    """Lifting one piece: the groups left behind, and which may stay."""

    groups: list[list[int]]  # of the pieces left, each a list of cells
    staying: list[list[int]]  # the groups that tie for largest


def captured_by(
    board: dict[int, int],
    cuts: CutPoints | None,
    move: Move,
    origin: int,
    to: int,
    team: int,
    split_captures: bool,
) -> list[int]:
    """Checks the second-round ``move`` of ``team`` (from ``origin`` to ``to``, as keys),
    raising :class:`IllegalMove` with the reason if it is not legal; returns the cells of
    the pieces it captures. ``cuts`` is the layout's :class:`CutPoints` if known already."""
    if board.get(origin) != team:
        raise IllegalMove(f"{move.origin} is not a piece of your team")
    if origin == to:
        raise IllegalMove("a piece must move to another cell")
    if to in board:
        raise IllegalMove(f"{move.to} is taken")
    lift = _lift(board, cuts, origin)
    captured: list[int] = []
    if lift is None:
        keep = None if move.keep is None else pack(move.keep)
        if keep is not None and (keep == origin or keep not in board):
            raise IllegalMove(f"{move.keep} is not in the group that stays")
        touches = any(to + step in board and to + step != origin for step in NEIGHBOUR_STEPS)
    else:
        kept = _group_kept(move, lift, split_captures)
        kept_cells = set(kept)
        touches = any(to + step in kept_cells for step in NEIGHBOUR_STEPS)
        captured = [cell for group in lift.groups if group is not kept for cell in group]
    if not touches:
        raise IllegalMove(f"{move.to} does not touch the layout left after lifting {move.origin}")
    return captured


def _lift(board: dict[int, int], cuts: CutPoints | None, origin: int) -> _Lift | None:
    """The groups that lifting ``origin`` leaves, or ``None`` if it splits nothing."""
    if cuts is not None:
        if origin not in cuts.cut_cells:
            return None
        return _staying([cuts.members(origin, part) for part in cuts.parts_without(origin)])
    if _holds_nothing_together(board, origin):
        return None
    groups = _groups_left(board, origin)
    return _staying(groups) if len(groups) > 1 else None


def _groups_left(board: dict[int, int], origin: int) -> list[list[int]]:
    """The pieces left after lifting ``origin``, in groups side by side."""
    left = set(board)
    left.discard(origin)
    groups = []
    while left:
        start = left.pop()
        group, frontier = [start], [start]
        while frontier:
            cell = frontier.pop()
            for step in NEIGHBOUR_STEPS:
                if cell + step in left:
                    left.discard(cell + step)
                    group.append(cell + step)
                    frontier.append(cell + step)
        groups.append(group)
    return groups


def _staying(groups: list[list[int]]) -> _Lift:
    largest = max(len(group) for group in groups)
    return _Lift(groups, [group for group in groups if len(group) == largest])


def _group_kept(move: Move, lift: _Lift, split_captures: bool) -> list[int]:
    origin = move.origin
    if len(lift.groups) > 1 and not split_captures:
        raise IllegalMove(f"lifting {origin} would split the layout")
    if move.keep is None:
        if len(lift.staying) > 1:
            raise IllegalMove(
                f"lifting {origin} splits the layout into {len(lift.staying)} groups of equal "
                f"size: add the cell of the one that stays, like {origin}>{move.to}:"
                f"{unpack(min(min(group) for group in lift.staying))}"
            )
        return lift.staying[0] if lift.staying else []
    keep = pack(move.keep)
    for group in lift.staying:
        if keep in group:
            return group
    raise IllegalMove(f"{move.keep} is not in a group that can stay after lifting {origin}")
