"""Drawing the game screen: CPU time and bytes written for the update after one key.

The app runs as the ``sixtui`` command runs it (``App.run_async``), at 80×24, in truecolor,
for a terminal that supports synchronized output, but on :class:`CountingDriver`: a driver
that is not headless, so Textual renders every frame to escape sequences and writes it, while
its ``write()`` only counts the bytes and its ``flush()``, which ends every frame, notes the
process CPU time. No terminal I/O is done.

An update is measured from the key press, handed to the app as a terminal driver's input
thread hands it (``Driver.process_message``), to the flush of the last frame it caused: the
end is read inside the app's own call to ``flush()``, so the harness, asleep on an event that
``flush()`` sets, does not run inside the window (if an update took several frames, the
moments the harness woke up between them would be timed and subtracted).

Python's garbage collector runs when it will, as in a server; an update during which it began
a full (generation 2) collection, which is rare, counts in the medians but not as the slowest
update. Each run begins with ``gc.freeze()``, so that what other benchmarks in the process
left behind does not make those collections longer.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar
from unittest import mock

from rich.segment import Segment
from textual import events, messages
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.driver import Driver
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from benchmarks.measure import Figure
from sixtui.rules import Game, Move, Square, new_game
from sixtui.server.hub import MemoryHub
from sixtui.server.intents import Intent
from sixtui.server.rooms import open_table, read_table, submit
from sixtui.server.table_session import TableSession
from sixtui.server.table_state import SeatHolder
from sixtui.tui.app import SixtuiApp
from sixtui.tui.game_setup import GameSetup
from sixtui.tui.screens.game import GameScreen, SessionChanged
from sixtui.tui.session import Update

SIZE = (80, 24)
UPDATES = 20  # measured moves and cursor steps per run
WARM_UP = 2  # moves and cursor steps played first, unmeasured
OPENING = 40  # random stones on a square board before measuring
KEY_NAMES = {"/": "slash", " ": "space", ",": "comma", ">": "greater_than_sign"}
QUIET = 0.03  # seconds without a frame (about two at 60 fps) that end an update
TIMEOUT = 2.0  # seconds to wait for the first frame of an update
SIX_PIECES = 38  # Six, steffen, 2 players: every piece placed, the second round begins
CURSOR_KEYS = ("right", "down", "left", "up")  # round a square: back where it began


class CountingDriver(Driver):
    """A terminal driver without a terminal: counts what Textual writes.

    Not headless, so that Textual renders and writes every frame as it would to a terminal
    (``App._display`` does neither for a headless driver).
    """

    def __init__(self, app: App, *, size: tuple[int, int], **options: Any) -> None:
        super().__init__(app, size=size, **options)
        self.size = size
        self.written = 0  # bytes, UTF-8, since the last reset
        self.frames = 0  # flushes since the last reset
        self.last_flush = 0.0  # process CPU time when the last frame had been written
        self.full_collections: list[float] = []  # CPU times when the GC began one
        self.frame_written = asyncio.Event()

    @property
    def is_headless(self) -> bool:
        return False

    def reset(self) -> None:
        self.written = self.frames = 0
        self.full_collections.clear()
        self.frame_written.clear()

    def note_collection(self, phase: str, info: dict[str, int]) -> None:
        """A ``gc.callbacks`` entry."""
        if phase == "start" and info["generation"] == 2:
            self.full_collections.append(time.process_time())

    def write(self, data: str) -> None:
        self.written += len(data.encode())

    def flush(self) -> None:
        self.last_flush = time.process_time()
        self.frames += 1
        self.frame_written.set()

    def start_application_mode(self) -> None:
        """What a terminal tells a full-screen app first: its size, and (as most terminals
        in use do) that it supports synchronized output, which then wraps every frame."""
        size = Size(*self.size)
        self.send_message(events.Resize(size, size))
        self.send_message(messages.TerminalSupportsSynchronizedOutput())

    def disable_input(self) -> None:
        pass

    def stop_application_mode(self) -> None:
        pass


@dataclass(frozen=True)
class Sample:
    """One update: CPU ms until its last frame was written, bytes written, frames, and
    whether the garbage collector made a full collection meanwhile."""

    cpu_ms: float
    written: int
    frames: int
    full_gc: bool


class Harness:
    """Presses keys in a running app and measures the updates they cause."""

    def __init__(self, app: App, driver: CountingDriver) -> None:
        self.app = app
        self.driver = driver

    @property
    def screen(self) -> GameScreen:
        screen = self.app.screen
        assert isinstance(screen, GameScreen)
        return screen

    async def game_screen(self) -> GameScreen:
        """The game screen, once it is up and drawn."""
        while not isinstance(self.app.screen, GameScreen):
            await asyncio.sleep(QUIET)
        await self.settle()
        return self.screen

    async def settle(self) -> None:
        """Waits until :data:`QUIET` seconds pass without a frame."""
        while True:
            frames = self.driver.frames
            await asyncio.sleep(QUIET)
            if self.driver.frames == frames:
                return

    async def press(self, key: str, character: str | None = None) -> Sample:
        """Presses ``key`` (typing ``character``, if any) on a settled screen, measures the
        update it causes, and leaves the screen settled."""
        key_event = events.Key(key, "\r" if key == "enter" else character)
        # As the input thread of a terminal driver does:
        return await self.measure(lambda: self.driver.process_message(key_event))

    async def measure(self, cause: Callable[[], object]) -> Sample:
        """Calls ``cause`` on a settled screen and measures the update that follows."""
        driver = self.driver
        driver.reset()
        start = time.process_time()
        cause()
        async with asyncio.timeout(TIMEOUT):
            await driver.frame_written.wait()
        awake = []  # when the harness ran between frames
        while True:
            woke = time.process_time()
            frames = driver.frames
            awake.append((woke, time.process_time()))
            await asyncio.sleep(QUIET)
            if driver.frames == frames:
                break
        end = driver.last_flush
        own = sum(slept - woke for woke, slept in awake if slept <= end)
        full_gc = any(start <= began <= end for began in driver.full_collections)
        return Sample((end - start - own) * 1000, driver.written, driver.frames, full_gc)

    async def type_line(self, text: str) -> Sample:
        """Opens the move line with "/", types ``text`` and Enter, a key at a time as a
        player types (each update measured on a settled screen): the keys' samples summed."""
        samples = [await self.press(KEY_NAMES.get(char, char), char) for char in "/" + text]
        samples.append(await self.press("enter"))
        return Sample(
            sum(sample.cpu_ms for sample in samples),
            sum(sample.written for sample in samples),
            sum(sample.frames for sample in samples),
            any(sample.full_gc for sample in samples),
        )

    async def cursor_to(self, cell: object) -> None:
        """Moves the board's cursor straight to ``cell`` (unmeasured), and lets it draw."""
        self.driver.reset()
        self.screen.board.move_cursor(cell)
        async with asyncio.timeout(TIMEOUT):
            await self.driver.frame_written.wait()
        await self.settle()


