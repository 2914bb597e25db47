"""`--d2m-expand-dma-read-composite-view`: a generic reading a `d2m.composite_view` (inputs laid side by side along
`dim`, seen directly or through `d2m.view_layout`s) with a shard-level `d2m.dma_read` reads its inputs instead.

The generic's composite operand is replaced by the composite's inputs (the CB indices of later operands shift
along), and the read becomes a loop nest over the destination block: each step finds its global index along
`dim` (the core's grid index times the block's extent, plus the step's), picks the input holding it by an
`scf.if` chain on the inputs' cumulative extents (skipping the padding past their total when the composite was
aligned up), and reads from that input at the index shifted back by the inputs before it, split into the input's
grid and shard index, each read waited for at once. Tiled data moves a tile per read. Row-major data moves whole
rows: concatenated along the innermost dim, runs of a NoC word (the loop along it stepping by that many
elements); along an outer dim, everything after it at once. The read's own waits go; then the views and the
composite view, unused now, are erased (one still used elsewhere is reported)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, ModuleOp, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.dialects.d2m_cb import GetCBOp
from ttmlir.dialects.d2m_composite_view import CompositeViewOp
from ttmlir.dialects.d2m_dma import DMAReadOp, DMAWaitOp, _segments, mem_tx
from ttmlir.errors import PassFailure, derive
from ttmlir.transforms.d2m.memory_maps import (IndexBuilder, index_constant, local_memory_map, remote_indices,
                                               remote_memory_map)
from ttmlir.transforms.ttcore.register_device import device_module_of


def composite_source(value: SSAValue) -> CompositeViewOp | None:
    """The composite view `value` is (or sees through view_layouts), if any."""
    while True:
        owner = value.owner
        if isinstance(owner, CompositeViewOp):
            return owner
        if not isinstance(owner, d2m.ViewLayoutOp):
            return None
        value = owner.input


def _for(b: IndexBuilder, upper: int, step: int) -> tuple[scf.ForOp, IndexBuilder]:
    """An `scf.for` from 0 to `upper` by `step`, and a builder of its body."""
    body = Block(arg_types=[IndexType()])
    loop = b.add(scf.ForOp(b.add(index_constant(0)).result, b.add(index_constant(upper)).result, b.add(index_constant(step)).result, [],
                           Region(body)))
    body.add_op(scf.YieldOp())
    return loop, IndexBuilder(body, body.last_op)


def _if(b: IndexBuilder, condition: SSAValue, with_else: bool) -> tuple[IndexBuilder, IndexBuilder | None]:
    then_block = Block([scf.YieldOp()])
    else_block = Block([scf.YieldOp()]) if with_else else None
    b.add(scf.IfOp(condition, [], Region(then_block), Region(else_block) if with_else else None))
    return (IndexBuilder(then_block, then_block.last_op),
            IndexBuilder(else_block, else_block.last_op) if with_else else None)


@dataclass
class _Expansion:
    """The expansion of one composite read (`read`, in its generic) over the composite's `inputs` along `dim`."""

    device: ttcore.DeviceAttr
    chip: dict
    read: DMAReadOp
    inputs: list[SSAValue]
    dim: int
    extents: list[int]  # each input's extent along dim: tiles (tiled) or logical elements (row-major)
    padded: bool  # the composite is larger than its inputs along dim

    def lower(self) -> None:
        read, dim = self.read, self.dim
        local = read.dst
        shape = tuple(local.type.get_shape())
        rank = len(read.src_indices)
        tiled = isinstance(local.type.element_type, ttcore.TileType)
        if tiled:
            factor, steps = 1, [1] * rank
        elif dim == rank - 1:  # rows assembled a NoC word at a time
            element = max(1, local.type.element_type.bitwidth // 8)
            factor = int(self.chip["noc_l1_address_align_bytes"]) // element
            steps = [1] * (rank - 1) + [factor]
        else:  # all of the dims after dim at once
            factor = 1
            for extent in shape[dim + 1:]:
                factor *= extent
            steps = [1] * (dim + 1) + list(shape[dim + 1:])
        maps = [remote_memory_map(self.device, v, read) for v in self.inputs]
        local_map = local_memory_map(local)
        b = IndexBuilder(read.parent_block(), read)
        ivs = []
        for extent, step in zip(shape, steps):
            _, b = _for(b, extent, step)
            ivs.append(b.block.args[0])
        base = b.add(arith.MuliOp(read.src_indices[dim], b.add(index_constant(shape[dim])).result)).result
        index = b.add(arith.AddiOp(base, ivs[dim])).result
        if self.padded:
            inside = b.add(arith.CmpiOp(index, b.add(index_constant(sum(self.extents))).result, "ult")).result
            b = _if(b, inside, False)[0]
        start = 0
        for i, value in enumerate(self.inputs):
            if i + 1 < len(self.inputs):
                boundary = start + self.extents[i]
                here = b.add(arith.CmpiOp(index, b.add(index_constant(boundary)).result, "ult")).result
                then, b = _if(b, here, True)
            else:
                then, boundary = b, start
            self.emit(then, i, value, maps[i], local_map, ivs, index, start, shape, factor)
            start = boundary
        for use in list(read.result.uses):
            if isinstance(use.operation, DMAWaitOp):
                use.operation.detach()
                use.operation.erase()
        read.detach()
        read.erase()

    def emit(self, b: IndexBuilder, i: int, value: SSAValue, remote_map, local_map, ivs: list[SSAValue],
             index: SSAValue, start: int, shape: tuple[int, ...], factor: int) -> None:
        """The read of this step's elements from input `i` (its dim-index shifted back by `start`), then its wait."""
        rank, read = len(ivs), self.read
        input_shard = value.type.get_shape()[rank:]
        full: list[SSAValue] = [None] * (2 * rank)
        for d in range(rank):
            if d == self.dim:
                position = index if start == 0 else b.add(arith.SubiOp(index, b.add(index_constant(start)).result)).result
            else:
                base = b.add(arith.MuliOp(read.src_indices[d], b.add(index_constant(shape[d])).result)).result
                position = b.add(arith.AddiOp(base, ivs[d])).result
            extent = b.add(index_constant(input_shard[d])).result
            full[d] = b.add(arith.DivSIOp(position, extent)).result
            full[d + rank] = b.add(arith.RemSIOp(position, extent)).result
        remote = remote_indices(b, remote_map, full)
        local = b.apply(local_map, ivs)
        groups = [[value], remote, [read.dst], local]
        new = DMAReadOp.create(operands=[v for g in groups for v in g], result_types=[mem_tx("read")], properties={
            "numElems": IntegerAttr(factor, i64), "operandSegmentSizes": _segments(*groups)})
        derive([new], read)
        b.add(new)
        b.add(DMAWaitOp.create(operands=[new.results[0]]))


def _expand_generic(generic: d2m.GenericOp, device, chip) -> None:
    reads = [op for op in generic.walk() if isinstance(op, DMAReadOp) and composite_source(op.src) is not None]
    views = {composite_source(r.src) for r in reads}
    if len(views) > 1 or len({r.src for r in reads}) > 1:
        raise PassFailure(generic, "a generic reading more than one composite view is not expanded yet")
    (read,) = reads if len(reads) == 1 else (None,)
    if read is None:
        raise PassFailure(generic, "a composite view is read by more than one DMA in one generic")
    (view,) = views
    source = read.src
    inputs = list(view.inputs)
    if source not in list(generic.inputs):
        raise PassFailure(read, "a DMA reads a composite view that is not an input of its generic")
    if generic.attributes.get("iterator_types") is not None and generic.attributes["iterator_types"].data:
        raise PassFailure(generic, "a composite view is expanded in generics of explicit data-movement form only")
    position = list(generic.operands).index(source)
    extra = len(inputs) - 1
    new_inputs = [w for v in generic.inputs for w in (inputs if v == source else [v])]
    generic.operands = [*new_inputs, *generic.outputs, *generic.additional_args]
    generic.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
        i32, [len(new_inputs), len(generic.outputs), len(generic.additional_args)])
    for op in generic.walk():
        if isinstance(op, GetCBOp) and op.cb_operand_idx.value.data > position:
            op.properties["cb_operand_idx"] = IntegerAttr(op.cb_operand_idx.value.data + extra, i64)
    dim = view.dim.value.data
    composite_t = source.type
    rank = len(read.src_indices)
    shape = composite_t.get_shape()
    tiled = isinstance(composite_t.element_type, ttcore.TileType)
    if tiled:
        extents = [v.type.get_shape()[dim] * v.type.get_shape()[dim + rank] for v in inputs]
        padded = sum(extents) < shape[dim] * shape[dim + rank]
    else:
        extents = list(view.logicalSizes.get_values())
        padded = sum(extents) < shape[dim] * read.dst.type.get_shape()[dim]
    _Expansion(device, chip, read, inputs, dim, extents, padded).lower()


