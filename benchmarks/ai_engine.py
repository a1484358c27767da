"""Connect6 against Cloudict, an engine of Computer Olympiad pedigree (gold 2009 and 2011).

Cloudict (https://github.com/lang010/cloudict, BSD licence) is built outside the repository:
``make`` in its folder gives ``gameEngine``, which reads ``patterns.in`` from its working
folder. It speaks lines of text on its standard input and output (``src/game_engine.cc``):

- ``depth D``: the alpha-beta depth (1–9); it answers ``Set the search depth to D.``;
- ``new black`` / ``new white``: a new game with the engine as that colour; as Black it
  plays the middle point at once and answers ``move JJ``;
- ``black XX`` / ``white XX``: puts a stone of that colour, without answering;
- ``next``: the engine plays a turn for the colour after the last stone put, ``move XXYY``;
- ``move XXYY`` (or ``move XX``, one stone): the opponent's turn, answered ``move XXYY``;
- ``quit``.

A stone is two letters A–S, column then row, row A at the bottom: sixtui's ``J10`` is ``JJ``.
Between its answers the engine prints its search (``AB Time :\\t1.194``, ``Node :\\t10168``),
which gives its nodes per second.
"""

from __future__ import annotations

import ctypes
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from sixtui.rules import Game, IllegalMove, Move
from sixtui.rules.square import Square

BINARY = "gameEngine"
PATTERNS = "patterns.in"
LETTERS = "ABCDEFGHIJKLMNOPQRS"
PR_SET_PDEATHSIG = 1  # prctl's option: the signal a process gets when its parent ends
ANSWER_SECONDS = 120.0  # longest wait for one answer before the engine is given up
SKIPPED = "Cloudict match skipped: no engine folder given (make bench-ai ENGINE=/path/to/cloudict)"


class EngineError(RuntimeError):
    """The engine is missing, broke its protocol, or took too long."""


class OffBoard(EngineError):
    """The engine put a stone off the board (it does, rarely: ``T@``)."""


class ShortTurn(EngineError):
    """A turn of fewer stones than the game asked for, that did not end the game."""


class Crashed(EngineError):
    """The engine stopped in the middle of a game (it does, rarely: a segmentation fault
    in its search)."""


def to_engine(squares: list[Square]) -> str:
    """sixtui's points as Cloudict writes them: two letters a stone, column then row.

    >>> to_engine([Square(9, 9), Square(0, 18)])
    'JJAS'
    """
    return "".join(LETTERS[square.col] + LETTERS[square.row] for square in squares)


def from_engine(text: str) -> list[Square]:
    """Cloudict's stones (``JJAS``) as sixtui's points.

    >>> [str(square) for square in from_engine("JJAS")]
    ['J10', 'A19']
    """
    if len(text) not in (2, 4):
        raise EngineError(f"{text!r} is not one or two stones of Cloudict's A–S letters")
    if any(letter not in LETTERS for letter in text):
        raise OffBoard(f"{text!r} puts a stone off the board")
    return [
        Square(LETTERS.index(text[at]), LETTERS.index(text[at + 1]))
        for at in range(0, len(text), 2)
    ]


def check_folder(folder: Path) -> None:
    """Raises :class:`EngineError` saying what is missing when ``folder`` cannot run Cloudict."""
    for name in (BINARY, PATTERNS):
        if not (folder / name).is_file():
            raise EngineError(
                f"{folder} has no {name}: build Cloudict there (git clone "
                f"https://github.com/lang010/cloudict; make) and pass that folder"
            )


@dataclass
class EngineClock:
    """What the engine reported of its searches, and the wall time of its answers."""

    answers: list[float] = field(default_factory=list)
    nodes: int = 0
    search_seconds: float = 0.0
    forfeits: int = 0  # games lost by an illegal stone, a short turn or a crash

    def read(self, line: str) -> None:
        """Counts a search line (``Node :`` or ``AB Time :``); other lines are ignored."""
        label, _, value = line.partition(":")
        if label.strip() == "Node":
            self.nodes += int(value)
        elif label.strip() == "AB Time":
            self.search_seconds += float(value)

    def add(self, other: EngineClock) -> None:
        """Adds ``other``'s answers and searches to these."""
        self.answers.extend(other.answers)
        self.nodes += other.nodes
        self.search_seconds += other.search_seconds
        self.forfeits += other.forfeits

    def per_turn(self) -> str:
        """Mean wall-clock seconds per answer."""
        return f"{sum(self.answers) / len(self.answers):.3f}" if self.answers else "–"

    def per_second(self) -> str:
        """Alpha-beta nodes per second of the engine's own (processor) search time."""
        return f"{self.nodes / self.search_seconds:,.0f}" if self.search_seconds else "n/a"


