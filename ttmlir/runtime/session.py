"""One `ttrt run`/`ttrt perf` of a binary: checks, inputs, loops, goldens, memory and perf reports."""

from __future__ import annotations

import csv
import json
import time
from pathlib import Path

import torch

from ttmlir import hardware
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, DebugHooks, RuntimeFailure, golden_to_torch, run_program
from ttmlir.runtime.golden import compare
from ttmlir.runtime.tensor import desc_of
from ttmlir.target import flatbuffer as fbu

INTEGER_DTYPES = {"u32", "u16", "u8", "si32"}
OUTPUT_COLUMNS = [f"OUTPUT_0_{k}" for k in ("W", "Z", "Y", "X", "LAYOUT", "DATATYPE", "MEMORY")]
PERF_COLUMNS = ["OP CODE", "OP TYPE", "GLOBAL CALL COUNT", "DEVICE ID", "ATTRIBUTES", "MATH FIDELITY", "CORE COUNT",
                "HOST START TS", "HOST END TS", "HOST DURATION [ns]", "DEVICE KERNEL DURATION [ns]", *OUTPUT_COLUMNS,
                "PM IDEAL [ns]", "PM COMPUTE [ns]", "PM BANDWIDTH [ns]", "LOC", "PROGRAM_METADATA"]


def make_inputs(program, init: str, seed: int) -> list[torch.Tensor]:
    generator = torch.Generator().manual_seed(seed)
    inputs = []
    for ref in program.inputs or []:
        d = desc_of(ref)
        shape = d["shape"]
        if d["dtype"] in INTEGER_DTYPES:
            high = 10 if init in ("randn", "rand") else None
            value = torch.randint(0, high, shape, generator=generator) if high else _fill(init, shape)
        elif init == "randn":
            value = torch.randn(shape, generator=generator)
        elif init == "rand":
            value = torch.rand(shape, generator=generator)
        else:
            value = _fill(init, shape)
        inputs.append(value)
    return inputs


def _fill(init: str, shape: list[int]) -> torch.Tensor:
    if init == "arange":
        return torch.arange(int(torch.tensor(shape).prod()) if shape else 1, dtype=torch.float32).reshape(shape)
    return torch.zeros(shape) if init == "zeros" else torch.ones(shape)


def program_indices(binary: Binary, spec: str) -> list[int]:
    if str(spec) == "all":
        return list(range(len(binary.programs)))
    try:
        index = int(spec)
    except ValueError:
        raise ValueError(f"invalid --program-index '{spec}': expected a number or 'all'") from None
    if not 0 <= index < len(binary.programs):
        raise ValueError(f"{binary.file_path}: program index {index} is out of range "
                         f"(the binary has {len(binary.programs)} programs)")
    return [index]


