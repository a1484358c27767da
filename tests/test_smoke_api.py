"""The public names of sixtui.rules exist and behave as documented (doctests run too)."""

import doctest

import pytest

import sixtui.rules
from sixtui.rules import connect6, gameof6, games, gridgame, match, result, square


@pytest.mark.parametrize(
    "module", [sixtui.rules, connect6, gameof6, games, gridgame, match, result, square]
)
def test_docstring_examples_hold(module):
    failures, _ = doctest.testmod(module, raise_on_error=False, verbose=False)
    assert failures == 0
