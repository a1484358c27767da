"""The examples in every module's docstrings hold: the rules library, the computer
players, the interface and the server."""

import doctest
import importlib
import pkgutil

import pytest

import sixtui
import sixtui.server

# The server lives in a folder of its own, installed as sixtui.server: walked apart.
PACKAGES = (sixtui, sixtui.server)
MODULES = list(PACKAGES) + [
    importlib.import_module(info.name)
    for package in PACKAGES
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    if not info.name.endswith("__main__")
]


def test_every_part_is_examined():
    names = {module.__name__ for module in MODULES}
    assert {"sixtui.rules.six", "sixtui.ai.grid", "sixtui.tui.game_setup"} <= names
    assert {"sixtui.server.settings", "sixtui.server.names"} <= names


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert failures == 0
