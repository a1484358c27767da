"""The lobby's widgets, each a few lines drawn through the line API: the pools, the list
of challenges, games and people, the chat, and single lines of text.

What players wrote (names, chat) is drawn as plain segments, never read as markup, and
measured in terminal cells, since a wide character takes two.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from typing import ClassVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType

from sixtui.tui.lobby_commands import GameChoice
from sixtui.tui.lobby_session import (
    ChallengeView,
    LobbyView,
    Person,
    PoolView,
    TableView,
)
from sixtui.tui.player_text import cells, cut, fit_cells, wrap_cells
from sixtui.tui.widgets.lines import PAD, Line, LineWidget

Run = tuple[str, str]  # text, and its style names separated by spaces
Row = tuple[str | None, tuple[Run, ...]]  # what the row stands for (None: a heading), its runs

NAME_WIDTH = 12  # cells for a name at the start of a line of the people list
# Rows whose wrapped lines each process keeps for the next drawing: a list is wrapped whole
# to place its rows, and a lobby of 300 people took 4 ms a drawing to wrap, on every screen
# in it at every change.
WRAPPED_KEPT = 1024


def fit_runs(runs: Sequence[Run], width: int, pad: str = PAD) -> Line:
    """``runs`` cut to ``width`` cells (the last one kept ending in …), then padded in the
    style names ``pad``."""
    fitted: list[Run] = []
    used = 0
    for text, names in runs:
        room = width - used
        if room <= 0:
            break
        shown = cut(text, room)
        fitted.append((shown, names))
        used += cells(shown)
    fitted.append((" " * (width - used), pad))
    return tuple(fitted)


CONTINUED = "    "  # what a row's further lines start with
SEPARATOR = "· "  # between the terms of a row
# A word with the spaces (and the separator) before it, or the spaces ending a run.
_PIECES = re.compile(r"\s*(?:· )?\S+|\s+$")


@lru_cache(maxsize=WRAPPED_KEPT)
def wrap_runs(runs: tuple[Run, ...], width: int, pad: str = PAD, most: int = 3) -> tuple[Line, ...]:
    """``runs`` on as many lines of ``width`` cells as they take, up to ``most`` (the last
    cut to fit, ending in …), broken between words (the " · " between two terms is left
    out where the line breaks); the lines after the first are indented (:data:`CONTINUED`),
    and each is padded in ``pad``.

    >>> [
    ...     "".join(text for text, _ in line)
    ...     for line in wrap_runs((("[1] ", "muted"), ("ann – bob · Connect6", "plain")), 14)
    ... ]
    ['[1] ann – bob ', '    Connect6  ']
    """
    lines: list[list[Run]] = [[]]
    used = 0
    for text, names in runs:
        for piece in _PIECES.findall(text):
            if used + cells(piece.rstrip()) > width and used > len(CONTINUED) and len(lines) < most:
                lines.append([(CONTINUED, "plain")])
                used = len(CONTINUED)
                piece = piece.lstrip().removeprefix(SEPARATOR)
            line = lines[-1]
            if line and line[-1][1] == names:
                line[-1] = (line[-1][0] + piece, names)
            else:
                line.append((piece, names))
            used += cells(piece)
    return tuple(fit_runs(line, width, pad) for line in lines)


def blank(width: int) -> Line:
    return ((" " * width, PAD),)


class LobbyLines(LineWidget):
    """A line widget whose runs may hold wide characters, and several style names each
    (``"muted current"``: the muted style, on the current line's background). "plain" is
    the widget's own style; each kind declares only the other styles it draws in, since
    every one costs each new screen a styling of its own."""

    COMPONENT_PREFIX = "lobby"

    def _style(self, names: str) -> Style:
        style = self._component_styles.get(names)
        if style is None:
            style = self.rich_style
            for name in names.split():
                if name != "plain":
                    style += self.get_component_rich_style(f"lobby--{name}")
            self._component_styles[names] = style
        return style

    def _changed_cells(self, before: Line, after: Line, width: int) -> tuple[int, int]:
        # A run's place on the line is not its count of characters here (an accent
        # written apart takes no cell, a wide character two): the whole line is refreshed.
        return 0, width


class TextLine(LobbyLines):
    """Text in one style on one line, cut to fit: the lobby's title; or, for its message,
    on as many lines as it takes, up to ``most`` (what is beyond them is cut)."""

    DEFAULT_CSS = "TextLine { height: 1; }"
    COMPONENT_CLASSES: ClassVar[set[str]] = {"lobby--header", "lobby--warning"}

    def __init__(self, style: str = "plain", most: int = 1, **options: str) -> None:
        super().__init__(**options)
        self.text = ""
        self._names = style
        self._most = most

    def show(self, text: str) -> None:
        self.text = text
        self._fit_height()
        self.sync()

    def on_resize(self) -> None:
        self._fit_height()
        super().on_resize()

    def _fit_height(self) -> None:
        width = self.content_region.width
        if self._most > 1 and width:
            self.styles.height = min(self._most, len(self._wrapped(width)))

    def _wrapped(self, width: int) -> list[str]:
        return [
            line for paragraph in self.text.split("\n") for line in wrap_cells(paragraph, width)
        ] or [""]

    def _lines(self, width: int, height: int) -> list[Line]:
        wrapped = self._wrapped(width) if self._most > 1 else [self.text]
        shown = wrapped[:height]
        if len(wrapped) > height:  # the last line shown says there was more
            shown[-1] = f"{shown[-1]} …"
        lines = [fit_runs([(text, self._names)], width) for text in shown]
        return lines + [blank(width)] * (height - len(lines))


class PickList(LobbyLines, can_focus=True):
    """Rows to pick from with ↑ and ↓ (headings are passed over); the list scrolls to keep
    the current row in view, which is highlighted while the list has the focus."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move(-1)", "Pick", key_display="↑↓"),
        Binding("down,j", "move(1)", "Pick", show=False),
        Binding("pageup", "move(-10)", "Page up", show=False),
        Binding("pagedown", "move(10)", "Page down", show=False),
        Binding("home", "move(-1000000)", "First", show=False),
        Binding("end", "move(1000000)", "Last", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "lobby--header",
        "lobby--muted",
        "lobby--name",
        "lobby--mine",
        "lobby--current",
    }

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.rows: list[Row] = []
        self._current: str | None = None
        self._top = 0  # the first line shown
        self._starts: list[int] = []  # each row's first line, and after them the lines' count

    @property
    def current(self) -> str | None:
        """What the current row stands for; ``None`` when there is nothing to pick."""
        return self._current

    def set_rows(self, rows: list[Row], rather: str | None = None) -> None:
        """New rows; the current row stays the one it was, if it is still there, unless
        the list is not in use and there is a row it had ``rather`` be current."""
        self.rows = rows
        keys = self._keys()
        if rather in keys and not self.has_focus:
            self._current = rather
        elif self._current not in keys:
            self._current = keys[0] if keys else None
        self._moved()

    def _moved(self) -> None:
        """Redraws, and has the keys offered follow the row now current."""
        self.sync()
        self.refresh_bindings()

    def _keys(self) -> list[str]:
        return [key for key, _ in self.rows if key is not None]

    def forget(self) -> None:
        """Lets go of the rows too; the current one stays current once they are back."""
        super().forget()
        self.rows = []

    def action_move(self, step: int) -> None:
        keys = self._keys()
        if not keys:
            return
        place = keys.index(self._current) if self._current in keys else 0
        self._current = keys[max(0, min(len(keys) - 1, place + step))]
        self._moved()

    def on_click(self, event: events.Click) -> None:
        self.focus()
        line = self._top + event.y
        row = bisect_right(self._starts, line) - 1  # in the rows as last drawn
        if 0 <= line < (self._starts or [0])[-1] and row < len(self.rows):
            key = self.rows[row][0]
            if key is not None:
                self._current = key
                self._moved()

    def watch_has_focus(self, has_focus: bool) -> None:
        super().watch_has_focus(has_focus)
        self.sync()

    def _lines(self, width: int, height: int) -> list[Line]:
        lines: list[Line] = []
        starts: list[int] = []
        for key, runs in self.rows:
            starts.append(len(lines))
            if self.has_focus and key is not None and key == self._current:
                current = tuple((text, f"{names} current") for text, names in runs)
                lines += wrap_runs(current, width, pad="current")
            else:
                lines += wrap_runs(runs, width)
        starts.append(len(lines))
        self._starts = starts
        place = next((n for n, (key, _) in enumerate(self.rows) if key == self._current), 0)
        first = starts[place]
        last = starts[place + 1] - 1 if self.rows else first
        # The heading above the first row stays in view with it.
        above = starts[place - 1] if place else 0
        self._top = min(self._top, above, max(0, len(lines) - height))
        self._top = max(self._top, min(first, last - height + 1), 0)
        shown = lines[self._top : self._top + height]
        return shown + [blank(width)] * (height - len(shown))


