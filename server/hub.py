"""The hub: every piece of state that players share, behind one small asynchronous
interface of bytes in and bytes out.

Screens, rooms and the lobby keep nothing of another session's: what they share goes
through a :class:`Hub`. :class:`MemoryHub` keeps it in this process (nothing to install);
another implementation (on Redis, say) can take its place with nothing above it changing,
as long as it meets the contract below. ``tests/test_hub_contract.py`` states the same
contract as tests, written to run unchanged against any implementation.

The contract
------------

Names (keys, topics, maps, queues, counters, members) are ``str``; values and messages are
``bytes``, stored and returned exactly as given. Every method is a coroutine but
:meth:`Hub.subscribe`, and each call takes effect whole or not at all, as one step that no
other call interleaves with (in Redis terms: atomic).

**Versioned values.** :meth:`~Hub.get` returns a key's :class:`Versioned` value, or ``None``
for a key never set or deleted. :meth:`~Hub.compare_and_set` stores a value only if the key
is at the version the caller saw (0 for a key that has no value) and returns the new
version, one more than that; otherwise it changes nothing and returns ``None``. Of several
callers that saw the same version, exactly one succeeds. :meth:`~Hub.delete` removes a key
at a given version in the same way. A key deleted and set again starts over at version 1.

**News.** :meth:`~Hub.publish` sends a message to every subscription open on the topic at
that moment and returns how many there were; a message is never stored, so a subscription
receives only what is published after :meth:`~Hub.subscribe` returned it. A subscription
yields its topic's messages in the order they were published. It holds at most
:data:`BACKLOG` unread messages: a subscriber that falls further behind loses the backlog
and gets :class:`Lagged` from its next read, then reads on from the newest messages (it
should read the state again with :meth:`~Hub.get`). Closing a subscription ends it;
reading a closed one raises :class:`StopAsyncIteration`.

**Maps** (who is online, the tables in play): :meth:`~Hub.map_set`, :meth:`~Hub.map_delete`,
:meth:`~Hub.map_all`. A map with no fields left reads as empty.

**Queues** (quick pairing): a queue holds members, each with a value and the moment it
joined; :meth:`~Hub.queue_join` adds a member not yet in the queue (as if it had joined
``waited`` seconds ago, when given: a member taken out and put back keeps its place),
:meth:`~Hub.queue_leave` removes one, :meth:`~Hub.queue_list` lists them longest waiter
first with the seconds each has waited, :meth:`~Hub.queue_take` takes the ``count``
longest waiters only if at least that many wait, and :meth:`~Hub.queue_take_members`
takes the named members only if every one of them is still in the queue. Whatever is
taken leaves the queue in the same step, so two pairings can never take the same member.

**Counters**: :meth:`~Hub.next_number` returns 1, 2, 3, ... for each name, never the same
number twice.

**Its own state.** A hub kept elsewhere (on Redis) may lose touch with it for a while: it
then makes its calls wait, and tells this process's subscriptions to :data:`STATUS`
(:data:`LOST`, later :data:`BACK`); nothing else publishes there.

**Processes.** :attr:`~Hub.process` names this server process among those sharing the
hub, and :meth:`~Hub.processes` the processes alive now, this one always among them. A
process that stops or dies leaves the list within moments (a hub in one process's memory
lists that process alone), so that the others let go of what its sessions held.

>>> import asyncio
>>> async def example():
...     hub = MemoryHub()
...     first = await hub.compare_and_set("table:1", 0, b"state")
...     stale = await hub.compare_and_set("table:1", 0, b"other")
...     return first, stale, await hub.get("table:1")
>>> asyncio.run(example())
(1, None, Versioned(version=1, value=b'state'))
"""

from __future__ import annotations

import asyncio
import itertools
import time
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

BACKLOG = 1024  # unread messages a subscription keeps before its reader is told it lagged
LOCAL_PROCESS = "local"  # the one process of a hub in memory
# A topic a networked hub tells its own process's subscribers on, never published: LOST
# when it can no longer reach its store (its calls wait), BACK when it can again.
STATUS = "hub:status"
LOST = b"lost"
BACK = b"back"


@dataclass(frozen=True)
class Versioned:
    """A key's value and its version: 1 when first set, one more at every change."""

    version: int
    value: bytes


@dataclass(frozen=True)
class QueueEntry:
    """A member waiting in a queue, its value, and how long it has waited (seconds)."""

    member: str
    value: bytes
    waited: float


class Lagged(Exception):
    """A subscription's reader fell more than :data:`BACKLOG` messages behind: what it
    had not read is lost, and it should read the state again."""


class Subscription(ABC):
    """The messages published on one topic from the moment of subscribing, in order."""

    topic: str

    def __aiter__(self) -> AsyncIterator[bytes]:
        return self

    @abstractmethod
    async def __anext__(self) -> bytes:
        """The next message; :class:`Lagged` after an overflow; ends once closed."""

    @abstractmethod
    async def close(self) -> None:
        """Stops the subscription; a read waiting for a message ends."""


