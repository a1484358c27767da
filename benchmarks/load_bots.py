"""The load harness's bots (:mod:`benchmarks.load`): players over SSH, many to a process.

Each bot is a guest (an asyncssh client, no key) with a :data:`SIZE` ``xterm-256color``
terminal read through ``pyte``, as a player reads their screen. In the lobby it types
``/pair GAME [options]`` on the command line; at its table it reads from the side panel who
sits where and which seat is its own, and from then on it knows the game only from its
screen: it keeps a copy with the rules engine, plays into it each turn that appears in the
move list, and when its seat is to move types a random legal turn on the move line
(``/K10 L10``, ``/2,0>1,1``) and Enter, a turn every ``interval`` seconds at its table.

The bots share the machine with the server, so they read as little as they can: colors are
cut out of what arrives before ``pyte`` reads it (:class:`Terminal`), the screen draws
plain characters without ``pyte``'s per-character work (:class:`TextScreen`), and a bot
waiting for something reads only the rows that changed since it last looked.

A process of bots talks to the harness over a pipe: it is sent a :class:`Plan`, answers
``("ready", reports)`` once its bots are seated (or have failed), is sent ``("go", start,
stop)`` (``time.monotonic()`` times, which every process on the machine shares), answers
``("done", reports, cpu)`` once its bots have played, and closes its sessions when sent
``("leave",)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import resource
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVar

import pyte
from pyte import modes
from wcwidth import wcwidth

from benchmarks.server import guest_terminal
from sixtui.rules import Game, IllegalMove, Move, new_game
from sixtui.tui.lobby_commands import GameChoice

SIZE = (100, 30)  # columns, rows: the whole 19×19 board beside the side panel
LOBBY = re.compile(r"sixtui lobby · you are (\S+)")  # the lobby's first line
AT_TABLE = re.compile(r"Game 1(?: of \d+)? · wins")  # the panel's score line: the table is open
PANEL_EDGE = "▏"  # the side panel's left edge; its text begins two cells on
SEAT = re.compile(r"\S (\S+)(?:  (.*?))?\s*")  # a seat line: piece, name, what the seat has
MOVE_LINE = re.compile(r"(\d+)\. (.*?)[\s↑↓]*")  # a line of the move list: "12. K10 L10"
CONNECTING = 4  # sessions of a process connecting at once
STEP = 30.0  # seconds any one step before play may take (the lobby, the seating)
STUCK = 15.0  # seconds past its time a turn may take before its table counts as stuck
TYPING = 0.5  # seconds at most between typing a turn and its Enter
PROGRESS = 10.0  # seconds between two words on how far the bots have got

T = TypeVar("T")

# The kinds of table, each as the lobby's quick pairing knows it.
KINDS = {
    "connect6": GameChoice("connect6"),
    "gameof6": GameChoice("gameof6"),
    "six": GameChoice("six"),
    "six-partners": GameChoice("six", players=4),
}


class BotFailure(Exception):
    """Something a player would not have expected: the message says what, and where."""


# -- the terminal --------------------------------------------------------------------------


class _Chars(dict[str, Any]):
    """pyte's character cells, one per character, all in the default style."""

    def __missing__(self, char: str) -> Any:
        made = self[char] = pyte.screens.Char(char)
        return made


class TextScreen(pyte.Screen):
    """A ``pyte`` screen that keeps characters and not their colors, and draws a stretch of
    plain, one-cell-wide text at once: ``pyte`` draws a character at a time, working out
    its width, its style and where the line wraps, which made reading a turn cost a bot
    several times what it costs with this screen. Anything else (wide or combining
    characters, a stretch that would wrap, insert mode, another character set) it draws
    as ``pyte`` does."""

    def __init__(self, columns: int, lines: int) -> None:
        super().__init__(columns, lines)
        self._chars = _Chars()
        self._narrow: set[str] = set()  # characters known to take one cell

    def select_graphic_rendition(self, *attrs: int, private: bool = False) -> None:
        """Colors and styles are not kept."""

    def draw(self, data: str) -> None:
        cursor = self.cursor
        end = cursor.x + len(data)
        if (
            end > self.columns
            or self.charset
            or modes.IRM in self.mode
            or not self._narrow_text(data)
        ):
            super().draw(data)
            return
        row = self.buffer[cursor.y]
        row.update(zip(range(cursor.x, end), map(self._chars.__getitem__, data), strict=True))
        cursor.x = end
        self.dirty.add(cursor.y)

    def _narrow_text(self, data: str) -> bool:
        characters = set(data)
        if characters <= self._narrow:
            return True
        if all(wcwidth(char) == 1 for char in characters):
            self._narrow |= characters
            return True
        return False


