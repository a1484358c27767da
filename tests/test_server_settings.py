"""Server settings: the documented defaults, the order of overrides, and refusals that
name the setting."""

import os
import re
import stat
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sixtui.server.host_key import load_or_create_host_key
from sixtui.server.settings import NAMES, SettingError, Settings, load_settings

CONFIG = Path(__file__).parent.parent / "config" / "server.toml"


def test_the_config_file_states_every_default_and_nothing_else():
    written = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    assert set(written) == set(NAMES)
    assert load_settings(CONFIG) == Settings()


def test_every_setting_is_explained_by_a_comment_above_it():
    lines = CONFIG.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        if line and not line.startswith("#"):
            above = number - 1
            while above >= 0 and lines[above] and not lines[above].startswith("#"):
                above -= 1  # settings grouped under one comment
            assert above >= 0 and lines[above].startswith("#"), f"no comment above {line!r}"


def test_the_command_line_wins_over_the_environment_which_wins_over_the_file(tmp_path):
    config = tmp_path / "server.toml"
    config.write_text('port = 2000\nhost = "::"\nallow_guests = false\n', encoding="utf-8")
    settings = load_settings(
        config,
        environ={"SIXTUI_PORT": "2100", "SIXTUI_HOST": "127.0.0.1"},
        overrides={"port": 2200},
    )
    assert (settings.port, settings.host, settings.allow_guests) == (2200, "127.0.0.1", False)
    assert settings.max_connections == Settings().max_connections


def test_the_hub_is_memory_or_a_redis_url():
    assert load_settings(environ={"SIXTUI_HUB": " Memory "}).hub == "memory"
    url = "redis://10.0.0.5:6379/2"
    assert load_settings(overrides={"hub": f" {url}"}).hub == url


def test_environment_values_are_read_from_text():
    settings = load_settings(
        environ={"SIXTUI_ALLOW_GUESTS": "no", "SIXTUI_IDLE_TIMEOUT": "90.5", "OTHER": "x"}
    )
    assert settings.allow_guests is False and settings.idle_timeout == 90.5


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"SIXTUI_PORT": "70000"}, "port (from SIXTUI_PORT): 70000 is out of range"),
        ({"SIXTUI_PORT": "-1"}, "port (from SIXTUI_PORT): -1 is out of range"),
        ({"SIXTUI_MAX_PER_IP": "many"}, "max_per_ip (from SIXTUI_MAX_PER_IP): 'many' is not"),
        ({"SIXTUI_ALLOW_GUESTS": "maybe"}, "allow_guests (from SIXTUI_ALLOW_GUESTS): 'maybe'"),
        ({"SIXTUI_LOGIN_TIMEOUT": "0"}, "login_timeout (from SIXTUI_LOGIN_TIMEOUT)"),
        ({"SIXTUI_LOGIN_TIMEOUT": "nan"}, "login_timeout (from SIXTUI_LOGIN_TIMEOUT)"),
        ({"SIXTUI_PROT": "22"}, "prot (from SIXTUI_PROT) is not a setting"),
        ({"SIXTUI_JOURNAL": "sometimes"}, "journal (from SIXTUI_JOURNAL): 'sometimes' is none of"),
        ({"SIXTUI_HOST": "  "}, "host (from SIXTUI_HOST)"),
        ({"SIXTUI_HUB": "redis"}, "hub (from SIXTUI_HUB): 'redis' is neither memory nor a"),
        ({"SIXTUI_IDLE_WARNING": "4000"}, "idle_warning: 4000 s must be shorter than idle_timeout"),
        ({"SIXTUI_MAX_PER_IP": "900"}, "max_per_ip: 900 is more than max_connections (500)"),
    ],
)
def test_a_bad_value_is_refused_naming_the_setting_and_its_source(environ, message):
    with pytest.raises(SettingError, match=re.escape(message)):
        load_settings(environ=environ)


def test_bad_values_in_the_file_name_the_file(tmp_path):
    config = tmp_path / "server.toml"
    config.write_text("port = true\n", encoding="utf-8")
    with pytest.raises(SettingError, match=f"port \\(from {config}\\)"):
        load_settings(config)
    config.write_text("port = = 3\n", encoding="utf-8")
    with pytest.raises(SettingError, match="is not valid TOML"):
        load_settings(config)
    with pytest.raises(SettingError, match="there is no file"):
        load_settings(tmp_path / "missing.toml")


@given(st.dictionaries(st.sampled_from(NAMES), st.text(max_size=12), max_size=4))
def test_any_text_from_the_environment_gives_settings_or_a_setting_error(values):
    environ = {f"SIXTUI_{name.upper()}": value for name, value in values.items()}
    try:
        settings = load_settings(environ=environ)
    except SettingError as why:
        assert str(why).split(" ", 1)[0].rstrip(":") in NAMES
    else:
        assert isinstance(settings, Settings)


def test_the_host_key_is_made_once_private_and_then_reused(tmp_path):
    path = tmp_path / "data" / "host_key"
    first = load_or_create_host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first.algorithm == b"ssh-ed25519"
    again = load_or_create_host_key(path)
    assert again.export_public_key() == first.export_public_key()
    assert [p.name for p in path.parent.iterdir()] == ["host_key"]


def test_a_host_key_others_can_read_or_that_is_not_a_key_is_refused(tmp_path):
    path = tmp_path / "host_key"
    load_or_create_host_key(path)
    os.chmod(path, 0o644)
    with pytest.raises(SettingError, match=r"host_key: .* can be read by other users"):
        load_or_create_host_key(path)
    path.write_text("not a key", encoding="utf-8")
    os.chmod(path, 0o600)
    with pytest.raises(SettingError, match=r"host_key: .* is not a usable private key"):
        load_or_create_host_key(path)


def test_the_host_key_lives_in_the_data_directory_unless_absolute(tmp_path):
    assert Settings(data_dir=tmp_path).host_key_path == tmp_path / "host_key"
    elsewhere = tmp_path / "keys" / "server"
    assert Settings(host_key=elsewhere).host_key_path == elsewhere


def test_the_computer_players_workers_are_set_or_sized_from_the_machine():
    assert load_settings(overrides={"ai_workers": "3"}).thinking_processes == 3
    cores = os.cpu_count()
    assert load_settings(overrides={"ai_workers": "auto"}).thinking_processes == max(1, cores - 1)
    assert Settings().thinking_processes == max(1, cores - 1)
    assert Settings(workers=2).thinking_processes == max(1, (cores - 2) // 2)
    with pytest.raises(SettingError, match=r"ai_workers \(from the command line\): 'many' is not"):
        load_settings(overrides={"ai_workers": "many"})
    with pytest.raises(SettingError, match="0 is out of range: it must be from 1 to 256, or auto"):
        load_settings(overrides={"ai_workers": "0"})
