"""What Connect6 and Game of 6 share: a square board, one stone to open, then two a turn.

The board is a flat list with a border of ``OFF`` cells around it, so that
walking off the board meets a sentinel instead of needing bounds checks.
A cell's *key* is its place on the board without the border (``row * size + col``);
keys order the legal moves and make up the saved move list.
"""

from __future__ import annotations

import struct
from bisect import bisect_left
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from sixtui.rules.errors import GameDataError, IllegalMove, checked_team
from sixtui.rules.game import Game
from sixtui.rules.move import Move
from sixtui.rules.result import Result
from sixtui.rules.square import Square, board_limits

EMPTY = -1
OFF = -2
RUN_TO_WIN = 6


@dataclass(frozen=True, slots=True)
class Geometry:
    """The fixed facts of one board size, shared by every game of that size."""

    size: int
    width: int  # of a padded row
    moves: tuple[Move, ...]  # by key
    index_of_key: tuple[int, ...]
    key_of_index: tuple[int, ...]  # -1 on the border
    line_steps: tuple[int, int, int, int]  # across, up, and both diagonals
    empty_board: tuple[int, ...]  # EMPTY on the board, OFF on its border

    def index(self, square: Square) -> int:
        return (square.row + 1) * self.width + square.col + 1


@cache
def geometry(size: int) -> Geometry:
    width = size + 2
    index_of_key = tuple((key // size + 1) * width + key % size + 1 for key in range(size * size))
    key_of_index = [-1] * (width * width)
    empty_board = [OFF] * (width * width)
    for key, index in enumerate(index_of_key):
        key_of_index[index] = key
        empty_board[index] = EMPTY
    return Geometry(
        size=size,
        width=width,
        moves=tuple(Move(Square(key % size, key // size)) for key in range(size * size)),
        index_of_key=index_of_key,
        key_of_index=tuple(key_of_index),
        line_steps=(1, width, width + 1, width - 1),
        empty_board=tuple(empty_board),
    )


class GridGame(Game):
    """Base of the square-board games. Subclasses set the size limits and may
    add work after each stone by overriding :meth:`_after_stone`."""

    players = 2
    _copied_attributes = (
        "_cells",
        "_live",
        "_color",
        "_colored_count",
        "_empty_keys",
        "_empty_moves",
        "_history",
        "_undo_log",
    )
    # Whether a stone may color cells, so that Connect6 skips that work entirely.
    _colors_cells: ClassVar[bool] = False
    MIN_SIZE: ClassVar[int]
    MAX_SIZE: ClassVar[int]
    DEFAULT_SIZE: ClassVar[int] = 19
    STONE: ClassVar[str] = "stone"  # what a move puts on the board, in words

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        if not isinstance(size, int) or isinstance(size, bool):
            raise ValueError(f"the board size must be a whole number, not {size!r}")
        if not self.MIN_SIZE <= size <= self.MAX_SIZE:
            raise ValueError(
                f"a {self.name} board is {self.MIN_SIZE} to {self.MAX_SIZE} wide, not {size}"
            )
        self.size = size
        self._geo = geometry(size)
        self._index_of_key = self._geo.index_of_key
        self._line_steps = self._geo.line_steps
        self._cells = list(self._geo.empty_board)
        # Stones that still count for lines and, in Game of 6, as walls: a dot on a
        # colored cell is dead. Games that never color cells share one list.
        self._live = self._cells
        self._color = [EMPTY] * len(self._cells)
        self._colored_count = [0] * self.players
        self._empty_keys = list(range(len(self._geo.moves)))
        self._empty_moves = list(self._geo.moves)
        self._history: list[int] = []
        # Per play: the seat and stones left before it, and the cells it colored.
        self._undo_log: list[tuple[int, int, tuple[int, ...]]] = []
        self._to_move = 0
        self._stones_left = 1
        self._result: Result | None = None
        self._resigned_seat: int | None = None
        self._left = False
        self._drawn_by_agreement = False

    # -- reading the position --------------------------------------------------------

    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def stones_left(self) -> int:
        """Stones or dots the seat to move still places this turn (0 once over)."""
        return 0 if self._result is not None else self._stones_left

    @property
    def history(self) -> list[Move]:
        moves = self._geo.moves
        return [moves[key] for key in self._history]

    def options(self) -> dict[str, Any]:
        return {"size": self.size}

    def legal_moves(self) -> list[Move]:
        """Every empty point, bottom row first, each row left to right.

        >>> from sixtui.rules import new_game
        >>> [str(m) for m in new_game("connect6", size=6).legal_moves()[:3]]
        ['A1', 'B1', 'C1']
        """
        if self._result is not None:
            return []
        return self._empty_moves.copy()

    def at(self, point: Square | str) -> int | None:
        """The team whose stone or dot stands on ``point``, or ``None``.

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g.play("J10")
        >>> g.at("j10"), g.at("K10")
        (0, None)
        """
        owner = self._cells[self._index(point)]
        return None if owner == EMPTY else owner

    def colored(self, point: Square | str) -> int | None:
        """The team whose color the cell has, or ``None`` (always ``None`` in Connect6)."""
        team = self._color[self._index(point)]
        return None if team == EMPTY else team

    def layout(self) -> dict[Square, int]:
        """Every stone or dot on the board, dead dots included: point → team.

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g.play("J10"); g.play("K11")
        >>> g.layout()
        {Square(col=9, row=9): 0, Square(col=10, row=10): 1}
        """
        moves, index, cells = self._geo.moves, self._index_of_key, self._cells
        return {moves[key].to: cells[index[key]] for key in self._history}

    def colored_cells(self) -> dict[Square, int]:
        """Every colored cell: point → team (always empty in Connect6)."""
        if not any(self._colored_count):
            return {}
        return {
            self._square_of(index): team for index, team in enumerate(self._color) if team != EMPTY
        }

    def colored_count(self, team: int) -> int:
        """How many cells have the team's color."""
        return self._colored_count[checked_team(team)]

    def winning_cells(self) -> list[Square]:
        """The points of the winning line (all of an overline), or ``[]``."""
        if self._result is None or self._result.reason != "six-in-a-row":
            return []
        last = self._geo.index_of_key[self._history[-1]]
        team = self._live[last]
        cells: list[int] = []
        for step in self._geo.line_steps:
            run = [last, *self._run(last, step, team), *self._run(last, -step, team)]
            if len(run) >= RUN_TO_WIN:
                cells.extend(run)
        return sorted({self._square_of(index) for index in cells})

    def _turn_words(self) -> str:
        left = self._stones_left
        return f"seat {self._to_move} to move, {left} {self.STONE}{'s' if left > 1 else ''} left"

    # -- changing it -----------------------------------------------------------------

    def parse_move(self, text: str | Square | Move) -> Move:
        """Reads a point such as ``J10`` (any case) that lies on this board; what is not
        one is told with an example on this board.

        >>> from sixtui.rules import IllegalMove, new_game
        >>> try:
        ...     new_game("connect6", size=9).parse_move("middle")
        ... except IllegalMove as why:
        ...     print(why)
        'middle' is not a point: write a column letter and a row, like E5
        """
        if type(text) is not Move:
            if type(text) is Square:
                return self._geo.moves[self._key(text)]
            try:
                square = Square.parse(text)
            except IllegalMove:
                raise IllegalMove(
                    f"{text!r} is not a point: write a column letter and a row, like {self._middle}"
                ) from None
            return self._geo.moves[self._key(square)]
        if type(text.to) is not Square or text.origin or text.keep or text.declare:
            raise IllegalMove(
                f"{text} is not a move of {self.name}: write a point like {self._middle}"
            )
        return self._geo.moves[self._key(text.to)]

    @property
    def _middle(self) -> Square:
        """The point in the middle of the board, an example of a point that is on it."""
        return Square(self.size // 2, self.size // 2)

    def play(self, move: Move | Square | str) -> None:
        """Places one stone or dot for the seat to move.

        >>> from sixtui.rules import new_game
        >>> g = new_game("connect6")
        >>> g.play("J10")
        >>> g.to_move, g.stones_left
        (1, 2)
        >>> g.play("J10")
        Traceback (most recent call last):
        ...
        sixtui.rules.errors.IllegalMove: J10 is taken
        """
        if self._result is not None:
            raise IllegalMove("the game is over")
        if type(move) is not Move or type(move.to) is not Square or move.origin or move.declare:
            move = self.parse_move(move)
        square = move.to
        col, row = square
        size = self.size
        if type(col) is not int or type(row) is not int:
            raise IllegalMove(f"{square!r} is not a point")
        if not (0 <= col < size and 0 <= row < size):
            raise IllegalMove(f"{square} is off the board ({board_limits(size)})")
        key = row * size + col
        index = self._index_of_key[key]
        if self._cells[index] != EMPTY or self._color[index] != EMPTY:
            raise IllegalMove(self._why_not_empty(square, index))
        self._place(index, key)

    def undo(self) -> Move:
        if self._resigned_seat is not None:
            raise IllegalMove("a resignation cannot be taken back")
        if self._drawn_by_agreement:
            raise IllegalMove("an agreed draw cannot be taken back")
        if not self._history:
            raise IllegalMove("there is no move to take back")
        key = self._history.pop()
        self._to_move, self._stones_left, colored = self._undo_log.pop()
        if colored:
            self._uncolor(colored)
        index = self._geo.index_of_key[key]
        self._cells[index] = EMPTY
        self._live[index] = EMPTY
        self._restore_empty(key)
        self._result = None
        return self._geo.moves[key]

    # -- the work of one stone -------------------------------------------------------

    def _place(self, index: int, key: int) -> None:
        team = self._to_move
        stones_left = self._stones_left
        self._cells[index] = team
        live = self._live
        live[index] = team
        empty_keys = self._empty_keys
        at = bisect_left(empty_keys, key)
        del empty_keys[at]
        del self._empty_moves[at]
        self._history.append(key)
        # A line must run through the new stone: count both ways along each axis.
        for step in self._line_steps:
            count = 1
            probe = index + step
            while live[probe] == team:
                count += 1
                probe += step
            probe = index - step
            while live[probe] == team:
                count += 1
                probe -= step
            if count >= RUN_TO_WIN:
                self._undo_log.append((team, stones_left, ()))
                self._result = Result(team, "six-in-a-row", self._points(team))
                return
        colored = self._after_stone(index, team) if self._colors_cells else ()
        self._undo_log.append((team, stones_left, colored))
        if self._result is not None:
            return
        if not empty_keys:
            self._result = Result(None, "board-full", self._points(None))
        elif stones_left > 1:
            self._stones_left = stones_left - 1
        else:
            self._to_move = 1 - team
            self._stones_left = 2 if len(empty_keys) >= 2 else 1

    def _after_stone(self, index: int, team: int) -> tuple[int, ...]:
        """Work after a stone that made no line, in games that color cells;
        returns the cells it colored."""
        raise NotImplementedError

    def _color_cells(self, cells: list[int], team: int) -> tuple[int, ...]:
        """Gives ``cells`` the team's color: they leave play and their dots die."""
        cells.sort()
        key_of_index = self._geo.key_of_index
        empty_keys = self._empty_keys
        for cell in cells:
            self._color[cell] = team
            self._live[cell] = EMPTY
            if self._cells[cell] == EMPTY:
                at = bisect_left(empty_keys, key_of_index[cell])
                del empty_keys[at]
                del self._empty_moves[at]
        self._colored_count[team] += len(cells)
        return tuple(cells)

    def _uncolor(self, cells: tuple[int, ...]) -> None:
        self._colored_count[self._color[cells[0]]] -= len(cells)
        key_of_index = self._geo.key_of_index
        for cell in cells:
            self._color[cell] = EMPTY
            self._live[cell] = self._cells[cell]
            if self._cells[cell] == EMPTY:
                self._restore_empty(key_of_index[cell])

    def _run(self, index: int, step: int, team: int) -> list[int]:
        cells = []
        probe = index + step
        while self._live[probe] == team:
            cells.append(probe)
            probe += step
        return cells

    def _points(self, winner: int | None) -> tuple[int, ...]:
        return ()

    # -- helpers ---------------------------------------------------------------------

    def _restore_empty(self, key: int) -> None:
        at = bisect_left(self._empty_keys, key)
        self._empty_keys.insert(at, key)
        self._empty_moves.insert(at, self._geo.moves[key])

    def _why_not_empty(self, square: Square, index: int) -> str:
        if self._color[index] != EMPTY:
            return f"{square} is colored and out of play"
        return f"{square} is taken"

    def _key(self, square: Square) -> int:
        if type(square) is not Square or type(square.col) is not int or type(square.row) is not int:
            raise IllegalMove(f"{square!r} is not a point")
        col, row = square
        if not (0 <= col < self.size and 0 <= row < self.size):
            raise IllegalMove(f"{square} is off the board ({board_limits(self.size)})")
        return row * self.size + col

    def _index(self, point: Square | str) -> int:
        square = point if type(point) is Square else Square.parse(point)
        return self._geo.index_of_key[self._key(square)]

    def _square_of(self, index: int) -> Square:
        return self._geo.moves[self._geo.key_of_index[index]].to

    def _encode_moves(self) -> bytes:
        return struct.pack(f">{len(self._history)}H", *self._history)

    def _decode_moves(self, data: bytes) -> list[Move]:
        if len(data) % 2:
            raise GameDataError("the saved move list is cut short")
        keys = struct.unpack(f">{len(data) // 2}H", data)
        moves = self._geo.moves
        if any(key >= len(moves) for key in keys):
            raise GameDataError("the saved move list names a point off the board")
        return [moves[key] for key in keys]