class Cloudict:
    """A running ``gameEngine``; use it as a context manager.

    It runs in a working folder of its own, made for it and removed when it closes, with
    a copy of ``patterns.in``: the engine appends a line to ``engine.log`` there for every
    search and never trims it, and over the matches of many runs in its own folder that
    log grew to tens of gigabytes."""

    def __init__(self, folder: Path, depth: int) -> None:
        check_folder(folder)
        self.clock = EngineClock()
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._workdir = tempfile.TemporaryDirectory(prefix="cloudict-")
        shutil.copy(folder / PATTERNS, self._workdir.name)
        self._process = subprocess.Popen(
            [str(folder.resolve() / BINARY)],
            cwd=self._workdir.name,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        threading.Thread(target=self._read_lines, daemon=True).start()
        try:
            self._send(f"depth {depth}")
            # Also reads past the help printed at the start, whose lines include "move XXXX".
            self._wait_for("Set the search depth")
        except (OSError, EngineError):
            self.close()
            raise

    def __enter__(self) -> Cloudict:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Asks the engine to quit, and kills it if it does not within a few seconds;
        its working folder goes."""
        if self._process.poll() is None:
            try:
                self._send("quit")
                self._process.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._process.kill()
                self._process.wait()
        self._workdir.cleanup()

    def _read_lines(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.strip())
        self._lines.put(None)

    def _send(self, command: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(command + "\n")
        self._process.stdin.flush()

    def _wait_for(self, start: str) -> str:
        """The next line starting with ``start``, counting the search lines before it."""
        deadline = time.monotonic() + ANSWER_SECONDS
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineError(f"Cloudict gave no {start!r} in {ANSWER_SECONDS:g} s") from None
            if line is None:
                raise Crashed(f"Cloudict stopped before answering {start!r}")
            if line.startswith(start):
                return line
            self.clock.read(line)

    def _answer(self, command: str) -> list[Square]:
        started = time.perf_counter()
        self._send(command)
        stones = from_engine(self._wait_for("move ").split()[1])
        self.clock.answers.append(time.perf_counter() - started)
        return stones

    def set_up(self, game: Game) -> None:
        """A new game from the stones of ``game`` so far, which must end a whole turn.

        The engine plays the colour whose turn follows: after ``next``, or the other
        colour's ``move``.
        """
        self._send("new white")  # no opening stone; the colour follows the stones put
        for seat, move in zip(_seats_of(game), game.history, strict=True):
            assert isinstance(move.to, Square)
            self._send(f"{('black', 'white')[seat]} {to_engine([move.to])}")

    def first_turn(self) -> list[Square]:
        """The engine's turn right after :meth:`set_up`, when it is the engine's to play."""
        return self._answer("next")

    def reply(self, stones: list[Square]) -> list[Square]:
        """The engine's turn after the opponent's ``stones``."""
        return self._answer(f"move {to_engine(stones)}")


class EngineTurns:
    """A second Cloudict's turns, as :func:`play_engine_game` asks for the other side's:
    Cloudict against itself. It learns the game at its first turn, and each later turn
    the stones played since its last."""

    def __init__(self, engine: Cloudict) -> None:
        self.engine = engine
        self._known: int | None = None  # the stones of the game it has been told

    def __call__(self, game: Game) -> list[Move]:
        if self._known is None:
            self.engine.set_up(game)
            answer = self.engine.first_turn()
        else:
            since = game.history[self._known :]
            answer = self.engine.reply([move.to for move in since if isinstance(move.to, Square)])
        self._known = len(game.history) + len(answer)
        return [Move(square) for square in answer]


def _die_with_parent() -> None:
    """Run in the engine's process before the engine starts (Linux): the engine is killed
    when the process that started it ends, however it ends. Cloudict, its input closed,
    logs an empty command to its ``engine.log`` again and again without end: one left
    behind by a benchmark that was killed filled 80 GB of disk in ten minutes."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _seats_of(game: Game) -> list[int]:
    """The seat that played each stone of ``game``: Black one, then two a turn each."""
    return [0 if (index + 1) % 4 < 2 else 1 for index in range(len(game.history))]


def play_engine_game(
    engine: Cloudict,
    game: Game,
    colour: int,
    sixtui_turn: Callable[[Game], list[Move]],
    move_cap: int,
) -> float:
    """sixtui's points (1, ½ or 0) against the engine (seat ``colour``) from ``game``.

    ``sixtui_turn`` chooses sixtui's turns; ``game`` is played on, and is a draw after
    ``move_cap`` stones past its start. An engine that puts a stone on a taken point (it
    does, now and then, once its four is stopped at both ends) or off the board, answers a
    turn of one stone that does not win (it did once, in the middle of a game), or stops
    in the middle of the game (a crash), forfeits it, as in tournaments; its clock counts
    the forfeit.
    """
    engine.set_up(game)
    stones: list[Square] = []
    opening_length = len(game.history)
    while game.result is None and len(game.history) - opening_length < move_cap:
        if game.to_move == colour:
            try:
                answer = engine.reply(stones) if stones else engine.first_turn()
                _play_turn(game, [Move(square) for square in answer], "Cloudict")
            except (IllegalMove, OffBoard, ShortTurn, Crashed):
                engine.clock.forfeits += 1
                return 1.0
        else:
            turn = sixtui_turn(game)
            _play_turn(game, turn, "sixtui")
            stones = [move.to for move in turn if isinstance(move.to, Square)]
    winner = None if game.result is None else game.result.winner
    return 0.5 if winner is None else float(winner != colour)


def _play_turn(game: Game, turn: list[Move], player: str) -> None:
    """Plays a whole turn; a turn short of stones while the game runs breaks the protocol."""
    seat = game.to_move
    for move in turn:
        game.play(move)
        if game.result is not None:
            return
    if game.to_move == seat:
        raise ShortTurn(f"{player} played {len(turn)} stone(s) where its turn needed more")
