"""The replay screen: a recorded game stepped through with the keys, the board and the
panel as they were after each move, the result at the end; and ``sixtui replay`` and
``sixtui play --from`` opening records."""

from __future__ import annotations

import random

import pytest

from sixtui import cli
from sixtui.rules import new_game
from sixtui.rules.records import GameRecord
from sixtui.server.cli import main
from sixtui.tui.app import SixtuiApp
from sixtui.tui.replay import NOT_HERE
from support.tui_helpers import (
    CONNECT6_WIN,
    SIZE,
    burst,
    glyph_at,
    history,
    hot_seat,
    key_bar,
    panel,
    play_all,
    screen_names,
)


def connect6_record(resigned: bool = False) -> GameRecord:
    game = new_game("connect6", size=9)
    for point in CONNECT6_WIN[: -1 if resigned else None]:
        game.play(point)
    if resigned:
        game.resign(0)
    return GameRecord(game, ("ann", "bob"), {"Date": "2026-12-02"})


def replay_app(record: GameRecord) -> SixtuiApp:
    return SixtuiApp(replay=GameRecord.parse(str(record)))


async def test_the_replay_opens_at_the_start_and_steps_through_to_the_result():
    app = replay_app(connect6_record())
    async with app.run_test(size=SIZE) as pilot:
        assert screen_names(app)[-1] == "ReplayScreen"
        assert history(app) == [] and "the start, 12 moves to come" in panel(app, "message")
        assert panel(app, "status") == "ann to move"
        await pilot.press("right", "right", "right")
        assert history(app) == CONNECT6_WIN[:3]
        assert panel(app, "moves").splitlines() == ["1. E5", "2. A1 A2"]
        assert glyph_at(app, "A2")[0] != glyph_at(app, "B2")[0]  # a stone, an empty point
        assert "move 3 of 12, A2" in panel(app, "message")
        await pilot.press("end")
        assert history(app) == CONNECT6_WIN
        assert panel(app, "status") == "ann wins as Black: six in a row"
        # Which game of a match it was is not recorded: the panel does not claim one.
        assert panel(app, "score") == "Replay · wins ● 1 – 0 ○"
        await pilot.press("right")  # nothing after the end
        assert len(history(app)) == 12
        await pilot.press("left")
        assert history(app) == CONNECT6_WIN[:11] and panel(app, "status") == "ann to move"
        await pilot.press("home", "left")
        assert history(app) == []


async def test_up_and_down_step_a_turn_and_g_goes_to_a_turn_by_its_number():
    app = replay_app(connect6_record())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down")
        assert history(app) == CONNECT6_WIN[:3]  # turn 1 is one stone, turn 2 two
        await pilot.press("up")
        assert history(app) == CONNECT6_WIN[:1]
        await burst(pilot, "g", "4", "enter")
        assert history(app) == CONNECT6_WIN[:7] and panel(app, "moves").endswith("4. B1 B2")
        await burst(pilot, "g", "x", "enter")
        assert "'x' is not a turn" in panel(app, "message") and len(history(app)) == 7
        await burst(pilot, "g", "9", "9", "enter")
        assert len(history(app)) == 12


@pytest.mark.parametrize("ply", range(12))
async def test_from_any_move_up_goes_to_the_turn_before_and_down_to_the_turn_s_end(ply):
    app = replay_app(connect6_record())
    ends = [0, 1, 3, 5, 7, 9, 11, 12]  # where each turn ends: one stone, then two a turn
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["right"] * ply)
        await pilot.press("up")
        assert len(history(app)) == max(end for end in ends if end < ply or end == 0)
        await pilot.press("home", *["right"] * ply, "down")
        assert len(history(app)) == min(end for end in ends if end > ply)


