"""How the boards look: the glyphs and styles of pieces, marks and cursor.

Two looks: in color, and plain for ``NO_COLOR``, where glyphs alone tell every
side and mark apart (colors are stripped then; bold, underline and reverse stay).
Colors are chosen so that they survive the step down to 256 and 16 colors.
"""

from __future__ import annotations

from functools import cache

from rich.style import Style

from sixtui.rules import Game

BOARD = "#d7af5f"  # the wood of the board; 256 colors: 179, 16 colors: yellow

_TEAM_COLORS = {"Black": "#000000", "White": "#ffffff", "Red": "#d70000"}
_COLORED_CELLS = {"Black": "#585858", "White": "#eeeeee", "Red": "#ff8787"}

_STYLES: dict[str, tuple[str, str]] = {
    # name: (in color, plain)
    "board": (f"on {BOARD}", ""),
    "label": ("bold #5f3700 on " + BOARD, "bold"),
    "grid": ("#875f00 on " + BOARD, ""),
    "hint": ("bold #005f00 on " + BOARD, "bold"),
    "cursor": ("on #0087ff", "reverse"),
    "last": ("bold", "bold"),
    "win": ("on #5fd75f", "underline"),
    "pick": ("on #ff5fff", "reverse"),
    "group": ("on #87d7ff", "underline"),
    "dead": ("#af0000", ""),
}


def team_names(game: Game) -> tuple[str, str]:
    """The colors the rules give the two teams."""
    if game.name == "six" and game.options()["ruleset"].startswith("romanian"):
        return ("Black", "Red")
    return ("Black", "White")


class Look:
    """Glyphs and styles for one way of drawing (``plain``: no color)."""

    def __init__(self, plain: bool, teams: tuple[str, str] = ("Black", "White")) -> None:
        self.plain = plain
        self.teams = teams
        self.piece = ("●", "○")
        self.last_piece = ("◉", "◎")
        self.fill = ("▓", "░") if plain else (" ", " ")
        self.dead = "×"
        self.point = "·"
        self._base = {
            name: Style.parse(both[1] if plain else both[0]) for name, both in _STYLES.items()
        }
        for team, color in enumerate(teams):
            stone = "bold" if plain else f"bold {_TEAM_COLORS[color]} on {BOARD}"
            colored = "" if plain else f"on {_COLORED_CELLS[color]}"
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
def look_for(plain: bool, teams: tuple[str, str]) -> Look:
    return Look(plain, teams)
