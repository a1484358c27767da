"""A one-line text entry whose editing keys keep their place among typed characters."""

from __future__ import annotations

import time

from rich.cells import cell_len
from rich.style import Style
from textual import events
from textual.binding import BindingsMap
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input

from sixtui.tui.chat import longest_line, said_text
from sixtui.tui.textual_internals import component_styles

# Seconds between two notices that a line is full: a key held down at its end would say
# it at every repeat.
LINE_FULL_NOTICE = 3.0


class LineFull:
    """Tells the player, once in a while, that the line they type into is full."""

    def __init__(self) -> None:
        self._told = ("", float("-inf"))  # the last notice, and when

    def tell(self, widget: Widget, longest: int, left_out: str = "what did not fit") -> None:
        """Says that the line holds ``longest`` characters, and that ``left_out`` was left
        out (the same notice again only after a while)."""
        text = f"This line holds {longest} characters at most: {left_out} was left out."
        now = time.monotonic()
        if text == self._told[0] and now - self._told[1] < LINE_FULL_NOTICE:
            return
        self._told = (text, now)
        widget.notify(text, title="Line full", severity="warning")


class TypedInput(Input):
    """An :class:`~textual.widgets.Input` that runs its own key bindings (backspace,
    arrows, enter) as their keys arrive.

    Textual runs a widget's bindings only once the key has bubbled up to the app, while
    typed characters are inserted on the spot, so in a burst of keys (common over SSH,
    where several arrive in one packet) a character typed after a backspace could be
    inserted first, and the backspace then removed the wrong one.
    """

    _KEYS = BindingsMap(Input.BINDINGS)

    def __init__(
        self, *options: object, focus_styled: bool = True, cuts: bool = False, **named: object
    ) -> None:
        """``focus_styled=False`` for an input the stylesheet draws alike focused or not
        (one shown only while it has the focus): gaining and losing the focus then skip
        working out its styles again, which cost a table's mover twice a turn. ``cuts``:
        a paste too long is cut to fit, not left out (see :meth:`replace`)."""
        # Component styles worked out, by names and partial, with the styles they came from.
        self._kept_styles: dict[tuple[tuple[str, ...], bool], tuple[tuple[object, ...], Style]] = {}
        super().__init__(*options, **named)  # type: ignore[arg-type]
        self._focus_styled = focus_styled
        self._cuts = cuts
        self._full = LineFull()
        # A steady cursor: a blinking one is drawn and sent twice a second for as long
        # as the line is open, to every player thinking with the move line open.
        self.cursor_blink = False

    def get_component_rich_style(
        self, *names: str, partial: bool = False, default: Style | None = None
    ) -> Style:
        """As Textual works it out, kept while the stylesheet's styles of those components
        stay the same objects and this input's own are unchanged.

        Textual forgets a widget's component styles at every refresh, and an input
        refreshes at every key: working out its cursor's and placeholder's styles again
        was nearly half of what drawing the line cost at each key."""
        given = component_styles(self)
        sources = tuple(given.get(name) for name in names)
        key = (names, partial)
        kept = self._kept_styles.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], sources, strict=True)):
            return kept[1]
        style = super().get_component_rich_style(*names, partial=partial, default=default)
        if default is None or style is not default:
            self._kept_styles[key] = (sources, style)
        return style

    def notify_style_update(self) -> None:
        self._kept_styles.clear()
        super().notify_style_update()

    def restricted(self) -> None:
        """A key or a paste the line has no room for: said in words, not by the bell."""
        self._full.tell(self, self.max_length or 0)

    def replace(self, text: str, start: int, end: int) -> None:
        """As Input's, but a paste with no room for all of it goes in as far as it fits
        where :meth:`cuts` says a cut line still means what was meant (chat), and is left
        out whole where it does not (a move cut short may be another move)."""
        value = self.value
        start, end = sorted((max(0, start), min(len(value), end)))
        line = f"{value[:start]}{text}{value[end:]}"
        self.max_length = self.longest(line)
        room = len(text)
        if self.max_length:
            room = self.max_length - len(value) + (end - start)
        if len(text) <= room:
            super().replace(text, start, end)
        elif len(text) > 1 and not self.cuts(line):
            self._full.tell(self, self.max_length, "the paste")
        else:
            if room > 0:
                super().replace(text[:room], start, end)
            self.restricted()

    def longest(self, line: str) -> int:
        """How long a line this input holds, were it to hold ``line`` (0: any length): the
        same for every line here."""
        return self.max_length or 0

    def cuts(self, line: str) -> bool:
        """Whether ``line``, too long for this input, may be cut to fit: made with
        ``cuts=True``."""
        return self._cuts

    def watch_has_focus(self, has_focus: bool) -> None:
        if self._focus_styled:
            super().watch_has_focus(has_focus)

    @property
    def content_width(self) -> int:
        """As wide as the longest line the input takes (and its cursor), not as what is
        typed so far: Textual lays the whole screen out again whenever the width of an
        input's content changes, which made every key typed cost a full layout."""
        return max(cell_len(self.value), self.max_length or 0) + 1

    def on_mount(self) -> None:
        self.virtual_size = Size(self.content_width, 1)  # as Textual sets it on a first key

    async def _on_key(self, event: events.Key) -> None:
        if not event.is_printable:
            for binding in self._KEYS.key_to_bindings.get(event.key, []):
                if await self.app.run_action(binding.action, self):
                    event.stop()
                    event.prevent_default()
                    return
        await super()._on_key(event)

    class SubmitTyped(Message):
        """Submit what is typed once the keys that came before are in: posted to the
        input, it waits behind them in the input's own queue."""

    class DiscardTyped(Message):
        """Forget what is typed once the keys that came before are in."""

    def on_typed_input_submit_typed(self, message: SubmitTyped) -> None:
        message.stop()
        typed, self.value = self.value, ""
        self.post_message(self.Submitted(self, typed))

    def on_typed_input_discard_typed(self, message: DiscardTyped) -> None:
        message.stop()
        self.value = ""


class SayingLine(TypedInput):
    """A line for commands or moves that takes a line of chat too (``say`` and the line):
    ``longest`` characters for the first, a whole line of chat after ``say``; a paste too
    long is cut to fit for chat only."""

    def __init__(self, longest: int, **named: object) -> None:
        super().__init__(max_length=longest, **named)
        self._longest = longest

    def longest(self, line: str) -> int:
        return longest_line(line, self._longest)

    def cuts(self, line: str) -> bool:
        return said_text(line) is not None
