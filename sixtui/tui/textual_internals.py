"""The few private names of Textual that sixtui cannot do without, each used only here.

Textual offers no public way to do what these do (docs/operations.md says why each is
needed). tests/test_textual_internals.py checks every one against the installed Textual
and fails, saying what changed, when a release renames, moves or changes one of them.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from textual import __version__ as TEXTUAL_VERSION
from textual import strip as strip_module
from textual.cache import FIFOCache
from textual.strip import Strip

try:
    # The app whose code is running now: screens tell their own app's work from another's.
    from textual._context import active_app

    # The clock the key parser times a lone Esc by.
    from textual._time import get_time

    # Textual's reader of terminal input; its drivers build their own, and so does ours.
    from textual._xterm_parser import XTermParser
except ImportError as missing:  # pragma: no cover - only with a Textual sixtui does not know
    raise ImportError(
        f"Textual {TEXTUAL_VERSION} no longer has a name sixtui relies on ({missing}): see "
        "sixtui/tui/textual_internals.py and the Textual internals in docs/operations.md"
    ) from missing

if TYPE_CHECKING:
    from textual.app import App
    from textual.filter import LineFilter

__all__ = [
    "TEXTUAL_VERSION",
    "XTermParser",
    "active_app",
    "disable_tooltips",
    "escape_wait",
    "keep_strips_acyclic",
    "line_filters",
    "release_parser",
    "share_empty_strip_caches",
]


def disable_tooltips(app: App[object]) -> None:
    """No tooltip layer on ``app``'s screens: sixtui has no tooltips, and Textual gives
    every screen one unless told not to (its tests alone can say so, through run_test)."""
    app._disable_tooltips = True


def line_filters(app: App[object]) -> list[LineFilter]:
    """``app``'s own list of line filters, to change in place: Textual chose them from
    this process's environment, and an app drawing for a player over SSH needs those of
    the player's terminal (Textual only offers ``get_line_filters``, to read them)."""
    return app._filters


def escape_wait(parser: XTermParser) -> float | None:
    """Seconds until a lone Esc held in ``parser`` is taken as the Esc key (by
    ``parser.tick()``), or None when it holds none: a driver without an input thread to
    tick the parser must come back for it itself."""
    deadline = parser._timeout_time
    return None if deadline is None else max(0.0, deadline - get_time())


def release_parser(parser: XTermParser) -> None:
    """Lets go of what ``parser`` holds. Textual's key cache keeps up to 1,024 parsers,
    and a parser's suspended generator holds the events it made, and through them its
    app, for as long as the cache keeps it."""
    parser._gen.close()
    parser._tokens.clear()


_crop_extend = Strip.crop_extend
_divide = Strip.divide


def _whole_crop_extend(strip: Strip, start: int, end: int, style: object) -> Strip:
    if start == 0 and end == strip.cell_length:
        return strip
    return _crop_extend(strip, start, end, style)


def _whole_divide(strip: Strip, cuts: object) -> object:
    cell_length = strip.cell_length
    kept = [cut for cut in cuts if cut <= cell_length]  # type: ignore[attr-defined]
    if kept == [cell_length]:
        return [strip]
    return _divide(strip, kept)


def keep_strips_acyclic() -> None:
    """Lets a strip cropped or divided to the whole of itself be freed as soon as it is no
    longer used, as every other strip is.

    ``Strip.crop_extend`` and ``Strip.divide`` keep what they return in the strip's own
    caches (private ones), and when that is the strip itself, the strip refers to itself:
    only the garbage collector's full passes can free it then. The compositor does both to
    most strips it draws, so nearly every line a session ever drew waited for a collection
    (some 12,000 objects a session between collections on a server), and collections over
    hundreds of sessions stop the event loop for a second or more. Returning the strip
    without keeping it changes nothing else: that is what the caches would have given.
    """
    Strip.crop_extend = _whole_crop_extend  # type: ignore[method-assign,assignment]
    Strip.divide = _whole_divide  # type: ignore[method-assign,assignment]


# What every strip cache holds until something is kept in it: read-only, so that a write
# that did not go through ``set`` fails loudly rather than fill every strip's cache.
_NOTHING_KEPT: MappingProxyType[Any, Any] = MappingProxyType({})


class StripCache(FIFOCache[Any, Any]):
    """A :class:`FIFOCache` that makes its dict when a first value is kept in it."""

    __slots__ = ()

    def __init__(self, maxsize: int) -> None:  # FIFOCache's own, but for the dict
        self._maxsize = maxsize
        self._cache = _NOTHING_KEPT  # type: ignore[assignment]
        self.hits = 0
        self.misses = 0

    def set(self, key: Any, value: Any) -> None:
        if self._cache is _NOTHING_KEPT:
            self._cache = {}
        super().set(key, value)

    __setitem__ = set

    def clear(self) -> None:
        self._cache = _NOTHING_KEPT  # type: ignore[assignment]


def share_empty_strip_caches() -> None:
    """Strips made from now on share one empty dict among their caches until they keep
    something in one.

    Each strip has seven caches (private ones) of what was made from it, each with a dict
    of its own from the start; most strips use one of them or none, and a session keeps
    hundreds of strips: the empty dicts were about a tenth of a session's memory.
    """
    strip_module.FIFOCache = StripCache  # type: ignore[misc]
