"""The line-drawn widgets: the key bar, the move list's pages, and partial refreshes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.filter import ANSIToTruecolor

from sixtui.tui.app import SixtuiApp
from sixtui.tui.screens.help import HelpScreen
from sixtui.tui.widgets import hex_board
from sixtui.tui.widgets.keys import KeyBar
from sixtui.tui.widgets.lines import _changed_span, wrap
from sixtui.tui.widgets.panel import first_shown
from support.online_apps import command, in_lobby, online_app
from support.tui_helpers import hot_seat
from support.turns import random_position


def page_of(lines, room, scrolled_to=None):
    first = first_shown(len(lines), room, scrolled_to)
    return lines[first : first + room]


@given(st.integers(0, 200), st.integers(0, 30))
def test_a_page_of_moves_ends_with_the_newest_and_fits(count, room):
    lines = [str(number) for number in range(count)]
    page = page_of(lines, room)
    assert len(page) <= room
    if count and room:
        assert page[-1] == lines[-1]
        assert page == lines[lines.index(page[0]) :]  # consecutive, up to the newest
        assert len(page) >= min(count, max(1, room // 2))


def test_the_move_list_keeps_its_lines_while_a_page_fills():
    lines = [str(number) for number in range(30)]
    assert page_of(lines[:13], 8)[:4] == page_of(lines[:15], 8)[:4]


@given(st.integers(0, 200), st.integers(1, 30), st.integers(-50, 250))
def test_a_page_scrolled_back_is_full_and_within_the_lines(count, room, scrolled_to):
    lines = [str(number) for number in range(count)]
    page = page_of(lines, room, scrolled_to)
    assert len(page) == min(count, room)
    if page:
        assert page == lines[lines.index(page[0]) :][:room]


@given(st.text(alphabet="ab ", max_size=80), st.integers(5, 30))
def test_wrapped_lines_fit(text, width):
    assert all(len(line) <= width for line in wrap(text, width))


def test_the_changed_span_covers_the_runs_that_differ():
    before = (("· · ", "grid"), ("●", "team0"), (" · ·", "grid"))
    after = (("· · ", "grid"), ("○", "team1"), (" · ·", "grid"))
    assert _changed_span(before, after, 9) == (4, 5)
    assert _changed_span(before, before, 9) == (0, 0)
    assert _changed_span(before, (("· · ● · ·", "grid"),), 9) == (0, 9)  # other runs: all
    longer = (("· · ", "grid"), ("●·", "team0"), (" ·", "grid"))
    assert _changed_span(before, longer, 9) == (0, 9)


@given(st.lists(st.sampled_from(["a", "bb", "c"]), min_size=1, max_size=8), st.data())
def test_every_differing_cell_is_inside_the_changed_span(texts, data):
    before = tuple((text, "x") for text in texts)
    after = tuple((text, data.draw(st.sampled_from(["x", "y"]))) for text in texts)
    width = sum(len(text) for text in texts)
    start, end = _changed_span(before, after, width)
    cells = lambda line: [(ch, names) for text, names in line for ch in text]  # noqa: E731
    for x, (old, new) in enumerate(zip(cells(before), cells(after), strict=True)):
        if old != new:
            assert start <= x < end


async def test_the_key_bar_lists_the_game_keys_and_a_click_presses_one():
    app = hot_seat("connect6")
    async with app.run_test(size=(80, 24)) as pilot:
        bar = app.screen.query_one(KeyBar)
        text = "".join(run for run, _ in bar._drawn[0])
        for words in ("Place", "Resign", "Rules", "Quit"):
            assert words in text
        start = text.index("Rules") - 3  # on the key itself
        await pilot.click(KeyBar, offset=(start, 0))
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_news_from_another_apps_task_is_posted_not_drawn_there():
    from sixtui.tui.session import Update
    from sixtui.tui.textual_internals import active_app

    app = hot_seat("connect6", size=9)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        game = screen.session.game
        game.play("E5")  # changed behind the screen's back, as a hub would
        drawn = list(screen.board._drawn)
        other_app = object()
        token = active_app.set(other_app)
        try:
            screen._hear(Update("moves"))
            assert screen.board._drawn == drawn  # nothing drawn from the other app's task
        finally:
            active_app.reset(token)
        await pilot.pause()
        assert screen.board._drawn != drawn  # drawn by this app, from the posted message
        screen._hear(Update("moves"))  # this app's own news is handled at once
        assert "◉" in "".join(text for line in screen.board._drawn for text, _ in line)


@given(
    st.sampled_from(["connect6", "six"]),
    st.lists(st.tuples(st.booleans(), st.integers(0, 10_000)), max_size=40),
)
def test_turn_lines_kept_move_by_move_match_lines_written_anew(name, steps):
    import random

    from sixtui.rules import new_game
    from sixtui.tui.widgets.panel import TurnLines

    game = new_game(name, size=9) if name == "connect6" else new_game(name)
    kept = TurnLines()
    for undo, seed in steps:
        if undo and game.history:
            game.undo()
        elif not game.is_over:
            game.play(random.Random(seed).choice(game.legal_moves()))
        assert kept.update(game) == TurnLines().update(game)
    written = TurnLines().update(game)
    assert " ".join(line.split(". ", 1)[1] for line in written).split() == [
        str(move) for move in game.history
    ]


def test_a_16_color_terminal_gets_the_boards_named_colors_as_they_are(monkeypatch):
    from rich.color import ColorType
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color

    from sixtui.tui.app import SixtuiApp

    monkeypatch.delenv("COLORTERM", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    app = SixtuiApp()
    board = [Segment("·", Style.parse("black on yellow"))]
    for line_filter in app.get_line_filters():
        board = line_filter.apply(board, Color(0, 0, 0))
    assert board[0].style.bgcolor.type == ColorType.STANDARD  # not Textual's RGB yellow


class ChangesNoted(ANSIToTruecolor):
    """Textual's filter from named colors to RGB, noting each style it changes."""

    def __init__(self, app):
        super().__init__(app.ansi_theme_dark)
        self.changed = set()

    def apply(self, segments, background):
        filtered = super().apply(segments, background)
        for before, after in zip(segments, filtered, strict=True):
            if before.style != after.style:
                self.changed.add(str(before.style))
        return filtered


