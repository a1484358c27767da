"""What one player sends costs the others little: every line a player types holds a
bounded number of characters, a paste is cut to a bounded length before it is parsed,
input reaches the app in small slices, and a key sequence Textual cannot read is dropped
without ending the session."""

import asyncio
import logging

from hypothesis import example, given
from hypothesis import strategies as st
from textual import events

from sixtui.server import session as sessions_module
from sixtui.server.driver import (
    LONGEST_PASTE,
    MOVES_PER_PRESS,
    PASTE_END,
    PASTE_START,
    PRESS_BURST_SECONDS,
    ChannelDriver,
    PasteCap,
)
from sixtui.server.session import INPUT_WINDOW
from sixtui.tui.app import SixtuiApp
from sixtui.tui.field_lengths import CHAT_LINE, MOVE_LINE, NAME_LINE
from sixtui.tui.presence import Visitor
from sixtui.tui.widgets.typing import TypedInput
from support.event_loop import Posted, largest_gap_while
from support.ssh_client import LOBBY, TIMEOUT, Screen, connect, read_until
from support.tui_helpers import game_screen, hot_seat

KITTY = "\x1b[1;5:3u"  # ctrl held, released (kitty's keyboard protocol): Textual raises on it


# -- the length of each line ----------------------------------------------------------------


async def test_the_move_line_holds_no_more_than_its_length_however_it_is_filled():
    app = hot_seat("connect6", size=19)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash")
        line = game_screen(app).query_one("#move-input", TypedInput)
        told = []
        app.notify = lambda message, **options: told.append(message)
        await pilot.press(*"J10" * 20)
        assert line.value == ("J10" * 20)[:MOVE_LINE]
        assert told == [  # in words, once for all the keys beyond
            f"This line holds {MOVE_LINE} characters at most: what did not fit was left out."
        ]
        line.value = ""
        line.post_message(events.Paste("K11 " * 10_000))
        await pilot.pause()
        assert line.value == ""  # a move cut short may be another: refused whole
        assert told[-1] == (
            f"This line holds {MOVE_LINE} characters at most: the paste was left out."
        )
        line.post_message(events.Paste("K11 L12"))
        await pilot.pause()
        assert line.value == "K11 L12"
        line.value = ""
        line.post_message(events.Paste("say " + "ab" * CHAT_LINE))  # chat is cut to fit
        await pilot.pause()
        assert line.value == "say " + ("ab" * CHAT_LINE)[:CHAT_LINE]
        assert told[-1] == (
            f"This line holds {CHAT_LINE + 4} characters at most: what did not fit was left out."
        )


async def test_a_paste_too_long_for_the_chat_line_is_cut_to_fit_and_said_so():
    app = hot_seat("connect6", size=19)
    async with app.run_test(size=(100, 30)) as pilot:
        line = game_screen(app).query_one("#chat-input", TypedInput)
        line.display = True
        line.focus()
        await pilot.pause()
        told = []
        app.notify = lambda message, **options: told.append(message)
        line.post_message(events.Paste("hello "))
        await pilot.pause()
        line.post_message(events.Paste("x" * 1_000))
        await pilot.pause()
        assert line.value == ("hello " + "x" * 1_000)[:CHAT_LINE]
        assert told == [
            f"This line holds {CHAT_LINE} characters at most: what did not fit was left out."
        ]
        line.post_message(events.Paste("more"))
        await pilot.pause()
        assert line.value == ("hello " + "x" * 1_000)[:CHAT_LINE]  # full: nothing goes in


async def test_the_name_line_holds_no_more_than_its_length():
    player = Visitor("alice", name_refused="taken", rename=lambda name: None)
    app = SixtuiApp(player=player)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"n" * (NAME_LINE + 10))
        assert app.screen.query_one("#name", TypedInput).value == "n" * NAME_LINE


# -- pastes ---------------------------------------------------------------------------------


def test_a_paste_is_cut_to_its_longest_and_what_follows_it_goes_through():
    cap = PasteCap(longest=5)
    pasted = cap.feed("a" + PASTE_START + "x" * 1000 + PASTE_END + "b")
    assert pasted == "a" + PASTE_START + "xxxxx" + PASTE_END + "b"
    assert cap.feed("\x1b") == "\x1b"  # a lone Esc is not held back


def whole_stream(text: str) -> str:
    return PasteCap(longest=8).feed(text)


stream_parts = st.lists(
    st.sampled_from(["ab", "\x1b", "[", "\x1b[20", "0~", "1~", PASTE_START, PASTE_END, "x" * 7]),
    max_size=30,
)


