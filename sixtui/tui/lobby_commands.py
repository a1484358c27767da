"""The lobby's command line: a line a player types, read into a command, or a
:class:`CommandError` whose one line says what is wrong and what would be right.

Scripts, load bots and tests type these same commands, so their words are part of the
interface: :data:`USAGES` lists them as ``help`` shows them. Reading a line changes
nothing; a lobby session carries the command out.

>>> parse_command("pair six --ruleset romanian --players 4 --clock 10+5").choice.title
'Six romanian, partners · 10+5'
>>> parse_command("/challenge bob conect6")
Traceback (most recent call last):
...
sixtui.tui.lobby_commands.CommandError: no game 'conect6': connect6, gameof6 or six
"""

from __future__ import annotations

import difflib
import re
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sixtui.ai import LEVELS
from sixtui.rules.six import RULESETS
from sixtui.tui.field_lengths import CHAT_LINE, COMMAND_LINE
from sixtui.tui.game_setup import DEFAULT_SIZE, SIZES, TITLES, GameSetup
from sixtui.tui.player_text import shown_word

GAMES = tuple(TITLES)
DEFAULT_LEVEL = "normal"
# How alike a mistyped word must be to a command or option to be offered in its place:
# "pari" is pair, but "hello" is chat rather than help.
CLOSE = 0.75


class CommandError(ValueError):
    """A line that is no command: the message says what is wrong and what would be right."""


MOST_MINUTES = 180  # of a time control
MOST_INCREMENT = 180  # seconds added a turn, at most
_TIME_CONTROL = re.compile(r"([0-9]{1,3})\+([0-9]{1,3})")


def time_control(text: str) -> tuple[int, int] | None:
    """The minutes and the seconds added a turn of a clock written ``MINUTES+SECONDS``, or
    ``None`` for ``none``; :class:`ValueError` saying how to write one otherwise.

    >>> time_control("10+5"), time_control("none")
    ((10, 5), None)
    >>> time_control("5")
    Traceback (most recent call last):
    ...
    ValueError: a clock is written MINUTES+SECONDS, like 5+5, or none: not '5'
    """
    if text.strip().lower() == "none":
        return None
    found = _TIME_CONTROL.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"a clock is written MINUTES+SECONDS, like 5+5, or none: not {text!r}")
    minutes, increment = int(found[1]), int(found[2])
    if not 0 < minutes <= MOST_MINUTES or increment > MOST_INCREMENT:
        raise ValueError(
            f"a clock has 1 to {MOST_MINUTES} minutes and at most {MOST_INCREMENT} seconds"
            f" added a turn, not {text.strip()}"
        )
    return minutes, increment


