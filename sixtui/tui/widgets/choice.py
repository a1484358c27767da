"""One line with a caption and its options side by side; ← and → change the choice.

The home screen is a column of these rather than Textual's selects and radio sets: a
select is several widgets and an overlay, and a server starts a home screen for every
player who connects.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit

CAPTION_WIDTH = 11


class ChoiceRow(LineWidget):
    """``caption`` and ``options`` (title, value); :attr:`value` is the one chosen."""

    can_focus = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1)", "Change", key_display="←→"),
        Binding("right,l", "step(1)", "Change", show=False),
        Binding("up,k", "app.focus_previous", "Line", key_display="↑↓"),
        Binding("down,j", "app.focus_next", "Line", show=False),
    ]
    COMPONENT_PREFIX = "choice-row"
    # The focused row's caption and choice have styles of their own (rather than :focus
    # rules), so that a style read once stays right.
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "choice-row--caption",
        "choice-row--caption-focused",
        "choice-row--option",
        "choice-row--option-focused",
        "choice-row--chosen",
        "choice-row--chosen-focused",
    }
    DEFAULT_CSS = """
    ChoiceRow { height: 1; }
    ChoiceRow > .choice-row--caption { color: $text-muted; }
    ChoiceRow > .choice-row--caption-focused { color: $accent; text-style: bold; }
    ChoiceRow > .choice-row--chosen { background: $boost; text-style: bold; }
    ChoiceRow > .choice-row--chosen-focused { background: $accent; text-style: bold; }
    """

    class Changed(Message):
        """The choice of ``row`` changed."""

        def __init__(self, row: ChoiceRow) -> None:
            super().__init__()
            self.row = row

    def __init__(
        self,
        caption: str,
        options: Sequence[tuple[str, Hashable]],
        value: Hashable,
        **widget_options: str,
    ) -> None:
        super().__init__(**widget_options)
        self.caption = caption
        self._options = list(options)
        self._value = value if self._index_of(value) is not None else self._options[0][1]
        self._spans: list[tuple[int, int, int]] = []  # start, end and index of each option

    @property
    def value(self) -> Hashable:
        return self._value

    @value.setter
    def value(self, value: Hashable) -> None:
        if self._index_of(value) is None:
            raise ValueError(f"{value!r} is not one of the choices for {self.caption}")
        if value != self._value:
            self._value = value
            self.sync()
            self.post_message(self.Changed(self))

    def set_options(
        self, options: Sequence[tuple[str, Hashable]], value: Hashable | None = None
    ) -> None:
        """New options, and ``value`` chosen among them; by default the choice stays if
        it is among them, else becomes the first."""
        self._options = list(options)
        if value is None:
            value = self._value if self._index_of(self._value) is not None else options[0][1]
        self.value = value
        self.sync()

    def _index_of(self, value: Hashable) -> int | None:
        return next((i for i, (_, option) in enumerate(self._options) if option == value), None)

    def action_step(self, step: int) -> None:
        index = self._index_of(self._value) or 0
        self.value = self._options[(index + step) % len(self._options)][1]

    def on_click(self, event: events.Click) -> None:
        self.focus()
        for start, end, index in self._spans:
            if start <= event.x < end:
                self.value = self._options[index][1]

    def on_focus(self) -> None:
        self.sync()

    def on_blur(self) -> None:
        self.sync()

    def _lines(self, width: int, height: int) -> list[Line]:
        texts = [f" {title} " for title, _ in self._options]
        chosen = self._index_of(self._value) or 0
        first, last = _window([len(text) + 1 for text in texts], chosen, width - CAPTION_WIDTH - 2)
        runs: list[tuple[str, str]] = [
            (fit(self.caption, CAPTION_WIDTH), "caption"),
            ("‹" if first > 0 else " ", "caption"),
        ]
        x, self._spans = CAPTION_WIDTH + 1, []
        for index in range(first, last + 1):
            runs += [(texts[index], "chosen" if index == chosen else "option"), (" ", PAD)]
            self._spans.append((x, x + len(texts[index]), index))
            x += len(texts[index]) + 1
        if last < len(texts) - 1:
            runs.append(("›", "caption"))
            x += 1
        if self.has_focus:
            runs = [(text, names if names == PAD else f"{names}-focused") for text, names in runs]
        runs.append((fit("", width - x), PAD))
        return [tuple(runs)] + [((" " * width, PAD),)] * (height - 1)


def _window(widths: list[int], around: int, room: int) -> tuple[int, int]:
    """The first and last of the options (``widths`` wide) shown in ``room`` cells: as
    many as fit, ``around`` among them, growing to the right first.

    >>> _window([4, 4, 4, 4, 4], 3, 12)
    (2, 4)
    >>> _window([4, 4], 0, 40)
    (0, 1)
    """
    first = last = around
    used = widths[around]
    while True:
        if last + 1 < len(widths) and used + widths[last + 1] <= room:
            last += 1
            used += widths[last]
        elif first > 0 and used + widths[first - 1] <= room:
            first -= 1
            used += widths[first]
        else:
            return first, last
