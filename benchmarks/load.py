"""Under load: many players over SSH at once, each turn timed from its Enter to the other
players' screens (``make loadtest``; ``python -m benchmarks load --help``).

The server runs in a process of its own, as ``sixtui serve`` runs it, with the lag probe
and the pipe of :mod:`benchmarks.server` and its log in a file; :data:`WARM_UP` sessions
come and go first. Then ``--bot-processes`` processes of bots (:mod:`benchmarks.load_bots`)
connect ``--sessions`` guests over SSH, each from an address of its own on the loopback
(so the server keeps its default limits per address) and with a pseudo-terminal read
through ``pyte``;
each types ``/pair GAME`` in the lobby, and the lobby's quick pairing seats them: tables of
Connect6, Game of 6, Six for two and Six partners for four, in turn (:func:`table_kinds`).
Once all are seated, every table plays for ``--seconds``, a random legal turn typed on
the move line every ``--interval`` seconds, each table out of step with the others.

Over that window the harness asks the server for its CPU time and the lag its probe heard;
afterwards for its RSS (after a full garbage collection) against the RSS after the warm-up.
From the bots' reports it joins each turn's Enter with the moment each other player's
screen showed it in the move list. Anything unexpected is an error: a bot not seated, a
turn refused or never shown, a screen that showed another turn than the one typed, a
table stuck, and any warning, error or dropped or refused session in the server's log.

The report ends with one line for scripts (:meth:`Figures.last_line`): ``sessions=20
games=8 turns=80 p50_ms=21.0 p95_ms=35.2 p99_ms=48.3 loop_lag_p99_ms=4.1
rss_mib_per_session=1.38 errors=0``, on one line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis

from benchmarks import load_bots
from benchmarks.load_bots import BotReport, Plan
from benchmarks.load_faults import FAULTS, make_fault
from benchmarks.redis_server import RedisServer
from benchmarks.server import TIMEOUT, PipedProcess, Server, Session, percentile
from sixtui.server.settings import Settings

SESSIONS = 20  # make loadtest's defaults: a quick look
SECONDS = 20.0
INTERVAL = 2.0  # seconds between two turns at a table
# Seconds after the window that a turn played in it may take to reach the other screens:
# past them it counts as never shown. Every run ends that much later, the other players
# waiting for a turn that nobody was to play.
SETTLE = 10.0
WARM_UP = 3  # sessions in and out before anything is measured
MOST_SESSIONS = 990  # the benchmark server's connection limit (1,000), less the warm-up
# The tables, in turn, as sessions arrive: a partner table seats four.
CYCLE = ("six-partners", "connect6", "gameof6", "six")
SEATS = {kind: choice.players for kind, choice in load_bots.KINDS.items()}
MIB = 1 << 20
ERRORS_SHOWN = 12  # errors printed in full, at most
LOG_RECORD = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (\w+) (\S+) (.*)")
# What the server logs of a session that went wrong (see docs/operations.md, Logs).
LOG_TROUBLE = re.compile(r"(dropped|refused|unreadable|limited|session failed|name refused)\b")


def table_kinds(sessions: int, kinds: Sequence[str] = CYCLE) -> list[str]:
    """The kind of each table that seats ``sessions`` players: ``kinds`` in turn, each
    one that still fits; :class:`ValueError` if they cannot seat exactly that many.

    >>> table_kinds(10)
    ['six-partners', 'connect6', 'gameof6', 'six']
    >>> table_kinds(6)
    ['six-partners', 'connect6']
    >>> table_kinds(2)
    ['connect6']
    >>> table_kinds(6, ["six-partners"])
    Traceback (most recent call last):
    ...
    ValueError: tables of six-partners seat 4 each: not 6 sessions
    """
    tables: list[str] = []
    left = sessions
    while left > 0:
        fitting = [kind for kind in kinds if SEATS[kind] <= left]
        if not fitting:
            break
        for kind in fitting:
            if SEATS[kind] <= left:
                tables.append(kind)
                left -= SEATS[kind]
    if left or not tables:
        seats = " or ".join(sorted({str(SEATS[kind]) for kind in kinds}))
        raise ValueError(f"tables of {', '.join(kinds)} seat {seats} each: not {sessions} sessions")
    return tables


# -- a run ---------------------------------------------------------------------------------


@dataclass
class Options:
    sessions: int = SESSIONS
    seconds: float = SECONDS
    interval: float = INTERVAL
    settle: float = SETTLE
    bot_processes: int = 1
    seed: int = 6
    tables: tuple[str, ...] = CYCLE  # the kinds of table, in turn
    profile: Path | None = None  # where py-spy writes the server's profile of the window
    fault: str | None = None  # made over the window (see benchmarks/load_faults.py)
    changed: dict[str, str] = field(default_factory=dict)  # server settings, as on --set
    servers: int = 1  # server processes, on one Redis when more than one

    @property
    def on_redis(self) -> bool:
        return self.servers > 1 or self.changed.get("hub", "memory") != "memory"


@dataclass
class Run:
    """One run's figures; times in seconds, memory in bytes."""

    sessions: int
    kinds: list[str]  # of each table
    seated_in: float  # from the first connection to every bot seated
    window: float
    latencies: list[float]  # from a turn's Enter to another player's screen showing it
    turns: int  # played: Enter sent and the turn shown on the mover's own screen
    turns_by_kind: Counter[str]
    to_others: list[int]  # bytes to another player's terminal, per turn
    to_mover: list[int]  # bytes to the mover's terminal, per turn (the typing included)
    server_cpu: float  # over the window, every server process together
    bots_cpu: float  # the bots' processes together, over the window
    lag: list[float]  # how late the server's probe woke up, over the window
    collections: list[float]  # the server's full garbage collections in the window, each
    young_collections: list[float]  # its collections of the younger generations, each
    rss_base: int  # after the warm-up
    rss_loaded: int  # every session seated, after the window
    errors: list[str] = field(default_factory=list)
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    fault_made: int = 0  # the fault's writes or connections
    fault_logged: list[str] = field(default_factory=list)  # the server's log of a fault run
    servers: int = 1
    redis: RedisUse | None = None  # over the window, with the hub in Redis

    @property
    def games(self) -> int:
        return len(self.kinds)