@dataclass(frozen=True)
class GameChoice:
    """A game and its options, as ``pair``, ``challenge`` and ``play`` ask for one; a
    pool of quick pairing is one of these. Raises :class:`ValueError` saying what is wrong.

    >>> GameChoice("six", "romanian", 4, declare=True).title
    'Six romanian, declaring, partners'
    >>> choice = GameChoice("gameof6", size=15, clock="5+3", casual=True)
    >>> choice.key, GameChoice.from_key(choice.key) == choice
    ('gameof6:15:5+3:casual', True)
    """

    game: str
    ruleset: str = "steffen"
    players: int = 2
    size: int = DEFAULT_SIZE
    declare: bool = False
    clock: str | None = None  # the time control, written 10+5; None: no clock
    casual: bool = False  # played unrated by choice

    def __post_init__(self) -> None:
        self.setup()  # checks the game and its options
        if self.clock is not None:
            control = time_control(self.clock)
            if control is None:
                raise ValueError("a game without a clock has clock None, not 'none'")
            object.__setattr__(self, "clock", f"{control[0]}+{control[1]}")

    @property
    def six(self) -> bool:
        return self.game == "six"

    def setup(self, seats: Sequence[str | None] | None = None) -> GameSetup:
        """The table this choice describes, ``seats`` as :class:`GameSetup` has them."""
        return GameSetup(
            self.game,
            ruleset=self.ruleset,
            players=self.players,
            size=self.size,
            declare=self.declare,
            seats=tuple(seats) if seats is not None else (None,) * self.players,
        )

    def options(self) -> dict[str, Any]:
        """The options :func:`sixtui.rules.new_game` takes for this game."""
        return self.setup().options()

    @property
    def key(self) -> str:
        """A name for this choice that no other choice has: ``six:romanian:4:declare``,
        ``connect6:19:5+5``."""
        clock = (f":{self.clock}" if self.clock else "") + (":casual" if self.casual else "")
        if not self.six:
            return f"{self.game}:{self.size}{clock}"
        return f"six:{self.ruleset}:{self.players}" + (":declare" if self.declare else "") + clock

    @classmethod
    def from_key(cls, key: str) -> GameChoice:
        """The choice named ``key``; :class:`ValueError` for a name no choice has."""
        parts = key.split(":")
        casual = len(parts) > 1 and parts[-1] == "casual"
        if casual:
            parts.pop()
        clock = parts.pop() if len(parts) > 1 and "+" in parts[-1] else None
        try:
            if parts[0] == "six" and len(parts) in (3, 4):
                if len(parts) == 4 and parts[3] != "declare":
                    raise ValueError(parts[3])
                declare = len(parts) == 4
                return cls(
                    "six", parts[1], int(parts[2]), declare=declare, clock=clock, casual=casual
                )
            if parts[0] in SIZES and len(parts) == 2:
                return cls(parts[0], size=int(parts[1]), clock=clock, casual=casual)
        except ValueError:
            pass
        raise ValueError(f"no game is called {key!r}")

    @property
    def title(self) -> str:
        """The choice in a few words: ``Connect6 19×19``, ``Six steffen, partners``."""
        clock = (f" · {self.clock}" if self.clock else "") + (" · casual" if self.casual else "")
        if not self.six:
            return f"{TITLES[self.game]} {self.size}×{self.size}{clock}"
        extras = [", declaring" if self.declare else "", ", partners" if self.players == 4 else ""]
        return f"Six {self.ruleset}{''.join(extras)}{clock}"

    @property
    def words(self) -> str:
        """The choice as the command line writes it, defaults left out."""
        words = [self.game]
        if self.six:
            words += [] if self.ruleset == "steffen" else ["--ruleset", self.ruleset]
            words += ["--players", "4"] if self.players == 4 else []
            words += ["--declare"] if self.declare else []
        elif self.size != DEFAULT_SIZE:
            words += ["--size", str(self.size)]
        words += ["--clock", self.clock] if self.clock else []
        words += ["--casual"] if self.casual else []
        return " ".join(words)


# The pools shown in the lobby whether anyone waits there or not: each game without a
# clock and with a rapid one or two, every ruleset of Six, and the Romanian ones with
# declaring too.
STANDARD_POOLS = (
    GameChoice("connect6"),
    GameChoice("connect6", clock="5+5"),
    GameChoice("connect6", clock="15+10"),
    GameChoice("gameof6"),
    GameChoice("gameof6", clock="10+5"),
    *(
        GameChoice("six", ruleset, players, declare=declare)
        for ruleset in RULESETS
        for declare in ((False,) if ruleset == "steffen" else (False, True))
        for players in (2, 4)
    ),
    GameChoice("six", clock="5+3"),
)


# -- the commands --------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """Wait to be paired for a game (with one's partner, for Six with four players)."""

    choice: GameChoice


@dataclass(frozen=True)
class Unpair:
    """Stop waiting to be paired."""


@dataclass(frozen=True)
class Partner:
    """Ask ``name`` to be one's partner, or answer their asking."""

    name: str


@dataclass(frozen=True)
class Unpartner:
    """Play without one's partner again."""


@dataclass(frozen=True)
class Challenge:
    """Challenge ``name`` (and their partner) to a game; ``computer`` is the level of a
    computer partner for a side of a four-player game that has no partner of its own."""

    name: str
    choice: GameChoice
    computer: str | None = None


@dataclass(frozen=True)
class Accept:
    """Play the challenge ``name`` made."""

    name: str


@dataclass(frozen=True)
class Decline:
    """Turn down the challenge ``name`` made."""

    name: str


@dataclass(frozen=True)
class Withdraw:
    """Take back one's challenge to ``name``."""

    name: str


@dataclass(frozen=True)
class Play:
    """Play the computer at ``level`` at once (with one's partner, in a four-player game,
    else with the computer as partner)."""

    choice: GameChoice
    level: str = DEFAULT_LEVEL