# A color or style (SGR), which the bots need not read; and an escape sequence cut off by the
# end of what arrived, kept until the rest comes.
_STYLE = re.compile(rb"\x1b\[[0-9;:]*m")
_CUT_ESCAPE = re.compile(rb"\x1b(?:\[[0-9;:?]*)?\Z")


class ScreenReader:
    """A terminal's screen, fed what arrives: colors and styles are cut out before
    ``pyte`` reads it (an escape sequence cut off by the end of what arrived waits for the
    rest), which spares it most of the escape sequences it would parse a character at a
    time."""

    def __init__(self, columns: int, lines: int) -> None:
        self.screen = TextScreen(columns, lines)
        self._stream = pyte.ByteStream(self.screen)
        self._held = b""

    def feed(self, chunk: bytes) -> None:
        data = self._held + chunk
        cut = _CUT_ESCAPE.search(data)
        self._held = data[cut.start() :] if cut else b""
        self._stream.feed(_STYLE.sub(b"", data[: cut.start()] if cut else data))

    def row(self, number: int, start: int = 0) -> str:
        """The text of row ``number`` from column ``start`` on."""
        line = self.screen.buffer[number]
        return "".join(line[column].data for column in range(start, self.screen.columns))


class Terminal:
    """One session's terminal: what arrives is read as it comes, and :meth:`until` waits
    for the screen to show something."""

    def __init__(self, connection: Any, process: Any) -> None:
        self.connection = connection
        self.process = process
        self.reader = ScreenReader(*SIZE)
        self.screen = self.reader.screen
        self.received = 0  # bytes, since the session began
        self._waiting: tuple[Callable[[Iterable[int]], Any], asyncio.Future[Any]] | None = None
        self._ended = False
        self._reading = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int, address: str) -> Terminal:
        return cls(*await guest_terminal(port, SIZE, None, address))

    async def _read(self) -> None:
        try:
            while chunk := await self.process.stdout.read(65536):
                arrived = time.monotonic()
                self.received += len(chunk)
                self.reader.feed(chunk)
                self._look(arrived)
        finally:
            self._ended = True
            if self._waiting is not None and not self._waiting[1].done():
                self._waiting[1].set_exception(BotFailure("the session ended"))

    def _look(self, arrived: float) -> None:
        if self._waiting is None:
            return
        check, future = self._waiting
        changed = sorted(self.screen.dirty)
        self.screen.dirty.clear()
        found = check(changed)
        if found is not None and not future.done():
            self._waiting = None
            future.set_result((found, arrived, self.received))

    async def until(
        self, check: Callable[[Iterable[int]], T | None], timeout: float
    ) -> tuple[T, float, int]:
        """Waits until ``check``, given the rows that changed (all of them at first),
        finds something on the screen; returns it, with the time the output that showed it
        arrived and the bytes received up to it. :class:`TimeoutError` after ``timeout``
        seconds; :class:`BotFailure` if the session ends."""
        self.screen.dirty.clear()
        found = check(range(self.screen.lines))
        if found is not None:
            return found, time.monotonic(), self.received
        if self._ended:
            raise BotFailure("the session ended")
        future: asyncio.Future[tuple[T, float, int]] = asyncio.get_running_loop().create_future()
        self._waiting = (check, future)
        try:
            async with asyncio.timeout(timeout):
                return await future
        finally:
            self._waiting = None

    def row(self, number: int, start: int = 0) -> str:
        """The text of row ``number`` from column ``start`` on."""
        return self.reader.row(number, start)

    @property
    def text(self) -> str:
        """The whole screen, for a failure's message."""
        return "\n".join(self.row(number).rstrip() for number in range(self.screen.lines))

    def press(self, keys: str) -> None:
        self.process.stdin.write(keys.encode())

    async def close(self) -> None:
        self.connection.close()
        with contextlib.suppress(Exception):
            await self.connection.wait_closed()
        self._reading.cancel()


# -- reading the screen --------------------------------------------------------------------