async def screens_under_the_filter(monkeypatch, app, show):
    """Runs ``app`` through ``show(pilot)`` with Textual's filter back on every line, and
    returns the styles it changed."""
    assert not any(isinstance(each, ANSIToTruecolor) for each in app.get_line_filters())
    noted = ChangesNoted(app)
    monkeypatch.setattr(app, "get_line_filters", lambda: [noted])
    async with app.run_test(size=(100, 30)) as pilot:
        await show(pilot)
        await pilot.pause()
    return noted.changed


@pytest.mark.parametrize(
    ("game", "turns"), [("connect6", 40), ("gameof6", 70), ("six", 12), ("six", 45)]
)
async def test_a_full_color_game_screen_draws_in_rgb_alone(monkeypatch, game, turns):
    """sixtui leaves out Textual's filter from named colors to RGB (it copies every line
    it is given): on a full-color terminal it would change nothing."""
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")
    moves = random_position(game, {}, 7, turns).history
    app = hot_seat(game)

    async def show(pilot):
        for move in moves:
            await app.screen.session.play(move)
        await pilot.pause()
        await pilot.press("m", "up", "left", "enter")

    assert await screens_under_the_filter(monkeypatch, app, show) == set()


@pytest.mark.parametrize("named", [False, True])
async def test_the_rules_text_alone_keeps_textuals_filter_from_named_colors(monkeypatch, named):
    """Rich draws the rules' Markdown in named colors: to RGB on a full-color terminal,
    as they are on a 16-color one."""
    from textual.widgets import Footer

    from sixtui.tui.screens.help import RulesText

    monkeypatch.setenv("TERM", "xterm" if named else "xterm-256color")
    monkeypatch.setenv("COLORTERM", "" if named else "truecolor")
    app = hot_seat("connect6")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        converting = [
            isinstance(each, ANSIToTruecolor) and each.enabled
            for each in app.screen.query_one(RulesText).get_line_filters()
        ]
        assert any(converting) is not named
        footer = app.screen.query_one(Footer)
        assert not any(isinstance(each, ANSIToTruecolor) for each in footer.get_line_filters())


async def test_the_full_color_home_and_lobby_draw_in_rgb_alone(monkeypatch, hub):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setenv("COLORTERM", "truecolor")
    app = online_app(hub, "ada")

    async def show(pilot):
        await in_lobby(pilot)
        await command(pilot, "say [bold red]hello[/] \x1b[31m")
        await command(pilot, "no such command")
        await command(pilot, "help pair")
        await pilot.press("escape", "question_mark")

    try:
        assert await screens_under_the_filter(monkeypatch, app, show) == set()
    finally:
        await app.online.close()
    home = SixtuiApp()
    assert await screens_under_the_filter(monkeypatch, home, lambda pilot: pilot.pause()) == set()


