"""Widgets drawn through Textual's line API from lines of styled runs.

A widget describes each line as runs of ``(text, style names)``. Equal lines
become one cached :class:`Strip`, and after a change only the stretch of each
line that differs is refreshed, so a server drawing for many players writes
and renders as little as it can.
"""

from __future__ import annotations

import textwrap
from collections import OrderedDict
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

# One drawn line: runs of (text, style names). Every character takes one cell.
Line = tuple[tuple[str, str], ...]
PAD = "pad"  # the style name of the widget's own background


class LineWidget(Widget):
    """A widget whose content is :meth:`_lines`; call :meth:`sync` after a change.

    A run's style names are, unless :meth:`_style` says otherwise, the component class
    ``COMPONENT_PREFIX--NAMES`` over the widget's own style.
    """

    COMPONENT_PREFIX: ClassVar[str] = ""
    FOCUS_STYLED: ClassVar[bool] = True
    """Whether the widget may look different focused, by its stylesheet or its lines: if
    not, gaining or losing the focus neither works its styles out again nor draws it anew
    (a board, focused and not in turn as a player types every turn on the move line, paid
    for both twice a turn)."""
    STRIPS_SPARE: ClassVar[int] = 16
    """How many distinct lines keep their strip beyond those shown: a widget draws its
    lines again and again (every repaint, a cursor moved back and forth), but once a
    stone is down the board's lines before it never come back, and every strip holds
    eight caches of its own (1.5 KB new, 4 KB once cropped): with 512 kept, what a
    session held grew with every turn it saw, and with 64 the strips of a board and its
    panel were a fifth of a session's memory."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self._component_styles: dict[str, Style] = {}
        self._drawn: list[Line] = []
        self._strips: OrderedDict[Line, Strip] = OrderedDict()
        self._pad: Style | None = None  # the widget's own style, read once

    def _lines(self, width: int, height: int) -> list[Line]:
        """Every line of the widget; the runs of a line fill ``width`` cells."""
        raise NotImplementedError

    def _style(self, names: str) -> Style:
        """The style of a run's names (other than :data:`PAD`), read once."""
        style = self._component_styles.get(names)
        if style is None:
            component = f"{self.COMPONENT_PREFIX}--{names}"
            style = self.rich_style + self.get_component_rich_style(component)
            self._component_styles[names] = style
        return style

    def sync(self) -> None:
        """Recomputes the lines and refreshes the part of each line that changed."""
        width, height = self.size
        if not width or not height:
            return
        lines = self._lines(width, height)
        old, self._drawn = self._drawn, lines
        self._keep_shown(lines)
        if len(old) != len(lines):
            self.refresh()
            return
        changed = []
        for y, (before, after) in enumerate(zip(old, lines, strict=True)):
            if before != after:
                start, end = self._changed_cells(before, after, width)
                changed.append(Region(start, y, end - start, 1))
        if changed:
            self.refresh(*changed)

    def forget(self) -> None:
        """Lets go of the lines drawn and their strips, for a widget out of sight: the
        next :meth:`sync` draws them anew, whole."""
        self._drawn = []
        self._strips.clear()

    def _keep_shown(self, lines: list[Line]) -> None:
        """The strips of the lines shown are the last the cache lets go of, however long
        ago they were drawn: a repaint of the whole widget (after a dialog, a layout)
        finds them all."""
        strips = self._strips
        if len(strips) + len(lines) <= self._strips_kept():
            return  # no line drawn before the next sync could push a shown one out
        for line in lines:
            if line in strips:
                strips.move_to_end(line)

    def _strips_kept(self) -> int:
        return self.size.height + self.STRIPS_SPARE

    def _changed_cells(self, before: Line, after: Line, width: int) -> tuple[int, int]:
        """The cells to refresh of a line drawn ``before`` and now ``after``: those from
        the first run that differs to the last."""
        return _changed_span(before, after, width)

    def on_mount(self) -> None:
        self.sync()

    def on_focus(self, event: events.Focus) -> None:
        """Gaining the focus redraws what looks different focused, not the whole widget.

        Textual's own handler (``Widget._on_focus``, kept from running here) repaints the
        whole widget: the board, focused and not in turn as a player types a turn on the
        move line, was written whole to their terminal twice a turn (5.6 KB each on a
        19×19 board). What it does besides is done here; a ``:focus`` style that changes
        how the widget looks still repaints it, as Textual does for any style.
        """
        event.prevent_default()
        self._set_focus(True)
        if self.FOCUS_STYLED:
            self.sync()
        if self.parent is not None:
            self.parent.post_message(events.DescendantFocus(self))

    def on_blur(self, event: events.Blur) -> None:
        """Losing the focus likewise (see :meth:`on_focus`)."""
        event.prevent_default()
        self._set_focus(False)
        if self.FOCUS_STYLED:
            self.sync()
        if self.parent is not None:
            self.parent.post_message(events.DescendantBlur(self))

    def _set_focus(self, focused: bool) -> None:
        if self.FOCUS_STYLED:
            self.has_focus = focused  # its watcher works the styles out again
        else:
            self.set_reactive(LineWidget.has_focus, focused)

    def on_resize(self) -> None:
        self._drawn = []
        self.sync()

    def render_line(self, y: int) -> Strip:
        if y >= len(self._drawn):
            return Strip.blank(self.size.width, self.rich_style)
        line = self._drawn[y]
        strip = self._strips.get(line)
        if strip is None:
            strip = self._strips[line] = self._strip(line)
            if len(self._strips) > self._strips_kept():
                self._strips.popitem(last=False)
        else:
            self._strips.move_to_end(line)
        return strip

    def _strip(self, line: Line) -> Strip:
        """One segment per stretch of equal style names."""
        segments: list[Segment] = []
        text, names = "", ""
        for run_text, run_names in line:
            if run_names == names:
                text += run_text
                continue
            if text:
                segments.append(Segment(text, self._segment_style(names)))
            text, names = run_text, run_names
        if text:
            segments.append(Segment(text, self._segment_style(names)))
        return Strip(segments)

    def _segment_style(self, names: str) -> Style:
        if names != PAD:
            return self._style(names)
        if self._pad is None:
            self._pad = self.rich_style
        return self._pad


def _changed_span(before: Line, after: Line, width: int) -> tuple[int, int]:
    """The cells from the first to the last run that differ between two drawings of a line
    (both fill ``width`` cells); the whole line when they are not run for run alike."""
    if len(before) != len(after):
        return 0, width
    differ = [
        number for number, (old, new) in enumerate(zip(before, after, strict=True)) if old != new
    ]
    if not differ:
        return 0, 0
    first, last = differ[0], differ[-1]
    if any(len(before[n][0]) != len(after[n][0]) for n in range(first, last + 1)):
        return 0, width
    start = sum(len(text) for text, _ in before[:first])
    end = width - sum(len(text) for text, _ in before[last + 1 :])
    return start, end


def wrap(text: str, width: int) -> list[str]:
    """``text`` broken into lines of at most ``width`` cells, between words where it can."""
    if len(text) <= width:
        return [text] if text else []
    return textwrap.wrap(text, width)


def fit(text: str, width: int) -> str:
    """``text`` padded to exactly ``width`` cells, or cut to them with a last "…" that
    says there was more.

    >>> fit("alice", 7), fit("alice_in_wonderland", 7), fit("alice", 0)
    ('alice  ', 'alice_…', '')
    """
    if len(text) <= width:
        return text.ljust(width)
    return f"{text[: width - 1]}…" if width > 0 else ""
