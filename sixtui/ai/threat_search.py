"""Victory by continuous threats: a win that the other team can only delay.

The attacker plays turns of two stones, each of which makes at least one
threat (see :mod:`sixtui.ai.line_patterns`), so the defender must spend its
turn stopping them; the sequence ends with threats that two stones cannot all
stop, or with six. Counting the last turn, a win *in n turns* needs n turns
of the attacker: in 1 it makes six now, in 2 it makes threats needing three
stones to stop, in 3 it threatens once and then so.

The attacker's pairs are all those that make a threat, ranked by the stones
needed to stop what they make, read from the window counts without playing
them: two points of one of its windows of two stones or more, or a point
making a threat on its own with a point of another such window (a second
threat, or a line built for later). Every pair that leaves the defender no
free stone is tried, as such pairs have few answers, then the best few that
leave one; on the last turn, only pairs whose threats two stones cannot stop.

The defender's answers are every set of stones meeting all threats; a free
second stone is tried on the points of the attacker's clean windows of two
stones or more, on the defender's own lines of three and on its lines of two
through the block (a counter-threat, alone or with the block), which are the
only places where it changes the next turn. Positions already
solved are kept in a table keyed on the board's Zobrist hash.

>>> import time
>>> from sixtui.ai.line_patterns import LineBoard
>>> board = LineBoard(9)
>>> for point in ["C3", "D3", "E3", "C5", "D5", "E5"]:
...     board.play(board.key(point), 0)
>>> search = ThreatSearch(board, attacker=0, deadline=time.perf_counter() + 5)
>>> turn = search.forced_win(max_turns=3)
>>> for key in turn:  # a four on each line
...     board.play(key, 0)
>>> board.stones_to_stop(0)
3
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

from sixtui.ai.grid_allowance import Allowance
from sixtui.ai.line_patterns import (
    EMPTY,
    STOPS_ALL_HOPE,
    THREAT,
    LineBoard,
    line_partners,
    point_values,
    windows_of,
)

# The attacker's pairs tried at each turn, best first: enough to find the
# usual wins, few enough that three or four turns fit in a second.
LOOSE_TRIED = 10  # pairs that one stone stops tried at each turn
# Pairs whose threats need both of the defender's stones tried at each turn: they
# cost little, having few answers, and most threat wins go through them.
FORCING_TRIED = 24


class OutOfTime(Exception):
    """The search met its deadline."""


class ThreatSearch:
    """Finds a win by continuous threats for ``attacker``, who has two stones to play.

    ``nodes`` counts the positions visited, for measuring speed.
    """

    def __init__(
        self,
        board: LineBoard,
        attacker: int,
        deadline: float | Allowance,
        loose_tried: int = LOOSE_TRIED,
    ) -> None:
        self.board = board
        self.loose_tried = loose_tried
        self.attacker = attacker
        self.defender = 1 - attacker
        self.allowance = (
            deadline if isinstance(deadline, Allowance) else Allowance.until(board, deadline)
        )
        self.nodes = 0
        self.win_turns = 0  # the turns of the last win found
        self._solved: dict[tuple[int, int], tuple[int, ...] | None] = {}
        # The attacker's ranked pairs by position: a deeper search meets the same ones.
        self._ranked: dict[tuple[int, bool], list[tuple[int, tuple[int, ...]]]] = {}

    def forced_win(self, max_turns: int) -> tuple[int, ...] | None:
        """The first turn of a win in at most ``max_turns`` turns, shortest first;
        ``None`` when there is none or the deadline came first."""
        try:
            for turns in range(1, max_turns + 1):
                found = self._win_within(turns)
                if found is not None:
                    self.win_turns = turns
                    return found
        except OutOfTime:
            pass
        return None

    def _win_within(self, turns: int) -> tuple[int, ...] | None:
        board = self.board
        self.nodes += 1
        if self.allowance.over():
            raise OutOfTime
        six = board.winning_stones(self.attacker, 2)
        if six is not None:
            return tuple(six)
        if turns < 2:
            return None
        known = (board.hash, turns)
        if known in self._solved:
            return self._solved[known]
        found = None
        last = turns == 2  # only a pair that two stones cannot answer wins now
        attacks = self._ranked.get((board.hash, last))
        if attacks is None:
            attacks = self._ranked[board.hash, last] = self._attacks(last)
        for need, pair in attacks:
            if self._pair_wins(pair, need, turns):
                found = pair
                break
        self._solved[known] = found
        return found

    def _pair_wins(self, pair: tuple[int, ...], need: int, turns: int) -> bool:
        """Whether every answer to ``pair``, whose threats take ``need`` stones to stop,
        leaves a win in ``turns - 1`` turns."""
        board = self.board
        for key in pair:
            board.play(key, self.attacker)
        try:
            if need >= STOPS_ALL_HOPE:
                return True
            if turns < 3:
                return False
            return all(self._still_wins(answer, turns - 1) for answer in self._answers())
        finally:
            for key in pair:
                board.undo(key)

    def _still_wins(self, answer: tuple[int, ...], turns: int) -> bool:
        board = self.board
        for key in answer:
            board.play(key, self.defender)
        try:
            return self._win_within(turns) is not None
        finally:
            for key in answer:
                board.undo(key)

    def _attacks(self, unstoppable: bool) -> list[tuple[int, tuple[int, ...]]]:
        """The attacker's pairs that make a threat and leave the defender no six,
        the hardest to stop first, each with the stones needed to stop its threats (the
        attacker has none before it, or it would make six); with ``unstoppable``, only
        those whose threats two stones cannot stop.

        Every pair that makes a threat is ranked by the stones needed to stop what it
        makes, then by how many threats it makes, then by what its stones add to the
        attacker's lines, read from the window counts without playing it
        (:class:`_AttackerLines`). Pairs that leave threats needing both of the
        defender's stones are all tried, up to :data:`FORCING_TRIED`: they leave it
        no free stone, so their answers are few. Pairs that one stone stops follow,
        up to :data:`LOOSE_TRIED`.
        """
        board = self.board
        lines = _AttackerLines(board, self.attacker)
        through, ready, potential = lines.through, lines.ready, lines.potential
        loose = self.loose_tried
        blocking = bool(board.threats[self.defender])
        if blocking:
            guard = [set(board.geometry.points[window]) for window in board.threats[self.defender]]
        ranked = []
        for pair in self._threatening_pairs(lines, unstoppable):
            first, second = pair
            if blocking and any(first not in keys and second not in keys for keys in guard):
                continue
            # A window becomes a threat with one stone if it holds three, with both if two.
            threats = ready.get(first, 0) | ready.get(second, 0)
            threats |= through.get(first, 0) & through.get(second, 0)
            if not threats:
                continue
            if not threats & (threats - 1):  # one stone stops a single threat
                if not loose:
                    continue  # only pairs that need both stones are tried
                need = 1
            else:
                need = lines.stones_needed(threats, (1 << first) | (1 << second))
            worth = potential.get(first, 0) + potential.get(second, 0)
            ranked.append((need, threats.bit_count(), worth, pair))
        ranked.sort(reverse=True)
        if unstoppable:
            return [(item[0], item[3]) for item in ranked if item[0] >= STOPS_ALL_HOPE]
        forcing = [(item[0], item[3]) for item in ranked if item[0] >= 2][:FORCING_TRIED]
        if not loose:
            return forcing
        return forcing + [(1, item[3]) for item in ranked if item[0] < 2][:loose]

    def _threatening_pairs(self, lines: _AttackerLines, unstoppable: bool) -> set[tuple[int, ...]]:
        """The attacker's pairs that can make a threat: two points of one clean window
        holding two stones or more (a four or five there), and a point of a window of
        three (a threat on its own) with a point of another clean window of two or more
        (a second threat, or a line built for the next turn).

        Threats that two stones cannot stop need both stones of the pair, so with
        ``unstoppable`` a stone making a threat is paired only with another such stone
        (pairs sharing a window are there already) unless a stone must stop the
        defender's six."""
        pairs: set[tuple[int, ...]] = set()
        for empties in lines.empties:
            pairs.update(combinations(empties, 2))
        partners = lines.through.keys()
        if self.board.threats[self.defender]:
            return self._blocking_attacks(lines.makers, set(partners))
        if unstoppable:
            partners = lines.makers
        for maker in lines.makers:
            pairs.update(
                (maker, other) if maker < other else (other, maker)
                for other in partners
                if other != maker
            )
        return pairs

    def _blocking_attacks(self, makers: set[int], partners: set[int]) -> set[tuple[int, ...]]:
        """The attacker's pairs when the defender threatens six: a stone (or two) must
        stop it, and only what is left of the turn can make a threat."""
        blocks = self.board.blocking_sets(self.defender)
        pairs = {block for block in blocks if len(block) == 2}
        for (block,) in (block for block in blocks if len(block) == 1):
            pairs.update(
                (block, other) if block < other else (other, block)
                for other in makers | partners
                if other != block
            )
        return pairs

    def _answers(self) -> list[tuple[int, ...]]:
        """The defender's turns that stop every threat, the most useful first."""
        board, defender = self.board, self.defender
        blocks = board.blocking_sets(self.attacker)
        if len(blocks[0]) == 2:
            return blocks
        # The attacker's chance cells include the points of its threats.
        spare = board.chance_cells(self.attacker) | board.chance_cells(defender, 3)
        answers = {
            (block, other) if block < other else (other, block)
            for (block,) in blocks
            # A block that makes a four with the free stone, on a line of two through
            # it, turns the attack around, as one on a line of three does alone.
            for other in spare.union(line_partners(board, defender, block))
            if other != block
        }
        if not answers:  # nothing else matters: the second stone goes anywhere
            return blocks
        values = point_values(board, defender, {key for pair in answers for key in pair})
        # The most useful first, then the lowest pair: by pair, then by worth, which keeps
        # that order among equals.
        ordered = sorted(answers)
        ordered.sort(key=lambda pair: values[pair[0]] + values[pair[1]], reverse=True)
        return ordered


