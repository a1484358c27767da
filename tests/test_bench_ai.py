"""The computer players' benchmark harness (benchmarks/ai.py, benchmarks/ai_engine.py):
its statistics, openings, move cap and Cloudict adapter, without running any real match."""

import doctest
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks import ai, ai_engine
from sixtui.ai import LEVEL_SECONDS
from sixtui.rules import new_game
from sixtui.rules.square import Square


@pytest.mark.parametrize("module", [ai, ai_engine], ids=lambda module: module.__name__)
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert failures == 0


@pytest.mark.parametrize(
    ("score", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (5, 10, 0.2366, 0.7634),
        (18, 20, 0.6990, 0.9721),
    ],
)
def test_wilson_interval_matches_known_values(score, games, low, high):
    assert ai.wilson_interval(score, games) == pytest.approx((low, high), abs=1e-4)


def test_wilson_interval_of_no_games_is_everything():
    assert ai.wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [(0.85, 0.99, "met"), (0.6, 0.95, "open"), (0.3, 0.7, "missed"), (0.1, 0.2, "missed")],
)
def test_verdict_reads_the_whole_interval_against_the_target(low, high, expected):
    assert ai.verdict(low, high, 0.8) == expected


@pytest.mark.parametrize("name", sorted(ai.GAME_OPTIONS))
def test_openings_are_legal_unfinished_and_reproducible(name):
    opening = ai.random_opening(name, seed=3)
    rules, options = ai.GAME_OPTIONS[name]
    replayed = new_game(rules, **options)
    for move in opening.history:
        replayed.play(move)  # refuses an illegal move
    assert replayed.result is None
    assert len(opening.history) == ai.OPENING_MOVES[rules]
    assert ai.random_opening(name, seed=3).history == opening.history


def test_openings_differ_by_seed_and_stay_near_the_middle():
    histories = {tuple(map(str, ai.random_opening("connect6", seed).history)) for seed in range(8)}
    assert len(histories) == 8
    for seed in range(8):
        for move in ai.random_opening("connect6", seed).history:
            assert max(abs(move.to.col - 9), abs(move.to.row - 9)) <= ai.OPENING_REACH


def test_each_opening_is_played_with_the_colours_swapped():
    jobs = ai.pair_jobs("six-steffen", ("hard", "normal"), 5, ai.level_seconds(0.1, None))
    assert len(jobs) == 6
    for first, second in zip(jobs[::2], jobs[1::2], strict=True):
        assert first.opening_seed == second.opening_seed
        assert first.team_levels == ("hard", "normal")
        assert second.team_levels == ("normal", "hard")


def test_a_game_at_its_move_cap_is_a_draw_worth_half_to_each():
    job = ai.GameJob("connect6", 1, ("random", "random"), ai.level_seconds(0.1, None), move_cap=6)
    record = ai.play_game(job)
    assert (record.winner, record.moves, record.capped) == (None, 6, True)
    assert record.score_of_team(0) == record.score_of_team(1) == 0.5


def test_a_pair_scores_for_its_first_level_whatever_its_colour():
    seconds = ai.level_seconds(0.05, None)
    result = ai.PairResult("six-steffen", ("easy", "random"))
    for job in ai.pair_jobs("six-steffen", ("easy", "random"), 2, seconds):
        record = ai.GameRecord(job, winner=job.team_levels.index("easy"), moves=30)
        result.add(record)
    assert (result.games, result.score, result.draws, result.capped) == (2, 2.0, 0, 0)
    row = result.row()
    assert row.startswith(
        "| six-steffen | easy vs random | 2 | 2 | 100% | 34% – 100% | ≥ 98% | open |"
    )
    assert row.endswith("| 0 (0) |")


def test_a_later_first_opening_gives_new_openings_with_the_colours_swapped():
    seconds = ai.level_seconds(0.1, None)
    first = ai.pair_jobs("connect6", ("hard", "normal"), 4, seconds)
    later = ai.pair_jobs("connect6", ("hard", "normal"), 4, seconds, first_seed=1000)
    assert [job.opening_seed for job in first] == [0, 0, 1, 1]
    assert [job.opening_seed for job in later] == [1000, 1000, 1001, 1001]


