"""What `ttrt perf` writes: tt-metal's `ops_perf_results.csv` rows, a Chrome/Perfetto trace and a text summary.

Every column of tt-metal's profiler report is present. On the simulator they come from the perf model:

- device timeline: `DEVICE FW START/END CYCLE` lay the ops end to end at the chip's clock, each after its
  `OP TO OP LATENCY` (the traced gap, or the untraced host dispatch); firmware and kernel windows coincide
  (`DEVICE FW DURATION` = `DEVICE KERNEL DURATION`), every core of an op runs the same modelled time (per-core
  min = max = avg, first-to-last start 0).
- per-RISC durations: BRISC/NCRISC (data movement) the op's bandwidth time, TRISC0/1/2 (unpack, math, pack) its
  compute time, ERISC its ethernet time; `DEVICE COMPUTE CB WAIT FRONT` the time compute waits for data.
- `PM *`: the model's ideal, compute and bandwidth times, required input/output bandwidth (bytes per cycle),
  FPU/NoC/DRAM utilisation; `NPE CONG IMPACT` is 0 (no congestion model).
- empty, as the simulator has no such thing: kernel sources, hashes and binary sizes of tt-metal's own kernels
  (TTNN ops name no kernel file), `DISPATCH GO SEND WAIT TIME`.
"""

from __future__ import annotations

import json

from ttmlir import hardware
from ttmlir.runtime.perf import OpPerf

TENSOR_FIELDS = ("W", "Z", "Y", "X", "LAYOUT", "DATATYPE", "MEMORY")
COLUMNS = (
    "OP CODE", "OP TYPE", "GLOBAL CALL COUNT", "DEVICE ID", "ATTRIBUTES", "MATH FIDELITY", "CORE COUNT",
    "PARALLELIZATION STRATEGY", "HOST START TS", "HOST END TS", "HOST DURATION [ns]", "DEVICE FW START CYCLE",
    "DEVICE FW END CYCLE", "OP TO OP LATENCY [ns]", "OP TO OP LATENCY BR/NRISC START [ns]", "DEVICE FW DURATION [ns]",
    "DEVICE KERNEL DURATION [ns]", "DEVICE KERNEL DURATION DM START [ns]", "DEVICE KERNEL DURATION PER CORE MIN [ns]",
    "DEVICE KERNEL DURATION PER CORE MAX [ns]", "DEVICE KERNEL DURATION PER CORE AVG [ns]",
    "DEVICE KERNEL FIRST TO LAST START [ns]", "DEVICE BRISC KERNEL DURATION [ns]", "DEVICE NCRISC KERNEL DURATION [ns]",
    "DEVICE TRISC0 KERNEL DURATION [ns]", "DEVICE TRISC1 KERNEL DURATION [ns]", "DEVICE TRISC2 KERNEL DURATION [ns]",
    "DEVICE ERISC KERNEL DURATION [ns]", "DEVICE COMPUTE CB WAIT FRONT [ns]", "DEVICE COMPUTE CB RESERVE BACK [ns]",
    "DISPATCH TOTAL CQ CMD OP TIME [ns]", "DISPATCH GO SEND WAIT TIME [ns]",
    *(f"INPUT_0_{k}" for k in TENSOR_FIELDS), *(f"OUTPUT_0_{k}" for k in TENSOR_FIELDS),
    "METAL TRACE ID", "METAL TRACE REPLAY SESSION ID", "COMPUTE KERNEL SOURCE", "COMPUTE KERNEL HASH",
    "DATA MOVEMENT KERNEL SOURCE", "DATA MOVEMENT KERNEL HASH", "BRISC MAX KERNEL SIZE [B]",
    "NCRISC MAX KERNEL SIZE [B]", "TRISC 0 MAX KERNEL SIZE [B]", "TRISC 1 MAX KERNEL SIZE [B]",
    "TRISC 2 MAX KERNEL SIZE [B]", "ERISC MAX KERNEL SIZE [B]", "PM IDEAL [ns]", "PM COMPUTE [ns]",
    "PM BANDWIDTH [ns]", "PM REQ I BW", "PM REQ O BW", "PM FPU UTIL (%)", "NOC UTIL (%)", "DRAM BW UTIL (%)",
    "NPE CONG IMPACT (%)", "LOC", "CONST_EVAL_OP", "PROGRAM_METADATA")
DEVICE_COLUMNS = tuple(c for c in COLUMNS if c.startswith(("DEVICE ", "PM ", "OP TO OP", "DISPATCH", "NOC UTIL",
                                                            "DRAM BW", "NPE ")))


def tensor_fields(prefix: str, tensor, device_id: int) -> dict:
    """INPUT_0_*/OUTPUT_0_* of a runtime tensor: its shape as W, Z, Y, X, layout, data type and placement."""
    dims = [1] * (4 - len(tensor.shape)) + list(tensor.shape[-4:])
    memory = f"DEV_{device_id}_{tensor.buffer_type.upper()}_{(tensor.memory_layout or 'interleaved').upper()}" \
        if tensor.on_device else "HOST"
    values = [*dims, tensor.layout.upper(), tensor.dtype.upper(), memory]
    return {f"{prefix}_{k}": v for k, v in zip(TENSOR_FIELDS, values)}


