"""Golden gate: every `.mlir` model in a directory (e.g. upstream tt-mlir's test/ttmlir/models) compiled with
`--ttir-to-ttnn-backend-pipeline`, run on the simulated device, and compared with the golden path's evaluation of
the same TTIR (one torch call per op, `builder.base.builder_apis.load_mlir_file`) on the same inputs.

usage: python benchmarks/models_golden.py DIR [-j 2] [--filter REGEX] [--pcc 0.99] [--init fan-in|randn]
                                          [--options PIPELINE_OPTIONS] [--timeout S] [--memory-gb G]
                                          [--json FILE [--resume]]

Per model and per output: the PCC of the whole output and, for outputs of rank >= 2, the lowest PCC of one batch
row (dim 0: a row can be wrong while the whole tensor still correlates); for integer and boolean outputs the share
of equal elements, where an argmax's differing pick counts as equal when it is a tie (in the golden's input, the
device's index holds a value within two bf16 ulps of the maximum). Exits 1 when any output is below --pcc
(default 0.99) or a model fails to compile or run. Each model's wall seconds and its process's user CPU seconds are
in the table and the JSON (`seconds`, `cpu_s`; on a shared machine the CPU time is what to compare, and `--timeout` counts it), with its peak
resident memory (`max_rss_gb`).

Inputs (seeded): integer inputs within the size of what they index (the golden path's `_index_bound`), floats
randn, then `--init fan-in` (the default) re-initialises parameters and constants as `numerics_bench --init
fan-in` does. With randn weights a graph is ill-conditioned, so the check would measure bf16 rounding chaos, not
the compiler: a deep CNN overflows, and in a transformer layer unit-variance projections of width ~1000 give
keys and queries of ~30, attention scores of ~60 and a softmax that is one-hot on the largest score, so a one-ulp
bf16 difference in one key (the device's linear rounds matmul + bias once where dot_general and add round twice)
picks another cache entry: on qwen_2_5_0_5b_decode_layer the bf16 golden itself then misses an f32 evaluation of
the graph on three batch rows (PCC 0.82), further than the device does (0.98).

Each model runs in a process of its own (`-j` at a time, address space capped at --memory-gb), the golden
first, its intermediates freed before the device run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# a model's wall-clock limit per CPU second it may use: a loaded machine runs it slower, a hung one not at all
WALL_FACTOR = 4
sys.path[:0] = [str(ROOT), str(ROOT / "tools"), str(ROOT / "benchmarks")]


def make_global_inputs(text: str, filename: str, seed: int, init: str) -> dict[str, list]:
    """Per public function, one input per argument (the whole tensor, as the TTIR function takes it)."""
    import torch
    from xdsl.dialects import func

    from builder.base.builder import torch_dtype
    from builder.base.builder_apis import _index_bound
    from numerics_bench import fan_in_inputs
    from ttmlir.diagnostics import load_module
    from ttmlir.dialects import make_context

    module, _ = load_module(make_context(), text, filename)
    generator = torch.Generator().manual_seed(seed)
    inputs = {}
    for function in module.walk():
        if not isinstance(function, func.FuncOp) or function.sym_visibility is not None or not function.body.blocks:
            continue
        values = []
        for arg in function.body.block.args:
            dtype, shape = torch_dtype(arg.type.element_type), tuple(arg.type.get_shape())
            if dtype == torch.bool:
                values.append(torch.randint(0, 2, shape, generator=generator).bool())
            elif not dtype.is_floating_point:
                values.append(torch.randint(0, _index_bound(arg) or 10, shape, generator=generator).to(dtype))
            else:
                values.append(torch.randn(shape, generator=generator, dtype=torch.float32).to(dtype))
        inputs[function.sym_name.data] = values
    if init == "fan-in" and inputs:  # numerics_bench re-initialises the entry function (the first public one)
        entry = next(iter(inputs))
        inputs[entry] = fan_in_inputs(text, filename, inputs[entry])
    return inputs


def argmax_source(builder, value):
    """(the golden of what an argmax reads, one tensor per chip; its dim) when `value` is an argmax's result
    through reshapes and typecasts (which keep its elements in order), else None."""
    from ttmlir.ir.tt_op import TTOp
    from ttmlir.ir.props import int_values

    op = value.owner
    while isinstance(op, TTOp) and op.name in ("ttir.reshape", "ttir.typecast"):
        op = op.operands[0].owner
    if not isinstance(op, TTOp) or op.name != "ttir.argmax" or op.prop("dim_arg") is None:
        return None
    dims = int_values(op.prop("dim_arg"))
    if len(dims) != 1:
        return None
    golden = builder.current_golden(op.operands[0])
    return [golden[chip] for chip in sorted(golden)], dims[0]


def argmax_ties(values, dim: int, golden, actual) -> int:
    """How many of an argmax's differing picks (on one chip) are ties: the device's index holds, in the golden's
    input `values`, a value within two bf16 ulps of the maximum (each side's logits may round one ulp apart), so
    either pick is right."""
    import torch

    rows = values.float().movedim(dim, -1).reshape(-1, values.shape[dim])
    picked = rows.gather(1, actual.reshape(-1, 1).long().clamp(0, rows.shape[1] - 1)).squeeze(1)
    top = rows.max(1).values
    ulp = torch.exp2(torch.floor(torch.log2(top.abs().clamp_min(1e-30))) - 7)
    differing = golden.reshape(-1) != actual.reshape(-1).to(golden.dtype)
    return int((differing & (picked >= top - 2 * ulp)).sum())


def compare_output(golden: list, actual: list, argmax: tuple | None = None) -> dict:
    """One output's metrics; `golden` and `actual` hold one tensor per chip; `argmax`: what the output is the
    argmax of (its golden and dim), when it is one."""
    import torch

    from ttmlir.runtime.golden import pcc

    g0 = golden[0]
    record = {"shape": list(g0.shape), "dtype": str(g0.dtype).removeprefix("torch.")}
    if any(tuple(g.shape) != tuple(a.shape) for g, a in zip(golden, actual)):
        record["error"] = f"shape {list(actual[0].shape)}, golden {list(g0.shape)}"
        return record
    if not g0.is_floating_point():
        equal = sum(int((g == a.to(g.dtype)).sum()) for g, a in zip(golden, actual))
        # per chip (a mesh's chips each hold their argmax and its input)
        ties = sum(argmax_ties(v, argmax[1], g, a) for v, g, a in zip(argmax[0], golden, actual)) \
            if argmax is not None and len(argmax[0]) == len(golden) else 0
        total = max(1, sum(g.numel() for g in golden))
        record["equal"], record["ties"] = (equal + ties) / total, ties
        return record
    if not all(bool(torch.isfinite(g).all()) for g in golden):
        record["error"] = "the golden is not finite (inputs out of the graph's range)"
        return record
    pairs = [(g.float(), a.float()) for g, a in zip(golden, actual)]
    record["pcc"] = min(pcc(g, a) for g, a in pairs)
    if g0.dim() >= 2 and g0.shape[0] > 1:
        rows = [(pcc(g[r], a[r]), r) for g, a in pairs for r in range(g.shape[0])]
        record["row_pcc"], record["worst_row"] = min(rows)
    return record


def check_model(path: Path, seed: int, init: str, options: str) -> dict:
    """The golden evaluation and the device run of one model, compared output by output."""
    import gc

    from builder.base.builder_apis import load_mlir_file
    from builder.base.builder_runtime import _chip_input, _chips
    from ttmlir.compiler import compile_ttir
    from ttmlir.runtime.device import MeshDevice
    from ttmlir.runtime.executor import Binary, release, run_program
    from ttmlir.runtime.session import make_inputs

    text = path.read_text()
    start = time.perf_counter()
    binary = Binary(data=compile_ttir(text, str(path), pipeline_options=options))
    compile_s = time.perf_counter() - start
    _, builder = load_mlir_file(text, make_global_inputs(text, str(path), seed, init), filename=str(path))
    programs = {func.sym_name.data: (io, len(func.body.block.args),
                                     [argmax_source(builder, v) for v in func.body.block.last_op.operands])
                for func, io, _ in builder.program_goldens()}
    del builder
    gc.collect()
    start = time.perf_counter()
    outputs = {}
    for index, program in enumerate(binary.programs):
        if program.private or program.name not in programs:
            continue
        io, arity, argmaxes = programs[program.name]
        given = {i: _chip_input(io[f"input_{i}"]) for i in range(arity)}
        device = MeshDevice(mesh_shape=binary.mesh_shape())
        results, ctx = run_program(binary, index, make_inputs(binary, index, "randn", seed, given), device)
        for i, tensor in enumerate(results):
            expected = _chips(io[f"output_{i}"])
            outputs[f"{program.name}.output_{i}"] = compare_output(expected, tensor.chip_values(len(expected)),
                                                                   argmaxes[i])
        release(program, ctx, results)
        del results, ctx
        gc.collect()
    return {"outputs": outputs, "compile_s": compile_s, "run_s": time.perf_counter() - start,
            "cpu_s": os.times().user, "max_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}


def verdict(record: dict, threshold: float) -> tuple[float, str]:
    """(the model's lowest score, 'ok' / 'PCC' / 'error: ...'); a score is a PCC, a row's PCC or a share equal."""
    if "error" in record:
        return 0.0, f"error: {record['error']}"
    scores = [s for o in record["outputs"].values() for s in (o.get("pcc"), o.get("row_pcc"), o.get("equal"))
              if s is not None]
    errors = [f"{name}: {o['error']}" for name, o in record["outputs"].items() if "error" in o]
    worst = min(scores, default=1.0)
    if errors:
        return worst, f"error: {errors[0]}"
    return worst, "ok" if worst >= threshold else "PCC"


def run_one(path: Path, args: argparse.Namespace, script: str = __file__) -> dict:
    """A model in a process of its own (`script --one`): its record, or the error that ended it. The process may
    use `--timeout` CPU seconds (on a shared machine its wall time depends on the load; CPU time does not), and
    `WALL_FACTOR` times as many wall seconds (a process that stops running, e.g. waiting, ends too)."""
    limits = [f"ulimit -t {math.ceil(args.timeout)}"]
    if args.memory_gb:  # set by a shell that then execs: a fork of this process would count its pages
        limits.append(f"ulimit -v {int(args.memory_gb * 2**20)}")
    command = ["sh", "-c", " && ".join([*limits, 'exec "$@"']), "sh", sys.executable, script, str(path), "--one",
               "--seed", str(args.seed), "--init", args.init, "--options", args.options]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout * WALL_FACTOR)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {args.timeout * WALL_FACTOR:.0f} s (wall)",
                "seconds": time.perf_counter() - start}
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL) and not done.stdout.strip():
        return {"error": f"timed out after {args.timeout:.0f} CPU s", "seconds": time.perf_counter() - start}
    lines = done.stdout.strip().splitlines()
    if done.returncode or not lines:
        stderr = done.stderr.strip().splitlines()
        last = (stderr or [f"exit {done.returncode}"])[-1]
        frames = [line.strip() for line in stderr if line.lstrip().startswith('File "')]
        where = f" (in {frames[-1].removeprefix('File ')})" if frames else ""  # the innermost frame of a traceback
        if "MemoryError" in last or "allocate memory" in last:
            last = f"out of memory (address space capped at {args.memory_gb:g} GB): {last}"
        return {"error": last[:200] + where, "seconds": time.perf_counter() - start}
    return {**json.loads(lines[-1]), "seconds": time.perf_counter() - start}


def _number(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def print_table(console, results: dict, threshold: float) -> None:
    from rich.table import Table

    table = Table(title=f"device vs golden (threshold {threshold})")
    for column, justify in (("model", "left"), ("output", "left"), ("shape", "left"), ("PCC", "right"),
                            ("min row PCC", "right"), ("equal", "right"), ("s", "right"), ("CPU s", "right"),
                            ("result", "left")):
        table.add_column(column, justify=justify)
    for name, record in sorted(results.items()):
        _, status = verdict(record, threshold)
        outputs = record.get("outputs") or {"-": {}}
        for k, (output, o) in enumerate(outputs.items()):
            row_text = "-" if o.get("row_pcc") is None else f"{o['row_pcc']:.4f} (row {o['worst_row']})"
            table.add_row(name if k == 0 else "", output.split(".")[-1], "x".join(map(str, o.get("shape", []))),
                          _number(o.get("pcc")), row_text,
                          _number(o.get("equal")) + (f" ({o['ties']} ties)" if o.get("ties") else ""),
                          f"{record['seconds']:.0f}" if k == 0 else "",
                          _number(record.get("cpu_s"), 0) if k == 0 else "", status if k == 0 else "")
    console.print(table)


def main(check=check_model, doc: str = __doc__, script: str = __file__,
         options_help: str = "options of --ttir-to-ttnn-backend-pipeline", summary=None) -> int:
    """The suite: `check(path, seed, init, options)` per model, each in a process of `script` (which calls this
    with its own `check`); `summary(results)`, when given, counts the models by cause of failure."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("directory", help="a directory of .mlir models (or, with --one, one model)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="models checked at once (default: 1)")
    parser.add_argument("--filter", default="", help="only models whose path matches this regex")
    parser.add_argument("--pcc", type=float, default=0.99, help="score every output must reach (default: 0.99)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the inputs (default: 0)")
    parser.add_argument("--init", choices=("fan-in", "randn"), default="fan-in",
                        help="parameters and constants re-initialised as numerics_bench's fan-in, or left randn")
    parser.add_argument("--options", default="", help=options_help)
    parser.add_argument("--timeout", type=float, default=3600.0,
                        help=f"CPU seconds per model (default: 3600; wall time {WALL_FACTOR}x as long)")
    parser.add_argument("--memory-gb", type=float, default=10.0,
                        help="address space per model's process, 0 for none (default: 10)")
    parser.add_argument("--json", metavar="FILE", help="write every model's record as JSON")
    parser.add_argument("--resume", action="store_true",
                        help="with --json: keep the records FILE already holds, check only the models it lacks, and "
                             "report and write them all (a long suite run in parts)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # check DIRECTORY, one model, here
    args = parser.parse_args()
    if args.one:
        print(json.dumps(check(Path(args.directory), args.seed, args.init, args.options)), flush=True)
        return 0

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    root = Path(args.directory)
    if not root.is_dir():
        parser.error(f"{root}: not a directory")
    if args.resume and not args.json:
        parser.error("--resume needs --json FILE")
    kept = Path(args.json) if args.resume else None
    results: dict[str, dict] = json.loads(kept.read_text()) if kept and kept.exists() else {}
    files = [p for p in sorted(root.rglob("*.mlir")) if re.search(args.filter, str(p.relative_to(root)))
             and str(p.relative_to(root)) not in results]
    console = Console(width=None if sys.stdout.isatty() else 160)  # a log file gets whole rows
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress, ThreadPoolExecutor(args.jobs) as pool:
        task = progress.add_task("models", total=len(files))
        futures = {pool.submit(run_one, path, args, script): str(path.relative_to(root)) for path in files}
        for future in as_completed(futures):
            name = futures[future]
            results[name] = record = future.result()
            worst, status = verdict(record, args.pcc)
            cpu = f" ({record['cpu_s']:.0f} s CPU)" if "cpu_s" in record else ""
            progress.console.print(f"{name}: worst {worst:.4f} in {record['seconds']:.0f} s{cpu}: {status}",
                                   markup=False, highlight=False)
            progress.advance(task)
    print_table(console, results, args.pcc)
    verdicts = {name: verdict(record, args.pcc) for name, record in results.items()}
    failed = sorted(name for name, (_, status) in verdicts.items() if status == "PCC")
    errors = sorted(name for name, (_, status) in verdicts.items() if status.startswith("error"))
    worst_name = min(verdicts, key=lambda n: verdicts[n][0], default=None)
    worst = f"; worst {worst_name} {verdicts[worst_name][0]:.4f}" if worst_name else ""
    console.print(f"models {len(results)}: {len(results) - len(failed) - len(errors)} at or above {args.pcc} on every "
                  f"output, {len(failed)} below, {len(errors)} errors{worst}", markup=False, highlight=False)
    for name in failed + errors:
        console.print(f"  {name}: {verdicts[name][1]}", markup=False, highlight=False)
    for cause, count in (summary(results).most_common() if summary else ()):
        console.print(f"{count:4} stopped by {cause}", markup=False, highlight=False)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 1 if failed or errors or not results else 0


if __name__ == "__main__":
    raise SystemExit(main())