# -- positions and moves --------------------------------------------------------------------


def ends_game(game: Game, move: Move) -> bool:
    after = game.copy()
    after.play(move)
    return after.is_over


def random_moves(game: Game, count: int, rng: random.Random) -> list[Move]:
    """``count`` random moves on from ``game`` that do not end it (``game`` is not changed)."""
    game = game.copy()
    chosen = []
    while len(chosen) < count:
        move = rng.choice(game.legal_moves())
        if not ends_game(game, move):
            game.play(move)
            chosen.append(move)
    return chosen


def simple_six_moves(game: Game, count: int, rng: random.Random) -> list[Move]:
    """Random second-round moves that neither end the game nor ask which group stays."""
    game = game.copy()
    chosen = []
    while len(chosen) < count:
        moves = game.legal_moves()
        move = rng.choice(moves)
        same = [m for m in moves if (m.origin, m.to) == (move.origin, move.to)]
        if move.origin is not None and len(same) == 1 and not ends_game(game, move):
            game.play(move)
            chosen.append(move)
    return chosen


def six_second_round(rng: random.Random) -> list[Move]:
    """The moves of a random steffen game up to its second round, all pieces placed."""
    while True:
        game = new_game("six")
        while game.result is None and len(game.layout()) < SIX_PIECES:
            game.play(rng.choice(game.legal_moves()))
        if game.result is None and game.in_hand(game.to_move) == 0:  # type: ignore[attr-defined]
            return list(game.history)


