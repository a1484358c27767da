"""What running many Textual apps in one process and one event loop could get wrong, one
test each: dead sessions kept alive by Textual's key cache or by a thread made while they
ran, a session reaching for the process's own terminal (signals, threads, stdin, termios),
a lone Esc never delivered, and a client that connects and never logs in holding its
connection.

Covered elsewhere: sys.stdout and sys.stderr left as found by sessions that overlap
(tests/test_server_ssh.py), the loop's task factory (tests/test_server_ssh.py), and a
window resized over SSH reaching the app (tests/test_server_openssh.py, through OpenSSH).
"""

import asyncio
import gc
import logging
import os
import signal
import sys
import termios
import threading
import weakref

import pytest

from sixtui.server.driver import ChannelDriver
from sixtui.tui.app import SixtuiApp
from sixtui.tui.textual_internals import XTermParser
from support.event_loop import Posted
from support.ssh_client import LOBBY, TIMEOUT, connect, read_until

KEYS = ("\x1b[B", "\x1b[A", "\t", "j")  # down, up, Tab, a letter


def alive(kind: type) -> list:
    """The objects of ``kind`` that are still alive after a full collection."""
    gc.collect()
    return [thing for thing in gc.get_objects() if isinstance(thing, kind)]


async def left_alive(kind: type, before: weakref.WeakSet, seconds: float = TIMEOUT) -> list:
    """The objects of ``kind`` not in ``before`` that are still alive, once ended sessions
    have had up to ``seconds`` to finish."""
    deadline = asyncio.get_running_loop().time() + seconds
    while [thing for thing in alive(kind) if thing not in before]:
        if asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.05)
    return [thing for thing in alive(kind) if thing not in before]


async def in_lobby(connection):
    """A terminal session on ``connection``, once it shows the lobby."""
    process = await connection.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding="utf-8"
    )
    await read_until(process, LOBBY)
    return process


async def press(process, keys=KEYS) -> None:
    """Types ``keys`` and waits until the server has read them: every key is looked up in
    Textual's key cache (``XTermParser._parse_extended_key``) at least once."""
    info = XTermParser._parse_extended_key.cache_info
    looked_up = info().hits + info().misses
    process.stdin.write("".join(keys))
    async with asyncio.timeout(TIMEOUT):
        while info().hits + info().misses < looked_up + len(keys):
            await asyncio.sleep(0.02)


async def quit_session(process) -> None:
    process.stdin.write("q")
    async with asyncio.timeout(TIMEOUT):
        await process.wait_closed()
    assert process.exit_status == 0


# -- Textual's key cache --------------------------------------------------------------------


async def test_sessions_that_pressed_keys_leave_no_app_behind_in_textuals_key_cache(server):
    # XTermParser._parse_extended_key is a functools.lru_cache on the method, shared by
    # every parser of the process and keyed on the parser itself: it keeps up to 1,024
    # parsers. A parser's suspended generator holds the events it made, and so the app
    # (about 1.4 MiB a session) unless ChannelDriver.close lets go of it.
    apps_before = weakref.WeakSet(alive(SixtuiApp))
    drivers_before = weakref.WeakSet(alive(ChannelDriver))
    parsers_before = weakref.WeakSet(alive(XTermParser))
    for leave in ("q", "close", "abort"):
        async with connect(server) as connection:
            await press(process := await in_lobby(connection))
            if leave == "q":  # the first: what is counted is a running session's app
                assert len([app for app in alive(SixtuiApp) if app not in apps_before]) == 1
                await quit_session(process)
            elif leave == "abort":
                connection.abort()  # the connection simply drops
    apps = await left_alive(SixtuiApp, apps_before)
    assert not apps, f"{len(apps)} of the 3 sessions' apps are still alive"
    assert not await left_alive(ChannelDriver, drivers_before)
    kept = [parser for parser in alive(XTermParser) if parser not in parsers_before]
    assert kept, "the key cache kept none of the sessions' parsers: is it still there?"
    assert all(parser._gen.gi_frame is None for parser in kept), "a parser holds its session"


# -- the process's own terminal -------------------------------------------------------------

# Textual's LinuxDriver takes these for the process (SIGWINCH for resizes, the job control
# ones to suspend and resume) and puts some back as SIG_DFL, not as it found them: the test
# installs handlers of its own first, so that both show.
TERMINAL_SIGNALS = (signal.SIGWINCH, signal.SIGTSTP, signal.SIGCONT, signal.SIGTTIN, signal.SIGTTOU)


def handlers() -> dict:
    """Every signal's handler in this process."""
    return {signum: signal.getsignal(signum) for signum in signal.valid_signals()}


