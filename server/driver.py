"""A Textual driver whose terminal is an SSH channel.

Textual's own terminal drivers read the process's stdin, set its termios and install
process-wide signal handlers; a server runs many apps in one process, so this driver
takes its input from :meth:`feed` (bytes the channel received) and its size from
:meth:`resize`, and writes to the channel.
"""

from __future__ import annotations

import asyncio
import codecs
import re
from collections.abc import Callable
from typing import Any

from textual import events, messages
from textual.driver import Driver
from textual.geometry import Size

from sixtui.server.limits import Allowance
from sixtui.tui.textual_internals import XTermParser, escape_wait, release_parser

_START = (
    "\x1b[?1049h"  # the alternate screen
    "\x1b[?25l"  # no cursor
    "\x1b[?1004h"  # focus in and out
    "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"  # mouse, SGR coordinates
    "\x1b[?2004h"  # bracketed paste
)
# What terminals send unasked-for keys when they answer a query: device attributes,
# keyboard protocol flags, status and window reports, and the string replies (colors,
# versions, settings). No key press starts like these.
_REPLY = re.compile(
    r"\x1b\[[?>][\d;]*c"
    r"|\x1b\[\?[\d;]*[un]"
    r"|\x1b\[\d*n"
    r"|\x1b\[\d+(?:;\d+)*t"
    r"|\x1b[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)",
)
# The start of a reply cut off by the end of what arrived (a lone Esc is left to the
# parser, which has its own timer for it).
_REPLY_START = re.compile(r"\x1b(?:\[[?>]?[\d;]*|[\]P_^X][^\x07\x1b]*\x1b?)\Z")
# The longest a reply is waited for, whole, before what arrived is taken as keys.
REPLY_WAIT = 0.05
_REPLY_LIMIT = 512

# Where input is cut to be parsed, and a control sequence up to its last character (or
# the rest of one begun earlier): after a sequence the parser cannot read, reading goes
# on from there.
_AT_EACH_ESC = re.compile("(?=\x1b)")
_SEQUENCE_UP_TO_ITS_END = re.compile(r"(?:\x1b\[)?[0-?]*[ -/]*[@-~]")

# A bracketed paste, as the terminal marks it.
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
# The most characters of one paste the app is given: more than any line a player types.
LONGEST_PASTE = 1024

# Presses (keys, clicks, wheel turns) a player makes at once before the rate counts: a
# script's command line written in one go, a held key's first repeats.
PRESS_BURST_SECONDS = 4
# A mouse moved over the terminal reports every cell it crosses; where it is now is all
# that matters, so moves beyond this many a press are dropped without a word.
MOVES_PER_PRESS = 2

_STOP = "\x1b[?2004l\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1004l\x1b[?25h\x1b[?1049l"


class ReplyFilter:
    """Takes terminal replies out of the input, so that none is read as key presses.

    A reply that arrives in pieces is held until it is whole, or until
    :data:`REPLY_WAIT` passes, when what was held goes on as typed.

    >>> replies = ReplyFilter()
    >>> replies.feed("j\x1b[?62;22c")
    'j'
    >>> replies.feed("\x1b]11;rgb:0000/")
    ''
    >>> replies.feed("0000/0000\x07k")
    'k'
    """

    def __init__(self) -> None:
        self.held = ""

    def feed(self, text: str) -> str:
        text = _REPLY.sub("", self.held + text)
        start = _REPLY_START.search(text)
        if start is None or len(text) - start.start() > _REPLY_LIMIT:
            self.held = ""
            return text
        self.held = text[start.start() :]
        return text[: start.start()]

    def release(self) -> str:
        """What is held, as typed: it did not become a reply in time."""
        held, self.held = self.held, ""
        return held


