"""A ``redis-server`` of one's own, started on a free port of the loopback and kept in
memory only (nothing saved): for the benchmarks of several server processes on one Redis,
and for the tests."""

import shutil
import socket
import subprocess
import tempfile
import time

STARTUP_SECONDS = 10.0


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

    def remove(self) -> None:
        """Stops it, and removes its folder."""
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