@pytest.fixture
def own_handlers():
    def ours(signum, frame):
        pass

    saved = {signum: signal.signal(signum, ours) for signum in TERMINAL_SIGNALS}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


async def test_a_session_installs_no_signal_handler(server, own_handlers):
    before = handlers()
    async with connect(server) as connection:
        await press(process := await in_lobby(connection))
        during = handlers()
        await quit_session(process)
    assert during == before
    assert handlers() == before


async def test_a_session_starts_no_thread(server, monkeypatch):
    async with connect(server) as connection:  # whatever a first session starts lazily
        await quit_session(await in_lobby(connection))
    before = set(threading.enumerate())
    started = []
    start = threading.Thread.start

    def noting_start(thread):
        started.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", noting_start)
    async with connect(server) as connection:
        await press(process := await in_lobby(connection))
        during = set(threading.enumerate())
        await quit_session(process)
    assert started == []
    assert during <= before


class Watched:
    """Stands in for ``sys.stdin``: notes every use, then passes it on."""

    def __init__(self, stream, uses: list) -> None:
        self._stream = stream
        self._uses = uses

    def __getattr__(self, name):
        self._uses.append(f"sys.stdin.{name}")
        return getattr(self._stream, name)


async def test_a_session_leaves_the_process_stdin_and_its_termios_alone(server, monkeypatch):
    uses = []
    for stream in ("stdin", "__stdin__"):
        monkeypatch.setattr(sys, stream, Watched(getattr(sys, stream), uses))
    for name in ("tcgetattr", "tcsetattr", "tcflush", "tcdrain", "tcflow", "tcsendbreak"):
        call = getattr(termios, name)
        monkeypatch.setattr(
            termios,
            name,
            lambda *args, name=name, call=call: uses.append(f"termios.{name}") or call(*args),
        )
    for name in ("read", "isatty", "fstat"):  # on file descriptor 0
        call = getattr(os, name)

        def watched(fd, *args, name=name, call=call):
            if fd == 0:
                uses.append(f"os.{name}(0)")
            return call(fd, *args)

        monkeypatch.setattr(os, name, watched)
    async with connect(server) as connection:
        await press(process := await in_lobby(connection))
        await quit_session(process)
    assert sorted(set(uses)) == []


async def test_threads_made_while_a_session_runs_keep_no_app_alive(serve):
    # A thread keeps the sys.stderr of when it was made (Thread._stderr, for its exception
    # hook): made while an app runs, that is the app's capture, and with it the whole app.
    # asyncssh builds each login's options in the loop's default executor, which makes a
    # thread whenever none is idle: logins that come together while someone is playing.
    port = await serve(max_per_ip=10)
    apps_before = weakref.WeakSet(alive(SixtuiApp))

    async def visit() -> None:
        async with connect(port) as connection:
            await quit_session(await in_lobby(connection))

    async with connect(port) as connection:
        process = await in_lobby(connection)
        await asyncio.gather(*(visit() for _ in range(6)))
        await quit_session(process)
    apps = await left_alive(SixtuiApp, apps_before, seconds=5)  # every session has quit
    assert not apps, f"{len(apps)} app(s) kept alive by {held_by_threads(apps)} thread(s)"


def held_by_threads(apps: list) -> int:
    """How many live threads hold one of ``apps``' stderr captures."""
    captures = {id(app._capture_stderr) for app in apps}
    return sum(id(getattr(thread, "_stderr", None)) in captures for thread in threading.enumerate())


# -- input ----------------------------------------------------------------------------------


async def test_a_lone_esc_is_delivered_as_escape_once_the_parser_stops_waiting():
    # An Esc may begin an escape sequence: the parser holds it until its delay passes,
    # and only then is it the Esc key. No input thread ticks the parser here; the driver
    # must come back for the Esc itself.
    app = Posted()
    driver = ChannelDriver(app, write=lambda text: None, size=(80, 24))
    driver.feed(b"\x1b[A")  # a whole sequence: at once
    assert app.keys == ["up"]
    driver.feed(b"\x1b")
    assert app.keys == ["up"]  # held: more may follow
    deadline = asyncio.get_running_loop().time() + TIMEOUT
    while len(app.keys) < 2 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    assert app.keys == ["up", "escape"], "the Esc never came out of the parser"
    driver.close()


# -- logins ---------------------------------------------------------------------------------


async def test_a_client_that_never_logs_in_is_disconnected_after_the_login_timeout(serve, caplog):
    caplog.set_level(logging.INFO, logger="sixtui.server")
    port = await serve(login_timeout=1)
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        async with asyncio.timeout(TIMEOUT):  # the server's version line, then nothing
            while await reader.read(4096):
                pass
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"the client was still connected after {TIMEOUT} s")
    finally:
        writer.close()
    assert "why=Login timeout expired" in caplog.text
