"""Game of 6: Connect6 on grid paper, where closing a polygonal colors the cells inside.

After each dot, in this order: a line of six of the mover's live dots wins;
otherwise every cell the dot cut off from the outside takes the mover's color;
then six colored cells win.

A cell is *cut off* for a team when no path of orthogonal steps leads from it
off the board without entering a cell holding one of the team's live dots (the
team's *walls*). A wall is itself inside when it is not on the edge and none of
its four neighbours can be reached from outside.

Only a new dot can cut cells off, so the work per dot is local:

* If the dot's open neighbours stay connected to each other around it, no
  region was cut off; otherwise a search runs from each separated side at once
  and stops as soon as the outcome is known, so a small enclosure costs little
  even on a large board.
* Before a team's dot every cell it has cut off is already colored (each of its
  turns colors what it encloses, and the other side's dots never add walls of
  this team). So an uncolored open cell that the new dot did not cut off is
  still reachable, which settles most wall checks without any search.

>>> from sixtui.rules import new_game
>>> g = new_game("gameof6")
>>> for point in ["J11", "A1", "A3", "K10", "J9", "A5", "A7", "I10"]:
...     g.play(point)
>>> g.colored("J10"), g.colored_count(0)
(0, 1)
>>> g
<GameOf6 size=19; colored 1-0; seat 0 to move, 1 dot left; 8 moves: J11 A1 A3 K10 J9 A5 A7 I10>
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet

from sixtui.rules.gridgame import EMPTY, OFF, GridGame
from sixtui.rules.result import Result

CELLS_TO_WIN = 6
POINTS_FOR_A_WIN = 6


def _ring_groups(open_mask: int) -> tuple[tuple[int, ...], ...]:
    """Splits the open cells of the 8-cell ring into arcs; keeps the arcs that hold
    an orthogonal neighbour (ring positions 0, 2, 4, 6), as tuples of those positions.

    Ring positions run round the cell: N, NE, E, SE, S, SW, W, NW, so each position
    is an orthogonal neighbour of the next and cells of one arc are connected.
    """
    is_open = [bool(open_mask >> position & 1) for position in range(8)]
    if all(is_open):
        return ((0, 2, 4, 6),)
    # Start just after a closed cell so that no arc wraps round the end.
    first = next(p for p in range(8) if not is_open[p]) + 1
    arcs: list[list[int]] = []
    current: list[int] = []
    for offset in range(8):
        position = (first + offset) % 8
        if is_open[position]:
            current.append(position)
        elif current:
            arcs.append(current)
            current = []
    if current:
        arcs.append(current)
    return tuple(
        tuple(p for p in arc if p % 2 == 0) for arc in arcs if any(p % 2 == 0 for p in arc)
    )


_RING_GROUPS = tuple(_ring_groups(mask) for mask in range(256))
_NOTHING: frozenset[int] = frozenset()


class GameOf6(GridGame):
    """Game of 6 on a square grid of 8 to 26 cells a side (19 by default)."""

    name = "gameof6"
    _colors_cells = True
    STONE = "dot"
    MIN_SIZE = 8
    MAX_SIZE = 26

    def __init__(self, size: int = GridGame.DEFAULT_SIZE) -> None:
        super().__init__(size)
        self._live = self._cells.copy()
        width = self._geo.width
        self._width = width
        self._orthogonal_steps = (width, 1, -width, -1)
        self._ring_steps = (width, width + 1, 1, 1 - width, -width, -width - 1, -1, width - 1)

    def _position_words(self) -> list[str]:
        return [f"colored {'-'.join(map(str, self._colored_count))}"]

    def _points(self, winner: int | None) -> tuple[int, ...]:
        return tuple(
            POINTS_FOR_A_WIN if team == winner else count
            for team, count in enumerate(self._colored_count)
        )

    def _after_stone(self, index: int, team: int) -> tuple[int, ...]:
        enclosed = self._cut_off_by(index, team)
        walls_inside = self._walls_inside(index, team, enclosed)
        color = self._color
        newly_colored = [cell for cell in enclosed if color[cell] == EMPTY]
        newly_colored.extend(walls_inside)
        if not newly_colored:
            return ()
        colored = self._color_cells(newly_colored, team)
        if self._colored_count[team] >= CELLS_TO_WIN:
            self._result = Result(team, "colored-cells", self._points(team))
        return colored

    def _cut_off_by(self, index: int, team: int) -> AbstractSet[int]:
        """The open cells that the new wall at ``index`` cut off from the outside."""
        live = self._live
        north, east = self._width, 1
        # Bit k: ring position k (N, NE, E, SE, S, SW, W, NW) is open.
        open_mask = (
            (live[index + north] != team)
            | (live[index + north + east] != team) << 1
            | (live[index + east] != team) << 2
            | (live[index - north + east] != team) << 3
            | (live[index - north] != team) << 4
            | (live[index - north - east] != team) << 5
            | (live[index - east] != team) << 6
            | (live[index + north - east] != team) << 7
        )
        groups = _RING_GROUPS[open_mask]
        if len(groups) < 2:
            return _NOTHING
        ring_steps = self._ring_steps
        return self._enclosed_sides([index + ring_steps[group[0]] for group in groups], team)

    def _enclosed_sides(self, starts: list[int], team: int) -> set[int]:
        """Searches from each start cell in turns; returns the cells of the sides that
        never reach the outside.

        A side reaches the outside when it steps off the board or meets a side
        known to reach it; two sides that meet become one. When a single side
        is left unsettled and none has reached the outside yet, it must be the
        one that does (the new wall took a cell that the outside reached), so
        the search stops there.
        """
        live = self._live
        steps = self._orthogonal_steps
        parent = list(range(len(starts)))
        frontier = [[start] for start in starts]
        region = [[start] for start in starts]
        owner = {start: side for side, start in enumerate(starts)}
        reaches_outside = [live[start] == OFF for start in starts]
        unsettled = [side for side, out in enumerate(reaches_outside) if not out]
        enclosed: set[int] = set()

        def root(side: int) -> int:
            while parent[side] != side:
                side = parent[side]
            return side

        while unsettled:
            if len(unsettled) == 1 and not any(reaches_outside):
                break
            for side in unsettled.copy():
                if parent[side] != side or reaches_outside[side]:
                    continue
                cell = frontier[side].pop()
                for step in steps:
                    neighbour = cell + step
                    value = live[neighbour]
                    if value == team:
                        continue
                    if value == OFF:
                        reaches_outside[side] = True
                        break
                    other = owner.get(neighbour)
                    if other is None:
                        owner[neighbour] = side
                        frontier[side].append(neighbour)
                        region[side].append(neighbour)
                        continue
                    other = root(other)
                    if other == side:
                        continue
                    if reaches_outside[other]:
                        reaches_outside[side] = True
                        break
                    # Two sides met: one side, searched on from both frontiers.
                    parent[side] = other
                    frontier[other].extend(frontier[side])
                    region[other].extend(region[side])
                    unsettled.remove(side)
                    side = other
                if reaches_outside[side]:
                    unsettled.remove(side)
                elif not frontier[side] and side in unsettled:
                    unsettled.remove(side)
                    enclosed.update(region[side])
        return enclosed

    def _walls_inside(self, index: int, team: int, enclosed: AbstractSet[int]) -> list[int]:
        """The team's walls that have no reachable neighbour left, off the edge.

        Only walls next to the new wall or to a newly enclosed cell can have
        lost their last reachable neighbour.
        """
        live = self._live
        steps = self._orthogonal_steps
        candidates: Iterable[int] = [index + step for step in steps]
        if enclosed:
            candidates = {*candidates, *(cell + step for cell in enclosed for step in steps)}
        reachable_cache: dict[int, bool] = {}
        return [
            wall
            for wall in candidates
            if live[wall] == team
            and wall != index
            and not any(
                self._reachable(wall + step, team, enclosed, reachable_cache) for step in steps
            )
        ]

    def _reachable(
        self, cell: int, team: int, enclosed: AbstractSet[int], cache: dict[int, bool]
    ) -> bool:
        """Whether the outside reaches ``cell`` now that the new wall stands."""
        value = self._live[cell]
        if value == team or cell in enclosed:
            return False
        if value == OFF:
            return True
        if self._color[cell] == EMPTY:
            return True  # see the module docstring: it would be colored otherwise
        if cell not in cache:
            cache[cell] = self._search_outside(cell, team)
        return cache[cell]

    def _search_outside(self, start: int, team: int) -> bool:
        live = self._live
        seen = {start}
        stack = [start]
        while stack:
            cell = stack.pop()
            for step in self._orthogonal_steps:
                neighbour = cell + step
                value = live[neighbour]
                if value == OFF:
                    return True
                if value != team and neighbour not in seen:
                    seen.add(neighbour)
                    stack.append(neighbour)
        return False
