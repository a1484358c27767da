"""The Six table: hexagon cells in offset rows, around a layout that may grow anywhere.

Cell ``q,r`` is drawn on line ``r`` at column ``2q + r``, so each row sits half a
cell to the right of the one above it, as in the rules' diagrams. The view
follows the layout as it grows; it can be panned and re-centred.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from textual.binding import Binding, BindingType

from sixtui.rules import Game, Move, new_game
from sixtui.rules.hexes import Hex
from sixtui.tui.palettes import Look
from sixtui.tui.session import GameSession
from sixtui.tui.widgets.board import BoardView
from sixtui.tui.widgets.lines import Line, fit

PAN_COLUMNS, PAN_LINES = 8, 3
BLANK = (" ", "board")  # a run of empty table
BLANK_CELL = (BLANK, BLANK)  # an empty cell and the gap after it


class HexBoard(BoardView[Hex]):
    """The layout of a game of Six, with a cursor, hints and the cells of a choice.

    The last line shows the cursor's cell as ``q,r``.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("shift+left,H", "pan(-1, 0)", "Pan", show=False),
        Binding("shift+right,L", "pan(1, 0)", "Pan", show=False),
        Binding("shift+up,K", "pan(0, -1)", "Pan", show=False),
        Binding("shift+down,J", "pan(0, 1)", "Pan", show=False),
        Binding("c", "centre", "Centre"),
    ]

    def __init__(
        self,
        session: GameSession,
        on_choose: Callable[[Hex], Awaitable[None]],
        **options: object,
    ) -> None:
        super().__init__(session, Hex(0, 0), on_choose, **options)
        self.hints: frozenset[Hex] = frozenset()
        self.picked: Hex | None = None
        self.groups: list[frozenset[Hex]] = []
        # Where up or down last took the cursor, and the column they keep to from there.
        self._kept_column: tuple[Hex, int] | None = None
        self._view: tuple[int, int] | None = None  # column and line drawn top left
        self._following = True
        self._keep_cursor_in_view = True
        # The rules and moves of the game last drawn, its layout, and what its last move emptied.
        self._drawn_game: tuple[tuple[object, ...], list[Move], dict[Hex, int]] = ((), [], {})
        self._captured: frozenset[Hex] = frozenset()

    def show_choice(
        self,
        hints: frozenset[Hex] = frozenset(),
        picked: Hex | None = None,
        groups: list[frozenset[Hex]] | None = None,
    ) -> None:
        """Marks the cells the player may choose, the piece picked up, and tied groups."""
        self.hints, self.picked, self.groups = hints, picked, groups or []
        self.sync()

    # -- moving around ---------------------------------------------------------------------

    def step(self, dx: int, dy: int) -> Hex:
        """Left and right go to the next cell of the row. Up and down keep to one column,
        as a text editor does: each row is offset by half a cell, so on a row with no cell
        in that column the cursor stands just left of it, and the next row takes it up again."""
        q, r = self.cursor
        if dx:
            return Hex(q + dx, r)
        column = 2 * q + r
        if self._kept_column is not None and self._kept_column[0] == self.cursor:
            column = self._kept_column[1]
        cell = Hex((column - r - dy) // 2, r + dy)
        self._kept_column = (cell, column)
        return cell

    def move_cursor(self, cell: Hex) -> None:
        self._keep_cursor_in_view = True
        super().move_cursor(cell)

    def action_pan(self, dx: int, dy: int) -> None:
        if self._view is not None:
            x, y = self._view
            self._view = (x + dx * PAN_COLUMNS, y + dy * PAN_LINES)
        self._following = self._keep_cursor_in_view = False
        self.sync()

    def on_resize(self) -> None:
        if self._following:  # not panned by hand: centred anew in the room it has now
            self._view = None
        super().on_resize()

    def action_centre(self) -> None:
        """Centres the view on the layout and brings the cursor to its middle."""
        self._following = True
        self._view = None
        layout = self.session.game.layout() or {Hex(0, 0): 0}
        xs = [2 * q + r for q, r in layout]
        ys = [r for _, r in layout]
        middle_x, middle_y = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
        self.move_cursor(Hex((middle_x - middle_y) // 2, middle_y))

    def cell_at(self, x: int, y: int) -> Hex | None:
        if self._view is None or y >= self.size.height - 1:
            return None
        world_x, r = x + self._view[0], y + self._view[1]
        return Hex((world_x - r) // 2, r) if (world_x - r) % 2 == 0 else None

    # -- drawing ---------------------------------------------------------------------------

    def _lines(self, width: int, height: int) -> list[Line]:
        game = self.session.game
        layout = game.layout()
        frontier = {n for cell in layout for n in cell.neighbours() if n not in layout}
        self._place_view(layout, frontier, width, height - 1)
        assert self._view is not None
        view_x, view_y = self._view
        marks = self._marks(game, layout, frontier)
        marked_rows = {r for _, r in marks}
        blank_row: Line = (BLANK,) * width  # a row with nothing on it, as _row draws it
        lines: list[Line] = []
        for y in range(height - 1):
            r = view_y + y
            # Most rows of the view are empty table, drawn without a look at their cells.
            lines.append(_row(marks, r, view_x, width) if r in marked_rows else blank_row)
        status = f" {self.cursor.q},{self.cursor.r}"
        lines.append(((fit(status, width), "label"),))
        return lines

    def _marks(
        self, game: Game, layout: dict[Hex, int], frontier: set[Hex]
    ) -> dict[Hex, tuple[tuple[str, str], tuple[str, str]]]:
        """How each cell that is not blank is drawn: its run, and the run of the gap to
        its right. Only these few cells are looked at one by one; the rest of the view
        is blank table."""
        history = game.history
        last = history[-1].to if history else None
        captured = self._captured_by_last_move(game, history, layout)
        winning = set(game.winning_cells()) if game.is_over else set()
        group_of = {cell: n for n, group in enumerate(self.groups, 1) for cell in group}
        hints = self.hints if self.hints or layout else frozenset({Hex(0, 0)})
        look = self.look
        marked = layout.keys() | frontier | hints | captured | self.suggested | self.lifted
        marked |= group_of.keys() | winning | {self.cursor}
        if self.picked is not None:
            marked.add(self.picked)
        marks = {}
        for cell in marked:
            glyph, base = _cell_glyph(cell, layout, frontier, hints, captured, last, look)
            names = base
            if cell in self.suggested and cell not in layout:
                glyph, names = look.suggested, "board+suggest"
            if cell in self.lifted:
                names += "+lift"
            if cell == self.picked:
                names += "+pick"
            if cell in group_of:
                names += "+group"
            if cell in winning:
                names += "+win"
            if cell == self.cursor:
                names += "+cursor"
            # The gap shares the cell's plain style, so alike cells merge into one run.
            number = group_of.get(cell)
            marks[cell] = ((glyph, names), (str(number), "board+label") if number else (" ", base))
        return marks

    def _captured_by_last_move(
        self, game: Game, history: list[Move], layout: dict[Hex, int]
    ) -> frozenset[Hex]:
        """The cells whose pieces the last move captured, found once per move: from the
        layout drawn before it when that was one move earlier, else by replaying the game.

        A game is told apart from another by its rules and moves, not as an object: online,
        every move arrives as a new game, and replaying it was most of a late turn's drawing
        (1.8 ms a screen at move 70 of a Six game)."""
        rules = (game.name, game.options())
        drawn_rules, drawn_history, drawn_layout = self._drawn_game
        if rules != drawn_rules or history != drawn_history:
            one_move_on = rules == drawn_rules and history[:-1] == drawn_history
            before = drawn_layout if one_move_on else _layout_before_last_move(game)
            lifted = {history[-1].origin} if history else set()
            self._captured = frozenset(before.keys() - layout.keys() - lifted)
            self._drawn_game = (rules, list(history), layout)
        return self._captured

    def _place_view(
        self, layout: dict[Hex, int], frontier: set[Hex], width: int, height: int
    ) -> None:
        """Keeps the cursor in view, and the whole layout while it fits and is followed."""
        cells = set(layout) | frontier | {self.cursor}
        xs = [2 * q + r for q, r in cells]
        ys = [r for _, r in cells]
        span_x, span_y = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        if self._view is None:
            self._view = (
                (min(xs) + max(xs)) // 2 - width // 2,
                (min(ys) + max(ys)) // 2 - height // 2,
            )
        x, y = self._view
        if self._following and span_x <= width and span_y <= height:
            x = min(max(x, max(xs) - width + 1), min(xs))
            y = min(max(y, max(ys) - height + 1), min(ys))
        if self._keep_cursor_in_view:
            cursor_x, cursor_y = 2 * self.cursor.q + self.cursor.r, self.cursor.r
            x = min(max(x, cursor_x - width + 2), cursor_x - 1)
            y = min(max(y, cursor_y - height + 1), cursor_y)
        self._view = (x, y)


def _row(
    marks: dict[Hex, tuple[tuple[str, str], tuple[str, str]]], r: int, view_x: int, width: int
) -> Line:
    """Row ``r`` of a view whose left edge is at ``view_x``: each cell's runs (blank table
    where ``marks`` has none), one run a character."""
    runs: list[tuple[str, str]] = []
    if (view_x - r) % 2:  # the line starts between two cells
        runs.append(BLANK)
    first_x = view_x + len(runs)
    for world_x in range(first_x, view_x + width, 2):
        # A plain tuple finds a Hex: it is one, and cheaper to make.
        cell, gap = marks.get(((world_x - r) // 2, r), BLANK_CELL)
        runs.append(cell)
        if world_x + 1 < view_x + width:
            runs.append(gap)
    return tuple(runs)


def _layout_before_last_move(game: Game) -> dict[Hex, int]:
    before = new_game(game.name, **game.options())
    for move in game.history[:-1]:
        before.play(move)
    return before.layout()  # type: ignore[attr-defined, no-any-return]


def _cell_glyph(
    cell: Hex,
    layout: dict[Hex, int],
    frontier: set[Hex],
    hints: frozenset[Hex],
    captured: frozenset[Hex],
    last: Hex | None,
    look: Look,
) -> tuple[str, str]:
    team = layout.get(cell)
    if team is not None:
        if cell == last:
            return look.last_piece[team], f"team{team}+last"
        return look.piece[team], f"team{team}"
    if cell in hints:
        return "+", "hint"
    if cell in captured:
        return look.captured, "board+captured"
    if cell in frontier:
        return look.point, "grid"
    return " ", "board"
