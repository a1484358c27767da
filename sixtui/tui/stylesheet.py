"""Stylesheets that share their parsed CSS with every app in the process.

Textual parses the CSS of an app and of each kind of widget it mounts again for every
app, and keeps the result with that app's stylesheet. A server runs an app for each
player, all with the same CSS, so parsing it once saves most of the cost of styling a
new session's screen, and the memory of a copy of every rule per session.
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

# Rules parsed from one source with one set of CSS variables: a few dozen sources (the
# app's file and each widget's default CSS) for each theme in use.
_PARSED_KEPT = 1024
_parsed: LRUCache[tuple[object, ...], list[RuleSet]] = LRUCache(_PARSED_KEPT)


class SharedStylesheet(Stylesheet):
    """A :class:`Stylesheet` that parses a source once per process for each set of
    variables (a theme), and shares the rules with every other such stylesheet.

    The rules are only read once parsed, so sharing them is safe; the variables are part
    of the key because Textual substitutes them while parsing.
    """

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._theme_key = _theme_key(self._variables)

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._theme_key = _theme_key(self._variables)

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (self._theme_key, css, read_from, is_default_rules, tie_breaker, scope)
        rules = _parsed.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _parsed[key] = rules
        return rules


def _theme_key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(variables.items()))