def double_threat(board: LineBoard, team: int) -> tuple[int, ...] | None:
    """A pair of ``team``'s whose threats two stones cannot all stop, when neither team
    has a threat (``team`` to move then wins in two turns), else ``None``.

    Threats that need three stones span two lines or more, as two stones stop any one
    line, so one of the pair makes a threat alone, in a window of three: the pairs
    tried are each such point with another or with a point sharing a window of two or
    more with it.

    >>> board = LineBoard(13)
    >>> for point in ["C3", "D3", "E3", "C6", "D6"]:
    ...     board.play(board.key(point), 0)
    >>> double_threat(board, 0) is None  # a live three and a two: three stones at most
    True
    >>> board.play(board.key("E6"), 0)
    >>> for key in double_threat(board, 0):  # a four on each line
    ...     board.play(key, 0)
    >>> board.stones_to_stop(0)
    3
    """
    counts = board.counts[team]
    if not any(counts[window] >= THREAT - 1 for window in board.chances[team]):
        return None
    lines = _AttackerLines(board, team)
    through, ready = lines.through, lines.ready
    for maker in sorted(lines.makers):
        partners = set(lines.makers)
        for index in _bits(through[maker]):
            partners.update(lines.empties[index])
        for other in sorted(partners):
            if other == maker:
                continue
            threats = ready.get(maker, 0) | ready.get(other, 0)
            threats |= through[maker] & through.get(other, 0)
            if threats & (threats - 1) and (
                lines.stones_needed(threats, (1 << maker) | (1 << other)) >= STOPS_ALL_HOPE
            ):
                return (maker, other) if maker < other else (other, maker)
    return None