LABEL_WIDTH = 30  # cells for a pool's name; then how many wait, and for how long
POOL_GROUPS = (
    ("Quick pairing", lambda pool: not pool.choice.six),
    ("Six, two players", lambda pool: pool.choice.six and pool.choice.players == 2),
    ("Six, partners (four players)", lambda pool: pool.choice.six and pool.choice.players == 4),
)


class PoolList(PickList):
    """The pools of quick pairing, Six's by the number of players: how many wait in each,
    and the longest for how long."""

    def show(self, view: LobbyView) -> None:
        rows: list[Row] = []
        for heading, belongs in POOL_GROUPS:
            waiting = ("waiting", "muted") if not rows else ("", PAD)
            rows.append((None, ((fit_cells(heading, LABEL_WIDTH + 2), "header"), waiting)))
            rows += [(pool.choice.key, pool_runs(pool)) for pool in view.pools if belongs(pool)]
        self.set_rows(rows)


def pool_label(choice: GameChoice) -> str:
    """A pool's name under its heading: the board for Connect6 and Game of 6, the ruleset
    for Six; then its clock, and whether it is casual.

    >>> pool_label(GameChoice("six", "romanian", declare=True, clock="5+3", casual=True))
    'romanian, declaring · 5+3 · casual'
    """
    if not choice.six:
        return choice.title
    terms = (f" · {choice.clock}" if choice.clock else "") + (" · casual" if choice.casual else "")
    return choice.ruleset + (", declaring" if choice.declare else "") + terms