def lobby_name(screen: ScreenReader, rows: Iterable[int]) -> str | None:
    """The name the lobby's first line gives the player, once it is drawn."""
    for number in rows:
        found = LOBBY.search(screen.row(number))
        if found:
            return found[1]
    return None


@dataclass(frozen=True)
class Seating:
    """A table as its side panel shows it: the names in seat order, and one's own seat."""

    names: tuple[str, ...]
    seat: int
    panel: int  # the column where the panel's text begins

    @property
    def key(self) -> str:
        """The table's name among the harness's tables: its players, in seat order."""
        return " ".join(self.names)


def seating(screen: ScreenReader, players: int, rows: Iterable[int]) -> Seating | None:
    """The table once it is drawn: the panel's score line, and ``players`` seat lines in a
    row, one of them the player's own (``you``)."""
    del rows  # the seat lines and the score line are read together, wherever they changed
    lines = [screen.row(number) for number in range(screen.screen.lines)]
    score = next((line for line in lines if AT_TABLE.search(line)), None)
    if score is None or PANEL_EDGE not in score:
        return None
    panel = score.index(PANEL_EDGE) + 2
    seats = [SEAT.fullmatch(line[panel:]) for line in lines]
    first = next((number for number, found in enumerate(seats) if found), None)
    if first is None or len(seats) < first + players:
        return None
    found = seats[first : first + players]
    if not all(found):
        return None
    names = tuple(seat[1] for seat in found if seat)
    own = [n for n, seat in enumerate(found) if seat and "you" in (seat[2] or "").split(" · ")]
    if len(own) != 1:
        return None
    return Seating(names, own[0], panel)


def turn_line(screen: ScreenReader, panel: int, number: int, rows: Iterable[int]) -> str | None:
    """The moves of turn ``number`` as the move list shows them, once it does."""
    for row in rows:
        found = MOVE_LINE.fullmatch(screen.row(row, panel))
        if found and int(found[1]) == number:
            return found[2]
    return None


def panel_tail(screen: ScreenReader, panel: int, rows: int = 4) -> str:
    """The last lines of the side panel (where a refused move is explained), for a
    failure's message."""
    lines = [screen.row(number, panel).strip() for number in range(screen.screen.lines)]
    return " | ".join(line for line in lines[-rows - 2 : -2] if line)


# -- choosing turns ------------------------------------------------------------------------


def random_turn(game: Game, chooser: random.Random) -> list[Move]:
    """A whole turn for the seat to move, each move chosen at random among the legal ones
    that do not end the game and leave a next move that does not either (so that every
    table plays on for the whole run: late in a game of Six, every lift can capture too
    much), or among fewer of them when no move is that quiet."""
    trial, seat = game.copy(), game.to_move
    turn: list[Move] = []
    while not trial.is_over and trial.to_move == seat:
        move = _quiet_move(trial, chooser)
        trial.play(move)
        turn.append(move)
    return turn


def _quiet_move(game: Game, chooser: random.Random) -> Move:
    moves = game.legal_moves()
    chooser.shuffle(moves)
    not_ending = None
    for move in moves:
        trial = game.copy()
        trial.play(move)
        if trial.is_over:
            continue
        if _may_go_on(trial):
            return move
        not_ending = not_ending or move
    return not_ending or moves[0]


def _may_go_on(game: Game) -> bool:
    """Whether the seat to move has a move that does not end the game."""
    for move in game.legal_moves():
        trial = game.copy()
        trial.play(move)
        if not trial.is_over:
            return True
    return False


def played(game: Game, shown: str) -> Game | None:
    """``game`` after the turn the move list shows as ``shown``, if that is a whole legal
    turn of the seat to move; else None (the line may be half drawn)."""
    trial, seat = game.copy(), game.to_move
    try:
        for move in shown.split():
            if trial.is_over or trial.to_move != seat:
                return None
            trial.play(move)
    except IllegalMove:
        return None
    return trial if trial.is_over or trial.to_move != seat else None


# -- one bot -------------------------------------------------------------------------------


def bot_address(number: int) -> str:
    """Bot ``number``'s own address on the loopback (127.1.0.1, 127.1.0.2, ...): players
    come from addresses of their own, and the server's limits per address stay its
    defaults, which an offender meets as it would on a real server.

    >>> bot_address(0), bot_address(250)
    ('127.1.0.1', '127.1.1.1')
    """
    return f"127.1.{number // 250}.{number % 250 + 1}"


