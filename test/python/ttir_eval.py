"""Evaluate a TTIR function op by op with the TTIR goldens (torch): what a graph computes, independently of the
compiler and the simulator, so a rewrite of the graph can be checked to keep its values."""

from __future__ import annotations

import torch

from golden.mapping import evaluate
from ttmlir.asm import parse_text
from ttmlir.dialects import make_context


def run_function(module, inputs: list[torch.Tensor]) -> list[torch.Tensor]:
    func = next(op for op in module.walk() if op.name == "func.func")
    values = dict(zip(func.body.block.args, ({0: t} for t in inputs)))
    for op in func.body.block.ops:
        if op.name == "func.return":
            return [values[v][0] for v in op.operands]
        variadic = {n.rstrip("*") for n in op.ROW.operands if n.endswith("*")}
        named = {k: [values[x] for x in v] if k in variadic else values[v[0]] if v else None
                 for k, v in op.operand_groups().items()}
        extra = {"result_shape": tuple(op.results[0].type.get_shape())} if op.results else None
        for result, value in zip(op.results, evaluate(op, named, extra=extra)):
            values[result] = value
    raise AssertionError("the function has no return")


def function_module(args: list[str], body: str, result: str, element: str = "f32"):
    """A module of one function `@f(%a0, %a1, ...)` of the given shapes (`2x3`) returning `result`."""
    params = ", ".join(f"%a{i}: tensor<{s}x{element}>" for i, s in enumerate(args))
    return parse_text(make_context(), f"func.func @f({params}) -> tensor<{result}x{element}> {{\n{body}\n}}")[0]
