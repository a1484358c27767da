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


class ChannelDriver(Driver):
    """Drives one app through ``write`` (text for the client's terminal).

    Made by Textual as ``driver_class(app, debug=..., mouse=..., size=...)``; pass
    ``write`` with :func:`functools.partial`.
    """

    def __init__(self, app: Any, *, write: Callable[[str], None], **options: Any) -> None:
        super().__init__(app, **options)
        self._receiver = app  # where events go: Textual's drivers keep theirs privately
        self._write = write
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._parser: XTermParser | None = XTermParser()
        self._replies = ReplyFilter()
        self._reply_timer: asyncio.TimerHandle | None = None
        self._escape_timer: asyncio.TimerHandle | None = None
        self._input = True

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
        """Bytes typed at the client's terminal."""
        if not self._input or self._parser is None:
            return
        self._parse(self._replies.feed(self._decoder.decode(data)))
        if self._replies.held and self._reply_timer is None:
            self._reply_timer = asyncio.get_running_loop().call_later(
                REPLY_WAIT, self._release_held
            )

    def _release_held(self) -> None:
        self._reply_timer = None
        if self._input:
            self._parse(self._replies.release())

    def _parse(self, text: str) -> None:
        if text and self._parser is not None:
            for event in self._parser.feed(text):
                self._deliver(event)
            self._watch_escape()

    def _deliver(self, event: messages.Message) -> None:
        if isinstance(event, events.Event):
            self.process_message(event)

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
            for event in self._parser.tick():
                self._deliver(event)
            self._watch_escape()