def _bits(mask: int) -> list[int]:
    """The indices of the bits set in ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


@cache
def _points_in_order(size: int) -> tuple[tuple[int, ...], ...]:
    """Each window's points of a ``size`` board, lowest key first."""
    return tuple(tuple(sorted(keys)) for keys in windows_of(size).points)


class _AttackerLines:
    """The attacker's clean windows of two stones or more, the only ones a pair can
    make a threat in, read once per position: their open points, the windows
    through each point and those where one stone makes a threat (as bits, one a
    window), what a stone adds there, and the points where one stone makes a threat."""

    def __init__(self, board: LineBoard, attacker: int) -> None:
        counts, cells, points = board.counts[attacker], board.cells, _points_in_order(board.size)
        self.empties: list[list[int]] = []  # each window's open points, in order
        self.masks: list[int] = []  # each window's open points, one bit a point
        self.through: dict[int, int] = {}
        self.ready: dict[int, int] = {}  # windows where one stone makes a threat
        self.potential: dict[int, int] = {}
        self.makers: set[int] = set()  # one stone here makes a threat
        through, ready, potential = self.through, self.ready, self.potential
        worth_of = board.valuation.worth
        for index, window in enumerate(board.chances[attacker]):
            bit = 1 << index
            count = counts[window]
            worth = worth_of[count + 1]
            empties = [key for key in points[window] if cells[key] == EMPTY]
            self.empties.append(empties)
            mask = 0
            for key in empties:
                mask |= 1 << key
                through[key] = through.get(key, 0) | bit
                potential[key] = potential.get(key, 0) + worth
                if count >= THREAT - 1:
                    ready[key] = ready.get(key, 0) | bit
            self.masks.append(mask)
            if count >= THREAT - 1:
                self.makers.update(empties)

    def stones_needed(self, threats: int, taken: int) -> int:
        """How many stones meet every window of ``threats`` (bits, one a window) once the
        points of ``taken`` (bits, one a point) are the attacker's: 1, 2, or
        :data:`STOPS_ALL_HOPE` when two are not enough. A pair of stones meeting them
        all holds a point of the first."""
        masks = self.masks
        windows = []
        while threats:
            low = threats & -threats
            windows.append(masks[low.bit_length() - 1] & ~taken)
            threats ^= low
        common = -1
        for window in windows:
            common &= window
        if common:
            return 1
        first = windows[0]
        while first:
            low = first & -first
            rest = -1
            for window in windows:
                if not window & low:
                    rest &= window
            if rest:
                return 2
            first ^= low
        return STOPS_ALL_HOPE
