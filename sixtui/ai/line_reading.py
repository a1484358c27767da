"""Connect6 lines judged once each, by the threats they promise, kept up to date stone by stone.

:class:`~sixtui.ai.line_patterns.LineBoard` sums every window of six points, so
a line of three close stones counts in four windows, and one line of three
outweighs three lines of two. In Connect6, where a turn is two stones, the lines
of two are what the double threats of the next turns are made of: two stones on
each of two lines make two threats at once. :class:`LineReadingBoard` reads each
whole line (a row, a column or a diagonal) once, by the most stones a clean
window of it holds (how near it is to a threat) and by how many windows hold as
many (how many stones the other team needs to close it: a *live* line has room
on both sides), as strong Connect6 programs read live and dead twos and threes.

>>> board = LineReadingBoard(19)
>>> for point in ["G8", "F9", "G10"]:  # three lines of two, crossing
...     board.play(board.key(point), 0)
>>> crossing = board.balance(0)
>>> board.undo(board.key("F9")); board.undo(board.key("G10"))
>>> for point in ["G9", "G10"]:  # one line of three
...     board.play(board.key(point), 0)
>>> crossing > board.balance(0)
True
"""

from __future__ import annotations

from functools import cache

from sixtui.ai.line_patterns import EMPTY, RUN, THREAT, WINDOW_WORTH, LineBoard, windows_of

