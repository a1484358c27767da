"""The load harness (``make loadtest``, benchmarks/load.py and benchmarks/load_bots.py):
its bots read their screens as ``pyte`` would, find their seats and the turns in the move
list, play whole legal turns; the harness joins each turn with the screens that showed it,
counts what went wrong, and ends its report with the line scripts read. The last test runs
it end to end against a real server: four tables, one of each kind."""

from __future__ import annotations

import doctest
import itertools
import random
import re
import subprocess
import sys
from pathlib import Path

import pyte
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import load, load_bots
from benchmarks.load_bots import (
    KINDS,
    BotReport,
    ScreenReader,
    Turn,
    lobby_name,
    played,
    random_turn,
    seating,
    turn_line,
)
from sixtui.rules import new_game
from support.redis_server import redis_executable

ROOT = Path(__file__).resolve().parents[1]
LAST_LINE = re.compile(
    r"sessions=(\d+) games=(\d+) turns=(\d+) p50_ms=([\d.]+) p95_ms=([\d.]+) p99_ms=([\d.]+)"
    r" loop_lag_p99_ms=([\d.]+) rss_mib_per_session=(-?[\d.]+) errors=(\d+)"
)

# What a Textual app writes, more or less: places, colors (truecolor, 256 and the plain
# ones), wide and combining characters, a line running past the last column, erasing.
FRAME = (
    "\x1b[?1049h\x1b[?25l\x1b[1;1H\x1b[38;2;200;10;10;48;2;0;0;0m● guest-1cd9b8\x1b[0m  you"
    "\x1b[2;3H\x1b[1m\x1b[38;5;214mGame 1 · wins\x1b[0m ● 0 – 0 ○"
    "\x1b[3;1H漢字 and e\u0301 · ▏ ◉ ◎"
    "\x1b[4;70Ha stretch of text that runs past the last column and on"
    "\x1b[6;1H\x1b[7m12. K10 L10\x1b[27m ↓\x1b[6;5H\x1b[K"
    "\x1b[8;10H\x1b[2mdim\x1b[22m\x1b[m plain"
    "\x1b[9;78Hwraps"  # a column short: onto the next line
).encode()


def screen_of(rows: dict[int, str], columns: int = 100) -> ScreenReader:
    """A bot's screen showing ``rows`` (by number), each written after a color."""
    reader = ScreenReader(columns, 30)
    for number, text in rows.items():
        reader.feed(f"\x1b[{number + 1};1H\x1b[38;2;1;2;3m{text}\x1b[0m".encode())
    return reader


def panel(text: str) -> str:
    """A row of a table's screen: the board's part, then the side panel's edge and ``text``."""
    return f"{'':66}▏ {text}"


# -- the bots' screens ---------------------------------------------------------------------


@given(st.lists(st.integers(0, len(FRAME)), max_size=12))
@settings(max_examples=200, deadline=None)
def test_a_bots_screen_shows_what_pyte_shows_however_the_output_is_cut(cuts):
    expected = pyte.Screen(80, 10)
    pyte.ByteStream(expected).feed(FRAME)
    reader = ScreenReader(80, 10)
    bounds = [0, *sorted(cuts), len(FRAME)]
    for start, end in itertools.pairwise(bounds):
        reader.feed(FRAME[start:end])
    assert reader.screen.display == expected.display
    assert (reader.screen.cursor.x, reader.screen.cursor.y) == (
        expected.cursor.x,
        expected.cursor.y,
    )


def test_the_rows_that_changed_are_known():
    reader = ScreenReader(80, 10)
    reader.screen.dirty.clear()  # a new screen is all changed
    reader.feed(b"\x1b[3;5Hone\x1b[7;1H\x1b[31mtwo\x1b[0m")
    assert reader.screen.dirty == {2, 6}
    assert reader.row(2, 4).rstrip() == "one"


def test_the_lobby_names_the_player():
    reader = screen_of({0: " sixtui lobby · you are guest-3d0674 · 12 here"})
    assert lobby_name(reader, range(30)) == "guest-3d0674"
    assert lobby_name(screen_of({0: " sixtui · connecting"}), range(30)) is None


