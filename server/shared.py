"""What every connection to one server shares: its settings, the computer players, the
names book, the count of connections open and who is here."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sixtui.ai.worker import Thinker
from sixtui.server.names import NameBook
from sixtui.server.settings import Settings
from sixtui.tui.presence import Roster

# Seconds between two redraws of everyone's who-is-here line: a crowd arriving at once
# would otherwise have every screen redrawn for each of them.
NEWS_QUIET = 2.0


class Counts:
    """Places taken now, in all, per IP address and per key: a connection takes one, and
    one more for each session it runs beyond its first, since every session runs a whole
    game interface."""

    def __init__(self) -> None:
        self.total = 0
        self.per_ip: Counter[str] = Counter()
        self.per_key: Counter[str] = Counter()

    def change(self, peer: str, key: str | None, by: int) -> None:
        """Takes ``by`` places (gives them back when negative) for ``peer`` and ``key``."""
        self.total += by
        _change(self.per_ip, peer, by)
        if key is not None:
            _change(self.per_key, key, by)

    def over(self, settings: Settings, peer: str, key: str | None, what: str) -> str | None:
        """Which limit the places taken now pass, as the player is told it (``what`` is
        "connections" or "sessions": what they asked for), if any."""
        if self.total > settings.max_connections:
            return "the server is full: try again later"
        if self.per_ip[peer] > settings.max_per_ip:
            return f"too many {what} from {peer}"
        if key is not None and self.per_key[key] > settings.max_per_key:
            return f"too many {what} with this key"
        return None


def _change(counter: Counter[str], name: str, by: int) -> None:
    counter[name] += by
    if counter[name] <= 0:
        del counter[name]


@dataclass
class Shared:
    """What all the connections to one server share."""

    settings: Settings
    thinker: Thinker
    names: NameBook
    counts: Counts = field(default_factory=Counts)
    roster: Roster = field(default_factory=lambda: Roster(quiet=NEWS_QUIET))