@dataclass
class Plan:
    """What a process of bots is to do."""

    ports: tuple[int, ...]  # of the server processes: bot N connects to port N (mod their count)
    sessions: list[tuple[int, str]]  # each bot's number in the run, and its kind of table
    interval: float  # seconds between two turns at a table
    settle: float  # seconds after the end that a turn played before it may take to arrive
    seed: int
    seat_timeout: float  # seconds every bot of the process has to be seated


@dataclass
class Turn:
    number: int  # the turn's number in the move list
    at: float  # time.monotonic(): the Enter sent, or the turn shown
    moves: str  # as typed, or as shown
    received: int  # bytes that reached this bot's terminal for it


@dataclass
class BotReport:
    """What one bot did and saw (times from ``time.monotonic()``)."""

    number: int
    kind: str
    name: str = ""
    table: str = ""  # Seating.key
    seat: int = -1
    sent: list[Turn] = field(default_factory=list)  # own turns: Enter pressed...
    shown: list[Turn] = field(default_factory=list)  # ...and shown on its own screen
    seen: list[Turn] = field(default_factory=list)  # the others' turns, as they arrived
    errors: list[str] = field(default_factory=list)


class Bot:
    def __init__(self, number: int, kind: str, plan: Plan) -> None:
        self.plan = plan
        self.report = BotReport(number, kind)
        self.choice = KINDS[kind]
        self.chooser = random.Random(plan.seed * 100_003 + number)
        self.terminal: Terminal | None = None
        self.seating: Seating | None = None

    def fail(self, what: str) -> None:
        report = self.report
        self.report.errors.append(
            f"{report.name or f'bot {report.number}'} ({report.kind}): {what}"
        )

    async def join(self, connecting: asyncio.Semaphore) -> None:
        """Connects, waits for the lobby, pairs and waits to be seated."""
        try:
            async with connecting:
                number, ports = self.report.number, self.plan.ports
                self.terminal = terminal = await Terminal.open(
                    ports[number % len(ports)], bot_address(number)
                )
                name, _, _ = await terminal.until(
                    lambda rows: lobby_name(terminal.reader, rows), STEP
                )
            self.report.name = name
            terminal.press(f"/pair {self.choice.words}\r")
            players = self.choice.players
            self.seating, _, _ = await terminal.until(
                lambda rows: seating(terminal.reader, players, rows), self.plan.seat_timeout
            )
        except Exception as why:  # a refused connection, a timeout, the session's end...
            screen = f":\n{self.terminal.text}" if self.terminal is not None else ""
            self.fail(f"not seated ({type(why).__name__}: {why}){screen}")
            return
        self.report.table, self.report.seat = self.seating.key, self.seating.seat

    async def play(self, start: float, stop: float) -> None:
        """Plays until ``stop``: its own turns at the table's pace, the others' as they come."""
        terminal, seating = self.terminal, self.seating
        if terminal is None or seating is None:
            return
        interval = self.plan.interval
        game = new_game(self.choice.game, **self.choice.options())
        due = start + self.chooser.uniform(0, interval)  # the first turn: tables out of step
        received = terminal.received
        number = 0
        try:
            while not game.is_over:
                number += 1
                if game.to_move == seating.seat:
                    if due >= stop:
                        return
                    game, shown_at, received = await self._own_turn(game, number, due, received)
                else:
                    seen = await self._their_turn(game, number, stop, received)
                    if seen is None:
                        return
                    game, shown_at, received = seen
                due = shown_at + interval
        except BotFailure as why:
            self.fail(str(why))

    async def _own_turn(
        self, game: Game, number: int, due: float, received: int
    ) -> tuple[Game, float, int]:
        terminal, seating = self.terminal, self.seating
        assert terminal is not None and seating is not None
        turn = random_turn(game, self.chooser)
        typed = " ".join(str(move) for move in turn)
        await _sleep_until(due - min(TYPING, self.plan.interval / 2))
        terminal.press(f"/{typed}")
        await _sleep_until(due)
        sent = time.monotonic()
        terminal.press("\r")
        self.report.sent.append(Turn(number, sent, typed, 0))
        try:
            _, shown_at, now_received = await terminal.until(
                lambda rows: _exactly(
                    turn_line(terminal.reader, seating.panel, number, rows), typed
                ),
                STUCK,
            )
        except TimeoutError:
            raise BotFailure(
                f"turn {number}, {typed}, not in its own move list {STUCK:g} s after Enter:"
                f" {panel_tail(terminal.reader, seating.panel)}"
            ) from None
        self.report.shown.append(Turn(number, shown_at, typed, now_received - received))
        after = played(game, typed)
        assert after is not None  # chosen among the legal moves
        return after, shown_at, now_received

    async def _their_turn(
        self, game: Game, number: int, stop: float, received: int
    ) -> tuple[Game, float, int] | None:
        terminal, seating = self.terminal, self.seating
        assert terminal is not None and seating is not None

        def arrived(rows: Iterable[int]) -> tuple[str, Game] | None:
            shown = turn_line(terminal.reader, seating.panel, number, rows)
            after = None if shown is None else played(game, shown)
            return None if after is None or shown is None else (shown, after)

        end_of_run = stop + self.plan.settle
        waited = max(0.0, min(self.plan.interval + STUCK, end_of_run - time.monotonic()))
        try:
            (shown, after), seen_at, now_received = await terminal.until(arrived, waited)
        except TimeoutError:
            if time.monotonic() >= end_of_run:
                return None  # the run is over: nobody was to play this turn
            raise BotFailure(
                f"waited {waited:g} s for turn {number} to reach its screen:"
                f" {panel_tail(terminal.reader, seating.panel)}"
            ) from None
        self.report.seen.append(Turn(number, seen_at, shown, now_received - received))
        return after, seen_at, now_received

    async def leave(self) -> None:
        if self.terminal is not None:
            await self.terminal.close()


