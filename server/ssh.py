"""The asyncssh side: who may log in, which requests are refused, and one Textual app
per terminal session."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sys
import threading
import weakref
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial

import asyncssh

from sixtui.ai.worker import Thinker
from sixtui.server.colors import ColorDowngrade
from sixtui.server.driver import ChannelDriver
from sixtui.server.names import NameBook
from sixtui.server.settings import SettingError, Settings
from sixtui.tui.app import SixtuiApp
from sixtui.tui.palettes import color_system_for
from sixtui.tui.presence import Roster, Visitor

log = logging.getLogger("sixtui.server")

NO_TERMINAL = "sixtui needs a terminal: ssh -t ...\r\n"
# Seconds between two redraws of everyone's who-is-here line: a crowd arriving at once
# would otherwise have every screen redrawn for each of them.
NEWS_QUIET = 2.0


class Counts:
    """Connections open now: in all, per IP address and per key."""

    def __init__(self) -> None:
        self.total = 0
        self.per_ip: Counter[str] = Counter()
        self.per_key: Counter[str] = Counter()


@dataclass
class Shared:
    """What all the connections to one server share."""

    settings: Settings
    thinker: Thinker
    names: NameBook
    counts: Counts = field(default_factory=Counts)
    roster: Roster = field(default_factory=lambda: Roster(quiet=NEWS_QUIET))


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


class _Streams:
    """The process's own stdout and stderr, put back once no app runs.

    Each Textual app swaps the process-wide ``sys.stdout``/``sys.stderr`` for captures of
    its own while it runs and restores what it found when it ends; apps that overlap and
    end out of order would leave a dead app's capture in place.
    """

    def __init__(self) -> None:
        self.saved = (sys.stdout, sys.stderr)
        self.running = 0

    def begin(self) -> None:
        if not self.running:
            self.saved = (sys.stdout, sys.stderr)
        self.running += 1

    def end(self) -> None:
        self.running -= 1
        if not self.running:
            sys.stdout, sys.stderr = self.saved


_STREAMS = _Streams()
_LIVE: set[Terminal] = set()  # the sessions running an app now


def live_apps() -> list[SixtuiApp]:
    """The apps of the sessions running now."""
    return [terminal._app for terminal in _LIVE if terminal._app is not None]


STOPPING = "sixtui: the server is stopping; see you soon.\r\n"


async def stop_sessions(timeout: float = 5.0) -> None:
    """Tells every session the server is stopping, ends it (its terminal put back as it
    was), and waits up to ``timeout`` seconds for all of them to finish."""
    for terminal in list(_LIVE):
        terminal.stop(STOPPING)
    async with asyncio.timeout(timeout):
        while _LIVE:
            await asyncio.sleep(0.02)


async def _run_app(app: SixtuiApp, size: tuple[int, int]) -> None:
    """Runs ``app`` on the shared loop, leaving the loop's task factory as it was.

    Textual installs asyncio's eager task factory on the running loop as an app starts
    (Python 3.12 and later); on a loop shared with asyncssh, the next login then hung.
    It is put back as soon as the app's first step has run: that step installs it.
    """
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()
    running = loop.create_task(app.run_async(size=size))
    loop.call_soon(loop.set_task_factory, factory)
    await running


class Terminal(asyncssh.SSHServerSession):  # type: ignore[misc]
    """One SSH session: a Textual app on the client's terminal, or a refusal."""

    def __init__(self, shared: Shared, login: Login) -> None:
        settings = shared.settings
        self._shared = shared
        self._login = login
        self._settings = settings
        self._player: Visitor | None = None
        self._output_cap = settings.output_cap
        self._last_input = 0.0
        # Input allowance (bytes), refilled at input_rate a second up to one second's worth;
        # input beyond it waits here, and further input in the client's SSH window.
        self._allowance = float(settings.input_rate)
        self._refilled = 0.0
        self._waiting = bytearray()
        self._draining: asyncio.TimerHandle | None = None
        self._farewell = ""
        self._channel: asyncssh.SSHServerChannel | None = None
        self._size = (80, 24)
        self._has_terminal = False
        self._term_type = ""
        self._colors = ColorDowngrade("truecolor")
        self._driver: ChannelDriver | None = None
        self._app: SixtuiApp | None = None
        self._pending: list[bytes] = []

    def connection_made(self, channel: asyncssh.SSHServerChannel) -> None:
        self._channel = channel

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], modes) -> bool:  # type: ignore[no-untyped-def]
        self._has_terminal = True
        self._term_type = term_type
        width, height = term_size[0], term_size[1]
        if width and height:
            self._size = (width, height)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self._channel is not None
        if not self._has_terminal:
            self._channel.write(NO_TERMINAL.encode())
            self._channel.exit(1)
            return
        asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        channel = self._channel
        assert channel is not None
        terminal = self._client_terminal(channel)
        self._colors = ColorDowngrade(color_system_for(terminal))
        player = self._player = self._arrive()
        app = SixtuiApp(None, thinker=self._shared.thinker, terminal=terminal, player=player)
        app.driver_class = partial(ChannelDriver, write=self._write)
        self._app = app
        status = 0
        _STREAMS.begin()
        _LIVE.add(self)
        self._last_input = asyncio.get_running_loop().time()
        idle = asyncio.get_running_loop().create_task(self._watch_idle(app))
        try:
            await _run_app(app, self._size)
        except Exception:
            log.exception("session failed")
            status = 1
        finally:
            idle.cancel()
            if player.name_refused is None:
                self._shared.roster.leave(player.name)
            _LIVE.discard(self)
            _STREAMS.end()
            driver = app._driver
            if isinstance(driver, ChannelDriver):
                driver.close()
            self._app = None
            with contextlib.suppress(Exception):
                if self._farewell:
                    channel.write(self._farewell.encode())
                channel.exit(status)

    def _arrive(self) -> Visitor:
        """The player at this terminal: a guest, or the key's name if the key may have it
        (otherwise the app asks for another, and they arrive once they have one)."""
        login, shared = self._login, self._shared
        if login.guest or login.fingerprint is None:
            player = Visitor(login.user, shared.roster, guest=True)
        else:
            refused = shared.names.claim(login.user, login.fingerprint)
            player = Visitor(login.user, shared.roster, name_refused=refused, rename=self._rename)
            if refused is not None:
                log.info("name refused peer=%s user=%s why=%s", login.peer, login.user, refused)
        if player.name_refused is None:
            shared.roster.arrive(player.name)
        return player

    def _rename(self, name: str) -> str | None:
        """Binds ``name`` to this player's key if it may be; says why not otherwise."""
        login, player = self._login, self._player
        assert login.fingerprint is not None and player is not None
        refused = self._shared.names.claim(name, login.fingerprint)
        if refused is None:
            log.info("name peer=%s user=%s key=%s", login.peer, name, login.fingerprint)
            player.name = name
            self._shared.roster.arrive(name)
        return refused

    def _client_terminal(self, channel: asyncssh.SSHServerChannel) -> dict[str, str]:
        """The client's terminal as it describes itself: colors are chosen from this, not
        from the server's own environment."""
        sent = channel.get_environment()
        terminal = {"TERM": self._term_type}
        terminal.update((name, sent[name]) for name in ("COLORTERM", "NO_COLOR") if name in sent)
        return terminal

    def _write(self, data: str) -> None:
        channel = self._channel
        if channel is None or channel.is_closing():
            return
        channel.write(self._colors(data).encode("utf-8", errors="replace"))
        if channel.get_write_buffer_size() > self._output_cap:
            # A client that stops reading must not make the server hold its output.
            log.info(
                "dropped peer=%s user=%s why=the client stopped reading (%d bytes waiting)",
                self._login.peer,
                self._login.user,
                channel.get_write_buffer_size(),
            )
            self._stop()
            channel.get_extra_info("connection").disconnect(
                asyncssh.DISC_BY_APPLICATION, "sixtui: your terminal stopped reading"
            )

    async def _watch_idle(self, app: SixtuiApp) -> None:
        """Warns a player who has pressed nothing for a while, then lets them go."""
        settings, loop = self._settings, asyncio.get_running_loop()
        warned_at = None
        while True:
            await asyncio.sleep(min(1.0, settings.idle_warning / 4))
            quiet = loop.time() - self._last_input
            if quiet < settings.idle_timeout - settings.idle_warning:
                warned_at = None
            elif warned_at is None:
                warned_at = self._last_input
                app.notify(
                    f"Press a key within {settings.idle_warning:g} s to stay connected.",
                    title="Still there?",
                    severity="warning",
                    timeout=settings.idle_warning,
                )
            elif quiet >= settings.idle_timeout:
                log.info(
                    "dropped peer=%s user=%s why=idle for %g s",
                    self._login.peer,
                    self._login.user,
                    quiet,
                )
                self._stop()
                return

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self._last_input = asyncio.get_running_loop().time()
        self._waiting += data
        if self._draining is None:
            self._drain()

    def _drain(self) -> None:
        """Hands the app as much waiting input as the rate allows, and comes back for more."""
        self._draining = None
        loop, rate = asyncio.get_running_loop(), self._settings.input_rate
        now = loop.time()
        self._allowance = min(rate, self._allowance + (now - self._refilled) * rate)
        self._refilled = now
        count = min(len(self._waiting), int(self._allowance))
        if count:
            data = bytes(self._waiting[:count])
            del self._waiting[:count]
            self._allowance -= count
            driver = self._current_driver()
            if driver is not None:
                driver.feed(data)
        channel = self._channel
        if self._waiting:
            if channel is not None:
                channel.pause_reading()
            self._draining = loop.call_later(0.05, self._drain)
        elif channel is not None and not channel.is_closing():
            channel.resume_reading()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = (width, height)
        driver = self._current_driver()
        if driver is not None:
            driver.resize(width, height)

    def eof_received(self) -> bool:
        self._stop()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()

    def _current_driver(self) -> ChannelDriver | None:
        driver = self._app._driver if self._app is not None else None
        return driver if isinstance(driver, ChannelDriver) else None

    def stop(self, farewell: str) -> None:
        """Ends the session, with ``farewell`` written after the terminal is restored."""
        self._farewell = farewell
        self._stop()

    def _stop(self) -> None:
        if self._draining is not None:
            self._draining.cancel()
            self._draining = None
        self._waiting.clear()
        if self._app is not None:
            self._app.exit()