class BinaryRun:
    def __init__(self, path: Path, args: dict, logger, artifacts, label: str = "running"):
        self.path, self.args, self.logger, self.artifacts, self.label = path, args, logger, artifacts, label
        self.binary = Binary(path)
        if not args.get("--ignore-version"):
            fbu.check_version(self.binary.fbb, str(path))
        mesh = fbu.parse_mesh_shape(args["--mesh-shape"]) if args.get("--mesh-shape") else self.binary.mesh_shape()
        self.system = fbu.simulated_system(args, mesh)
        fbu.check_system(self.binary.fbb.systemDesc, self.system, str(path), self.binary.mesh_shape())
        self.mesh = self.binary.mesh_shape()
        self.golden_report: dict = {}
        self.memory_report: dict = {}
        self.perf_rows: list[dict] = []
        self.peaks: dict[str, int] = {}
        self.device_ns = 0.0

    def folder(self) -> Path:
        return self.artifacts.binary_folder(str(self.path))

    def execute(self, perf: bool = False) -> dict:
        args = self.args
        results = {}
        indices = program_indices(self.binary, args["--program-index"])
        loops = max(1, int(args["--loops"]))
        if args.get("--save-artifacts"):
            self.artifacts.save_binary(str(self.path))
        steps = [(i, loop) for i in indices for loop in range(loops)]
        for index, loop in self._progress(steps):
            program = self.binary.programs[index]
            inputs = make_inputs(program, args["--init"], args["--seed"])
            device = MeshDevice(args["--arch"], self.mesh)
            hooks = (DebugHooks.pre_op, DebugHooks.post_op)
            user_post = DebugHooks.post_op
            DebugHooks.post_op = self._post_op(user_post, loop == 0)
            start = time.perf_counter_ns()
            try:
                outputs, ctx = run_program(self.binary, index, inputs, device, bool(args.get("--debugger")))
            finally:
                DebugHooks.pre_op, DebugHooks.post_op = hooks
            duration = time.perf_counter_ns() - start
            self._check_program(program, index, inputs, outputs, ctx, device, loop)
            device_ns = sum(p.kernel_ns for _, p, _, _ in ctx.perf)
            self.device_ns += device_ns
            for kind, value in ctx.peak.items():
                self.peaks[kind] = max(self.peaks.get(kind, 0), value)
            if perf and loop == 0:
                self._collect_perf(ctx, index)
            results.setdefault(f"program_index_{index}", {})[f"loop_{loop}"] = {
                "total_duration_ns": duration, "total_ttnn_api_duration_ns": None,
                "total_device_kernel_duration_ns": int(device_ns)}
        self._save_reports()
        return results

    def _progress(self, steps):
        if len(steps) <= 1:
            return steps
        from rich.progress import track

        return track(steps, description=f"{self.label} {self.path.name}", transient=True)

    def _post_op(self, user_post, record: bool):
        check_goldens = not self.args.get("--disable-golden", True)
        memory = self.args.get("--memory")

        def post(binary, program_context, op_context):
            if record and check_goldens and op_context.outputs and op_context.loc:
                golden = binary.golden(op_context.loc, program_context.program_index)
                if golden is not None:
                    self._compare_golden(op_context, golden)
            if record and memory:
                self.memory_report[str(len(self.memory_report))] = {
                    "loc": op_context.loc, "debug_str": op_context.debug_str,
                    **program_context.device.chips[0].memory_report()}
            if user_post is not None:
                user_post(binary, program_context, op_context)
        return post

    def _compare_golden(self, op_context, golden) -> None:
        expected = golden_to_torch(golden)
        actual = op_context.outputs[0].data
        entry = compare(expected, actual.float() if actual.is_floating_point() else actual, self.args["--pcc"],
                        self.args["--atol"], self.args["--rtol"])
        self.golden_report[op_context.loc] = entry
        if self.args.get("--save-golden-tensors"):
            folder = self.folder() / "golden"
            index = len(self.golden_report) - 1
            self.artifacts.save_torch_tensor(folder, f"golden_{index}.pt", expected)
            self.artifacts.save_torch_tensor(folder, f"device_{index}.pt", actual)

    def _check_program(self, program, index, inputs, outputs, ctx, device, loop) -> None:
        args = self.args
        if args.get("--print-input-output-tensors"):
            for i, value in enumerate(inputs):
                self.logger.info(f"program {index} input {i}:\n{value}")
            for i, tensor in enumerate(outputs):
                self.logger.info(f"program {index} output {i}:\n{tensor.data}")
        if args.get("--save-artifacts") and loop == 0:
            folder = self.folder() / f"program_{index}"
            for i, value in enumerate(inputs):
                self.artifacts.save_torch_tensor(folder, f"input_{i}.pt", value)
            for i, tensor in enumerate(outputs):
                self.artifacts.save_torch_tensor(folder, f"output_{i}.pt", tensor.data)
        if args.get("--identity"):
            for i, (value, tensor) in enumerate(zip(inputs, outputs)):
                got = tensor.data.to(value.dtype)
                if got.shape != value.shape or not torch.allclose(got, value, rtol=args["--rtol"], atol=args["--atol"]):
                    raise RuntimeFailure(f"program {index} output {i} does not match input {i} "
                                         f"(--identity, rtol={args['--rtol']}, atol={args['--atol']})")
        failed = {loc: e for loc, e in self.golden_report.items() if e["actual_pcc"] < e["expected_pcc"]}
        live = [t for gid, t in ctx.pool.items() if t.on_device and all(t is not o for o in outputs)]
        for tensor in outputs:
            tensor.deallocate()
        for ref in program.inputs or []:
            tensor = ctx.pool.get(ref.globalId)
            if tensor is not None:
                tensor.deallocate()
        if args.get("--check-memory-leak"):
            leaked = {k: v for k, v in device.allocated_bytes().items() if v}
            if live or leaked:
                raise RuntimeFailure(f"program {index}: memory leak: {len(live)} device tensor(s) never deallocated, "
                                     f"{leaked or 'no'} bytes per bank still allocated")
        if failed:
            loc, entry = next(iter(failed.items()))
            raise RuntimeFailure(f"golden check failed for {len(failed)} op(s); first at {loc}: "
                                 f"PCC {entry['actual_pcc']:.6f} < {entry['expected_pcc']}")

    def _collect_perf(self, ctx, index: int) -> None:
        for count, (op, est, start, end) in enumerate(ctx.perf):
            row = {"OP CODE": f"ttnn.{op.name}", "OP TYPE": "tt_dnn_device" if est.kernel_ns else "host",
                   "GLOBAL CALL COUNT": count, "DEVICE ID": 0, "ATTRIBUTES": "", "MATH FIDELITY": est.fidelity,
                   "CORE COUNT": est.cores, "HOST START TS": start, "HOST END TS": end,
                   "HOST DURATION [ns]": end - start, "DEVICE KERNEL DURATION [ns]": round(est.kernel_ns),
                   "PM IDEAL [ns]": round(est.ideal_ns), "PM COMPUTE [ns]": round(est.compute_ns),
                   "PM BANDWIDTH [ns]": round(est.bandwidth_ns)}
            for tensor in op.outputs[:1]:
                dims = [1] * (4 - len(tensor.shape)) + tensor.shape[-4:]
                memory = f"DEV_0_{tensor.buffer_type.upper()}_{(tensor.memory_layout or 'interleaved').upper()}"
                row.update(zip(OUTPUT_COLUMNS, [*dims, tensor.layout.upper(), tensor.dtype.upper(), memory]))
            row.update({"LOC": op.loc, "PROGRAM_METADATA": json.dumps({"program_index": index})})
            self.perf_rows.append(row)

    def write_perf_report(self, host_only: bool = False) -> Path:
        folder = self.folder() / "perf"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "ops_perf_results.csv"
        columns = [c for c in PERF_COLUMNS if any(c in row for row in self.perf_rows)]
        if host_only:
            columns = [c for c in columns if not c.startswith(("DEVICE KERNEL", "PM "))]
        with open(path, "w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, columns, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(self.perf_rows)
        device = sum(r["DEVICE KERNEL DURATION [ns]"] for r in self.perf_rows)
        self.logger.info(f"{self.path.name}: {len(self.perf_rows)} ops, modelled device time "
                         f"{device / 1000:.1f} us on {self.args['--arch']}; report: {path}")
        return path

    def _save_reports(self) -> None:
        self.logger.info(f"{self.path}: PASS, modelled device time {self.device_ns / 1000:.1f} us, peak memory per "
                         f"chip: {peak_summary(self.peaks, self.args['--arch'])}")
        if self.golden_report:
            passed = sum(e["actual_pcc"] >= e["expected_pcc"] for e in self.golden_report.values())
            self.logger.info(f"golden: {passed}/{len(self.golden_report)} ops reached PCC >= {self.args['--pcc']}")
        if self.args.get("--save-artifacts"):
            if self.golden_report:
                self.artifacts.save_json(self.folder(), "golden_results.json", self.golden_report)
            if self.memory_report:
                self.artifacts.save_json(self.folder(), "memory_results.json", self.memory_report)


def peak_summary(peaks: dict[str, int], arch: str) -> str:
    facts = hardware.CHIPS[arch]
    banks = {"dram": facts.num_dram_channels, "l1": facts.grid[0] * facts.grid[1]}
    return ", ".join(f"{kind} {value * banks.get(kind, 1) / 1024:.1f} KiB" for kind, value in peaks.items()
                     if kind in banks)