PARTNER_TABLE = {
    0: panel("Six · Steffen"),
    1: panel("unrated: a guest plays"),
    2: panel("● guest-1cd9b8"),
    3: panel("○ guest-5eb0c3  your partner"),
    4: panel("● guest-b01221"),
    5: panel("○ guest-3c679a  you"),
    7: panel("● 18 in hand · 0 on the table"),
    8: panel("○ 18 in hand · 0 on the table"),
    10: panel("● guest-1cd9b8 to move"),
    12: panel("Game 1 · wins ● 0 – 0 ○"),
}


def test_a_bot_finds_its_seat_among_four():
    seated = seating(screen_of(PARTNER_TABLE), 4, range(30))
    assert seated is not None
    assert seated.names == ("guest-1cd9b8", "guest-5eb0c3", "guest-b01221", "guest-3c679a")
    assert seated.seat == 3  # "you", not "your partner"
    assert seated.panel == 68
    assert seated.key == "guest-1cd9b8 guest-5eb0c3 guest-b01221 guest-3c679a"


def test_a_bot_finds_its_seat_at_game_of_6_where_seats_count_colored_cells():
    rows = {
        0: panel("Game of 6"),
        2: panel("● guest-4ba822  0 colored"),
        3: panel("○ guest-7ab3ff  you · 0 colored"),
        7: panel("Game 1 of 6 · wins ● 0 – 0 ○"),
    }
    seated = seating(screen_of(rows), 2, range(30))
    assert seated is not None and seated.names == ("guest-4ba822", "guest-7ab3ff")
    assert seated.seat == 1


@pytest.mark.parametrize(
    "missing",
    [12, 5, 4],  # no score line yet; no seat of one's own; a seat line not drawn yet
)
def test_a_table_half_drawn_is_not_read_as_seated(missing):
    rows = {number: text for number, text in PARTNER_TABLE.items() if number != missing}
    assert seating(screen_of(rows), 4, range(30)) is None


def test_a_turn_is_read_from_the_move_list_by_its_number():
    rows = {14: panel("11. A1 B2"), 15: panel("12. K10 L10                  ↓"), 16: panel("3. C3")}
    reader = screen_of(rows)
    assert turn_line(reader, 68, 12, range(30)) == "K10 L10"
    assert turn_line(reader, 68, 3, [16]) == "C3"
    assert turn_line(reader, 68, 13, range(30)) is None
    assert turn_line(reader, 68, 12, [14, 16]) is None  # not among the rows looked at
    six = screen_of({14: panel("7. -10,-3>-9,-4:-8,2")})
    assert turn_line(six, 68, 7, range(30)) == "-10,-3>-9,-4:-8,2"


# -- the bots' turns -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_random_turns_are_whole_legal_and_keep_the_game_going(kind):
    choice = KINDS[kind]
    game = new_game(choice.game, **choice.options())
    chooser = random.Random(kind)
    for _ in range(40):
        seat = game.to_move
        turn = random_turn(game, chooser)
        after = played(game, " ".join(str(move) for move in turn))
        assert after is not None, f"{turn} is no whole legal turn"
        assert not after.is_over and after.to_move != seat
        game = after


@pytest.mark.parametrize("seed", [3, 5])
def test_late_in_partner_six_no_turn_leaves_the_next_seat_only_turns_that_end_it(seed):
    """With these seeds, turns chosen only not to end the game led to one where every
    lift captured too much, by turn 72 and 84."""
    choice = KINDS["six-partners"]
    game, chooser = new_game(choice.game, **choice.options()), random.Random(seed)
    for _ in range(120):
        for move in random_turn(game, chooser):
            game.play(move)
        assert not game.is_over, game.result


def test_a_turn_that_must_end_the_game_is_still_played():
    game = full_but_one_point()
    turn = random_turn(game, random.Random(1))
    assert len(turn) == 1
    game.play(turn[0])
    assert game.is_over


def full_but_one_point():
    """A Connect6 game on the smallest board, every point taken but one, none won."""
    for seed in range(200):
        chooser, game = random.Random(seed), new_game("connect6", size=6)
        while not game.is_over and len(game.history) < 35:
            game.play(chooser.choice(game.legal_moves()))
        if not game.is_over:
            return game
    raise AssertionError("no random game filled the board without a win")


