"""Who is at this terminal, as a server knows them; a local game has no one of the kind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Visitor:
    """The person at this terminal, as the server knows them.

    ``name_refused`` says why the name they came with is not theirs (taken by another
    key, say); the app then asks for another, which :meth:`take_name` offers to
    ``rename``: it answers why that one cannot be had either, or None once it is theirs.
    """

    name: str
    guest: bool = False
    name_refused: str | None = None
    rename: Callable[[str], str | None] | None = None

    def take_name(self, name: str) -> str | None:
        """Makes ``name`` theirs if it may be; otherwise says why not and changes nothing."""
        if self.rename is None:
            return "this server lets nobody change names"
        problem = self.rename(name)
        if problem is None:
            self.name = name
            self.name_refused = None
        return problem