class PasteCap:
    r"""Cuts every bracketed paste down to its first ``longest`` characters, and takes the
    Esc characters out of it.

    Textual's parser reads a paste a character at a time and holds all of it until it
    ends, and the app lays all of it out; cut here, a paste of megabytes costs no more
    than a short one. The marks that start and end a paste always go through whole, even
    when they arrive in pieces: the end of what was passed on is looked at with what
    comes next, unless :meth:`forget` says the parser has given up on it.

    >>> cap = PasteCap(longest=3)
    >>> cap.feed("a\x1b[200~bcdef")
    'a\x1b[200~bcd'
    >>> cap.feed("gh\x1b[20"), cap.feed("1~i")
    ('', '\x1b[201~i')
    """

    def __init__(self, longest: int) -> None:
        self.longest = longest
        self.pasted: int | None = None  # characters of the paste under way; None outside one
        self._passed = ""  # the end of what was passed on, which may begin a paste mark
        self._held = ""  # what may be the start of the end mark, in a paste

    def forget(self) -> None:
        """The parser has given up on the escape sequence it was reading: what was passed
        on before begins no mark any more."""
        self._passed = ""

    def feed(self, text: str) -> str:
        """What of ``text`` goes on to the parser."""
        done = len(self._passed)  # characters of ``text`` below this were passed on before
        text = self._passed + self._held + text
        self._held = ""
        passed: list[str] = []
        start = 0
        while (found := text.find(self._mark, start)) >= 0:
            end = found + len(self._mark)
            passed += [self._content(text[max(start, done) : max(found, done)])]
            passed += [text[max(found, done) : end]]
            self.pasted = 0 if self.pasted is None else None
            start = end
        rest = text[max(start, done) :]
        if self.pasted is not None:  # what may begin the end mark waits to be seen whole
            rest, self._held = _before_a_mark_begins(rest, PASTE_END)
        passed += [kept := self._content(rest)]
        out = "".join(passed)
        # What comes next follows what was passed on, unless a paste's excess came between.
        joined = self._passed + out if len(kept) == len(rest) else ""
        self._passed = joined[1 - len(PASTE_START) :]
        return out

    @property
    def _mark(self) -> str:
        return PASTE_START if self.pasted is None else PASTE_END

    def _content(self, text: str) -> str:
        if self.pasted is None:
            return text
        # Textual's parser reads an Esc inside a paste as the start of a key sequence and
        # sends what follows as key presses; no line a player types holds one.
        text = text.replace("\x1b", "")
        room = max(0, self.longest - self.pasted)
        self.pasted = min(self.longest, self.pasted + len(text))
        return text[:room]


def _before_a_mark_begins(text: str, mark: str) -> tuple[str, str]:
    r"""``text`` split where a ``mark`` cut off by its end begins (the second part is
    empty when none does).

    >>> _before_a_mark_begins("ab\x1b[20", PASTE_END)
    ('ab', '\x1b[20')
    """
    for length in range(min(len(mark) - 1, len(text)), 0, -1):
        if mark.startswith(text[-length:]):
            return text[:-length], text[-length:]
    return text, ""


def _is_press(event: events.Event) -> bool:
    """A key, a button pressed or a wheel turned: what a player does, one at a time."""
    return isinstance(event, events.Key) or (
        isinstance(event, events.MouseEvent) and not isinstance(event, events.MouseUp)
    )


