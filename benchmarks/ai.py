"""Computer players: round robins between levels, and a match against Cloudict.

python -m benchmarks ai [--games N] [--seconds S | --level-times] [--pairs A:B,...]
                        [--game NAME ...] [--first-opening SEED] [--engine FOLDER]
                        [--engine-games N] [--engine-positions N] [--show-games]
                        [--positions-per-second N]
                        [--workers W]

Each pair ``A:B`` plays ``N`` games in every chosen game: ``N / 2`` random balanced
openings (:data:`OPENING_MOVES` random legal moves near the middle, seeded), each played
twice with the colours swapped, so neither level gains from the opening or from moving first.
In four-player Six, each level holds both seats of one team. The games run in worker
processes, one per core; every turn of a level comes from
:func:`sixtui.ai.choose_turn` with that level's time (``random`` plays uniformly random
legal moves). A game still running after :data:`MOVE_CAP` moves past its opening is a draw.
A win counts 1 for ``A``, a draw ½; the table gives ``A``'s score with its Wilson 95%
interval against the target of the pair, and each level's mean seconds per turn.
With ``--level-times`` each level gets its own time of :data:`sixtui.ai.LEVEL_SECONDS`.
Under the table, each level's turns are counted against its time: how many ended more
than :data:`PACE` early or late (turns that win the game at once aside). ``--first-opening``
starts from another opening seed, so that a second run adds new games to the first.
``--positions-per-second N`` gives each level a count of positions a turn instead of its
time, ``N`` for each second of it: the games then repeat exactly whatever the machine's
load, which otherwise slows every level alike but not every game alike.

The Connect6 match against Cloudict (:mod:`benchmarks.ai_engine`) runs when ``--engine``
names the folder of its compiled ``gameEngine`` and ``patterns.in``; otherwise it is
skipped with a one-line message. ``--engine-positions N`` gives ``hard`` a count of
positions a turn there instead of its time, so that a busy machine, which slows sixtui
but not the depth-limited Cloudict, does not change the games. ``--show-games`` prints
a line for each game as it ends (and the stones of each Cloudict game).
"""

from __future__ import annotations

import argparse
import inspect
import math
import os
import platform
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from benchmarks import ai_engine
from sixtui.ai import LEVEL_SECONDS, choose_turn
from sixtui.rules import Game, IllegalMove, Move, new_game
from sixtui.rules.square import Square

LEVELS = ("random", "easy", "normal", "hard")
Z_95 = 1.959964  # the normal quantile of a two-sided 95% interval
MOVE_CAP = 400  # moves (stones, dots or pieces) past the opening before a game is a draw
OPENING_MOVES = {"connect6": 5, "gameof6": 5, "six": 4}
OPENING_REACH = 3  # grid openings stay this many points from the middle of the board
PACE = 0.1  # a turn keeps to its time when it takes that time give or take this share of it

GAME_OPTIONS: dict[str, tuple[str, dict[str, object]]] = {
    "connect6": ("connect6", {"size": 19}),
    "gameof6": ("gameof6", {"size": 19}),
    "six-steffen": ("six", {"ruleset": "steffen", "players": 2}),
    "six-romanian": ("six", {"ruleset": "romanian", "players": 2}),
    "six-partners": ("six", {"ruleset": "steffen", "players": 4}),
}
DEFAULT_GAMES = ("connect6", "gameof6", "six-steffen", "six-romanian")
TARGETS = {("easy", "random"): 0.98, ("normal", "easy"): 0.80, ("hard", "normal"): 0.80}
COUNTS_POSITIONS = "stats" in inspect.signature(choose_turn).parameters
"""Whether :func:`choose_turn` reports its search: given ``stats={}``, it sets
``stats["positions"]`` to the positions it searched, and the tables show positions per second."""
Job = TypeVar("Job")
Played = TypeVar("Played")


