"""A real ``redis-server`` for the tests, started on a free port of the loopback and kept
in memory only (nothing saved), stopped when the tests end.

Where Debian's ``redis-server`` is not installed, the tests that need it are skipped with
a warning that says so, except in CI (``CI`` set), where they fail: CI installs it.
"""

import atexit
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator

import pytest

STARTUP_SECONDS = 10.0
MISSING = (
    "redis-server is not installed: the tests of the Redis hub did not run "
    "(apt-get install redis-server; CI always runs them)"
)


class RedisServer:
    """One redis-server process: its URL, and a way to stop it and start it again on the
    same port (for tests of a Redis that goes away)."""

    def __init__(self, executable: str, keep: bool = False) -> None:
        self.executable = executable
        self.keep = keep  # what it holds, across a stop and a start (its append-only file)
        self.port = _free_port()
        self.folder = tempfile.mkdtemp(prefix="sixtui-redis-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                self.executable,
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--save", "",
                "--appendonly", "yes" if self.keep else "no",
                "--dir", self.folder,
                "--loglevel", "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server ended at start: {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=STARTUP_SECONDS)
        self.process = None


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
        atexit.register(_shared.stop)
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
        server.stop()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
