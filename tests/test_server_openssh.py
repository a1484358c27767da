"""The SSH server end to end with the real OpenSSH client, as a player meets it.

``ssh -tt`` runs on a pseudo-terminal and what it shows is read through the ``pyte``
terminal emulator, so these tests see what a player sees: the lobby, a local game against
the computer, the screen redrawn when the window changes size, a lone Esc taken as Esc,
and a session that ends with status 0 and the player's terminal put back. asyncssh's own
client (tests/test_server_ssh.py) cannot show what OpenSSH does differently: how it splits
keys into packets, how it forwards window changes, how it logs in without a key.

The server runs in the test's event loop; ssh is a child process whose output is read
with ``loop.add_reader``, so neither waits for the other.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from sixtui.server.login import BAD_USER_NAME
from support.ssh_client import LOBBY, TIMEOUT
from support.ssh_screen import (
    BLACK,
    TRUSTING,
    WHITE,
    SshTerminal,
    client_environment,
    fingerprint,
    make_key,
    need_openssh,
    ssh_command,
)

HOME_TITLE = "Connect6, Game of 6 and Six"  # local play's home screen
GUEST = ("-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=keyboard-interactive")
LEAVE = "Leave this game?"
TOO_SMALL = "Please make the terminal at least 80×24."

Terminals = Callable[..., SshTerminal]


@pytest.fixture
async def terminals(tmp_path: Path, server: int) -> AsyncIterator[Terminals]:
    """Starts ``ssh -tt`` sessions (a guest unless given options) to ``server``, the port
    of conftest.py's server in this test's event loop. HOME is the test's own folder, so
    no key, config or known host of this machine's user is used. Whatever is left of the
    sessions is ended afterwards."""
    started: list[SshTerminal] = []

    def start(*options: str, cols: int = 80, rows: int = 24) -> SshTerminal:
        ssh = need_openssh()[0]
        terminal = SshTerminal(ssh_command(ssh, server, *(options or GUEST)), tmp_path, cols, rows)
        started.append(terminal)
        terminal.start()
        return terminal

    yield start
    for terminal in started:
        terminal.close()


async def quits_cleanly(terminal: SshTerminal) -> None:
    """ssh has exited with status 0 and the session put the terminal back as it found it:
    the alternate screen left, mouse reports, focus reports and bracketed paste off, the
    cursor shown, and nothing written after that."""
    status = await terminal.wait_for_exit()
    assert status == 0, f"ssh exited with status {status}\n{terminal.dump()}"
    raw = bytes(terminal.raw)
    entered, left = raw.rfind(b"\x1b[?1049h"), raw.rfind(b"\x1b[?1049l")
    assert 0 <= entered < left, "the session did not leave the alternate screen"
    for on, off in (
        (b"\x1b[?1000h", b"\x1b[?1000l"),  # mouse clicks
        (b"\x1b[?1003h", b"\x1b[?1003l"),  # mouse movement
        (b"\x1b[?1006h", b"\x1b[?1006l"),  # SGR mouse coordinates
        (b"\x1b[?1004h", b"\x1b[?1004l"),  # focus in and out
        (b"\x1b[?2004h", b"\x1b[?2004l"),  # bracketed paste
        (b"\x1b[?25l", b"\x1b[?25h"),  # the cursor
    ):
        assert raw.rfind(on) < raw.rfind(off), f"{off!r} did not follow the last {on!r}"
    after = raw[left + len(b"\x1b[?1049l") :]
    assert not after.strip(), f"written after the terminal was put back: {after!r}"


async def wait_for_guest_to(terminal: SshTerminal, what: str) -> None:
    """Waits for the status line of the guest's turn: their name (their seat's), then ``what``
    (on the same line: what follows may wrap)."""
    await terminal.wait_until(
        lambda: re.search(rf"guest-[0-9a-f]{{6}}: {what}", terminal.text), 8, f"the guest to {what}"
    )


def replied(terminal: SshTerminal, number: int) -> bool:
    """Turn ``number`` is in the move list as two points, each with a white stone."""
    points = terminal.turn(number)
    return (
        points is not None
        and len(points) == 2
        and all(terminal.stone_at(point) in WHITE for point in points)
    )


async def test_a_key_login_opens_the_lobby_and_q_ends_the_session_cleanly(
    tmp_path: Path, terminals: Terminals, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sixtui.server")
    keygen = need_openssh()[1]
    key = make_key(keygen, tmp_path)
    terminal = terminals(
        "-i",
        str(key),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "PreferredAuthentications=publickey",
    )
    await terminal.wait_for_text(f"{LOBBY} alice")
    await terminal.wait_for_text("q Quit")
    assert f"method=publickey user=alice key={fingerprint(keygen, key)}" in caplog.text
    assert "method=guest" not in caplog.text
    terminal.press("q")
    await quits_cleanly(terminal)


async def local_play(terminal: SshTerminal) -> None:
    """From the lobby to local play: the home screen, over the lobby."""
    await terminal.wait_for_text(LOBBY)
    terminal.press("l")
    await terminal.wait_for_text(HOME_TITLE)


async def test_a_guest_plays_the_computer_with_arrows_enter_and_typed_moves(
    terminals: Terminals, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="sixtui.server")
    terminal = terminals()
    await local_play(terminal)
    assert re.search(r"method=guest user=guest-[0-9a-f]{6}", caplog.text)
    terminal.press("\r")  # Play: Connect6 against the normal computer
    await wait_for_guest_to(terminal, "place a stone")
    # The cursor starts on J10: up and right make it K11. Arrows are escape sequences,
    # which must reach the app whole however ssh packs them.
    terminal.press("\x1b[A")
    terminal.press("\x1b[C")
    terminal.press("\r")
    await terminal.wait_until(lambda: terminal.turn(1) == ["K11"], 8, "1. K11")
    await terminal.wait_until(lambda: terminal.stone_at("K11") in BLACK, 8, "● on K11")
    # The computer's reply: two points in the move list, two white stones on them.
    await terminal.wait_until(
        lambda: replied(terminal, 2), 8, "the computer's two stones in the list and on the board"
    )
    await wait_for_guest_to(terminal, "place two")
    # The second turn typed in notation: / opens the entry, Enter plays what it holds.
    for point in ("A1", "S19"):
        terminal.press("/")
        await terminal.wait_for_text("type a move")
        terminal.press(f"{point}\r")
        await terminal.wait_until(lambda p=point: terminal.stone_at(p) in BLACK, 8, point)
    await terminal.wait_until(lambda: terminal.turn(3) == ["A1", "S19"], 8, "3.")
    await terminal.wait_until(lambda: replied(terminal, 4), 8, "the computer's second reply")
    terminal.press("q")
    await terminal.wait_for_text(LEAVE)
    terminal.press("y")
    await terminal.wait_for_text(HOME_TITLE)
    terminal.press("q")  # back to the lobby
    await terminal.wait_for_text(LOBBY)
    terminal.press("q")
    await quits_cleanly(terminal)


async def test_resizing_the_window_redraws_the_screen_at_the_new_size(
    terminals: Terminals,
) -> None:
    terminal = terminals(cols=80, rows=24)
    await terminal.wait_for_text(LOBBY)
    terminal.resize(60, 20)
    await terminal.wait_for_text("It is 60×20 now.")
    assert TOO_SMALL in terminal.text
    terminal.resize(100, 30)
    await terminal.wait_for_no_text(TOO_SMALL)
    await terminal.wait_for_text(LOBBY)
    # Laid out again for 100×30: the footer on row 30, the lists past column 80.
    await terminal.wait_until(
        lambda: "q Quit" in terminal.screen.display[29], 8, "the footer on the last row"
    )
    await terminal.wait_until(
        lambda: max(len(line.rstrip()) for line in terminal.screen.display) > 80,
        8,
        "something drawn past column 80",
    )
    terminal.resize(79, 24)  # one column short is too small
    await terminal.wait_for_text("It is 79×24 now.")
    terminal.press("q")  # the cover lets a player leave
    await quits_cleanly(terminal)


async def test_a_lone_esc_closes_the_help_the_move_entry_and_a_question(
    terminals: Terminals,
) -> None:
    terminal = terminals()
    await terminal.wait_for_text(LOBBY)
    terminal.press("?")
    await terminal.wait_for_text("The lobby's keys")
    terminal.press("\x1b")
    await terminal.wait_for_no_text("The lobby's keys")
    await local_play(terminal)
    terminal.press("\r")
    await wait_for_guest_to(terminal, "place a stone")
    terminal.press("/")
    await terminal.wait_for_text("type a move")
    terminal.press("\x1b")
    await terminal.wait_for_no_text("type a move")
    terminal.press("\r")  # the board has the keys again: Enter places on J10
    await terminal.wait_until(lambda: terminal.turn(1) == ["J10"], 8, "1. J10")
    terminal.press("q")
    await terminal.wait_for_text(LEAVE)
    terminal.press("\x1b")  # Esc declines: the game goes on
    await terminal.wait_for_no_text(LEAVE)
    await terminal.wait_until(lambda: terminal.stone_at("J10") in BLACK, 8, "● on J10")
    assert "Connect6" in terminal.text and HOME_TITLE not in terminal.text
    terminal.press("q")
    await terminal.wait_for_text(LEAVE)
    terminal.press("y")
    await terminal.wait_for_text(HOME_TITLE)
    terminal.press("\x03")  # ctrl+c reaches the app (ssh's terminal is raw) and quits
    await quits_cleanly(terminal)


async def run_client(home: Path, *argv: str) -> tuple[int, str]:
    """Runs an OpenSSH client (ssh, sftp, scp) with nothing to read; its status and what
    it wrote to stderr."""
    process = await asyncio.create_subprocess_exec(
        *argv,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env=client_environment(home),
        cwd=home,
    )
    async with asyncio.timeout(TIMEOUT):
        _, stderr = await process.communicate()
    assert process.returncode is not None
    return process.returncode, stderr.decode()


@pytest.mark.parametrize("terminal", [(), ("-t",)], ids=["no terminal", "terminal"])
async def test_a_command_is_told_there_are_none_and_how_to_connect(
    tmp_path: Path, server: int, terminal: tuple[str, ...]
) -> None:
    ssh = need_openssh()[0]
    where = ("-p", str(server), "127.0.0.1")
    status, said = await run_client(tmp_path, ssh, *GUEST, *TRUSTING, *terminal, *where, "ls")
    assert status == 1
    assert said.strip().splitlines() == [
        f"sixtui: this server runs no commands; connect with ssh -p {server} HOST"
    ]


async def test_file_transfers_are_told_there_are_none(tmp_path: Path, server: int) -> None:
    ssh = need_openssh()[0]
    client = Path(ssh).parent
    sent = tmp_path / "sent.txt"
    sent.write_text("hello")
    told = (
        "sixtui: this server offers no file transfer (sftp, scp); "
        f"connect with ssh -p {server} HOST"
    )
    for argv in (
        [client / "sftp", "-P", str(server), *GUEST, *TRUSTING, "127.0.0.1"],
        [client / "scp", "-P", str(server), *GUEST, *TRUSTING, sent, "127.0.0.1:sent.txt"],
        [client / "scp", "-O", "-P", str(server), *GUEST, *TRUSTING, sent, "127.0.0.1:x"],
    ):
        status, said = await run_client(tmp_path, *map(str, argv))
        assert status != 0, argv
        assert said.splitlines()[0] == told, (argv, said)


async def test_a_user_name_ssh_cannot_carry_is_told_what_a_name_holds(
    tmp_path: Path, server: int
) -> None:
    ssh = need_openssh()[0]
    where = ("-p", str(server), "ann\U0001f600@127.0.0.1")  # asyncssh cannot take an emoji
    status, said = await run_client(tmp_path, ssh, *GUEST, *TRUSTING, *where)
    assert status == 255
    assert said.strip().endswith(BAD_USER_NAME), said
