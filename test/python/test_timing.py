"""`--mlir-timing`'s report (ttmlir.timing), checked on timers with set times: MLIR's layout, a pipeline's passes
nested under it, timers of one name merged in list mode, and what no timer accounts for as `Rest`."""

from __future__ import annotations

from ttmlir import timing
from ttmlir.timing import Timer, report, run_pass, scope


def _timer(name: str, wall: float, *children: Timer) -> Timer:
    timer = Timer(name)
    timer.wall = wall
    timer.children = {child.name: child for child in children}
    return timer


ROOT = _timer("root", 2.0, _timer("Parser", 0.25),
              _timer("pipeline", 1.5, _timer("canonicalize", 0.5), _timer("fusing", 0.75),
                     _timer("inner", 0.125, _timer("canonicalize", 0.125))),
              _timer("Output", 0.125))
HEADER = """===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 2.0000 seconds

  ----Wall Time----  ----Name----
"""


def test_tree_nests_a_pipelines_passes_in_the_order_they_ran():
    assert report(ROOT, "tree") == HEADER + """\
    0.2500 ( 12.5%)  Parser
    1.5000 ( 75.0%)  pipeline
    0.5000 ( 25.0%)    canonicalize
    0.7500 ( 37.5%)    fusing
    0.1250 (  6.2%)    inner
    0.1250 (  6.2%)      canonicalize
    0.1250 (  6.2%)  Output
    0.1250 (  6.2%)  Rest
    2.0000 (100.0%)  Total
"""


def test_list_merges_timers_of_one_name_slowest_first():
    assert report(ROOT, "list") == HEADER + """\
    1.5000 ( 75.0%)  pipeline
    0.7500 ( 37.5%)  fusing
    0.6250 ( 31.2%)  canonicalize
    0.2500 ( 12.5%)  Parser
    0.1250 (  6.2%)  inner
    0.1250 (  6.2%)  Output
    0.1250 (  6.2%)  Rest
    2.0000 (100.0%)  Total
"""


class _Pass:
    name = "a-pass"

    def __init__(self):
        self.runs = 0

    def apply(self, ctx, module):
        self.runs += 1
        with scope("inside"):
            pass


def test_passes_run_twice_add_up_and_nothing_is_timed_outside_a_timing_block():
    step = _Pass()
    run_pass(step, None, None)  # not timing: the pass runs, no timer is made
    assert step.runs == 1 and not timing.RUNNING.get()
    with timing.timing() as root:
        with scope("pipeline"):
            run_pass(step, None, None)
            run_pass(step, None, None)
    assert step.runs == 3 and not timing.RUNNING.get()
    assert list(root.children) == ["pipeline"]
    pipeline = root.children["pipeline"]
    assert list(pipeline.children) == ["a-pass"] and list(pipeline.children["a-pass"].children) == ["inside"]
    assert 0 <= pipeline.children["a-pass"].wall <= pipeline.wall <= root.wall
