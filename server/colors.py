"""Colors in the escape codes sent to a client, brought down to what its terminal shows.

Every session renders in 24-bit color, and its output is rewritten here for a terminal
with 256 or 16 colors. Rendering each session in its own color system is not enough:
Rich keeps a style's escape codes on the style object, shared by every app in the
process, so the first session to draw a style would choose its colors for all.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rich.color import Color, ColorSystem

_SYSTEMS = {"256": ColorSystem.EIGHT_BIT, "standard": ColorSystem.STANDARD}
_SGR = re.compile(r"\x1b\[([0-9;]*)m")


class ColorDowngrade:
    """Rewrites ``text`` for a terminal with ``color_system`` colors.

    >>> ColorDowngrade("256")("\\x1b[1;38;2;215;175;95mwood\\x1b[0m")
    '\\x1b[1;38;5;179mwood\\x1b[0m'
    >>> ColorDowngrade("standard")("\\x1b[48;5;21m \\x1b[0m")
    '\\x1b[44m \\x1b[0m'
    >>> ColorDowngrade("truecolor").needed
    False
    """

    def __init__(self, color_system: str) -> None:
        self._system = _SYSTEMS.get(color_system)
        self.needed = self._system is not None

    def __call__(self, text: str) -> str:
        system = self._system
        if system is None or "\x1b[" not in text:
            return text
        return _SGR.sub(lambda sgr: _rewritten(sgr.group(1), system), text)


@lru_cache(maxsize=4096)
def _rewritten(parameters: str, system: ColorSystem) -> str:
    """One SGR sequence with its 24-bit and 256-color colors brought down to ``system``."""
    codes = parameters.split(";")
    kept: list[str] = []
    index = 0
    while index < len(codes):
        code = codes[index]
        kind = codes[index + 1] if index + 1 < len(codes) else ""
        if code in ("38", "48") and kind in ("2", "5"):
            size = 5 if kind == "2" else 3
            color = _color(codes[index + 1 : index + size])
            if color is not None:
                kept.extend(color.downgrade(system).get_ansi_codes(foreground=code == "38"))
            index += size
            continue
        kept.append(code)
        index += 1
    return f"\x1b[{';'.join(kept)}m"


def _color(codes: list[str]) -> Color | None:
    """The color of ``2;R;G;B`` or ``5;N``, or None if the numbers are not one."""
    try:
        numbers = [int(code) for code in codes[1:]]
        if not all(0 <= number <= 255 for number in numbers):
            return None
        if codes[0] == "2" and len(numbers) == 3:
            red, green, blue = numbers
            return Color.from_rgb(red, green, blue)
        if codes[0] == "5" and len(numbers) == 1:
            return Color.from_ansi(numbers[0])
    except ValueError:
        pass
    return None
