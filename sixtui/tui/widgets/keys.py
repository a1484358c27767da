"""The line of keys at the foot of a screen.

Textual's Footer is a widget per key; this is one line drawn through the line
API, so a board update that repaints near it costs next to nothing. A click on
a key presses it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding
from textual.screen import ModalScreen, Screen

from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit


class KeyBar(LineWidget):
    """The keys that do something now, with what they do: those of the focused widget
    and its screen, or of a dialog over the screen while it is open.

    A screen may change what a key is said to do, or leave out a key that would only
    say why it does nothing at the moment, with a method
    ``key_description(action, description)`` returning the words to show, or ``None``.
    """

    COMPONENT_PREFIX = "key-bar"
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-bar--key", "key-bar--description"}
    DEFAULT_CSS = """
    KeyBar { dock: bottom; height: 1; background: $footer-background; }
    KeyBar > .key-bar--key { color: $footer-key-foreground; text-style: bold; }
    KeyBar > .key-bar--description { color: $footer-description-foreground; }
    """

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._keys: list[tuple[int, int, str]] = []  # start, end and key of each entry
        self._answering: Screen[object] | None = None  # the screen whose keys are shown
        self._redraw_pending = False

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self._follow(self._answering_screen())
        super().on_mount()

    def on_unmount(self) -> None:
        self.app.screen_change_signal.unsubscribe(self)
        if self._answering is not None:
            self._answering.bindings_updated_signal.unsubscribe(self)

    def _answering_screen(self) -> Screen[object]:
        """This bar's screen, or the dialog open over it."""
        stack = self.app.screen_stack
        if len(stack) > 1 and stack[-2] is self.screen and isinstance(stack[-1], ModalScreen):
            return stack[-1]
        return self.screen

    def _follow(self, screen: Screen[object]) -> None:
        if screen is self._answering:
            return
        if self._answering is not None:
            self._answering.bindings_updated_signal.unsubscribe(self)
        self._answering = screen
        screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _screen_changed(self, screen: object) -> None:
        self._follow(self._answering_screen())
        self.sync()

    def _bindings_changed(self, screen: object) -> None:
        """Redraws once for every time the keys changed since: one change to a screen often
        says so several times (the lobby's two lists and the lobby itself, each drawn anew),
        and working out the keys shown is most of what drawing this line costs."""
        if not self._redraw_pending:
            self._redraw_pending = True
            self.call_next(self._redraw)

    def _redraw(self) -> None:
        self._redraw_pending = False
        self.sync()

    def _entries(self) -> list[tuple[str, str, str]]:
        """The key, its label and what it does, for each key shown, in order."""
        screen = self._answering or self.screen
        describe = getattr(screen, "key_description", None)
        entries: dict[str, tuple[str, Binding]] = {}  # by description
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not active.enabled:
                continue
            description: str | None = binding.description
            if describe is not None:
                description = describe(binding.action, description)
            if description is None:
                continue
            shown = entries.get(description)
            # Of two keys that do the same, a letter is the one a dialog's buttons name.
            if shown is None or (len(key) == 1 and len(shown[0]) > 1):
                entries[description] = (key, binding)
        return [
            (key, self.app.get_key_display(binding), description)
            for description, (key, binding) in entries.items()
        ]

    def _lines(self, width: int, height: int) -> list[Line]:
        entries = self._entries()
        room = sum(len(label) + len(description) + 3 for _, label, description in entries)
        gap = " " if room <= width else ""  # closer together rather than cut short
        runs: list[tuple[str, str]] = []
        self._keys = []
        x = 0
        for key, label, description in entries:
            label, description = f" {label} ", f"{description}{gap}"
            if x + len(label) + len(description) > width:
                break
            runs += [(label, "key"), (description, "description")]
            self._keys.append((x, x + len(label) + len(description), key))
            x += len(label) + len(description)
        runs.append((fit("", width - x), PAD))
        return [tuple(runs)] + [((" " * width, PAD),)] * (height - 1)

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._keys:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
