"""`--d2m-generic-regions-to-funcs`: each region of a `d2m.generic` becomes a kernel function of its own
(`func.func private @compute_kernel1() attributes {d2m.thread = #d2m.thread<compute>, tt.function_type = "kernel"}`)
at the end of the module, and the generic names them in its threads (`#d2m.thread<compute, @compute_kernel1>`)
with no regions left, so kernel lowering and host-program lowering go their separate ways.

A data-movement region without a core takes the next one round-robin over the chip's data-movement cores, in the
order of their NoCs (core 1 drives NoC 0, core 0 NoC 1, on Wormhole and Blackhole). Constants a region used from
outside are cloned into its function."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.transforms.ttcore.register_device import device_module_of
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FUNCTION_TYPE


def _data_movement_cores(module: ModuleOp) -> int:
    """The chip's data-movement cores; a module that declares its device without a system descriptor is on the
    default chip, as upstream's scope lookup falls back to."""
    system = device_module_of(module).attributes.get("ttcore.system_desc")
    if not isinstance(system, ttcore.SystemDescAttr):
        system = ttcore.default_system_desc()
    return int(system.data.chip(0)["num_datamovement_threads"])


def _capture_constants(func: FuncOp) -> None:
    """Constants defined outside `func` that its ops use, cloned at its top (a kernel sees no host values)."""
    clones = {}
    block = func.body.block
    for op in list(func.walk()):
        for i, value in enumerate(op.operands):
            owner = value.owner
            if not isinstance(owner, arith.ConstantOp) or func.is_ancestor(owner):
                continue
            if owner not in clones:
                clones[owner] = owner.clone()
                block.insert_op_before(clones[owner], block.first_op)
            op.operands[i] = clones[owner].result


@dataclass(frozen=True)
class D2MGenericRegionsToFuncsPass(ModulePass):
    """Outline every generic region into a kernel function."""

    name: ClassVar[str] = "d2m-generic-regions-to-funcs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        generics = [g for g in op.walk() if isinstance(g, d2m.GenericOp) and g.regions]
        if not generics:
            return
        cores = _data_movement_cores(op)
        unique = 0
        for generic in generics:
            module = generic.parent_op()
            while not isinstance(module, ModuleOp):
                module = module.parent_op()
            threads, unassigned = [], 0
            for region, thread in zip(list(generic.regions), generic.attributes["threads"].data):
                kind, dm_core = thread.thread, thread.dm_core.data
                if kind == "datamovement" and dm_core < 0:
                    dm_core = 1 - unassigned % cores if cores == 2 else unassigned % cores
                    unassigned += 1
                symbol = f"{kind}_kernel{unique}"
                unique += 1
                arg_types = [a.type for a in region.blocks.first.args] if region.blocks.first else []
                generic.detach_region(region)
                body = region if region.blocks.first else Region(Block())
                func = FuncOp(symbol, FunctionType.from_lists(arg_types, []), body, visibility="private")
                func.attributes["d2m.thread"] = d2m.ThreadAttr.get(kind, None, dm_core)
                func.attributes[FUNCTION_TYPE] = StringAttr("kernel")
                func.body.block.add_op(ReturnOp())
                func.location = generic.location
                module.body.block.add_op(func)
                _capture_constants(func)
                threads.append(d2m.ThreadAttr.get(kind, symbol, dm_core))
            generic.attributes["threads"] = ArrayAttr(threads)
