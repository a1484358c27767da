"""Victory by continuous threats: a win that the other team can only delay.

The attacker plays turns of two stones, each of which makes at least one
threat (see :mod:`sixtui.ai.line_patterns`), so the defender must spend its
turn stopping them; the sequence ends with threats that two stones cannot all
stop, or with six. Counting the last turn, a win *in n turns* needs n turns
of the attacker: in 1 it makes six now, in 2 it makes threats needing three
stones to stop, in 3 it threatens once and then so.

The defender's answers are every set of stones meeting all threats; a free
second stone is tried on the points of the attacker's clean windows of two
stones or more and on the defender's own lines of three (a counter-threat),
which are the only places where it changes the next turn. Positions already
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

from collections import defaultdict
from itertools import combinations

from sixtui.ai.grid_allowance import Allowance
from sixtui.ai.line_patterns import (
    EMPTY,
    STOPS_ALL_HOPE,
    THREAT,
    WINDOW_WORTH,
    LineBoard,
    fewest_blockers,
    point_values,
)

# The attacker's pairs tried at each turn, best first: enough to find the
# usual wins, few enough that three or four turns fit in a second.
ATTACKS_TRIED = 14
PARTNERS = 8  # second stones tried beside a stone that makes a threat
SHORTLIST = 30  # pairs played out to rank them


class OutOfTime(Exception):
    """The search met its deadline."""


class ThreatSearch:
    """Finds a win by continuous threats for ``attacker``, who has two stones to play.

    ``nodes`` counts the positions visited, for measuring speed.
    """

    def __init__(self, board: LineBoard, attacker: int, deadline: float | Allowance) -> None:
        self.board = board
        self.attacker = attacker
        self.defender = 1 - attacker
        self.allowance = (
            deadline if isinstance(deadline, Allowance) else Allowance.until(board, deadline)
        )
        self.nodes = 0
        self._solved: dict[tuple[int, int], tuple[int, ...] | None] = {}

    def forced_win(self, max_turns: int) -> tuple[int, ...] | None:
        """The first turn of a win in at most ``max_turns`` turns, shortest first;
        ``None`` when there is none or the deadline came first."""
        try:
            for turns in range(1, max_turns + 1):
                found = self._win_within(turns)
                if found is not None:
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
        for pair in self._attacks():
            if self._pair_wins(pair, turns):
                found = pair
                break
        self._solved[known] = found
        return found

    def _pair_wins(self, pair: tuple[int, ...], turns: int) -> bool:
        """Whether every answer to ``pair`` leaves a win in ``turns - 1`` turns."""
        board = self.board
        for key in pair:
            board.play(key, self.attacker)
        try:
            if board.stones_to_stop(self.attacker) >= STOPS_ALL_HOPE:
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

    def _attacks(self) -> list[tuple[int, ...]]:
        """The attacker's pairs that make a threat and leave the defender no six,
        the hardest to stop first.

        Pairs are first shortlisted by what their points add to the attacker's
        clean windows, a cheap sum, and only the shortlist is played out.
        """
        board, attacker = self.board, self.attacker
        counts = board.counts[attacker]
        potential: dict[int, int] = defaultdict(int)
        pairs: set[tuple[int, ...]] = set()
        makers: set[int] = set()  # one stone here makes a threat
        for window in board.chances[attacker]:
            empties = board.empties(window)
            for key in empties:
                potential[key] += WINDOW_WORTH[counts[window] + 1]
            if counts[window] >= 3:
                makers.update(empties)
            else:
                pairs.update(combinations(empties, 2))
        partners = makers | set(sorted(potential, key=potential.__getitem__)[-PARTNERS:])
        if board.threats[self.defender]:
            pairs = self._blocking_attacks(makers, partners)
        else:
            for maker in makers:
                pairs.update(tuple(sorted((maker, other))) for other in partners if other != maker)
        shortlist = sorted(pairs, key=lambda pair: -potential[pair[0]] - potential[pair[1]])
        ranked = []
        for pair in shortlist[:SHORTLIST]:
            rank = self._forcing_rank(pair, potential)
            if rank is not None:
                ranked.append((rank, pair))
        ranked.sort(reverse=True)
        return [pair for _, pair in ranked[:ATTACKS_TRIED]]

    def _blocking_attacks(self, makers: set[int], partners: set[int]) -> set[tuple[int, ...]]:
        """The attacker's pairs when the defender threatens six: a stone (or two) must
        stop it, and only what is left of the turn can make a threat."""
        blocks = self.board.blocking_sets(self.defender)
        pairs = {block for block in blocks if len(block) == 2}
        for (block,) in (block for block in blocks if len(block) == 1):
            pairs.update(tuple(sorted((block, other))) for other in makers if other != block)
            pairs.update(tuple(sorted((block, other))) for other in partners if other != block)
        return pairs

    def _forcing_rank(
        self, pair: tuple[int, ...], potential: dict[int, int]
    ) -> tuple[int, int, int] | None:
        """How hard ``pair`` is to answer, or ``None`` if it forces nothing or lets the
        defender make six; read from the window counts, without playing the pair (the
        attacker has no threat before it, or it would have made six)."""
        board = self.board
        points = board.geometry.points
        if any(
            pair[0] not in points[window] and pair[-1] not in points[window]
            for window in board.threats[self.defender]
        ):
            return None
        mine, theirs, blocked = (
            board.counts[self.attacker],
            board.counts[self.defender],
            board.blocked,
        )
        added: dict[int, int] = defaultdict(int)
        for key in pair:
            for window in board.geometry.through[key]:
                if not theirs[window] and not blocked[window]:
                    added[window] += 1
        threats = [window for window, stones in added.items() if mine[window] + stones >= THREAT]
        if not threats:
            return None
        cells = board.cells
        open_points = [
            [key for key in points[window] if cells[key] == EMPTY and key not in pair]
            for window in threats
        ]
        blockers = fewest_blockers(open_points)
        need = STOPS_ALL_HOPE if blockers is None else len(blockers)
        return (need, len(threats), sum(potential[key] for key in pair))

    def _answers(self) -> list[tuple[int, ...]]:
        """The defender's turns that stop every threat, the most useful first."""
        board, defender = self.board, self.defender
        blocks = board.blocking_sets(self.attacker)
        if len(blocks[0]) == 2:
            return blocks
        # The attacker's chance cells include the points of its threats.
        spare = board.chance_cells(self.attacker) | board.chance_cells(defender, 3)
        answers = {
            tuple(sorted((block, other)))
            for (block,) in blocks
            for other in spare
            if other != block
        }
        if not answers:  # nothing else matters: the second stone goes anywhere
            return blocks
        values = point_values(board, defender, {key for pair in answers for key in pair})
        return sorted(answers, key=lambda pair: (-values[pair[0]] - values[pair[1]], pair))