def _exactly(shown: str | None, typed: str) -> str | None:
    return shown if shown == typed else None


async def _sleep_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


# -- a process of bots ---------------------------------------------------------------------


def run_bots(pipe: Connection, plan: Plan) -> None:
    """A process of bots, from its plan to the end of its sessions (see the module's
    docstring for what it says over ``pipe``)."""
    asyncio.run(_run_bots(pipe, plan))


async def _run_bots(pipe: Connection, plan: Plan) -> None:
    loop = asyncio.get_running_loop()
    orders: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
    loop.add_reader(pipe.fileno(), lambda: orders.put_nowait(_receive(pipe, loop)))
    bots = [Bot(number, kind, plan) for number, kind in plan.sessions]
    try:
        connecting = asyncio.Semaphore(CONNECTING)
        telling = loop.create_task(_tell_progress(bots))
        await asyncio.gather(*(bot.join(connecting) for bot in bots))
        telling.cancel()
        pipe.send(("ready", [bot.report for bot in bots]))
        order = await orders.get()
        if order[0] != "go":
            return
        _, start, stop = order
        cpu: list[float] = []
        loop.call_at(loop.time() + start - time.monotonic(), lambda: cpu.append(_cpu()))
        loop.call_at(loop.time() + stop - time.monotonic(), lambda: cpu.append(_cpu()))
        await asyncio.gather(*(bot.play(start, stop) for bot in bots))
        await _sleep_until(stop + 0.01)  # the CPU read at the stop, if every bot ended before
        used = cpu[1] - cpu[0] if len(cpu) == 2 else 0.0
        pipe.send(("done", [bot.report for bot in bots], used))
        await orders.get()  # ("leave",), or the harness gone
    finally:
        loop.remove_reader(pipe.fileno())
        await asyncio.gather(*(bot.leave() for bot in bots))


async def _tell_progress(bots: list[Bot]) -> None:
    """How far the bots have got, every :data:`PROGRESS` seconds, on standard error: a
    crowd takes a while to come in."""
    while True:
        await asyncio.sleep(PROGRESS)
        arrived = sum(bool(bot.report.name) for bot in bots)
        seated = sum(bot.seating is not None for bot in bots)
        failed = sum(bool(bot.report.errors) for bot in bots)
        print(
            f"bots {os.getpid()}: {arrived} of {len(bots)} in the lobby, {seated} seated,"
            f" {failed} failed",
            file=sys.stderr,
            flush=True,
        )


def _receive(pipe: Connection, loop: asyncio.AbstractEventLoop) -> tuple[Any, ...]:
    try:
        return pipe.recv()
    except EOFError:  # the harness is gone: its bots leave
        loop.remove_reader(pipe.fileno())
        return ("leave",)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
