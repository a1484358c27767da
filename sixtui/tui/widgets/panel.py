"""The side panel: who plays, whose turn it is, the score, and the moves so far."""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from sixtui.rules import Game, Result
from sixtui.tui.look import Look, team_names
from sixtui.tui.session import GameSession
from sixtui.tui.widgets.square_board import turn_of

REASONS = {
    "six-in-a-row": "six in a row",
    "colored-cells": "six colored cells",
    "board-full": "the board is full",
    "row": "a row of six",
    "triangle": "a triangle",
    "circle": "a circle",
    "too-few-pieces": "too few pieces left",
    "repetition": "the same position a third time",
    "no-moves": "nobody can move",
    "resign": "resignation",
}


class Quiet(Static):
    """A Static that redraws only when its text really changes."""

    _shown: str | Text | None = None

    def show(self, text: str | Text) -> None:
        if text != self._shown:
            self._shown = text
            self.update(text)


def result_line(session: GameSession, result: Result) -> str:
    """The result in words, naming the winning team and its players."""
    why = REASONS[result.reason]
    if result.winner is None:
        return f"Draw: {why}"
    game = session.game
    players = sorted(
        {session.player_at(seat).name for seat in range(game.players) if seat % 2 == result.winner}
    )
    return f"{team_names(game)[result.winner]} ({' & '.join(players)}) wins: {why}"


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


def seat_lines(session: GameSession, look: Look, tick: int = 0) -> Text:
    """One line per seat: glyph, name, and what that seat has left."""
    game = session.game
    text = Text()
    for seat in range(game.players):
        team = seat % 2
        player = session.player_at(seat)
        turn = seat == game.to_move and not game.is_over
        text.append("▶ " if turn else "  ", style="bold")
        text.append(look.piece[team], style=look.style(f"team{team}"))
        text.append(f" {player.name}", style="bold" if turn else "")
        detail = _seat_detail(game, seat)
        if detail:
            text.append(f"  {detail}", style="dim")
        if turn and session.thinking:
            text.append(f"  {SPINNER[tick % len(SPINNER)]} thinking", style="italic")
        text.append("\n")
    text.rstrip()
    return text


def _seat_detail(game: Game, seat: int) -> str:
    if game.name == "six":
        return f"{game.in_hand(seat)} in hand"  # type: ignore[attr-defined]
    if game.name == "gameof6":
        return f"{game.colored_count(seat)} colored"  # type: ignore[attr-defined]
    return ""


def status_line(session: GameSession, picking: bool, destination: bool, tied: bool) -> str:
    """What happens now, in a few words."""
    game = session.game
    if game.result is not None:
        return result_line(session, game.result)
    player = session.player_at(game.to_move)
    if not session.may_move:
        return f"{player.name} is thinking" if session.thinking else f"{player.name} to move"
    if game.name != "six":
        stones = game.stones_left  # type: ignore[attr-defined]
        return f"{player.name}: place {'a stone' if stones == 1 else 'two stones'}"
    if tied:
        return "Choose the group that stays"
    if destination:
        return "Now where it goes"
    if picking:
        return "Pick a piece to move"
    return f"{player.name}: place a piece"


def score_line(session: GameSession) -> str:
    """The match or series so far, from the point of view of its two sides."""
    match = session.match
    first = " & ".join(player.name for player in session.sides[0])
    second = " & ".join(player.name for player in session.sides[1])
    wins = match.wins
    number = len(match.results) + (0 if session.game.is_over else 1)
    score = f"{first} {wins[0]} – {wins[1]} {second}"
    if match.games is None:
        return f"Game {number}\n{score}"
    heading = f"Game {min(number, match.games)} of {match.games}"
    points = match.points
    return f"{heading}\n{score}\npoints {points[0]} – {points[1]}"


class MoveList(Widget):
    """The moves so far, one turn a line, numbered; the newest lines at the bottom."""

    DEFAULT_CSS = "MoveList { height: 1fr; }"

    def __init__(self, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self._turns: list[str] = []

    def show(self, game: Game) -> None:
        turns = turn_lines(game)
        if turns != self._turns:
            self._turns = turns
            self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.size
        shown = self._turns[-height:] if height else []
        text = shown[y] if y < len(shown) else ""
        return Strip([Segment(text[:width].ljust(width), self.rich_style)], width)


def turn_lines(game: Game) -> list[str]:
    """The moves grouped in turns: ``1. J10``, ``2. K11 K9``, ..."""
    history = [str(move) for move in game.history]
    if game.name == "six":
        return [f"{number}. {move}" for number, move in enumerate(history, 1)]
    lines: dict[int, list[str]] = {}
    for number, move in enumerate(history):
        lines.setdefault(turn_of(number), []).append(move)
    return [f"{turn + 1}. {' '.join(moves)}" for turn, moves in lines.items()]
