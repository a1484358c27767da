"""Each SSH session gets the colors of its own terminal: chosen from the client's TERM,
COLORTERM and NO_COLOR, and brought down in the escape codes it is sent."""

import asyncio
import re

from hypothesis import given
from hypothesis import strategies as st
from rich.color import Color, ColorSystem

from sixtui.server.colors import ColorDowngrade
from sixtui.server.session import live_apps
from sixtui.tui.palettes import color_system_for, no_color_for, palette_for
from support.ssh_client import LOBBY, connect, read_until

HOME_TITLE = "Connect6, Game of 6 and Six"  # local play's home screen


def color_kinds(output: str) -> dict[str, int]:
    """How many colors of each kind ``output`` sets: 24-bit, 256 and the basic 16."""
    kinds = {"24-bit": 0, "256": 0, "16": 0}
    for parameters in re.findall(r"\x1b\[([0-9;]*)m", output):
        codes, index = parameters.split(";"), 0
        while index < len(codes):
            if codes[index] in ("38", "48") and codes[index + 1 : index + 2] == ["2"]:
                kinds["24-bit"] += 1
                index += 5
            elif codes[index] in ("38", "48") and codes[index + 1 : index + 2] == ["5"]:
                kinds["256"] += 1
                index += 3
            else:
                kinds["16"] += bool(re.fullmatch(r"3[0-7]|4[0-7]|9[0-7]|10[0-7]", codes[index]))
                index += 1
    return kinds


def test_the_color_system_comes_from_term_and_colorterm() -> None:
    assert color_system_for({"TERM": "xterm-256color", "COLORTERM": "truecolor"}) == "truecolor"
    assert color_system_for({"TERM": "xterm", "COLORTERM": "24bit"}) == "truecolor"
    assert color_system_for({"TERM": "xterm-kitty"}) == "truecolor"
    assert color_system_for({"TERM": "xterm-direct"}) == "truecolor"
    assert color_system_for({"TERM": "screen-256color"}) == "256"
    assert color_system_for({"TERM": "xterm"}) == "standard"
    assert color_system_for({"TERM": "linux"}) == "standard"
    assert color_system_for({}) == "standard"


def test_no_color_is_set_and_not_empty_or_a_terminal_without_colors() -> None:
    assert no_color_for({"TERM": "xterm-256color", "NO_COLOR": "1"})
    assert not no_color_for({"TERM": "xterm-256color", "NO_COLOR": ""})
    assert no_color_for({"TERM": "dumb"})
    assert not no_color_for({"TERM": "xterm"})


rgb = st.integers(0, 255)


@given(rgb, rgb, rgb, st.sampled_from(["38", "48"]), st.sampled_from(["1", "4", "7"]))
def test_24_bit_colors_become_the_nearest_256_or_16(red, green, blue, ground, attribute) -> None:
    sent = f"\x1b[{attribute};{ground};2;{red};{green};{blue}mx\x1b[0m"
    color = Color.from_rgb(red, green, blue)
    for system, rich_system in (("256", ColorSystem.EIGHT_BIT), ("standard", ColorSystem.STANDARD)):
        codes = color.downgrade(rich_system).get_ansi_codes(foreground=ground == "38")
        expected = f"\x1b[{';'.join((attribute, *codes))}mx\x1b[0m"
        assert ColorDowngrade(system)(sent) == expected
    assert ColorDowngrade("truecolor")(sent) == sent


@given(st.text())
def test_text_without_color_codes_is_sent_as_it_is(text: str) -> None:
    for system in ("standard", "256"):
        if "\x1b[" not in text:
            assert ColorDowngrade(system)(text) == text


async def test_sessions_at_once_each_get_their_own_terminals_colors(server) -> None:
    terminals = {
        "truecolor": ("xterm-256color", {"COLORTERM": "truecolor"}),
        "256": ("xterm-256color", {}),
        "16": ("xterm", {}),
    }

    async def board(term: str, env: dict[str, str]) -> str:
        async with connect(server) as connection:
            process = await connection.create_process(
                term_type=term, term_size=(80, 24), encoding="utf-8", env=env
            )
            seen = await read_until(process, LOBBY)
            process.stdin.write("l")  # local play: the home screen
            seen = await read_until(process, HOME_TITLE, seen)
            process.stdin.write("\r")  # a game: the board's colors too
            seen = await read_until(process, "place a stone", seen)
            process.stdin.write("q")
            return seen

    seen = await asyncio.gather(*(board(*terminal) for terminal in terminals.values()))
    kinds = dict(zip(terminals, map(color_kinds, seen), strict=True))
    assert kinds["truecolor"]["24-bit"] > 100
    assert kinds["256"]["256"] > 100 and kinds["256"]["24-bit"] == 0
    assert kinds["16"]["16"] > 100 and kinds["16"]["24-bit"] == kinds["16"]["256"] == 0


async def test_a_client_sending_no_color_gets_the_plain_board(server) -> None:
    async with connect(server) as connection:
        process = await connection.create_process(
            term_type="xterm-256color", term_size=(80, 24), encoding="utf-8", env={"NO_COLOR": "1"}
        )
        await read_until(process, LOBBY)
        process.stdin.write("l")
        await read_until(process, HOME_TITLE)
        process.stdin.write("\r")
        await read_until(process, "place a stone")
        (app,) = live_apps()
        assert app.no_color and palette_for(app.no_color, app.color_system) == "plain"
        process.stdin.write("q")
