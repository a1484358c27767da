"""Text entry keeps every key in the order it came, even when keys arrive in a burst."""

from textual import events
from textual.app import App, ComposeResult

from sixtui.tui.widgets.typing import TypedInput


class Entry(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield TypedInput()

    def on_input_submitted(self, submitted: TypedInput.Submitted) -> None:
        self.submitted.append(submitted.value)


async def burst(*keys: str) -> Entry:
    """Posts ``keys`` all at once, as a packet of several keys does, then lets them settle."""
    app = Entry()
    async with app.run_test() as pilot:
        for key in keys:
            character = key if len(key) == 1 else None
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
    return app


async def test_a_backspace_in_a_burst_removes_the_character_before_it() -> None:
    app = await burst("b", "a", "backspace", "c", "enter")
    assert app.submitted == ["bc"]


async def test_cursor_keys_in_a_burst_move_before_the_next_character() -> None:
    app = await burst("b", "c", "left", "a", "home", "x", "enter")
    assert app.submitted == ["xbac"]
