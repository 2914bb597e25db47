"""`--auto-sharding`: choose the arguments' shardings by what they cost.

Each argument may stay replicated or split one dimension over one mesh axis (of size > 1, dividing the
dimension). Every combination is propagated through the function on a copy of the module; the ones that need
the fewest collectives (reshards and all-reduces) win, and among them the one leaving the least argument data
per chip; ties go to the earliest candidate (lower dimensions first). A module without a mesh, or whose mesh has
no axis larger than 1, is left as it is. `dump-variants` writes every candidate module to `dump-dir`.
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass

from ttmlir.dialects import sdy
from ttmlir.errors import PassFailure
from ttmlir.passes import registered_passes
from ttmlir.transforms.shardy.sdy_user_priority_propagate import SHARDING, entry_functions, set_func_attr, single_mesh

MAX_VARIANTS = 4096  # beyond this many combinations, each argument is chosen on its own (others replicated)
COSTED = ("sdy-user-priority-propagate", "replicate-non-splittable-values", "sdy-insert-explicit-reshards")


def candidates(t, mesh_name: str, axes: list[tuple[str, int]]) -> list[sdy.Sharding | None]:
    """Replicated, then each one-dimension split of a tensor of type `t` (None: not a tensor, left alone)."""
    if not isinstance(t, TensorType):
        return [None]
    shape = t.get_shape()
    found: list[sdy.Sharding | None] = [sdy.replicated_sharding(mesh_name, len(shape))]
    for d, size in enumerate(shape):
        for name, n in axes:
            if size % n == 0:
                found.append(sdy.Sharding(mesh_name, tuple(sdy.DimSharding((sdy.AxisRef(name),) if i == d else ())
                                                           for i in range(len(shape)))))
    return found


def _bytes_per_chip(t: TensorType, sharding: sdy.Sharding | None, mesh: sdy.Mesh) -> int:
    size = math.prod(t.get_shape()) * max(1, getattr(t.element_type, "bitwidth", 32) // 8)
    return size // math.prod(mesh.size(a) for a in sharding.axes()) if sharding is not None else size


def collectives(module: ModuleOp) -> int:
    return sum(isinstance(op, (sdy.ReshardOp, sdy.AllReduceOp)) for op in module.walk())


@dataclass(frozen=True)
class AutoShardingPass(ModulePass):
    """Automatically search for the argument shardings with the least collective cost."""

    name = "auto-sharding"
    dump_variants: bool = False
    dump_dir: str = "/tmp/"

    def _cost(self, ctx: Context, op: ModuleOp, func_name: str, choice, index: int) -> tuple | None:
        variant = op.clone()
        func = next(f for f in entry_functions(variant) if f.sym_name.data == func_name)
        for i, sharding in enumerate(choice):
            if sharding is not None:
                set_func_attr(func, i, "arg_attrs", SHARDING, sdy.ShardingAttr(sharding))
        try:
            for name in COSTED:
                registered_passes()[name]().apply(ctx, variant)
        except PassFailure:
            return None
        if self.dump_variants:
            from ttmlir.asm import print_module

            os.makedirs(self.dump_dir, exist_ok=True)
            with open(os.path.join(self.dump_dir, f"auto_sharding_{func_name}_{index}.mlir"), "w") as out:
                out.write(print_module(variant))
        return (collectives(variant),)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = single_mesh(op)
        if found is None:
            return
        mesh_name, mesh = found
        axes = [(name, n) for name, n in mesh.axes if n > 1]
        if not axes:
            return
        for func in entry_functions(op):
            types = list(func.function_type.inputs.data)
            options = [candidates(t, mesh_name, axes) for t in types]
            total = math.prod(len(o) for o in options)
            if total <= MAX_VARIANTS:
                choices = list(itertools.product(*options))
            else:  # one argument at a time
                choices = [tuple(c if j == i else o[0] for j, o in enumerate(options))
                           for i, opts in enumerate(options) for c in opts]
            best = None
            for index, choice in enumerate(choices):
                cost = self._cost(ctx, op, func.sym_name.data, choice, index)
                if cost is None:
                    continue
                memory = sum(_bytes_per_chip(t, s, mesh) for t, s in zip(types, choice) if isinstance(t, TensorType))
                key = (cost[0], memory, index)
                if best is None or key < best[0]:
                    best = (key, choice)
            for i, sharding in enumerate(best[1] if best else ()):
                if sharding is not None:
                    set_func_attr(func, i, "arg_attrs", SHARDING, sdy.ShardingAttr(sharding))
