"""Chat as the screens show it: a line said, and a line typed that is one.

The lobby's command line and a table's move line both take a line of chat after ``say``;
such a line may grow longer than a command or a move, up to a line of chat more.
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtui.tui.field_lengths import CHAT_LINE

SAY = "say "


@dataclass(frozen=True)
class ChatLine:
    """A line of chat, printable: who said it, and whether it was said among a table's
    spectators (a chat the players do not see) rather than to everyone there."""

    name: str
    text: str
    spectators: bool = False


def longest_line(typed: str, otherwise: int) -> int:
    """How long a typed line may grow: ``otherwise``, unless it is a line of chat (``say``
    and its text, after a / or not), which may hold a whole line of chat after ``say``.

    >>> longest_line("pair six", 120), longest_line("/say hello", 120)
    (120, 305)
    """
    command = typed.lstrip().lstrip("/")
    if command.lower().startswith(SAY):
        return len(typed) - len(command) + len(SAY) + CHAT_LINE
    return otherwise


def said_text(typed: str) -> str | None:
    """What a line typed as ``say TEXT`` (after a / or not) says; ``None`` for a line that
    is something else.

    >>> said_text("say hi there"), said_text("/SAY"), said_text("J10"), said_text("sayonara")
    ('hi there', '', None, None)
    """
    line = typed.strip().lstrip("/").lstrip()
    word, _, rest = line.partition(" ")
    return rest.strip() if word.lower() == SAY.strip() else None