def test_a_turn_shown_whole_is_played_and_a_half_drawn_one_is_not():
    game = new_game("connect6")
    game.play("J10")
    after = played(game, "K10 L10")
    assert after is not None and [str(move) for move in after.history] == ["J10", "K10", "L10"]
    assert played(game, "K10") is None  # a stone of two: the rest not drawn yet
    assert played(game, "J10 L10") is None  # taken
    assert played(game, "K10 L10 M10") is None  # more than a turn
    assert played(game, "K1O") is None  # not a point at all
    assert [str(move) for move in game.history] == ["J10"]  # the game itself untouched


# -- the harness ---------------------------------------------------------------------------


@pytest.mark.parametrize("module", [load, load_bots], ids=lambda module: module.__name__)
def test_docstring_examples_hold(module):
    failures, tried = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert failures == 0 and tried > 0


@pytest.mark.parametrize("sessions", range(2, 61, 2))
def test_tables_seat_every_session(sessions):
    kinds = load.table_kinds(sessions)
    assert sum(load.SEATS[kind] for kind in kinds) == sessions
    if sessions >= 10:
        assert set(kinds) == set(KINDS)


@pytest.mark.parametrize("sessions", [0, 1, 7])
def test_an_odd_or_empty_crowd_seats_no_tables(sessions):
    with pytest.raises(ValueError, match=f"seat 2 or 4 each: not {sessions} sessions"):
        load.table_kinds(sessions)


def test_tables_of_some_kinds_only():
    assert load.table_kinds(8, ["six-partners"]) == ["six-partners"] * 2
    assert load.table_kinds(6, ["six", "connect6"]) == ["six", "connect6", "six"]
    with pytest.raises(ValueError, match="seat 4 each: not 6 sessions"):
        load.table_kinds(6, ["six-partners"])


def report(name, table, seat, sent=(), shown=(), seen=()):
    made = BotReport(0, "connect6", name=name, table=table, seat=seat)
    made.sent = [Turn(number, at, moves, 0) for number, at, moves in sent]
    made.shown = [Turn(number, at, moves, 900) for number, at, moves in shown]
    made.seen = [Turn(number, at, moves, 1000) for number, at, moves in seen]
    return made


def test_each_turn_is_joined_with_the_other_screens_that_showed_it():
    table = "ann bob"
    ann = report(
        "ann",
        table,
        0,
        sent=[(1, 10.0, "J10"), (3, 14.0, "A1 A2"), (5, 18.0, "B1 B2")],
        shown=[(1, 10.01, "J10"), (3, 14.02, "A1 A2")],  # turn 5 refused: ann's own error
    )
    bob = report(
        "bob",
        table,
        1,
        sent=[(2, 12.0, "K10 L10"), (4, 16.0, "C1 C2")],
        shown=[(2, 12.01, "K10 L10"), (4, 16.01, "C1 C2")],
        seen=[(1, 10.02, "J10"), (3, 14.5, "A1 A3")],
    )
    ann.seen = [Turn(2, 12.03, "K10 L10", 1000)]  # and never turn 4
    joined = load.join_turns([ann, bob])
    assert joined.turns == 4
    assert joined.latencies == pytest.approx([0.02, 0.03])
    assert joined.errors == [
        "turn 3 (A1 A2) at the table of ann bob: shown on bob's screen as A1 A3",
        "turn 4 (C1 C2) at the table of ann bob: not on ann's screen by the end of the run"
        " and its --settle",
    ]


SERVER_LOG = """\
2026-12-03 06:01:36,274 INFO asyncssh [conn=10, chan=0] New SSH session requested
2026-12-03 06:01:36,275 INFO sixtui.server connect peer=127.0.0.1
2026-12-03 06:01:37,001 INFO sixtui.server dropped peer=127.0.0.1 user=guest-1 why=idle for 1800 s
2026-12-03 06:01:38,002 ERROR sixtui.server session failed
Traceback (most recent call last):
  File "server/session.py", line 1, in run
ValueError: no
2026-12-03 06:01:39,003 INFO sixtui.server disconnect peer=127.0.0.1 user=guest-2 why=closed
2026-12-03 06:01:40,004 WARNING asyncio Executing <Task> took 0.512 seconds
2026-12-03 06:01:41,005 INFO asyncssh [conn=3] Auth refused for user guest
"""


def test_the_server_logs_trouble_is_counted_with_its_traceback():
    problems = load.log_problems(SERVER_LOG.splitlines())
    assert len(problems) == 3
    assert "dropped peer" in problems[0]
    assert problems[1].endswith(
        "session failed\nTraceback (most recent call last):\n"
        '  File "server/session.py", line 1, in run\nValueError: no'
    )
    assert "took 0.512 seconds" in problems[2]


