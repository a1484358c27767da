"""A deliberately naive referee for Connect6 and Game of 6, written from shared/RULINGS.md.

It shares no code with ``sixtui.rules``: plain 2-D lists indexed ``[col][row]`` and a
scan of the whole board after every stone or dot. It is slow and meant to be
obviously right, so that the property tests can check the engine against it.

The rules it follows (RULINGS.md, "Common to all games", "Connect6", "Game of 6"):

* Seat 0 opens with one stone/dot, then the seats alternate turns of two. A turn that
  begins with only one empty cell left is one stone. Seat = team.
* A point/cell is empty when it holds no stone/dot and is not colored.
* After each stone/dot of the mover, in this order:
  1. six or more of the mover's *live* dots in a horizontal, vertical or diagonal
     line: the mover wins (``six-in-a-row``); nothing gets colored;
  2. (Game of 6) enclosure: flood the board with orthogonal steps from outside (every
     edge cell that is not a live dot of the mover), never entering a live dot of the
     mover. A cell not reached is internal; a cell holding a live dot of the mover is
     internal only when it is not on the edge and none of its four orthogonal
     neighbours was reached. Every internal cell not yet colored takes the mover's color;
  3. (Game of 6) six or more cells of the mover's color: the mover wins
     (``colored-cells``).
  Then, with no empty cell left: a draw (``board-full``).
* A dot on a colored cell is dead: it counts for nothing (neither in a line nor as a wall).
* Points (Game of 6): the winner 6, the other side its colored cells; in a draw each side
  its colored cells. Connect6 scores no points: ``()``.
* Any seat may resign while the game runs: the other team wins (``resign``).

Conventions for what the rules leave open (the engine's documented interface): after the
game ends ``to_move`` stays the seat that played the last stone (or, after a
resignation, whoever was to move) and ``stones_left`` is 0.
"""

from __future__ import annotations

import re

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
SIZES = {"connect6": (6, 19), "gameof6": (8, 26)}


def cell_name(col: int, row: int) -> str:
    """``A1`` is the bottom-left cell: column letter, then row number from 1."""
    return f"{LETTERS[col]}{row + 1}"


def parse_cell_name(text: str) -> tuple[int, int]:
    """Reads ``J10`` (any case) into ``(col, row)``; board limits are not checked."""
    found = re.fullmatch(r"([A-Za-z])([0-9]+)", text)
    if found is None:
        raise ValueError(f"not a cell name: {text!r}")
    return LETTERS.index(found.group(1).upper()), int(found.group(2)) - 1


