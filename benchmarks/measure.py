"""Timing helpers: repeated runs, medians, a table row per figure."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Figure:
    name: str
    runs: list[float]
    unit: str
    target: str = ""
    digits: int = 1

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def row(self) -> str:
        def show(value: float) -> str:
            return f"{value:,.{self.digits}f}"

        spread = f"{show(min(self.runs))} – {show(max(self.runs))}"
        return f"| {self.name} | {show(self.median)} {self.unit} | {self.target} | {spread} |"


def rate(work: Callable[[], int], seconds: float) -> float:
    """Calls ``work`` (which returns how many units it did) for ``seconds``; units per second."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += work()
    return done / elapsed