class HubOutOfReach(ConnectionError):
    """What keeps the hub (Redis) could not be reached in time: the call changed nothing,
    or its answer was lost on the way back."""


class Hub(ABC):
    """Shared state and news. The contract is the module's docstring."""

    @property
    def keeps_state(self) -> bool:
        """Whether what the hub holds outlives this process (on disk, or in Redis): a
        server stopping then leaves its games in progress to be taken up again."""
        return False

    @abstractmethod
    def seal(self) -> None:
        """As a server stops: whether the changes made from now on (its sessions leaving
        their tables) are kept for its next start. Each implementation says."""

    @abstractmethod
    def stop_waiting(self) -> None:
        """As a server stops: a call that cannot reach what keeps the hub fails at once
        instead of waiting for it to come back."""

    @abstractmethod
    async def get(self, key: str) -> Versioned | None: ...

    @abstractmethod
    async def compare_and_set(self, key: str, version: int, value: bytes) -> int | None: ...

    @abstractmethod
    async def delete(self, key: str, version: int) -> bool: ...

    @abstractmethod
    async def publish(self, topic: str, message: bytes) -> int: ...

    @abstractmethod
    def subscribe(self, topic: str) -> Subscription: ...

    @abstractmethod
    async def map_set(self, name: str, field: str, value: bytes) -> None: ...

    @abstractmethod
    async def map_delete(self, name: str, field: str) -> bool: ...

    @abstractmethod
    async def map_all(self, name: str) -> dict[str, bytes]: ...

    @abstractmethod
    async def queue_join(
        self, queue: str, member: str, value: bytes, waited: float = 0.0
    ) -> bool: ...

    @abstractmethod
    async def queue_leave(self, queue: str, member: str) -> bool: ...

    @abstractmethod
    async def queue_list(self, queue: str) -> list[QueueEntry]: ...

    @abstractmethod
    async def queue_take(self, queue: str, count: int) -> list[QueueEntry]: ...

    @abstractmethod
    async def queue_take_members(self, queue: str, members: list[str]) -> list[QueueEntry]: ...

    @abstractmethod
    async def next_number(self, name: str) -> int: ...

    @property
    @abstractmethod
    def process(self) -> str: ...

    @abstractmethod
    async def processes(self) -> set[str]: ...

    @abstractmethod
    async def close(self) -> None:
        """Ends every subscription and lets go of what the hub holds (its connections,
        for a networked one)."""


def of_this_process(hub: Hub, name: str) -> str:
    """``name`` marked as belonging to this server process (a session's, say), so that the
    others let go of it if the process dies: see :func:`process_of`.

    >>> of_this_process(MemoryHub(), "s12")
    's12@local'
    """
    return f"{name}@{hub.process}"


def process_of(name: str) -> str | None:
    """The process a name marked by :func:`of_this_process` belongs to; ``None`` for a
    name not marked.

    >>> process_of("s12@local"), process_of("s12")
    ('local', None)
    """
    _, at, process = name.rpartition("@")
    return process if at else None


class LocalSubscription(Subscription):
    """A subscription fed in this process: each message handed to :meth:`deliver` is kept
    until read, up to :data:`BACKLOG` of them. ``closed`` is called once when it closes
    (the hub forgets it then)."""

    def __init__(self, topic: str, closed: Callable[[LocalSubscription], None]) -> None:
        self.topic = topic
        self._closed_with = closed
        self._messages: deque[bytes] = deque()
        self._lagged: str | None = None  # why the reader is to read the state again
        self._closed = False
        self._arrived = asyncio.Event()

    def lag(self) -> None:
        """Tells the reader, at its next read, that messages may have been lost: it
        should read the state again (unlike an overflow, the messages kept stay)."""
        self._lagged = f"messages on {self.topic} may have been lost"
        self._arrived.set()

    def deliver(self, message: bytes) -> None:
        if len(self._messages) >= BACKLOG:
            self._messages.clear()
            self._lagged = f"more than {BACKLOG} unread messages on {self.topic}"
        self._messages.append(message)
        self._arrived.set()

    async def __anext__(self) -> bytes:
        while not self._messages and not self._lagged and not self._closed:
            self._arrived.clear()
            await self._arrived.wait()
        if self._closed:
            raise StopAsyncIteration
        if self._lagged:
            why, self._lagged = self._lagged, None
            raise Lagged(why)
        return self._messages.popleft()

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._closed_with(self)
            self._arrived.set()


