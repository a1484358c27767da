"""What the square and hex boards share: a cursor on one cell, the keys that move
it and choose a cell, and the look the pieces are drawn in."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import ClassVar, Generic, TypeVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType

from sixtui.rules import Move
from sixtui.tui.palettes import Look, look_of
from sixtui.tui.session import GameSession
from sixtui.tui.widgets.lines import Line, LineWidget

Cell = TypeVar("Cell")

__all__ = ["BoardView", "Line"]


class BoardView(LineWidget, Generic[Cell], can_focus=True):
    """A board drawn from a :class:`GameSession`'s game, with a cursor on one cell.

    Subclasses say where each cell is drawn (``_lines``, :meth:`cell_at`) and
    how the cursor steps (:meth:`step`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1, 0)", "Move", show=False),
        Binding("right,l", "step(1, 0)", "Move", show=False),
        Binding("up,k", "step(0, -1)", "Move", show=False),
        Binding("down,j", "step(0, 1)", "Move", show=False),
        Binding("enter,space", "choose", "Place"),
    ]
    FOCUS_STYLED = False  # the cursor is drawn alike focused or not

    def __init__(
        self,
        session: GameSession,
        cursor: Cell,
        on_choose: Callable[[Cell], Awaitable[None]],
        **options: object,
    ) -> None:
        """``on_choose`` is awaited with the cell the player chooses (Enter, space or a
        click); a direct call rather than a message, since a move's whole redraw waits on it."""
        super().__init__(**options)
        self.session = session
        self.cursor = cursor
        self._on_choose = on_choose
        self._look: Look | None = None
        self.suggested: frozenset[Cell] = frozenset()  # where a suggested turn puts pieces
        self.lifted: frozenset[Cell] = frozenset()  # the pieces a suggested turn lifts

    @property
    def look(self) -> Look:
        return look_of(self.app, self.session.game)

    def _style(self, names: str) -> Style:
        return self._look.style(names) if self._look else self.look.style(names)

    def sync(self) -> None:
        self._look = self.look  # one look for the whole drawing
        try:
            super().sync()
        finally:
            self._look = None

    def mark_suggestion(self, turn: Sequence[Move]) -> None:
        """Marks the cells of ``turn``, a suggested turn (none: no suggestion), for the
        next :meth:`sync` to draw."""
        self.suggested = frozenset(move.to for move in turn if move.to is not None)  # type: ignore[misc]
        self.lifted = frozenset(move.origin for move in turn if move.origin is not None)  # type: ignore[misc]

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at widget offset ``x, y``, if any (from the last drawing)."""
        raise NotImplementedError

    def step(self, dx: int, dy: int) -> Cell:
        """Where the cursor goes from :attr:`cursor` for a key press."""
        raise NotImplementedError

    def move_cursor(self, cell: Cell) -> None:
        self.cursor = cell
        self.sync()

    def action_step(self, dx: int, dy: int) -> None:
        self.move_cursor(self.step(dx, dy))

    async def action_choose(self) -> None:
        await self._on_choose(self.cursor)

    async def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.move_cursor(cell)
            await self._on_choose(cell)
