"""TTIR → TTNN: op conversion, layout assignment, deallocation, and the backend pipeline.

Conversion walks each function once with a dispatch table keyed by op family: most families map
an op to its TTNN row unchanged (properties the TTNN op accepts are carried over), a few rewrite
(transpose → permute, squeeze/unsqueeze → reshape, broadcast → repeat, index → slice_static).
A TTIR op with no lowering yet is a located `failed to legalize` diagnostic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, NoneAttr, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttcore, ttnn
from ttmlir.dialects.props import KINDS, int_values
from ttmlir.dialects.syntax import enum
from ttmlir.dialects.tt_op import TTOp
from ttmlir.dialects.ttnn import TTNN_OP_CLASSES, TTNNOp
from ttmlir.passes import PassFailure
from ttmlir.passes.register_device import RegisterDevicePass, device_module_of

DTYPE_FAMILIES = {"unary", "binary", "ternary", "reduction"}


def _ttnn_op(name: str, operands, props: dict[str, Attribute], result_types, source: Operation) -> Operation:
    cls = TTNN_OP_CLASSES[name]
    accepted = {p[0] for p in cls.ROW.props} | {"operandSegmentSizes"}
    new = cls.create(operands=list(operands), result_types=list(result_types),
                     properties={k: v for k, v in props.items() if k in accepted})
    new.location = source.location
    new.attributes.update(source.attributes)
    return new


def _props(op: TTOp, **overrides: Attribute) -> dict[str, Attribute]:
    return {**op.properties, **overrides}


def _reshape_to_result(op: TTOp) -> Operation:
    shape = op.results[0].type.get_shape()
    return _ttnn_op("reshape", op.operands[:1], {"shape": KINDS["i32_array"].build(shape)},
                    [op.results[0].type], op)


def _transpose(op: TTOp) -> Operation:
    rank = len(op.operands[0].type.get_shape())
    perm = list(range(rank))
    a, b = (int_values(op.prop(n))[0] % rank for n in ("dim0", "dim1"))
    perm[a], perm[b] = perm[b], perm[a]
    return _ttnn_op("permute", op.operands, {"permutation": KINDS["i64_darray"].build(perm)}, [op.results[0].type], op)


def _broadcast(op: TTOp) -> Operation:
    dims = int_values(op.prop("broadcast_dimensions"))
    return _ttnn_op("repeat", op.operands, {"repeat_dims": ttnn.ShapeAttr(tuple(dims))}, [op.results[0].type], op)


def _repeat(op: TTOp) -> Operation:
    dims = int_values(op.prop("repeat_dimensions"))
    return _ttnn_op("repeat", op.operands, {"repeat_dims": ttnn.ShapeAttr(tuple(dims))}, [op.results[0].type], op)


def _index(op: TTOp) -> Operation:
    shape = op.operands[0].type.get_shape()
    dim = int_values(op.prop("dim"))[0] % len(shape)
    begins, ends, steps = [0] * len(shape), list(shape), [1] * len(shape)
    begins[dim], ends[dim], steps[dim] = (int_values(op.prop(n))[0] for n in ("begin", "end", "step"))
    build = KINDS["i32_array"].build
    return _ttnn_op("slice_static", op.operands, {"begins": build(begins), "ends": build(ends), "step": build(steps)},
                    [op.results[0].type], op)


def _direct(op: TTOp) -> Operation:
    props = _props(op)
    if op.ROW.family in DTYPE_FAMILIES and op.results and isinstance(op.results[0].type, TensorType):
        props["dtype"] = enum(ttcore.DataTypeAttr, ttnn.data_type_of(op.results[0].type.element_type))
    return _ttnn_op(op.ROW.ttnn, op.operands, props, [r.type for r in op.results], op)


CONVERSIONS: dict[str, Callable[[TTOp], Operation]] = {
    "transpose": _transpose, "squeeze": _reshape_to_result, "unsqueeze": _reshape_to_result,
    "broadcast": _broadcast, "repeat": _repeat, "index": _index,
}
DIRECT_FAMILIES = {"unary", "binary", "ternary", "reduction", "cumsum", "reshape", "permute", "concat",
                   "repeat_interleave", "pad", "slice", "reverse", "gather", "matmul", "softmax", "embedding",
                   "upsample2d", "batch_norm", "norm", "group_norm", "cache", "ccl", "global_pool2d"}


def _conversion(op: TTOp) -> Callable[[TTOp], Operation] | None:
    if op.ROW.family in CONVERSIONS:
        return CONVERSIONS[op.ROW.family]
    if op.ROW.family in DIRECT_FAMILIES and op.ROW.ttnn in TTNN_OP_CLASSES:
        return _direct
    return None


def _functions(module: ModuleOp):
    return [op for op in device_module_of(module).ops if isinstance(op, FuncOp)]


@dataclass(frozen=True)
class ConvertTTIRToTTNNPass(ModulePass):
    """Convert every TTIR op to its TTNN counterpart."""

    name: ClassVar[str] = "convert-ttir-to-ttnn"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.walk()):
            if not isinstance(op, TTOp) or isinstance(op, TTNNOp):
                continue
            convert = _conversion(op)
            if convert is None:
                raise PassFailure(op, f"failed to legalize operation '{op.name}' that was explicitly marked illegal")
            new = convert(op)
            op.parent.insert_op_before(new, op)
            for old, value in zip(op.results, new.results):
                old.replace_all_uses_with(value)
            op.detach()
            op.erase()


def _with_layout(t: Attribute, buffer: str = "dram", tiled: bool = True) -> Attribute:
    if not isinstance(t, TensorType):
        return t
    shape = tuple(t.get_shape())
    return TensorType(t.element_type, shape, ttnn.layout_for(shape, t.element_type, buffer, tiled))


def _host(t: Attribute) -> Attribute:
    return _with_layout(t, "system_memory", tiled=False)


def _memory_config(buffer: str = "dram") -> ttnn.MemoryConfigAttr:
    return ttnn.MemoryConfigAttr(ttnn.MemoryConfig(enum(ttnn.BufferTypeAttr, buffer),
                                                  enum(ttnn.TensorMemoryLayoutAttr, "interleaved")))


@dataclass(frozen=True)
class TTNNLayoutPass(ModulePass):
    """Give every tensor a `#ttnn.ttnn_layout`: host row-major at function boundaries, tiled DRAM inside."""

    name: ClassVar[str] = "ttnn-layout"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in _functions(module):
            if func.is_declaration:
                continue
            self._layout_function(func)

    def _layout_function(self, func: FuncOp) -> None:
        block = func.body.block
        ops = list(block.ops)
        for op in ops:
            for result in op.results:
                Rewriter.replace_value_with_new_type(result, _with_layout(result.type))
        device = TTNN_OP_CLASSES["get_device"].create(
            result_types=[ttnn.DeviceType()],
            properties={"mesh_offset": ttnn.MeshOffsetAttr((0, 0)), "mesh_shape": ttnn.MeshShapeAttr((1, 1))})
        insert_at = ops[0]
        block.insert_op_before(device, insert_at)
        for arg in list(block.args):
            if not isinstance(arg.type, TensorType):
                continue
            device_type = _with_layout(arg.type)
            arg = Rewriter.replace_value_with_new_type(arg, _host(arg.type))
            to_device = _ttnn_op("to_device", [arg, device.results[0]], {"memory_config": _memory_config()},
                                 [_with_layout(arg.type, "dram", tiled=False)], func)
            to_layout = _ttnn_op("to_layout", [to_device.results[0]], {"layout": enum(ttnn.LayoutAttr, "tile")},
                                 [device_type], func)
            block.insert_ops_before([to_device, to_layout], insert_at)
            arg.replace_uses_with_if(to_layout.results[0], lambda use: use.operation is not to_device)
        ret = block.last_op
        if isinstance(ret, ReturnOp):
            for i, value in enumerate(list(ret.operands)):
                if not isinstance(value.type, TensorType):
                    continue
                from_device = _ttnn_op("from_device", [value], {}, [_with_layout(value.type, "system_memory")], func)
                to_row_major = _ttnn_op("to_layout", [from_device.results[0]],
                                        {"layout": enum(ttnn.LayoutAttr, "row_major")}, [_host(value.type)], func)
                block.insert_ops_before([from_device, to_row_major], ret)
                ret.operands[i] = to_row_major.results[0]
        func.function_type = FunctionType.from_lists([a.type for a in block.args],
                                                     [v.type for v in ret.operands] if ret else [])


def _is_device_tensor(value: SSAValue) -> bool:
    t = value.type
    return isinstance(t, TensorType) and isinstance(t.encoding, ttnn.TTNNLayoutAttr) and \
        t.encoding.buffer_type != "system_memory"


@dataclass(frozen=True)
class TTNNDeallocatePass(ModulePass):
    """Free each device intermediate right after its last use (never arguments or results)."""

    name: ClassVar[str] = "ttnn-deallocate"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in _functions(module):
            if not func.is_declaration:
                self._deallocate(func.body.block)

    @staticmethod
    def _deallocate(block: Block) -> None:
        order = {op: i for i, op in enumerate(block.ops)}
        for op in list(block.ops):
            for result in op.results:
                if not _is_device_tensor(result) or not result.uses:
                    continue
                users = [u.operation for u in result.uses]
                if any(isinstance(u, ReturnOp) or u.parent is not block for u in users):
                    continue
                last = max(users, key=order.__getitem__)
                dealloc = _ttnn_op("deallocate", [result], {"force": KINDS["bool"].build(False)}, [], last)
                block.insert_op_after(dealloc, last)


@dataclass(frozen=True)
class TTIRToTTNNBackendPipeline(RegisterDevicePass):
    """The full TTIR → TTNN backend: register device, convert, lay out, deallocate."""

    name: ClassVar[str] = "ttir-to-ttnn-backend-pipeline"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        super().apply(ctx, module)
        for stage in (ConvertTTIRToTTNNPass(), TTNNLayoutPass(), TTNNDeallocatePass()):
            stage.apply(ctx, module)