def test_turns_are_counted_against_the_level_time_leaving_out_wins_at_once():
    thinking = ai.Thinking(paced=[0.85, 0.95, 1.0, 1.08, 1.2])
    assert thinking.pace(1.0) == "5 turns of 1 s: 1 early, 1 late, 0.850 – 1.200 s"
    game = new_game("connect6", size=9)
    for point in ["E5", "A1", "A2", "F5", "G5", "B1", "B2", "H5", "C7", "C1", "C2"]:
        game.play(point)
    log = ai.Thinking()
    turn = ai.think(game, "easy", 0.3, random.Random(1), log)
    assert game.result is None and len(turn) == 2  # the game itself is kept
    assert (log.turns, log.paced) == (1, [])  # four in a row made six: a win at once
    ai.think(new_game("six"), "easy", 0.05, random.Random(1), log)
    assert log.turns == 2 and len(log.paced) == 1


def test_pairs_and_level_times_are_read_from_the_command_line():
    assert ai.parse_pairs("hard:normal, easy:random") == [("hard", "normal"), ("easy", "random")]
    with pytest.raises(ValueError, match="no level 'expert'"):
        ai.parse_pairs("expert:easy")
    assert ai.level_seconds(0.2, 1.0) == {"random": 0.2, "easy": 0.2, "normal": 0.2, "hard": 1.0}
    own = ai.level_seconds(0.2, None, level_times=True)
    assert own == {"random": 0.2, **LEVEL_SECONDS}
    assert ai.level_seconds(0.2, 2.0, level_times=True) == own | {"hard": 2.0}


@pytest.mark.parametrize(
    ("text", "points"),
    [("JJ", ["J10"]), ("AA", ["A1"]), ("SS", ["S19"]), ("AS", ["A19"]), ("JKLK", ["J11", "L11"])],
)
def test_engine_stones_convert_both_ways(text, points):
    squares = ai_engine.from_engine(text)
    assert [str(square) for square in squares] == points
    assert ai_engine.to_engine(squares) == text


def test_engine_columns_and_rows_count_from_the_bottom_left():
    assert ai_engine.to_engine([Square(0, 0), Square(18, 18), Square(2, 5)]) == "AASSCF"


@pytest.mark.parametrize("text", ["", "J", "JJK", "JT", "jj", "JJKKLL"])
def test_engine_stones_outside_its_letters_are_refused(text):
    with pytest.raises(ai_engine.EngineError):
        ai_engine.from_engine(text)


def test_the_seat_of_each_opening_stone_follows_connect6_turns():
    game = ai.random_opening("connect6", seed=0)
    for _ in range(4):
        game.play(game.legal_moves()[0])
    assert ai_engine._seats_of(game) == [0, 1, 1, 0, 0, 1, 1, 0, 0]


def test_engine_search_lines_are_counted():
    clock = ai_engine.EngineClock()
    for line in ["Searching 3/37", "AB Time :\t0.500", "Node :\t10168", "Score :\t12.0"]:
        clock.read(line)
    assert (clock.nodes, clock.search_seconds) == (10168, 0.5)
    assert clock.per_second() == "20,336"


def test_no_engine_folder_skips_the_match_with_one_line(capsys):
    ai.report_match(None, games=2, seconds=0.1, depth=4, workers=1)
    assert capsys.readouterr().out == ai_engine.SKIPPED + "\n"


def test_an_engine_folder_without_the_engine_skips_the_match_saying_why(tmp_path, capsys):
    ai.report_match(tmp_path, games=2, seconds=0.1, depth=4, workers=1)
    out = capsys.readouterr().out
    assert out.startswith("Cloudict match skipped:")
    assert "no gameEngine" in out and out.count("\n") == 1


def test_the_adapter_refuses_a_folder_without_patterns(tmp_path):
    (tmp_path / "gameEngine").write_text("")
    with pytest.raises(ai_engine.EngineError, match=r"no patterns\.in"):
        ai_engine.Cloudict(Path(tmp_path), depth=4)


FAKE_ENGINE = """\
import sys
import time

LETTERS = "ABCDEFGHIJKLMNOPQRS"
taken = set()
print("Cloudict-like help text")
for line in sys.stdin:
    command, _, stones = line.strip().partition(" ")
    if command == "quit":
        break
    if command == "depth":
        print(f"Set the search depth to {stones}.", flush=True)
    elif command in ("black", "white", "move"):
        taken.update(stones[at : at + 2] for at in range(0, len(stones), 2))
    if command in ("next", "move"):
        free = [c + r for r in LETTERS for c in LETTERS if c + r not in taken][:2]
        taken.update(free)
        print("AB Time :\\t0.010", "Node :\\t50", "move " + "".join(free), sep="\\n", flush=True)
"""


