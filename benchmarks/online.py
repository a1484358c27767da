"""Online play over SSH: what one typed turn costs, in bytes to each terminal and server CPU.

The server runs in a process of its own, as in :mod:`benchmarks.server` (``sixtui serve``
on 127.0.0.1, default settings but for the connection limits), without the lag probe, whose
hundred wake-ups a second would be counted as the turns' CPU. Two guests connect with
asyncssh clients in this process (their work is not counted), each with a
:data:`SIZE` ``xterm-256color`` terminal read through ``pyte``: large enough for the whole
19×19 board beside the panel. Both type ``/pair connect6`` in the lobby, and at the table
they take turns typing :data:`TURNS` legal turns, ``/K10 L10`` style, from a list made
beforehand with the rules engine.

Each turn is typed up to its Enter and left to settle (not measured); then, from just
before the Enter is sent, the benchmark counts the bytes each client receives and the
server's user + system CPU time (``getrusage`` in the server's process), until the turn is
in both players' move lists and :data:`QUIET` s pass with no output to either: the CPU
counts both screens' redraws, the table and the hub, SSH's encryption, and the server's
idle loop over those quiet seconds (the idle figure shows how little that is). The first
:data:`SKIPPED` turns of a run are not counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import statistics
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import asyncssh
import pyte

from benchmarks.measure import Figure
from benchmarks.server import Server, guest_terminal, percentile
from sixtui.rules import Game, new_game

SIZE = (100, 30)  # columns, rows: the whole 19×19 board and the side panel
TURNS = 30  # typed turns a run, the opener's single stone the first
SKIPPED = 2  # turns of a run not counted: the first frames of a table build what it keeps
LOBBY = "sixtui lobby · you are"  # the lobby's first line, where every session begins
AT_TABLE = "Game 1 · wins"  # the panel's score line: the player is at the table
QUIET = 0.1  # seconds without output that end a turn
IDLE_SECONDS = 2.0  # how long the server's idle CPU is measured, both players at the table
TIMEOUT = 30.0  # seconds any one step may take before the run is abandoned
SEED = 6


def planned_turns(count: int, seed: int) -> list[list[str]]:
    """``count`` whole turns of a Connect6 game on 19×19, each point free when it is played
    and none ending the game: the opener's one stone, then two a turn."""
    chooser = random.Random(seed)
    game = new_game("connect6", size=19)
    turns: list[list[str]] = []
    while len(turns) < count:
        seat, turn = game.to_move, []
        while game.to_move == seat:
            point = _quiet_point(game, chooser)
            game.play(point)
            turn.append(point)
        turns.append(turn)
    return turns


def _quiet_point(game: Game, chooser: random.Random) -> str:
    """A free point, chosen at random, that does not end the game."""
    points = [str(move.to) for move in game.legal_moves()]
    chooser.shuffle(points)
    for point in points:
        trial = game.copy()
        trial.play(point)
        if not trial.is_over:
            return point
    raise RuntimeError("every free point ends the game")


def move_list_line(number: int, points: list[str]) -> re.Pattern[str]:
    """The side panel's line for turn ``number``: ``12. K10 L10``."""
    return re.compile(rf"(?<!\d){number}\. {' '.join(points)}(?!\S)")


# -- the players' terminals ----------------------------------------------------------------


class Player:
    """One player's SSH session: the bytes its terminal received, and what it shows."""

    def __init__(
        self, connection: asyncssh.SSHClientConnection, process: asyncssh.SSHClientProcess[bytes]
    ) -> None:
        self.connection = connection
        self.process = process
        self.received = 0  # bytes, since the session began
        self.screen = pyte.Screen(*SIZE)
        self._stream = pyte.ByteStream(self.screen)
        self._news = asyncio.Event()
        self.last_output = asyncio.get_running_loop().time()
        self._reading = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int) -> Player:
        """Connects as a guest (the server names them) and waits for the lobby."""
        player = cls(*await guest_terminal(port, SIZE, None))
        await player.shows(lambda text: LOBBY in text)
        return player

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        while chunk := await self.process.stdout.read(65536):
            self.received += len(chunk)
            self.last_output = loop.time()
            self._stream.feed(chunk)
            self._news.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def shows(self, check: Callable[[str], bool]) -> None:
        """Waits until ``check`` holds of the screen's text; fails with the screen."""
        try:
            async with asyncio.timeout(TIMEOUT):
                while not check(self.text):
                    self._news.clear()
                    await self._news.wait()
        except TimeoutError:
            raise RuntimeError(f"the screen did not change as it should:\n{self.text}") from None

    def press(self, keys: str) -> None:
        self.process.stdin.write(keys.encode())

    async def close(self) -> None:
        self.connection.close()
        with contextlib.suppress(Exception):
            await self.connection.wait_closed()
        self._reading.cancel()