def wilson_interval(score: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``score`` points out of ``games``.

    >>> [round(bound, 4) for bound in wilson_interval(5, 10)]
    [0.2366, 0.7634]
    """
    if games <= 0:
        return (0.0, 1.0)
    rate = score / games
    spread = z * z / games
    centre = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / games + spread / (4 * games)) / (1 + spread)
    return (max(0.0, centre - half), min(1.0, centre + half))


def start_game(name: str) -> Game:
    """A new game of :data:`GAME_OPTIONS` ``name``, such as ``six-romanian``."""
    rules, options = GAME_OPTIONS[name]
    return new_game(rules, **options)


def _opening_choices(game: Game) -> list[Move]:
    """The legal moves an opening may take: near the middle on a grid, any in Six."""
    moves = game.legal_moves()
    if game.name == "six":
        return moves
    middle = game.size // 2  # type: ignore[attr-defined]
    return [
        move
        for move in moves
        if isinstance(move.to, Square)
        and max(abs(move.to.col - middle), abs(move.to.row - middle)) <= OPENING_REACH
    ]


def random_opening(name: str, seed: int) -> Game:
    """The game ``name`` after :data:`OPENING_MOVES` random legal moves chosen by ``seed``.

    The same seed gives the same opening; an opening that ended the game is drawn again.
    """
    rng = random.Random(seed)
    while True:
        game = start_game(name)
        for _ in range(OPENING_MOVES[game.name]):
            game.play(rng.choice(_opening_choices(game)))
            if game.result is not None:
                break
        else:
            return game


@dataclass(frozen=True)
class GameJob:
    """One game to play: its opening, the level of each team and each level's time."""

    game: str
    opening_seed: int
    team_levels: tuple[str, str]
    seconds: dict[str, float]
    move_cap: int = MOVE_CAP
    # Positions a turn per second of a level's time, instead of the time itself, when given.
    positions_per_second: int | None = None

    def positions(self, level: str) -> int | None:
        """What ``level`` searches a turn when a count of positions replaces its time."""
        if self.positions_per_second is None:
            return None
        return max(1, round(self.positions_per_second * self.seconds[level]))


@dataclass
class Thinking:
    """The turns of one level: how many, their seconds, and positions searched when known."""

    turns: int = 0
    seconds: float = 0.0
    positions: int | None = 0 if COUNTS_POSITIONS else None
    paced: list[float] = field(default_factory=list)
    """The seconds of each turn after which the game went on: a turn that wins at once
    may answer early, and is left out of the count against the level's time."""

    def add(self, other: Thinking) -> None:
        """Adds ``other``'s turns to these."""
        self.turns += other.turns
        self.seconds += other.seconds
        self.paced += other.paced
        if self.positions is not None and other.positions is not None:
            self.positions += other.positions

    def pace(self, budget: float) -> str:
        """How the paced turns kept to ``budget`` seconds, give or take :data:`PACE`."""
        early = sum(seconds < budget * (1 - PACE) for seconds in self.paced)
        late = sum(seconds > budget * (1 + PACE) for seconds in self.paced)
        spread = f", {min(self.paced):.3f} – {max(self.paced):.3f} s" if self.paced else ""
        return f"{len(self.paced)} turns of {budget:g} s: {early} early, {late} late{spread}"

    def per_turn(self) -> str:
        """Mean seconds per turn."""
        return f"{self.seconds / self.turns:.3f}" if self.turns else "–"

    def per_second(self) -> str:
        """Positions searched per second, or ``n/a`` while :func:`choose_turn` does not say."""
        if self.positions is None or not self.seconds:
            return "n/a"
        return f"{self.positions / self.seconds:,.0f}"


def think(
    game: Game,
    level: str,
    seconds: float,
    rng: random.Random,
    log: Thinking,
    positions: int | None = None,
) -> list[Move]:
    """The turn of ``level`` (``random``: one random legal move), timed and counted in ``log``;
    given ``positions``, the turn searches that many positions whatever the time."""
    stats: dict[str, int] = {}
    started = time.perf_counter()
    if level == "random":
        turn = [rng.choice(game.legal_moves())]
    elif positions is not None:
        turn = choose_turn(
            game, level, seed=rng.randrange(1 << 30), stats=stats, positions=positions
        )
    elif COUNTS_POSITIONS:
        turn = choose_turn(game, level, seconds, rng.randrange(1 << 30), stats=stats)  # type: ignore[call-arg]
    else:
        turn = choose_turn(game, level, seconds, rng.randrange(1 << 30))
    spent = time.perf_counter() - started
    log.add(Thinking(1, spent, stats.get("positions", 0)))
    if level != "random" and not _wins_at_once(game, turn):
        log.paced.append(spent)
    return turn


def _wins_at_once(game: Game, turn: list[Move]) -> bool:
    """Whether playing ``turn`` ends ``game``."""
    trial = game.copy()
    for move in turn:
        trial.play(move)
        if trial.result is not None:
            return True
    return False


@dataclass
class GameRecord:
    """How one game went: the winning team (``None``: a draw) and each level's thinking."""

    job: GameJob
    winner: int | None = None
    moves: int = 0
    thinking: dict[str, Thinking] = field(default_factory=dict)

    @property
    def capped(self) -> bool:
        """Whether the game was stopped, a draw, at its move cap."""
        return self.winner is None and self.moves >= self.job.move_cap

    def score_of_team(self, team: int) -> float:
        """1 for a win of ``team``, ½ for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == team else 0.0

    def line(self) -> str:
        """One line for the game: its opening, who held which colour, the winner, its length."""
        levels = self.job.team_levels
        winner = "draw" if self.winner is None else levels[self.winner]
        return f"  {self.job.game} opening {self.job.opening_seed}: {' vs '.join(levels)} -> " + (
            f"{winner}, {self.moves} moves"
        )


def play_game(job: GameJob) -> GameRecord:
    """Plays ``job`` from its opening to a result or to its move cap (a draw)."""
    game = random_opening(job.game, job.opening_seed)
    rng = random.Random(job.opening_seed * 7919 + 1)
    opening_length = len(game.history)
    record = GameRecord(job, thinking={level: Thinking() for level in set(job.team_levels)})
    while game.result is None and len(game.history) - opening_length < job.move_cap:
        level = job.team_levels[game.team(game.to_move)]
        log, positions = record.thinking[level], job.positions(level)
        for move in think(game, level, job.seconds[level], rng, log, positions):
            game.play(move)
            if game.result is not None:
                break
    record.moves = len(game.history) - opening_length
    record.winner = None if game.result is None else game.result.winner
    return record


def pair_jobs(
    game: str,
    pair: tuple[str, str],
    games: int,
    seconds: dict[str, float],
    first_seed: int = 0,
    positions_per_second: int | None = None,
) -> list[GameJob]:
    """``games`` jobs for ``pair`` (rounded up to even): each opening with both colours."""
    jobs = []
    for opening in range((games + 1) // 2):
        seed = first_seed + opening
        for levels in ((pair[0], pair[1]), (pair[1], pair[0])):
            jobs.append(
                GameJob(game, seed, levels, seconds, positions_per_second=positions_per_second)
            )
    return jobs


def rate_cells(score: float, games: int, target: float | None) -> str:
    """Table cells of a score: points, rate, Wilson 95% interval, target and verdict."""
    low, high = wilson_interval(score, games)
    rate = f"{score / games:.0%}" if games else "–"
    wanted = "" if target is None else f"≥ {target:.0%}"
    return f"{score:g} | {rate} | {low:.0%} – {high:.0%} | {wanted} | {verdict(low, high, target)}"


def verdict(low: float, high: float, target: float | None) -> str:
    """``met`` when the whole interval reaches ``target``, ``missed`` when none of it does."""
    if target is None:
        return ""
    if low >= target:
        return "met"
    return "missed" if high < target else "open"


@dataclass
class PairResult:
    """The games of one pair in one game, summed up for the pair's first level."""

    game: str
    pair: tuple[str, str]
    score: float = 0.0
    games: int = 0
    draws: int = 0
    capped: int = 0
    thinking: dict[str, Thinking] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        """Counts ``record``, a game of this pair."""
        self.games += 1
        self.draws += record.winner is None
        self.capped += record.capped
        self.score += record.score_of_team(record.job.team_levels.index(self.pair[0]))
        for level, thinking in record.thinking.items():
            self.thinking.setdefault(level, Thinking()).add(thinking)

    def pace(self, seconds: dict[str, float]) -> str:
        """Lines under the table: how each level's turns kept to its time."""
        return "\n".join(
            f"  {self.game}, {self.pair[0]} vs {self.pair[1]}: {level} "
            + self.thinking.get(level, Thinking()).pace(seconds[level])
            for level in self.pair
            if level != "random"
        )

    def row(self) -> str:
        """This pair's row of :data:`TABLE_HEAD`."""
        first, second = (self.thinking.get(level, Thinking()) for level in self.pair)
        return (
            f"| {self.game} | {self.pair[0]} vs {self.pair[1]} | {self.games} "
            f"| {rate_cells(self.score, self.games, TARGETS.get(self.pair))} "
            f"| {first.per_turn()} / {second.per_turn()} "
            f"| {first.per_second()} / {second.per_second()} | {self.draws} ({self.capped}) |"
        )


TABLE_HEAD = (
    "| game | first vs second | games | points of first | rate | 95% interval | target "
    "| verdict | s per turn (first / second) | positions/s (first / second) | draws (at cap) |\n"
    "| --- | --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |"
)


def play_in_workers(
    play: Callable[[Job], Played], jobs: Sequence[Job], workers: int
) -> Iterator[Played]:
    """``play`` of each job, in order, run in ``workers`` processes."""
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play, jobs, chunksize=1)


