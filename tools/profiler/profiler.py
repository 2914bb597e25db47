"""`with trace(log_dir, port): ...` records every op the simulated device runs inside the block and, on exit,
writes into `log_dir` what tt-metal's profiler gives upstream: `ops_perf_results.csv` (every column, from the
perf model), `tracy_ops_times.csv` (each op's host time), a Chrome/Perfetto `trace.json` of the modelled device
timeline and `summary.txt`. Upstream captures through a Tracy server on `port`; the simulator records in
process, so the port is only checked to be one and noted in the trace's metadata.
"""

from __future__ import annotations

import csv
import io
import json
import os
from contextlib import contextmanager

from ttmlir.cli import UserError, write_atomic
from ttmlir.runtime import perf_report
from ttmlir.runtime.executor import DebugHooks
from ttmlir.runtime.tensor import Tensor
from ttmlir.target import flatbuffer as fbu


class _Recorder:
    """The rows of the ops seen so far, each chip on its own modelled timeline."""

    def __init__(self):
        self.rows: list[dict] = []
        self.bounds: list[str] = []
        self.timelines: dict = {}

    def record(self, program_context, op_context) -> None:
        if not program_context.perf or program_context.perf[-1][0] is not op_context:
            return
        _, est, start, end = program_context.perf[-1]
        device = program_context.device
        config = fbu.struct_fields(getattr(op_context.operation.type, "computeConfig", None))
        inputs = [t for t in op_context.inputs if isinstance(t, Tensor)]
        for chip in range(device.num_chips if est.kernel_ns else 1):
            timeline = self.timelines.setdefault((id(device), chip), perf_report.Timeline(device.arch))
            self.rows.append(perf_report.op_row(
                fbu.qualified_op_name(op_context.name), len(self.rows), chip, est, (start, end), timeline.place(est, op_context.traced),
                config, inputs, op_context.outputs, op_context.loc, op_context.traced,
                {"program_index": program_context.program_index}))
            self.bounds.append(est.bound)

    def write(self, log_dir: str, port: int) -> None:
        table = io.StringIO(newline="")
        writer = csv.DictWriter(table, perf_report.COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(self.rows)
        write_atomic(os.path.join(log_dir, "ops_perf_results.csv"), table.getvalue())
        times = io.StringIO(newline="")
        writer = csv.writer(times)
        writer.writerow(["name", "loc", "host duration [ns]"])
        writer.writerows((r["OP CODE"], r["LOC"], r["HOST DURATION [ns]"]) for r in self.rows)
        write_atomic(os.path.join(log_dir, "tracy_ops_times.csv"), times.getvalue())
        events = perf_report.trace_events(self.rows)
        events["metadata"] = {"tracy_port": port}
        write_atomic(os.path.join(log_dir, "trace.json"), json.dumps(events) + "\n")
        write_atomic(os.path.join(log_dir, "summary.txt"), perf_report.summary(self.rows, self.bounds))


@contextmanager
def trace(log_dir: str, port: int):
    if not isinstance(port, int) or not 0 < port < 65536:
        raise UserError(f"trace: port must be a TCP port number (1-65535), not {port!r}")
    os.makedirs(log_dir, exist_ok=True)
    recorder = _Recorder()
    pre, post = DebugHooks.pre_op, DebugHooks.post_op

    def record(binary, program_context, op_context):
        recorder.record(program_context, op_context)
        if post is not None:
            post(binary, program_context, op_context)

    DebugHooks.get(pre, record)
    try:
        yield
    finally:
        DebugHooks.pre_op, DebugHooks.post_op = pre, post
        recorder.write(log_dir, port)
