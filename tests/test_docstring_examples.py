"""The examples in the rules library's docstrings hold."""

import doctest

import pytest

import sixtui.rules
from sixtui.rules import (
    connect6,
    gameof6,
    games,
    gridgame,
    hexes,
    match,
    move,
    result,
    shapes,
    six,
    square,
)


@pytest.mark.parametrize(
    "module",
    [
        sixtui.rules,
        connect6,
        gameof6,
        games,
        gridgame,
        hexes,
        match,
        move,
        result,
        shapes,
        six,
        square,
    ],
)
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert failures == 0