class Subscribers:
    """The subscriptions open in this process, by topic: what a hub fans its news out to."""

    def __init__(self) -> None:
        self._topics: dict[str, list[LocalSubscription]] = {}

    def add(self, topic: str) -> LocalSubscription:
        subscription = LocalSubscription(topic, self._remove)
        self._topics.setdefault(topic, []).append(subscription)
        return subscription

    def deliver(self, topic: str, message: bytes) -> int:
        """Hands ``message`` to every subscription open on ``topic``; how many there were."""
        subscribers = self._topics.get(topic, [])
        for subscription in subscribers:
            subscription.deliver(bytes(message))
        return len(subscribers)

    def count(self, topic: str) -> int:
        return len(self._topics.get(topic, []))

    def lag_all(self, but: str) -> None:
        """Tells every subscription but those to ``but`` that messages may have been
        lost (news published while a networked hub was out of touch)."""
        for topic, subscribers in self._topics.items():
            if topic != but:
                for subscription in subscribers:
                    subscription.lag()

    def topics(self) -> list[str]:
        return list(self._topics)

    async def close_all(self) -> None:
        for subscribers in list(self._topics.values()):
            for subscription in list(subscribers):
                await subscription.close()

    def _remove(self, subscription: LocalSubscription) -> None:
        subscribers = self._topics.get(subscription.topic, [])
        if subscription in subscribers:
            subscribers.remove(subscription)
        if not subscribers:
            self._topics.pop(subscription.topic, None)


@dataclass
class _Waiting:
    value: bytes
    since: float
    order: int


class MemoryHub(Hub):
    """The hub in this process's memory: the default, for one server process.

    Every method runs to its end without awaiting anything, so on one event loop each
    call is one step, as the contract asks.
    """

    def __init__(self) -> None:
        self._values: dict[str, Versioned] = {}
        self._subscribers = Subscribers()
        self._maps: dict[str, dict[str, bytes]] = {}
        self._queues: dict[str, dict[str, _Waiting]] = {}
        self._numbers: dict[str, int] = {}
        self._joins = itertools.count()  # orders members who joined in the same instant

    async def get(self, key: str) -> Versioned | None:
        return self._values.get(key)

    async def compare_and_set(self, key: str, version: int, value: bytes) -> int | None:
        current = self._values.get(key)
        if (current.version if current else 0) != version:
            return None
        self._values[key] = Versioned(version + 1, bytes(value))
        return version + 1

    async def delete(self, key: str, version: int) -> bool:
        current = self._values.get(key)
        if current is None or current.version != version:
            return False
        del self._values[key]
        return True

    async def publish(self, topic: str, message: bytes) -> int:
        return self._subscribers.deliver(topic, message)

    def subscribe(self, topic: str) -> Subscription:
        return self._subscribers.add(topic)

    async def map_set(self, name: str, field: str, value: bytes) -> None:
        self._maps.setdefault(name, {})[field] = bytes(value)

    async def map_delete(self, name: str, field: str) -> bool:
        fields = self._maps.get(name, {})
        if field not in fields:
            return False
        del fields[field]
        if not fields:
            del self._maps[name]
        return True

    async def map_all(self, name: str) -> dict[str, bytes]:
        return dict(self._maps.get(name, {}))

    async def queue_join(self, queue: str, member: str, value: bytes, waited: float = 0.0) -> bool:
        waiting = self._queues.setdefault(queue, {})
        if member in waiting:
            return False
        since = time.monotonic() - max(0.0, waited)
        waiting[member] = _Waiting(bytes(value), since, next(self._joins))
        return True

    async def queue_leave(self, queue: str, member: str) -> bool:
        return self._take(queue, [member]) != []

    async def queue_list(self, queue: str) -> list[QueueEntry]:
        now = time.monotonic()
        waiting = self._queues.get(queue, {})
        by_age = sorted(waiting.items(), key=lambda item: (item[1].since, item[1].order))
        return [QueueEntry(member, w.value, now - w.since) for member, w in by_age]

    async def queue_take(self, queue: str, count: int) -> list[QueueEntry]:
        longest = (await self.queue_list(queue))[:count]
        if count < 1 or len(longest) < count:
            return []
        return self._take(queue, [entry.member for entry in longest])

    async def queue_take_members(self, queue: str, members: list[str]) -> list[QueueEntry]:
        waiting = self._queues.get(queue, {})
        if not members or len(set(members)) != len(members):
            return []
        if any(member not in waiting for member in members):
            return []
        return self._take(queue, members)

    def _take(self, queue: str, members: list[str]) -> list[QueueEntry]:
        waiting = self._queues.get(queue, {})
        now = time.monotonic()
        taken = [
            QueueEntry(member, w.value, now - w.since)
            for member in members
            if (w := waiting.pop(member, None)) is not None
        ]
        if not waiting:
            self._queues.pop(queue, None)
        return taken

    async def next_number(self, name: str) -> int:
        self._numbers[name] = self._numbers.get(name, 0) + 1
        return self._numbers[name]

    @property
    def process(self) -> str:
        return LOCAL_PROCESS

    async def processes(self) -> set[str]:
        return {LOCAL_PROCESS}

    def seal(self) -> None:
        """Nothing: the memory hub keeps nothing past its process."""

    def stop_waiting(self) -> None:
        """Nothing: the memory hub never waits for anything."""

    async def close(self) -> None:
        await self._subscribers.close_all()
