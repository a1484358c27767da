"""Game of 6 for the computer player: the cells a team's dots enclose, now and a turn ahead.

A team's live dots are its walls; a cell is enclosed when no path of orthogonal steps
leads from it off the board without entering a wall (the rule's *internal* cell). The
flood fill from the board's edge runs on bit masks, a whole front of cells a step, so
that the hundreds of fills a turn's reading needs cost little (:class:`Walls`).

:func:`closings` lists the dots and pairs of dots that would color cells for a team
next turn, and :class:`EnclosureReading` weighs a pair of ours by what it colors now,
what the other team colors or breaks of ours with its turn, and what is left for us the
turn after: the race to six colored cells, read two turns ahead.

>>> from sixtui.ai.line_patterns import LineBoard
>>> board = LineBoard(8)
>>> for point in ["C2", "B3", "D3"]:
...     board.play(board.key(point), 0)
>>> [([str(board.square(key)) for key in keys], gain)
...  for keys, gain in closings(Walls.of(board, 0), board)]
[(['C4'], 1), (['B1', 'A2'], 1), (['D1', 'E2'], 1)]
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from sixtui.ai.line_patterns import BLOCKED, EMPTY, LineBoard, point_values

COLORED_TO_WIN = 6  # colored cells that win
ENCLOSURE_WORTH = 400  # per cell a dot colors
KEPT_SHARE = 0.7  # of a cell we would color next turn: the other team may yet turn us aside
RACE_WORTH = 8 * ENCLOSURE_WORTH  # a sixth cell colored: the game, as far as pairs go
MOST_CLOSINGS = 12  # best closings of a side weighed in a reading
READING_SHARE = 0.4  # of a turn's time, by when the reading of its pairs must end
RACE_CLOSINGS = 4  # best closings of each side whose points the root pairs take
AROUND_REACH = 3  # steps from a new dot within which closings that need it are looked for
_RING = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))  # N, NE, E...


@dataclass(frozen=True)
class _Geometry:
    """Bit masks of a board of ``size``: each cell a bit, rows ``size + 1`` bits apart,
    so that a step off a row's end lands on a spare bit that is never open."""

    size: int
    width: int
    cells: int  # every cell of the board
    edge: int  # the cells on the board's edge
    bits: tuple[int, ...]  # each key's bit
    rings: tuple[tuple[tuple[int, int], ...], ...]  # each key's ring: (position bit, cell bit)
    crosses: tuple[tuple[int, ...], ...]  # each key and its orthogonal neighbours
    sides: tuple[int, ...]  # each key's orthogonal neighbours' bits, 0 on the edge


