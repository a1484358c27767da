"""The line of keys at the foot of the game screen.

Textual's Footer is a widget per key; this is one line drawn through the line
API, so a board update that repaints near it costs next to nothing. A click on
a key presses it.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events

from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit


class KeyBar(LineWidget):
    """The keys the focused widget and its screen answer to, with what they do."""

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

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        super().on_mount()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: object) -> None:
        self.sync()

    def _lines(self, width: int, height: int) -> list[Line]:
        runs: list[tuple[str, str]] = []
        self._keys = []
        x = 0
        shown: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or binding.description in shown or not active.enabled:
                continue
            shown.add(binding.description)
            label = f" {self.app.get_key_display(binding)} "
            entry = f"{binding.description} "
            if x + len(label) + len(entry) > width:
                break
            runs += [(label, "key"), (entry, "description")]
            self._keys.append((x, x + len(label) + len(entry), key))
            x += len(label) + len(entry)
        runs.append((fit("", width - x), PAD))
        return [tuple(runs)] + [((" " * width, PAD),)] * (height - 1)

    def on_click(self, event: events.Click) -> None:
        for start, end, key in self._keys:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return
