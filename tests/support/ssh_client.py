"""An asyncssh client for the server's tests: a guest, or a player with a key."""

import asyncio

import asyncssh
import pyte

TIMEOUT = 20
LOBBY = "sixtui lobby · you are"  # the lobby's first line: every session begins there


class Keyless(asyncssh.SSHClient):
    """A client with no key, answering a keyboard-interactive login with no prompts."""

    def kbdint_auth_requested(self):
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return ["" for _ in prompts]


def connect(port, username="alice", **options):
    """A client: a guest (no key) unless ``client_keys`` are given."""
    if "client_keys" not in options:
        options.update(client_keys=None, client_factory=Keyless)
    return asyncssh.connect("127.0.0.1", port, username=username, known_hosts=None, **options)


async def read_until(process, text, seen=""):
    """Output read until ``text`` appears (escape sequences and all)."""
    async with asyncio.timeout(TIMEOUT):
        while text not in seen:
            chunk = await process.stdout.read(65536)
            assert chunk, f"the session ended before showing {text!r}"
            seen += chunk
    return seen


class Screen:
    """What a client's terminal shows, read through a terminal emulator, so that text is
    found whatever styles run through it."""

    def __init__(self, process, size=(100, 30)):
        self.process = process
        self.screen = pyte.Screen(*size)
        self.stream = pyte.Stream(self.screen)

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def shows(self, text: str) -> str:
        """Reads until the screen shows ``text``; returns the screen."""
        return await self._read_until(lambda: text in self.text, f"showing {text!r}")

    async def no_longer_shows(self, text: str) -> str:
        """Reads until the screen no longer shows ``text``; returns the screen."""
        return await self._read_until(lambda: text not in self.text, f"clearing {text!r}")

    async def _read_until(self, done, what: str) -> str:
        try:
            async with asyncio.timeout(TIMEOUT):
                while not done():
                    chunk = await self.process.stdout.read(65536)
                    assert chunk, f"the session ended before {what}:\n{self.text}"
                    self.stream.feed(chunk)
        except TimeoutError:
            raise AssertionError(f"not {what}; the screen:\n{self.text}") from None
        return self.text