@given(parts=stream_parts, cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=8))
# An end mark begun inside a paste just short of its longest, cut after its Esc.
@example(parts=[PASTE_START, "ab", "ab", "ab", "\x1b[20"], cuts=[13])
# A paste cut off just after what begins an end mark, and the rest of one after the excess.
@example(parts=[PASTE_START, "ab", "\x1b", "\x1b", "\x1b[20", "x" * 7, "1~"], cuts=[21])
def test_a_stream_cut_into_pieces_anywhere_passes_as_it_does_whole(parts, cuts):
    text = "".join(parts)
    cap, passed, start = PasteCap(longest=8), [], 0
    for cut in [*sorted(cuts), len(text)]:
        passed.append(cap.feed(text[start:cut]))
        start = max(start, cut)
    assert "".join(passed) == whole_stream(text)


async def test_a_paste_of_megabytes_keeps_the_loop_moving_and_the_session_alive(serve):
    # The rate an operator may set high; each slice the app is handed stays small.
    port = await serve(input_rate=10_000_000)
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
        )
        await read_until(process, LOBBY)
        process.stdin.write("l")  # local play: the home screen over the lobby
        await read_until(process, "Play")
        process.stdin.write("\r")
        await read_until(process, ": place a stone")  # after the guest's name
        process.stdin.write("/")
        await read_until(process, "Enter plays it")  # the cursor stands on its first letter
        (terminal,) = sessions_module._LIVE
        paste = PASTE_START + "J10 " * 500_000 + PASTE_END + "\r"

        async def paste_and_resize():
            process.stdin.write(paste)
            async with asyncio.timeout(TIMEOUT):
                await process.stdin.drain()
                while terminal._waiting or terminal._draining:
                    await asyncio.sleep(0.01)
            for width in (120, 100, 120, 100):
                process.change_terminal_size(width, 30)
                await asyncio.sleep(0.1)

        _, largest = await largest_gap_while(paste_and_resize())
        process.stdin.write("\x1b")  # the move line closes: the session goes on
        await read_until(process, "Type")
    # Handed to the parser and the app whole, the paste stalled the loop for seconds.
    assert largest < 0.25, f"the loop stood still for {largest:.3f} s"


async def test_a_long_paste_at_the_default_rate_holds_back_no_key_after_it(serve):
    port = await serve()  # 1,024 characters a second: the paste whole would take 200 s
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
        )
        await read_until(process, LOBBY)
        process.stdin.write(PASTE_START + "pasted words " * 16_000 + PASTE_END + "q")
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()  # the q read once the paste's first 1,024 were
        assert process.exit_status == 0


@given(st.text(alphabet=st.sampled_from("ab \t\x1b[31m;~0\x07é"), max_size=60))
async def test_a_paste_with_escape_sequences_in_it_arrives_whole_and_presses_no_key(text):
    app = Posted()
    driver = ChannelDriver(app, write=lambda text: None, size=(80, 24))
    driver.feed((PASTE_START + text + PASTE_END).encode())
    pasted = [m.text for m in app.messages if isinstance(m, events.Paste)]
    assert app.keys == [] and pasted == ([text.replace("\x1b", "")] if text else pasted)
    driver.feed(b"k")  # and the keys after it are keys again
    assert app.keys == ["k"]
    driver.close()


# -- sequences the parser cannot read -------------------------------------------------------


async def test_a_sequence_the_parser_cannot_read_is_dropped_and_reading_goes_on():
    app, problems = Posted(), []
    driver = ChannelDriver(app, write=lambda text: None, unreadable=problems.append, size=(80, 24))
    driver.feed(b"a")
    driver.feed(KITTY.encode() + b"c" + KITTY.encode())
    driver.feed(b"b" + PASTE_START.encode() + b"x" * (2 * LONGEST_PASTE) + PASTE_END.encode())
    driver.feed(b"\x1b[A")
    assert app.keys == ["a", "c", "b", "up"]
    (paste,) = [m for m in app.messages if isinstance(m, events.Paste)]
    assert paste.text == "x" * LONGEST_PASTE
    assert len(problems) == 2 and all(isinstance(problem, ValueError) for problem in problems)
    driver.close()


async def kitty_then_quit(port: int, before: str) -> int:
    """Sends ``before``, the kitty sequence twice, then q: the session's exit status."""
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding="utf-8"
        )
        await read_until(process, LOBBY)
        process.stdin.write(before + KITTY)
        await asyncio.sleep(0.2)
        process.stdin.write(KITTY + "q")
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
        return process.exit_status


