"""A real OpenSSH client under a pseudo-terminal, its screen read through ``pyte``.

The server under test runs in the test's own event loop, so nothing here may block: the
pty's master side is read with ``loop.add_reader`` and every wait is an ``await`` that
polls with a deadline. What the client shows is fed to a ``pyte`` screen, which a test
reads as the player would see it; the raw bytes are kept as well, for the escape sequences
a screen does not show (leaving the alternate screen, for one).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import shutil
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import pyte
import pytest

MISSING = (
    "OpenSSH's client is not installed: these tests need `ssh` and `ssh-keygen` on PATH "
    "(Debian: apt-get install openssh-client; .ci/run installs it when it is missing)"
)
TERM = "xterm-256color"
BLACK, WHITE = {"●", "◉"}, {"○", "◎"}  # a stone, and one of the last turn


def need_openssh() -> tuple[str, str]:
    """ssh and ssh-keygen. Without them the test fails, inside its own body so that it is
    reported as failed rather than skipped or errored: CI installs OpenSSH (.ci/run), and a
    skip there would hide that none of this was checked."""
    tools = openssh()
    if tools is None:
        pytest.fail(MISSING, pytrace=False)
    return tools


def openssh() -> tuple[str, str] | None:
    """The paths of ``ssh`` and ``ssh-keygen``, or None when either is missing."""
    ssh, keygen = shutil.which("ssh"), shutil.which("ssh-keygen")
    return (ssh, keygen) if ssh is not None and keygen is not None else None


def make_key(keygen: str, where: Path) -> Path:
    """A new passphrase-less ed25519 key in ``where``; returns the private key's path."""
    key = where / "key"
    subprocess.run(
        [keygen, "-q", "-t", "ed25519", "-N", "", "-C", "sixtui-test", "-f", str(key)],
        check=True,
        capture_output=True,
        timeout=10,
    )
    return key


def fingerprint(keygen: str, key: Path) -> str:
    """The key's SHA256 fingerprint as OpenSSH prints it (``SHA256:...``)."""
    shown = subprocess.run(
        [keygen, "-l", "-E", "sha256", "-f", f"{key}.pub"],
        check=True,
        capture_output=True,
        text=True,
        timeout=10,
    ).stdout
    return shown.split()[1]


# Options for ssh, sftp and scp alike: trust the test's host key, read no config.
TRUSTING = (
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    "-F",
    "/dev/null",
)


def ssh_command(ssh: str, port: int, *options: str, user: str = "alice") -> list[str]:
    """An ``ssh -tt`` command line that trusts the test's host key and reads no config."""
    return [ssh, *options, *TRUSTING, "-p", str(port), "-tt", f"{user}@127.0.0.1"]


def client_environment(home: Path) -> dict[str, str]:
    """Only what an OpenSSH client needs: no agent, no config, no keys of the machine's
    user."""
    return {
        "HOME": str(home),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "TERM": TERM,
        "LANG": "C.UTF-8",
    }


