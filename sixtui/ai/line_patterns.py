"""Lines of a Connect6 or Game of 6 board read as windows, kept up to date stone by stone.

A *window* is a stretch of six points along a row, a column or a diagonal.
Six stones of one team in a window win. A window that holds stones of one
team only is that team's *chance*; one with four or five of them is a
*threat*: the other team must put a stone in it this turn or lose.

:class:`LineBoard` counts each window's stones as stones are placed and
taken back, so that the threats, the stones needed to stop them, and a
pattern score of the whole board are read without scanning the board.

>>> board = LineBoard(9)
>>> for point in ["A1", "B1", "C1", "D1"]:
...     board.play(board.key(point), 0)
>>> board.stones_to_stop(0)  # E1 meets the only threat
1
>>> for point in ["A3", "A4", "A5"]:
...     board.play(board.key(point), 0)
>>> board.stones_to_stop(0)  # E1, and A2 or A6
2
>>> board.play(board.key("A6"), 0)
>>> board.stones_to_stop(0)  # E1, A2 and A7: a turn's two stones cannot stop both lines
3
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from operator import itemgetter

from sixtui.rules import Game, Square

RUN = 6
EMPTY = -1
BLOCKED = -2  # a colored cell or a dead dot: out of play for both teams
THREAT = 4  # stones of one team in a clean window that make it a threat
STOPS_ALL_HOPE = 3  # stones needed to stop every threat: more than a turn has


@dataclass(frozen=True, slots=True)
class Valuation:
    """What a clean window is worth to a team by the stones it holds there, and the
    tables that follow from it, read by the board and the searches on it.

    >>> LINES.build[2], LINES.spoil[2]  # a third stone in a window of two; a stone in theirs
    (34, 20.0)
    """

    worth: tuple[int, ...]
    """A clean window holding this many stones of one team is worth this much to it."""
    build: tuple[int, ...]
    """What one more stone adds to a clean window of a team holding this many of its stones."""
    spoil: tuple[float, ...]
    """What a stone takes from the other team in a window holding this many of its stones:
    half of what the window is worth with one stone more, as the other team, two stones a
    turn, would soon make of it; stopping lines early is what holds off threat wins."""
    stone_worth: tuple[tuple[float, ...], ...]
    """What a stone adds to a window holding this many of its team's stones and this many
    of the other team's: ``build`` in its own clean window, ``spoil`` in the other team's."""
    turn_worth: tuple[int, ...]
    """A clean window's worth to the turn about to be played (the look ahead's tempo): a
    four or five made then is a threat the other team stops at once, which a valuation
    may count for little more than a three."""
    stone_gain: tuple[tuple[float, ...], ...]
    """What the turn's stone gains at once, by ``turn_worth`` in its own clean window; the
    other team's window it closes counts its whole worth, and no more."""

    @classmethod
    def of(cls, worth: tuple[int, ...], turn_worth: tuple[int, ...] | None = None) -> Valuation:
        """The tables of ``worth``, and of ``turn_worth`` (by default ``worth``)."""
        turn_worth = worth if turn_worth is None else turn_worth
        build = tuple(worth[count + 1] - worth[count] for count in range(RUN))
        spoil = tuple(0.0 if count == 0 else 0.5 * worth[count + 1] for count in range(RUN))
        turn_build = tuple(turn_worth[count + 1] - turn_worth[count] for count in range(RUN))
        return cls(
            worth=worth,
            build=build,
            spoil=spoil,
            stone_worth=_by_stones(build, spoil),
            turn_worth=turn_worth,
            stone_gain=_by_stones(turn_build, worth),
        )


