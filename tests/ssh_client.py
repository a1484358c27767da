"""An asyncssh client for the server's tests: a guest, or a player with a key."""

import asyncio

import asyncssh

TIMEOUT = 20


class Keyless(asyncssh.SSHClient):
    """A client with no key, answering a keyboard-interactive login with no prompts."""

    def kbdint_auth_requested(self):
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return ["" for _ in prompts]


def connect(port, **options):
    """A client: a guest (no key) unless ``client_keys`` are given."""
    if "client_keys" not in options:
        options.update(client_keys=None, client_factory=Keyless)
    return asyncssh.connect("127.0.0.1", port, username="alice", known_hosts=None, **options)


async def read_until(process, text, seen=""):
    """Output read until ``text`` appears (escape sequences and all)."""
    async with asyncio.timeout(TIMEOUT):
        while text not in seen:
            chunk = await process.stdout.read(65536)
            assert chunk, f"the session ended before showing {text!r}"
            seen += chunk
    return seen
