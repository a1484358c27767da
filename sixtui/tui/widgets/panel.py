"""The side panel: who plays (and, online, who is away and for how long), each team's
pieces in Six, whose turn it is, the score, the moves so far and, online, the chat."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from math import ceil
from typing import ClassVar

from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType

from sixtui.rules import Game, Move, Result
from sixtui.tui.chat import ChatLine
from sixtui.tui.game_setup import TITLES
from sixtui.tui.palettes import Look, look_of, team_names
from sixtui.tui.player_text import cells, fit_cells, wrap_cells
from sixtui.tui.session import GameSession, Player
from sixtui.tui.widgets.lines import PAD, Line, LineWidget, fit, wrap
from sixtui.tui.widgets.square_board import turn_of

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
LOOK = "look:"  # style names of pieces, drawn as on the board
MESSAGE_LINES = 5  # at most; the moves and the chat get what the message leaves
WATCHING = " (watching)"  # after a name in the spectators' chat
STATUS_LINES = 3  # a result naming two partners and why takes three
LOW_TIME = 30.0  # seconds left from which a clock is drawn as a warning

# Each ruleset of Six as the panel's title names it, in full and, for a title too long, short.
RULESET_TITLES = {
    "steffen": ("Steffen", "Steffen"),
    "romanian": ("Romanian", "Romanian"),
    "romanian-advanced": ("Romanian advanced", "Romanian adv."),
}

# Why a side won, said of the winners; why a game was drawn.
WON_BY = {
    "six-in-a-row": "six in a row",
    "colored-cells": "six colored cells",
    "row": "a row of six",
    "triangle": "a triangle of six",
    "circle": "a circle of six",
    "too-few-pieces": "the other side has too few pieces",
    "resign": "the other side resigned",
    "left": "the other side left the game",  # online tables only
    "time": "the other side ran out of time",  # online tables with a clock only
}
# How a game was lost, said of the side that lost it, where the winners' words would say
# it of "the other side".
LOST_BY = {"resign": "resigned", "left": "left the game", "time": "ran out of time"}
DRAWN_BY = {
    "board-full": "the board is full",
    "too-few-pieces": "both sides have too few pieces",
    "repetition": "the same position a third time",
    "no-moves": "nobody can move",
    "agreement": "both sides agreed",  # online tables only
    "time": "time ran out, and the other side could no longer win",
}


def names_of(players: Sequence[Player], within: bool = False) -> str:
    """A side's players in words: "You", "Player 1 and Player 3"; "you" ``within`` a
    sentence."""
    names = " and ".join(player.name for player in players)
    return "you" if within and names == "You" else names


def verb_for(players: Sequence[Player], verb: str) -> str:
    """``verb`` ("win") as said of ``players``: "wins" of one other than "You"."""
    return verb if len(players) > 1 or players[0].name == "You" else f"{verb}s"


def result_line(session: GameSession, result: Result) -> str:
    """The result in words: who won, as which color where the rules name one, and why."""
    if result.winner is None:
        return f"Draw: {DRAWN_BY[result.reason]}"
    winners = session.sides[session.side_of_team(result.winner)]
    colors = team_names(session.game)
    color = f" as {colors[result.winner]}" if colors else ""
    how = WON_BY[result.reason]
    losers = session.sides[session.side_of_team(1 - result.winner)]
    if result.reason in LOST_BY and len(losers) == 1:  # "ann resigned"; partners: too long
        how = f"{names_of(losers, within=True)} {LOST_BY[result.reason]}"
    return f"{names_of(winners)} {verb_for(winners, 'win')}{color}: {how}"


def table_title(game: Game, width: int) -> str:
    """The game's name; for Six its ruleset too, and whether declaring is on, in
    ``width`` cells where the short form of the ruleset's name allows.

    >>> from sixtui.rules import new_game
    >>> table_title(new_game("six", ruleset="romanian", declare=True), 31)
    'Six · Romanian · declaring'
    >>> table_title(new_game("six", ruleset="romanian-advanced", declare=True), 31)
    'Six · Romanian adv. · declaring'
    """
    if game.name != "six":
        return TITLES[game.name]
    options = game.options()
    declaring = " · declaring" if options["declare"] else ""
    full, short = RULESET_TITLES[options["ruleset"]]
    title = f"Six · {full}{declaring}"
    return title if len(title) <= width else f"Six · {short}{declaring}"


def seat_lines(session: GameSession, look: Look, width: int) -> list[Line]:
    """One line per seat: the seat's piece, its player, and what the seat has of its own
    (or, online, how long its player has left to come back).

    Whose turn it is shows on the status line, so that a turn passing redraws one
    line of the panel rather than two.
    """
    game = session.game
    away = session.away
    lines: list[Line] = []
    for seat in range(game.players):
        team = seat % 2
        player = session.player_at(seat)
        name = f" {player.name}"
        gone = away.get(player.name)
        clock = _clock_run(session, seat)
        room = max(0, width - 1 - (len(clock[0]) + 1 if clock else 0))
        detail = seat_details(
            room - len(name) - 2,
            player.rating,
            # once the game is over, nobody waits for them
            None if gone is None else "left" if game.is_over else gone,
            _whose(session.own_seats, seat),
            _seat_detail(game, seat),
        )
        text = fit(name + (f"  {detail}" if detail else ""), room)
        line: Line = (
            (look.piece[team], f"{LOOK}team{team}"),
            (text[: len(name)], "plain"),
            (text[len(name) :], "muted"),
        )
        lines.append((*line, (" ", "muted"), clock) if clock else line)
    return lines


def _clock_run(session: GameSession, seat: int) -> tuple[str, str] | None:
    """The clock of ``seat``'s side, as drawn: the player's own emphasized, and any
    clock in a warning style once under :data:`LOW_TIME` seconds."""
    side = session.side_of_team(seat % 2)
    left = session.clock_left(side)
    if left is None:
        return None
    own = any(session.side_of_team(mine % 2) == side for mine in session.own_seats)
    style = "clock-low" if left < LOW_TIME else "clock-own" if own else "clock"
    return clock_text(left), style


def clock_text(seconds: float) -> str:
    """Time left as a clock shows it: minutes and the second it is in.

    >>> clock_text(754.2), clock_text(59.0), clock_text(0.4), clock_text(-3.0)
    ('12:35', '0:59', '0:01', '0:00')
    """
    whole = ceil(max(0.0, seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def seat_details(room: int, rating: str, away: float | str | None, whose: str, own: str) -> str:
    """What a seat's line says after its player's name, in ``room`` characters if it can:
    their ``rating``, the seconds they have left to come back while ``away`` (or that
    they "left"), ``whose`` seat it is and what the seat has of its ``own``. What matters
    least goes first when it does not all fit: the rating, then whose seat, then the
    words around the countdown.

    >>> seat_details(50, "1512", 41.2, "you", "3 colored")
    '1512 · away · 42 s to come back · you · 3 colored'
    >>> seat_details(40, "1512", 41.2, "you", "3 colored")
    'away · 42 s to come back · 3 colored'
    >>> seat_details(22, "1512", 8.5, "your partner", "3 colored")
    'away 9 s · 3 colored'
    >>> seat_details(22, "1512", 0.0, "your partner", "3 colored")
    'time is up · 3 colored'
    >>> seat_details(22, "1512", None, "your partner", "3 colored")
    '3 colored'
    """
    long_away = short_away = away if isinstance(away, str) else None
    if isinstance(away, float | int):
        long_away, short_away = away_detail(away), away_detail(away, short=True)
    tries = (
        (rating, long_away, whose, own),
        (long_away, whose, own),
        (long_away, own),
        (short_away, own),
    )
    for parts in tries:
        text = " · ".join(part for part in parts if part)
        if len(text) <= room:
            return text
    return text


def away_detail(left: float, short: bool = False) -> str:
    """What a seat whose player is away says: the seconds they have left to come back
    (``short``: in as few words as will do).

    >>> away_detail(41.2), away_detail(41.2, short=True), away_detail(0.0, short=True)
    ('away · 42 s to come back', 'away 42 s', 'time is up')
    """
    if short:
        return f"away {ceil(left)} s" if left > 0 else "time is up"
    return f"away · {ceil(left)} s to come back" if left > 0 else "away · time is up"


def _whose(own_seats: tuple[int, ...], seat: int) -> str:
    """Which seat is the player's own, and which their partner's, at a table shared online.

    >>> _whose((1,), 1), _whose((1,), 3), _whose((1,), 0), _whose((), 0)
    ('you', 'your partner', '', '')
    """
    if seat in own_seats:
        return "you"
    if any(seat % 2 == own % 2 for own in own_seats):
        return "your partner"
    return ""


def _seat_detail(game: Game, seat: int) -> str:
    if game.name == "six" and game.players == 4 and not game.rules.shared_team_pool:  # type: ignore[attr-defined]
        return f"{game.in_hand(seat)} in hand"  # type: ignore[attr-defined]
    if game.name == "gameof6":
        return f"{game.colored_count(seat)} colored"  # type: ignore[attr-defined]
    return ""


def team_lines(game: Game, look: Look, width: int) -> list[Line]:
    """Six: each team's pieces in hand (its partners' supply, shared or not, counted once)
    and on the table; a team left with five or fewer after a capture loses."""
    if game.name != "six":
        return []
    on_table = Counter(game.layout().values())  # type: ignore[attr-defined]
    lines: list[Line] = []
    for team in (0, 1):
        in_hand = game.pieces(team) - on_table[team]  # type: ignore[attr-defined]
        text = f" {in_hand} in hand · {on_table[team]} on the table"
        lines.append(((look.piece[team], f"{LOOK}team{team}"), (fit(text, width - 1), "muted")))
    return lines


def status_line(session: GameSession, picking: bool, destination: bool, tied: bool) -> str:
    """What happens now, in a few words."""
    game = session.game
    if session.aborted:
        return "the game was aborted: it counts for nobody"
    if session.turn_ready:  # the staged stones may already show a win: not yet sent
        return "your turn is ready: Enter sends it, Esc takes it back"
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
        return f"{player.name}: which group stays?"
    if destination:
        return f"{player.name}: where does it go?"
    if picking:
        return f"{player.name}: lift a piece"
    return f"{player.name}: place a piece"


def score_lines(session: GameSession, look: Look, width: int) -> list[Line]:
    """The match or series so far, each side's wins after the piece it plays this game."""
    match = session.match
    ended = session.game.is_over and not session.turn_ready  # not merely staged to end
    number = len(match.results) + (0 if ended else 1)
    if session.replayed:
        heading = "Replay"
    elif match.games is None:
        heading = f"Game {number}"
    else:
        heading = f"Game {min(number, match.games)} of {match.games}"
    lines = [_score_line(f"{heading} · wins ", match.wins, session, look, width)]
    if match.games is not None and any(result.points for result in match.results):
        lines.append(_score_line("points ", match.points, session, look, width))
    return lines