async def start_server(
    settings: Settings, thinker: Thinker, names: NameBook
) -> asyncssh.SSHAcceptor:
    """Listens as ``settings`` say; every terminal session opens the home screen."""
    from sixtui.server.host_key import load_or_create_host_key

    host_key = load_or_create_host_key(settings.host_key_path)
    _start_executor_threads(asyncio.get_running_loop())
    try:
        return await _listen(settings, thinker, names, host_key)
    except OSError as why:
        reason = os.strerror(why.errno).lower() if why.errno else str(why)
        raise SettingError(
            f"port: cannot listen on {settings.host} port {settings.port}: {reason}"
        ) from None


_READY_LOOPS: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()


def _start_executor_threads(loop: asyncio.AbstractEventLoop) -> None:
    """Gives ``loop`` a default executor whose threads all start now, before any session.

    asyncssh runs part of every login there, and the executor starts a thread whenever
    none is free. A thread keeps the ``sys.stderr`` of the moment it starts (for its
    exception hook): one started while a session's app runs keeps that app's capture, and
    through it the whole app, for as long as the thread lives.
    """
    if loop in _READY_LOOPS:
        return
    workers = min(32, (os.cpu_count() or 1) + 4)  # as many as asyncio's own default
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sixtui-blocking")
    everyone_started = threading.Barrier(workers)
    for started in [executor.submit(everyone_started.wait) for _ in range(workers)]:
        started.result()
    loop.set_default_executor(executor)
    _READY_LOOPS.add(loop)


async def _listen(
    settings: Settings, thinker: Thinker, names: NameBook, host_key: asyncssh.SSHKey
) -> asyncssh.SSHAcceptor:
    return await asyncssh.create_server(
        partial(Login, Shared(settings, thinker, names)),
        settings.host,
        settings.port,
        server_host_keys=[host_key],
        line_editor=False,
        encoding=None,
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        sftp_factory=None,
        login_timeout=settings.login_timeout,
        keepalive_interval=settings.keepalive_interval,
    )