def fake_engine_folder(folder: Path, script: str = FAKE_ENGINE) -> Path:
    """A folder with a ``gameEngine`` that speaks like Cloudict and plays the first free points
    (or runs ``script``)."""
    engine = folder / "gameEngine"
    engine.write_text(f"#!{sys.executable}\n{script}")
    engine.chmod(0o755)
    (folder / "patterns.in").write_text("0\n")
    return folder


@pytest.mark.parametrize("engine_colour", [0, 1])
def test_a_game_against_an_engine_keeps_both_boards_in_step(tmp_path, engine_colour):
    job = ai.EngineJob(fake_engine_folder(tmp_path), 4, 2, engine_colour, seconds=0.05)
    played = ai.play_against_engine(job)
    assert played.points == 1.0  # the fake engine plays along the bottom rows and loses
    assert played.sixtui.turns >= 1 and played.engine.answers
    assert played.engine.nodes == 50 * len(played.engine.answers)


def test_a_count_of_positions_replaces_the_time_of_a_turn():
    game = ai.random_opening("connect6", seed=2)
    log = ai.Thinking()
    seed = random.Random(5).randrange(1 << 30)
    turn = ai.think(game, "hard", 1e-6, random.Random(5), log, positions=1500)
    assert log.positions >= 1500  # a millionth of a second would have stopped it far sooner
    assert turn == ai.choose_turn(game, "hard", seed=seed, positions=1500)


def test_engine_jobs_carry_the_count_of_positions(tmp_path):
    jobs = ai.engine_jobs(tmp_path, 4, 1.0, 4, positions=300)
    assert [job.positions for job in jobs] == [300] * 4
    played = ai.play_against_engine(ai.EngineJob(fake_engine_folder(tmp_path), 4, 2, 1, 1e-6, 300))
    assert played.points == 1.0 and played.sixtui.positions >= 300  # not stopped by the time


def test_engine_jobs_start_from_the_first_opening_given(tmp_path):
    jobs = ai.engine_jobs(tmp_path, 4, 1.0, 4, first_opening=10)
    assert [(job.opening_seed, job.engine_colour) for job in jobs] == [
        (10, 0),
        (10, 1),
        (11, 0),
        (11, 1),
    ]


@pytest.mark.parametrize(
    ("old", "new", "engine_colour"),
    [
        # the first points it was told of, which are taken
        ("if c + r not in taken][:2]", "if c + r in taken][:2]", 0),
        # one stone, where two are due, that does not win
        ("not in taken][:2]", "not in taken][:1]", 1),
        # "T@", a point past the last column and below the first row
        ('"move " + "".join(free)', '"move T@"', 0),
    ],
    ids=["taken point", "short turn", "off the board"],
)
def test_an_engine_that_breaks_the_rules_forfeits_the_game(tmp_path, old, new, engine_colour):
    script = FAKE_ENGINE.replace(old, new)
    job = ai.EngineJob(fake_engine_folder(tmp_path, script), 4, 2, engine_colour, seconds=0.05)
    played = ai.play_against_engine(job)
    assert played.points == 1.0 and played.engine.forfeits == 1
    assert "Cloudict forfeits: an illegal stone, a short turn or a crash" in played.summary()


def test_an_engine_that_stops_in_the_middle_of_a_game_forfeits_it(tmp_path):
    # This fake engine answers its first turn, then dies as Cloudict does when it crashes.
    dies = 'if command == "move" and answered:\n        sys.exit(139)\n'
    crashing = FAKE_ENGINE.replace(
        'if command in ("next", "move"):',
        dies + '    if command in ("next", "move"):\n        answered = True',
    ).replace("taken = set()", "taken = set()\nanswered = False")
    job = ai.EngineJob(fake_engine_folder(tmp_path, crashing), 4, 2, 0, seconds=0.05)
    played = ai.play_against_engine(job)
    assert played.points == 1.0 and played.engine.forfeits == 1
    assert played.engine.answers  # it played a turn before it stopped


