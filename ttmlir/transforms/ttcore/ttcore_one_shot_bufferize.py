"""`--ttcore-one-shot-bufferize`: tensors become memrefs at function boundaries, in globals and in the ops that
make or copy buffers, with ttcore's type conversion.

A tensor laid out by `#ttcore.metal_layout` (its shape the grid followed by the shard) becomes a memref in that
layout's memory space: `#ttcore.shard<strides, 1>` when sharded, `#ttcore.interleaved<strides>` when
interleaved, the strides in bytes over the shard's dims. Any other ranked tensor becomes an identity-layout
memref, an unranked one an unranked memref. Functions (signatures and entry arguments), calls, returns,
`ttcore.global`/`ttcore.get_global`, `bufferization.alloc_tensor` and `tensor.empty` (a 64-byte aligned
`memref.alloc`; in a `d2m.generic`'s region, a core's local block, in L1), `linalg.copy` (into the output buffer)
and `tensor.cast` (`memref.cast`, nothing when the types agree) bufferize; any other op on tensors is an error, as
one-shot bufferization without unknown ops.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import bufferization, func, linalg, memref, tensor
from xdsl.dialects.builtin import (FunctionType, IntegerAttr, MemRefType, ModuleOp, NoneAttr, TensorType,
                                   UnrankedMemRefType, UnrankedTensorType)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore
from ttmlir.errors import PassFailure
from ttmlir.ir.sizes import element_bytes

ALIGNMENT = 64  # bytes, the alignment one-shot bufferization gives the buffers it allocates
L1 = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type("l1"))


def buffer_type(type: Attribute) -> Attribute:
    """The memref a tensor type bufferizes to; any other type as it is."""
    if isinstance(type, UnrankedTensorType):
        return UnrankedMemRefType.from_type(type.element_type)
    if not isinstance(type, TensorType):
        return type
    layout = type.encoding
    if not isinstance(layout, ttcore.MetalLayoutAttr):
        return MemRefType(type.element_type, type.get_shape())
    shape = type.get_shape()
    shard = shape[len(shape) // 2:]
    strides = [element_bytes(type.element_type)]
    for size in reversed(shard[1:]):
        strides.insert(0, strides[0] * size)
    space = ttcore.MemorySpaceAttr(ttcore.MemorySpaceAttr.enum_type(layout.data.memory_space))
    kind = ttcore.InterleavedLayoutAttr(tuple(strides)) if layout.data.memory_layout == "interleaved" else \
        ttcore.ShardLayoutAttr((tuple(strides), 1))
    return MemRefType(type.element_type, shape, kind, space)


def _is_tensor(type: Attribute) -> bool:
    return isinstance(type, (TensorType, UnrankedTensorType))


def _bufferize_func(op: func.FuncOp) -> None:
    kind = op.function_type
    op.function_type = FunctionType.from_lists([buffer_type(t) for t in kind.inputs.data],
                                               [buffer_type(t) for t in kind.outputs.data])
    if op.body.blocks:
        for arg in list(op.body.blocks[0].args):
            if _is_tensor(arg.type):
                Rewriter.replace_value_with_new_type(arg, buffer_type(arg.type))


def _in_generic_region(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and parent.name != "d2m.generic":
        parent = parent.parent_op()
    return parent is not None


def _alloc(op: Operation) -> None:
    if op.operands:
        raise PassFailure(op, "failed to bufferize op: only statically shaped buffers without a copy are allocated")
    kind = buffer_type(op.results[0].type)
    t = op.results[0].type
    if isinstance(t, TensorType) and isinstance(t.encoding, NoneAttr) and _in_generic_region(op):
        kind = MemRefType(t.element_type, t.get_shape(), memory_space=L1)  # a core's local block lives in its L1
    Rewriter.replace_op(op, memref.AllocOp([], [], kind, IntegerAttr(ALIGNMENT, 64)))


def _copy(op: linalg.CopyOp) -> None:
    Rewriter.replace_op(op, linalg.CopyOp(list(op.inputs), list(op.outputs), res=[]), list(op.outputs))


def _cast(op: tensor.CastOp) -> None:
    kind = buffer_type(op.results[0].type)
    if op.source.type == kind:
        Rewriter.replace_op(op, [], [op.source])
        return
    Rewriter.replace_op(op, memref.CastOp.get(op.source, kind))


def _call(op: func.CallOp) -> None:
    Rewriter.replace_op(op, func.CallOp(op.callee, list(op.arguments), [buffer_type(r.type) for r in op.results]))


def _global(op: ttcore.GlobalOp) -> None:
    op.properties["type"] = buffer_type(op.type)


def _get_global(op: ttcore.GetGlobalOp) -> None:
    Rewriter.replace_value_with_new_type(op.result, buffer_type(op.result.type))


BUFFERIZE = {func.FuncOp: _bufferize_func, func.CallOp: _call, ttcore.GlobalOp: _global,
             ttcore.GetGlobalOp: _get_global, bufferization.AllocTensorOp: _alloc, tensor.EmptyOp: _alloc,
             linalg.CopyOp: _copy, tensor.CastOp: _cast, func.ReturnOp: lambda op: None}


# ops that stay on tensors when function boundaries are not bufferized
BOUNDARIES = (func.FuncOp, func.CallOp, func.ReturnOp)


def bufferize(module: ModuleOp, function_boundaries: bool = True, allow_unknown_ops: bool = False) -> None:
    """Every op of `module` on buffers (D2M's as `d2m_bufferize` says); functions keep their tensor signatures
    without `function_boundaries`, and an op nothing bufferizes keeps its tensors with `allow_unknown_ops`."""
    from ttmlir.transforms.d2m.d2m_bufferize import D2M_BUFFERIZE

    for op in list(module.walk()):  # producers before users: each op sees its operands bufferized
        rewrite = BUFFERIZE.get(type(op))
        if isinstance(op, BOUNDARIES) and not function_boundaries:
            continue
        if rewrite is not None:
            rewrite(op)
        elif type(op) in D2M_BUFFERIZE:
            D2M_BUFFERIZE[type(op)](op, buffer_type)
        elif any(_is_tensor(v.type) for v in (*op.operands, *op.results)) and not allow_unknown_ops:
            raise PassFailure(op, "failed to bufferize op")
    if function_boundaries:
        for op in [o for o in module.walk() if isinstance(o, func.FuncOp) and o.body.blocks]:
            _returned_types(op)


def _returned_types(op: func.FuncOp) -> None:
    """A function returns the buffers it returns (a view of one is returned as that view), as one-shot
    bufferization infers result types from the returned buffers."""
    returns = [o for o in op.walk() if isinstance(o, func.ReturnOp) and o.parent_op() is op]
    if returns:
        op.function_type = FunctionType.from_lists(list(op.function_type.inputs.data),
                                                   [v.type for v in returns[0].operands])


@dataclass(frozen=True)
class TTCoreOneShotBufferizePass(ModulePass):
    """Tensors to memrefs with ttcore's layouts, at function boundaries and in the ops that make buffers."""

    name: ClassVar[str] = "ttcore-one-shot-bufferize"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        bufferize(module)