@dataclass(frozen=True)
class Watch:
    """Watch a game: the one ``target`` plays, or the game numbered ``target``."""

    target: str


@dataclass(frozen=True)
class Say:
    """A line of chat for everyone in the lobby."""

    text: str


@dataclass(frozen=True)
class Mute:
    """Hide ``name``'s chat from oneself."""

    name: str


@dataclass(frozen=True)
class Unmute:
    """Show ``name``'s chat again."""

    name: str


@dataclass(frozen=True)
class Profile:
    """A player's page: their ratings, results and recent games."""

    name: str


@dataclass(frozen=True)
class Top:
    """The best rated players at a game."""

    choice: GameChoice


@dataclass(frozen=True)
class Replay:
    """Step through an archived game, by its number."""

    number: int


@dataclass(frozen=True)
class Help:
    """The list of commands, or how to use ``command``."""

    command: str | None = None


Command = (
    Pair
    | Unpair
    | Partner
    | Unpartner
    | Challenge
    | Accept
    | Decline
    | Withdraw
    | Play
    | Watch
    | Say
    | Mute
    | Unmute
    | Profile
    | Top
    | Replay
    | Help
)

# Each command as typed, and what it does: the help, and the messages that name a usage.
USAGES: dict[str, tuple[str, str]] = {
    "pair": (
        "pair GAME [--ruleset R] [--players N] [--size N] [--declare] [--clock M+S] [--casual]",
        "wait to be paired for GAME; whoever has waited longest is paired first",
    ),
    "unpair": ("unpair", "stop waiting"),
    "partner": (
        "partner NAME",
        "ask NAME to partner you in Six for four; they answer partner YOURNAME",
    ),
    "unpartner": ("unpartner", "play without your partner again"),
    "challenge": (
        "challenge NAME GAME [options] [--computer LEVEL]",
        "challenge NAME (and their partner); --computer partners a side that has none",
    ),
    "accept": ("accept NAME", "play the challenge NAME made you"),
    "decline": ("decline NAME", "turn down NAME's challenge"),
    "withdraw": ("withdraw NAME", "take back your challenge to NAME"),
    "play": (
        "play GAME [options] [--vs LEVEL]",
        "play the computer at once: easy, normal (the default) or hard",
    ),
    "watch": ("watch NAME", "watch the game NAME plays, or a game by its number"),
    "say": ("say TEXT", "say TEXT to everyone in the lobby"),
    "mute": ("mute NAME", "hide NAME's chat from you"),
    "unmute": ("unmute NAME", "show NAME's chat again"),
    "profile": ("profile NAME", "NAME's ratings, results and recent games"),
    "top": ("top GAME [options]", "the best rated players at GAME"),
    "replay": ("replay NUMBER", "step through an archived game (its number on a profile)"),
    "help": ("help [COMMAND]", "the commands, or how to use one"),
}

_GAME_OPTIONS = ("--ruleset", "--players", "--size", "--declare")
_SEEK_OPTIONS = (*_GAME_OPTIONS, "--clock", "--casual")  # games between people: clock, rating
_FLAGS = ("--declare", "--casual")
_VALUES = {
    "--ruleset": lambda: _either(RULESETS),
    "--players": lambda: "2 or 4",
    "--size": lambda: "a number, like 19",
    "--vs": lambda: _either(LEVELS),
    "--computer": lambda: _either(LEVELS),
    "--clock": lambda: "MINUTES+SECONDS, like 5+5, or none",
}


def parse_command(text: str) -> Command | None:
    """The command ``text`` holds, a leading ``/`` allowed; ``None`` for a blank line.
    Raises :class:`CommandError` saying what is wrong and what would be right."""
    line = text.strip()
    if line.startswith("/"):
        line = line[1:].lstrip()
    if not line:
        return None
    word, rest = _first_word(line)
    name = word.lower()
    if name == "say":
        if len(rest) > CHAT_LINE:
            raise CommandError(chat_too_long(len(rest)))
    elif len(line) > COMMAND_LINE:
        raise CommandError(
            f"a command holds at most {COMMAND_LINE} characters, not {len(line)}: nothing was done"
        )
    reader = _READERS.get(name)
    if reader is None:
        raise CommandError(_unknown_command(word, rest))
    return reader(rest)