def test_positions_per_second_replace_each_level_time_and_repeat_the_game():
    seconds = {"random": 0.2, "easy": 0.3, "normal": 0.6, "hard": 1.0}
    jobs = ai.pair_jobs("connect6", ("hard", "easy"), 2, seconds, positions_per_second=2000)
    assert [(job.positions("hard"), job.positions("easy")) for job in jobs] == [(2000, 600)] * 2
    assert ai.pair_jobs("connect6", ("hard", "easy"), 2, seconds)[0].positions("hard") is None
    # A millionth of a second a turn, but two thousand positions: the count rules, not the time.
    tiny = {level: 1e-6 for level in seconds}
    job = ai.GameJob(
        "connect6", 3, ("hard", "easy"), tiny, move_cap=4, positions_per_second=2_000_000_000
    )
    first, again = ai.play_game(job), ai.play_game(job)
    assert first.thinking["hard"].positions >= 2000
    assert first.thinking["hard"].positions == again.thinking["hard"].positions
    assert first.moves == again.moves == 4


LOGGING_ENGINE = FAKE_ENGINE.replace(
    "for line in sys.stdin:",
    "import os\nopen('engine.log', 'a').write(os.getcwd())\nfor line in sys.stdin:",
)


def test_the_engine_runs_in_a_folder_of_its_own_that_goes_with_its_log(tmp_path):
    folder = fake_engine_folder(tmp_path, LOGGING_ENGINE)
    with ai_engine.Cloudict(folder, depth=4) as engine:
        workdir = Path(engine._workdir.name)
    assert not (folder / "engine.log").exists()  # nothing grows in the engine's folder
    assert workdir != folder and not workdir.exists()


# Like Cloudict, it reads on past the end of its input, without end.
PID_ENGINE = FAKE_ENGINE.replace(
    "for line in sys.stdin:",
    "import os, time\n"
    "open(sys.argv[0] + '.pid', 'w').write(str(os.getpid()))\n"
    "for line in iter(lambda: sys.stdin.readline() or time.sleep(0.01) or '', None):",
)
STARTS_AN_ENGINE_AND_HANGS = """\
import sys, time
from pathlib import Path
from benchmarks import ai_engine
engine = ai_engine.Cloudict(Path(sys.argv[1]), depth=4)
print("started", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform != "linux", reason="an engine ends with its parent on Linux")
def test_an_engine_ends_with_the_benchmark_that_started_it_however_it_ends(tmp_path):
    """Killed, a benchmark cannot ask its engine to quit: the engine must not live on
    (Cloudict then logs without end)."""
    folder = fake_engine_folder(tmp_path, PID_ENGINE)
    benchmark = subprocess.Popen(
        [sys.executable, "-c", STARTS_AN_ENGINE_AND_HANGS, str(folder)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert benchmark.stdout is not None and benchmark.stdout.readline() == "started\n"
    engine = int((folder / "gameEngine.pid").read_text())
    benchmark.kill()
    benchmark.wait()
    deadline = time.monotonic() + 10
    while _running(engine) and time.monotonic() < deadline:
        time.sleep(0.05)
    left_running = _running(engine)
    if left_running:
        os.kill(engine, signal.SIGKILL)
    assert not left_running


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, waiting to be reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def test_cloudict_against_itself_plays_a_game_an_opening_and_counts_whites_points(tmp_path, capsys):
    folder = fake_engine_folder(tmp_path)
    ai.report_match(folder, 2, 1.0, 4, workers=1, show_games=True, against_itself=True)
    lines = capsys.readouterr().out.splitlines()
    games = [line for line in lines if line.startswith("opening ")]
    assert [line.split(",")[0] for line in games] == ["opening 0", "opening 1"]
    whites = 0
    for line in games:  # each game's stones, from the opening on, and White's points
        head, stones = line.split(": ")
        game = new_game("connect6")
        for point in stones.split():
            game.play(point)
        assert game.result is not None
        white = int(game.result.winner == 1)
        assert head.endswith(f"White {white}")
        whites += white
    assert lines[-1].startswith(f"| Cloudict depth 4 against itself | 2 | {whites} |")


def test_an_engine_breaking_the_rules_against_itself_forfeits_for_its_side(tmp_path):
    folder = fake_engine_folder(tmp_path, FAKE_ENGINE.replace('"move " +', '"move AAAA" or'))
    played = ai.play_engine_against_itself(ai.EngineJob(folder, 4, 0, 0, 0.0))
    assert played.engine.forfeits == 1