def run_round_robins(
    games: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    count: int,
    seconds: dict[str, float],
    workers: int,
    first_opening: int = 0,
    show_games: bool = False,
    positions_per_second: int | None = None,
) -> Iterator[PairResult]:
    """Every pair in every game, ``count`` games each from opening seed ``first_opening``
    on, as :class:`PairResult` rows; ``show_games`` prints a line per game as it ends;
    ``positions_per_second`` replaces each level's time by that many positions a second of it."""
    for game in games:
        for pair in pairs:
            result = PairResult(game, pair)
            jobs = pair_jobs(game, pair, count, seconds, first_opening, positions_per_second)
            for record in play_in_workers(play_game, jobs, workers):
                result.add(record)
                if show_games:
                    print(record.line(), flush=True)
            yield result


@dataclass(frozen=True)
class EngineJob:
    """One Connect6 game of sixtui ``hard`` against Cloudict from a random opening."""

    folder: Path
    depth: int
    opening_seed: int
    engine_colour: int
    seconds: float
    positions: int | None = None  # hard's positions a turn, instead of its time, when given


@dataclass
class EngineGame:
    """sixtui's points in one game against Cloudict, and both players' thinking."""

    points: float
    sixtui: Thinking
    engine: ai_engine.EngineClock
    job: EngineJob | None = None
    moves: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the game: its opening, Cloudict's colour, sixtui's points and every
        stone from the first, in sixtui's notation."""
        colour = "?" if self.job is None else ("Black", "White")[self.job.engine_colour]
        seed = "?" if self.job is None else self.job.opening_seed
        forfeit = (
            " (Cloudict forfeits: an illegal stone, a short turn or a crash)"
            if self.engine.forfeits
            else ""
        )
        stones = " ".join(self.moves)
        return f"opening {seed}, Cloudict {colour}, sixtui {self.points:g}{forfeit}: {stones}"


