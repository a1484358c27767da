"""Who may log in: any public key is an identity, no key is a guest (where guests are
let in), and a connection beyond a limit is turned away saying which limit."""

from __future__ import annotations

import asyncio
import logging
import secrets

import asyncssh

from sixtui.server.session import Terminal
from sixtui.server.shared import Shared

log = logging.getLogger("sixtui.server")


class Login(asyncssh.SSHServer):
    """One connection's login: any public key is an identity; no key is a guest.

    Connections beyond the limits are turned away with a message that says which limit.
    """

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.settings = shared.settings
        self.counts = shared.counts
        self.user = ""
        self.peer = "?"
        self.fingerprint: str | None = None  # the key being tried, once proven
        self.guest = False
        self._connection: asyncssh.SSHServerConnection | None = None
        self._counted_key: str | None = None
        self._full: str | None = None  # why this connection is over a limit
        self._sessions = 0

    def connection_made(self, connection: asyncssh.SSHServerConnection) -> None:
        self._connection = connection
        peer = connection.get_extra_info("peername") or ("?", 0)
        self.peer = str(peer[0])
        counts, settings = self.counts, self.settings
        counts.total += 1
        counts.per_ip[self.peer] += 1
        log.info("connect peer=%s", self.peer)
        # Turned away once keys are exchanged (in begin_auth): before that the client
        # would see a reset connection instead of the reason.
        if counts.total > settings.max_connections:
            self._full = "the server is full: try again later"
        elif counts.per_ip[self.peer] > settings.max_per_ip:
            self._full = f"too many connections from {self.peer}"

    def connection_lost(self, exc: Exception | None) -> None:
        counts = self.counts
        counts.total -= 1
        counts.per_ip[self.peer] -= 1
        if not counts.per_ip[self.peer]:
            del counts.per_ip[self.peer]
        if self._counted_key is not None:
            counts.per_key[self._counted_key] -= 1
            if not counts.per_key[self._counted_key]:
                del counts.per_key[self._counted_key]
        log.info("disconnect peer=%s user=%s why=%s", self.peer, self.user, exc or "closed")

    def _turn_away(self, reason: str) -> None:
        log.info("refused peer=%s why=%s", self.peer, reason)
        assert self._connection is not None
        self._connection.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, f"sixtui: {reason}")

    def begin_auth(self, username: str) -> bool:
        self.user = username
        if self._full is not None:
            self._turn_away(self._full)
            return True
        if not self.settings.allow_guests and self._connection is not None:
            self._connection.send_auth_banner(
                "sixtui: this server lets in SSH keys only (no guests): "
                "make one with ssh-keygen -t ed25519\r\n"
            )
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for the unsigned probe and for the signed attempt alike; asyncssh only
        # lets the login through once the signature is proven.
        self.fingerprint = key.get_fingerprint("sha256")
        self.guest = False
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.settings.allow_guests

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        # A key offered but not proven must never name this login.
        self.fingerprint = None
        self.guest = True
        self.user = f"guest-{secrets.token_hex(3)}"
        log.info("auth peer=%s method=guest user=%s", self.peer, self.user)
        return True

    def password_auth_supported(self) -> bool:
        return False

    # Forwarding of any kind is refused: the server offers its game and nothing else.
    def connection_requested(self, *_: object) -> bool:
        return False

    def server_requested(self, *_: object) -> bool:
        return False

    def unix_connection_requested(self, *_: object) -> bool:
        return False

    def unix_server_requested(self, *_: object) -> bool:
        return False

    def tun_requested(self, *_: object) -> bool:
        return False

    def tap_requested(self, *_: object) -> bool:
        return False

    def session_requested(self) -> Terminal:
        self._sessions += 1
        return Terminal(self.shared, self)

    def _require_a_session(self) -> None:
        """Lets go of a connection that logged in but opened no session (``ssh -N``): it
        would hold a place among the connections and never be idle."""
        if not self._sessions and self._connection is not None:
            log.info("dropped peer=%s user=%s why=no session opened", self.peer, self.user)
            self._connection.disconnect(
                asyncssh.DISC_BY_APPLICATION, "sixtui: open a terminal session: ssh -t ..."
            )

    def auth_completed(self) -> None:
        asyncio.get_running_loop().call_later(self.settings.login_timeout, self._require_a_session)
        if self.fingerprint is not None and not self.guest:
            self._counted_key = self.fingerprint
            self.counts.per_key[self.fingerprint] += 1
            if self.counts.per_key[self.fingerprint] > self.settings.max_per_key:
                self._turn_away("too many connections with this key")
                return
        if not self.guest:
            log.info(
                "auth peer=%s method=publickey user=%s key=%s",
                self.peer,
                self.user,
                self.fingerprint,
            )