class NaiveGame:
    """One game of ``connect6`` or ``gameof6`` on a ``size`` × ``size`` board."""

    def __init__(self, name: str, size: int) -> None:
        low, high = SIZES[name]
        assert low <= size <= high, f"{name} board size {size} is out of range"
        self.name = name
        self.size = size
        self.dot: list[list[int | None]] = [[None] * size for _ in range(size)]
        self.color: list[list[int | None]] = [[None] * size for _ in range(size)]
        self.to_move = 0
        self.stones_left = 1
        self.result: tuple[int | None, str, tuple[int, ...]] | None = None
        self.history: list[tuple[int, int]] = []
        self._all_cells = [(col, row) for row in range(size) for col in range(size)]

    # -- reading ---------------------------------------------------------------------

    def cells(self) -> list[tuple[int, int]]:
        """Every cell, bottom row first, each row left to right."""
        return self._all_cells

    def on_board(self, col: int, row: int) -> bool:
        return 0 <= col < self.size and 0 <= row < self.size

    def on_edge(self, col: int, row: int) -> bool:
        return col in (0, self.size - 1) or row in (0, self.size - 1)

    def is_empty(self, col: int, row: int) -> bool:
        return self.dot[col][row] is None and self.color[col][row] is None

    def empty_cells(self) -> list[tuple[int, int]]:
        return [(col, row) for col, row in self.cells() if self.is_empty(col, row)]

    def legal_move_names(self) -> set[str]:
        """Every empty cell's name while the game runs; nothing once it is over."""
        if self.result is not None:
            return set()
        return {cell_name(col, row) for col, row in self.empty_cells()}

    def is_live_dot_of(self, team: int, col: int, row: int) -> bool:
        return self.dot[col][row] == team and self.color[col][row] is None

    def colored_count(self, team: int) -> int:
        return sum(1 for col, row in self.cells() if self.color[col][row] == team)

    def six_windows(self, team: int) -> list[list[tuple[int, int]]]:
        """Every six consecutive cells in a line that all hold the team's live dots."""
        windows = []
        for col, row in self.cells():
            if not self.is_live_dot_of(team, col, row):
                continue  # a window's first cell, so no need to look further
            for d_col, d_row in DIRECTIONS:
                window = [(col + d_col * k, row + d_row * k) for k in range(6)]
                if all(self.on_board(c, r) and self.is_live_dot_of(team, c, r) for c, r in window):
                    windows.append(window)
        return windows

    def winning_cell_names(self) -> set[str]:
        """All cells of the winner's lines of six or more, after a ``six-in-a-row`` win."""
        if self.result is None or self.result[1] != "six-in-a-row":
            return set()
        return {cell_name(c, r) for window in self.six_windows(self.result[0]) for c, r in window}

    def reached_from_outside(self, team: int) -> list[list[bool]]:
        """Cells the outside reaches by orthogonal steps that never enter a live dot of
        ``team``. The edge is not a wall: every edge cell without such a dot is reached."""
        size, dot, color = self.size, self.dot, self.color
        wall = [
            [dot[c][r] == team and color[c][r] is None for r in range(size)] for c in range(size)
        ]
        reached = [[False] * size for _ in range(size)]
        stack = []
        for col, row in self.cells():
            if self.on_edge(col, row) and not wall[col][row]:
                reached[col][row] = True
                stack.append((col, row))
        while stack:
            col, row = stack.pop()
            for d_col, d_row in ORTHOGONAL:
                c, r = col + d_col, row + d_row
                if 0 <= c < size and 0 <= r < size and not reached[c][r] and not wall[c][r]:
                    reached[c][r] = True
                    stack.append((c, r))
        return reached

    def internal_cells(self, team: int) -> list[tuple[int, int]]:
        reached = self.reached_from_outside(team)
        internal = []
        for col, row in self.cells():
            if self.is_live_dot_of(team, col, row):
                neighbours = [(col + dc, row + dr) for dc, dr in ORTHOGONAL]
                if not self.on_edge(col, row) and not any(reached[c][r] for c, r in neighbours):
                    internal.append((col, row))
            elif not reached[col][row]:
                internal.append((col, row))
        return internal

    def points(self, winner: int | None) -> tuple[int, ...]:
        if self.name == "connect6":
            return ()
        return tuple(6 if team == winner else self.colored_count(team) for team in (0, 1))

    # -- changing --------------------------------------------------------------------

    def play(self, col: int, row: int) -> None:
        """Places the mover's stone or dot on an empty cell."""
        assert self.result is None, "the game is over"
        assert self.on_board(col, row), f"{(col, row)} is off the board"
        assert self.is_empty(col, row), f"{cell_name(col, row)} is not empty"
        team = self.to_move
        self.dot[col][row] = team
        self.history.append((col, row))

        if self.six_windows(team):
            self.result = (team, "six-in-a-row", self.points(team))
            self.stones_left = 0
            return

        if self.name == "gameof6":
            for c, r in self.internal_cells(team):
                if self.color[c][r] is None:
                    self.color[c][r] = team
            if self.colored_count(team) >= 6:
                self.result = (team, "colored-cells", self.points(team))
                self.stones_left = 0
                return

        empty = self.empty_cells()
        if not empty:
            self.result = (None, "board-full", self.points(None))
            self.stones_left = 0
            return
        self.stones_left -= 1
        if self.stones_left == 0:
            self.to_move = 1 - team
            self.stones_left = 1 if len(empty) == 1 else 2

    def play_name(self, name: str) -> None:
        self.play(*parse_cell_name(name))

    def resign(self, seat: int) -> None:
        assert self.result is None, "the game is over"
        winner = 1 - seat
        self.result = (winner, "resign", self.points(winner))
        self.stones_left = 0

    def copy(self) -> NaiveGame:
        other = NaiveGame(self.name, self.size)
        other.dot = [column.copy() for column in self.dot]
        other.color = [column.copy() for column in self.color]
        other.to_move = self.to_move
        other.stones_left = self.stones_left
        other.result = self.result
        other.history = self.history.copy()
        return other
