"""The side panel: who plays, whose turn it is, the score, and the moves so far."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style

from sixtui.rules import Game, Move, Result
from sixtui.tui.palettes import Look, look_of, team_names
from sixtui.tui.session import GameSession
from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit, wrap
from sixtui.tui.widgets.square_board import turn_of

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
LOOK = "look:"  # style names of pieces, drawn as on the board
MESSAGE_LINES = 5  # at most; the moves get what the message leaves
STATUS_LINES = 2

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


def seat_lines(session: GameSession, look: Look, width: int, tick: int = 0) -> list[Line]:
    """One line per seat: the seat's piece, its player, and what it has left.

    Whose turn it is shows on the status line, so that a turn passing redraws one
    line of the panel rather than two.
    """
    game = session.game
    lines: list[Line] = []
    for seat in range(game.players):
        team = seat % 2
        name = f" {session.player_at(seat).name}"
        detail = _seat_detail(game, seat)
        if seat == game.to_move and session.thinking:
            detail = f"{detail}  {SPINNER[tick % len(SPINNER)]} thinking".strip()
        text = fit(name + (f"  {detail}" if detail else ""), max(0, width - 1))
        lines.append(
            (
                (look.piece[team], f"{LOOK}team{team}"),
                (text[: len(name)], "plain"),
                (text[len(name) :], "muted"),
            )
        )
    return lines


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
        piece = "stone" if game.name == "connect6" else "dot"
        return f"{player.name}: place {f'a {piece}' if stones == 1 else f'two {piece}s'}"
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


def page_of(lines: list[str], room: int) -> list[str]:
    """The newest ``lines`` that fit in ``room``, moving on half a page at a time, so
    that a new line is usually added below the others instead of shifting them all."""
    if len(lines) <= room:
        return lines
    if room < 2:
        return lines[len(lines) - room :]
    step = room // 2
    first = ((len(lines) - room) // step + 1) * step
    return lines[first : first + room]


class TurnLines:
    """The moves so far grouped in turns (``1. J10``, ``2. K11 K9``; in Six one move a
    turn), kept up to date move by move rather than written out anew for every move."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._moves: list[Move] = []
        self._turns: list[list[str]] = []
        self.lines: list[str] = []

    def update(self, game: Game) -> list[str]:
        history = game.history
        known = len(self._moves)
        if game is not self._game or history[:known] != self._moves:
            self._game, self._moves, self._turns, self.lines = game, [], [], []
            known = 0
        for number in range(known, len(history)):
            turn = number if game.name == "six" else turn_of(number)
            if turn == len(self._turns):
                self._turns.append([])
                self.lines.append("")
            self._turns[turn].append(str(history[number]))
            self.lines[turn] = f"{turn + 1}. {' '.join(self._turns[turn])}"
        self._moves = history
        return self.lines


class SidePanel(LineWidget):
    """The panel beside the board, drawn line by line like the board itself.

    The screen tells it the status line and the latest message; the rest it
    reads from the session: seats, score and the moves so far (the newest at
    the bottom, as many as fit).
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "side-panel--title",
        "side-panel--status",
        "side-panel--muted",
        "side-panel--message",
    }

    def __init__(self, session: GameSession, title: str, **options: object) -> None:
        super().__init__(**options)
        self.session = session
        self.title = title
        self.status = ""
        self.message = ""
        self.tick = 0
        self._styles: dict[str, Style] = {}
        self._turn_lines = TurnLines()

    def show(self, status: str | None = None, message: str | None = None) -> None:
        """Redraws with a new status or message (``None`` keeps the one shown)."""
        if status is not None:
            self.status = status
        if message is not None:
            self.message = message
        self.sync()

    def _style(self, names: str) -> Style:
        if names.startswith(LOOK):
            return look_of(self.app, self.session.game).style(names[len(LOOK) :])
        style = self._styles.get(names)
        if style is None:
            style = self.rich_style
            if names != "plain":
                style += self.get_component_rich_style(f"side-panel--{names}")
            self._styles[names] = style
        return style

    def _status_lines(self, width: int) -> list[Line]:
        """The status, after the piece of the seat to move while the game runs."""
        game = self.session.game
        texts = wrap(self.status, width - 2)[:STATUS_LINES] or [""]
        lines: list[Line] = [((fit(text, width), "status"),) for text in texts]
        if not game.is_over:
            team = game.to_move % 2
            glyph = look_of(self.app, game).piece[team]
            lines[0] = ((glyph, f"{LOOK}team{team}"), (fit(f" {texts[0]}", width - 1), "status"))
        return lines

    def _lines(self, width: int, height: int) -> list[Line]:
        def line(text: str, names: str = "plain") -> Line:
            return ((fit(text, width), names),)

        blank = line("")
        top = [line(self.title, "title"), blank]
        top += seat_lines(self.session, look_of(self.app, self.session.game), width, self.tick)
        top.append(blank)
        top += self._status_lines(width)
        top.append(blank)
        for text in score_line(self.session).split("\n"):
            top += [line(part, "muted") for part in wrap(text, width)]
        top.append(blank)
        message = wrap(self.message, width)[:MESSAGE_LINES]
        room = max(0, height - len(top) - len(message))
        moves = page_of(self._turn_lines.update(self.session.game), room)
        lines = top + [line(text) for text in moves]
        lines += [blank] * (height - len(message) - len(lines))
        lines += [line(text, "message") for text in message]
        lines += [((" " * width, PAD),)] * (height - len(lines))
        return lines[:height]
