"""`--mlir-timing`: wall time per pass and per pipeline, reported as MLIR's DefaultTimingManager reports it.

A pipeline runs its stages through `run_pass` (or names a part of its work with `scope`): while a tool times
(`timing()`), each becomes a timer nested under the one running, so a pipeline's stages nest under it; otherwise
both cost one list check. As MLIR's timers, timers of one name under one parent are one timer (a pass run twice
by a pipeline, or once per `--split-input-file` piece, adds up).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from ttmlir.ir_printing import dump_if_asked

DISPLAY_MODES = ("tree", "list")
# What the timers read: wall time, as MLIR's report says. benchmarks/compile_scaling.py has them read the process's
# CPU time instead, which other work on a shared machine does not inflate.
clock = time.perf_counter
DESCRIPTION = "... Execution time report ..."


class Timer:
    __slots__ = ("name", "wall", "children")

    def __init__(self, name: str):
        self.name = name
        self.wall = 0.0
        self.children: dict[str, Timer] = {}  # by name, in the order first started


# the timers started and not stopped, innermost last; empty when no tool is timing. A context variable: a tool's
# run (a thread, a served call) times only itself.
RUNNING: ContextVar[tuple[Timer, ...]] = ContextVar("timers_running", default=())


@contextmanager
def scope(name: str) -> Iterator[None]:
    """Time what runs inside as `name`, nested in the running timer (nothing when not timing)."""
    running = RUNNING.get()
    if not running:
        yield
        return
    parent = running[-1]
    timer = parent.children.get(name) or parent.children.setdefault(name, Timer(name))
    token = RUNNING.set((*running, timer))
    start = clock()
    try:
        yield
    finally:
        timer.wall += clock() - start
        RUNNING.reset(token)


def run_pass(pass_, ctx, module) -> None:
    """`pass_.apply(ctx, module)`, timed under the pass's name, the IR printed around it when asked
    (`--mlir-print-ir-*`, ttmlir.ir_printing)."""
    dump_if_asked("Before", pass_, module)
    with scope(pass_.name):
        pass_.apply(ctx, module)
    dump_if_asked("After", pass_, module)


@contextmanager
def timing() -> Iterator[Timer]:
    """Time everything inside under a root timer (given to the caller for `report` once the block ends)."""
    root = Timer("root")
    token = RUNNING.set((*RUNNING.get(), root))
    start = clock()
    try:
        yield root
    finally:
        root.wall = clock() - start
        RUNNING.reset(token)


def report(root: Timer, display: str = "tree") -> str:
    """MLIR's text report: the banner, the total, then each timer's wall time and share of the total, as a tree
    (children indented under their parent, in the order they first ran) or as a list (timers of one name merged,
    the slowest first), then the time no timer accounts for (`Rest`) and the total."""
    total = root.wall
    rule = "===" + "-" * 73 + "==="
    lines = [rule, " " * ((80 - len(DESCRIPTION)) // 2) + DESCRIPTION, rule,
             f"  Total Execution Time: {total:.4f} seconds", "", "  ----Wall Time----  ----Name----"]

    def row(wall: float, name: str, depth: int = 0) -> str:
        share = 100.0 * wall / total if total else 0.0
        return f"  {wall:8.4f} ({share:5.1f}%)  {'  ' * depth}{name}"

    if display == "list":
        merged: dict[str, float] = {}

        def add(timer: Timer) -> None:
            for child in timer.children.values():
                merged[child.name] = merged.get(child.name, 0.0) + child.wall
                add(child)

        add(root)
        lines += [row(wall, name) for name, wall in sorted(merged.items(), key=lambda item: -item[1])]
    else:
        def tree(timer: Timer, depth: int) -> None:
            for child in timer.children.values():
                lines.append(row(child.wall, child.name, depth))
                tree(child, depth + 1)

        tree(root, 0)
    lines += [row(total - sum(c.wall for c in root.children.values()), "Rest"), row(total, "Total")]
    return "\n".join(lines) + "\n"
