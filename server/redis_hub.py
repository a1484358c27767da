"""The hub on Redis: what players share kept in one Redis server, so that several server
processes, on one host or several, share one lobby and its tables.

:class:`RedisHub` meets the contract of :mod:`sixtui.server.hub` (its tests run against it
unchanged), with every step that must be atomic done inside Redis by a Lua script: a
compare-and-set, a deletion at a version, a queue's join, listing and taking (so two
processes pairing at once never take the same player), and a counter's next number.

What lives where, every name under the hub's ``prefix`` (``sixtui:`` by default):

- ``value:KEY``, a hash of the version (``v``) and the bytes (``d``);
- ``map:NAME``, a hash;
- ``queue:NAME``, a sorted set of members by the moment they joined (Redis's own clock, in
  microseconds, so that every process counts waits alike), and ``queue-values:NAME``, a
  hash of their values;
- ``number:NAME``, a counter;
- ``news:TOPIC``, the pub/sub channel of a topic.

News: each process holds one pub/sub connection, subscribed to every ``news:`` channel at
once, and fans each message out to its own subscriptions (:class:`~sixtui.server.hub.
Subscribers`); a process never polls. A message carries the process that published it and
a number, and :meth:`RedisHub.publish` returns once the message has come back to its own
process: by then every subscription of that process has it, in Redis's order, which is
the same for every process. What it returns counts the subscriptions of this process
exactly and those of the others as each last reported them (``subscriptions:PROCESS``, a
hash of topics and counts, written moments after a subscription opens or closes).

Each process keeps ``process:ID`` alive with a time-to-live it renews
(:data:`HEARTBEAT_SECONDS`), and is listed in ``processes``; a process gone silent is
dropped from the list, and its subscriptions from the counts, by the next publish. Each
heartbeat, and a process closing, writes the wall-clock time to ``heard-at`` (a process
closing to ``closed-at`` too): a process that starts and finds no other alive takes up
their games from that moment, or a heartbeat later for a process that was killed
(:attr:`RedisHub.taken_over_at`), as a server does from its snapshot and journal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import msgpack
import redis.asyncio as aioredis

from sixtui.server.hub import (
    BACK,
    LOST,
    STATUS,
    Hub,
    HubOutOfReach,
    QueueEntry,
    Subscribers,
    Subscription,
    Versioned,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

PREFIX = "sixtui:"
HEARTBEAT_SECONDS = 1.0  # how often a process says it is alive
PROCESS_TTL_MS = 5_000  # how long Redis keeps a silent process counted
ECHO_SECONDS = 5.0  # how long a publish waits for its message to come back
RETRY_SECONDS = 0.5  # between tries to reach a Redis that went away
OUTAGE_SECONDS = 30.0  # how long a call waits for a Redis out of reach before it fails
CONNECTIONS = 32  # to Redis, at most, from one process; more calls at once wait their turn
CONNECTION_WAIT_SECONDS = 20.0  # how long a call waits for a connection before it fails
# A Redis that stops answering without closing the connection (hung, or the network cut
# without a word) is taken for out of reach once a call has waited this long for its
# answer: the heartbeat's, within a second or so more. The subscription to the news
# waits for messages as long as it likes; TCP keepalives find its connection dead.
ANSWER_SECONDS = 5.0
KEEPALIVE = {  # seconds idle before the first probe, between probes; probes unanswered
    getattr(socket, name): value
    for name, value in (("TCP_KEEPIDLE", 5), ("TCP_KEEPINTVL", 2), ("TCP_KEEPCNT", 3))
    if hasattr(socket, name)
}
_PREFIX_SHAPE = re.compile(r"[A-Za-z0-9_.:-]*")  # no glob characters: the prefix is a pattern

COMPARE_AND_SET = """
local now = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if now ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', now + 1, 'd', ARGV[2])
return now + 1
"""

DELETE = """
local now = redis.call('HGET', KEYS[1], 'v')
if not now or tonumber(now) ~= tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""

# The processes whose key has not expired, those listed but gone dropped from the list
# (with their counts of subscriptions): processes, the prefix of their keys, of their counts.
_LIVING = """
local function living(processes, keys, counts)
  local alive = {}
  for _, id in ipairs(redis.call('SMEMBERS', processes)) do
    if redis.call('EXISTS', keys .. id) == 1 then
      table.insert(alive, id)
    else
      redis.call('SREM', processes, id)
      redis.call('DEL', counts .. id)
    end
  end
  return alive
end
"""

