"""Runs every benchmark and prints a Markdown table of medians.

python -m benchmarks [--runs N] [--seconds S] [GROUP ...]

GROUP is rules, six, render, server, online, thinking, rooms or archive (default: all
eight), or cycles: a thousand players pairing, playing and going, once whatever N is (about
ten minutes).

python -m benchmarks ai [OPTIONS] plays the computer players against one another (and
against Cloudict) instead: see benchmarks/ai.py, or python -m benchmarks ai --help.

python -m benchmarks load [OPTIONS] puts many players over SSH against one server process
(make loadtest): see benchmarks/load.py, or python -m benchmarks load --help.

The render figures (benchmarks/render.py) take N runs of a fixed number of key presses each,
and the server figures (benchmarks/server.py) N runs of 100 SSH sessions against a server in
a process of its own, and the online figures (benchmarks/online.py) N runs of 30 turns typed
over SSH, whatever S is.
"""

from __future__ import annotations

import argparse
import platform
import sys

from benchmarks import (
    ai,
    archive,
    cycles,
    load,
    online,
    render,
    rooms,
    rules,
    server,
    six,
    thinking,
)

GROUPS = {
    "rules": rules.figures,
    "six": six.figures,
    "render": render.figures,
    "server": server.figures,
    "online": online.figures,
    "thinking": thinking.figures,
    "rooms": rooms.figures,
    "archive": archive.figures,
}
# Run only when asked for by name: long, and a check for leaks more than a timing.
ON_REQUEST = {"cycles": cycles.figures}


def main() -> None:
    if sys.argv[1:2] == ["ai"]:
        ai.main(sys.argv[2:])
        return
    if sys.argv[1:2] == ["load"]:
        load.main(sys.argv[2:])
        return
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (median kept)")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    parser.add_argument("groups", nargs="*", metavar="GROUP", help=", ".join(GROUPS | ON_REQUEST))
    args = parser.parse_args()
    every = GROUPS | ON_REQUEST
    unknown = [group for group in args.groups if group not in every]
    if unknown:
        parser.error(f"no benchmark group {unknown[0]!r}: choose from {', '.join(every)}")
    if args.runs < 1 or args.seconds <= 0:
        parser.error("--runs must be at least 1 and --seconds above 0")
    print(f"Python {platform.python_version()} on {platform.machine()}, one process, ", end="")
    print(
        f"median of {args.runs} runs of {args.seconds:g} s (one run of {', '.join(ON_REQUEST)})\n"
    )
    print("| figure | median | target | runs (min – max) |")
    print("| --- | ---: | ---: | --- |")
    for group in args.groups or GROUPS:
        runs = 1 if group in ON_REQUEST else args.runs
        for figure in every[group](runs, args.seconds):
            print(figure.row())
            sys.stdout.flush()


if __name__ == "__main__":
    main()