def _score_line(
    label: str, by_side: tuple[int, int], session: GameSession, look: Look, width: int
) -> Line:
    first, second = (by_side[session.side_of_team(team)] for team in (0, 1))
    middle = f" {first} – {second} "
    return (
        (label, "muted"),
        (look.piece[0], f"{LOOK}team0"),
        (middle, "muted"),
        (look.piece[1], f"{LOOK}team1"),
        (" " * max(0, width - len(label) - len(middle) - 2), "muted"),
    )


def first_shown(count: int, room: int, scrolled_to: int | None) -> int:
    """The first of ``count`` lines shown in ``room``: ``scrolled_to`` if the player
    scrolled there (kept within the lines), else the page that ends with the newest,
    moving on half a page at a time, so that a new line is usually added below the
    others instead of shifting them all."""
    if scrolled_to is not None:
        return min(max(0, scrolled_to), max(0, count - room))
    if count <= room:
        return 0
    if room < 2:
        return count - room
    step = room // 2
    return ((count - room) // step + 1) * step


def chat_lines(said: Sequence[ChatLine], room: int, width: int) -> list[Line]:
    """The newest lines of chat that fit in ``room`` under their heading, each broken to
    ``width`` cells and drawn as plain text, never as markup: the speaker's name, marked
    when said among the spectators, then what they said. Nothing without a line said or
    the room for one."""
    if not said or room < 2:
        return []
    lines: list[Line] = []
    for line in reversed(said):
        lines[:0] = _said_lines(line, width)
        if len(lines) >= room - 1:
            break
    heading: Line = ((fit("Chat", width), "chat-heading"),)
    return [heading, *lines[-(room - 1) :]]


def _said_lines(line: ChatLine, width: int) -> list[Line]:
    """One line of chat, broken to ``width`` cells: the name in its own style on the first,
    and the spectators' in a quieter one than the players'."""
    text = "chat-aside" if line.spectators else "chat-text"
    name = line.name + (WATCHING if line.spectators else "")
    broken = wrap_cells(f"{name}: {line.text}", width)
    drawn: list[Line] = [((fit_cells(part, width), text),) for part in broken]
    if broken[0].startswith(line.name):
        rest = broken[0][len(line.name) :]
        drawn[0] = ((line.name, "chat-name"), (fit_cells(rest, width - cells(line.name)), text))
    return drawn


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
        if not goes_on_from(game, self._game) or history[:known] != self._moves:
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


def goes_on_from(game: Game, before: Game | None) -> bool:
    """Whether ``game`` is ``before`` or the same game a few moves on (or back), as an online
    table sends it anew with every change.

    >>> from sixtui.rules import new_game
    >>> a, b = new_game("connect6"), new_game("connect6")
    >>> a.play("J10"); b.play("J10"); b.play("K10")
    >>> goes_on_from(b, a), goes_on_from(a, b), goes_on_from(new_game("connect6"), a)
    (True, True, False)
    """
    if before is None or game.name != before.name:
        return False
    if game is before:
        return True
    shorter, longer = sorted((game.history, before.history), key=len)
    return bool(shorter) and longer[: len(shorter)] == shorter


class SidePanel(LineWidget, can_focus=True):
    """The panel beside the board, drawn line by line like the board itself.

    The screen tells it the status line and the latest message; the rest it
    reads from the session: the game and its options, seats, pieces, score and
    the moves so far. The move list follows the newest move until the player
    scrolls it back (mouse wheel, or the arrow, page, Home and End keys while the
    panel has focus); End, or scrolling down to the newest, follows again.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "scroll_moves(-1)", "Scroll moves", key_display="↑↓"),
        Binding("down,j", "scroll_moves(1)", "Scroll moves", show=False),
        Binding("pageup", "scroll_moves(-1, True)", "Page up", show=False),
        Binding("pagedown", "scroll_moves(1, True)", "Page down", show=False),
        Binding("home", "first_moves", "First moves", show=False),
        Binding("end", "latest_moves", "Latest moves", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "side-panel--title",
        "side-panel--status",
        "side-panel--muted",
        "side-panel--message",
        "side-panel--chat-heading",
        "side-panel--chat-name",
        "side-panel--chat-text",
        "side-panel--chat-aside",
        "side-panel--clock",
        "side-panel--clock-own",
        "side-panel--clock-low",
    }
    WHEEL_LINES = 2

    def __init__(self, session: GameSession, **options: object) -> None:
        super().__init__(**options)
        self.session = session
        self.status = ""
        self.message = ""
        self.tick = 0
        self._styles: dict[str, Style] = {}
        self._turn_lines = TurnLines()
        self._scrolled_to: int | None = None  # the first move line shown, unless following
        self._moves_shown = (0, 0, 0)  # first line, lines in all, room: as last drawn
        self._game: Game | None = None
        self._status_room = 1  # lines: the most the game's status has taken so far

    def show(self, status: str | None = None, message: str | None = None) -> None:
        """Redraws with a new status or message (``None`` keeps the one shown)."""
        if status is not None:
            self.status = status
        if message is not None:
            self.message = message
        self.sync()

    # -- scrolling the moves -------------------------------------------------------------

    def action_scroll_moves(self, lines: int, pages: bool = False) -> None:
        first, count, room = self._moves_shown
        target = min(first, max(0, count - room)) + (lines * max(1, room) if pages else lines)
        self._scrolled_to = max(0, target) if target < count - room else None
        self.sync()

    def action_first_moves(self) -> None:
        self._scrolled_to = 0
        self.sync()

    def action_latest_moves(self) -> None:
        self._scrolled_to = None
        self.sync()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.action_scroll_moves(-self.WHEEL_LINES)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.action_scroll_moves(self.WHEEL_LINES)

    # -- drawing -------------------------------------------------------------------------

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
        """The status, after the piece of the seat to move while the game runs; as many
        lines as the game's longest status so far took, so that a turn passing ("ann to
        move", then "bob: place two stones") redraws the status alone, not every line below."""
        game = self.session.game
        status = self.status
        if self.session.thinking and not game.is_over:
            status += f" {SPINNER[self.tick % len(SPINNER)]}"
        texts = wrap(status, width - 2)[:STATUS_LINES] or [""]
        if not game.history:  # a game begins
            self._status_room = 1
        self._status_room = max(self._status_room, len(texts))
        texts += [""] * (self._status_room - len(texts))
        lines: list[Line] = [((fit(text, width), "status"),) for text in texts]
        # ready: the mover is shown; aborted: nobody moves
        if not game.is_over and not self.session.turn_ready and not self.session.aborted:
            team = game.to_move % 2
            glyph = look_of(self.app, game).piece[team]
            lines[0] = ((glyph, f"{LOOK}team{team}"), (fit(f" {texts[0]}", width - 1), "status"))
        return lines

    def _changed_cells(self, before: Line, after: Line, width: int) -> tuple[int, int]:
        # A line of chat may hold characters two cells wide, or none (an accent written
        # apart): its runs' places are not their counts of characters, so all of it is
        # refreshed.
        if any(cells(text) != len(text) for line in (before, after) for text, _ in line):
            return 0, width
        return super()._changed_cells(before, after, width)

    def _move_lines(self, room: int, width: int) -> list[Line]:
        """The moves that fit in ``room``; an arrow in the last column says that there
        are more above or below."""
        game = self.session.game
        if game is not self._game:
            # Online, every new state brings a new game object: only a game that does not
            # go on from the one shown (the next game, say) brings the list back to its end.
            if not goes_on_from(game, self._game):
                self._scrolled_to = None
            self._game = game
        turns = self._turn_lines.update(game)
        count = len(turns)
        first = first_shown(count, room, self._scrolled_to)
        shown = turns[first : first + room]
        self._moves_shown = (first, count, room)
        lines = []
        for number, text in enumerate(shown):
            mark = " "
            if number == 0 and first > 0:
                mark = "↑"
            elif number == len(shown) - 1 and first + len(shown) < count:
                mark = "↓"
            lines.append(((fit(text, width - 1), "plain"), (mark, "muted")))
        return lines

    def _lines(self, width: int, height: int) -> list[Line]:
        def line(text: str, names: str = "plain") -> Line:
            return ((fit(text, width), names),)

        game = self.session.game
        look = look_of(self.app, game)
        blank = line("")
        terms = self.session.terms
        if self.session.watching:
            terms = f"you are watching · {terms}" if terms else "you are watching"
        watching = line(terms, "muted") if terms else blank
        top = [line(table_title(game, width), "title"), watching]
        top += seat_lines(self.session, look, width)
        teams = team_lines(game, look, width)
        if teams:
            top += [blank, *teams]
        top.append(blank)
        top += self._status_lines(width)
        top.append(blank)
        top += score_lines(self.session, look, width)
        top.append(blank)
        message = wrap(self.message, width)[:MESSAGE_LINES]
        room = max(0, height - len(top) - len(message))
        # The chat takes what the moves leave, and half the room once they need more.
        turns = len(self._turn_lines.update(game))
        chat = chat_lines(self.session.chat_lines, max(room // 2, room - turns), width)
        lines = top + self._move_lines(room - len(chat), width)
        lines += [blank] * (height - len(message) - len(chat) - len(lines))
        lines += chat
        lines += [line(text, "message") for text in message]
        lines += [((" " * width, PAD),)] * (height - len(lines))
        return lines[:height]