class Timeline:
    """The device's modelled clock across a run: each op starts after the previous one and its gap."""

    def __init__(self, arch: str):
        self.clock_ghz = hardware.CHIPS[arch].clock_ghz
        self.now_ns = 0.0

    def place(self, perf: OpPerf, traced: bool) -> tuple[float, float, float]:
        """(gap, start, end) of the op in ns on the device's clock."""
        gap = perf.gap_ns(traced)
        start = self.now_ns + gap
        self.now_ns = start + perf.kernel_ns
        return gap, start, self.now_ns


def op_row(name: str, count: int, device_id: int, perf: OpPerf, host: tuple[int, int], placed: tuple, attributes: dict,
           inputs: list, outputs: list, loc: str, traced: bool, metadata: dict, const_eval: bool = False) -> dict:
    """One row of ops_perf_results.csv for an op of a `.ttnn` program (see the module's doc for each column)."""
    gap, start, end = placed
    clock = hardware.CHIPS[perf.arch].clock_ghz
    on_device = bool(perf.kernel_ns)
    row = {"OP CODE": name, "OP TYPE": "tt_dnn_device" if on_device else "host", "GLOBAL CALL COUNT": count,
           "DEVICE ID": device_id, "ATTRIBUTES": "{" + "; ".join(f"'{k}': '{v}'" for k, v in attributes.items()) + "}",
           "MATH FIDELITY": perf.fidelity if on_device else "", "CORE COUNT": perf.cores,
           "PARALLELIZATION STRATEGY": ("MULTI_CORE" if perf.cores > 1 else "SINGLE_CORE") if on_device else "",
           "HOST START TS": host[0], "HOST END TS": host[1], "HOST DURATION [ns]": host[1] - host[0], "LOC": loc,
           "CONST_EVAL_OP": "true" if const_eval else "false", "PROGRAM_METADATA": json.dumps(metadata)}
    for prefix, tensors in (("INPUT_0", inputs), ("OUTPUT_0", outputs)):
        if tensors:
            row.update(tensor_fields(prefix, tensors[0], device_id))
    if not on_device:
        return row
    kernel, data_movement = round(perf.kernel_ns), round(perf.bandwidth_ns)
    cycles = max(perf.ideal_ns * clock, 1.0)
    row.update({
        "DEVICE FW START CYCLE": round(start * clock), "DEVICE FW END CYCLE": round(end * clock),
        "OP TO OP LATENCY [ns]": round(gap), "OP TO OP LATENCY BR/NRISC START [ns]": round(gap),
        "DEVICE FW DURATION [ns]": kernel, "DEVICE KERNEL DURATION [ns]": kernel,
        "DEVICE KERNEL DURATION DM START [ns]": kernel, "DEVICE KERNEL DURATION PER CORE MIN [ns]": kernel,
        "DEVICE KERNEL DURATION PER CORE MAX [ns]": kernel, "DEVICE KERNEL DURATION PER CORE AVG [ns]": kernel,
        "DEVICE KERNEL FIRST TO LAST START [ns]": 0, "DEVICE BRISC KERNEL DURATION [ns]": data_movement,
        "DEVICE NCRISC KERNEL DURATION [ns]": data_movement,
        **{f"DEVICE TRISC{i} KERNEL DURATION [ns]": round(perf.compute_ns) for i in range(3)},
        "DEVICE ERISC KERNEL DURATION [ns]": round(perf.bandwidth_ns) if perf.bound == "eth" else "",
        "DEVICE COMPUTE CB WAIT FRONT [ns]": round(max(0.0, perf.bandwidth_ns - perf.compute_ns)),
        "DEVICE COMPUTE CB RESERVE BACK [ns]": 0, "DISPATCH TOTAL CQ CMD OP TIME [ns]": round(gap),
        "DISPATCH GO SEND WAIT TIME [ns]": "", "METAL TRACE ID": 0 if traced else "",
        "METAL TRACE REPLAY SESSION ID": 1 if traced else "",
        "PM IDEAL [ns]": round(perf.ideal_ns), "PM COMPUTE [ns]": round(perf.compute_ns),
        "PM BANDWIDTH [ns]": round(perf.bandwidth_ns), "PM REQ I BW": round(perf.input_bytes / cycles, 3),
        "PM REQ O BW": round(perf.output_bytes / cycles, 3), "PM FPU UTIL (%)": round(perf.fpu_util, 3),
        "NOC UTIL (%)": round(_noc_util(perf), 3), "DRAM BW UTIL (%)": round(_dram_util(perf), 3),
        "NPE CONG IMPACT (%)": 0})
    return row


def _dram_util(perf: OpPerf) -> float:
    facts = hardware.CHIPS[perf.arch]
    return 100.0 * perf.dram_bytes / perf.kernel_ns / facts.dram_gbps if perf.kernel_ns else 0.0