@cache
def _geometry(size: int) -> _Geometry:
    width = size + 1
    bits = tuple(1 << (key // size * width + key % size) for key in range(size * size))
    edge = sum(
        bits[key]
        for key in range(size * size)
        if key < size or key >= size * (size - 1) or key % size in (0, size - 1)
    )
    rings = tuple(
        tuple(
            (1 << position, bits[(key // size + dr) * size + key % size + dc])
            for position, (dc, dr) in enumerate(_RING)
            if 0 <= key % size + dc < size and 0 <= key // size + dr < size
        )
        for key in range(size * size)
    )
    crosses = tuple((key, *_orthogonal(key, size)) for key in range(size * size))
    sides = tuple(
        0 if edge & bits[key] else sum(bits[near] for near in _orthogonal(key, size))
        for key in range(size * size)
    )
    return _Geometry(size, width, sum(bits), edge, bits, rings, crosses, sides)


def _orthogonal(key: int, size: int) -> list[int]:
    col, row = key % size, key // size
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    return [
        (row + dr) * size + col + dc
        for dc, dr in steps
        if 0 <= col + dc < size and 0 <= row + dr < size
    ]


@cache
def _ring_splits(closed_mask: int) -> bool:
    """Whether the open cells round a point (bit k of ``closed_mask``: ring position k of
    :data:`_RING` is a wall) fall into two or more arcs that each reach the point by an
    orthogonal step: only then can a wall on the point cut a region off."""
    if not closed_mask:
        return False
    first = next(position for position in range(8) if closed_mask >> position & 1)
    arcs = 0
    reaching = False
    for offset in range(1, 9):
        position = (first + offset) % 8
        if closed_mask >> position & 1:
            arcs += reaching
            reaching = False
        elif position % 2 == 0:
            reaching = True
    return arcs >= 2


class Walls:
    """One team's live dots (``walls``) and the colored cells (``colored``), as bit masks
    of ``geometry``, for the cells the dots enclose with dots added on open points."""

    def __init__(self, geometry: _Geometry, walls: int, colored: int) -> None:
        self.geometry = geometry
        self.walls = walls
        self.colored = colored
        self.inside = self.enclosed().bit_count()

    @classmethod
    def of(cls, board: LineBoard, team: int, dead: int = 0) -> Walls:
        """``team``'s walls on ``board``; ``dead``: a mask of cells colored since (their
        dots count for nothing)."""
        geometry = _geometry(board.size)
        bits, cells = geometry.bits, board.cells
        walls = sum(bits[key] for key, owner in enumerate(cells) if owner == team)
        colored = sum(bits[key] for key, owner in enumerate(cells) if owner == BLOCKED)
        return cls(geometry, walls & ~dead, colored | dead)

    def with_walls(self, keys: Iterable[int]) -> int:
        """The walls with dots on ``keys`` added."""
        bits = self.geometry.bits
        return self.walls | sum(bits[key] for key in keys)

    def enclosed(self, walls: int | None = None) -> int:
        """The mask of the uncolored cells that ``walls`` (by default the team's own) enclose,
        their own cells included when off the edge with no side reached from outside."""
        geometry = self.geometry
        walls = self.walls if walls is None else walls
        width, cells = geometry.width, geometry.cells
        open_cells = cells & ~walls
        reached = open_cells & geometry.edge
        while True:
            grown = (
                reached | reached << 1 | reached >> 1 | reached << width | reached >> width
            ) & open_cells
            if grown == reached:
                break
            reached = grown
        beside_reached = reached << 1 | reached >> 1 | reached << width | reached >> width
        walled_in = walls & ~geometry.edge & ~beside_reached
        return cells & ~reached & ~self.colored & (~walls | walled_in)

    def gain(self, keys: Iterable[int]) -> int:
        """How many cells dots on ``keys`` would newly color."""
        return self.enclosed(self.with_walls(keys)).bit_count() - self.inside

    def colors_own_dots(self, keys: Iterable[int]) -> bool:
        """Whether dots on ``keys`` would color a cell holding one of the team's dots."""
        walls = self.with_walls(keys)
        return bool(self.enclosed(walls) & ~self.enclosed() & self.walls)

    def may_close(self, key: int, also: int = -1) -> bool:
        """Whether a dot on ``key`` (with one on ``also``) could color a cell: its open
        neighbours split into separate arcs, or a wall's four sides would all be walls
        (or colored cells)."""
        geometry = self.geometry
        bits = geometry.bits
        walls = self.walls | (bits[also] if also >= 0 else 0) | bits[key]
        closed = sum(position for position, near in geometry.rings[key] if walls & near)
        if _ring_splits(closed):
            return True
        # A colored cell beside a wall may be a sealed one of the team's own: it counts
        # as closed; a wall on the edge is never boxed in.
        sealed = walls | self.colored
        return any(
            walls & bits[near] and geometry.sides[near] and not geometry.sides[near] & ~sealed
            for near in geometry.crosses[key]
        )


def closings(
    walls: Walls, board: LineBoard, taken: Iterable[int] = (), around: Iterable[int] = ()
) -> Iterator[tuple[tuple[int, ...], int]]:
    """The single dots, then the pairs, on open points of ``board`` (not ``taken``) that
    would color cells for the team of ``walls``, with the cells each colors; given
    ``around``, only dots within :data:`AROUND_REACH` steps of one of those points.

    A dot colors a cell only where :meth:`Walls.may_close` allows it, beside the team's
    walls; two dots far apart must each be such a point on their own.
    """
    size = board.size
    skip = set(taken)
    near = [
        key for key in _beside_walls(walls, board) if key not in skip and board.cells[key] == EMPTY
    ]
    centres = [(key % size, key // size) for key in around]
    if centres:
        near = [key for key in near if _within(key, size, centres)]
    alone = {key: walls.may_close(key) for key in near}
    singles: dict[int, int] = {}
    for key in near:
        if alone[key]:
            gained = walls.gain((key,))
            if gained > 0:
                singles[key] = gained
                yield (key,), gained
    for first, second in combinations(near, 2):
        apart = max(abs(first % size - second % size), abs(first // size - second // size))
        if apart <= 2:  # each may be a side of a wall the other boxes in
            if not (walls.may_close(first, second) and walls.may_close(second, first)):
                continue
        elif not (alone[first] and alone[second]):
            continue
        gained = walls.gain((first, second))
        if gained > max(singles.get(first, 0), singles.get(second, 0)):
            yield (first, second), gained


def _within(key: int, size: int, centres: list[tuple[int, int]]) -> bool:
    col, row = key % size, key // size
    return any(
        max(abs(col - centre_col), abs(row - centre_row)) <= AROUND_REACH
        for centre_col, centre_row in centres
    )


def _beside_walls(walls: Walls, board: LineBoard) -> list[int]:
    """The points touching a wall of ``walls``, in key order."""
    size, bits = board.size, walls.geometry.bits
    found = set()
    for key in range(size * size):
        if not walls.walls & bits[key]:
            continue
        col, row = key % size, key // size
        for dc, dr in _RING:
            if 0 <= col + dc < size and 0 <= row + dr < size:
                found.add((row + dr) * size + col + dc)
    return sorted(found)


def best_closings(
    walls: Walls, board: LineBoard, taken: Iterable[int] = ()
) -> list[tuple[tuple[int, ...], int]]:
    """The :data:`MOST_CLOSINGS` closings that color most, most first."""
    found = sorted(closings(walls, board, taken), key=lambda item: (-item[1], item[0]))
    return found[:MOST_CLOSINGS]


class EnclosureReading:
    """Weighs pairs of the team to move by the race to six colored cells, two turns deep.

    For a pair: the cells it colors now; then the other team's best turn, which may
    color cells of its own and take the points where we would close next (it has two
    dots for both); then what we would still color with the turn after. A sixth cell
    colored on either side counts as :data:`RACE_WORTH` more. A colored cell takes the
    lines through it out of play (:func:`lines_colored`), and a dot of the pair on a cell
    the other team then colors is dead: its lines, which the look ahead counts, are lost.
    """

    def __init__(self, board: LineBoard, team: int, colored: tuple[int, int]) -> None:
        self.board = board
        self.team = team
        self.colored = colored
        self.own = Walls.of(board, team)
        self.theirs = Walls.of(board, 1 - team)
        self.their_closings = best_closings(self.theirs, board)

    def bonus(self, pairs: list[tuple[int, ...]], deadline: float) -> dict[tuple[int, ...], float]:
        """What each of ``pairs`` is worth besides its lines, read in order until
        ``deadline`` (:func:`time.perf_counter`); the pairs left count what they color now."""
        bonus = {}
        for pair in pairs:
            if time.perf_counter() > deadline:
                bonus[pair] = ENCLOSURE_WORTH * self.own.gain(pair)
            else:
                bonus[pair] = self.value(pair)
        return bonus

    def value(self, pair: tuple[int, ...]) -> float:
        """What ``pair`` of the team to move gains in the enclosure race."""
        own = self.own
        walls = own.with_walls(pair)
        newly = own.enclosed(walls) & ~own.enclosed()
        now = newly.bit_count()
        mine = self.colored[self.team] + now
        if mine >= COLORED_TO_WIN:
            return ENCLOSURE_WORTH * now + RACE_WORTH
        lines = lines_colored(self.board, self.team, newly) if newly else 0.0
        theirs = self.their_closings
        if newly:  # their dots on the cells we color die: their closings change
            theirs = best_closings(Walls.of(self.board, 1 - self.team, newly), self.board, pair)
        else:
            theirs = [(keys, gain) for keys, gain in theirs if not set(keys) & set(pair)]
        after = Walls(own.geometry, walls, own.colored | newly)
        ours_next = best_closings(after, self.board, pair)
        closing = [(keys, gain, self._lines_lost(pair, keys)) for keys, gain in theirs]
        their_turn = _their_best_turn(closing, ours_next, self.colored[1 - self.team], mine)
        return ENCLOSURE_WORTH * now + lines - their_turn

    def _lines_lost(self, pair: tuple[int, ...], their_keys: tuple[int, ...]) -> float:
        """The line value of the dots of ``pair`` that the other team's dots on
        ``their_keys`` would color."""
        theirs, bits = self.theirs, self.theirs.geometry.bits
        colored = theirs.enclosed(theirs.with_walls(their_keys))
        inside = [key for key in pair if colored & bits[key]]
        if not inside:
            return 0.0
        return sum(point_values(self.board, self.team, inside).values())


def lines_colored(board: LineBoard, team: int, cells: int) -> float:
    """What coloring ``cells`` (a mask) does to ``team``'s pattern score: every window
    through them goes out of play, its own lines with the other team's, and the dots
    on them with it."""
    bits = _geometry(board.size).bits
    mine, theirs, blocked = board.counts[team], board.counts[1 - team], board.blocked
    windows = {
        window
        for key in range(board.size**2)
        if cells & bits[key]
        for window in board.geometry.through[key]
        if not blocked[window]
    }
    change = 0.0
    worth = board.valuation.worth
    for window in windows:
        if not theirs[window]:
            change -= worth[mine[window]]
        elif not mine[window]:
            change += worth[theirs[window]]
    return change


def colors_own_dots(board: LineBoard, team: int, pair: tuple[int, ...]) -> bool:
    """Whether ``team``'s dots on ``pair`` would color a cell holding one of its own dots,
    killing it: a line through it that a search counted on is gone."""
    return Walls.of(board, team).colors_own_dots(pair)


def _their_best_turn(
    theirs: list[tuple[tuple[int, ...], int, float]],
    ours_next: list[tuple[tuple[int, ...], int]],
    their_colored: int,
    our_colored: int,
) -> float:
    """What the other team's best two dots are worth to it against us: cells it colors,
    less what we still color the turn after (a sixth cell on either side counting as the
    race); the two dots may close a polygonal of its own and take our closing points.
    ``theirs``: its closings, the cells each colors and the line value it kills of ours."""
    our_points = sorted({key for keys, _ in ours_next for key in keys})
    turns: list[tuple[int, ...]] = [()]
    for keys, _, _ in theirs:
        turns.append(keys)
        if len(keys) == 1:
            turns.extend((keys[0], point) for point in our_points if point != keys[0])
    turns.extend((point,) for point in our_points)
    turns.extend(combinations(our_points, 2))
    best = -float(RACE_WORTH) * 2
    for turn in turns:
        taken = set(turn)
        closed = [(gain, lost) for keys, gain, lost in theirs if taken.issuperset(keys)]
        gained, lost = max(closed, default=(0, 0.0))
        if their_colored + gained >= COLORED_TO_WIN:
            return ENCLOSURE_WORTH * gained + RACE_WORTH
        kept = max((gain for keys, gain in ours_next if not taken & set(keys)), default=0)
        worth = ENCLOSURE_WORTH * (gained - KEPT_SHARE * kept) + lost
        if our_colored + kept >= COLORED_TO_WIN:
            worth -= KEPT_SHARE * RACE_WORTH
        best = max(best, worth)
    return best


def race_pairs(
    board: LineBoard,
    team: int,
    pairs: list[tuple[int, ...]],
    most: int,
    beside_blocks: bool = False,
) -> list[tuple[int, ...]]:
    """``pairs`` (best first, not empty) with at most ``most`` pairs of the enclosure
    race after the first: those that close the team's best polygonals, and those that
    take the points where the other team would close its own, alone or beside ``pairs``'
    first; none that colors a cell holding one of the team's dots, whose lines the look
    ahead counts on, unless all do. While the other team threatens six only blocking
    pairs count: none of the race, or with ``beside_blocks`` those whose other dot
    takes a race point beside a point that stops every threat alone."""
    own = Walls.of(board, team)
    alive = [pair for pair in pairs if not own.colors_own_dots(pair)] or pairs
    threatened = bool(board.threats[1 - team])
    if threatened and not beside_blocks:
        return alive
    theirs = best_closings(Walls.of(board, 1 - team), board)[:RACE_CLOSINGS]
    points = list(dict.fromkeys(key for keys, _ in theirs for key in keys))
    racing: list[tuple[int, ...]] = []
    if threatened:
        blocks = [block[0] for block in board.blocking_sets(1 - team) if len(block) == 1]
        ours = [keys for keys, _ in best_closings(own, board)[:RACE_CLOSINGS] if len(keys) == 1]
        # Their single dots that close come first: those close with their next dot.
        breaking = [keys[0] for keys, _ in theirs if len(keys) == 1]
        breaking += [point for point in points if point not in breaking]
        for block in blocks:
            for keys in [*ours, *((point,) for point in breaking)]:
                racing.extend(_with_partners(keys, (block,)))
    else:
        partners = alive[0]
        for keys, _ in best_closings(own, board)[:RACE_CLOSINGS]:
            racing.extend(_with_partners(keys, partners))
        racing.extend(tuple(sorted(pair)) for pair in combinations(points, 2))
        for point in points:
            racing.extend(_with_partners((point,), partners))
    racing = [pair for pair in dict.fromkeys(racing) if not own.colors_own_dots(pair)][:most]
    return list(dict.fromkeys([alive[0], *racing, *alive]))


def _with_partners(keys: tuple[int, ...], partners: tuple[int, ...]) -> list[tuple[int, ...]]:
    """``keys`` as pairs: a pair itself, a single dot with each of ``partners``."""
    if len(keys) == 2:
        return [keys]
    return [tuple(sorted((keys[0], partner))) for partner in partners if partner != keys[0]]
