"""What the square and hex boards share: drawing through the line API, redrawing
only the lines that changed, and the keys that move a cursor and choose a cell."""

from __future__ import annotations

from collections import OrderedDict
from typing import ClassVar, Generic, TypeVar

from rich.segment import Segment
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from sixtui.tui.look import Look, look_for, palette_for, team_names
from sixtui.tui.session import GameSession

Cell = TypeVar("Cell")
# One drawn line: runs of (text, style names); equal lines are drawn once.
Line = tuple[tuple[str, str], ...]
_STRIPS_KEPT = 512


class BoardView(Widget, Generic[Cell], can_focus=True):
    """A board drawn from a :class:`GameSession`'s game, with a cursor on one cell.

    Subclasses say where each cell is (:meth:`_lines`, :meth:`cell_at`) and how
    the cursor steps (:meth:`step`); this class caches each distinct line as a
    :class:`Strip` and, after every change, refreshes only the lines that differ.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1, 0)", "Move", show=False),
        Binding("right,l", "step(1, 0)", "Move", show=False),
        Binding("up,k", "step(0, -1)", "Move", show=False),
        Binding("down,j", "step(0, 1)", "Move", show=False),
        Binding("enter,space", "choose", "Place"),
    ]

    class Chosen(Message, Generic[Cell]):
        """The player chose ``cell`` (Enter, space or a click)."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, session: GameSession, cursor: Cell, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.session = session
        self.cursor = cursor
        self._drawn: list[Line] = []
        self._strips: OrderedDict[Line, Strip] = OrderedDict()

    @property
    def look(self) -> Look:
        palette = palette_for(self.app.no_color, self.app.console.color_system)
        return look_for(palette, team_names(self.session.game))

    # -- what subclasses provide ---------------------------------------------------------

    def _lines(self, width: int, height: int) -> list[Line]:
        """Every line of the widget as runs; the runs of a line fill ``width`` cells."""
        raise NotImplementedError

    def cell_at(self, x: int, y: int) -> Cell | None:
        """The cell drawn at widget offset ``x, y``, if any (from the last drawing)."""
        raise NotImplementedError

    def step(self, dx: int, dy: int) -> Cell:
        """Where the cursor goes from :attr:`cursor` for a key press."""
        raise NotImplementedError

    # -- drawing -------------------------------------------------------------------------

    def sync(self) -> None:
        """Recomputes the drawing and refreshes the lines that changed."""
        width, height = self.size
        if not width or not height:
            return
        lines = self._lines(width, height)
        old = self._drawn
        self._drawn = lines
        if len(old) != len(lines):
            self.refresh()
            return
        for y, (before, after) in enumerate(zip(old, lines, strict=True)):
            if before != after:
                self.refresh(Region(0, y, width, 1))

    def render_line(self, y: int) -> Strip:
        if y >= len(self._drawn):
            return Strip.blank(self.size.width, self.rich_style)
        line = self._drawn[y]
        strip = self._strips.get(line)
        if strip is None:
            strip = self._strips[line] = self._strip(line)
            if len(self._strips) > _STRIPS_KEPT:
                self._strips.popitem(last=False)
        else:
            self._strips.move_to_end(line)
        return strip

    def _strip(self, line: Line) -> Strip:
        look, pad = self.look, self.rich_style
        segments: list[Segment] = []
        text, names = "", None
        for run_text, run_names in line:
            if run_names == names:
                text += run_text
                continue
            if text:
                segments.append(Segment(text, pad if names == "pad" else look.style(names)))
            text, names = run_text, run_names
        if text:
            segments.append(Segment(text, pad if names == "pad" else look.style(names)))
        return Strip(segments)

    def forget_drawing(self) -> None:
        """Drops cached lines, for when the look changes (theme, colors)."""
        self._strips.clear()
        self._drawn = []
        self.sync()

    # -- events --------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.sync()

    def on_resize(self, event: events.Resize) -> None:
        self._drawn = []
        self.sync()

    def move_cursor(self, cell: Cell) -> None:
        self.cursor = cell
        self.sync()

    def action_step(self, dx: int, dy: int) -> None:
        self.move_cursor(self.step(dx, dy))

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.cursor))

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.move_cursor(cell)
            self.post_message(self.Chosen(cell))