# -- what is measured -----------------------------------------------------------------------

Measured = dict[str, list[Sample]]  # samples by kind of update
Scenario = Callable[[Harness, int], Awaitable[Measured]]


async def cursor_steps(harness: Harness, measured: Measured) -> None:
    """Arrow keys round a square from a settled screen: ``←/→`` and ``↑/↓`` steps."""
    for number in range(WARM_UP + UPDATES):
        key = CURSOR_KEYS[number % len(CURSOR_KEYS)]
        sample = await harness.press(key)
        if number >= WARM_UP:
            kind = "←/→" if key in ("left", "right") else "↑/↓"
            measured.setdefault(kind, []).append(sample)


async def square_board(harness: Harness, seed: int) -> Measured:
    """Stones and cursor steps on a Connect6 or Game of 6 board after :data:`OPENING` random
    stones. A stone is Enter on the square under the cursor, which is moved there first
    (unmeasured); it is the ``first`` stone of a turn or the one that ``completes`` it (which
    hands the turn over and unmarks the turn before)."""
    screen = await harness.game_screen()
    session = screen.session
    rng = random.Random(seed)
    for move in random_moves(session.game, OPENING, rng):
        await session.play(move)
    measured: Measured = {}
    for number, move in enumerate(random_moves(session.game, WARM_UP + UPDATES, rng)):
        await harness.cursor_to(move.to)
        completes = session.game.stones_left == 1  # type: ignore[attr-defined]
        sample = await harness.press("enter")
        if number >= WARM_UP:
            measured.setdefault("completes" if completes else "first", []).append(sample)
    for number, move in enumerate(random_moves(session.game, WARM_UP + UPDATES, rng)):
        sample = await harness.measure(lambda move=move: arrives(screen, move))
        if number >= WARM_UP:
            measured.setdefault("arrives", []).append(sample)
    size = session.game.size  # type: ignore[attr-defined]
    await harness.cursor_to(Square(size // 2, size // 2))
    await cursor_steps(harness, measured)
    for number in range(WARM_UP + UPDATES):
        turn = whole_turn(session.game, rng)
        sample = await harness.type_line(" ".join(str(move) for move in turn))
        if session.game.history[-len(turn) :] != turn:
            raise RuntimeError(f"the render benchmark meant to play {turn}")
        if number >= WARM_UP:
            measured.setdefault("typed", []).append(sample)
    return measured


def whole_turn(game: Game, rng: random.Random) -> list[Move]:
    """The random stones of one whole turn from ``game``, none of them ending it."""
    after, turn = game.copy(), []
    while not turn or after.to_move == game.to_move:
        turn += random_moves(after, 1, rng)
        after.play(turn[-1])
    return turn


def arrives(screen: GameScreen, move: Move) -> None:
    """A stone played elsewhere, as a server's hub will bring it: the game changes, and the
    news is posted to this app's screen (from another session's task it is always posted)."""
    screen.session.game.play(move)
    screen.post_message(SessionChanged(Update("moves", (move,))))


async def six_board(harness: Harness, seed: int) -> Measured:
    """Second-round moves of Six, from a random steffen game with every piece placed: Enter
    on a piece (``pick``, which marks where it may go) and Enter where it goes (``move``),
    the cursor moved to each first (unmeasured); then cursor steps."""
    screen = await harness.game_screen()
    session = screen.session
    rng = random.Random(seed)
    for move in six_second_round(rng):
        await session.play(move)
    measured: Measured = {}
    for number, move in enumerate(simple_six_moves(session.game, WARM_UP + UPDATES, rng)):
        await harness.cursor_to(move.origin)
        pick = await harness.press("enter")
        await harness.cursor_to(move.to)
        put = await harness.press("enter")
        if session.game.history[-1] != move:
            raise RuntimeError(f"the render benchmark meant to play {move}")
        if number >= WARM_UP:
            measured.setdefault("pick", []).append(pick)
            measured.setdefault("move", []).append(put)
    screen.board.action_centre()  # type: ignore[attr-defined]
    await harness.settle()
    await cursor_steps(harness, measured)
    for number, move in enumerate(simple_six_moves(session.game, WARM_UP + UPDATES, rng)):
        sample = await harness.type_line(str(move))
        if session.game.history[-1] != move:
            raise RuntimeError(f"the render benchmark meant to play {move}")
        if number >= WARM_UP:
            measured.setdefault("typed", []).append(sample)
    return measured


class WallClock:
    """The wall clock of a table's session, moved on by the benchmark alone."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def clocked_table(wall: WallClock) -> TableSession:
    """A player at a Connect6 table of the hub with a 5+0 clock, their own running, after
    :data:`OPENING` random stones: the screen a server's player sees."""
    hub = MemoryHub()
    sides = [[SeatHolder("ann", "key-ann")], [SeatHolder("bob", "key-bob")]]
    table = await open_table(hub, "connect6", {}, sides, opener=0, clock="5+0")
    game = new_game("connect6")
    turn: list[str] = []
    for move in random_moves(game, OPENING, random.Random(0)):
        seat = game.to_move
        game.play(move)
        turn.append(str(move))
        if game.to_move != seat:  # the turn is whole: sent as a player sends it
            state = await read_table(hub, table)
            assert state is not None
            mover = str(state.holder_at(seat).identity)
            await submit(
                hub, table, Intent("turn", state.version, mover, tuple(turn)).to_bytes(), wall
            )
            turn = []
    state = await read_table(hub, table)
    assert state is not None
    player = str(state.holder_at(state.load().to_move).identity)
    return await TableSession.join(hub, table, player, wall)


async def clock_seconds(harness: Harness, seed: int) -> Measured:
    """Each second of the player's running clock at an online table, drawn as the
    screen's tick draws it."""
    wall = WallClock()
    await harness.app.push_screen(GameScreen(await clocked_table(wall)))
    screen = await harness.game_screen()
    samples = []
    for _ in range(WARM_UP + UPDATES):
        wall.now += 1
        samples.append(await harness.measure(screen.panel.sync))
    await screen.session.close()
    return {"second": samples[WARM_UP:]}


class OneLine(Widget, can_focus=True):
    """A line-API widget that redraws one line for each key press."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("right", "step")]
    DEFAULT_CSS = "OneLine { width: 1fr; height: 1fr; }"
    steps = 0

    def action_step(self) -> None:
        self.steps += 1
        self.refresh(Region(0, 0, self.size.width, 1))

    def render_line(self, y: int) -> Strip:
        text = f"{self.steps} steps" if y == 0 else ""
        return Strip([Segment(text.ljust(self.size.width))])


class OneLineApp(App[None]):
    """Textual alone: a key press that redraws one line of one widget."""

    def compose(self) -> ComposeResult:
        yield OneLine()

    def on_mount(self) -> None:
        self.query_one(OneLine).focus()


async def one_line(harness: Harness, seed: int) -> Measured:
    await harness.settle()
    samples = [await harness.press("right") for _ in range(WARM_UP + UPDATES)]
    return {"key": samples[WARM_UP:]}


async def run_app(make_app: Callable[[], App], scenario: Scenario, seed: int) -> Measured:
    """Runs ``scenario`` in the app ``make_app`` makes, drawn to a :class:`CountingDriver`."""
    with mock.patch.dict(os.environ, {"COLORTERM": "truecolor", "TERM": "xterm-256color"}):
        os.environ.pop("NO_COLOR", None)
        app = make_app()  # the app's console reads the environment here
    drivers: list[CountingDriver] = []

    def counting_driver(*args: Any, **options: Any) -> CountingDriver:
        drivers.append(CountingDriver(*args, **options))
        return drivers[-1]

    app.driver_class = counting_driver  # Textual calls it as it would a driver class
    measured: Measured = {}

    async def auto_pilot(pilot: object) -> None:
        try:
            if app.console.color_system != "truecolor":
                raise RuntimeError("the render benchmark needs a truecolor console")
            harness = Harness(app, drivers[-1])
            gc.callbacks.append(harness.driver.note_collection)
            try:
                measured.update(await scenario(harness, seed))
            finally:
                gc.callbacks.remove(harness.driver.note_collection)
        finally:
            app.exit()

    gc.collect()
    gc.freeze()  # what was there before the app is not the app's to collect
    try:
        await app.run_async(headless=False, size=SIZE, auto_pilot=auto_pilot)
    finally:
        gc.unfreeze()
    if not measured:
        raise RuntimeError("the render benchmark stopped early")
    return measured


def measure(make_app: Callable[[], App], scenario: Scenario, runs: int) -> list[Measured]:
    """``runs`` runs, each in a fresh app and from its own position (seeded by the run)."""
    return [asyncio.run(run_app(make_app, scenario, seed)) for seed in range(runs)]


# -- figures --------------------------------------------------------------------------------


def update_figures(
    what: str, runs: list[Measured], kind: str, targets: tuple[str, str] = ("", "")
) -> Iterator[Figure]:
    """CPU ms and bytes per update: each run's median; the worst update in the name (for
    CPU, of those without a full garbage collection)."""
    samples = [run[kind] for run in runs]
    worst_cpu = max((s.cpu_ms for run in samples for s in run if not s.full_gc), default=0.0)
    worst_written = max(s.written for run in samples for s in run)
    yield Figure(
        f"render {what}: CPU ms per update (slowest {worst_cpu:.1f})",
        [statistics.median(s.cpu_ms for s in run) for run in samples],
        "ms",
        targets[0],
        digits=2,
    )
    yield Figure(
        f"render {what}: bytes written per update (largest {worst_written:,})",
        [statistics.median(s.written for s in run) for run in samples],
        "bytes",
        targets[1],
        digits=0,
    )


STONE_TARGETS = ("≤ 4", "≤ 2,048")
# A second of the clock: one line of the panel (Textual writes the widget's line whole,
# though only the clock's cells are refreshed), never the board.
CLOCK_BYTES = "≤ 512"
CURSOR = {"←/→": "cursor step ←/→", "↑/↓": "cursor step ↑/↓"}
STONES = {
    "first": "one stone, first of a turn",
    "completes": "one stone, completing a turn",
    "arrives": "one stone played elsewhere, arriving",
}
TYPED = {"typed": "a turn typed on the move line (/, the stones, Enter), every key summed"}
BOARDS: list[tuple[str, str, Scenario, dict[str, str]]] = [
    ("Connect6 19×19", "connect6", square_board, {**STONES, **TYPED}),
    ("Game of 6 19×19", "gameof6", square_board, {**STONES, **TYPED}),
    (
        "Six 2nd round",
        "six",
        six_board,
        {
            "pick": "picking up a piece",
            "move": "one move",
            "typed": "a move typed on the move line (/, the move, Enter), every key summed",
        },
    ),
]


def figures(runs: int, seconds: float) -> Iterator[Figure]:
    """``runs`` runs of each board of :data:`BOARDS`, then of :class:`OneLineApp`; a run
    measures :data:`UPDATES` moves and as many cursor steps (``seconds`` is not used)."""
    del seconds
    for title, game, scenario, kinds in BOARDS:
        setup = GameSetup(game, seats=(None, None))  # hot-seat: no computer player
        measured = measure(lambda setup=setup: SixtuiApp(setup), scenario, runs)
        for kind, what in {**kinds, **CURSOR}.items():
            targets = STONE_TARGETS if game == "connect6" and kind in STONES else ("", "")
            yield from update_figures(f"{title}, {what}", measured, kind, targets)
    measured = measure(SixtuiApp, clock_seconds, runs)
    what = "Connect6 19×19 online, a second of the clock"
    yield from update_figures(what, measured, "second", ("", CLOCK_BYTES))
    measured = measure(OneLineApp, one_line, runs)
    yield from update_figures("floor: Textual alone, one line on a key", measured, "key")