def test_the_last_line_reads_as_scripts_expect():
    figures = load.Figures(
        sessions=200,
        games=80,
        turns=2400,
        p50_ms=20.04,
        p95_ms=61.26,
        p99_ms=140.0,
        max_ms=300.0,
        loop_lag_p99_ms=12.3,
        loop_lag_max_ms=40.0,
        full_collections=1,
        longest_collection_ms=150.0,
        young_collections_ms=900.0,
        longest_young_collection_ms=40.0,
        rss_mib_per_session=1.234,
        to_others_bytes=1200,
        to_mover_bytes=12000,
        server_cpu_share=0.8,
        server_cpu_ms_per_turn=20.0,
        bots_cpu_share=0.3,
        redis_commands_per_turn=0.0,
        redis_cpu_share=0.0,
        seated_in=30.0,
        errors=0,
    )
    assert figures.last_line() == (
        "sessions=200 games=80 turns=2400 p50_ms=20.0 p95_ms=61.3 p99_ms=140.0"
        " loop_lag_p99_ms=12.3 rss_mib_per_session=1.23 errors=0"
    )
    twice = load.median_figures([figures, figures])
    assert twice.last_line() == figures.last_line()


@pytest.mark.parametrize(
    ("arguments", "why"),
    [
        (["--sessions", "7"], "seat 2 or 4 each: not 7 sessions"),
        (["--sessions", "1000"], "--sessions is from 2 to 990, not 1000"),
        (["--tables", "six-partners", "--sessions", "6"], "seat 4 each: not 6 sessions"),
        (["--tables", "chess"], "no kind of table 'chess': choose from six-partners, connect6"),
        (["--seconds", "0"], "--seconds and --interval must be above 0"),
        (["--interval", "-1"], "--seconds and --interval must be above 0"),
        (["--runs", "0"], "--runs, --bot-processes and --servers must be at least 1"),
        (["--servers", "2", "--set", "hub=memory"], "share their hub in Redis, not memory"),
        (["--sessions", "ten"], "invalid int value: 'ten'"),
        (["--fault", "fire"], "invalid choice: 'fire'"),
    ],
)
def test_the_harness_refuses_what_it_cannot_run(arguments, why, capsys):
    with pytest.raises(SystemExit) as stopped:
        load.parse_arguments(arguments)
    assert stopped.value.code == 2
    assert why in capsys.readouterr().err


@pytest.mark.parametrize("servers", [1, 2])
def test_the_harness_plays_every_kind_of_table_end_to_end(servers):
    """Ten sessions, one table of each kind, a turn every half second for 3 s, on one
    server process or on two sharing a Redis of the run's own: every turn played reaches
    every other screen at its table, and nothing goes wrong."""
    if servers > 1:
        redis_executable()  # or skipped, loudly
    command = [sys.executable, "-m", "benchmarks", "load", "--sessions", "10"]
    command += ["--seconds", "3", "--interval", "0.5", "--settle", "2", "--servers", str(servers)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    last = LAST_LINE.fullmatch(lines[-1])
    assert last is not None, done.stdout
    sessions, games, turns, p50, p95, p99, lag, rss, errors = last.groups()
    assert (int(sessions), int(games), int(errors)) == (10, 4, 0), done.stdout
    assert int(turns) >= 8  # two a table at least, with room for a busy machine
    assert 0 < float(p50) <= float(p95) <= float(p99)
    assert float(lag) > 0 and float(rss) > 0
    kinds = re.search(r"turns by kind: (.*?);", done.stdout)
    assert kinds is not None, done.stdout
    counts = dict(part.rsplit(" ", 1) for part in kinds[1].split(", "))
    assert set(counts) == set(KINDS) and all(int(count) >= 2 for count in counts.values())
    young = re.search(
        r"collections of the younger generations over the window \| ([\d,.]+) ms", done.stdout
    )
    assert young is not None and float(young[1].replace(",", "")) > 0, done.stdout
    redis = re.search(r"Redis: commands per turn played \| ([\d,.]+)", done.stdout)
    assert (redis is not None) == (servers > 1), done.stdout
    if redis is not None:
        assert "10 sessions on 2 server processes" in done.stdout
        assert float(redis[1]) > 1  # a turn is stored and told through Redis
