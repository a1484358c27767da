"""Game records: a game written as text, in the spirit of chess's PGN, and read back.

A record is header lines, ``[Name "value"]``, then the moves, numbered by turn, each in
the game's own notation, a move's thinking time in braces after it when known, and the
result. :class:`GameRecord` holds the game itself (replayed, so every move in a record
read back is legal), the players' names by seat, the thinking times and the other
headers; ``str(record)`` writes it, :meth:`GameRecord.parse` reads it and says on which
line a damaged record goes wrong. The format is described for players in
``docs/records.md``.

>>> from sixtui.rules import new_game
>>> g = new_game("connect6")
>>> for point in ["J10", "K11", "K9", "A1", "A2"]:
...     g.play(point)
>>> g.resign(1)
>>> record = GameRecord(g, ("ann", "bob"), {"Date": "2026-12-02"})
>>> print(record)
[Game "connect6"]
[Date "2026-12-02"]
[Seat1 "ann"]
[Seat2 "bob"]
[Size "19"]
[Result "1-0"]
[Reason "resign"]
[EndedBy "Seat2"]
<BLANKLINE>
1. J10 2. K11 K9 3. A1 A2 1-0
>>> GameRecord.parse(str(record)).game == g
True
>>> GameRecord.parse('[Game "connect6"]\\n\\n1. J10 2. K11 K11')
Traceback (most recent call last):
...
sixtui.rules.records.RecordError: line 3: move 3, K11: K11 is taken
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, get_args

from sixtui.rules.errors import IllegalMove
from sixtui.rules.game import Game
from sixtui.rules.games import GAMES, new_game
from sixtui.rules.result import Reason, Result

MAX_RECORD_CHARACTERS = 1 << 20  # far more than the longest game: refuse anything larger
UNKNOWN_PLAYER = "?"
FIRST_HEADERS = ("Game", "Event", "Site", "Date", "Time")  # written first, in this order
RESULT_HEADERS = ("Result", "Reason", "Points", "EndedBy")  # written after seats and options
ONGOING = "*"
DRAW = "1/2-1/2"
WINS = ("1-0", "0-1")  # the first team (Seat1, Seat3) won; the second team won
CONCEDED = ("resign", "left", "time")  # reasons whose seat the EndedBy header names

_HEADER = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_TOKEN = re.compile(r"\{[^}]*\}?|[0-9]+\.|[^\s{]+")
_TURN_NUMBER = re.compile(r"([0-9]+)\.")
_THINKING = re.compile(r"\{\s*([0-9]+(?:\.[0-9]+)?)\s*s\s*\}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_SEAT = re.compile(r"Seat([1-9][0-9]*)")


class RecordError(ValueError):
    """A record that cannot be read; the message names the line that goes wrong."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass
class GameRecord:
    """One game with what a record says of it besides the moves.

    ``players`` names each seat's player, seat 0 first (:data:`UNKNOWN_PLAYER` when
    unknown); ``headers`` holds the others, such as ``Date``, ``Event`` or ``Clock``
    (not the game, its options, seats or result, which come from ``game``); ``times``
    gives the seconds each move of the game's history took, ``None`` where unknown.
    """

    game: Game
    players: tuple[str, ...] = ()
    headers: dict[str, str] = field(default_factory=dict)
    times: list[float | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        count = self.game.players
        self.players = tuple(self.players) + (UNKNOWN_PLAYER,) * (count - len(self.players))
        if len(self.players) != count:
            raise ValueError(f"{self.game.name} has {count} seats, not {len(self.players)}")
        moves = len(self.game.history)
        if len(self.times) > moves:
            raise ValueError(f"{len(self.times)} thinking times for {moves} moves")
        self.times = list(self.times) + [None] * (moves - len(self.times))
        for name, value in self.headers.items():
            problem = _header_problem(name, value)
            if problem is None and (name in ("Game", *RESULT_HEADERS) or _SEAT.fullmatch(name)):
                problem = f"the {name} header comes from the game, not from the headers given"
            if problem is not None:
                raise ValueError(problem)

    # -- writing ---------------------------------------------------------------------

    def __str__(self) -> str:
        """The record's text: headers, a blank line, the moves and the result."""
        game = self.game
        lines = [_header("Game", game.name)]
        lines += [
            _header(name, self.headers[name]) for name in FIRST_HEADERS if name in self.headers
        ]
        lines += [_header(f"Seat{seat + 1}", name) for seat, name in enumerate(self.players)]
        lines += [
            _header(name.capitalize(), _option_text(value))
            for name, value in game.options().items()
        ]
        lines += [_header(name, value) for name, value in _result_headers(game).items()]
        lines += [
            _header(name, value)
            for name, value in self.headers.items()
            if name not in FIRST_HEADERS
        ]
        return "\n".join(lines) + "\n\n" + self._movetext()

    def _movetext(self) -> str:
        words = []
        for turn, moves in enumerate(_turns(self.game), start=1):
            words.append(f"{turn}.")
            for index, move in moves:
                words.append(move)
                seconds = self.times[index]
                if seconds is not None:
                    words.append(f"{{{seconds:.1f}s}}")
        words.append(_result_text(self.game.result))
        return " ".join(words)

    # -- reading ---------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> GameRecord:
        """The record written in ``text``; :class:`RecordError` names the line of the
        first thing wrong: a header that is not one, an unknown game or option, an
        illegal move, a result the moves do not give."""
        if not isinstance(text, str):
            raise RecordError(1, f"a record is text, not {type(text).__name__}")
        if len(text) > MAX_RECORD_CHARACTERS:
            raise RecordError(1, "the record is too long to be one game")
        lines = text.replace("\r\n", "\n").split("\n")  # lines as an editor numbers them
        headers, header_lines, body_start = _read_headers(lines)
        game = _new_game(headers, header_lines)
        players = _players(game, headers, header_lines)
        times = _play_moves(game, lines[body_start:], body_start, headers)
        _end(game, headers, header_lines, body_start)
        known = {"Game", *RESULT_HEADERS, *(name.capitalize() for name in game.options())}
        others = {
            name: value
            for name, value in headers.items()
            if name not in known and not _SEAT.fullmatch(name)
        }
        return cls(game, players, others, times)


# -- writing helpers ----------------------------------------------------------------


def _header(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _result_text(result: Result | None) -> str:
    if result is None:
        return ONGOING
    return DRAW if result.winner is None else WINS[result.winner]


def _result_headers(game: Game) -> dict[str, str]:
    result = game.result
    headers = {"Result": _result_text(result)}
    if result is None:
        return headers
    headers["Reason"] = result.reason
    if result.points:
        headers["Points"] = "-".join(map(str, result.points))
    if game.conceding_seat is not None:
        headers["EndedBy"] = f"Seat{game.conceding_seat + 1}"
    return headers


def _turns(game: Game) -> Iterator[list[tuple[int, str]]]:
    """The game's moves grouped by turn (a turn is one seat's moves in a row), each
    with its index in the history."""
    replay = new_game(game.name, **game.options())
    turn: list[tuple[int, str]] = []
    seat = None
    for index, move in enumerate(game.history):
        if turn and replay.to_move != seat:
            yield turn
            turn = []
        seat = replay.to_move
        turn.append((index, str(move)))
        replay.play(move)
    if turn:
        yield turn


# -- reading helpers ----------------------------------------------------------------


def _header_problem(name: str, value: str) -> str | None:
    """What is wrong with a header, if anything."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        return f"{name!r} is not a header name: letters and digits only"
    if not isinstance(value, str):
        return f"the value of {name} is not text"
    if _CONTROL.search(value):
        return f"the value of {name} holds a control character"
    return None


def _read_headers(lines: list[str]) -> tuple[dict[str, str], dict[str, int], int]:
    """The headers, the line of each (counted from 1) and the index of the first line
    after them."""
    headers: dict[str, str] = {}
    where: dict[str, int] = {}
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        number = index + 1
        if not line:
            index += 1
            if headers:
                break
            continue
        if not line.startswith("["):
            break
        found = _HEADER.fullmatch(line)
        if found is None:
            raise RecordError(number, 'a header is written [Name "value"]')
        name, value = found.group(1), re.sub(r"\\(.)", r"\1", found.group(2))
        problem = _header_problem(name, value)
        if problem is not None:
            raise RecordError(number, problem)
        if name in headers:
            raise RecordError(number, f"the {name} header comes twice")
        headers[name], where[name] = value, number
        index += 1
    if "Game" not in headers:
        raise RecordError(
            1, f'the record names no game: begin it with [Game "{next(iter(GAMES))}"]'
        )
    return headers, where, index


def _new_game(headers: Mapping[str, str], where: Mapping[str, int]) -> Game:
    name = headers["Game"]
    game_type = GAMES.get(name)
    if game_type is None:
        raise RecordError(where["Game"], f"there is no game {name!r}: choose {', '.join(GAMES)}")
    defaults = new_game(name).options()
    options: dict[str, Any] = {}
    for option, default in defaults.items():
        header = option.capitalize()
        if header in headers:
            options[option] = _option_value(header, headers[header], default, where[header])
    try:
        return new_game(name, **options)
    except ValueError as error:
        line = max((where[option.capitalize()] for option in options), default=where["Game"])
        raise RecordError(line, str(error)) from None


def _option_value(header: str, text: str, default: Any, line: int) -> Any:
    if isinstance(default, bool):
        if text not in ("yes", "no"):
            raise RecordError(line, f"{header} is yes or no, not {text!r}")
        return text == "yes"
    if isinstance(default, int):
        if not text.isdigit():
            raise RecordError(line, f"{header} is a whole number, not {text!r}")
        return int(text)
    return text


def _players(game: Game, headers: Mapping[str, str], where: Mapping[str, int]) -> tuple[str, ...]:
    for name in headers:
        found = _SEAT.fullmatch(name)
        if found and int(found.group(1)) > game.players:
            raise RecordError(
                where[name], f"{game.name} here has {game.players} seats, not {found.group(1)}"
            )
    return tuple(headers.get(f"Seat{seat + 1}", UNKNOWN_PLAYER) for seat in range(game.players))


def _tokens(lines: list[str], first_line: int) -> Iterator[tuple[int, str]]:
    """Each word, turn number and comment of the moves, with its line (from 1)."""
    text = "\n".join(lines)
    line_starts = [0]
    for line in lines[:-1]:
        line_starts.append(line_starts[-1] + len(line) + 1)
    line_index = 0
    for found in _TOKEN.finditer(text):
        while line_index + 1 < len(line_starts) and line_starts[line_index + 1] <= found.start():
            line_index += 1
        yield first_line + line_index + 1, found.group()


def _play_moves(
    game: Game, lines: list[str], first_line: int, headers: Mapping[str, str]
) -> list[float | None]:
    """Plays the moves of the record on ``game`` and returns their thinking times."""
    times: list[float | None] = []
    turn, seat, ended = 0, None, False
    for line, token in _tokens(lines, first_line):
        if ended:
            raise RecordError(line, f"{token!r} comes after the result, which ends the record")
        if token.startswith("{"):
            _thinking_time(token, times, line)
            continue
        number = _TURN_NUMBER.fullmatch(token)
        if number:
            expected = turn + (seat is None or game.to_move != seat)
            if int(number.group(1)) != expected:
                raise RecordError(line, f"turn {number.group(1)} where turn {expected} comes next")
            continue
        if token in (*WINS, DRAW, ONGOING):
            if "Result" in headers and token != headers["Result"]:
                raise RecordError(
                    line, f"the moves end {token}, the Result header says {headers['Result']}"
                )
            ended = True
            continue
        if seat is None or game.to_move != seat:
            turn, seat = turn + 1, game.to_move
        try:
            game.play(token)
        except IllegalMove as error:
            raise RecordError(line, f"move {len(game.history) + 1}, {token}: {error}") from None
        times.append(None)
    return times


def _thinking_time(comment: str, times: list[float | None], line: int) -> None:
    """A comment ``{3.5s}`` right after a move is its thinking time; other comments are
    notes for the reader, kept out of the game."""
    if not comment.endswith("}"):
        raise RecordError(line, "a comment opened with { is never closed with }")
    found = _THINKING.fullmatch(comment)
    if found and times and times[-1] is None:
        times[-1] = float(found.group(1))


def _end(game: Game, headers: Mapping[str, str], where: Mapping[str, int], body_start: int) -> None:
    """Ends ``game`` as the result headers say (a resignation, leaving, or agreed draw
    the moves cannot show) and checks that they agree with the moves."""
    said = headers.get("Result", ONGOING if game.result is None else _result_text(game.result))
    line = where.get("Result", body_start + 1)
    if said not in (*WINS, DRAW, ONGOING):
        raise RecordError(line, f"a result is 1-0, 0-1, 1/2-1/2 or *, not {said!r}")
    reason = headers.get("Reason")
    if reason is not None and reason not in get_args(Reason):
        raise RecordError(where["Reason"], f"{reason!r} is not a way a game ends")
    if game.result is None and said != ONGOING:
        _concede(game, reason, headers, where, line)
    if reason is not None and game.result is None:
        raise RecordError(where["Reason"], f"the game is unfinished, yet ended by {reason}")
    if _result_text(game.result) != said:
        ending = "the moves leave the game unfinished"
        if game.result is not None:
            ending = f"the game ends {_result_text(game.result)} ({game.result.reason})"
        raise RecordError(line, f"the result says {said}, but {ending}")
    if reason is not None and game.result is not None and reason != game.result.reason:
        raise RecordError(where["Reason"], f"the game ended by {game.result.reason}, not {reason}")
    points = headers.get("Points")
    if points is not None and game.result is not None:
        actual = "-".join(map(str, game.result.points))
        if points != actual:
            raise RecordError(where["Points"], f"the points are {actual}, not {points}")


def _concede(
    game: Game, reason: str | None, headers: Mapping[str, str], where: Mapping[str, int], line: int
) -> None:
    """Ends an unfinished game by a resignation, leaving, time-out or agreed draw, as the
    headers say."""
    if reason == "agreement":
        game.agree_draw()
        return
    if reason not in CONCEDED:
        return  # the result check then says what the moves leave
    found = _SEAT.fullmatch(headers.get("EndedBy", ""))
    if found is None:
        raise RecordError(
            where.get("EndedBy", line),
            f'a game ended by {reason} names its seat: [EndedBy "Seat2"]',
        )
    seat = int(found.group(1)) - 1
    if seat >= game.players:
        raise RecordError(where["EndedBy"], f"there is no Seat{seat + 1} in this game")
    ending = {"left": game.forfeit, "time": game.time_out, "resign": game.resign}
    ending[reason](seat)