async def test_a_board_keeps_the_strips_of_lines_it_may_draw_again_not_of_every_turn():
    app = hot_seat("connect6")
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.screen.query_one("#board")
        session = app.screen.session
        for point in ("J10", "K10", "K11", "L12", "L13", "M14", "M15", "N16", "N17"):
            await session.play(point)
        for _ in range(9):  # the cursor over the board: a line for each place it is at
            await pilot.press("up", *["left"] * 9, *["right"] * 9)
        await pilot.pause()
        kept = board._strips_kept()
        assert len(board._strips) <= kept
        # Every line now shown is among those kept: a repaint makes none anew.
        assert all(line in board._strips for line in board._drawn)


async def test_a_board_keeps_each_of_its_alike_runs_once():
    app = hot_seat("gameof6")
    async with app.run_test(size=(80, 24)) as pilot:
        for move in random_position("gameof6", {}, 5, 60).history:
            await app.screen.session.play(move)
        await pilot.press("up", "left", "enter")
        await pilot.pause()
        drawn = app.screen.query_one("#board")._drawn
        runs = [run for line in drawn for run in line if run[1] not in ("pad", "label")]
        assert len({id(run) for run in runs}) == len(set(runs)) < len(runs) / 10


async def test_a_six_board_given_a_new_game_every_move_marks_captures_without_replaying(
    monkeypatch,
):
    # Online, every move arrives as a new game object: the board tells games apart by
    # their moves, and finds what a move captured from the layout it drew before.
    replayed = []
    replay = hex_board._layout_before_last_move

    def counted_replay(game):
        replayed.append(len(game.history))
        return replay(game)

    monkeypatch.setattr(hex_board, "_layout_before_last_move", counted_replay)
    history = random_position("six", {"ruleset": "steffen"}, 0, 60).history
    app = hot_seat("six", ruleset="steffen")
    async with app.run_test(size=(100, 30)):
        session = app.screen.session
        board = app.screen.board
        marked = 0
        for move in history:
            before = session.game.layout()
            session._game = session.game.copy()  # as a table session's game is, each move
            await session.play(move)
            expected = before.keys() - session.game.layout().keys() - {move.origin}
            assert board._captured == expected, f"after {move}"
            marked += bool(expected)
        assert marked >= 4  # captures were marked
        assert set(replayed) <= {0}  # only the empty game, when the board was first drawn


async def test_a_square_board_given_a_new_game_every_move_redraws_only_changed_rows():
    app = hot_seat("connect6")
    async with app.run_test(size=(100, 30)):
        session = app.screen.session
        board = app.screen.board
        for point in ("J10", "K10", "K11"):
            rows_before = dict(board._rows)
            session._game = session.game.copy()  # as a table session's game is, each move
            await session.play(point)
            redrawn = {row for row, line in board._rows.items() if line is not rows_before.get(row)}
            # The new stone's row, and the rows whose stones stopped being the newest turn.
            assert redrawn <= {9, 10}, f"after {point}: rows {sorted(redrawn)} drawn anew"


@given(st.integers(1, 200), st.integers(-60, 60), st.integers(-60, 60))
def test_a_hex_row_with_nothing_on_it_is_the_blank_row_drawn_without_looking(width, view_x, r):
    # The board draws rows without marks as one blank run a character, unlooked at.
    assert hex_board._row({}, r, view_x, width) == (hex_board.BLANK,) * width


async def test_a_six_table_not_panned_by_hand_is_centred_again_when_the_terminal_is_resized():
    def piece_columns(board) -> list[int]:
        """Where the pieces are drawn, in columns of the board."""
        columns = []
        for line in board._drawn[:-1]:
            x = 0
            for text, names in line:
                if names.startswith("team"):
                    columns.append(x)
                x += len(text)
        return columns

    app = hot_seat("six", ruleset="steffen")
    async with app.run_test(size=(80, 24)) as pilot:
        for move in random_position("six", {"ruleset": "steffen"}, 3, 12).history:
            await app.screen.session.play(move)
        board = app.screen.board
        for width in (140, 80):
            await pilot.resize_terminal(width, 30)
            await pilot.pause()
            columns = piece_columns(board)
            middle = (min(columns) + max(columns)) / 2
            assert abs(middle - board.size.width / 2) <= 2, (width, columns)
        await pilot.press("shift+right")  # panned by hand: it stays where it was taken
        panned = board._view
        await pilot.resize_terminal(140, 30)
        await pilot.pause()
        assert board._view == panned