class Bots(PipedProcess):
    """A process of bots, seen from here (see :mod:`benchmarks.load_bots`)."""

    def __init__(self, plan: Plan) -> None:
        super().__init__(load_bots.run_bots, (plan,), "a process of bots")

    async def hear(self, what: str, timeout: float) -> tuple[Any, ...]:
        async with asyncio.timeout(timeout):
            message = await self.received.get()
        if isinstance(message, EOFError):
            raise message
        if message[0] != what:
            raise RuntimeError(f"a process of bots said {message[0]!r}, not {what!r}")
        return message

    def tell(self, *message: object) -> None:
        with contextlib.suppress(OSError):
            self.pipe.send(message)

    async def stop(self) -> None:
        """Tells the bots to leave, and waits for their process (ended if it will not)."""
        self.tell("leave")
        loop = asyncio.get_running_loop()
        loop.remove_reader(self.pipe.fileno())
        await loop.run_in_executor(None, self.process.join, TIMEOUT)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.pipe.close()


async def one_run(options: Options) -> Run:
    kinds = table_kinds(options.sessions, options.tables)
    sessions = [kind for kind in kinds for _ in range(SEATS[kind])]
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as data_dir, hub_settings(options) as hub:
        logs = [Path(data_dir) / f"server{number}.log" for number in range(options.servers)]
        changed = {"max_per_ip": str(Settings.max_per_ip), **options.changed, **hub}
        servers: list[Server] = []
        bots: list[Bots] = []
        try:
            for log_path in logs:  # one after another: the first takes up the hub
                servers.append(Server(data_dir, True, str(log_path), changed))
                await servers[-1].listening()
            for server in servers:
                await warm_up(server.port)
            rss_base = sum([await server.ask("rss") for server in servers])
            began = time.monotonic()
            seat_timeout = 60.0 + 0.5 * options.sessions
            ports = tuple(server.port for server in servers)
            for plan in plans(options, ports, sessions, seat_timeout):
                bots.append(Bots(plan))
            ready = [await each.hear("ready", seat_timeout + 2 * TIMEOUT) for each in bots]
            seated_in = time.monotonic() - began
            start = time.monotonic() + 1.0
            stop = start + options.seconds
            for each in bots:
                each.tell("go", start, stop)
            await _sleep_until(start)
            faulting = None
            if options.fault is not None:
                until = asyncio.get_running_loop().time() + options.seconds
                faulting = asyncio.create_task(make_fault(options.fault, ports[0], until))
            cpu = await asked(servers, "cpu")
            await asked(servers, "gc")  # forgets the collections before the window
            await asked(servers, "young")
            await asked(servers, "lag", True)
            redis_before = await redis_use(changed.get("hub"))
            profiling = await start_profile(
                options.profile, servers[0].process.pid, options.seconds
            )
            await _sleep_until(stop)
            server_cpu = sum(await asked(servers, "cpu")) - sum(cpu)
            redis_after = await redis_use(changed.get("hub"))
            lag = [late for each in await asked(servers, "lag", False) for late in each]
            collections = [taken for each in await asked(servers, "gc") for taken in each]
            young_collections = [taken for each in await asked(servers, "young") for taken in each]
            fault_made = 0 if faulting is None else await asyncio.wait_for(faulting, TIMEOUT)
            wait = options.settle + options.interval + load_bots.STUCK + TIMEOUT
            done = [await each.hear("done", wait) for each in bots]
            rss_loaded = sum(await asked(servers, "rss"))
            await end_profile(profiling)
        finally:
            await asyncio.gather(*(each.stop() for each in bots))
            await asyncio.gather(*(server.stop() for server in servers))
        problems = [
            problem
            for log_path in logs
            for problem in log_problems(log_path.read_text(errors="replace").splitlines())
        ]
        # With a fault made, what the server logs is the offender's: counted apart.
        fault_logged, problems = (problems, []) if options.fault else ([], problems)
    reports = [report for _, reports, _ in done for report in reports]
    unseated = [error for _, reports in ready for report in reports for error in report.errors]
    joined = join_turns(reports)
    errors = unseated + [e for r in reports for e in r.errors if e not in unseated]
    return Run(
        sessions=options.sessions,
        kinds=kinds,
        seated_in=seated_in,
        window=stop - start,
        latencies=joined.latencies,
        turns=joined.turns,
        turns_by_kind=joined.turns_by_kind,
        to_others=[turn.received for report in reports for turn in report.seen],
        to_mover=[turn.received for report in reports for turn in report.shown],
        server_cpu=server_cpu,
        bots_cpu=sum(used for _, _, used in done),
        lag=lag,
        collections=collections,
        young_collections=young_collections,
        rss_base=rss_base,
        rss_loaded=rss_loaded,
        errors=errors + joined.errors + problems,
        fault_made=fault_made,
        fault_logged=fault_logged,
        load_before=load_before,
        servers=len(servers),
        redis=None if redis_before is None or redis_after is None else redis_after - redis_before,
    )


