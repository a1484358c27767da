"""A real ``redis-server`` for the tests, started on a free port of the loopback and kept
in memory only (nothing saved), stopped when the tests end.

Where Debian's ``redis-server`` is not installed, the tests that need it are skipped with
a warning that says so, except in CI (``CI`` set), where they fail: CI installs it.
"""

import atexit
import contextlib
import os
import shutil
import warnings
from collections.abc import Iterator

import pytest

from benchmarks.redis_server import RedisServer

MISSING = (
    "redis-server is not installed: the tests of the Redis hub did not run "
    "(apt-get install redis-server; CI always runs them)"
)

_shared: RedisServer | None = None


def redis_executable() -> str:
    """Where redis-server is, or the test is skipped, loudly, where none is installed; in
    CI it fails instead."""
    executable = shutil.which("redis-server")
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail(MISSING.replace("did not run", "cannot run in CI"))
        warnings.warn(MISSING, stacklevel=2)
        pytest.skip(MISSING)
    return executable


def shared_redis() -> RedisServer:
    """The redis-server this test process shares, started at first use."""
    global _shared
    if _shared is None:
        _shared = RedisServer(redis_executable())
        _shared.start()
        atexit.register(_shared.remove)
    return _shared


@contextlib.contextmanager
def own_redis(keep: bool = False) -> Iterator[RedisServer]:
    """A redis-server for one test alone, stopped as it ends; ``keep``: what it holds
    outlives a stop and a start."""
    server = RedisServer(redis_executable(), keep)
    server.start()
    try:
        yield server
    finally:
        server.remove()