def pool_runs(pool: PoolView) -> tuple[Run, ...]:
    """A pool's row: a mark if the player waits there, its name, who waits and how long."""
    mine = "mine" if pool.mine else "plain"
    waiting = f"{pool.waiting:>2} {waited(pool.longest):>4}" if pool.waiting else ""
    return (
        ("● " if pool.mine else "  ", mine),
        (fit_cells(pool_label(pool.choice), LABEL_WIDTH), mine),
        (waiting, "muted"),
    )


def waited(seconds: float) -> str:
    """A wait in few characters.

    >>> waited(4.2), waited(75), waited(4000)
    ('4s', '1m', '1h')
    """
    if seconds < 60:
        return f"{int(seconds)}s"
    if seconds < 3600:
        return f"{int(seconds // 60)}m"
    return f"{int(seconds // 3600)}h"


class LobbyList(PickList):
    """Everything else to pick from: the challenges, the games in progress, the people."""

    def show(self, view: LobbyView) -> None:
        rows: list[Row] = []
        if view.challenges:
            rows.append((None, (("Challenges", "header"),)))
            rows += [(f"challenge:{c.id}", challenge_runs(c, view.me)) for c in view.challenges]
        if view.tables:
            rows.append((None, (("Games", "header"), ("  Enter watches", "muted"))))
            rows += [(f"table:{table.id}", table_runs(table, view.me)) for table in view.tables]
        rows.append((None, (("People", "header"), (f"  {len(view.people)} here", "muted"))))
        rows += [(f"person:{person.name}", person_runs(person, view.me)) for person in view.people]
        self.set_rows(rows, rather=worth_picking_first(view))


