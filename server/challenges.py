"""Challenges: a player (or a pair of partners) asks another (or another pair) to play a
game; they accept or decline, and the challenge is withdrawn when one of them leaves.

The open challenges are the members of one hub queue, ``lobby:challenges``, each by its
number (``lobby:challenge-numbers`` counter) and valued with its record. Whoever ends a
challenge (accepting, declining, withdrawing it) takes it out of the queue first: of two
who try at once exactly one gets it, so a challenge is never both accepted and withdrawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sixtui.server.hub import Hub
from sixtui.server.lobby_news import BadNews, pack, tell_everyone, unpack
from sixtui.server.seating import Seeker, Sitter
from sixtui.tui.lobby_commands import GameChoice

CHALLENGES = "lobby:challenges"
CHALLENGE_NUMBERS = "lobby:challenge-numbers"


@dataclass(frozen=True)
class ChallengeRecord:
    """An open challenge: its sides as they were when it was made (the named player
    first), the game, and the level of the computer partner of a side short of one."""

    id: str
    challengers: tuple[Seeker, ...]
    challenged: tuple[Seeker, ...]
    choice: GameChoice
    computer: str | None = None

    @property
    def people(self) -> tuple[Seeker, ...]:
        return self.challengers + self.challenged

    def on_side(self, side: int, identity: str) -> bool:
        """Whether the person ``identity`` is among the challengers (side 0) or the
        challenged (side 1)."""
        people = self.challengers if side == 0 else self.challenged
        return any(person.identity == identity for person in people)

    def sides(self, accepting: Seeker) -> list[list[Sitter]]:
        """Who sits at the table once ``accepting`` accepts: each side's people, the one who
        accepts at the session they accepted from, and the computer for a missing partner."""
        sides: list[list[Sitter]] = []
        for people in (self.challengers, self.challenged):
            side: list[Sitter] = [
                accepting if person.identity == accepting.identity else person for person in people
            ]
            if len(side) * 2 < self.choice.players:
                assert self.computer is not None  # made so: see HubLobby._challenge
                side.append(self.computer)
            sides.append(side)
        return sides

    def to_map(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "challengers": [person.to_map() for person in self.challengers],
            "challenged": [person.to_map() for person in self.challenged],
            "game": self.choice.key,
            "computer": self.computer,
        }

    @classmethod
    def from_map(cls, value: dict[str, Any]) -> ChallengeRecord:
        try:
            return cls(
                str(value["id"]),
                tuple(Seeker.from_map(person) for person in value["challengers"]),
                tuple(Seeker.from_map(person) for person in value["challenged"]),
                GameChoice.from_key(str(value["game"])),
                None if value["computer"] is None else str(value["computer"]),
            )
        except (KeyError, TypeError, ValueError) as why:
            raise BadNews(f"not a challenge: {why}") from None


async def make(
    hub: Hub,
    challengers: Sequence[Seeker],
    challenged: Sequence[Seeker],
    choice: GameChoice,
    computer: str | None,
) -> ChallengeRecord:
    """Opens a challenge, and tells every lobby."""
    number = str(await hub.next_number(CHALLENGE_NUMBERS))
    record = ChallengeRecord(number, tuple(challengers), tuple(challenged), choice, computer)
    await hub.queue_join(CHALLENGES, number, pack(record.to_map()))
    await tell_everyone(hub, "challenge", challenge=record.to_map())
    return record


async def close(hub: Hub, challenge: str) -> bool:
    """Ends the open challenge numbered ``challenge``, and tells every lobby; false, with
    nothing done, when it was ended already."""
    if not await hub.queue_take_members(CHALLENGES, [challenge]):
        return False
    await tell_everyone(hub, "challenge-closed", id=challenge)
    return True


async def open_challenges(hub: Hub) -> list[ChallengeRecord]:
    """The challenges not yet answered, oldest first (any that cannot be read left out)."""
    records = []
    for entry in await hub.queue_list(CHALLENGES):
        try:
            records.append(ChallengeRecord.from_map(unpack(entry.value)))
        except BadNews:
            continue
    return records
