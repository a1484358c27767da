"""The sixtui application: a home screen (or, online, the lobby), game screens, help, and
a guard against terminals too small to show a board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from rich.console import Console
from textual import events, on
from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import ANSIToTruecolor, LineFilter, Monochrome, NoColor
from textual.screen import Screen

from sixtui.ai.worker import Thinker
from sixtui.rules.records import GameRecord
from sixtui.tui.game_setup import TITLES, GameSetup
from sixtui.tui.online import Online
from sixtui.tui.palettes import color_system_for, no_color_for
from sixtui.tui.presence import Visitor
from sixtui.tui.replay import ReplaySession
from sixtui.tui.screens.dialogs import MIN_HEIGHT, MIN_WIDTH, TooSmallScreen
from sixtui.tui.screens.game import GameScreen
from sixtui.tui.screens.help import HelpScreen
from sixtui.tui.screens.home import HomeScreen
from sixtui.tui.screens.lobby import LobbyScreen
from sixtui.tui.screens.naming import NameScreen
from sixtui.tui.screens.replay import ReplayScreen
from sixtui.tui.stylesheet import SharedStylesheet
from sixtui.tui.textual_internals import (
    disable_tooltips,
    keep_strips_acyclic,
    line_filters,
    make_strip_caches_on_use,
)

# Every app of the process draws with strips that the garbage collector need not free,
# and whose caches are made only when used.
keep_strips_acyclic()
make_strip_caches_on_use()

# Each theme's CSS variables, by the theme's name: sixtui registers no themes of its own.
_THEME_VARIABLES: dict[str, dict[str, str]] = {}


class SixtuiApp(App[None]):
    """Plays one table at a time: opened on ``setup``, or on the home screen to choose one,
    or, ``online``, in the lobby, where players meet and are seated at shared tables; or
    shows the recorded game ``replay`` move by move.

    ``thinker`` runs the computer players and the turns suggested to people (made on
    first need if not given, and then closed with the app); ``computer_pause`` is the
    least time a computer turn takes on screen, so people can follow it. ``terminal``
    describes the terminal the app draws on (``TERM``, ``COLORTERM``, ``NO_COLOR``) when
    it is not the one this process runs in, as for a player connected over SSH, and
    ``player`` who is at it. ``online`` is closed by whoever made it, once the app has ended.
    """

    CSS_PATH = "sixtui.tcss"
    TITLE = "sixtui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+c", "quit", "Quit", show=False)]

    def __init__(
        self,
        setup: GameSetup | None = None,
        thinker: Thinker | None = None,
        computer_pause: float = 0.4,
        terminal: Mapping[str, str] | None = None,
        player: Visitor | None = None,
        online: Online | None = None,
        replay: GameRecord | None = None,
    ) -> None:
        super().__init__()
        self.stylesheet = SharedStylesheet(variables=self.get_css_variables())
        # sixtui has no tooltips; unless told so, Textual adds one to every screen.
        disable_tooltips(self)
        self.color_system = self.console.color_system
        """The colors of the terminal drawn on: 'standard' (16), '256' or 'truecolor'."""
        if terminal is not None:
            self._use_terminal(terminal)
        self.setup = setup
        self._thinker = thinker
        self._own_thinker = thinker is None
        self.computer_pause = computer_pause
        self.player = player
        self.online = online
        self.replay = replay
        self._opened_from_home = setup is None and replay is None
        self._too_small: TooSmallScreen | None = None
        self._keep_named_colors()

    def _use_terminal(self, terminal: Mapping[str, str]) -> None:
        """Colors as ``terminal`` has them: Textual read this process's own environment.

        The app still renders in 24-bit color, and its driver is expected to bring the
        colors down to ``color_system``: Rich keeps a style's escape codes on the style,
        shared by every app in the process, so apps in one process cannot each render
        in their own color system."""
        self.no_color = no_color_for(terminal)
        self.color_system = color_system_for(terminal)
        filters = line_filters(self)
        filters[:] = [
            line_filter
            for line_filter in filters
            if not isinstance(line_filter, (NoColor, Monochrome))
        ]
        if self.no_color:
            filters.append(NoColor() if self.native_ansi_color else Monochrome())
        self.console = Console(
            color_system="truecolor",
            file=self.console.file,
            markup=True,
            highlight=False,
            emoji=False,
            legacy_windows=False,
            force_terminal=True,
            safe_box=False,
            soft_wrap=False,
        )

    def _keep_named_colors(self) -> None:
        """On a 16-color terminal the boards' named colors go out as they are.

        Otherwise Textual turns them into its theme's RGB values first, and the terminal's
        16 colors then match those badly: the yellow board came out bright red."""
        if self.color_system in ("standard", "windows"):
            self.set_reactive(App.ansi_color, True)
            for line_filter in line_filters(self):
                if isinstance(line_filter, ANSIToTruecolor):
                    line_filter.enabled = False

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's line filters but the one from named colors to RGB.

        sixtui draws in RGB on a full-color terminal and in the terminal's own named
        colors on a 16-color one, so that filter would change nothing: it would only copy
        each line every widget draws, and keep the copy beside it, for every player."""
        return [
            line_filter
            for line_filter in super().get_line_filters()
            if not isinstance(line_filter, ANSIToTruecolor)
        ]

    def get_css_variables(self) -> dict[str, str]:
        """Textual's CSS variables for the theme, worked out once per theme in the process
        rather than twice for every app a server starts."""
        name = self.current_theme.name
        variables = _THEME_VARIABLES.get(name)
        if variables is None:
            variables = _THEME_VARIABLES[name] = super().get_css_variables()
        self.theme_variables = dict(variables)
        return dict(variables)

    @property
    def thinker(self) -> Thinker:
        if self._thinker is None:
            self._thinker = Thinker()
        return self._thinker

    def get_default_screen(self) -> Screen[None]:
        if self.setup is None and self.online is None and self.replay is None:
            return HomeScreen()
        return super().get_default_screen()

    async def on_mount(self) -> None:
        if self.setup is not None:
            await self.start_game(self.setup)
        if self.replay is not None:
            await self.push_screen(ReplayScreen(ReplaySession(self.replay), leaves_app=True))
        if self.player is not None and self.player.name_refused is not None:
            await self.push_screen(NameScreen(self.player), self._named)
        elif self.online is not None:
            await self._enter_lobby()
        self._check_size()

    async def _named(self, name: str | None) -> None:
        if self.online is not None:
            await self._enter_lobby()

    async def _enter_lobby(self) -> None:
        """Opens the lobby under the player's name and, over it, the table they left in
        the middle of a game, if any: they are back in their seat."""
        online = self.online
        assert online is not None and self.player is not None
        back_to = await online.table_to_return_to()
        session = await online.open_lobby(self.player.name)
        lobby = LobbyScreen(session)
        await self.push_screen(lobby)
        said = "\n".join(notice for notice in (online.notice, session.greeting) if notice)
        if said:
            lobby.say(said)
        if back_to is not None:
            lobby.open_table(back_to, watching=False)

    @on(LobbyScreen.TableChosen)
    async def _open_table(self, chosen: LobbyScreen.TableChosen) -> None:
        """Opens the table the lobby chose, to play or to watch; the game screen's q
        comes back to the lobby."""
        assert self.online is not None
        try:
            session = await self.online.join_table(chosen.table, chosen.watching)
        except ValueError as why:
            await chosen.lobby.table_not_opened(str(why))
            return
        await self.push_screen(GameScreen(session))

    async def on_unmount(self) -> None:
        if self._own_thinker and self._thinker is not None:
            await self._thinker.close()

    async def start_game(self, setup: GameSetup) -> None:
        """Opens a table for ``setup`` over whatever is on screen."""
        visitor = None if self.player is None else self.player.name
        # Every table gets the thinker, for the turns it suggests to people if not for
        # computer seats: its workers start only once it is first asked.
        session = setup.session(self.thinker, self.computer_pause, visitor)
        await self.push_screen(GameScreen(session))
        session.start()

    async def leave_game(self) -> None:
        """Back to the home screen, or out of sixtui if the game was opened directly."""
        if self._opened_from_home:
            self.pop_screen()
        else:
            self.exit()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            game = getattr(self.screen, "session", None)
            section = TITLES[game.game.name] if game is not None else None
            self.push_screen(HelpScreen(section))

    def push_screen(self, screen, *args, **kwargs):  # type: ignore[no-untyped-def,override]
        """Pushes ``screen``; while the terminal is too small the cover stays on top of it."""
        covering = self._too_small
        if covering is None or screen is covering or self.screen is not covering:
            return super().push_screen(screen, *args, **kwargs)
        self.pop_screen()
        pushed = super().push_screen(screen, *args, **kwargs)
        self._too_small = TooSmallScreen()
        super().push_screen(self._too_small)
        return pushed

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int | None = None, height: int | None = None) -> None:
        if width is None or height is None:
            width, height = self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if small and self._too_small is None:
            self._too_small = TooSmallScreen()
            self.push_screen(self._too_small)
        elif not small and self._too_small is not None:
            self._too_small = None
            self.pop_screen()