async def asked(servers: Sequence[Server], *request: object) -> list[Any]:
    """Each server's answer to ``request``."""
    return [await server.ask(*request) for server in servers]


@contextlib.contextmanager
def hub_settings(options: Options) -> Iterator[dict[str, str]]:
    """The hub setting of a run: as ``options`` set it, else a redis-server of the run's
    own for several server processes, else none (the default hub)."""
    if options.servers == 1 or "hub" in options.changed:
        yield {}
        return
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError(
            "several server processes share a Redis: apt-get install redis-server,"
            " or give one with --set hub=redis://HOST:PORT/DB"
        )
    redis = RedisServer(executable)
    redis.start()
    try:
        yield {"hub": redis.url}
    finally:
        redis.remove()


@dataclass(frozen=True)
class RedisUse:
    """What Redis has done so far: commands run (of every kind), and its CPU seconds."""

    commands: int
    cpu: float

    def __sub__(self, before: RedisUse) -> RedisUse:
        return RedisUse(self.commands - before.commands, self.cpu - before.cpu)


async def redis_use(url: str | None) -> RedisUse | None:
    """Redis's own count of commands and of CPU seconds, from INFO (``None`` without a
    Redis URL). The count includes this question's connection: a command or two."""
    if url is None or not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    client = aioredis.Redis.from_url(url)
    try:
        stats = await client.info("commandstats")
        cpu = await client.info("cpu")
    finally:
        await client.aclose()
    commands = sum(int(each["calls"]) for each in stats.values())
    return RedisUse(commands, float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"]))


def plans(
    options: Options, ports: tuple[int, ...], sessions: Sequence[str], seat_timeout: float
) -> list[Plan]:
    """The sessions dealt out to the processes of bots in turn, so that each plays some
    of every kind of table; each session connects to one of the server processes
    (``ports``) in turn, so that a table seats players of each."""
    count = max(1, min(options.bot_processes, len(sessions)))
    numbered = list(enumerate(sessions))
    return [
        Plan(
            ports=ports,
            sessions=numbered[first::count],
            interval=options.interval,
            settle=options.settle,
            seed=options.seed,
            seat_timeout=seat_timeout,
        )
        for first in range(count)
    ]


async def warm_up(port: int) -> None:
    """Sessions in and out of the lobby: a process's first sessions import and build what
    every later one shares."""
    for _ in range(WARM_UP):
        session = await Session.open(port)
        session.press("q")
        async with asyncio.timeout(TIMEOUT):
            await session.process.wait_closed()
        await session.close()


@dataclass
class Joined:
    latencies: list[float] = field(default_factory=list)
    turns: int = 0
    turns_by_kind: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def join_turns(reports: Iterable[BotReport]) -> Joined:
    """Each turn a mover saw played, joined with the moment each other player at its
    table saw it: a turn another screen never showed, or showed otherwise, is an error."""
    joined = Joined()
    tables: dict[str, list[BotReport]] = defaultdict(list)
    for report in reports:
        if report.table:
            tables[report.table].append(report)
    for table, seated in tables.items():
        for mover in seated:
            shown = {turn.number for turn in mover.shown}
            for sent in mover.sent:
                if sent.number not in shown:
                    continue  # the mover's own error says why
                joined.turns += 1
                joined.turns_by_kind[mover.kind] += 1
                for other in seated:
                    if other is not mover:
                        _join_one(joined, table, sent, other)
    return joined


def _join_one(joined: Joined, table: str, sent: load_bots.Turn, other: BotReport) -> None:
    seen = next((turn for turn in other.seen if turn.number == sent.number), None)
    where = f"turn {sent.number} ({sent.moves}) at the table of {table}"
    if seen is None:
        joined.errors.append(
            f"{where}: not on {other.name}'s screen by the end of the run and its --settle"
        )
    elif seen.moves != sent.moves:
        joined.errors.append(f"{where}: shown on {other.name}'s screen as {seen.moves}")
    else:
        joined.latencies.append(seen.at - sent.at)


def log_problems(lines: Iterable[str]) -> list[str]:
    """The server log's records that say something went wrong, each with the lines that
    follow it (a traceback): a warning or worse, or a session dropped, refused or
    unreadable."""
    problems: list[str] = []
    troubled = False
    for line in lines:
        record = LOG_RECORD.match(line)
        if record is None:
            if troubled and line.strip():
                problems[-1] += f"\n{line}"
            continue
        level, logger, message = record.groups()
        troubled = level in ("WARNING", "ERROR", "CRITICAL") or bool(
            logger.startswith("sixtui") and LOG_TROUBLE.match(message)
        )
        if troubled:
            problems.append(f"server log: {line}")
    return problems


# -- profiling -----------------------------------------------------------------------------


async def start_profile(
    where: Path | None, pid: int | None, seconds: float
) -> asyncio.subprocess.Process | None:
    """py-spy sampling the server's process for ``seconds``, its stacks written to
    ``where`` (collapsed: one line a stack, with its count of samples); None if not asked."""
    if where is None or pid is None:
        return None
    py_spy = py_spy_path()
    if py_spy is None:
        raise RuntimeError(
            "py-spy is not installed: .venv/bin/pip install py-spy (it profiles the server)"
        )
    return await asyncio.create_subprocess_exec(
        py_spy,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, round(seconds))),
        "--rate",
        "200",
        "--format",
        "raw",
        "--nonblocking",
        "--output",
        str(where),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