def _by_stones(own: tuple[float, ...], theirs: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """What a stone adds to a window by its team's stones and the other team's there:
    ``own`` in its own clean window, ``theirs`` in the other team's, nothing where both are."""
    return tuple(
        tuple(own[mine] if not other else 0.0 if mine else theirs[other] for other in range(RUN))
        for mine in range(RUN)
    )


# Steep, so that one threat outweighs many loose stones.
LINES = Valuation.of((0, 1, 6, 40, 400, 1600, 100_000))
# Attacks grow from twos spread over many lines, each a turn from a threat: windows of two
# count twice as much, and the turn to come gains little more by a four than by a three.
ATTACKING = Valuation.of((0, 1, 12, 40, 400, 1600, 100_000), turn_worth=(0, 1, 12, 40, 60, 60, 60))

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
# From this many points on, valuing every window of the board once is cheaper than
# valuing each point's windows.
MANY_POINTS = 40


@dataclass(frozen=True, slots=True)
class Windows:
    """The windows of one board size: their points, and the windows through each point."""

    size: int
    points: tuple[tuple[int, ...], ...]  # window → its six keys
    through: tuple[tuple[int, ...], ...]  # key → the windows through it
    zobrist: tuple[tuple[int, int], ...]  # key → a random number per team


@cache
def windows_of(size: int) -> Windows:
    """Every window of a ``size`` board; keys are ``row * size + col``.

    >>> len(windows_of(6).points)  # 6 rows, 6 columns and 2 diagonals
    14
    """
    windows = [
        tuple((row + k * dr) * size + col + k * dc for k in range(RUN))
        for dc, dr in _DIRECTIONS
        for row in range(size)
        for col in range(size)
        if 0 <= col + (RUN - 1) * dc < size and 0 <= row + (RUN - 1) * dr < size
    ]
    through: list[list[int]] = [[] for _ in range(size * size)]
    for window, keys in enumerate(windows):
        for key in keys:
            through[key].append(window)
    rng = random.Random(size)  # fixed, so that hashes repeat from run to run
    return Windows(
        size=size,
        points=tuple(windows),
        through=tuple(tuple(found) for found in through),
        zobrist=tuple((rng.getrandbits(64), rng.getrandbits(64)) for _ in range(size * size)),
    )


class LineBoard:
    """Stones on a square board, with the stones of each team counted per window.

    ``worth[team]`` adds up what its ``valuation`` says the team's clean windows are
    worth (a team's pattern score is its worth less the other's). ``hash`` is a
    Zobrist hash of the stones.
    """

    def __init__(self, size: int, valuation: Valuation = LINES) -> None:
        self.size = size
        self.valuation = valuation
        self.geometry = geometry = windows_of(size)
        self.cells = [EMPTY] * (size * size)
        count = len(geometry.points)
        self.counts = ([0] * count, [0] * count)
        self.blocked = [0] * count
        self.threats: tuple[set[int], set[int]] = (set(), set())
        self.chances: tuple[set[int], set[int]] = (set(), set())  # clean, 2 stones or more
        self.worth = [0, 0]
        self.hash = 0
        self.stones = 0
        self.played = 0  # stones ever put down: the positions a search visited
        self.occupied = [0, 0]  # each team's stones, one bit a key
        self.filled = 0  # every point taken, stones and blocked points, one bit a key
        self.blocks = 0  # points blocked

    @classmethod
    def from_game(cls, game: Game, valuation: Valuation = LINES) -> LineBoard:
        """The live stones of ``game``; colored cells (and the dots on them) block lines."""
        size: int = game.size  # type: ignore[attr-defined]
        board = cls(size, valuation)
        for square, team in game.layout().items():  # type: ignore[attr-defined]
            if game.colored(square) is None:  # type: ignore[attr-defined]
                board.play(square.row * size + square.col, team)
        for square in game.colored_cells():  # type: ignore[attr-defined]
            board.block(square.row * size + square.col)
        return board

    def key(self, point: str | Square) -> int:
        """The key of a point given as notation or :class:`Square`."""
        square = point if isinstance(point, Square) else Square.parse(point)
        return square.row * self.size + square.col

    def square(self, key: int) -> Square:
        return Square(key % self.size, key // self.size)

    # -- changing the board ----------------------------------------------------------

    def play(self, key: int, team: int) -> None:
        """Puts a stone of ``team`` on the empty point ``key``."""
        self.cells[key] = team
        self.hash ^= self.geometry.zobrist[key][team]
        self.stones += 1
        self.played += 1
        bit = 1 << key
        self.occupied[team] |= bit
        self.filled |= bit
        other_team = 1 - team
        mine, theirs, blocked = self.counts[team], self.counts[other_team], self.blocked
        threats, chances = self.threats[team], self.chances[team]
        their_threats, their_chances = self.threats[other_team], self.chances[other_team]
        worth, build, blocks = self.valuation.worth, self.valuation.build, self.blocks
        gained = lost = 0
        for window in self.geometry.through[key]:
            before = mine[window]
            mine[window] = before + 1
            if blocks and blocked[window]:
                continue
            other = theirs[window]
            if other:
                if not before:  # the window was the other team's chance: no more
                    lost += worth[other]
                    if other >= 2:
                        their_chances.discard(window)
                        if other >= THREAT:
                            their_threats.discard(window)
                continue
            gained += build[before]
            if before == 1:
                chances.add(window)
            elif before == THREAT - 1:
                threats.add(window)
        self.worth[team] += gained
        self.worth[other_team] -= lost

    def undo(self, key: int) -> None:
        """Takes back the stone on ``key``."""
        team = self.cells[key]
        self.cells[key] = EMPTY
        self.hash ^= self.geometry.zobrist[key][team]
        self.stones -= 1
        bit = 1 << key
        self.occupied[team] ^= bit
        self.filled ^= bit
        other_team = 1 - team
        mine, theirs, blocked = self.counts[team], self.counts[other_team], self.blocked
        threats, chances = self.threats[team], self.chances[team]
        their_threats, their_chances = self.threats[other_team], self.chances[other_team]
        worth, build, blocks = self.valuation.worth, self.valuation.build, self.blocks
        lost = regained = 0
        for window in self.geometry.through[key]:
            before = mine[window]
            mine[window] = before - 1
            if blocks and blocked[window]:
                continue
            other = theirs[window]
            if other:
                if before == 1:  # the window is the other team's chance again
                    regained += worth[other]
                    if other >= 2:
                        their_chances.add(window)
                        if other >= THREAT:
                            their_threats.add(window)
                continue
            lost += build[before - 1]
            if before == 2:
                chances.discard(window)
            elif before == THREAT:
                threats.discard(window)
        self.worth[team] -= lost
        self.worth[other_team] += regained

    def block(self, key: int) -> None:
        """Takes the empty point ``key`` out of play (a colored cell)."""
        self.cells[key] = BLOCKED
        self.filled |= 1 << key
        self.blocks += 1
        for window in self.geometry.through[key]:
            if not self.blocked[window]:
                black, white = self.counts[0][window], self.counts[1][window]
                if not (black and white):
                    self.worth[0] -= self.valuation.worth[black]
                    self.worth[1] -= self.valuation.worth[white]
            self.blocked[window] += 1
            for found in (*self.threats, *self.chances):
                found.discard(window)

    # -- reading it ------------------------------------------------------------------

    def empties(self, window: int) -> list[int]:
        cells = self.cells
        return [key for key in self.geometry.points[window] if cells[key] == EMPTY]

    def is_empty(self, key: int) -> bool:
        return self.cells[key] == EMPTY

    def winning_stones(self, team: int, stones: int) -> list[int] | None:
        """Points that make six for ``team`` with at most ``stones`` stones, if any.

        >>> board = LineBoard(9)
        >>> for col in range(4):
        ...     board.play(col, 0)
        >>> [str(board.square(key)) for key in board.winning_stones(0, 2)]
        ['E1', 'F1']
        """
        best: list[int] | None = None
        for window in self.threats[team]:
            missing = self.empties(window)
            if len(missing) <= stones and (best is None or len(missing) < len(best)):
                best = missing
        return best

    def threat_cells(self, team: int) -> list[list[int]]:
        """The open points of each of ``team``'s threat windows."""
        return [self.empties(window) for window in self.threats[team]]

    def stones_to_stop(self, team: int) -> int:
        """How many stones the other team needs to meet every threat of ``team``
        (0 to 2, or :data:`STOPS_ALL_HOPE` when two are not enough)."""
        blockers = fewest_blockers(self.threat_cells(team))
        return STOPS_ALL_HOPE if blockers is None else len(blockers)

    def blocking_sets(self, team: int) -> list[tuple[int, ...]]:
        """Every set of at most two points that meets all of ``team``'s threats
        (one point, or two points of which neither alone does); none when two
        points are not enough."""
        windows = self.threat_cells(team)
        cells = sorted({key for window in windows for key in window})
        singles = [(key,) for key in cells if all(key in window for window in windows)]
        if singles:
            return singles
        return [
            pair
            for pair in combinations(cells, 2)
            if all(pair[0] in window or pair[1] in window for window in windows)
        ]

    def chance_cells(self, team: int, least: int = 2) -> set[int]:
        """Open points of ``team``'s clean windows holding at least ``least`` stones."""
        counts, cells, points = self.counts[team], self.cells, self.geometry.points
        return {
            key
            for window in self.chances[team]
            if counts[window] >= least
            for key in points[window]
            if cells[key] == EMPTY
        }

    def near(self, reach: int, team: int | None = None) -> Iterator[int]:
        """Open points within ``reach`` steps of a stone (of ``team``, or of either),
        in key order."""
        stones = self.occupied[0] | self.occupied[1] if team is None else self.occupied[team]
        size = self.size
        # Spread the stones ``reach`` columns each way (a shift crossing a row's edge
        # lands on a column the mask drops), then ``reach`` rows each way.
        spread = stones
        for step, (rightwards, leftwards) in enumerate(_column_masks(size, reach), start=1):
            spread |= (stones << step) & rightwards | (stones >> step) & leftwards
        wide = spread
        for step in range(size, (reach + 1) * size, size):
            spread |= wide << step | wide >> step
        return iter(keys_of(spread & ~self.filled & _everywhere(size), size))


@cache
def _column_masks(size: int, reach: int) -> tuple[tuple[int, int], ...]:
    """For each step of 1 to ``reach``, the points a ``size`` board keeps after a shift by
    that many columns to the right (every column from the step on) and to the left
    (every column short of the last ``step``): one bit a key."""

    def columns(first: int, last: int) -> int:
        return sum(1 << (row * size + col) for row in range(size) for col in range(first, last))

    return tuple((columns(step, size), columns(0, size - step)) for step in range(1, reach + 1))


@cache
def _everywhere(size: int) -> int:
    return (1 << size * size) - 1


def keys_of(bits: int, size: int) -> list[int]:
    """The keys of a ``size`` board whose bits are set, in key order.

    >>> keys_of(0b1010_0000_0001, 6)
    [0, 9, 11]
    """
    table = _byte_keys(size)
    keys: list[int] = []
    for at, byte in enumerate(bits.to_bytes(len(table), "little")):
        if byte:
            keys.extend(table[at][byte])
    return keys


@cache
def _byte_keys(size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each byte of a ``size`` board's bits and each value of it, the keys it sets."""
    return tuple(
        tuple(tuple(at * 8 + bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
        for at in range((size * size + 7) // 8)
    )


@cache
def _window_getters(size: int) -> tuple[itemgetter[int], ...]:
    """For each key of a ``size`` board, what reads the items of its windows from a list
    indexed by window (every point lies in two windows or more)."""
    return tuple(itemgetter(*windows) for windows in windows_of(size).through)


@cache
def _squares_around(size: int, reach: int) -> tuple[tuple[int, ...], ...]:
    """For each key of a ``size`` board, the keys within ``reach`` steps of it."""
    return tuple(
        tuple(
            r * size + c
            for r in range(max(0, row - reach), min(size, row + reach + 1))
            for c in range(max(0, col - reach), min(size, col + reach + 1))
        )
        for row in range(size)
        for col in range(size)
    )


def point_values(
    board: LineBoard, team: int, keys: Iterable[int], valuation: Valuation | None = None
) -> dict[int, float]:
    """What a stone of ``team`` on each of ``keys`` adds to its lines and takes from
    the other team's by ``valuation`` (by default the board's), read from the window counts
    without playing it.

    >>> board = LineBoard(9)
    >>> board.play(board.key("E5"), 1)
    >>> values = point_values(board, 0, [board.key("D5"), board.key("A1")])
    >>> values[board.key("D5")] > values[board.key("A1")]
    True
    """
    keys = list(keys)
    mine, theirs = board.counts[team], board.counts[1 - team]
    blocked, through = board.blocked, board.geometry.through
    valuation = board.valuation if valuation is None else valuation
    build, spoil = valuation.build, valuation.spoil
    if len(keys) >= MANY_POINTS:
        # Each window is shared by up to six of many points: value every window once.
        if board.blocks:
            windows = [
                0.0 if closed else build[own] if not other else 0.0 if own else spoil[other]
                for own, other, closed in zip(mine, theirs, blocked, strict=True)
            ]
        else:
            worth = valuation.stone_worth
            windows = [worth[own][other] for own, other in zip(mine, theirs, strict=True)]
        getters = _window_getters(board.size)
        return {key: sum(getters[key](windows), 0.0) for key in keys}
    if not board.blocks:
        worth = valuation.stone_worth
        return {
            key: sum([worth[mine[window]][theirs[window]] for window in through[key]], 0.0)
            for key in keys
        }
    values = {}
    for key in keys:
        value = 0.0
        for window in through[key]:
            if blocked[window]:
                continue
            other = theirs[window]
            if not other:
                value += build[mine[window]]
            elif not mine[window]:
                value += spoil[other]
        values[key] = value
    return values


def line_partners(board: LineBoard, team: int, first: int) -> list[int]:
    """Open points sharing with ``first`` a clean window holding two or more of ``team``'s
    stones: where a second stone makes a line with it."""
    mine, theirs, blocked = board.counts[team], board.counts[1 - team], board.blocked
    partners = set()
    for window in board.geometry.through[first]:
        if mine[window] >= 2 and not theirs[window] and not blocked[window]:
            partners.update(board.empties(window))
    partners.discard(first)
    return sorted(partners)


def point_gains(board: LineBoard, team: int, keys: Iterable[int]) -> dict[int, float]:
    """What a stone of ``team`` on each of ``keys`` gains for the turn about to be played:
    what it builds in its own clean windows by the valuation's ``turn_worth``, and the
    whole worth of the other team's windows it closes, where :func:`point_values` counts
    what those windows would soon become. By :data:`LINES`, what the pattern score gains.

    >>> board = LineBoard(9)
    >>> for point in ["C3", "D3", "E3"]:
    ...     board.play(board.key(point), 1)
    >>> key = board.key("F3")
    >>> before = board.worth[0] - board.worth[1]
    >>> gain = point_gains(board, 0, [key])[key]
    >>> board.play(key, 0)
    >>> gain == board.worth[0] - board.worth[1] - before
    True
    """
    mine, theirs = board.counts[team], board.counts[1 - team]
    worth = board.valuation.stone_gain
    if board.blocks:
        blocked = board.blocked
        windows = [
            0.0 if closed else worth[own][other]
            for own, other, closed in zip(mine, theirs, blocked, strict=True)
        ]
    else:
        windows = [worth[own][other] for own, other in zip(mine, theirs, strict=True)]
    getters = _window_getters(board.size)
    return {key: sum(getters[key](windows), 0.0) for key in keys}


def fewest_blockers(windows: Iterable[list[int]]) -> tuple[int, ...] | None:
    """The fewest points (at most two) meeting every window, or ``None`` if two do not."""
    windows = list(windows)
    if not windows:
        return ()
    cells = sorted({key for window in windows for key in window})
    for count in (1, 2):
        for picked in combinations(cells, count):
            if all(any(key in window for key in picked) for window in windows):
                return picked
    return None
