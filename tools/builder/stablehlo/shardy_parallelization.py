"""Automatic parallelization: try every way of splitting a program's arguments over every 2-d mesh of N chips,
and keep the ways that move the least data between chips (fewest collectives after `--stablehlo-pipeline`)."""

from __future__ import annotations

import itertools
from collections import OrderedDict

from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.func import FuncOp

from builder.base.builder import Module
from ttmlir.asm import parse_text, print_module
from ttmlir.cli import UserError
from ttmlir.dialects import make_context, sdy
from ttmlir.passes import PassFailure, run_pass
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, set_func_attr

AXES = ("x", "y")
# what moves data between chips once the pipeline ran: shardy's collectives and the TTIR ones they became
COLLECTIVES = frozenset({"sdy.all_gather", "sdy.all_reduce", "sdy.all_slice", "sdy.all_to_all",
                         "sdy.collective_permute", "sdy.reduce_scatter", "ttir.all_gather", "ttir.all_reduce",
                         "ttir.reduce_scatter", "ttir.all_to_all", "ttir.mesh_partition",
                         "ttir.collective_permute", "stablehlo.all_gather", "stablehlo.all_reduce",
                         "stablehlo.reduce_scatter", "stablehlo.all_to_all", "stablehlo.collective_permute"})


def mesh_shapes(num_devices: int) -> list[OrderedDict]:
    """Every (x, y) with x * y == num_devices, both orders."""
    found = []
    for x in range(1, int(num_devices ** 0.5) + 1):
        if num_devices % x == 0:
            found.append(OrderedDict([("x", x), ("y", num_devices // x)]))
            if x != num_devices // x:
                found.append(OrderedDict([("x", num_devices // x), ("y", x)]))
    return found


def sharding_choices(rank: int) -> list[sdy.Sharding]:
    """Each way of giving one or more distinct dims of a rank-`rank` tensor one mesh axis each (open dims)."""
    choices = []
    for k in range(1, len(AXES) + 1):
        for dims in itertools.combinations(range(rank), k):
            for axes in itertools.permutations(AXES, k):
                chosen = dict(zip(dims, axes))
                choices.append(sdy.Sharding("mesh", tuple(
                    sdy.DimSharding((sdy.AxisRef(chosen[d]),) if d in chosen else (), False) for d in range(rank))))
    return choices


def _functions(module: ModuleOp) -> list[FuncOp]:
    return [op for op in module.ops if isinstance(op, FuncOp)]


def generate_all_module_permutations(mlir_text: str, num_devices: int) -> list[Module]:
    """One module per mesh shape and per combination of argument shardings, each with its `sdy.mesh`."""
    base, _ = parse_text(make_context(), mlir_text)
    args = [t for f in _functions(base) for t in f.function_type.inputs.data]
    per_arg = [sharding_choices(len(t.get_shape()) if isinstance(t, TensorType) else 0) for t in args]
    modules = []
    for shape in mesh_shapes(num_devices):
        for combination in itertools.product(*per_arg):
            clone, _ = parse_text(make_context(), mlir_text)
            clone.body.block.insert_op_before(sdy.MeshOp("mesh", sdy.Mesh(tuple(shape.items()))),
                                              clone.body.block.first_op)
            chosen = iter(combination)
            for func in _functions(clone):
                for i in range(len(func.function_type.inputs.data)):
                    set_func_attr(func, i, "arg_attrs", SHARDING, sdy.ShardingAttr(next(chosen)))
            modules.append(Module(clone))
    return modules


def count_collectives(module: ModuleOp) -> int:
    return sum(op.name in COLLECTIVES for op in module.walk())


def get_optimal_module_least_num_collectives(module_permutations: list[Module]) -> list[Module]:
    """The permutations (copies, run through `--stablehlo-pipeline`) with the fewest collectives; those the
    pipeline refuses (a dimension that does not split evenly, ...) are skipped."""
    scored = []
    for module in module_permutations:
        copy, _ = parse_text(make_context(), print_module(module.module_op))
        try:
            run_pass(copy, "stablehlo-pipeline")
        except (PassFailure, UserError):
            continue
        scored.append((count_collectives(copy), Module(copy)))
    best = min((n for n, _ in scored), default=None)
    return [m for n, m in scored if n == best]
