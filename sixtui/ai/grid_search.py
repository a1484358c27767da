"""Looking ahead turn by turn in Connect6 and Game of 6: an alpha-beta search over pairs.

Each ply is a whole turn of two stones. The pairs tried at a node come from the
points that matter most to the side to move, read straight from the window
counts of :class:`~sixtui.ai.line_patterns.LineBoard`: what a stone there adds
to its own lines and takes from the other team's. When the other team has a
threat, only the pairs that meet every threat are tried: nothing else keeps the
game going.

A position is judged by who can act on it: the side to move wins at once when
it has a threat (it makes six), and loses when the other team's threats need
more stones than a turn has; otherwise by the pattern score of the board. A
search may also take a side to move that can make threats two stones cannot
stop for a win, and count for it, in the last positions it looks at, its best
pair: the turn it is about to play.

>>> import time
>>> board = LineBoard(9)
>>> for point in ["C3", "D3", "E3", "C5", "D5", "E5"]:
...     board.play(board.key(point), 0)
>>> search = PairSearch(board, width=(8, 6), deadline=time.perf_counter() + 5)
>>> value, pair = search.rank(team=0, pairs=candidate_pairs(board, 0, 8), depth=2)[0]
>>> value > WIN // 2  # a four on each line: White cannot stop both
True
>>> board.stones_to_stop(0), [str(board.square(key)) for key in pair]
(0, ['F3', 'F5'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from itertools import combinations
from operator import itemgetter

from sixtui.ai.grid_allowance import Allowance
from sixtui.ai.line_patterns import (
    STOPS_ALL_HOPE,
    LineBoard,
    Valuation,
    line_partners,
    point_gains,
    point_values,
    windows_of,
)
from sixtui.ai.threat_search import double_threat

WIN = 1_000_000_000  # a won position; wins sooner score a little higher
PARTNERS = 3  # second stones tried beside each first stone, past the best points
FORCED_EXTENSION = 2  # turns searched past the last while the side to move must stop threats
TEMPO_POINTS = 4  # best points whose pairs a leaf weighs for the turn to come


class OutOfTime(Exception):
    """The search met its deadline."""


@cache
def _shared_windows(size: int) -> tuple[dict[int, tuple[int, ...]], ...]:
    """For each point, the points sharing a window with it, and those windows."""
    geometry = windows_of(size)
    shared: list[dict[int, list[int]]] = [{} for _ in range(size * size)]
    for key, windows in enumerate(geometry.through):
        for window in windows:
            for other in geometry.points[window]:
                if other != key:
                    shared[key].setdefault(other, []).append(window)
    return tuple({other: tuple(found) for other, found in near.items()} for near in shared)


def _ranked_values(
    board: LineBoard, team: int, valuation: Valuation
) -> tuple[list[int], dict[int, float]]:
    """The open points near the stones, best first for ``team`` by ``valuation``, and their
    values (the middle alone on an empty board)."""
    if board.stones == 0:
        middle = board.size // 2 * (board.size + 1)
        return [middle], {middle: 0.0}
    values = point_values(board, team, board.near(2), valuation)
    # The values come in key order and the sort keeps it among equals: best first,
    # then the lowest key.
    return sorted(values, key=values.__getitem__, reverse=True), values


def pair_value(
    board: LineBoard,
    team: int,
    values: dict[int, float],
    pair: tuple[int, ...],
    spoil: tuple[float, ...] | None = None,
    worth: tuple[int, ...] | None = None,
) -> float:
    """What ``pair`` adds for ``team``: its points' :func:`point_values`, corrected for
    the windows holding both, where two stones build more, or spoil no more, than one
    (``spoil``, by the other team's stones in the window: what each point's value counts
    for closing it; ``worth``, what a clean window is worth by its stones; by default, both
    of the board's valuation).

    >>> board = LineBoard(9)
    >>> for point in ["C3", "D3"]:
    ...     board.play(board.key(point), 0)
    >>> pair = (board.key("E3"), board.key("F3"))
    >>> value = pair_value(board, 0, point_values(board, 0, pair), pair)
    >>> before = board.worth[0]
    >>> board.play(pair[0], 0); board.play(pair[1], 0)
    >>> value == board.worth[0] - before
    True
    """
    first, second = pair
    value = values[first] + values[second]
    mine, theirs, blocked = board.counts[team], board.counts[1 - team], board.blocked
    spoil = board.valuation.spoil if spoil is None else spoil
    worth = board.valuation.worth if worth is None else worth
    for window in _shared_windows(board.size)[first].get(second, ()):
        if blocked[window]:
            continue
        other = theirs[window]
        if not other:
            count = mine[window]
            value += worth[count + 2] - 2 * worth[count + 1] + worth[count]
        elif not mine[window]:
            value -= spoil[other]
    return value


def best_pair_gain(board: LineBoard, team: int) -> float:
    """What ``team``'s best pair gains at once (by the valuation's ``turn_worth``), among
    the pairs of its :data:`TEMPO_POINTS` best points next to the stones
    (:func:`point_gains`): the turn it is about to play. Two stones in one line build far
    more than apart, which the best points alone miss: a three grows to a threat with one
    stone, to two with two.

    >>> board = LineBoard(9)
    >>> for point in ["C3", "D3", "E3"]:
    ...     board.play(board.key(point), 0)
    >>> before = board.worth[0]
    >>> gain = best_pair_gain(board, 0)
    >>> board.play(board.key("B3"), 0); board.play(board.key("F3"), 0)
    >>> gain == board.worth[0] - before  # two threats: more than B3 and F3 gain apart
    True

    Attacking, the turn counts those threats for little more than the three was worth:
    the other team stops them at once.

    >>> from sixtui.ai.line_patterns import ATTACKING
    >>> attacking = LineBoard(9, ATTACKING)
    >>> for point in ["C3", "D3", "E3"]:
    ...     attacking.play(attacking.key(point), 0)
    >>> best_pair_gain(attacking, 0) < gain / 10
    True
    """
    gains = point_gains(board, team, board.near(1))
    best = sorted(gains, key=gains.__getitem__, reverse=True)[:TEMPO_POINTS]
    pairs = combinations(sorted(best), 2)
    valuation = board.valuation
    return max(
        (
            pair_value(board, team, gains, pair, valuation.worth, valuation.turn_worth)
            for pair in pairs
        ),
        default=0.0,
    )


def candidate_pairs(
    board: LineBoard,
    team: int,
    width: int,
    extra: Iterable[int] = (),
    valuation: Valuation | None = None,
    building: int = 0,
) -> list[tuple[int, ...]]:
    """The pairs worth trying for ``team``, best-valued first (:func:`pair_value`, by
    ``valuation``, by default the board's).

    With the other team threatening, the pairs that meet all its threats (when
    two stones cannot, any two of its points, to delay): a stone that meets them all
    goes with each of the ``width`` best points, or the ``building`` best when more,
    since a block's free stone may make a line with it that neither makes alone.
    Otherwise each of the ``width`` best points (and ``extra`` ones) with the best
    points and with the points that share a line of its own with it, where two
    stones together make more than apart; and the pairs of the ``building`` best
    points that share a window holding a stone of its own (:func:`building_pairs`).
    """
    other = 1 - team
    valuation = board.valuation if valuation is None else valuation
    everything, values = _ranked_values(board, team, valuation)
    ranked = everything[:width]
    if board.threats[other]:
        pairs = _blocking_pairs(board, other, everything[: max(width, building)])
    else:
        firsts = list(dict.fromkeys([*ranked, *extra]))
        pairs = set()
        for first in firsts:
            seconds = ranked[:PARTNERS] + line_partners(board, team, first)
            pairs.update(
                (first, second) if first < second else (second, first)
                for second in seconds
                if second != first
            )
        pairs.update(combinations(sorted(ranked), 2))
        pairs.update(building_pairs(board, team, everything[:building]))
    missing = {key for pair in pairs for key in pair if key not in values}
    values.update(point_values(board, team, missing, valuation))
    spoil, worth = valuation.spoil, valuation.worth
    scored = [
        (
            pair_value(board, team, values, pair, spoil, worth)
            if len(pair) == 2
            else values[pair[0]],
            pair,
        )
        for pair in pairs
    ]
    # Best first, then the lowest pair: by pair, then by value, which keeps that order among
    # equals.
    scored.sort(key=itemgetter(1))
    scored.sort(key=itemgetter(0), reverse=True)
    return [pair for _, pair in scored]


def building_pairs(board: LineBoard, team: int, points: Iterable[int]) -> list[tuple[int, int]]:
    """The pairs of ``points`` that share a clean window holding a stone of ``team``'s:
    played together they make a line of three or more there, which neither makes alone.
    Such a pair is often the best by :func:`pair_value` though neither point is among
    the best alone (a quiet turn that sets up threats on two lines).

    >>> board = LineBoard(9)
    >>> board.play(board.key("C3"), 0)
    >>> board.play(board.key("E5"), 1)
    >>> points = [board.key(name) for name in ("D3", "E3", "C5", "C6", "F6", "G7")]
    >>> [(str(board.square(a)), str(board.square(b))) for a, b in building_pairs(board, 0, points)]
    [('D3', 'E3'), ('C5', 'C6')]

    F6 and G7 share a diagonal with C3, but E5 of the other team's closes it.
    """
    mine, theirs, blocked = board.counts[team], board.counts[1 - team], board.blocked
    shared = _shared_windows(board.size)
    found = []
    for first, second in combinations(sorted(points), 2):
        if any(
            mine[window] and not theirs[window] and not blocked[window]
            for window in shared[first].get(second, ())
        ):
            found.append((first, second))
    return found


def _blocking_pairs(board: LineBoard, other: int, ranked: list[int]) -> set[tuple[int, ...]]:
    blocks = board.blocking_sets(other)
    if not blocks:  # lost unless the other team errs: stop what can be stopped
        threat_points = sorted({key for cells in board.threat_cells(other) for key in cells})
        return set(combinations(threat_points, 2))
    pairs = set()
    for block in blocks:
        if len(block) == 2:
            pairs.add(block)
            continue
        for partner in ranked:
            if partner != block[0]:
                pairs.add((block[0], partner) if block[0] < partner else (partner, block[0]))
        if len(ranked) < 2:
            pairs.add(block)
    return pairs


class PairSearch:
    """Alpha-beta over whole turns, ``width[0]`` best points at the root's children
    and ``width[1]`` deeper; gives up with :class:`OutOfTime` at ``deadline``. With
    ``sees_double_threats``, a side to move that can make threats two stones cannot
    stop wins at once (:func:`~sixtui.ai.threat_search.double_threat`).

    ``nodes`` counts the positions it visited.
    """

    def __init__(
        self,
        board: LineBoard,
        width: tuple[int, int],
        deadline: float | Allowance,
        rng: random.Random | None = None,
        noise: float = 0.0,
        sees_double_threats: bool = False,
        tempo: float = 0.0,
        building: int = 0,
    ) -> None:
        self.board = board
        self.width = width
        self.allowance = (
            deadline if isinstance(deadline, Allowance) else Allowance.until(board, deadline)
        )
        self.rng = rng or random.Random(0)
        self.noise = noise
        self.sees_double_threats = sees_double_threats
        """Whether a side to move that can make threats two stones cannot stop wins there:
        the look ahead then sees a quiet pair that sets up such threats a turn before."""
        self.tempo = tempo
        """The share of the side to move's best pair (:func:`best_pair_gain`) that a leaf
        counts for it: the turn it is about to play, without which a look ending on the
        other side's turn favours whoever moved last."""
        self.building = building
        """Best points whose pairs that build a line together are tried at each turn,
        and that a block goes with (:func:`candidate_pairs`): the quiet turns a strong
        side sets up threats with, and the blocks that threaten back."""
        self.bonus: dict[tuple[int, ...], float] = {}
        """What each root pair gains besides its lines (cells colored in Game of 6)."""
        self.nodes = 0
        self._pairs: dict[tuple[int, int], list[tuple[int, ...]]] = {}  # by position

    def rank(
        self, team: int, pairs: list[tuple[int, ...]], depth: int
    ) -> list[tuple[float, tuple[int, ...]]]:
        """``pairs`` of ``team`` with their values ``depth`` turns deep, best first.

        Only the best value is exact; the others are bounds that show them no better.
        Each pair's value takes a seeded nudge of up to ``noise``, so that pairs of
        near-equal worth are chosen by the seed, and its :attr:`bonus`.
        """
        board = self.board
        alpha = -WIN * 2.0
        ranked = []
        for pair in pairs:
            nudge = self.noise * self.rng.random() + self.bonus.get(pair, 0.0)
            for key in pair:
                board.play(key, team)
            try:
                value = nudge - self._value(1 - team, depth - 1, -WIN * 2.0, nudge - alpha, 1)
            finally:
                for key in reversed(pair):
                    board.undo(key)
            ranked.append((value, pair))
            alpha = max(alpha, value)
        ranked.sort(key=lambda item: -item[0])
        return ranked

    def _leaf_value(self, team: int) -> float:
        """The pattern score of the board for ``team``, to move, and its :attr:`tempo`."""
        board = self.board
        value = board.worth[team] - board.worth[1 - team]
        if self.tempo:
            value += self.tempo * best_pair_gain(board, team)
        return value

    def _value(self, team: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The position's worth to ``team``, to move, ``depth`` turns deep (negamax)."""
        self.nodes += 1
        if self.allowance.over():
            raise OutOfTime
        board = self.board
        other = 1 - team
        if board.threats[team]:
            return WIN - ply  # it makes six
        if board.threats[other] and board.stones_to_stop(other) >= STOPS_ALL_HOPE:
            return -WIN + ply + 1
        forced = bool(board.threats[other])
        if not forced and self.sees_double_threats and double_threat(board, team) is not None:
            return WIN - ply - 1  # it wins next turn: the other team cannot stop all its threats
        if depth <= 0 and (not forced or depth <= -FORCED_EXTENSION):
            return self._leaf_value(team)
        # Past the last turn a side that must stop threats still plays its turn:
        # the stones it spends on them are what makes a threat worth more than its lines.
        width = self.width[1] if depth > 0 else self.width[1] // 2
        best = -WIN * 2.0
        known = (board.hash, team)
        pairs = self._pairs.get(known)
        if pairs is None:  # a deeper look meets the positions of the last one again
            pairs = self._pairs[known] = candidate_pairs(
                board, team, self.width[1], building=self.building
            )
        for pair in pairs[: width * 2]:
            for key in pair:
                board.play(key, team)
            try:
                value = -self._value(other, depth - 1, -beta, -alpha, ply + 1)
            finally:
                for key in reversed(pair):
                    board.undo(key)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best