def py_spy_path() -> str | None:
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


async def end_profile(profiling: asyncio.subprocess.Process | None) -> None:
    if profiling is not None:
        async with asyncio.timeout(TIMEOUT):
            await profiling.wait()


async def _sleep_until(moment: float) -> None:
    await asyncio.sleep(max(0.0, moment - time.monotonic()))


# -- the report ----------------------------------------------------------------------------


@dataclass
class Figures:
    """What a run comes to, as the report and the last line give it."""

    sessions: int
    games: int
    turns: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    loop_lag_p99_ms: float
    loop_lag_max_ms: float
    full_collections: int  # in the window
    longest_collection_ms: float
    young_collections_ms: float  # in the window, all together
    longest_young_collection_ms: float
    rss_mib_per_session: float
    to_others_bytes: float  # median
    to_mover_bytes: float  # median
    server_cpu_share: float  # of one core
    server_cpu_ms_per_turn: float
    bots_cpu_share: float  # of one core, all the bots' processes together
    redis_commands_per_turn: float  # 0 without Redis
    redis_cpu_share: float  # of one core
    seated_in: float
    errors: int

    @classmethod
    def of(cls, run: Run) -> Figures:
        latencies = run.latencies or [0.0]
        lag = run.lag or [0.0]
        seated = run.sessions
        redis = run.redis or RedisUse(0, 0.0)
        return cls(
            sessions=seated,
            games=run.games,
            turns=run.turns,
            p50_ms=percentile(latencies, 0.50) * 1000,
            p95_ms=percentile(latencies, 0.95) * 1000,
            p99_ms=percentile(latencies, 0.99) * 1000,
            max_ms=max(latencies) * 1000,
            loop_lag_p99_ms=percentile(lag, 0.99) * 1000,
            loop_lag_max_ms=max(lag) * 1000,
            full_collections=len(run.collections),
            longest_collection_ms=max(run.collections, default=0.0) * 1000,
            young_collections_ms=sum(run.young_collections) * 1000,
            longest_young_collection_ms=max(run.young_collections, default=0.0) * 1000,
            rss_mib_per_session=(run.rss_loaded - run.rss_base) / seated / MIB,
            to_others_bytes=statistics.median(run.to_others or [0]),
            to_mover_bytes=statistics.median(run.to_mover or [0]),
            server_cpu_share=run.server_cpu / run.window,
            server_cpu_ms_per_turn=run.server_cpu * 1000 / max(1, run.turns),
            bots_cpu_share=run.bots_cpu / run.window,
            redis_commands_per_turn=redis.commands / max(1, run.turns),
            redis_cpu_share=redis.cpu / run.window,
            seated_in=run.seated_in,
            errors=len(run.errors),
        )

    def last_line(self) -> str:
        """The line for scripts, the report's last."""
        return (
            f"sessions={self.sessions} games={self.games} turns={self.turns}"
            f" p50_ms={self.p50_ms:.1f} p95_ms={self.p95_ms:.1f} p99_ms={self.p99_ms:.1f}"
            f" loop_lag_p99_ms={self.loop_lag_p99_ms:.1f}"
            f" rss_mib_per_session={self.rss_mib_per_session:.2f} errors={self.errors}"
        )


