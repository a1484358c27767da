"""How the boards look: the glyphs and styles of pieces, marks and cursor.

Three palettes: full color (truecolor, and 256 colors, where each color below
has a close match), 16 colors (the terminal's own named colors, since the
nearest 16-color match of a wood tone is a pale gray that hides white stones),
and plain for ``NO_COLOR``, where glyphs alone tell every side and mark apart
(colors are stripped then; bold, underline and reverse stay).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Literal

from rich.style import Style
from textual.app import App

from sixtui.rules import Game

Palette = Literal["full", "16", "plain"]

# name: (full color, 16 colors, plain); the board's wood is #d7af5f, 179 in 256 colors.
_STYLES: dict[str, tuple[str, str, str]] = {
    "board": ("on #d7af5f", "on yellow", ""),
    "label": ("bold #5f3700 on #d7af5f", "bold black on yellow", "bold"),
    "grid": ("#875f00 on #d7af5f", "black on yellow", ""),
    "hint": ("bold #005f00 on #d7af5f", "bold blue on yellow", "bold"),
    # A suggested turn, both shaded alike: where it puts pieces, and the piece it lifts.
    "suggest": ("bold #870087 on #d7afff", "bold black on bright_magenta", "bold"),
    "lift": ("on #d7afff", "on bright_magenta", "underline"),
    "cursor": ("on #0087ff", "on blue", "reverse"),
    "last": ("bold", "bold", "bold"),
    "win": ("on #5fd75f", "on green", "underline"),
    "pick": ("on #ff5fff", "on magenta", "reverse"),
    "group": ("on #87d7ff", "on cyan", "underline"),
    "dead": ("#af0000", "red", ""),
    "captured": ("bold #af0000", "bold red", "bold"),
}
_STONES = {
    "Black": ("#000000 on #d7af5f", "black on yellow"),
    "White": ("#ffffff on #d7af5f", "bright_white on yellow"),
    "Red": ("#d70000 on #d7af5f", "bright_red on yellow"),
}
_COLORED_CELLS = {
    "Black": ("on #585858", "on bright_black"),
    "White": ("on #eeeeee", "on white"),
    "Red": ("on #ff8787", "on red"),
}


def team_names(game: Game) -> tuple[str, str] | None:
    """The names the rules give the two teams' colors: Connect6 and the Romanian rules
    of Six name them; Game of 6 and Steffen's Six do not, and neither does sixtui."""
    if game.name == "connect6":
        return ("Black", "White")
    if game.name == "six" and game.options()["ruleset"].startswith("romanian"):
        return ("Black", "Red")
    return None


def team_colors(game: Game) -> tuple[str, str]:
    """The colors the two teams' pieces are drawn in, named or not."""
    return team_names(game) or ("Black", "White")


ColorSystem = Literal["standard", "256", "truecolor"]

# Terminals with 24-bit color whose TERM does not say so; over SSH, COLORTERM (which
# would) is rarely sent.
_TRUECOLOR_TERMS = ("xterm-kitty", "alacritty", "wezterm", "foot", "xterm-ghostty", "contour")


def color_system_for(environ: Mapping[str, str]) -> ColorSystem:
    """How many colors the terminal described by ``TERM`` and ``COLORTERM`` shows.

    >>> color_system_for({"TERM": "xterm-256color", "COLORTERM": "truecolor"})
    'truecolor'
    >>> color_system_for({"TERM": "tmux-256color"})
    '256'
    >>> color_system_for({"TERM": "linux"})
    'standard'
    """
    term = environ.get("TERM", "").lower()
    if environ.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return "truecolor"
    if term.endswith(("-direct", "truecolor", "24bit")) or term.startswith(_TRUECOLOR_TERMS):
        return "truecolor"
    return "256" if "256col" in term else "standard"


def no_color_for(environ: Mapping[str, str]) -> bool:
    """Whether the terminal asks for no color: ``NO_COLOR`` set and not empty
    (no-color.org), or a terminal that has none."""
    return bool(environ.get("NO_COLOR")) or environ.get("TERM", "").lower() in ("dumb", "unknown")


def palette_for(no_color: bool, color_system: str | None) -> Palette:
    """The palette for a terminal: ``NO_COLOR`` first, then how many colors it has."""
    if no_color or color_system is None:
        return "plain"
    return "16" if color_system in ("standard", "windows") else "full"


class Look:
    """Glyphs and styles for one palette and one pair of team colors."""

    def __init__(self, palette: Palette, teams: tuple[str, str] = ("Black", "White")) -> None:
        self.palette = palette
        self.teams = teams
        plain = palette == "plain"
        column = {"full": 0, "16": 1, "plain": 2}[palette]
        self.piece = ("●", "○")
        self.last_piece = ("◉", "◎")
        self.fill = ("▓", "░") if plain else (" ", " ")
        self.dead = "×"
        self.captured = "×"  # a cell whose piece the last move captured
        self.suggested = "◇"  # where a suggested turn puts a piece
        self.point = "·"
        self._base = {name: Style.parse(styles[column]) for name, styles in _STYLES.items()}
        for team, color in enumerate(teams):
            stone = "bold" if plain else "bold " + _STONES[color][column]
            colored = "" if plain else _COLORED_CELLS[color][column]
            self._base[f"team{team}"] = Style.parse(stone)
            self._base[f"filled{team}"] = Style.parse(colored)

    @cache  # noqa: B019 - a handful of looks live for the whole process
    def style(self, names: str) -> Style:
        """The style of ``names`` joined by ``+``, later ones drawn over earlier ones."""
        style = Style()
        for name in names.split("+"):
            style += self._base[name]
        return style


@cache
def look_for(palette: Palette, teams: tuple[str, str]) -> Look:
    return Look(palette, teams)


def look_of(app: App[object], game: Game) -> Look:
    """The look for ``game`` in ``app``'s terminal."""
    # A sixtui app knows the colors of the terminal it draws on, which need not be the
    # terminal of this process (over SSH); any other app draws on its console's.
    colors = getattr(app, "color_system", app.console.color_system)
    return look_for(palette_for(app.no_color, colors), team_colors(game))
