"""The Connect6 and Game of 6 board: stones or dots on a lettered and numbered grid."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sixtui.rules import Game, Square
from sixtui.rules.square import COLUMN_LETTERS
from sixtui.tui.palettes import Look
from sixtui.tui.session import GameSession
from sixtui.tui.widgets.board import BoardView
from sixtui.tui.widgets.lines import PAD, Line

LABEL_WIDTH = 3  # "19 " on the left; the right label takes 2 more


def turn_of(move_number: int) -> int:
    """The turn a move belongs to: one stone opens, then two a turn."""
    return (move_number + 1) // 2


def recent_squares(game: Game) -> set[Square]:
    """The stones of the last whole turn, and of the turn being played if it has begun."""
    history = game.history
    if not history:
        return set()
    newest = turn_of(len(history) - 1)
    in_progress = not game.is_over and turn_of(len(history)) == newest
    oldest = newest - 1 if in_progress else newest
    return {move.to for number, move in enumerate(history) if turn_of(number) >= oldest}


class SquareBoard(BoardView[Square]):
    """A square board, columns lettered from the left and rows numbered from the bottom.

    When the widget is smaller than the board it shows the part around the cursor.
    """

    def __init__(
        self,
        session: GameSession,
        on_choose: Callable[[Square], Awaitable[None]],
        **options: object,
    ) -> None:
        middle = session.game.size // 2
        super().__init__(session, Square(middle, middle), on_choose, **options)
        self._first_col = 0
        self._first_row = 0  # the lowest row shown
        self._origin = (0, 0)  # where column _first_col of the top row shown is drawn
        self._shown = (0, 0)  # columns and rows shown
        # The last drawing: what framed it, what it showed, and each row's line.
        self._frame: tuple[object, ...] = ()
        self._marks: _Marks | None = None
        self._rows: dict[int, Line] = {}

    def step(self, dx: int, dy: int) -> Square:
        size = self.session.game.size
        col = min(max(self.cursor.col + dx, 0), size - 1)
        row = min(max(self.cursor.row - dy, 0), size - 1)
        return Square(col, row)

    def cell_at(self, x: int, y: int) -> Square | None:
        left, top = self._origin
        cols, rows = self._shown
        col, line = (x - left) // 2, y - top
        if 0 <= col < cols and 0 <= line < rows:
            return Square(self._first_col + col, self._first_row + rows - 1 - line)
        return None

    def _lines(self, width: int, height: int) -> list[Line]:
        game = self.session.game
        size = game.size
        cols = min(size, max(1, (width - LABEL_WIDTH - 2) // 2))
        rows = min(size, max(1, height - 2))
        self._first_col = _window(self._first_col, cols, size, self.cursor.col)
        self._first_row = _window(self._first_row, rows, size, self.cursor.row)
        drawn_width = LABEL_WIDTH + 2 * cols + 2
        left = max(0, (width - drawn_width) // 2)
        top = max(0, (height - rows - 2) // 2)
        self._origin = (left + LABEL_WIDTH, top + 1)
        self._shown = (cols, rows)
        pad_left = (" " * left, PAD)
        pad_right = (" " * max(0, width - left - drawn_width), PAD)
        blank: Line = ((" " * width, PAD),)

        letters = "".join(
            f"{COLUMN_LETTERS[c]} " for c in range(self._first_col, self._first_col + cols)
        )
        edge: Line = (pad_left, (" " * LABEL_WIDTH + letters + "  ", "label"), pad_right)
        lines = [blank] * top + [edge]
        marks = _Marks(game, self.cursor, self.look, self.suggested)
        # The game itself is left out: online, every move arrives as a new game object,
        # and what it changed is what the marks tell apart.
        frame = (game.name, size, width, height, self._first_col, self._first_row, marks.look)
        if frame != self._frame or self._marks is None:
            self._frame, self._rows = frame, {}
            changed_rows = None
        else:
            changed_rows = {square.row for square in marks.changed_since(self._marks)}
        self._marks = marks
        for row in range(self._first_row + rows - 1, self._first_row - 1, -1):
            if changed_rows is None or row in changed_rows or row not in self._rows:
                runs = [pad_left, (f"{row + 1:>2} ", "label")]
                for col in range(self._first_col, self._first_col + cols):
                    runs += marks.cell(Square(col, row))
                runs += [(f"{row + 1:<2}", "label"), pad_right]
                self._rows[row] = tuple(runs)
            lines.append(self._rows[row])
        lines.append(edge)
        lines += [blank] * (height - len(lines))
        return lines[:height]


class _Marks:
    """What a square shows, read from the game once per drawing."""

    def __init__(
        self, game: Game, cursor: Square, look: Look, suggested: frozenset[Square]
    ) -> None:
        self.look = look
        self.cursor = cursor
        self.suggested = suggested
        self.stones = game.layout()  # type: ignore[attr-defined]
        self.colored = game.colored_cells()  # type: ignore[attr-defined]
        self.recent = recent_squares(game)
        self.winning = set(game.winning_cells()) if game.is_over else set()

    def changed_since(self, before: _Marks) -> set[Square]:
        """The squares that may look different from how ``before`` showed them."""
        changed = {square for square, _ in self.stones.items() ^ before.stones.items()}
        changed.update(square for square, _ in self.colored.items() ^ before.colored.items())
        changed.update(self.recent ^ before.recent, self.winning ^ before.winning)
        changed.update(self.suggested ^ before.suggested)
        changed.update((self.cursor, before.cursor))
        return changed

    def cell(self, square: Square) -> list[tuple[str, str]]:
        """The runs of one square: its glyph, then the gap to the next square.

        The gap takes the glyph's style without the cursor and win marks, so that
        runs of alike squares merge into one stretch of text on the terminal.
        """
        look = self.look
        team = self.stones.get(square)
        colored = self.colored.get(square)
        if colored is not None:
            names = f"filled{colored}"
            glyph = look.dead if team is not None else look.fill[colored]
            gap = (look.fill[colored], names)
            if team is not None:
                names += "+dead"
        elif team is not None:
            recent = square in self.recent
            glyph = (look.last_piece if recent else look.piece)[team]
            names = f"team{team}+last" if recent else f"team{team}"
            gap = (" ", names)
        else:
            glyph, names = look.point, "grid"
            gap = (" ", names)
        if square in self.suggested and team is None:
            glyph = look.suggested
            names += "+suggest"
        if square in self.winning:
            names += "+win"
        if square == self.cursor:
            names += "+cursor"
        return [_shared((glyph, names)), _shared(gap)]


# Every run a board has drawn, each kept once: a board's rows keep hundreds of runs,
# nearly all alike, and there are a few dozen different ones in all.
_RUNS: dict[tuple[str, str], tuple[str, str]] = {}


def _shared(run: tuple[str, str]) -> tuple[str, str]:
    """``run``, or the one equal to it made before."""
    return _RUNS.setdefault(run, run)


def _window(first: int, shown: int, total: int, keep: int) -> int:
    """The first index of ``shown`` of ``total`` places that still shows ``keep``."""
    first = min(max(first, keep - shown + 1), keep)
    return min(max(first, 0), total - shown)
