"""The server's log: one line a record, with whatever a client sent shown escaped.

Names, commands and addresses come from clients, and asyncssh logs some of them as they
came: a terminal escape in an exec command would otherwise act on the operator's
terminal when the log is read, and a line break would forge a log line of its own.
"""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)s %(message)s"


def escaped(text: str) -> str:
    """``text`` with every character that is not printed as itself (controls, line and
    paragraph separators, spaces other than the plain one, unassigned ones...) written as
    an escape.

    >>> escaped("exec \\x1b[2Jgone\\nforged line")
    'exec \\\\x1b[2Jgone\\\\nforged line'
    """
    return "".join(_shown(char) for char in text)


def _shown(char: str) -> str:
    if char.isprintable() or char == " ":
        return char
    return ascii(char)[1:-1] if ord(char) < 0x10000 else f"\\U{ord(char):08x}"


class EscapingFormatter(logging.Formatter):
    """Formats a record's message escaped (see :func:`escaped`); a traceback after it
    keeps its line breaks, since it comes from the server's own code."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = escaped(record.message)
        return super().formatMessage(record)


def log_to_stderr(worker: int | None = None) -> None:
    """Logs the server's records to standard error, as :func:`log_with` says; those of
    one of several server processes say its number (``worker=2``)."""
    handler = logging.StreamHandler()
    shape = (
        LOG_FORMAT
        if worker is None
        else LOG_FORMAT.replace(" %(message)s", f" worker={worker} %(message)s")
    )
    handler.setFormatter(EscapingFormatter(shape))
    log_with(handler)


def log_with(handler: logging.Handler) -> None:
    """Logs the server's records, from INFO up, through ``handler``; asyncssh's from
    WARNING up only: its INFO lines (eight or so a connection: channels opened and
    closed, host keys sent) would bury sixtui's one ``key=value`` line an event, and
    writing them took a fifth of what a connection refused at once costs."""
    logging.basicConfig(level=logging.INFO, handlers=[handler], force=True)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