# KEYS: the list of processes. ARGV: the channel, the message, the topic, this process,
# the prefix of the processes' keys, the prefix of their subscription counts.
PUBLISH = (
    _LIVING
    + """
redis.call('PUBLISH', ARGV[1], ARGV[2])
local others = 0
for _, id in ipairs(living(KEYS[1], ARGV[5], ARGV[6])) do
  if id ~= ARGV[4] then
    others = others + tonumber(redis.call('HGET', ARGV[6] .. id, ARGV[3]) or '0')
  end
end
return others
"""
)

# KEYS: the list of processes. ARGV: the prefix of the processes' keys, of their counts.
ALIVE = _LIVING + "return living(KEYS[1], ARGV[1], ARGV[2])"

# KEYS: the list of processes. ARGV: this process, the prefix of the processes' keys, their
# time-to-live, this process's beat. Answers the others alive (or not yet expired).
JOIN = """
local others = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if id ~= ARGV[1] and redis.call('EXISTS', ARGV[2] .. id) == 1 then
    table.insert(others, id)
  end
end
redis.call('SET', ARGV[2] .. ARGV[1], ARGV[4], 'PX', ARGV[3])
redis.call('SADD', KEYS[1], ARGV[1])
return others
"""

_NOW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
"""

# KEYS: the queue, its values. ARGV: the member, its value, microseconds already waited.
QUEUE_JOIN = (
    _NOW
    + """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local waited = tonumber(ARGV[3])
local since = now - waited
if waited == 0 then
  local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  if newest[2] and tonumber(newest[2]) >= since then since = tonumber(newest[2]) + 1 end
