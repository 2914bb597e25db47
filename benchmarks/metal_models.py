"""Metal gate: every `.mlir` model in a directory (e.g. upstream tt-mlir's test/ttmlir/models) compiled with
`--ttir-to-ttmetal-pipeline`, translated with `--ttmetal-to-flatbuffer`, run on the simulated device's Metal
runtime (each program's kernels executed from their C++, as `ttrt run` does) and compared with the golden path's
evaluation of the same TTIR on the same inputs.

usage: python benchmarks/metal_models.py DIR [-j 1] [--filter REGEX] [--pcc 0.99] [--init fan-in|randn]
                                         [--options PIPELINE_OPTIONS] [--timeout S] [--memory-gb G]
                                         [--json FILE [--resume]]

Inputs, golden, metrics, the per-model process and the table are `models_golden.py`'s (see its doc); only the
path differs. A model that does not run ends at its first error, which names the stage (compile, translate, run)
and, for a compile error, its location in the model (`file:line:col: error: ...`); the summary groups the models
by that error's message, so the table says which missing feature stops how many models. Each record has the
compile (pipeline + translate) and run seconds apart (`compile_s`, `run_s`): the run is the simulator's.
"""

from __future__ import annotations

import gc
import os
import re
import resource
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools"), str(ROOT / "benchmarks")]

import models_golden  # noqa: E402  (after the path above)


def _located(error: Exception) -> str:
    """A diagnostic's first line (`file:line:col: error: message`), or the error's message."""
    diagnostic = getattr(error, "diagnostic", None)
    return diagnostic.render().splitlines()[0] if diagnostic is not None else str(error).splitlines()[0]


def check_model(path: Path, seed: int, init: str, options: str) -> dict:
    """One model compiled and run on the Metal runtime, each public function's outputs against the golden; a
    failure is `{"error": "<stage>: <located message>"}`."""
    from builder.base.builder_apis import load_mlir_file
    from builder.base.builder_runtime import _chip_input, _chips
    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.diagnostics import DiagnosticError
    from ttmlir.runtime.metal.core import MetalError
    from ttmlir.runtime.metal.program import run_program_on_mesh
    from ttmlir.target import flatbuffer as fbu
    from ttmlir.target.ttmetal import TranslateError, translate

    text = path.read_text()
    start = time.perf_counter()
    try:
        module = lower_to_ttmetal(text, str(path), options)
    except DiagnosticError as error:
        return {"error": f"compile: {_located(error)}", "compile_s": time.perf_counter() - start}
    try:
        data = translate(module)
    except TranslateError as error:
        return {"error": f"translate: {error}", "compile_s": time.perf_counter() - start}
    compile_s = time.perf_counter() - start
    del module
    _, builder = load_mlir_file(text, models_golden.make_global_inputs(text, str(path), seed, init),
                                filename=str(path))
    programs = {func.sym_name.data: (io, len(func.body.block.args),
                                     [models_golden.argmax_source(builder, v) for v in func.body.block.last_op.operands])
                for func, io, _ in builder.program_goldens()}
    del builder
    gc.collect()
    _, root = fbu.load_bytes(data, str(path), expect="ttm")
    names = [p.name.decode() if isinstance(p.name, bytes) else p.name for p in fbu.as_list(root.programs)]
    start = time.perf_counter()
    outputs, cycles = {}, 0
    for index, name in enumerate(names):
        if name not in programs:
            continue
        io, arity, argmaxes = programs[name]
        inputs = [_chip_input(io[f"input_{i}"]) for i in range(arity)]
        try:
            chips, stats = run_program_on_mesh(data, inputs, name=str(path), program=index)
        except MetalError as error:
            return {"error": f"run: @{name}: {error}", "compile_s": compile_s, "run_s": time.perf_counter() - start}
        cycles += sum(s.cycles for s in stats)
        for i in range(len(chips[0])):  # each chip's output against its golden (a mesh's chips each hold theirs)
            expected = _chips(io[f"output_{i}"])
            outputs[f"{name}.output_{i}"] = models_golden.compare_output(
                expected, [chip[i] for chip in chips][:len(expected)], argmaxes[i])
        del chips
        gc.collect()
    return {"outputs": outputs, "compile_s": compile_s, "run_s": time.perf_counter() - start, "cycles": cycles,
            "cpu_s": os.times().user, "max_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20}


def causes(results: dict) -> Counter:
    """How many models each first error stops: its message without the model's location, shapes, sizes and
    element types (so one missing feature is one line)."""
    def cause(error: str) -> str:
        error = re.sub(r"^(\w+: )\S+?(:\d+:\d+)?: error: ", r"\1", error)
        error = re.sub(r"tensor<[^>]*>", "tensor<..>", error)
        return re.sub(r"\b\d+(x\d+)*\b", "N", error)
    return Counter(cause(r["error"]) for r in results.values() if "error" in r)


if __name__ == "__main__":
    raise SystemExit(models_golden.main(check_model, __doc__, __file__,
                                        "options of --ttir-to-ttmetal-pipeline", summary=causes))
