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
    """Connections open now: in all, per IP address and per key."""

    def __init__(self) -> None:
        self.total = 0
        self.per_ip: Counter[str] = Counter()
        self.per_key: Counter[str] = Counter()


@dataclass
class Shared:
    """What all the connections to one server share."""

    settings: Settings
    thinker: Thinker
    names: NameBook
    counts: Counts = field(default_factory=Counts)
    roster: Roster = field(default_factory=lambda: Roster(quiet=NEWS_QUIET))