def median_figures(figures: Sequence[Figures]) -> Figures:
    """Each figure's median over runs (the errors added up)."""
    values: dict[str, Any] = {}
    for name in Figures.__dataclass_fields__:
        each = [getattr(one, name) for one in figures]
        values[name] = sum(each) if name == "errors" else statistics.median(each)
    for name in ("sessions", "games", "turns"):
        values[name] = round(values[name])
    return Figures(**values)


def table_rows(figures: Figures, options: Options, runs: Sequence[Figures]) -> list[str]:
    """The figures as Markdown table rows: figure, value, target, runs (min – max)."""

    def row(name: str, attribute: str, unit: str, target: str = "", digits: int = 1) -> str:
        value = getattr(figures, attribute)
        each = [getattr(one, attribute) for one in runs]
        spread = f"{min(each):,.{digits}f} – {max(each):,.{digits}f}"
        return f"| {name} | {value:,.{digits}f} {unit} | {target} | {spread} |"

    return [
        "| figure | median | target | runs (min – max) |",
        "| --- | ---: | ---: | --- |",
        row("turns played in the window", "turns", "turns", digits=0),
        row("ms from a turn's Enter to another player's screen, p50", "p50_ms", "ms"),
        row("the same, p95", "p95_ms", "ms", "≤ 100"),
        row("the same, p99", "p99_ms", "ms", "≤ 250"),
        row("the same, max", "max_ms", "ms"),
        row(
            "bytes to another player's terminal per turn, median",
            "to_others_bytes",
            "bytes",
            digits=0,
        ),
        row(
            "bytes to the mover's terminal per turn (typing included), median",
            "to_mover_bytes",
            "bytes",
            digits=0,
        ),
        row("server: % of one core over the window", "server_cpu_share", "", digits=2),
        row("server: CPU ms per turn (every screen at its table)", "server_cpu_ms_per_turn", "ms"),
        row("server: event loop lag, p99", "loop_lag_p99_ms", "ms", "≤ 50"),
        row("server: event loop lag, max", "loop_lag_max_ms", "ms"),
        row("server: full garbage collections in the window", "full_collections", "", digits=0),
        row("server: the longest of them", "longest_collection_ms", "ms"),
        row(
            "server: ms in collections of the younger generations over the window",
            "young_collections_ms",
            "ms",
            digits=0,
        ),
        row("server: the longest of them", "longest_young_collection_ms", "ms"),
        row(
            "server: MiB of RSS per session, seated and played",
            "rss_mib_per_session",
            "MiB",
            "≤ 2",
            2,
        ),
        row(
            f"bots: share of one core ({options.bot_processes} process(es))",
            "bots_cpu_share",
            "",
            digits=2,
        ),
        *(
            [
                row("Redis: commands per turn played", "redis_commands_per_turn", ""),
                row("Redis: share of one core", "redis_cpu_share", "", digits=3),
            ]
            if options.on_redis
            else []
        ),
        row("s to connect and seat every session", "seated_in", "s"),
        row("errors", "errors", "", "0", 0),
    ]