def chat_too_long(length: int) -> str:
    """Why a line of chat ``length`` characters long was not sent."""
    return f"a line of chat holds at most {CHAT_LINE} characters, not {length}: nothing was sent"


def usage(command: str) -> str:
    """How ``command`` is typed and what it does, on one line."""
    typed, does = USAGES[command]
    return f"{typed}: {does}"


def _wrapped(text: str, lead: str, under: str | None = None) -> list[str]:
    """``text`` in lines of a page 80 columns wide, the first after ``lead``, the others
    after ``under`` (as wide as ``lead`` unless given)."""
    return textwrap.wrap(
        text,
        PAGE_WIDTH,
        initial_indent=lead,
        subsequent_indent=" " * len(lead) if under is None else under,
        break_on_hyphens=False,
    )


def _span(sizes: range) -> str:
    return f"{sizes.start} to {sizes.stop - 1}"


PAGE_WIDTH = 78  # a page's lines, within the 80 columns of the smallest terminal

OPTIONS_OF = {
    "pair": _SEEK_OPTIONS,
    "challenge": (*_SEEK_OPTIONS, "--computer"),
    "play": (*_GAME_OPTIONS, "--vs"),
    "top": _GAME_OPTIONS,
}
"""The commands that take options, and which."""

OPTION_HELP = {
    "--ruleset": "Six's rules: steffen (the default), romanian or romanian-advanced",
    "--players": "Six for 2 (the default) or 4: two teams of partners",
    "--size": (
        f"the board of Connect6 ({_span(SIZES['connect6'])}) or Game of 6"
        f" ({_span(SIZES['gameof6'])}) points a side, {DEFAULT_SIZE} unless told"
    ),
    "--declare": "Six's romanian rules: a shape wins only when its player declares it",
    "--clock": (
        "a clock: M minutes for each side, S seconds added after each of its turns"
        " (5+5, 15+10); none, the default, plays without one"
    ),
    "--casual": "play unrated: the game is archived but moves no rating",
    "--computer": "the computer (easy, normal or hard) partners a side that has no partner",
    "--vs": "the computer's level: easy, normal (the default) or hard",
}


def help_lines(command: str) -> tuple[str, ...] | None:
    """What ``help COMMAND`` shows of a command that takes options, as a page: how it is
    typed, what it does, and each option; ``None`` for one whose usage line says it all.

    >>> lines = help_lines("pair")
    >>> print("\\n".join(lines[:2]))
    pair GAME [--ruleset R] [--players N] [--size N] [--declare] [--clock M+S]
         [--casual]
    >>> at = next(n for n, line in enumerate(lines) if line.startswith("  --clock"))
    >>> print("\\n".join(lines[at : at + 3]))
      --clock M+S       a clock: M minutes for each side, S seconds added after
                        each of its turns (5+5, 15+10); none, the default, plays
                        without one
    >>> help_lines("unpair") is None
    True
    """
    options = OPTIONS_OF.get(command)
    if options is None:
        return None
    typed, does = USAGES[command]
    names = {"--ruleset": "R", "--players": "N", "--size": "N", "--clock": "M+S"}
    names |= {"--vs": "LEVEL", "--computer": "LEVEL"}
    how = _wrapped(typed, "", " " * (len(command) + 1))
    lines = [*how, "", *_wrapped(does, "  "), "", "GAME is connect6, gameof6 or six. Options:", ""]
    for option in options:
        written = f"{option} {names[option]}" if option in names else option
        lines += _wrapped(OPTION_HELP[option], f"  {written:<16}  ")
    return tuple(lines)


def _first_word(line: str) -> tuple[str, str]:
    match = re.match(r"(\S+)\s*(.*)", line, re.DOTALL)
    assert match is not None  # the line is not blank
    return match[1], match[2]


def _unknown_command(word: str, rest: str) -> str:
    shown = shown_word(word)
    if word.lower() in GAMES:
        game = word.lower()
        return f"no command '{shown}': pair {game} waits for a game, play {game} plays the computer"
    close = difflib.get_close_matches(word.lower(), USAGES, n=1, cutoff=CLOSE)
    if close:
        return f"no command '{shown}': did you mean {close[0]}? help lists every command"
    if rest:
        return f"no command '{shown}': to chat, type say and your line; help lists every command"
    return f"no command '{shown}': help lists every command"


