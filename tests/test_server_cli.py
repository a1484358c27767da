"""The ``sixtui`` command (also ``python -m sixtui``) and its ``serve``: options, refusals,
where the settings and data come from, and a real start and stop."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest

import sixtui
from sixtui.server import cli
from sixtui.server.names import FILE_NAME
from sixtui.server.session import STOPPING
from sixtui.server.settings import Settings
from support.ssh_client import LOBBY, TIMEOUT, connect, read_until

SIXTUI = str(Path(sys.executable).with_name("sixtui"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_sixtui_lists_serve_beside_its_own_commands(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listed = capsys.readouterr().out
    assert "play" in listed and "serve" in listed and "run the SSH server" in listed


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["--version"]])
def test_python_m_sixtui_is_the_sixtui_command(argv) -> None:
    def said(*command: str) -> tuple[int, str, str]:
        done = subprocess.run([*command, *argv], capture_output=True, text=True, timeout=60)
        return done.returncode, done.stdout, done.stderr

    assert said(sys.executable, "-m", "sixtui") == said(SIXTUI) == (0, said(SIXTUI)[1], "")


def test_version_is_the_installed_package_version(capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"sixtui {version('sixtui')}\n"
    assert version("sixtui") == sixtui.__version__


def test_serve_help_shows_each_default(capsys) -> None:
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split("options:", 1)[1].split())
    defaults = Settings()
    for option, value in (
        ("--host ADDR", defaults.host),
        ("--port N", defaults.port),
        ("--data-dir DIR", defaults.data_dir),
    ):
        assert f"{option} " in shown
        assert f"(default: {value}" in shown.split(option, 1)[1].split(" --", 1)[0], option
    assert "--config PATH settings file (default: $SIXTUI_CONFIG, else config/server.toml" in shown


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


def serving(argv: list[str], cwd: Path, **environ: str) -> tuple[str, str]:
    """Starts ``argv`` (a server) in ``cwd``, reads its log up to the line saying how to
    connect, then stops it with SIGTERM; the log up to that line, and what followed on
    stdout and stderr once it stopped (it must stop with status 0)."""
    server = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        env={**os.environ, "SIXTUI_CONFIG": "", **environ},
    )
    try:
        deadline, said = time.monotonic() + 30, ""
        while "connect with ssh" not in said and time.monotonic() < deadline:
            line = server.stderr.readline()
            if not line:
                break
            said += line
    finally:
        server.send_signal(signal.SIGTERM)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, said + err
    assert out == ""  # nothing ever goes to stdout
    return said, err


def test_serve_listens_says_how_to_connect_and_stops_cleanly_on_sigterm(tmp_path) -> None:
    port = free_port()
    argv = [SIXTUI, "serve", "--host", "127.0.0.1", "--port", str(port)]
    said, _ = serving([*argv, "--data-dir", str(tmp_path)], cwd=tmp_path)
    assert f"connect with ssh -p {port} localhost (from this machine only)" in said, said
    assert (tmp_path / "host_key").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / FILE_NAME).exists()


def test_started_elsewhere_serve_says_it_uses_the_defaults_and_where_its_data_is(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    argv = ["serve", "--host", "127.0.0.1", "--port", str(free_port())]
    said, _ = serving([sys.executable, "-m", "sixtui", *argv], cwd=elsewhere)
    assert (
        "settings: built-in defaults (no --config, no SIXTUI_CONFIG, "
        f"no config/server.toml in {elsewhere})"
    ) in said, said
    data = elsewhere / "data"
    assert f"data: {data} (player names, game archive); host key: {data / 'host_key'}" in said, said
    assert (data / FILE_NAME).exists()


def settings_file(path: Path, data_dir: str) -> Path:
    path.parent.mkdir(exist_ok=True)
    path.write_text(f'host = "127.0.0.1"\nport = {free_port()}\ndata_dir = "{data_dir}"\n')
    return path


def test_serve_names_the_settings_file_it_found_or_was_given(tmp_path):
    found = settings_file(tmp_path / "config" / "server.toml", "kept")
    said, _ = serving([SIXTUI, "serve"], cwd=tmp_path)
    assert f"settings: from {found}" in said, said
    assert f"data: {tmp_path / 'kept'} (player names, game archive)" in said, said
    named = settings_file(tmp_path / "named.toml", "named")
    said, _ = serving([SIXTUI, "serve"], cwd=tmp_path, SIXTUI_CONFIG=str(named))
    assert f"settings: from {named}" in said, said
    assert f"data: {tmp_path / 'named'} (player names, game archive)" in said, said


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


def test_a_redis_that_cannot_be_reached_is_refused_in_one_line_naming_it(tmp_path, capsys):
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # nothing listens there
    url = f"redis://:secret@127.0.0.1:{port}/0"
    argv = ["serve", "--port", str(free_port()), "--data-dir", str(tmp_path), "--set", f"hub={url}"]
    assert cli.main(argv) == 2
    said = capsys.readouterr().err.strip().splitlines()[-1]
    assert said.startswith(
        f"sixtui server: hub: cannot reach Redis at redis://:***@127.0.0.1:{port}/0"
    )
    assert "secret" not in said


def test_the_interface_never_imports_the_server() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, sixtui.cli, sixtui.tui.app; print(*sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.split()
    assert "sixtui.cli" in loaded
    assert not [name for name in loaded if name.startswith("sixtui.server")]


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM], ids=["SIGHUP", "SIGTERM"])
async def test_a_hangup_stops_the_server_as_sigterm_does_telling_every_player(tmp_path, signum):
    port = free_port()
    argv = ["serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)]
    server = await asyncio.create_subprocess_exec(
        SIXTUI,
        *argv,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "SIXTUI_CONFIG": ""},
    )
    try:
        async with asyncio.timeout(TIMEOUT):
            while b"connect with ssh" not in await server.stderr.readline():
                pass
        log = asyncio.create_task(server.stderr.read())  # read on, so that it never blocks
        async with connect(port) as connection:
            process = await connection.create_process(
                term_type="xterm", term_size=(80, 24), encoding="utf-8"
            )
            await read_until(process, LOBBY)
            server.send_signal(signum)
            seen = await read_until(process, STOPPING)
            assert seen.rindex("\x1b[?1049l") < seen.rindex(STOPPING)  # the screen put back
        async with asyncio.timeout(TIMEOUT):
            assert await server.wait() == 0
            assert b"stopping" in await log
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