end
redis.call('ZADD', KEYS[1], since, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1
"""
)

# Answers member, value, microseconds waited, ... for the members it reads.
_ENTRIES = """
local function entries(members, take)
  local found = {}
  for _, member in ipairs(members) do
    local since = redis.call('ZSCORE', KEYS[1], member)
    table.insert(found, member)
    table.insert(found, redis.call('HGET', KEYS[2], member))
    table.insert(found, string.format('%d', now - tonumber(since)))
    if take then
      redis.call('ZREM', KEYS[1], member)
      redis.call('HDEL', KEYS[2], member)
    end
  end
  return found
end
"""

QUEUE_LIST = _NOW + _ENTRIES + "return entries(redis.call('ZRANGE', KEYS[1], 0, -1), false)"

# ARGV: how many to take.
QUEUE_TAKE = (
    _NOW
    + _ENTRIES
    + """
local count = tonumber(ARGV[1])
if count < 1 or redis.call('ZCARD', KEYS[1]) < count then return {} end
return entries(redis.call('ZRANGE', KEYS[1], 0, count - 1), true)
"""
)

# ARGV: the members, every one of whom must wait.
QUEUE_TAKE_MEMBERS = (
    _NOW
    + _ENTRIES
    + """
for _, member in ipairs(ARGV) do
  if not redis.call('ZSCORE', KEYS[1], member) then return {} end
end
return entries(ARGV, true)
"""
)


class RedisHub(Hub):
    """The hub's contract on a Redis server. Open it with :meth:`connect`.

    ``prefix`` starts the name of everything it keeps in Redis: hubs with different
    prefixes share nothing (the tests give each hub one of its own).
    """

    def __init__(self, client: aioredis.Redis, prefix: str = PREFIX) -> None:
        if not _PREFIX_SHAPE.fullmatch(prefix):
            raise ValueError(f"a hub's prefix is letters, digits and _.:- only, not {prefix!r}")
        self._client = client
        self._prefix = prefix
        self._id = f"{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self._subscribers = Subscribers()
        self._sent = 0
        self._echoes: dict[int, asyncio.Future[int]] = {}
        self._reported: dict[str, int] = {}  # subscriptions per topic as Redis last heard
        self._report_due = asyncio.Event()
        self._pubsub = client.pubsub()
        self._tasks: list[asyncio.Task[None]] = []
        self.taken_over_at: float | None = None  # see _left_off_at
        self._beats = 0
        self._failing: set[str] = set()  # what no longer reaches Redis, said once in the log
        self._stopping = False  # see stop_waiting
        self._scripts = {
            name: client.register_script(source)
            for name, source in (
                ("compare_and_set", COMPARE_AND_SET),
                ("delete", DELETE),
                ("publish", PUBLISH),
                ("alive", ALIVE),
                ("join", JOIN),
                ("queue_join", QUEUE_JOIN),
                ("queue_list", QUEUE_LIST),
                ("queue_take", QUEUE_TAKE),
                ("queue_take_members", QUEUE_TAKE_MEMBERS),
            )
        }

    @classmethod
    async def connect(cls, url: str, prefix: str = PREFIX) -> RedisHub:
        """A hub on the Redis server at ``url`` (``redis://host:port/db``), listening for
        news before it returns. Raises :class:`ConnectionError` naming the URL when the
        server cannot be reached."""
        # A blocking pool: when every connection is busy (hundreds of sessions leaving at
        # once), a call waits for one instead of failing.
        tcp = {} if url.startswith("unix:") else {"socket_keepalive_options": KEEPALIVE}
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=CONNECTIONS,
            timeout=CONNECTION_WAIT_SECONDS,
            socket_timeout=ANSWER_SECONDS,
            socket_connect_timeout=ANSWER_SECONDS,
            **tcp,
        )
        client = aioredis.Redis.from_pool(pool)  # closed with the client
        hub = cls(client, prefix)
        try:
            await client.ping()
            await hub._start()
        except (aioredis.RedisError, OSError) as error:
            await client.aclose()
            raise ConnectionError(f"cannot reach Redis at {shown_url(url)}: {error}") from error
        return hub

    async def _start(self) -> None:
        await self._pubsub.psubscribe(self._name("news:*"))
        confirmed = await self._pubsub.get_message(timeout=ECHO_SECONDS)
        if confirmed is None or confirmed.get("type") != "psubscribe":
            raise ConnectionError(f"Redis did not confirm the subscription to news: {confirmed}")
        self.taken_over_at = await self._left_off_at()
        await self._heartbeat_once()
        self._tasks = [
            asyncio.create_task(self._listen(), name="hub news"),
            asyncio.create_task(self._beat(), name="hub heartbeat"),
            asyncio.create_task(self._report(), name="hub subscriptions"),
        ]

    def _name(self, name: str) -> str:
        return self._prefix + name

    @property
    def keeps_state(self) -> bool:
        return True

    def stop_waiting(self) -> None:
        """A stopping process waits for Redis no longer: what it would have written then
        is what a process killed at that moment leaves, which the next start takes up."""
        self._stopping = True

    def seal(self) -> None:
        """Nothing: Redis keeps every change, the sessions of a stopping process leaving
        their seats included, as when a connection drops; the next start, or another
        process, takes their games up from there."""

    async def _left_off_at(self) -> float | None:
        """Joins the processes sharing the hub, and says when those before this one were
        last heard (wall clock) if none of them is alive: their games in progress are then
        this process's to take up. ``None`` when another is alive, or none was ever heard.

        Joining is one step in Redis, so that of two processes starting at once the second
        sees the first. A process killed a moment ago still has its key until it expires:
        one is alive only if it beats while this one watches (two heartbeats and a half)."""
        heard = await self._client.get(self._name("heard-at"))
        closed = await self._client.get(self._name("closed-at"))
        self._beats += 1
        others = await self._scripts["join"](
            keys=[self._name("processes")],
            args=[self._id, self._name("process:"), PROCESS_TTL_MS, self._beats],
        )
        keys = [self._name(f"process:{other.decode()}") for other in others]
        if keys:
            before = [await self._client.get(key) for key in keys]
            await asyncio.sleep(2.5 * HEARTBEAT_SECONDS)
            after = [await self._client.get(key) for key in keys]
            if any(now not in (None, then) for now, then in zip(after, before, strict=True)):
                return None
        if heard is None:
            return None
        # A process that closed wrote the moment; one killed went within a heartbeat of
        # its last: the latest moment is taken, so that no clock gains time it never had.
        return float(heard) if closed == heard else float(heard) + HEARTBEAT_SECONDS

    # -- versioned values --------------------------------------------------------------------

    async def get(self, key: str) -> Versioned | None:
        name = self._name(f"value:{key}")
        version, value = await self._retrying(lambda: self._client.hmget(name, ["v", "d"]))
        if version is None:
            return None
        return Versioned(int(version), bytes(value))

    async def compare_and_set(self, key: str, version: int, value: bytes) -> int | None:
        keys = [self._name(f"value:{key}")]
        args = [version, bytes(value)]
        new = await self._retrying(lambda: self._scripts["compare_and_set"](keys=keys, args=args))
        return int(new) or None

    async def delete(self, key: str, version: int) -> bool:
        keys = [self._name(f"value:{key}")]
        return bool(
            await self._retrying(lambda: self._scripts["delete"](keys=keys, args=[version]))
        )

    # -- news ----------------------------------------------------------------------------------

    async def publish(self, topic: str, message: bytes) -> int:
        self._sent += 1
        number = self._sent
        echo: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._echoes[number] = echo
        packed = msgpack.packb([self._id, number, bytes(message)])
        try:
            args = [
                self._name(f"news:{topic}"),
                packed,
                topic,
                self._id,
                self._name("process:"),
                self._name("subscriptions:"),
            ]
            keys = [self._name("processes")]
            others = await self._retrying(lambda: self._scripts["publish"](keys=keys, args=args))
            try:
                here = await asyncio.wait_for(asyncio.shield(echo), ECHO_SECONDS)
            except TimeoutError:
                log.warning("news on %s did not come back from Redis in %s s", topic, ECHO_SECONDS)
                here = self._subscribers.count(topic)
        finally:
            self._echoes.pop(number, None)
        return int(others) + here

    def subscribe(self, topic: str) -> Subscription:
        subscription = self._subscribers.add(topic)
        self._report_due.set()
        return subscription

    async def _listen(self) -> None:
        """Hands each message of the news to this process's subscriptions; where the
        connection to Redis is lost, tries it again every :data:`RETRY_SECONDS` (the
        subscription to the news is made again with it)."""
        while True:
            try:
                async for message in self._pubsub.listen():
                    if self._back("news"):
                        # What was published while out of touch never came: every reader
                        # reads the state again, as after falling behind.
                        self._subscribers.lag_all(but=STATUS)
                    self._take(message)
            except (aioredis.RedisError, OSError) as error:
                self._lost("news", error)
                await asyncio.sleep(RETRY_SECONDS)

    def _take(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage":
            return
        topic = bytes(message["channel"])[len(self._name("news:")) :].decode()
        try:
            origin, number, body = msgpack.unpackb(message["data"])
        except (ValueError, TypeError, msgpack.UnpackException):
            log.warning("news on %s that is not the hub's: left out", topic)
            return
        delivered = self._subscribers.deliver(topic, body)
        if origin == self._id and (echo := self._echoes.get(number)) and not echo.done():
            echo.set_result(delivered)

    async def _report(self) -> None:
        """Tells Redis how many subscriptions this process holds on each topic whose
        count changed, moments after it did (or at the next heartbeat, if Redis could not
        be reached)."""
        while True:
            await self._report_due.wait()
            self._report_due.clear()
            now = {topic: self._subscribers.count(topic) for topic in self._subscribers.topics()}
            gone = [topic for topic in self._reported if topic not in now]
            changed = {topic: n for topic, n in now.items() if self._reported.get(topic) != n}
            counts = self._name(f"subscriptions:{self._id}")
            try:
                if gone:
                    await self._client.hdel(counts, *gone)
                if changed:
                    await self._client.hset(counts, mapping=changed)
                    await self._client.pexpire(counts, PROCESS_TTL_MS)
            except (aioredis.RedisError, OSError) as error:
                self._lost("the count of subscriptions", error)
                continue
            self._back("the count of subscriptions")
            self._reported = now

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self._report_due.set()  # a closed subscription is counted off at the next beat
            try:
                await self._heartbeat_once()
            except (aioredis.RedisError, OSError) as error:
                self._lost("the heartbeat", error)
                continue
            if self._back("the heartbeat"):
                self._reported = {}  # a Redis started afresh has forgotten them

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call``'s answer, tried again every :data:`RETRY_SECONDS` while Redis cannot be
        reached, for up to :data:`OUTAGE_SECONDS` (not at all once the process is stopping);
        then :class:`HubOutOfReach`.

        A call whose first try reached Redis but whose answer was lost is tried again as
        it was: a compare-and-set made then answers that the version moved on (the caller
        reads the value again, and finds its own change), a publish may arrive twice."""
        gives_up: float | None = None
        while True:
            try:
                answer = await call()
            except (aioredis.ConnectionError, aioredis.TimeoutError) as error:
                now = time.monotonic()
                gives_up = gives_up or now + OUTAGE_SECONDS
                if now >= gives_up or self._stopping:
                    raise HubOutOfReach(f"Redis cannot be reached: {error}") from error
                self._lost("calls", error)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self._back("calls")
            return answer

    def _lost(self, what: str, error: Exception) -> None:
        """Says once that ``what`` no longer reaches Redis; the first to go tells this
        process's screens (:data:`STATUS`)."""
        if what in self._failing:
            return
        if not self._failing:
            self._subscribers.deliver(STATUS, LOST)
        self._failing.add(what)
        log.warning("Redis: %s lost (%s); trying again", what, error)

    def _back(self, what: str) -> bool:
        """Says once that ``what`` reaches Redis again; whether it had been lost. The last
        to come back tells this process's screens."""
        if what not in self._failing:
            return False
        self._failing.discard(what)
        log.info("Redis: %s back", what)
        if not self._failing:
            self._subscribers.deliver(STATUS, BACK)
        return True

    async def _heartbeat_once(self) -> None:
        async with self._client.pipeline(transaction=True) as pipe:
            self._beats += 1
            pipe.set(self._name(f"process:{self._id}"), self._beats, px=PROCESS_TTL_MS)
            pipe.set(self._name("heard-at"), repr(time.time()))
            pipe.sadd(self._name("processes"), self._id)
            pipe.pexpire(self._name(f"subscriptions:{self._id}"), PROCESS_TTL_MS)
            await pipe.execute()

    # -- maps ----------------------------------------------------------------------------------

    async def map_set(self, name: str, field: str, value: bytes) -> None:
        key, data = self._name(f"map:{name}"), bytes(value)
        await self._retrying(lambda: self._client.hset(key, field, data))

    async def map_delete(self, name: str, field: str) -> bool:
        key = self._name(f"map:{name}")
        return bool(await self._retrying(lambda: self._client.hdel(key, field)))

    async def map_all(self, name: str) -> dict[str, bytes]:
        key = self._name(f"map:{name}")
        fields = await self._retrying(lambda: self._client.hgetall(key))
        return {key.decode(): bytes(value) for key, value in fields.items()}

    # -- queues --------------------------------------------------------------------------------

    def _queue(self, queue: str) -> list[str]:
        return [self._name(f"queue:{queue}"), self._name(f"queue-values:{queue}")]

    async def queue_join(self, queue: str, member: str, value: bytes, waited: float = 0.0) -> bool:
        micros = max(0, round(waited * 1_000_000))
        args = [member, bytes(value), micros]
        keys = self._queue(queue)
        return bool(await self._retrying(lambda: self._scripts["queue_join"](keys=keys, args=args)))

    async def queue_leave(self, queue: str, member: str) -> bool:
        return await self.queue_take_members(queue, [member]) != []

    async def queue_list(self, queue: str) -> list[QueueEntry]:
        keys = self._queue(queue)
        return _entries(await self._retrying(lambda: self._scripts["queue_list"](keys=keys)))

    async def queue_take(self, queue: str, count: int) -> list[QueueEntry]:
        keys = self._queue(queue)
        found = await self._retrying(lambda: self._scripts["queue_take"](keys=keys, args=[count]))
        return _entries(found)

    async def queue_take_members(self, queue: str, members: list[str]) -> list[QueueEntry]:
        if not members or len(set(members)) != len(members):
            return []
        keys = self._queue(queue)
        take = self._scripts["queue_take_members"]
        found = await self._retrying(lambda: take(keys=keys, args=members))
        return _entries(found)

    # -- counters ------------------------------------------------------------------------------

    async def next_number(self, name: str) -> int:
        key = self._name(f"number:{name}")
        return int(await self._retrying(lambda: self._client.incr(key)))

    @property
    def process(self) -> str:
        return self._id

    async def processes(self) -> set[str]:
        keys = [self._name("processes")]
        args = [self._name("process:"), self._name("subscriptions:")]
        alive = await self._retrying(lambda: self._scripts["alive"](keys=keys, args=args))
        return {self._id} | {name.decode() for name in alive}

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._subscribers.close_all()
        if not self._failing:  # else the next start goes by the last heartbeat heard
            with contextlib.suppress(aioredis.RedisError, OSError, TimeoutError):
                async with asyncio.timeout(ANSWER_SECONDS):
                    await self._say_closed()
        await self._pubsub.aclose()
        await self._client.aclose()

    async def _say_closed(self) -> None:
        moment = repr(time.time())
        await self._client.mset({self._name(key): moment for key in ("heard-at", "closed-at")})
        await self._client.srem(self._name("processes"), self._id)
        await self._client.delete(
            self._name(f"process:{self._id}"), self._name(f"subscriptions:{self._id}")
        )


def shown_url(url: str) -> str:
    """``url`` with its password, if it has one, hidden: for the log and error messages.

    >>> shown_url("redis://:secret@db.example:6379/0"), shown_url("redis://127.0.0.1:6379")
    ('redis://:***@db.example:6379/0', 'redis://127.0.0.1:6379')
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _entries(flat: list[Any]) -> list[QueueEntry]:
    """Queue entries from a script's answer: member, value, microseconds waited, ..."""
    return [
        QueueEntry(flat[i].decode(), bytes(flat[i + 1]), int(flat[i + 2]) / 1_000_000)
        for i in range(0, len(flat), 3)
    ]