class ChannelDriver(Driver):
    """Drives one app through ``write`` (text for the client's terminal).

    Made by Textual as ``driver_class(app, debug=..., mouse=..., size=...)``; pass
    ``write`` with :func:`functools.partial`.
    """

    def __init__(
        self,
        app: Any,
        *,
        write: Callable[[str], None],
        unreadable: Callable[[Exception], None] = lambda problem: None,
        press_rate: float = float("inf"),
        too_fast: Callable[[], None] = lambda: None,
        **options: Any,
    ) -> None:
        super().__init__(app, **options)
        self._receiver = app  # where events go: Textual's drivers keep theirs privately
        self._write = write
        self._unreadable = unreadable
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._parser: XTermParser | None = XTermParser()
        self._replies = ReplyFilter()
        self._pastes = PasteCap(LONGEST_PASTE)
        self._reply_timer: asyncio.TimerHandle | None = None
        self._escape_timer: asyncio.TimerHandle | None = None
        self._input = True
        self._presses = Allowance(press_rate, press_rate * PRESS_BURST_SECONDS)
        self._moves = Allowance(
            press_rate * MOVES_PER_PRESS, press_rate * MOVES_PER_PRESS * PRESS_BURST_SECONDS
        )
        self._too_fast = too_fast

    def write(self, data: str) -> None:
        self._write(data)

    def send_message(self, message: messages.Message) -> None:
        # Always on the loop's thread here: no hop between threads is needed.
        self._receiver.post_message(message)

    def start_application_mode(self) -> None:
        self.write(_START)

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(_STOP)

    def disable_input(self) -> None:
        self._input = False
        for timer in (self._escape_timer, self._reply_timer):
            if timer is not None:
                timer.cancel()
        self._escape_timer = self._reply_timer = None

    def close(self) -> None:
        """Lets go of the parser, whose suspended generator would keep the app alive."""
        self.disable_input()
        parser, self._parser = self._parser, None
        if parser is not None:
            release_parser(parser)

    def resize(self, width: int, height: int) -> None:
        """The client's terminal is now ``width`` × ``height``."""
        size = Size(max(1, width), max(1, height))
        self._receiver.post_message(events.Resize(size, size))

    def feed(self, data: bytes) -> None:
        """Bytes typed at the client's terminal, read at once."""
        self.parse(self.admit(data))

    def admit(self, data: bytes) -> str:
        """Bytes typed at the client's terminal, as the text :meth:`parse` reads: the
        terminal's replies taken out and pastes cut short. Cheap whatever comes, so that
        a session may rate what it parses (the costly part) by what is left of it: a paste
        of megabytes is admitted as its first :data:`LONGEST_PASTE` characters."""
        if not self._input or self._parser is None:
            return ""
        admitted = self._pastes.feed(self._replies.feed(self._decoder.decode(data)))
        if self._replies.held and self._reply_timer is None:
            self._reply_timer = asyncio.get_running_loop().call_later(
                REPLY_WAIT, self._release_held
            )
        return admitted

    def parse(self, text: str) -> None:
        """Reads ``text`` (from :meth:`admit`) into key presses, pastes and mouse events."""
        if text and self._input and self._parser is not None:
            self._parse(text)

    def _release_held(self) -> None:
        self._reply_timer = None
        if self._input:
            self._parse(self._pastes.feed(self._replies.release()))

    def _parse(self, text: str) -> None:
        # Fed an escape sequence at a time, so that one the parser cannot read costs no
        # more than itself.
        for piece in _AT_EACH_ESC.split(text):
            self._parse_piece(piece)
        self._watch_escape()

    def _parse_piece(self, piece: str) -> None:
        if not piece or self._parser is None:  # an empty feed would end the parser
            return
        try:
            for event in self._parser.feed(piece):
                self._deliver(event)
        except Exception as problem:  # whatever it is, the session goes on
            self._start_over(problem)
            unread = _SEQUENCE_UP_TO_ITS_END.match(piece)
            if unread is not None:
                self._parse_piece(piece[unread.end() :])

    def _start_over(self, problem: Exception) -> None:
        """Textual's parser raised on a sequence it cannot read (such as a kitty keyboard
        code with sub-fields, ``ESC[1;5:3u``) and is finished: what it held is dropped
        and a new one reads what comes after the sequence."""
        self._unreadable(problem)
        if self._parser is not None:
            release_parser(self._parser)
        self._parser = XTermParser()
        self._pastes = PasteCap(LONGEST_PASTE)

    def _deliver(self, event: messages.Message) -> None:
        if isinstance(event, events.Event) and self._within_rate(event):
            self.process_message(event)

    def _within_rate(self, event: events.Event) -> bool:
        """Whether ``event`` is within the player's rate. Presses beyond it are dropped
        (and :attr:`_too_fast` told), since each costs the server Textual's handling of a
        key however little it does; a button let go always passes, so that no button
        stays held."""
        now = asyncio.get_running_loop().time()
        if isinstance(event, events.MouseMove):
            return self._moves.allow(now)
        if not _is_press(event) or self._presses.allow(now):
            return True
        self._too_fast()
        return False

    def _watch_escape(self) -> None:
        """A lone Esc waits in the parser until its delay passes: check back for it then."""
        if self._escape_timer is not None or self._parser is None:
            return
        wait = escape_wait(self._parser)
        if wait is not None:
            self._escape_timer = asyncio.get_running_loop().call_later(wait + 0.001, self._tick)

    def _tick(self) -> None:
        self._escape_timer = None
        if self._input and self._parser is not None:
            try:
                for event in self._parser.tick():
                    self._deliver(event)
            except Exception as problem:  # whatever it is, the session goes on
                self._start_over(problem)
            if escape_wait(self._parser) is None:
                self._pastes.forget()
            self._watch_escape()