async def test_a_sequence_the_parser_cannot_read_straight_from_the_network(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve()
    assert await kitty_then_quit(port, before="") == 0
    assert caplog.text.count("why=input the key parser cannot read was dropped") == 1


async def test_a_sequence_the_parser_cannot_read_behind_the_input_rate(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(input_rate=64)
    assert await kitty_then_quit(port, before="x" * 100) == 0  # it waits its turn
    assert caplog.text.count("why=input the key parser cannot read was dropped") == 1


# -- presses and floods ---------------------------------------------------------------------


class Receiver:
    """Stands for the app: keeps what the driver posts."""

    def __init__(self) -> None:
        self.posted: list[events.Event] = []

    def post_message(self, message: events.Event) -> None:
        self.posted.append(message)

    def count(self, kind: type) -> int:
        return sum(isinstance(message, kind) for message in self.posted)


def rated_driver(press_rate: float) -> tuple[ChannelDriver, Receiver, list[None]]:
    receiver, told = Receiver(), []
    driver = ChannelDriver(
        receiver, write=lambda text: None, press_rate=press_rate, too_fast=lambda: told.append(None)
    )
    return driver, receiver, told


MOVE = "\x1b[<35;12;7M"  # the mouse moved, no button held (SGR)
PRESS, RELEASE = "\x1b[<0;10;5M", "\x1b[<0;10;5m"


async def test_presses_beyond_the_rate_are_dropped_and_the_session_told():
    driver, receiver, told = rated_driver(press_rate=10)
    driver.feed(("j" * 100 + MOVE * 100 + PRESS + RELEASE).encode())
    burst = 10 * PRESS_BURST_SECONDS
    assert receiver.count(events.Key) == burst
    assert receiver.count(events.MouseDown) == 0  # a press too: over the rate
    assert receiver.count(events.MouseUp) == 1  # a button let go always is
    assert receiver.count(events.MouseMove) == burst * MOVES_PER_PRESS  # dropped silently
    assert len(told) == 100 - burst + 1


async def test_presses_come_through_again_as_the_rate_allows():
    driver, receiver, _ = rated_driver(press_rate=20)
    driver.feed(b"j" * 200)
    before = receiver.count(events.Key)
    await asyncio.sleep(0.5)
    driver.feed(b"k" * 200)
    again = receiver.count(events.Key) - before
    assert 8 <= again <= 13  # about half a second's worth at 20 a second


async def test_a_player_pressing_keys_without_pause_is_told_once_and_still_plays(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(key_rate=20)
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(100, 30), encoding="utf-8"
        )
        screen = Screen(process)
        await screen.shows(LOBBY)
        process.stdin.write("j" * 400)  # far more than four seconds' worth at once
        await screen.shows("Too fast")
        assert "faster than 20 a second" in screen.text
        await asyncio.sleep(1.0)  # the rate grows back: q is a key like any other
        process.stdin.write("q")
        async with asyncio.timeout(TIMEOUT):
            await process.wait_closed()
    assert process.exit_status == 0
    assert caplog.text.count("why=keys faster than 20 a second were dropped") == 1


async def test_a_client_sending_as_fast_as_it_can_is_held_within_the_input_window(
    serve, monkeypatch
):
    # A rate at which the paused channel is read empty, and resumed, many times a second.
    port = await serve(input_rate=8192)
    handed = []
    original = sessions_module.Terminal.data_received

    def counting(terminal, data, datatype):
        handed.append(len(data))
        original(terminal, data, datatype)

    monkeypatch.setattr(sessions_module.Terminal, "data_received", counting)
    async with connect(port) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding="utf-8"
        )
        await read_until(process, LOBBY)
        reading = asyncio.get_running_loop().create_task(process.stdout.read(1 << 30))
        written = 0

        async def flood() -> None:
            nonlocal written
            while True:
                process.stdin.write("x" * 4096)
                written += 4096
                await process.stdin.drain()

        flooding = asyncio.get_running_loop().create_task(flood())
        await asyncio.sleep(4)
        flooding.cancel()
        reading.cancel()
        # What the client wrote and the session was not handed is in the client's own
        # buffers (a window's worth at most) or kept by the server: never more than a
        # window. The window reopened at every pause kept a window more each time.
        assert written - sum(handed) <= 3 * INPUT_WINDOW, f"{written:,} written"