async def test_a_resignation_shows_at_the_end_only():
    app = replay_app(connect6_record(resigned=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        assert panel(app, "status") == "bob wins as White: ann resigned"
        await pilot.press("left")
        assert panel(app, "status") == "bob to move"


async def test_nothing_is_played_at_a_replay():
    app = replay_app(connect6_record())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "enter", "space")
        assert history(app) == CONNECT6_WIN[:1]
        assert panel(app, "message") == NOT_HERE
        await pilot.press("q")
        assert app.return_code == 0 and not app.is_running


async def test_a_partner_game_of_six_replays_with_names_shown_literally():
    game = new_game("six", ruleset="romanian", players=4)
    rng = random.Random(8)
    for _ in range(8):
        game.play(rng.choice(game.legal_moves()))
    names = ("[b]ann[/b]", "bo\u202eb", "cy", "di")
    app = replay_app(GameRecord(game, names))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        seats = panel(app, "seats")
        assert "[b]ann[/b]" in seats and "bob" in seats and "\u202e" not in seats
        assert panel(app, "status").startswith("the record ends here, ")
        assert panel(app, "status").endswith(" to move")
        assert f"move 8 of 8, {game.history[-1]}" in panel(app, "message")


@pytest.fixture
def started(monkeypatch):
    """The apps that would have run, in a terminal."""
    runs: list[SixtuiApp] = []
    monkeypatch.setattr(SixtuiApp, "run", lambda app, *args, **kw: runs.append(app))
    monkeypatch.setattr(cli, "has_terminal", lambda: True)
    return runs


def written(tmp_path, record: GameRecord | str) -> str:
    path = tmp_path / "game.txt"
    path.write_text(str(record), encoding="utf-8")
    return str(path)


def test_sixtui_replay_opens_the_record(tmp_path, started):
    record = connect6_record()
    assert main(["replay", written(tmp_path, record)]) == 0
    assert started[0].replay.game == record.game and started[0].setup is None


def test_play_from_a_record_goes_on_from_its_last_position(tmp_path, started):
    game = new_game("gameof6", size=10)
    for point in ["E5", "A1", "A2"]:
        game.play(point)
    assert main(["play", "--from", written(tmp_path, GameRecord(game)), "--vs", "easy"]) == 0
    setup = started[0].setup
    assert (setup.game, setup.size, setup.seats) == ("gameof6", 10, (None, "easy"))
    session = setup.session(thinker=object())  # type: ignore[arg-type]  # never asked here
    assert session.game == game and session.game is not setup.start_from


@pytest.mark.parametrize(
    ("argv", "content", "message"),
    [
        (["replay"], '[Game "connect6"]\n\n1. J10 2. K11 Z99', "game.txt, line 3: move 3, Z99"),
        (["replay"], '[Game "go"]', "line 1: there is no game 'go'"),
        (["play", "--from"], str(connect6_record()), "is over: step through it with sixtui replay"),
        (["play", "six", "--from"], '[Game "connect6"]', "--from takes the game and its options"),
        (["replay"], b"\xff\xfe", "is not a game record: it is not UTF-8 text"),
    ],
)
def test_a_bad_record_stops_with_its_reason(tmp_path, capsys, started, argv, content, message):
    path = tmp_path / "game.txt"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(SystemExit) as stopped:
        main([*argv, str(path)])
    assert stopped.value.code == 2 and started == []
    assert message in capsys.readouterr().err


def test_a_missing_record_is_named(tmp_path, capsys, started):
    with pytest.raises(SystemExit):
        main(["replay", str(tmp_path / "nowhere.txt")])
    assert "cannot read" in capsys.readouterr().err and started == []


async def test_a_finished_local_game_is_saved_as_a_record_that_replays(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        assert "once the game is over" in panel(app, "message") and not list(tmp_path.iterdir())
        await play_all(app, CONNECT6_WIN)
        await pilot.pause()
        await pilot.press("b", "e")  # from the board, past the summary
        (saved,) = tmp_path.glob("sixtui-connect6-*.txt")
        assert f"savedin{saved.name}" in panel(app, "message").replace(" ", "")  # wrapped
        saved.rename(tmp_path / "kept.txt")  # a second later, a second file would be named apart
        await pilot.press("e")
        assert [path.name for path in tmp_path.iterdir()] == ["kept.txt"]
        said = panel(app, "message").replace(" ", "")
        assert f"thisgameissavedalready,in{saved.name}" in said
        saved = tmp_path / "kept.txt"
    record = GameRecord.parse(saved.read_text(encoding="utf-8"))
    assert [str(move) for move in record.game.history] == CONNECT6_WIN
    assert record.players == ("Player 1", "Player 2") and record.game.result.winner == 0


async def test_the_summary_after_a_local_game_offers_saving_its_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = hot_seat("connect6", size=9)
    async with app.run_test(size=SIZE) as pilot:
        await play_all(app, CONNECT6_WIN)
        await pilot.pause()
        assert "e Save record" in key_bar(app)
        await pilot.press("e")  # straight from the summary
        await pilot.pause()
        (saved,) = tmp_path.glob("sixtui-connect6-*.txt")
        assert f"savedin{saved.name}" in panel(app, "message").replace(" ", "")