# -- each command's words ------------------------------------------------------------------


def _read_pair(rest: str) -> Command:
    positional, options = _options("pair", rest.split(), _SEEK_OPTIONS)
    game = _one(positional, "pair", "pair what? pair connect6, pair gameof6 or pair six")
    return Pair(_choice(game, options))


def _read_play(rest: str) -> Command:
    positional, options = _options("play", rest.split(), (*_GAME_OPTIONS, "--vs"))
    game = _one(positional, "play", "play what? play GAME --vs LEVEL, like play six --vs easy")
    level = _level("--vs", options.pop("--vs", DEFAULT_LEVEL))
    return Play(_choice(game, options), level)


def _read_challenge(rest: str) -> Command:
    positional, options = _options("challenge", rest.split(), (*_SEEK_OPTIONS, "--computer"))
    how = "challenge NAME GAME, like challenge bob connect6"
    if not positional:
        raise CommandError(f"challenge whom? {how}")
    name = positional[0]
    if len(positional) == 1:
        if name.lower() in GAMES:
            raise CommandError(f"challenge whom? the name comes first: {how}")
        raise CommandError(f"challenge {shown_word(name)} to what? {how}")
    if len(positional) > 2:
        raise CommandError(
            f"challenge takes a name and a game: '{shown_word(positional[2])}' is left over"
        )
    if name.lower() in GAMES and positional[1].lower() not in GAMES:
        raise CommandError(f"the name comes first: {how}")
    computer = options.pop("--computer", None)
    choice = _choice(positional[1], options)
    if computer is not None and choice.players != 4:
        raise CommandError("--computer partners a side of four players: add --players 4")
    return Challenge(name, choice, None if computer is None else _level("--computer", computer))


def _named(command: str, missing: str, make: Callable[[str], Command]) -> Callable[[str], Command]:
    """The reader of a command followed by one name."""

    def read(rest: str) -> Command:
        return make(_one(rest.split(), command, missing))

    return read


def _bare(command: str, make: Callable[[], Command]) -> Callable[[str], Command]:
    """The reader of a command followed by nothing."""

    def read(rest: str) -> Command:
        if rest:
            raise CommandError(f"{command} takes nothing more: '{shown_word(rest)}' is left over")
        return make()

    return read


def _read_top(rest: str) -> Command:
    positional, options = _options("top", rest.split(), _GAME_OPTIONS)
    game = _one(positional, "top", "top at what? top connect6, top gameof6 or top six")
    return Top(_choice(game, options))


def _read_replay(rest: str) -> Command:
    word = _one(rest.split(), "replay", "replay which game? replay NUMBER, as a profile lists it")
    number = word.lstrip("#")
    if not number.isdigit() or not 0 < int(number) < 2**62:
        shown = shown_word(word)
        raise CommandError(f"'{shown}' is not a game's number: type one, as in replay 12")
    return Replay(int(number))


def _read_say(rest: str) -> Command:
    if not rest.strip():
        raise CommandError("say what? say TEXT sends TEXT to everyone in the lobby")
    return Say(rest.strip())


def _read_help(rest: str) -> Command:
    words = rest.split()
    if not words:
        return Help()
    if len(words) > 1:
        raise CommandError(f"help takes one command: '{shown_word(words[1])}' is left over")
    command = words[0].lower().lstrip("/")
    if command not in USAGES:
        raise CommandError(f"no command '{shown_word(words[0])}': help alone lists every command")
    return Help(command)


_READERS: dict[str, Callable[[str], Command]] = {
    "pair": _read_pair,
    "unpair": _bare("unpair", Unpair),
    "partner": _named("partner", "partner whom? partner NAME", Partner),
    "unpartner": _bare("unpartner", Unpartner),
    "challenge": _read_challenge,
    "accept": _named("accept", "accept whose challenge? accept NAME", Accept),
    "decline": _named("decline", "decline whose challenge? decline NAME", Decline),
    "withdraw": _named("withdraw", "withdraw which challenge? withdraw NAME", Withdraw),
    "play": _read_play,
    "watch": _named("watch", "watch whom? watch NAME, or watch a game's number", Watch),
    "say": _read_say,
    "mute": _named("mute", "mute whom? mute NAME", Mute),
    "unmute": _named("unmute", "unmute whom? unmute NAME", Unmute),
    "profile": _named("profile", "whose profile? profile NAME", Profile),
    "top": _read_top,
    "replay": _read_replay,
    "help": _read_help,
}
assert set(_READERS) == set(USAGES)