def _erase_dead_views(op: Operation) -> None:
    if not isinstance(op, d2m.ViewLayoutOp):
        return
    for use in list(op.result.uses):
        _erase_dead_views(use.operation)
    if not op.result.uses:
        op.detach()
        op.erase()


@dataclass(frozen=True)
class D2MExpandDMAReadCompositeViewPass(ModulePass):
    """Composite-view reads as reads of the composite's inputs (see the module doc)."""

    name: ClassVar[str] = "d2m-expand-dma-read-composite-view"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        generics = [g for g in module.walk() if isinstance(g, d2m.GenericOp) and
                    any(isinstance(o, DMAReadOp) and composite_source(o.src) for o in g.walk())]
        composites = [o for o in module.walk() if isinstance(o, CompositeViewOp)]
        if generics:
            device_module = device_module_of(module)
            devices = [o for o in device_module.ops if isinstance(o, ttcore.DeviceOp)]
            system = device_module.attributes.get("ttcore.system_desc")
            if not devices:
                raise PassFailure(module, "module has no ttcore.device (run --ttcore-register-device first)")
            if not isinstance(system, ttcore.SystemDescAttr):  # a device declared alone is on the default chip
                system = ttcore.default_system_desc()
            for generic in generics:
                _expand_generic(generic, devices[0].device_attr, system.data.chip(0))
        for view in composites:
            for use in list(view.result.uses):
                _erase_dead_views(use.operation)
            if view.result.uses:
                raise PassFailure(view, "Composite view has remaining uses after expansion.")
            view.detach()
            view.erase()