def play_against_engine(job: EngineJob) -> EngineGame:
    """Plays ``job`` with a Cloudict of its own, stopped at the end."""
    game = random_opening("connect6", job.opening_seed)
    rng = random.Random(job.opening_seed)
    sixtui = Thinking()
    with ai_engine.Cloudict(job.folder, job.depth) as engine:
        points = ai_engine.play_engine_game(
            engine,
            game,
            job.engine_colour,
            lambda position: think(position, "hard", job.seconds, rng, sixtui, job.positions),
            MOVE_CAP,
        )
        moves = [str(move.to) for move in game.history]
        return EngineGame(points, sixtui, engine.clock, job, moves)


def play_engine_against_itself(job: EngineJob) -> EngineGame:
    """Plays ``job``'s opening with a Cloudict on each side; the points are White's (the
    side that moves first after the opening). A side whose engine breaks the rules or
    stops forfeits the game."""
    game = random_opening("connect6", job.opening_seed)
    with (
        ai_engine.Cloudict(job.folder, job.depth) as black,
        ai_engine.Cloudict(job.folder, job.depth) as white,
    ):
        try:
            points = ai_engine.play_engine_game(
                black, game, 0, ai_engine.EngineTurns(white), MOVE_CAP
            )
        except (IllegalMove, ai_engine.EngineError):
            white.clock.forfeits += 1
            points = 0.0
        black.clock.forfeits += white.clock.forfeits  # both counted as the engine's
        moves = [str(move.to) for move in game.history]
        return EngineGame(points, Thinking(), black.clock, job, moves)


