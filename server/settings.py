"""The server's settings: defaults, then config/server.toml, the environment and the
command line, each checked so that a bad value stops the server with a message naming it.

>>> settings = load_settings(environ={"SIXTUI_PORT": "2022"}, overrides={"host": "127.0.0.1"})
>>> settings.host, settings.port
('127.0.0.1', 2022)
>>> load_settings(environ={"SIXTUI_PORT": "http"})
Traceback (most recent call last):
...
sixtui.server.settings.SettingError: port (from SIXTUI_PORT): 'http' is not a whole number
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "SIXTUI_"
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
REDIS_EXAMPLE = "redis://127.0.0.1:6379/0"


class SettingError(ValueError):
    """A setting has a value the server cannot use; the message names the setting."""


@dataclass(frozen=True)
class Settings:
    """Everything an operator can set; the defaults are those of config/server.toml."""

    host: str = "0.0.0.0"
    port: int = 2222
    data_dir: Path = Path("data")
    host_key: Path = Path("host_key")
    allow_guests: bool = True
    max_connections: int = 500
    max_per_ip: int = 20
    connect_rate: int = 60  # new connections a minute from one address, 2 × max_per_ip at once
    max_per_key: int = 5
    max_per_connection: int = 3
    login_timeout: float = 30.0
    session_grace: float = 10.0
    keepalive_interval: float = 30.0
    idle_timeout: float = 1800.0
    idle_warning: float = 60.0
    output_cap: int = 1 << 20
    input_rate: int = 1024
    key_rate: int = 30  # key presses a second, four seconds' worth at once; beyond, dropped
    ai_workers: int | None = None  # None: as many as the machine's cores allow
    reconnect_window: float = 60.0  # seconds a player who dropped out has to come back
    journal: str = "write"  # how the hub's journal reaches the disk: write, fsync, batch, off
    hub: str = "memory"  # memory (in this process, kept in data_dir), or a Redis URL
    workers: int = 1  # server processes sharing the port (more than one: hub on Redis)

    @property
    def thinking_processes(self) -> int:
        """Worker processes for the computer players, each server process's: ``ai_workers``,
        or else the cores left over by the server processes' event loops, shared among
        them (one at least)."""
        if self.ai_workers is not None:
            return self.ai_workers
        return max(1, ((os.cpu_count() or 1) - self.workers) // self.workers)

    @property
    def host_key_path(self) -> Path:
        """The host key file, inside the data directory unless given as an absolute path."""
        return self.host_key if self.host_key.is_absolute() else self.data_dir / self.host_key


def _whole(low: int, high: int | None = None) -> Callable[[object], int]:
    def read(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"{value!r} is not a whole number")
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a whole number") from None
        if number < low or (high is not None and number > high):
            span = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise ValueError(f"{number} is out of range: it must be {span}")
        return number

    return read


def _seconds(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"{value!r} is not a number of seconds")
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a number of seconds") from None
    if not 0 < seconds < 10**7:
        raise ValueError(f"{value!r} is not a number of seconds above 0")
    return seconds


def _switch(value: object) -> bool:
    if isinstance(value, bool):
        return value
    words = {"true": True, "yes": True, "on": True, "1": True}
    words |= {"false": False, "no": False, "off": False, "0": False}
    if isinstance(value, str) and value.strip().lower() in words:
        return words[value.strip().lower()]
    raise ValueError(f"{value!r} is neither true nor false")


def _workers(value: object) -> int | None:
    if isinstance(value, str) and value.strip().lower() == "auto":
        return None
    try:
        return _whole(1, 256)(value)
    except ValueError as why:
        raise ValueError(f"{why}, or auto") from None


def _journal(value: object) -> str:
    choices = ("write", "fsync", "batch", "off")
    if isinstance(value, str) and value.strip().lower() in choices:
        return value.strip().lower()
    raise ValueError(f"{value!r} is none of {', '.join(choices)}")


def _hub(value: object) -> str:
    if isinstance(value, str) and value.strip().lower() == "memory":
        return "memory"
    if isinstance(value, str) and value.strip().startswith(REDIS_SCHEMES):
        return value.strip()
    raise ValueError(f"{value!r} is neither memory nor a Redis URL such as {REDIS_EXAMPLE}")


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{value!r} is not a host name or address")
    return value.strip()


def _path(value: object) -> Path:
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise ValueError(f"{value!r} is not a path")
    return Path(value.strip())


_READERS: dict[str, Callable[[object], Any]] = {
    "host": _text,
    "port": _whole(1, 65535),
    "data_dir": _path,
    "host_key": _path,
    "allow_guests": _switch,
    "max_connections": _whole(1),
    "max_per_ip": _whole(1),
    "connect_rate": _whole(1),
    "max_per_key": _whole(1),
    "max_per_connection": _whole(1),
    "login_timeout": _seconds,
    "session_grace": _seconds,
    "keepalive_interval": _seconds,
    "idle_timeout": _seconds,
    "idle_warning": _seconds,
    "output_cap": _whole(1024),
    "input_rate": _whole(64),
    "key_rate": _whole(5),
    "ai_workers": _workers,
    "reconnect_window": _seconds,
    "journal": _journal,
    "hub": _hub,
    "workers": _whole(1, 64),
}
NAMES = tuple(field.name for field in fields(Settings))


def load_settings(
    config: Path | None = None,
    environ: Mapping[str, str] | None = None,
    overrides: Mapping[str, object] | None = None,
) -> Settings:
    """The settings from the defaults, then ``config`` (a TOML file), then ``environ``
    (``SIXTUI_NAME`` variables), then ``overrides`` (the command line).

    Raises :class:`SettingError` naming the setting and where its value came from.
    """
    values: dict[str, Any] = {}
    if config is not None:
        for name, value in _read_toml(config).items():
            values[name] = _check(name, value, str(config))
    for variable, value in (environ or {}).items():
        if variable.startswith(ENV_PREFIX) and variable != f"{ENV_PREFIX}CONFIG":
            name = variable[len(ENV_PREFIX) :].lower()
            values[name] = _check(name, value, variable)
    for name, value in (overrides or {}).items():
        values[name] = _check(name, value, "the command line")
    settings = replace(Settings(), **values)
    if settings.idle_warning >= settings.idle_timeout:
        raise SettingError(
            f"idle_warning: {settings.idle_warning:g} s must be shorter than "
            f"idle_timeout ({settings.idle_timeout:g} s)"
        )
    if settings.max_per_ip > settings.max_connections:
        raise SettingError(
            f"max_per_ip: {settings.max_per_ip} is more than max_connections "
            f"({settings.max_connections})"
        )
    return settings


def _check(name: str, value: object, source: str) -> Any:
    reader = _READERS.get(name)
    if reader is None:
        raise SettingError(
            f"{name} (from {source}) is not a setting; the settings: {', '.join(NAMES)}"
        )
    try:
        return reader(value)
    except ValueError as why:
        raise SettingError(f"{name} (from {source}): {why}") from None


def _read_toml(path: Path) -> dict[str, object]:
    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except FileNotFoundError:
        raise SettingError(f"config: there is no file {path}") from None
    except (OSError, UnicodeDecodeError) as why:
        raise SettingError(f"config: {path} cannot be read: {why}") from None
    except tomllib.TOMLDecodeError as why:
        raise SettingError(f"config: {path} is not valid TOML: {why}") from None
