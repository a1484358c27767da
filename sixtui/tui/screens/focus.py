"""A screen whose focus moves without the whole screen being drawn again."""

from __future__ import annotations

from typing import TypeVar

from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

ResultType = TypeVar("ResultType")


class FocusScreen(Screen[ResultType]):
    """A screen that draws, when the focus moves, only the widgets it moves between.

    Textual's ``Screen.focused`` repaints the whole screen whenever it changes, although
    a widget gaining or losing the focus draws itself again anyway: on a game screen every
    turn typed moved the focus twice (to the move line and back to the board), and each
    time wrote the whole screen to the player's terminal.
    """

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
