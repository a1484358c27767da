"""The examples in the server's docstrings hold."""

import doctest
import importlib
import pkgutil

import pytest

import sixtui.server

MODULES = [
    importlib.import_module(f"sixtui.server.{info.name}")
    for info in pkgutil.iter_modules(sixtui.server.__path__)
]


@pytest.mark.parametrize("module", MODULES, ids=lambda module: module.__name__)
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert failures == 0
