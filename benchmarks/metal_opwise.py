"""Which op of a model loses accuracy on the kernel path: each op of a public function compiled alone with
`--ttir-to-ttmetal-pipeline` (its constant operands kept as constants, the others made arguments), run on the
simulated device's Metal runtime with the golden path's values of its operands as inputs, and its result compared
with the golden path's.

usage: python benchmarks/metal_opwise.py MODEL.mlir [--function main] [--filter REGEX] [--skip ttir.reshape,...]
                                                    [--seed 0] [--init fan-in|randn]

Prints one line per op: its index in the function, name, PCC and largest difference (or the first error), shape and
dtype, compile and run seconds. `--filter` is matched against `INDEX:NAME` (e.g. '^14[0-9]:' or 'dot_general').
Inputs are `models_golden.py`'s, so a line answers for the same run `metal_models.py` makes.
"""

from __future__ import annotations

import argparse
import gc
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tools"), str(ROOT / "benchmarks")]

import models_golden  # noqa: E402  (after the path above)


def alone(op):
    """`op` as the body of a module of its own: (the module, the operands that became its arguments)."""
    from xdsl.dialects import builtin, func
    from xdsl.ir import Block, Region

    constant = lambda value: getattr(value.owner, "name", "") == "ttir.constant"  # noqa: E731
    args = list(dict.fromkeys(v for v in op.operands if not constant(v)))
    block = Block(arg_types=[a.type for a in args])
    mapping = dict(zip(args, block.args))
    for value in op.operands:
        if constant(value) and value not in mapping:
            clone = value.owner.clone()
            block.add_op(clone)
            mapping[value] = clone.results[0]
    copy = op.clone(value_mapper=mapping)
    block.add_op(copy)
    block.add_op(func.ReturnOp(*copy.results))
    function = func.FuncOp("main", ([a.type for a in args], [r.type for r in copy.results]), Region(block))
    return builtin.ModuleOp([function]), args


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", type=Path)
    parser.add_argument("--function", default="main")
    parser.add_argument("--filter", default=".")
    parser.add_argument("--skip", default="ttir.reshape,ttir.constant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--init", default="fan-in", choices=("fan-in", "randn"))
    args = parser.parse_args()

    from builder.base.builder_apis import load_mlir_file
    from builder.base.builder_runtime import _chips
    from ttmlir.compiler import lower_to_ttmetal
    from ttmlir.diagnostics import DiagnosticError
    from ttmlir.runtime.golden import pcc
    from ttmlir.runtime.metal.core import MetalError
    from ttmlir.runtime.metal.program import run_program
    from ttmlir.target.ttmetal import TranslateError, translate

    text = args.model.read_text()
    _, builder = load_mlir_file(text, models_golden.make_global_inputs(text, str(args.model), args.seed, args.init),
                                filename=str(args.model))
    function = next(f for f in builder.functions() if f.sym_name.data == args.function)
    pattern, skip = re.compile(args.filter), set(args.skip.split(","))
    for index, op in enumerate(function.body.block.ops):
        if op.name in skip or op is function.body.block.last_op or not pattern.search(f"{index}:{op.name}"):
            continue
        module, operands = alone(op)
        start = time.perf_counter()
        try:
            data = translate(lower_to_ttmetal(str(module), f"{args.model.name}:{index}", ""))
            compiled = time.perf_counter()
            (actual, *_), _ = run_program(data, [_chips(builder.current_golden(v))[0] for v in operands], name=op.name)
        except (DiagnosticError, TranslateError, MetalError) as error:
            print(f"{index:5d} {op.name:24s} error: {str(error).splitlines()[0]}", flush=True)
            continue
        golden = _chips(builder.current_golden(op.results[0]))[0]
        print(f"{index:5d} {op.name:24s} pcc {pcc(golden.float(), actual.float()):.6f}  max diff "
              f"{(golden.float() - actual.float()).abs().max().item():.4g}  {list(golden.shape)} {golden.dtype}  "
              f"compile {compiled - start:.1f} s  run {time.perf_counter() - compiled:.1f} s", flush=True)
        gc.collect()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
