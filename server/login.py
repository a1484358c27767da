"""Who may log in: any public key is an identity, no key is a guest (where guests are
let in), and a connection beyond a limit is turned away saying which limit."""

from __future__ import annotations

import asyncio
import logging
import secrets

import asyncssh

from sixtui.server.asyncssh_internals import explain_bad_user_names
from sixtui.server.names import LONGEST
from sixtui.server.session import Terminal
from sixtui.server.shared import Shared

log = logging.getLogger("sixtui.server")

# What a client is told when asyncssh cannot take the user name it sent (one with emoji
# or other characters SSH user names may not hold, or one too long): the connection ends.
BAD_USER_NAME = (
    "sixtui: that user name cannot be read (emoji and most symbols cannot be in one): "
    f"a name has 2 to {LONGEST} letters, digits, '.', '-' and '_', as in ssh NAME@HOST"
)


class Login(asyncssh.SSHServer):
    """One connection's login: any public key is an identity; no key is a guest.

    Connections and sessions beyond the limits are turned away with a message that says
    which limit; a connection left without a session is let go.
    """

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        self.settings = shared.settings
        self.counts = shared.counts
        self.user = ""  # the guest name, the login name, or the name picked in its place
        self.peer = "?"
        self.fingerprint: str | None = None  # the key being tried, once proven
        self.guest = False
        self._connection: asyncssh.SSHServerConnection | None = None
        self._counted_key: str | None = None
        self._full: str | None = None  # why this connection is over a limit
        self._places = 0  # places held in counts
        self._sessions = 0  # sessions open now
        self._opened_a_session = False
        self._closed = False
        self._without_a_session: asyncio.TimerHandle | None = None

    def connection_made(self, connection: asyncssh.SSHServerConnection) -> None:
        self._connection = connection
        peer = connection.get_extra_info("peername") or ("?", 0)
        self.peer = str(peer[0])
        explain_bad_user_names(connection, BAD_USER_NAME)
        log.info("connect peer=%s", self.peer)
        self._hold_places()
        # Turned away once keys are exchanged (in begin_auth): before that the client
        # would see a reset connection instead of the reason.
        self._full = self.counts.over(self.settings, self.peer, None, "connections")

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        self._hold_places()
        if self._without_a_session is not None:
            self._without_a_session.cancel()
        log.info("disconnect peer=%s user=%s why=%s", self.peer, self.user, exc or "closed")

    def _hold_places(self) -> None:
        """Holds in the counts one place for the connection, or one for each of its
        sessions when it has more than one; none once it is closed."""
        wanted = 0 if self._closed else max(1, self._sessions)
        self.counts.change(self.peer, self._counted_key, wanted - self._places)
        self._places = wanted

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
        refused = self._take_a_session()
        if refused is not None:
            log.info("refused peer=%s user=%s why=%s", self.peer, self.user, refused)
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, f"sixtui: {refused}"
            )
        return Terminal(self.shared, self)

    def _take_a_session(self) -> str | None:
        """Counts one more session, or says which limit leaves no room for it."""
        limit = self.settings.max_per_connection
        if self._sessions >= limit:
            return f"at most {limit} sessions on one connection"
        self._sessions += 1
        self._hold_places()
        full = self.counts.over(self.settings, self.peer, self._counted_key, "sessions")
        if self._sessions > 1 and full is not None:
            self._sessions -= 1
            self._hold_places()
            return full
        self._opened_a_session = True
        self.counts.sessions_opened += 1
        if self._without_a_session is not None:
            self._without_a_session.cancel()
            self._without_a_session = None
        return None

    def session_ended(self) -> None:
        """One of this connection's sessions has ended; with none left, the connection is
        let go after ``session_grace`` unless another opens meanwhile."""
        self._sessions -= 1
        self.counts.sessions_ended += 1
        self._hold_places()
        if not self._sessions:
            self._wait_for_a_session()

    def _wait_for_a_session(self) -> None:
        if self._closed or self._without_a_session is not None:
            return
        self._without_a_session = asyncio.get_running_loop().call_later(
            self.settings.session_grace, self._let_go_without_a_session
        )

    def _let_go_without_a_session(self) -> None:
        """A connection without a session would hold its places and, answering
        keepalives, never be let go."""
        self._without_a_session = None
        if self._sessions or self._closed or self._connection is None:
            return
        if self._opened_a_session:
            why, told = "no session left", "sixtui: no session is left on this connection"
        else:
            why, told = "no session opened", "sixtui: open a terminal session: ssh -t ..."
        log.info("dropped peer=%s user=%s why=%s", self.peer, self.user, why)
        self._connection.disconnect(asyncssh.DISC_BY_APPLICATION, told)

    def auth_completed(self) -> None:
        self._wait_for_a_session()
        if self.fingerprint is not None and not self.guest:
            self.counts.change(self.peer, self._counted_key, -self._places)
            self._counted_key = self.fingerprint
            self.counts.change(self.peer, self._counted_key, self._places)
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