def _noc_util(perf: OpPerf) -> float:
    from ttmlir.runtime.perf import NOC_BYTES_PER_CYCLE

    if not perf.kernel_ns or not perf.cores:
        return 0.0
    facts = hardware.CHIPS[perf.arch]
    return 100.0 * perf.noc_bytes / perf.kernel_ns / (NOC_BYTES_PER_CYCLE * perf.cores * facts.clock_ghz)


def trace_events(rows: list[dict], core_spans: dict | None = None) -> dict:
    """A Chrome trace (loadable in ui.perfetto.dev): per device a track of op spans on the modelled clock, each
    op's span holding its data-movement and compute phases; `core_spans` adds per-core kernel spans
    ({(device, row index): [(core name, kernel name, start ns, duration ns)]}), a thread per core."""
    events, threads = [], {}
    for i, row in enumerate(rows):
        if row.get("DEVICE FW START CYCLE") in (None, ""):
            continue
        device = row["DEVICE ID"]
        clock = _clock_of(row)
        start_us, dur_us = row["DEVICE FW START CYCLE"] / clock / 1000, row["DEVICE KERNEL DURATION [ns]"] / 1000
        args = {k: row[k] for k in ("LOC", "MATH FIDELITY", "CORE COUNT", "PM COMPUTE [ns]", "PM BANDWIDTH [ns]")
                if k in row}
        events.append({"name": row["OP CODE"], "cat": "op", "ph": "X", "ts": start_us, "dur": dur_us,
                       "pid": device, "tid": 0, "args": args})
        for tid, (label, column) in enumerate((("data movement", "DEVICE BRISC KERNEL DURATION [ns]"),
                                               ("compute", "DEVICE TRISC1 KERNEL DURATION [ns]")), 1):
            span = row.get(column) or 0
            if span:
                events.append({"name": f"{row['OP CODE']} {label}", "cat": label, "ph": "X", "ts": start_us,
                               "dur": min(span / 1000, dur_us), "pid": device, "tid": 0})
        for core, kernel, core_start, core_dur in (core_spans or {}).get((device, i), []):
            tid = threads.setdefault((device, core), len(threads) + 1)
            events.append({"name": kernel, "cat": "kernel", "ph": "X", "ts": start_us + core_start / 1000,
                           "dur": core_dur / 1000, "pid": device, "tid": tid})
    names = {e["pid"] for e in events}
    meta = [{"name": "process_name", "ph": "M", "pid": pid, "args": {"name": f"device {pid}"}} for pid in sorted(names)]
    meta += [{"name": "thread_name", "ph": "M", "pid": pid, "tid": 0, "args": {"name": "ops"}} for pid in sorted(names)]
    meta += [{"name": "thread_name", "ph": "M", "pid": device, "tid": tid, "args": {"name": core}}
             for (device, core), tid in threads.items()]
    return {"traceEvents": meta + events, "displayTimeUnit": "ns"}


def _clock_of(row: dict) -> float:
    start, end, dur = row["DEVICE FW START CYCLE"], row["DEVICE FW END CYCLE"], row["DEVICE KERNEL DURATION [ns]"]
    return (end - start) / dur if dur else 1.0


def summary(rows: list[dict], bounds: list[str], top: int = 10) -> str:
    """The run's modelled device time, the ops taking most of it, and what bounds each."""
    device = [(r, b) for r, b in zip(rows, bounds) if r.get("DEVICE KERNEL DURATION [ns]") not in (None, "")]
    total = sum(r["DEVICE KERNEL DURATION [ns]"] + (r.get("OP TO OP LATENCY [ns]") or 0) for r, _ in device)
    kernels = sum(r["DEVICE KERNEL DURATION [ns]"] for r, _ in device)
    lines = [f"{len(device)} device ops: {total / 1000:.1f} us modelled ({kernels / 1000:.1f} us in kernels, "
             f"{(total - kernels) / 1000:.1f} us between ops)"]
    by_bound: dict[str, float] = {}
    for row, bound in device:
        by_bound[bound] = by_bound.get(bound, 0) + row["DEVICE KERNEL DURATION [ns]"]
    lines.append("bound by: " + ", ".join(f"{b} {100 * t / max(kernels, 1):.0f}%" for b, t in
                                          sorted(by_bound.items(), key=lambda kv: -kv[1])))
    lines.append(f"top {min(top, len(device))} ops by kernel time:")
    ranked = sorted(device, key=lambda rb: -rb[0]["DEVICE KERNEL DURATION [ns]"])[:top]
    for row, bound in ranked:
        share = 100 * row["DEVICE KERNEL DURATION [ns]"] / max(kernels, 1)
        lines.append(f"  {row['DEVICE KERNEL DURATION [ns]'] / 1000:10.1f} us {share:5.1f}%  {bound:7s} "
                     f"{row['OP CODE']} {row.get('LOC', '')}")
    return "\n".join(lines) + "\n"