async def all_quiet(players: tuple[Player, ...]) -> None:
    """Waits until :data:`QUIET` seconds pass with no output to any of ``players``."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(TIMEOUT):
        while (since := loop.time() - max(p.last_output for p in players)) < QUIET:
            await asyncio.sleep(QUIET - since)


# -- one run -------------------------------------------------------------------------------


@dataclass
class Turn:
    to_opponent: int  # bytes
    to_mover: int  # bytes
    cpu_ms: float  # server CPU, both screens
    shown_ms: float  # wall time from the Enter to the turn in the opponent's move list


@dataclass
class Run:
    turns: list[Turn]  # those counted
    idle_cpu: float  # share of a core the server used with both players idle at the table


async def one_run(planned: list[list[str]]) -> Run:
    with tempfile.TemporaryDirectory() as data_dir:
        server = Server(data_dir, lag_probe=False)
        players: tuple[Player, ...] = ()
        try:
            await server.listening()
            players = (await Player.open(server.port), await Player.open(server.port))
            first, second = await paired(players)
            idle_cpu = await idle_share(server, players)
            turns = []
            for number, points in enumerate(planned, start=1):
                mover, other = (first, second) if number % 2 else (second, first)
                turns.append(await one_turn(server, mover, other, number, points))
        finally:
            await asyncio.gather(*(player.close() for player in players))
            await server.stop()
    return Run(turns[SKIPPED:], idle_cpu)


async def paired(players: tuple[Player, ...]) -> tuple[Player, Player]:
    """Both players pair for Connect6 from the lobby's command line; returns them, the one
    who opens first."""
    for player in players:
        player.press("/pair connect6\r")
    for player in players:
        await player.shows(lambda text: AT_TABLE in text)
    one, another = players
    await one.shows(lambda text: ": place a stone" in text or " to move" in text)
    return (one, another) if ": place a stone" in one.text else (another, one)


async def idle_share(server: Server, players: tuple[Player, ...]) -> float:
    """The share of a core the server uses while both players sit at the table."""
    await all_quiet(players)
    loop = asyncio.get_running_loop()
    cpu, began = await server.ask("cpu"), loop.time()
    await asyncio.sleep(IDLE_SECONDS)
    return (await server.ask("cpu") - cpu) / (loop.time() - began)


async def one_turn(
    server: Server, mover: Player, other: Player, number: int, points: list[str]
) -> Turn:
    """``mover`` types turn ``number`` once it is theirs; measured from its Enter."""
    both = (mover, other)
    await mover.shows(lambda text: ": place" in text)
    mover.press(f"/{' '.join(points)}")
    await all_quiet(both)
    loop = asyncio.get_running_loop()
    mover_before, other_before = mover.received, other.received
    cpu, began = await server.ask("cpu"), loop.time()
    mover.press("\r")
    line = move_list_line(number, points)
    await other.shows(lambda text: line.search(text) is not None)
    shown = loop.time()
    await mover.shows(lambda text: line.search(text) is not None)
    await all_quiet(both)
    return Turn(
        to_opponent=other.received - other_before,
        to_mover=mover.received - mover_before,
        cpu_ms=(await server.ask("cpu") - cpu) * 1000,
        shown_ms=(shown - began) * 1000,
    )


# -- figures -------------------------------------------------------------------------------


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    """``runs`` runs of :data:`TURNS` turns, each with a server process of its own."""
    del seconds
    planned = planned_turns(TURNS, SEED)
    done = [asyncio.run(one_run(planned)) for _ in range(runs)]
    where = f"Connect6 19×19, {SIZE[0]}×{SIZE[1]} terminals"
    for what, read, unit, target in (
        ("bytes to the opponent's terminal", lambda turn: turn.to_opponent, "bytes", "≤ 2,048"),
        ("bytes to the mover's terminal", lambda turn: turn.to_mover, "bytes", ""),
        ("server CPU ms, both screens", lambda turn: turn.cpu_ms, "ms", ""),
        ("ms from Enter to the opponent's move list", lambda turn: turn.shown_ms, "ms", ""),
    ):
        yield from spread(f"online {where}, one typed turn: {what}", done, read, unit, target)
    yield Figure(
        f"online: % of one core the server uses, two players idle at a table ({where})",
        [run.idle_cpu * 100 for run in done],
        "%",
        digits=2,
    )


def spread(
    name: str, done: list[Run], read: Callable[[Turn], float], unit: str, target: str
) -> Iterator[Figure]:
    """The median, 90th percentile and max over each run's turns, as medians of the runs."""
    largest = max(read(turn) for run in done for turn in run.turns)
    digits = 0 if unit == "bytes" else 1
    yield Figure(
        f"{name}, median (largest {largest:,.{digits}f})",
        [statistics.median(read(turn) for turn in run.turns) for run in done],
        unit,
        target,
        digits,
    )
    yield Figure(
        f"{name}, 90th percentile",
        [percentile([read(turn) for turn in run.turns], 0.9) for run in done],
        unit,
        digits=digits,
    )
    yield Figure(
        f"{name}, max",
        [max(read(turn) for turn in run.turns) for run in done],
        unit,
        digits=digits,
    )