class SshTerminal:
    """One ``ssh`` process on its own pseudo-terminal, and the screen it draws."""

    def __init__(self, argv: Sequence[str], home: Path, cols: int = 80, rows: int = 24) -> None:
        self.argv = list(argv)
        self.home = home
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()  # everything the client wrote, escape sequences and all
        self.process: subprocess.Popen[bytes] | None = None
        self._master = -1
        self._eof = False
        self._news = asyncio.Event()

    # -- starting and stopping ---------------------------------------------------------------

    def start(self) -> None:
        """Starts ``ssh`` on a new pty of the screen's size, in a session of its own."""
        master, slave = os.openpty()
        self._master = master
        self._set_size(self.screen.columns, self.screen.lines)
        env = client_environment(self.home)
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=env,
                cwd=self.home,
                start_new_session=True,
                close_fds=True,
            )
        finally:
            os.close(slave)  # else the master never sees the end once ssh is gone
        os.set_blocking(master, False)
        asyncio.get_running_loop().add_reader(master, self._readable)

    def close(self) -> None:
        """Ends ssh if it still runs and lets go of the pty; safe to call twice."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=5)
        if self._master >= 0:
            asyncio.get_running_loop().remove_reader(self._master)
            os.close(self._master)
            self._master = -1

    # -- what the client shows ---------------------------------------------------------------

    def _readable(self) -> None:
        while True:
            try:
                data = os.read(self._master, 65536)
            except BlockingIOError:
                break
            except OSError:  # EIO: every slave side is closed, ssh is gone
                data = b""
            if not data:
                self._eof = True
                asyncio.get_running_loop().remove_reader(self._master)
                break
            self.raw += data
            self.stream.feed(data)
        self._news.set()

    @property
    def text(self) -> str:
        """The screen as the player sees it, one line per row."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def count(self, text: str) -> int:
        """How often ``text`` is on the screen now."""
        return self.text.count(text)

    def stone_at(self, point: str) -> str:
        """What the board shows at ``point`` (like ``K11``): a stone, or ``·``.

        Found from the letters over the board and the numbers beside it, so the board may
        be anywhere on the screen; empty while no board is drawn."""
        lines = self.screen.display
        letters = next((line for line in lines if "A B C D E F" in line), None)
        row = next((line for line in lines if re.match(rf"\s*{point[1:]} [·●◉○◎]", line)), None)
        if letters is None or row is None:
            return ""  # no board on the screen (yet)
        return row[letters.index("A B C D E F") + 2 * (ord(point[0]) - ord("A"))]

    def turn(self, number: int) -> list[str] | None:
        """The points of turn ``number`` in the side panel's move list, once it is there."""
        found = re.search(rf"\b{number}\. ((?:[A-S]\d+ ?)+)", self.text)
        return found.group(1).split() if found else None

    def dump(self) -> str:
        """The screen framed for a failure message, with the client's state."""
        status = self.process.poll() if self.process is not None else None
        width = self.screen.columns
        rows = "\n".join(f"|{line}|" for line in self.screen.display)
        return (
            f"{width}×{self.screen.lines} screen (ssh exit status {status}):\n"
            f"+{'-' * width}+\n{rows}\n+{'-' * width}+"
        )

    async def wait_until(
        self, check: Callable[[], bool], timeout: float, what: str = "the screen to change"
    ) -> None:
        """Waits until ``check()`` holds, looking again whenever output arrives (and at
        least every 0.1 s); fails with the screen as it was after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not check():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"waited {timeout:g} s for {what}\n{self.dump()}")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), min(left, 0.1))

    async def wait_for_text(self, text: str, timeout: float = 8.0) -> None:
        """Waits until ``text`` is on the screen."""
        await self.wait_until(lambda: text in self.text, timeout, f"{text!r} on the screen")

    async def wait_for_no_text(self, text: str, timeout: float = 8.0) -> None:
        """Waits until ``text`` has gone from the screen."""
        await self.wait_until(lambda: text not in self.text, timeout, f"{text!r} to go")

    # -- what the player does ----------------------------------------------------------------

    def press(self, keys: str | bytes) -> None:
        """Types ``keys`` at the terminal, all in one write."""
        data = keys.encode() if isinstance(keys, str) else keys
        while data:
            written = os.write(self._master, data)
            data = data[written:]

    def resize(self, cols: int, rows: int) -> None:
        """Makes the terminal ``cols`` × ``rows``, as a terminal window being dragged does.

        ssh has no controlling terminal here (it was started in a session of its own on a
        pty it did not open), so the kernel tells it nothing: it gets its SIGWINCH from
        here, reads the new size from its pty and forwards it as a window-change request.
        """
        self.screen.resize(rows, cols)
        self._set_size(cols, rows)
        assert self.process is not None
        self.process.send_signal(signal.SIGWINCH)

    def _set_size(self, cols: int, rows: int) -> None:
        fcntl.ioctl(self._master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    async def wait_for_exit(self, timeout: float = 8.0) -> int:
        """Waits for ssh to exit and for the last of its output; returns its exit status."""
        await self.wait_until(
            lambda: self.process is not None and self.process.poll() is not None and self._eof,
            timeout,
            "ssh to exit",
        )
        assert self.process is not None and self.process.returncode is not None
        return self.process.returncode
