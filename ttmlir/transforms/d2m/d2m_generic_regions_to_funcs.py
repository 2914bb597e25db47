"""`--d2m-generic-regions-to-funcs`: each region of a `d2m.generic` becomes a kernel function of its own
(`func.func private @compute_kernel1() attributes {d2m.thread = #d2m.thread<compute>, tt.function_type = "kernel"}`)
at the end of the module, and the generic names them in its threads (`#d2m.thread<compute, @compute_kernel1>`)
with no regions left, so kernel lowering and host-program lowering go their separate ways.

A data-movement region without a core takes the next one round-robin over the chip's data-movement cores, in the
order of their NoCs (core 1 drives NoC 0, core 0 NoC 1, on Wormhole and Blackhole). Constants a region used from
outside are cloned into its function, and a generic's shared CB ports (`d2m.physical_cb_ports`) are copied onto
each of its kernels.

On a virtual grid (`#ttcore.grid<2x2, virt_to_physical_map = ..., physical_to_virt_map = ...>`) a kernel runs on
physical cores: its `d2m.core_index` ops carry the grid's `phys_to_virt_map` (they return virtual coordinates), and
the core coordinates a multicast write or a remote semaphore update names are mapped to physical ones
(`affine.apply` of the virtual-to-physical map's coordinate results)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.context import Context as ParseContext
from xdsl.dialects import arith
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, FunctionType, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.affine_ext import ApplyOp
from ttmlir.dialects.d2m_dma import DMAWriteOp, SemaphoreIncOp, SemaphoreSetOp
from ttmlir.dialects.d2m_index import CoreIndexOp
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.d2m_normalize_thread_args import PHYSICAL_CB_PORTS
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


MCAST_START = 4  # dma_write: src, src indices, dst, dst indices, mcast start, ...
DST_CORE = 2  # semaphore_set/inc: semaphore, value, destination core, ...


def _grid_maps(generic: d2m.GenericOp) -> tuple[AffineMap, AffineMap] | None:
    """The generic's grid's (virtual-to-physical, physical-to-virtual) maps, if it is a virtual grid."""
    grid = generic.attributes.get("grid")
    if not isinstance(grid, ttcore.GridAttr) or len(grid.data.maps) != 2:
        return None
    forward, inverse = (Parser(ParseContext(), text).parse_affine_map() for text in grid.data.maps)
    return forward, inverse


def _own_ops(generic: d2m.GenericOp, kind) -> list[Operation]:
    """The ops of `kind` in the generic's regions, not in a generic nested in them."""
    found = []
    for op in generic.walk():
        if isinstance(op, kind):
            parent = op.parent_op()
            while not isinstance(parent, d2m.GenericOp):
                parent = parent.parent_op()
            if parent is generic:
                found.append(op)
    return found


def _physical(op: Operation, forward: AffineMap, virtual) -> list:
    """`virtual` core coordinates as physical ones: one `affine.apply` per coordinate result of the map (after its
    leading device result, if it has one), inserted before `op`."""
    first = 0 if len(forward.results) == len(virtual) else 1
    if forward.num_dims != len(virtual) or len(forward.results) < first + len(virtual):
        raise PassFailure(op, f"'{op.name}' op the grid's virtual-to-physical map {forward} does not map "
                              f"{len(virtual)}-d core coordinates")
    applies = [ApplyOp(list(virtual), AffineMapAttr(AffineMap(forward.num_dims, forward.num_symbols,
                                                                      (forward.results[first + i],))))
               for i in range(len(virtual))]
    derive(applies, op)
    op.parent_block().insert_ops_before(applies, op)
    return [a.result for a in applies]


def _replace_segment(op: Operation, segment: int, values: list) -> None:
    """The values of the op's variadic operand group `segment` replaced by as many new ones."""
    sizes = op.properties["operandSegmentSizes"].get_values()
    start = sum(sizes[:segment])
    operands = list(op.operands)
    operands[start:start + sizes[segment]] = values
    op.operands = operands


def _to_physical_space(generic: d2m.GenericOp) -> None:
    maps = _grid_maps(generic)
    if maps is None:
        return
    forward, inverse = maps
    for core in _own_ops(generic, CoreIndexOp):
        core.properties["phys_to_virt_map"] = AffineMapAttr(inverse)
    for write in _own_ops(generic, DMAWriteOp):
        if write.mcast_start and not write.start_device:
            _replace_segment(write, MCAST_START, _physical(write, forward, write.mcast_start))
    for update in _own_ops(generic, (SemaphoreSetOp, SemaphoreIncOp)):
        if update.dst_core_index and not update.start_device:
            _replace_segment(update, DST_CORE, _physical(update, forward, update.dst_core_index))


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
            _to_physical_space(generic)
            ports = generic.attributes.get(PHYSICAL_CB_PORTS)
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
                if ports is not None:
                    func.attributes[PHYSICAL_CB_PORTS] = ports
                func.body.block.add_op(ReturnOp())
                derive([func], generic)  # a kernel of the generic: a diagnostic inside it points at the generic
                module.body.block.add_op(func)
                _capture_constants(func)
                threads.append(d2m.ThreadAttr.get(kind, symbol, dm_core))
            generic.attributes["threads"] = ArrayAttr(threads)