def engine_jobs(
    folder: Path,
    games: int,
    seconds: float,
    depth: int,
    positions: int | None = None,
    first_opening: int = 0,
) -> list[EngineJob]:
    """``games`` jobs (rounded up to even): each random opening from seed ``first_opening``
    on with Cloudict as each colour; ``hard`` searches ``positions`` positions a turn when
    given, else ``seconds``."""
    return [
        EngineJob(folder, depth, opening, colour, seconds, positions)
        for opening in range(first_opening, first_opening + (games + 1) // 2)
        for colour in (0, 1)
    ]


def report_match(
    folder: Path | None,
    games: int,
    seconds: float,
    depth: int,
    workers: int,
    show_games: bool = False,
    positions: int | None = None,
    first_opening: int = 0,
    against_itself: bool = False,
) -> None:
    """Plays and prints the Cloudict match, or one line saying why it is skipped;
    ``show_games`` also prints the stones of every game as it ends; ``positions`` replaces hard's
    ``seconds`` by a count of positions a turn; the openings' seeds start at ``first_opening``;
    ``against_itself`` plays Cloudict against itself instead, a game an opening."""
    if folder is None:
        print(ai_engine.SKIPPED)
        return
    try:
        ai_engine.check_folder(folder)
    except ai_engine.EngineError as error:
        print(f"Cloudict match skipped: {error}")
        return
    if against_itself:
        report_engine_against_itself(folder, games, depth, workers, show_games, first_opening)
        return
    jobs = engine_jobs(folder, games, seconds, depth, positions, first_opening)
    played = []
    for game in play_in_workers(play_against_engine, jobs, workers):
        played.append(game)
        if show_games:
            print(game.summary(), flush=True)
    sixtui, clock = Thinking(), ai_engine.EngineClock()
    for game in played:
        sixtui.add(game.sixtui)
        clock.add(game.engine)
    points = sum(game.points for game in played)
    if show_games:
        print()
    print(ENGINE_HEAD)
    budget = f"{seconds:g} s" if positions is None else f"{positions:,} positions"
    print(
        f"| connect6: hard {budget} vs Cloudict depth {depth} | {len(played)} "
        f"| {rate_cells(points, len(played), ENGINE_TARGET)} | {sixtui.per_turn()} / "
        f"{clock.per_turn()} | {sixtui.per_second()} / {clock.per_second()} |"
    )
    if clock.forfeits:
        lost = f"{clock.forfeits} of them by an illegal stone, a short turn or a crash"
        print(f"\nCloudict forfeited {lost}.")


def report_engine_against_itself(
    folder: Path, games: int, depth: int, workers: int, show_games: bool, first_opening: int
) -> None:
    """Cloudict against itself from ``games`` openings, one game each: how often White, the
    side that moves first after the opening, wins. A player as strong as Cloudict scores
    half the points against it by doing as well moving first and as badly moving second."""
    jobs = [
        EngineJob(folder, depth, opening, 0, 0.0)
        for opening in range(first_opening, first_opening + games)
    ]
    played = []
    for game in play_in_workers(play_engine_against_itself, jobs, workers):
        played.append(game)
        if show_games:
            stones = " ".join(game.moves)
            print(f"opening {game.job.opening_seed}, White {game.points:g}: {stones}", flush=True)
    points = sum(game.points for game in played)
    forfeits = sum(game.engine.forfeits for game in played)
    low, high = wilson_interval(points, len(played))
    if show_games:
        print()
    print(SELF_HEAD)
    print(
        f"| Cloudict depth {depth} against itself | {len(played)} | {points:g} "
        f"| {points / max(1, len(played)):.1%} | {low:.1%} – {high:.1%} | {forfeits} |"
    )


SELF_HEAD = (
    "| match | games | points of White (moving first after the opening) | rate "
    "| 95% interval | forfeits |\n| --- | ---: | ---: | ---: | --- | ---: |"
)
ENGINE_TARGET = 0.5
ENGINE_HEAD = (
    "| match | games | points of sixtui | rate | 95% interval | target | verdict "
    "| s per turn (sixtui / Cloudict) | positions/s (sixtui / Cloudict) |\n"
    "| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: |"
)


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m benchmarks ai``."""
    options = argparse.ArgumentParser(
        prog="python -m benchmarks ai",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    options.add_argument("--games", type=int, default=4, help="games per pair in each game")
    options.add_argument("--seconds", type=float, default=0.2, help="seconds per turn")
    options.add_argument("--hard-seconds", type=float, help="seconds per turn of hard only")
    options.add_argument("--pairs", default="easy:random,normal:easy,hard:normal")
    options.add_argument("--game", action="append", choices=sorted(GAME_OPTIONS))
    options.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    options.add_argument("--engine", type=Path, help="Cloudict's folder (gameEngine, patterns.in)")
    options.add_argument("--engine-games", type=int, default=10)
    options.add_argument("--engine-seconds", type=float, default=1.0, help="hard's time vs it")
    options.add_argument("--engine-depth", type=int, default=4)
    options.add_argument(
        "--engine-self",
        action="store_true",
        help="play Cloudict against itself, a game an opening: what the openings give White",
    )
    options.add_argument(
        "--engine-positions", type=int, help="hard's positions a turn vs it, instead of its time"
    )
    options.add_argument(
        "--positions-per-second",
        type=int,
        help="each level searches this many positions a second of its time, instead of the time",
    )
    options.add_argument(
        "--first-opening", type=int, default=0, help="seed of the first opening: more games"
    )
    options.add_argument(
        "--show-games",
        action="store_true",
        help="print a line per game as it ends, and the stones of every Cloudict game",
    )
    options.add_argument(
        "--level-times",
        action="store_true",
        help="give each level its own time per turn (sixtui.ai.LEVEL_SECONDS), not --seconds",
    )
    return options


def parse_pairs(text: str) -> list[tuple[str, str]]:
    """``"hard:normal,easy:random"`` as pairs of levels; an unknown level is a ``ValueError``."""
    pairs = []
    for item in text.split(","):
        first, _, second = item.strip().partition(":")
        for level in (first, second):
            if level not in LEVELS:
                raise ValueError(f"no level {level!r} in {item!r}: use {', '.join(LEVELS)}")
        pairs.append((first, second))
    return pairs


def level_seconds(
    seconds: float, hard_seconds: float | None, level_times: bool = False
) -> dict[str, float]:
    """Each level's time per turn: ``seconds``, or with ``level_times`` each level's own
    (:data:`sixtui.ai.LEVEL_SECONDS`); and ``hard_seconds`` for hard when given."""
    chosen = dict.fromkeys(LEVELS, seconds)
    if level_times:
        chosen.update(LEVEL_SECONDS)
    if hard_seconds is not None:
        chosen["hard"] = hard_seconds
    return chosen


def main(argv: Sequence[str] | None = None) -> None:
    """Runs the round robins, then the Cloudict match (or says why it is skipped)."""
    options = parser()
    args = options.parse_args(argv)
    try:
        pairs = parse_pairs(args.pairs)
    except ValueError as error:
        options.error(str(error))
    seconds = level_seconds(args.seconds, args.hard_seconds, args.level_times)
    times = ", ".join(f"{level} {seconds[level]:g} s" for level in LEVELS[1:])
    if args.positions_per_second is not None:
        times = (
            "positions a turn in place of "
            + times
            + ": "
            + ", ".join(
                f"{level} {round(args.positions_per_second * seconds[level]):,}"
                for level in LEVELS[1:]
            )
        )
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.workers} workers;",
        end=" ",
    )
    print(f"{args.games} games a pair in each game; time per turn: {times}\n")
    if args.games > 0:
        results = []
        games = args.game or DEFAULT_GAMES
        if not args.show_games:
            print(TABLE_HEAD, flush=True)
        for result in run_round_robins(
            games,
            pairs,
            args.games,
            seconds,
            args.workers,
            args.first_opening,
            args.show_games,
            args.positions_per_second,
        ):
            results.append(result)
            print(result.row(), flush=True)
        if args.show_games:
            print(f"\n{TABLE_HEAD}\n" + "\n".join(result.row() for result in results))
        print("\nTurns against each level's time (turns that win at once aside):")
        print("\n".join(result.pace(seconds) for result in results) + "\n")
    report_match(
        args.engine,
        args.engine_games,
        args.engine_seconds,
        args.engine_depth,
        args.workers,
        args.show_games,
        args.engine_positions,
        args.first_opening,
        args.engine_self,
    )