def describe(run: Run, options: Options) -> str:
    kinds = Counter(run.kinds)
    tables = ", ".join(f"{kind} {kinds[kind]}" for kind in CYCLE if kinds[kind])
    turns = ", ".join(f"{kind} {run.turns_by_kind[kind]}" for kind in CYCLE if kinds[kind])
    load = " ".join(f"{value:.2f}" for value in run.load_before)
    servers = f" on {run.servers} server processes" if run.servers > 1 else ""
    return (
        f"{run.sessions} sessions{servers} at {run.games} tables ({tables}), a turn every"
        f" {options.interval:g} s at each table for {options.seconds:g} s; turns by kind:"
        f" {turns}; load average before: {load}"
    )


def show_fault(kind: str, run: Run) -> None:
    """What the offender did, and what the server logged of it (its first lines)."""
    print(f"fault {kind}: {run.fault_made:,} writes or connections over the window;", end="")
    first = ", the first:" if run.fault_logged else ""
    print(f" the server logged {len(run.fault_logged)} lines of trouble{first}")
    for line in run.fault_logged[:ERRORS_SHOWN]:
        print(f"  {line.splitlines()[0][:200]}")


def show_errors(errors: Sequence[str]) -> None:
    for error in errors[:ERRORS_SHOWN]:
        print(f"error: {error}")
    if len(errors) > ERRORS_SHOWN:
        print(f"... and {len(errors) - ERRORS_SHOWN} more errors")


