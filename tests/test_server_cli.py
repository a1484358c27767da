"""``sixtui serve`` (and ``python -m sixtui.server``): the server's command, its refusals, and
a real start and stop."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sixtui.server import cli
from sixtui.server.names import FILE_NAME


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_sixtui_lists_serve_beside_its_own_commands(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listed = capsys.readouterr().out
    assert "play" in listed and "serve" in listed and "run the SSH server" in listed


@pytest.mark.parametrize(
    ("argv", "environ", "message"),
    [
        (["serve", "--port", "70000"], {}, "port (from the command line): 70000 is out of range"),
        (["serve", "--set", "idle_timeout"], {}, "--set idle_timeout: write NAME=VALUE"),
        (["serve", "--config", "/no/such.toml"], {}, "config: there is no file /no/such.toml"),
        (["serve"], {"SIXTUI_CONFIG": "/no/such.toml"}, "config: there is no file /no/such.toml"),
    ],
)
def test_bad_settings_stop_serve_with_one_line_naming_them(
    argv, environ, message, monkeypatch, capsys
) -> None:
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.strip().splitlines()[-1].startswith(f"sixtui server: {message}")
    assert captured.out == ""


def test_a_data_directory_that_cannot_be_made_is_refused_naming_it(tmp_path, capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert cli.main(["serve", "--port", str(free_port()), "--data-dir", str(blocker / "data")]) == 2
    assert "sixtui server: data_dir:" in capsys.readouterr().err


def test_serve_listens_says_how_to_connect_and_stops_cleanly_on_sigterm(tmp_path) -> None:
    sixtui, port = Path(sys.executable).with_name("sixtui"), free_port()
    server = subprocess.Popen(
        [sixtui, "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SIXTUI_CONFIG": ""},
    )
    try:
        deadline, said = time.monotonic() + 30, ""
        while "connect with ssh -p" not in said and time.monotonic() < deadline:
            line = server.stderr.readline()
            if not line:
                break
            said += line
        assert f"connect with ssh -p {port} localhost" in said, said
        assert (tmp_path / "host_key").stat().st_mode & 0o777 == 0o600
        assert (tmp_path / FILE_NAME).exists()
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert out == ""  # nothing ever goes to stdout


def test_a_port_in_use_is_refused_in_one_line(tmp_path, capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)]
        assert cli.main(argv) == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said == (
        f"sixtui server: port: cannot listen on 127.0.0.1 port {port}: address already in use"
    )