def worth_picking_first(view: LobbyView) -> str | None:
    """The row the list comes to first: a challenge to answer, else the player's own game,
    else the first game to watch, else the first other player."""
    answer = [f"challenge:{c.id}" for c in view.challenges if c.to_me]
    own = [f"table:{t.id}" for t in view.tables if plays_at(t, view.me)]
    games = [f"table:{t.id}" for t in view.tables]
    others = [f"person:{p.name}" for p in view.people if p.name != view.me]
    return next(iter(answer + own + games + others), None)


def challenge_runs(challenge: ChallengeView, me: str) -> tuple[Run, ...]:
    def side(names: tuple[str, ...]) -> str:
        return " & ".join("you" if name == me else name for name in names)

    style = "mine" if challenge.to_me else "plain"
    return (
        (f"{side(challenge.challengers)} → {side(challenge.challenged)}: ", style),
        (challenge.choice.title, "muted"),
    )


def table_runs(table: TableView, me: str) -> tuple[Run, ...]:
    """A game in progress: its number (``watch NUMBER``), its players with their ratings,
    the score, the game, its clock and whether it is casual; the player's own is marked
    (as their pool is), the one Enter takes them back to."""
    first, second = (
        " & ".join(_rated_name(name, ratings, seat) for seat, name in enumerate(side))
        for side, ratings in zip(table.sides, table.ratings, strict=True)
    )
    score = f" {table.wins[0]}–{table.wins[1]}" if any(table.wins) else ""
    terms = "".join(
        f" · {term}" for term in (table.clock, "casual" if table.casual else "") if term
    )
    mine = plays_at(table, me)
    return (
        *((("● ", "mine"),) if mine else ()),
        (f"[{table.id}] ", "muted"),
        (f"{first} – {second}", "mine" if mine else "plain"),
        (f"{score} · {table.title}{terms}", "muted"),
    )


def _rated_name(name: str, ratings: tuple[str, ...], seat: int) -> str:
    rating = ratings[seat] if seat < len(ratings) else ""
    return f"{name} {rating}" if rating else name


def plays_at(table: TableView, name: str) -> bool:
    """Whether ``name`` holds a seat at ``table``."""
    return any(name in side for side in table.sides)


DOING = {"lobby": "in the lobby", "waiting": "waits:", "playing": "plays", "watching": "watches"}


def person_runs(person: Person, me: str) -> tuple[Run, ...]:
    """A person's row: their name, their rating while they wait, their partner, and what
    they are doing."""
    name = cut(person.name, NAME_WIDTH)
    partner = f"with {person.partner}, " if person.partner else ""
    doing = DOING[person.doing] + (f" {person.what}" if person.what else "")
    rating = f"{person.rating} " if person.rating else ""
    return (
        (name, "mine" if person.name == me else "name"),
        (" " * (NAME_WIDTH + 1 - cells(name)), "plain"),
        (rating, "muted"),
        (partner, "muted"),
        (doing, "plain"),
    )


class ChatLog(LobbyLines):
    """The chat, the newest line at the foot, each broken to the width."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"lobby--name"}

    def __init__(self, **options: str) -> None:
        super().__init__(**options)
        self.said: Sequence[tuple[str, str]] = ()

    def show(self, view: LobbyView) -> None:
        self.said = [(line.name, line.text) for line in view.chat]
        self.sync()

    def forget(self) -> None:
        super().forget()
        self.said = ()

    def _lines(self, width: int, height: int) -> list[Line]:
        lines: list[Line] = []
        for name, text in reversed(self.said):
            broken = wrap_cells(f"{name}: {text}", width)
            said = [fit_runs([(line, "plain")], width) for line in broken]
            if broken[0].startswith(name):
                said[0] = fit_runs([(name, "name"), (broken[0][len(name) :], "plain")], width)
            lines[:0] = said
            if len(lines) >= height:
                break
        lines = lines[-height:]
        return [blank(width)] * (height - len(lines)) + lines