def parse_arguments(argv: Sequence[str]) -> tuple[Options, int]:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks load",
        description="Many players over SSH against one server process (or several on one "
        "Redis): how long a turn "
        "takes to reach the other screens, what the server spends. See benchmarks/load.py.",
    )
    parser.add_argument("--sessions", type=int, default=SESSIONS, help="players (even)")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="how long tables play")
    parser.add_argument("--interval", type=float, default=INTERVAL, help="s between turns")
    parser.add_argument("--runs", type=int, default=1, help="runs (medians reported)")
    parser.add_argument("--bot-processes", type=int, default=1, help="processes of bots")
    parser.add_argument("--settle", type=float, default=SETTLE, help="s for the last turns")
    parser.add_argument("--seed", type=int, default=6, help="of the bots' random turns")
    parser.add_argument(
        "--tables",
        default=",".join(CYCLE),
        help=f"the kinds of table, in turn, from {', '.join(CYCLE)} (default: all)",
    )
    parser.add_argument("--profile", type=Path, help="py-spy's stacks of the server, here")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="server processes on one Redis (a redis-server of the run's own unless"
        " --set hub=URL), each player connecting to one of them in turn",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="SETTING=VALUE",
        help="a server setting, as sixtui serve --set takes it",
    )
    parser.add_argument(
        "--fault", choices=FAULTS, help="made over the window by one offender (load_faults.py)"
    )
    args = parser.parse_args(argv)
    tables = tuple(kind.strip() for kind in args.tables.split(","))
    unknown = [kind for kind in tables if kind not in SEATS]
    if unknown:
        parser.error(f"no kind of table {unknown[0]!r}: choose from {', '.join(CYCLE)}")
    if not 2 <= args.sessions <= MOST_SESSIONS:
        parser.error(f"--sessions is from 2 to {MOST_SESSIONS}, not {args.sessions}")
    try:
        table_kinds(args.sessions, tables)
    except ValueError as why:
        parser.error(str(why))
    if not (args.seconds > 0 and args.interval > 0 and args.settle >= 0):
        parser.error("--seconds and --interval must be above 0, --settle at least 0")
    if args.runs < 1 or args.bot_processes < 1 or args.servers < 1:
        parser.error("--runs, --bot-processes and --servers must be at least 1")
    changed = dict(pair.partition("=")[::2] for pair in args.set)
    if any(not name or not value for name, value in changed.items()):
        parser.error("--set takes SETTING=VALUE")
    if args.servers > 1 and changed.get("hub") == "memory":
        parser.error("--servers: several server processes share their hub in Redis, not memory")
    if args.servers > 1 and "hub" not in changed and shutil.which("redis-server") is None:
        parser.error("--servers needs redis-server (apt-get install redis-server) or --set hub=URL")
    if args.profile is not None and py_spy_path() is None:
        parser.error("--profile needs py-spy: .venv/bin/pip install py-spy")
    options = Options(
        sessions=args.sessions,
        seconds=args.seconds,
        interval=args.interval,
        settle=args.settle,
        bot_processes=args.bot_processes,
        seed=args.seed,
        tables=tables,
        profile=args.profile,
        fault=args.fault,
        changed=changed,
        servers=args.servers,
    )
    return options, args.runs


def main(argv: Sequence[str]) -> None:
    options, runs = parse_arguments(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    done: list[Figures] = []
    for number in range(runs):
        run = asyncio.run(one_run(options))
        figures = Figures.of(run)
        done.append(figures)
        print(f"run {number + 1} of {runs}: {describe(run, options)}")
        if options.fault is not None:
            show_fault(options.fault, run)
        show_errors(run.errors)
        print(figures.last_line())
        sys.stdout.flush()
    figures = median_figures(done)
    print()
    print("\n".join(table_rows(figures, options, done)))
    print()
    print(figures.last_line())