# -- the pieces of a command ---------------------------------------------------------------


def _one(words: list[str], command: str, missing: str) -> str:
    """The one word a command takes; says so when there is none, or more."""
    if not words:
        raise CommandError(missing)
    if len(words) > 1:
        raise CommandError(f"{command} takes one: '{shown_word(words[1])}' is left over")
    return words[0]


def _options(
    command: str, words: list[str], allowed: tuple[str, ...]
) -> tuple[list[str], dict[str, Any]]:
    """The words that are not options, and the options given (``--name value`` or
    ``--name=value``; a flag is ``True``)."""
    positional: list[str] = []
    options: dict[str, Any] = {}
    position = 0
    while position < len(words):
        word = words[position]
        position += 1
        if not word.startswith("-"):
            positional.append(word)
            continue
        name, equals, value = word.partition("=")
        name = name.lower()
        if name not in allowed:
            raise CommandError(_unknown_option(command, word, allowed))
        if name in options:
            raise CommandError(f"{name} is given twice")
        if name in _FLAGS:
            if equals:
                raise CommandError(f"{name} takes no value")
            options[name] = True
            continue
        if not equals:
            if position == len(words) or words[position].startswith("--"):
                raise CommandError(f"{name} needs a value: {_VALUES[name]()}")
            value = words[position]
            position += 1
        options[name] = value
    return positional, options


def _unknown_option(command: str, word: str, allowed: tuple[str, ...]) -> str:
    shown = shown_word(word.partition("=")[0])
    close = difflib.get_close_matches(word.partition("=")[0].lower(), allowed, n=1, cutoff=CLOSE)
    if close:
        return f"no option '{shown}': did you mean {close[0]}?"
    return f"no option '{shown}' for {command}: {_either(allowed)}"


def _choice(game_word: str, options: dict[str, Any]) -> GameChoice:
    """The game and options a command names; :class:`CommandError` saying what is wrong."""
    game = game_word.lower()
    if game not in GAMES:
        raise CommandError(f"no game '{shown_word(game_word)}': {_either(GAMES)}")
    six_only = [name for name in ("--ruleset", "--players", "--declare") if name in options]
    if game != "six" and six_only:
        raise CommandError(f"{_either(six_only, 'and')} {_are(six_only)} of six, not {game}")
    if game == "six" and "--size" in options:
        raise CommandError("--size is an option of connect6 and gameof6, not six")
    ruleset = str(options.get("--ruleset", "steffen")).lower()
    if ruleset not in RULESETS:
        raise CommandError(f"no ruleset '{shown_word(ruleset)}': {_either(RULESETS)}")
    players = _number(options.get("--players", "2"), "--players", "2 or 4")
    if players not in (2, 4):
        raise CommandError(f"--players is 2 or 4, not {players}")
    size = _number(options.get("--size", str(DEFAULT_SIZE)), "--size", "a number, like 19")
    try:
        control = time_control(str(options.get("--clock", "none")))
        clock = None if control is None else f"{control[0]}+{control[1]}"
        declare, casual = bool(options.get("--declare")), bool(options.get("--casual"))
        return GameChoice(game, ruleset, players, size, declare, clock, casual)
    except ValueError as why:
        raise CommandError(str(why)) from None


def _are(options: list[str]) -> str:
    return "are options" if len(options) > 1 else "is an option"


def _number(value: str, option: str, expected: str) -> int:
    if not re.fullmatch(r"[0-9]{1,4}", value):
        raise CommandError(f"{option} is {expected}, not '{shown_word(value)}'")
    return int(value)


def _level(option: str, value: str) -> str:
    level = value.lower()
    if level not in LEVELS:
        raise CommandError(f"{option} is {_either(LEVELS)}, not '{shown_word(value)}'")
    return level


def _either(items: Sequence[str], last: str = "or") -> str:
    """``a, b or c``."""
    items = list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {last} {items[-1]}"
