"""`--d2m-reblock-generics`: each `d2m.generic` rebuilt with the block factors the block-factor analysis picks
(`test-buffer-size-policy`: auto, bounded, auto-mn, min, max; see `block_factor_analysis`), so that an operand
larger than its stream buffers is moved block by block. A generic whose factors change reads each operand through
a `d2m.view_layout` of it reblocked onto the grid the factors give it (`memref<1x16x16x1x...>` for a 16x16 shard
split into 16 blocks along K), its region's buffers of an operand's block take the new block shape (a fused
intermediate's, from its `d2m.blocking_map`), its `block_factors` are the new ones, and what reads the output
afterwards reads it through a view back into its old shape. Generics in explicit data-movement form stay."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr, MemRefType, ModuleOp, TensorType, i64
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import d2m, ttcore
from ttmlir.errors import PassFailure
from ttmlir.transforms.d2m import block_factor_analysis as bfa
from ttmlir.transforms.d2m.d2m_allocate import element_bytes
from ttmlir.transforms.d2m.d2m_lower_to_layout import reblock_map


def reblocked_type(t: Attribute, grid: list[int]) -> Attribute:
    """Device type `t` with its elements on `grid` (each dim's extent, grid times shard, kept), its shard layout's
    strides following the new shard."""
    old_grid, old_shard = bfa.grid_and_shard(t)
    if old_grid == grid:
        return t
    shard = [g * s // n for g, s, n in zip(old_grid, old_shard, grid)]
    if isinstance(t, TensorType):
        return TensorType(t.element_type, [*grid, *shard], t.encoding)
    layout = t.layout
    strides = [element_bytes(t)]
    for size in reversed(shard[1:]):
        strides.insert(0, strides[0] * size)
    if isinstance(layout, ttcore.ShardLayoutAttr):
        layout = ttcore.ShardLayoutAttr((tuple(strides), layout.data[1]))
    elif isinstance(layout, ttcore.InterleavedLayoutAttr):
        layout = ttcore.InterleavedLayoutAttr(tuple(strides))
    return MemRefType(t.element_type, [*grid, *shard], layout, t.memory_space)


def _view(value: SSAValue, t: Attribute) -> d2m.ViewLayoutOp:
    remapping = reblock_map(tuple(value.type.get_shape()), tuple(t.get_shape()))
    return d2m.ViewLayoutOp.create(operands=[value], result_types=[t],
                                   properties={"remapping": AffineMapAttr(remapping)})


def _block_type(t: Attribute, shape: list[int]) -> Attribute:
    """A region buffer's type `t` with the block shape `shape`."""
    if isinstance(t, TensorType):
        return TensorType(t.element_type, shape, t.encoding)
    return MemRefType(t.element_type, shape, t.layout, t.memory_space)


def _retype(value: SSAValue, t: Attribute) -> None:
    value._type = t  # the same buffer, of the block shape the new factors give it


def _repair(generic: d2m.GenericOp) -> None:
    """The region's types after the operands were reblocked: each operand block buffer (an alloc or tensor.empty
    a remote load or store uses) of its operand's new shard, a fused intermediate of its blocking map composed with
    the new shard extents; results of loads, stores and destination-style ops of the types they now take."""
    _, shard = bfa.extents(generic)
    for op in generic.region.walk():
        if op.name in ("memref.alloc", "tensor.empty"):
            result = op.results[0]
            operand = bfa.associated_operand(result)
            if operand is not None:
                _retype(result, _block_type(result.type, bfa.grid_and_shard(operand.type)[1]))
            elif "d2m.blocking_map" in op.attributes:
                amap = op.attributes["d2m.blocking_map"].data
                _retype(result, _block_type(result.type, bfa.through(amap, shard)))
        elif isinstance(op, d2m.RemoteLoadOp) and op.results and op.local is not None:
            _retype(op.results[0], op.local.type)
        elif isinstance(op, d2m.RemoteStoreOp) and op.results:
            _retype(op.results[0], op.dest.type)
        elif op.name == "linalg.generic" and op.results:
            for result, init in zip(op.results, op.operands[len(op.operands) - len(op.results):]):
                _retype(result, init.type)


def reblock(generic: d2m.GenericOp, factors: list[int]) -> None:
    """`generic` run with block factors `factors` (see the module doc)."""
    operands = [*generic.inputs, *generic.outputs]
    types = [reblocked_type(v.type, bfa.reblocked_grid(generic, i, factors)) for i, v in enumerate(operands)]
    block = generic.parent_block()
    for i, (value, t) in enumerate(zip(operands, types)):
        if t == value.type:
            continue
        view = _view(value, t)
        block.insert_op_before(view, generic)
        generic.operands[i] = view.result
        for op in generic.region.walk():  # the region reads the operand through the view
            for k, operand in enumerate(op.operands):
                if operand is value:
                    op.operands[k] = view.result
    generic.attributes["block_factors"] = ArrayAttr([IntegerAttr(f, i64) for f in factors])
    _repair(generic)
    old_out, new_out = operands[-1], generic.outputs[0]
    if new_out is old_out:
        return
    back = _view(new_out, old_out.type)
    block.insert_op_after(back, generic)
    if generic.results:  # tensor form: the result's readers read it in its old shape
        result = generic.results[0]
        result._type = new_out.type
        readers = [u for u in result.uses]
        back.operands[0] = result
        for use in readers:
            use.operation.operands[use.index] = back.result
        return
    position = {op: n for n, op in enumerate(block.ops)}
    anchor = position[back]
    for use in list(old_out.uses):  # memref form: what comes after the generic reads the output through the view
        user = use.operation
        while user is not None and user.parent_block() is not block:
            user = user.parent_op()
        if user is not None and user is not back and user is not generic and position.get(user, -1) > anchor:
            use.operation.operands[use.index] = back.result


@dataclass(frozen=True)
class D2MReblockGenericsPass(ModulePass):
    """Generics rebuilt with the analysis' block factors (see the module doc)."""

    name: ClassVar[str] = "d2m-reblock-generics"
    num_stream_buffers: int = 2
    test_buffer_size_policy: str = "auto"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.test_buffer_size_policy not in bfa.POLICIES:
            raise PassFailure(op, f"'builtin.module' op invalid test-buffer-size-policy '{self.test_buffer_size_policy}' (expected one "
                                  "of: auto, bounded, auto-mn, min, max)")
        if self.num_stream_buffers < 1:
            raise PassFailure(op, "num-stream-buffers is at least 1")
        for func in [f for f in op.walk() if isinstance(f, FuncOp) and f.body.blocks]:
            generics = [g for g in func.walk() if isinstance(g, d2m.GenericOp) and g.regions]
            chosen = [(g, bfa.reblocked_factors(g, self.test_buffer_size_policy, self.num_stream_buffers))
                      for g in generics]  # all chosen on the program as it was, as upstream's analysis runs first
            for generic, factors in chosen:
                if factors != bfa.block_factors(generic):
                    if len(generic.outputs) != 1:
                        raise PassFailure(generic, "reblocking expects a single output operand")
                    reblock(generic, factors)