# What a line is worth to a team by the most stones a clean window of it holds, when
# fewer than LIVE windows hold as many (dead: one stone of the other team closes it)
# and when LIVE or more do (live). Twos and threes across lines, the stuff of double
# threats, weigh close to each other; fours and fives are threats, which the look
# ahead reads for itself.
DEAD_LINE = (0, 1, 4, 12, 60, 60, 100_000)
LIVE_LINE = (0, 2, 15, 30, 150, 150, 100_000)
LIVE = 3  # clean windows at the line's most stones that make it live
LINE_SHARE = 1.0  # of the line reading in a position's worth
WINDOW_SHARE = 0.0  # of the window sums kept beside it: they tell compact shapes apart
_SLOTS = RUN + 1  # counts 0 to 6 per line
_STATES = 2 * RUN  # a line's most stones in a clean window (0 to 5), dead or live
STATE_WORTH = tuple((LIVE_LINE if state % 2 else DEAD_LINE)[state // 2] for state in range(_STATES))
DEAD_THREE, LIVE_THREE = 6, 7  # states of lines of three
# The side to move, not threatened, with a live three and another three wins: one stone
# makes the live three a four that takes two stones to stop, one the other three a
# four that takes a third. Its look ahead may end just short of seeing it.
READY_TO_WIN = 2_000


@cache
def _lines_of(size: int) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int]:
    """For a ``size`` board: each window's line, the lines through each point, and
    how many lines there are. A line is the windows of one row, column or diagonal."""
    geometry = windows_of(size)
    line_ids: dict[tuple[int, int, int], int] = {}
    window_line = []
    for keys in geometry.points:
        col, row = keys[0] % size, keys[0] // size
        dc, dr = keys[1] % size - col, keys[1] // size - row
        # What stays the same along the line: the row, the column, or a diagonal's offset.
        along = row if dr == 0 else col if dc == 0 else col - dr * dc * row
        window_line.append(line_ids.setdefault((dc, dr, along), len(line_ids)))
    through = tuple(
        tuple(sorted({window_line[window] for window in windows})) for windows in geometry.through
    )
    return tuple(window_line), through, len(line_ids)


class LineReadingBoard(LineBoard):
    """A :class:`LineBoard` that also counts, for each team and line, its clean windows
    by the stones they hold, and keeps ``line_worth[team]``: its lines read once each
    (:data:`DEAD_LINE`, :data:`LIVE_LINE`). :meth:`balance` weighs both readings.

    Connect6 only: colored cells (:meth:`LineBoard.block`) are not read.
    """

    def __init__(self, size: int) -> None:
        super().__init__(size)
        window_line, lines_through, count = _lines_of(size)
        # key → for each line through it: the line, where its counts start, and its
        # windows through the key
        self.lines_through = tuple(
            tuple(
                (line, line * _SLOTS, tuple(w for w in windows if window_line[w] == line))
                for line in lines
            )
            for lines, windows in zip(lines_through, self.geometry.through, strict=True)
        )
        # team → line * _SLOTS + stones → clean windows of the line holding that many
        self.held = ([0] * (count * _SLOTS), [0] * (count * _SLOTS))
        self.line_states = ([0] * count, [0] * count)  # team → line → _line_state
        self.kinds = ([count] + [0] * (_STATES - 1), [count] + [0] * (_STATES - 1))
        """team → line state → how many of the team's lines are in it"""
        self.line_worth = [0, 0]

    def balance(self, team: int) -> float:
        """The pattern score of ``team``, to move: its lines less the other team's, and
        :data:`READY_TO_WIN` when its threes win at once (the other team threatening
        nothing)."""
        other = 1 - team
        lines = self.line_worth[team] - self.line_worth[other]
        score = LINE_SHARE * lines + WINDOW_SHARE * (self.worth[team] - self.worth[other])
        kinds = self.kinds[team]
        threes = kinds[LIVE_THREE] + kinds[DEAD_THREE]
        if kinds[LIVE_THREE] and threes >= 2 and not self.threats[other]:
            score += READY_TO_WIN
        return score

    # play and undo do what LineBoard's do, window by window, and move each window between
    # the counts of its line in the same pass: the look ahead spends much of its time here.

    def play(self, key: int, team: int) -> None:
        self.cells[key] = team
        self.hash ^= self.geometry.zobrist[key][team]
        self.stones += 1
        self.played += 1
        other_team = 1 - team
        mine, theirs, blocked = self.counts[team], self.counts[other_team], self.blocked
        threats, chances = self.threats[team], self.chances[team]
        held_mine, held_theirs = self.held[team], self.held[other_team]
        states_mine, states_theirs = self.line_states[team], self.line_states[other_team]
        kinds_mine, kinds_theirs = self.kinds[team], self.kinds[other_team]
        gained = lost = mine_change = theirs_change = 0
        for line, base, windows in self.lines_through[key]:
            closes = False
            for window in windows:
                before = mine[window]
                mine[window] = before + 1
                if blocked[window]:
                    continue
                other = theirs[window]
                if other:
                    if not before:  # the window was the other team's chance: no more
                        lost += WINDOW_WORTH[other]
                        held_theirs[base + other] -= 1
                        closes = True
                        if other >= 2:
                            self.chances[other_team].discard(window)
                        if other >= THREAT:
                            self.threats[other_team].discard(window)
                    continue
                gained += WINDOW_WORTH[before + 1] - WINDOW_WORTH[before]
                held_mine[base + before] -= 1
                held_mine[base + before + 1] += 1
                if before + 1 == 2:
                    chances.add(window)
                elif before + 1 == THREAT:
                    threats.add(window)
            state = _line_state(held_mine, base)
            was = states_mine[line]
            if state != was:
                mine_change += STATE_WORTH[state] - STATE_WORTH[was]
                states_mine[line] = state
                kinds_mine[was] -= 1
                kinds_mine[state] += 1
            if closes:
                state = _line_state(held_theirs, base)
                was = states_theirs[line]
                if state != was:
                    theirs_change += STATE_WORTH[state] - STATE_WORTH[was]
                    states_theirs[line] = state
                    kinds_theirs[was] -= 1
                    kinds_theirs[state] += 1
        self.worth[team] += gained
        self.worth[other_team] -= lost
        self.line_worth[team] += mine_change
        self.line_worth[other_team] += theirs_change

    def undo(self, key: int) -> None:
        team = self.cells[key]
        self.cells[key] = EMPTY
        self.hash ^= self.geometry.zobrist[key][team]
        self.stones -= 1
        other_team = 1 - team
        mine, theirs, blocked = self.counts[team], self.counts[other_team], self.blocked
        threats, chances = self.threats[team], self.chances[team]
        held_mine, held_theirs = self.held[team], self.held[other_team]
        states_mine, states_theirs = self.line_states[team], self.line_states[other_team]
        kinds_mine, kinds_theirs = self.kinds[team], self.kinds[other_team]
        lost = regained = mine_change = theirs_change = 0
        for line, base, windows in self.lines_through[key]:
            opens = False
            for window in windows:
                before = mine[window]
                mine[window] = before - 1
                if blocked[window]:
                    continue
                other = theirs[window]
                if other:
                    if before == 1:  # the window is the other team's chance again
                        regained += WINDOW_WORTH[other]
                        held_theirs[base + other] += 1
                        opens = True
                        if other >= 2:
                            self.chances[other_team].add(window)
                        if other >= THREAT:
                            self.threats[other_team].add(window)
                    continue
                lost += WINDOW_WORTH[before] - WINDOW_WORTH[before - 1]
                held_mine[base + before] -= 1
                held_mine[base + before - 1] += 1
                if before == 2:
                    chances.discard(window)
                elif before == THREAT:
                    threats.discard(window)
            state = _line_state(held_mine, base)
            was = states_mine[line]
            if state != was:
                mine_change += STATE_WORTH[state] - STATE_WORTH[was]
                states_mine[line] = state
                kinds_mine[was] -= 1
                kinds_mine[state] += 1
            if opens:
                state = _line_state(held_theirs, base)
                was = states_theirs[line]
                if state != was:
                    theirs_change += STATE_WORTH[state] - STATE_WORTH[was]
                    states_theirs[line] = state
                    kinds_theirs[was] -= 1
                    kinds_theirs[state] += 1
        self.worth[team] -= lost
        self.worth[other_team] += regained
        self.line_worth[team] += mine_change
        self.line_worth[other_team] += theirs_change


def _line_state(held: list[int], base: int) -> int:
    """A line's state for a team from its clean windows counted by the stones they hold
    (from ``base`` on): twice the most stones a window holds, plus one when live."""
    for stones in range(RUN - 1, 0, -1):
        windows = held[base + stones]
        if windows:
            return 2 * stones + (windows >= LIVE)
    return 0
