"""The few private names of Textual that sixtui cannot do without, each used only here.

Textual offers no public way to do what these do (docs/operations.md says why each is
needed). tests/test_textual_internals.py checks every one against the installed Textual
and fails, saying what changed, when a release renames, moves or changes one of them.
"""

from __future__ import annotations

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
    from collections.abc import Callable, Mapping

    from textual.app import App
    from textual.dom import DOMNode
    from textual.filter import LineFilter

__all__ = [
    "TEXTUAL_VERSION",
    "XTermParser",
    "active_app",
    "component_styles",
    "disable_tooltips",
    "end_quietly_on_failure",
    "escape_wait",
    "keep_strips_acyclic",
    "line_filters",
    "make_strip_caches_on_use",
    "release_parser",
]


def disable_tooltips(app: App[object]) -> None:
    """No tooltip layer on ``app``'s screens: sixtui has no tooltips, and Textual gives
    every screen one unless told not to (its tests alone can say so, through run_test)."""
    app._disable_tooltips = True


def end_quietly_on_failure(app: App[object], failed: Callable[[Exception], None]) -> None:
    """On an exception that nothing in ``app`` handled, ``failed`` is told of it and the app
    ends with return code 1, as Textual ends it, but without printing the traceback (with
    its local variables) to the app's terminal at exit: a player's, over SSH."""

    def handle(error: Exception) -> None:
        failed(error)
        app.exit(return_code=1)

    app._handle_exception = handle  # type: ignore[method-assign]


def component_styles(widget: DOMNode) -> Mapping[str, object]:
    """The styles the stylesheet gave each of ``widget``'s component classes, by name: new
    objects each time it styles the widget again, so a style worked out from them may be
    kept for as long as they are the same objects (Textual's own ``get_component_rich_style``
    forgets what it worked out at every refresh)."""
    return widget._component_styles


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


# The caches each strip has (private slots of Strip), each made in Strip.__init__.
STRIP_CACHES = (
    "_divide_cache",
    "_crop_cache",
    "_style_cache",
    "_filter_cache",
    "_line_length_cache",
    "_crop_extend_cache",
    "_offsets_cache",
)


class _CacheMadeOnUse:
    """One of a strip's caches, made when it is first used: until then its slot holds
    the size the cache is to have, a small int that costs nothing."""

    __slots__ = ("_slot",)

    def __init__(self, slot: Any) -> None:
        self._slot = slot  # the slot's own descriptor, which Strip's class held

    def __get__(self, strip: Strip | None, owner: type | None = None) -> Any:
        if strip is None:
            return self
        cache = self._slot.__get__(strip, owner)
        if type(cache) is int:
            cache = FIFOCache(cache)
            self._slot.__set__(strip, cache)
        return cache

    def __set__(self, strip: Strip, cache: Any) -> None:
        self._slot.__set__(strip, cache)


def _cache_size(maxsize: int) -> int:
    """What Strip.__init__ keeps in place of each cache it would make."""
    return maxsize


def make_strip_caches_on_use() -> None:
    """Strips made from now on make each of their caches when it is first used.

    Each strip made seven caches (private ones) of what is made from it, each an object
    the garbage collector tracks, with a dict of its own; most strips use one of them or
    none (of 14,934 strips held at 40 sessions, 1,922 used their divide cache, 1,359
    their crop cache, none another). A session keeps hundreds of strips and draws
    thousands: their caches were a fifth of what the collector's middle generation
    walked, and a session now holds a fifth fewer objects (7,700 against 10,000 at 60
    sessions) and a seventh fewer of the allocator's blocks.
    """
    if isinstance(vars(Strip)[STRIP_CACHES[0]], _CacheMadeOnUse):
        return
    for name in STRIP_CACHES:
        setattr(Strip, name, _CacheMadeOnUse(vars(Strip)[name]))
    strip_module.FIFOCache = _cache_size  # type: ignore[misc,assignment]
