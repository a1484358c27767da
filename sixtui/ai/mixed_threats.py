"""Game of 6: wins in one turn by a threat of six and a closing together.

A team that makes a line of four open at both ends takes both of the other team's dots
to stop; if the same two dots also leave it a dot or two that would color its last
cells, the other team cannot stop both, and the game is won a turn later. Neither the
line reading (:mod:`sixtui.ai.threat_search`) nor the race to six colored cells
(:mod:`sixtui.ai.enclosures`) sees such a win alone. Near the end of the race, two dots
that leave more closings than two dots can take win the same way, with no line.

:func:`mixed_wins` finds a team's pairs that win so, with the points where the other
team could still spoil each; :func:`spoiled` says whether a pair of the other team
does.

>>> from sixtui.ai.line_patterns import LineBoard
>>> board = LineBoard(9)
>>> for point in ["C2", "D2", "D6", "F6", "E7"]:  # a line of two; E6 walled in but for E5
...     board.play(board.key(point), 0)
>>> wins = mixed_wins(board, 0, 1)
>>> (board.key("E2"), board.key("F2")) in [win.pair for win in wins]  # a four and E5
True
>>> (board.key("C5"), board.key("G5")) in [win.pair for win in wins]  # a three only
False
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from sixtui.ai.enclosures import Walls, best_closings, closings
from sixtui.ai.line_patterns import LineBoard

MOST_TRIED = 120  # pairs of one team making a threat of six weighed at most
MOST_CLOSING_TRIED = 30  # pairs of one team making closings alone weighed at most
FEW_CELLS = 3  # cells left to color from which closings alone are read
HELPERS_TOUCHING = 2  # own dots a point touches to help a closing


@dataclass(frozen=True)
class MixedWin:
    """A pair that wins by a threat of six and a closing, and the points that matter
    to it: its own, those of its threat windows and of its closings."""

    pair: tuple[int, ...]
    points: frozenset[int]


def mixed_wins(
    board: LineBoard,
    team: int,
    need: int,
    deadline: float = float("inf"),
    first_only: bool = False,
) -> list[MixedWin]:
    """``team``'s pairs after which the other team cannot both stop every threat of six
    and take a point of each dot or pair by which ``team`` colors ``need`` more cells,
    nor win at once by six; tried until ``deadline`` (:func:`time.perf_counter`).

    With :data:`FEW_CELLS` cells or fewer to color, pairs that leave closings alone,
    too many for two dots to take, count too."""
    walls = Walls.of(board, team)
    wins: list[MixedWin] = []
    for pair in _tried_pairs(board, team, walls, need):
        if time.perf_counter() > deadline:
            break
        win = _mixed_win(board, team, walls, need, pair)
        if win is not None:
            wins.append(win)
            if first_only:
                break
    return wins


def spoiled(board: LineBoard, team: int, win: MixedWin, need: int, pair: tuple[int, ...]) -> bool:
    """Whether the other team's ``pair`` leaves ``team`` without ``win``."""
    if not win.points & set(pair):
        return False
    if set(pair) & set(win.pair):
        return True
    other = 1 - team
    for key in pair:
        board.play(key, other)
    still = _mixed_win(board, team, Walls.of(board, team), need, win.pair)
    for key in reversed(pair):
        board.undo(key)
    return still is None


def _tried_pairs(board: LineBoard, team: int, walls: Walls, need: int) -> Iterator[tuple[int, ...]]:
    """The pairs that make a threat of six, at most :data:`MOST_TRIED`, fours first,
    then those whose dots touch most of the team's own: two dots in a window of two,
    a dot in a window of three with another of those or one that may help a closing; then, with
    :data:`FEW_CELLS` cells or fewer to color, at most :data:`MOST_CLOSING_TRIED` pairs
    that close polygonals or of points that may help closings."""
    counts = board.counts[team]
    fours: set[tuple[int, ...]] = set()
    makers: set[int] = set()
    for window in board.chances[team]:
        empties = board.empties(window)
        if counts[window] == 2:
            fours.update(combinations(sorted(empties), 2))
        elif counts[window] >= 3:
            makers.update(empties)
    touching = _touching(board, team)
    helpers = [key for key, count in touching.items() if count >= HELPERS_TOUCHING]
    pairs = fours | {
        (first, second) if first < second else (second, first)
        for first in makers
        for second in [*makers, *helpers]
        if first != second
    }
    # Fours first: they take both of the other team's dots to stop.
    ranked = sorted(
        pairs,
        key=lambda pair: (pair not in fours, -sum(touching.get(key, 0) for key in pair), pair),
    )
    yield from ranked[:MOST_TRIED]
    if need <= FEW_CELLS:
        closing = {keys for keys, _ in best_closings(walls, board) if len(keys) == 2}
        closing |= set(combinations(sorted(helpers), 2))
        closing -= pairs
        ranked = sorted(
            closing, key=lambda pair: (-sum(touching.get(key, 0) for key in pair), pair)
        )
        yield from ranked[:MOST_CLOSING_TRIED]


def _touching(board: LineBoard, team: int) -> dict[int, int]:
    """Each open point beside ``team``'s dots: how many of them it touches."""
    size, cells = board.size, board.cells
    touching: dict[int, int] = {}
    for key in board.near(1, team):
        col, row = key % size, key // size
        touching[key] = sum(
            cells[near_row * size + near_col] == team
            for near_col in range(max(col - 1, 0), min(col + 2, size))
            for near_row in range(max(row - 1, 0), min(row + 2, size))
        )
    return touching


def _mixed_win(
    board: LineBoard, team: int, walls: Walls, need: int, pair: tuple[int, ...]
) -> MixedWin | None:
    """``pair`` as a :class:`MixedWin` of ``team`` if it is one on ``board``."""
    if not all(board.is_empty(key) for key in pair):
        return None
    with_pair = walls.with_walls(pair)
    newly = walls.enclosed(with_pair) & ~walls.enclosed()
    if newly & with_pair:  # a dot of its own, maybe of the pair, dies with its lines
        return None
    left = need - newly.bit_count()
    for key in pair:
        board.play(key, team)
    try:
        return _unstoppable(board, team, walls, left, pair, newly)
    finally:
        for key in reversed(pair):
            board.undo(key)


def _unstoppable(
    board: LineBoard, team: int, walls: Walls, left: int, pair: tuple[int, ...], newly: int
) -> MixedWin | None:
    """With ``pair`` played: the win, if the other team cannot stop both the threats
    and the closings of ``left`` cells."""
    other = 1 - team
    if board.threats[other] or left <= 0:
        return None
    blocks = board.blocking_sets(team) if board.threats[team] else [()]
    after = Walls(walls.geometry, walls.with_walls(pair), walls.colored | newly)
    wins = [set(keys) for keys, gain in closings(after, board, around=pair) if gain >= left]
    if not wins:
        return None
    if any(_meets(block, wins) for block in blocks):
        return None
    points = set(pair).union(*wins)
    for cells in board.threat_cells(team):
        points.update(cells)
    return MixedWin(pair, frozenset(points))


def _meets(block: tuple[int, ...], wins: list[set[int]]) -> bool:
    """Whether the other team's two dots, ``block`` and as many as it leaves of its
    choice, take a point of every closing in ``wins``."""
    missed = [keys for keys in wins if not keys & set(block)]
    if not missed:
        return True
    if len(block) == 1:
        return bool(set.intersection(*missed))
    return not block and any(_meets((key,), missed) for key in set().union(*missed))
