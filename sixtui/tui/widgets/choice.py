"""Choices a line each, a caption and its options side by side: ↑ and ↓ move between
the lines, ← and → change the choice on the current one.

The home screen is one of these rather than Textual's selects and radio sets, or even a
widget per line: every widget costs a new session time and memory, and a server starts a
home screen for every player who connects.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType

from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit

CAPTION_WIDTH = 11

Option = tuple[str, Hashable]  # its title, and the value it stands for


@dataclass
class Choice:
    """One line: ``caption`` and its ``options``, of which ``value`` is chosen, and a
    ``note`` after them saying what the choice does, where there is room.

    >>> Choice("players", "Players", [("2", 2), ("4 as two teams", 4)], 4).index
    1
    """

    name: str
    caption: str
    options: list[Option]
    value: Hashable
    note: str = ""
    shown: bool = True
    spans: list[tuple[int, int, int]] = field(default_factory=list, compare=False)
    """Where each option was last drawn: its first and last cell + 1, and its index."""

    def __post_init__(self) -> None:
        if not self.options:
            raise ValueError(f"{self.caption} has nothing to choose from")
        if self.index_of(self.value) is None:
            self.value = self.options[0][1]

    @property
    def index(self) -> int:
        return self.index_of(self.value) or 0

    def index_of(self, value: Hashable) -> int | None:
        return next((i for i, (_, option) in enumerate(self.options) if option == value), None)


class ChoiceList(LineWidget):
    """A line per shown :class:`Choice`, in order; the one the cursor is on is
    highlighted while the list has focus. A click on an option chooses it.

    Moving up from the first line or down from the last moves the focus on, as Tab does.
    """

    can_focus = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1)", "Change", key_display="←→"),
        Binding("right,l", "step(1)", "Change", show=False),
        Binding("up,k", "move(-1)", "Line", key_display="↑↓"),
        Binding("down,j", "move(1)", "Line", show=False),
    ]
    COMPONENT_PREFIX = "choice-list"
    # The current line's caption and choice have styles of their own (rather than :focus
    # rules), so that a style read once stays right.
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "choice-list--caption",
        "choice-list--caption-current",
        "choice-list--option",
        "choice-list--option-current",
        "choice-list--chosen",
        "choice-list--chosen-current",
        "choice-list--note",
    }
    DEFAULT_CSS = """
    ChoiceList { height: auto; }
    ChoiceList > .choice-list--caption { color: $text-muted; }
    ChoiceList > .choice-list--caption-current { color: $accent; text-style: bold; }
    ChoiceList > .choice-list--chosen { background: $boost; text-style: bold; }
    ChoiceList > .choice-list--chosen-current { background: $accent; text-style: bold; }
    ChoiceList > .choice-list--note { color: $text-muted; }
    """

    def __init__(
        self,
        choices: Sequence[Choice],
        on_change: Callable[[str], None] | None = None,
        **widget_options: str,
    ) -> None:
        """``on_change`` is called with a choice's name as soon as it changes: a direct
        call rather than a message, so that the lines it shows or hides are in place for
        the next key even when keys come in a burst."""
        super().__init__(**widget_options)
        self._choices = {choice.name: choice for choice in choices}
        self._current = choices[0].name
        self._on_change = on_change

    @property
    def shown(self) -> list[Choice]:
        """The choices on screen, in order."""
        return [choice for choice in self._choices.values() if choice.shown]

    @property
    def current(self) -> str:
        """The name of the choice the cursor is on."""
        return self._current

    @current.setter
    def current(self, name: str) -> None:
        if not self._choices[name].shown:
            raise ValueError(f"{self._choices[name].caption} is not shown")
        self._current = name
        self.sync()

    def __getitem__(self, name: str) -> Choice:
        return self._choices[name]

    def value(self, name: str) -> Hashable:
        return self._choices[name].value

    def choose(self, name: str, value: Hashable) -> None:
        """Chooses ``value`` for ``name``; a ValueError if it is not one of its options."""
        choice = self._choices[name]
        if choice.index_of(value) is None:
            raise ValueError(f"{value!r} is not one of the choices for {choice.caption}")
        if value != choice.value:
            choice.value = value
            self.sync()
            if self._on_change is not None:
                self._on_change(name)

    def set_options(self, name: str, options: Sequence[Option], value: Hashable) -> None:
        """New options for ``name``, with ``value`` chosen among them; a ValueError, and
        nothing changed, if it is not one of them."""
        choice = self._choices[name]
        if all(option != value for _, option in options):
            raise ValueError(f"{value!r} is not one of the choices for {choice.caption}")
        choice.options = list(options)
        self.choose(name, value)
        self.sync()  # the options shown changed, even if the choice did not

    def show(self, name: str, shown: bool) -> None:
        """Shows or hides the line of ``name``; the cursor leaves a line hidden."""
        choice = self._choices[name]
        if choice.shown == shown:
            return
        choice.shown = shown
        if not self._choices[self._current].shown:
            self._current = self._nearest_shown(name)
        self.refresh(layout=True)
        self.sync()

    def _nearest_shown(self, name: str) -> str:
        names = list(self._choices)
        here = names.index(name)
        for name_after in names[here:] + names[:here][::-1]:
            if self._choices[name_after].shown:
                return name_after
        return name

    def action_step(self, step: int) -> None:
        choice = self._choices[self._current]
        self.choose(choice.name, choice.options[(choice.index + step) % len(choice.options)][1])

    def action_move(self, step: int) -> None:
        names = [choice.name for choice in self.shown]
        if self._current not in names:
            return  # every line is hidden
        line = names.index(self._current) + step
        if not 0 <= line < len(names):
            if step > 0:
                self.screen.focus_next()
            else:
                self.screen.focus_previous()
            return
        self._current = names[line]
        self.sync()

    def on_click(self, event: events.Click) -> None:
        self.focus()
        shown = self.shown
        if not 0 <= event.y < len(shown):
            return
        choice = shown[event.y]
        self._current = choice.name
        self.sync()
        for start, end, index in choice.spans:
            if start <= event.x < end:
                self.choose(choice.name, choice.options[index][1])

    def watch_has_focus(self, has_focus: bool) -> None:
        # Not on_focus and on_blur: they run before has_focus changes, and the current
        # line would stay drawn as current after the focus had gone.
        super().watch_has_focus(has_focus)
        self.sync()

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.shown)

    def _lines(self, width: int, height: int) -> list[Line]:
        lines = [
            _line(choice, width, current=self.has_focus and choice.name == self._current)
            for choice in self.shown
        ]
        return lines[:height] + [((" " * width, PAD),)] * (height - len(lines))


def _line(choice: Choice, width: int, current: bool) -> Line:
    """``choice`` drawn on a line of ``width`` cells; notes where its options went."""
    texts = [f" {title} " for title, _ in choice.options]
    chosen = choice.index
    first, last = _window([len(text) + 1 for text in texts], chosen, width - CAPTION_WIDTH - 2)
    runs: list[tuple[str, str]] = [
        (fit(choice.caption, CAPTION_WIDTH), "caption"),
        ("‹" if first > 0 else " ", "caption"),
    ]
    x, choice.spans = CAPTION_WIDTH + 1, []
    for index in range(first, last + 1):
        runs += [(texts[index], "chosen" if index == chosen else "option"), (" ", PAD)]
        choice.spans.append((x, x + len(texts[index]), index))
        x += len(texts[index]) + 1
    if last < len(texts) - 1:
        runs.append(("›", "caption"))
        x += 1
    if current:
        runs = [(text, names if names == PAD else f"{names}-current") for text, names in runs]
    note = f"  {choice.note}"
    if choice.note and x + len(note) <= width:
        runs.append((note, "note"))
        x += len(note)
    runs.append((fit("", width - x), PAD))
    return tuple(runs)


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
