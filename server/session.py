"""One SSH session: a Textual app on the client's terminal channel, online through the
server's hub, or a refusal; and the end of every session when the server stops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from typing import TYPE_CHECKING, Any

import asyncssh

from sixtui.server.asyncssh_internals import keep_environment
from sixtui.server.colors import ColorDowngrade
from sixtui.server.driver import ChannelDriver
from sixtui.server.hub import BACK, LOST, STATUS, HubOutOfReach, Subscription
from sixtui.server.limits import Allowance, watch_idle
from sixtui.server.online import HubOnline, guest_identity
from sixtui.server.shared import Shared
from sixtui.tui.app import SixtuiApp
from sixtui.tui.palettes import color_system_for
from sixtui.tui.presence import Visitor
from sixtui.tui.textual_internals import end_quietly_on_failure

if TYPE_CHECKING:
    from sixtui.server.login import Login

log = logging.getLogger("sixtui.server")

NO_TERMINAL = "sixtui needs a terminal: ssh -t ...\r\n"
NO_COMMANDS = "sixtui: this server runs no commands; connect with {how}\r\n"
NO_FILE_TRANSFER = "sixtui: this server offers no file transfer (sftp, scp); connect with {how}\r\n"
STOPPING = "sixtui: the server is stopping; see you soon.\r\n"
HUB_LOST = (
    "sixtui: the server lost touch with the store it keeps the games in for too long, and"
    " ended this session; your game is kept: log in again in a moment.\r\n"
)
FAILED = (
    "sixtui: something went wrong on the server and ended this session; log in again"
    " (the server's log says what went wrong).\r\n"
)
STOPPING_MID_GAME = (
    "sixtui: the server is stopping: your game has ended, and it is not kept; see you soon.\r\n"
)
STOPPING_GAME_KEPT = (
    "sixtui: the server is stopping; your game is kept: log in with the same key once it is"
    " back, and you are at your table again. See you soon.\r\n"
)

# The client's environment variables that colors are chosen from; any others it sends are
# dropped as they come, and so are values longer than this.
TERMINAL_VARIABLES = ("COLORTERM", "NO_COLOR")
LONGEST_VARIABLE = 64
# The largest terminal a session draws on, in columns and rows: a larger one gets the game
# in its top left corner. A first frame this size is about 350 KiB, well within the
# default output_cap; one of 2000×2000 would pass it before the player saw anything.
LARGEST_TERMINAL = (500, 200)

# The most bytes of input handed to an app at once: the parser reads them one by one and
# the app handles each key, all before any other player's turn.
INPUT_SLICE = 512
# The client's SSH window: input it may send before the server reads it. What a player
# types fits many times over; a client sending as fast as it can is held at this much
# kept, on top of what waits behind the input rate (see Terminal._resume).
INPUT_WINDOW = 64 * 1024
# Seconds between two notices that keys were dropped for coming too fast.
TOO_FAST_NOTICE = 10.0


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


RECONNECTING = (
    "The server has lost touch with the store it keeps the games in, and is reconnecting: "
    "what you do waits until it is back."
)


async def tell_hub_status(app: SixtuiApp, status: Subscription) -> None:
    """Tells the player when the server loses touch with the hub's store (Redis) and when
    it is back, as ``status`` (the hub's :data:`~sixtui.server.hub.STATUS`) says."""
    async for message in status:
        if message == LOST:
            app.notify(RECONNECTING, title="Reconnecting", severity="warning", timeout=30)
        elif message == BACK:
            app.clear_notifications()  # the notice of the loss goes as the loss does
            app.notify("The server is connected again.", title="Reconnected")


async def stop_sessions(timeout: float = 5.0, games_kept: bool = False) -> None:
    """Tells every session the server is stopping (and whether its games in progress are
    ``games_kept`` for when it is back), ends it (its terminal put back as it was), and
    waits up to ``timeout`` seconds for all of them to finish."""
    mid_game = STOPPING_GAME_KEPT if games_kept else STOPPING_MID_GAME
    for terminal in list(_LIVE):
        terminal.stop(mid_game if terminal.in_a_game() else STOPPING)
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


def drawn_size(width: int, height: int) -> tuple[int, int]:
    """The size a session draws at on a terminal of ``width`` × ``height``.

    >>> drawn_size(80, 24), drawn_size(2000, 2000)
    ((80, 24), (500, 200))
    """
    largest_width, largest_height = LARGEST_TERMINAL
    return min(width, largest_width), min(height, largest_height)


def how_to_connect(channel: asyncssh.SSHServerChannel) -> str:
    """The command that connects to this server, with the port it was reached on; HOST
    stands for the name the player gave, which the server cannot know."""
    port = channel.get_extra_info("sockname", ("", 22))[1]
    return "ssh HOST" if port == 22 else f"ssh -p {port} HOST"


class Terminal(asyncssh.SSHServerSession):  # type: ignore[misc]
    """One SSH session: a Textual app on the client's terminal, or a refusal."""

    def __init__(self, shared: Shared, login: Login) -> None:
        settings = shared.settings
        self._shared = shared
        self._login = login
        self._settings = settings
        self._output_cap = settings.output_cap
        self._last_input = 0.0
        self._allowance = Allowance(settings.input_rate, burst=settings.input_rate)
        self._waiting = ""  # input admitted beyond the allowance, for the next turn
        self._resuming = False  # the channel is handing over what it kept while paused
        self._draining: asyncio.TimerHandle | None = None
        self._farewell = ""
        self._channel: asyncssh.SSHServerChannel | None = None
        self._size = (80, 24)
        self._has_terminal = False
        self._refusal: str | None = None  # why this session gets no app, for the client
        self._term_type = ""
        self._colors = ColorDowngrade("truecolor")
        self._app: SixtuiApp | None = None
        self._driver: ChannelDriver | None = None  # the app's, once Textual has made it
        self._started = False
        self._ended = False
        self._told_unreadable = False
        self._told_too_fast = float("-inf")  # when the player was last told keys were dropped
        self._unstarted: asyncio.TimerHandle | None = None

    def connection_made(self, channel: asyncssh.SSHServerChannel) -> None:
        self._channel = channel
        keep_environment(channel, TERMINAL_VARIABLES, LONGEST_VARIABLE)
        self._unstarted = asyncio.get_running_loop().call_later(
            self._settings.session_grace, self._close_if_never_started
        )

    def _close_if_never_started(self) -> None:
        """A session that asks for neither a shell nor a command would hold its place."""
        if not self._started and not self._ended and self._channel is not None:
            log.info(
                "dropped peer=%s user=%s why=the session asked for no shell",
                self._login.peer,
                self._login.user,
            )
            self._channel.close()
            self._end()

    def _end(self) -> None:
        """Tells the connection, once, that this session is over."""
        if not self._ended:
            self._ended = True
            self._login.session_ended()

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], modes) -> bool:  # type: ignore[no-untyped-def]
        self._has_terminal = True
        self._term_type = term_type
        width, height = term_size[0], term_size[1]
        if width and height:
            self._size = drawn_size(width, height)
        return True

    def shell_requested(self) -> bool:
        return True

    # A command or a subsystem (sftp, scp) is accepted only to say, on the client's
    # stderr, that there is none: refused at once, OpenSSH would show no more than
    # "exec request failed on channel 0".
    def exec_requested(self, command: str) -> bool:
        message = NO_FILE_TRANSFER if command.split()[:1] == ["scp"] else NO_COMMANDS
        self._refuse(message, f"a command was asked for: {command[:80]!r}")
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self._refuse(NO_FILE_TRANSFER, f"the subsystem {subsystem[:80]!r} was asked for")
        return True

    def _refuse(self, message: str, why: str) -> None:
        assert self._channel is not None
        log.info("refused peer=%s user=%s why=%s", self._login.peer, self._login.user, why)
        self._refusal = message.format(how=how_to_connect(self._channel))

    def session_started(self) -> None:
        assert self._channel is not None
        self._started = True
        if self._unstarted is not None:
            self._unstarted.cancel()
        if self._refusal is not None:
            self._channel.write_stderr(self._refusal.encode())
            self._channel.exit(1)
            self._end()
            return
        if not self._has_terminal:
            self._channel.write_stderr(NO_TERMINAL.encode())
            self._channel.exit(1)
            self._end()
            return
        asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        channel = self._channel
        assert channel is not None
        terminal = self._client_terminal(channel)
        self._colors = ColorDowngrade(color_system_for(terminal))
        player = self._arrive()
        # Computer turns wait in one line per address, as the limit per address counts:
        # a crowd of tables (or of keys) from one place waits behind itself.
        thinker = self._shared.thinker.for_player(self._login.peer)
        shared = self._shared
        online = HubOnline(shared.hub, self._identity(), shared.open_table, shared.archive)
        app = SixtuiApp(None, thinker=thinker, terminal=terminal, player=player, online=online)  # type: ignore[arg-type]
        app.driver_class = self._make_driver  # Textual calls it as it would a driver class
        end_quietly_on_failure(app, self._failed)
        self._app = app
        _STREAMS.begin()
        _LIVE.add(self)
        loop = asyncio.get_running_loop()
        self._last_input = loop.time()
        idle = loop.create_task(
            watch_idle(app, self._settings, lambda: self._last_input, self._drop_idle)
        )
        hub_status = shared.hub.subscribe(STATUS)
        telling = loop.create_task(tell_hub_status(app, hub_status))
        status = 1
        try:
            await _run_app(app, self._size)
            status = app.return_code or 0
        except Exception as error:
            self._failed(error)
        finally:
            idle.cancel()
            telling.cancel()
            await hub_status.close()
            try:
                await online.close()  # however the session ended: nothing of it stays
            except HubOutOfReach as why:  # what it held is let go of as after a kill
                log.warning("leaving the lobby and the tables failed: %s", why)
            except Exception:
                log.exception("leaving the lobby and the tables failed")
            _LIVE.discard(self)
            _STREAMS.end()
            if self._driver is not None:
                self._driver.close()
            self._app = self._driver = None
            with contextlib.suppress(Exception):
                if self._farewell:
                    channel.write(self._farewell.encode())
                channel.exit(status)
            self._end()

    def _failed(self, error: Exception) -> None:
        """Ends the session on ``error``, which nothing handled: the player is told in a
        line, the log says why (with the traceback, unless the hub was out of reach)."""
        if isinstance(error, HubOutOfReach):
            log.warning("session ended: %s", error)
            self._farewell = self._farewell or HUB_LOST
        else:
            log.error("session failed", exc_info=error)
            self._farewell = self._farewell or FAILED

    def _arrive(self) -> Visitor:
        """The player at this terminal: a guest, or the key's name if the key may have it
        (otherwise the app asks for another, and they enter the lobby once they have one)."""
        login = self._login
        if login.guest or login.fingerprint is None:
            return Visitor(login.user, guest=True)
        refused = self._shared.names.claim(login.user, login.fingerprint)
        if refused is not None:
            log.info("name refused peer=%s user=%s why=%s", login.peer, login.user, refused)
        return Visitor(login.user, name_refused=refused, rename=self._rename)

    def _identity(self) -> str:
        """Who the player is at the tables: their key, or (a guest) this session alone."""
        login = self._login
        if login.guest or login.fingerprint is None:
            return guest_identity(login.user)
        return login.fingerprint

    def _rename(self, name: str) -> str | None:
        """Binds ``name`` to this player's key if it may be; says why not otherwise."""
        login = self._login
        assert login.fingerprint is not None
        refused = self._shared.names.claim(name, login.fingerprint)
        if refused is None:
            log.info("name peer=%s user=%s key=%s", login.peer, name, login.fingerprint)
            login.user = name
        return refused

    def _client_terminal(self, channel: asyncssh.SSHServerChannel) -> dict[str, str]:
        """The client's terminal as it describes itself: colors are chosen from this, not
        from the server's own environment."""
        sent = channel.get_environment()
        terminal = {"TERM": self._term_type}
        terminal.update((name, sent[name]) for name in TERMINAL_VARIABLES if name in sent)
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

    def _drop_idle(self, quiet: float) -> None:
        log.info(
            "dropped peer=%s user=%s why=idle for %g s", self._login.peer, self._login.user, quiet
        )
        self._stop()

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self._last_input = asyncio.get_running_loop().time()
        if self._driver is None:  # no app to read it yet
            return
        # Admitted first (a paste cut to its first characters), then parsed at the
        # allowance: a long paste waits no longer than a short one.
        self._waiting += self._driver.admit(data)
        if self._draining is None and not self._resuming:
            self._drain()

    def _drain(self) -> None:
        """Hands the app a slice of the waiting input, as much as the allowance lets
        through, and comes back for more: at once if there was room for a whole slice,
        otherwise once the allowance has grown."""
        self._draining = None
        loop = asyncio.get_running_loop()
        count = self._allowance.take(min(len(self._waiting), INPUT_SLICE), loop.time())
        if count:
            text, self._waiting = self._waiting[:count], self._waiting[count:]
            if self._driver is not None:
                self._driver.parse(text)
        channel = self._channel
        if not self._waiting and channel is not None and not channel.is_closing():
            self._resume(channel)
        if self._waiting:
            if channel is not None:
                channel.pause_reading()
            self._draining = loop.call_later(0 if count == INPUT_SLICE else 0.05, self._drain)

    def _resume(self, channel: asyncssh.SSHServerChannel) -> None:
        """Reads on, taking at once everything the channel kept while reading was paused.

        asyncssh hands that over as soon as reading resumes, and with its first packet
        opens the client's window whole again, counting what it still keeps as read: were
        reading paused again after that packet, what it keeps would grow by a window at
        every pause, without bound, for a client that sends as fast as it can. Taken
        whole, it is never more than one window (:data:`INPUT_WINDOW`), nor is what
        waits here more than two.
        """
        self._resuming = True
        try:
            channel.resume_reading()
        finally:
            self._resuming = False

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = drawn_size(width, height)
        if self._driver is not None:
            self._driver.resize(*self._size)

    def eof_received(self) -> bool:
        self._stop()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        self._end()

    def _make_driver(self, app: SixtuiApp, **options: Any) -> ChannelDriver:
        self._driver = ChannelDriver(
            app,
            write=self._write,
            unreadable=self._unreadable_input,
            press_rate=self._settings.key_rate,
            too_fast=self._pressing_too_fast,
            **options,
        )
        return self._driver

    def _pressing_too_fast(self) -> None:
        """Keys beyond the rate were dropped: the player is told, and the log, at most once
        every :data:`TOO_FAST_NOTICE` seconds, lest a flood of keys become one of notices."""
        now = asyncio.get_running_loop().time()
        if now - self._told_too_fast < TOO_FAST_NOTICE:
            return
        self._told_too_fast = now
        rate = self._settings.key_rate
        log.info(
            "limited peer=%s user=%s why=keys faster than %d a second were dropped",
            self._login.peer,
            self._login.user,
            rate,
        )
        if self._app is not None:
            self._app.notify(
                f"Keys came faster than {rate} a second: the extra ones were dropped.",
                title="Too fast",
                severity="warning",
            )

    def _unreadable_input(self, problem: Exception) -> None:
        """Input the key parser could not read was dropped: logged once a session, since
        a client may send the same sequence with every key."""
        if not self._told_unreadable:
            self._told_unreadable = True
            log.info(
                "unreadable peer=%s user=%s why=input the key parser cannot read was "
                "dropped (%s: %s)",
                self._login.peer,
                self._login.user,
                type(problem).__name__,
                str(problem)[:80],
            )

    def in_a_game(self) -> bool:
        """Whether the player at this terminal sits at a game in play."""
        online = None if self._app is None else self._app.online
        return isinstance(online, HubOnline) and online.in_a_game()

    def stop(self, farewell: str) -> None:
        """Ends the session, with ``farewell`` written after the terminal is restored."""
        self._farewell = farewell
        self._stop()

    def _stop(self) -> None:
        if self._draining is not None:
            self._draining.cancel()
            self._draining = None
        self._waiting = ""
        if self._app is not None:
            self._app.exit()
