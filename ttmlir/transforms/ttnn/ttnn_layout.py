"""`--ttnn-layout`: every tensor gets its `#ttnn.ttnn_layout` (tiled in DRAM; host operands row-major)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from ttmlir.dialects import ttnn
from ttmlir.dialects.ttcore_attrs import ArgumentTypeAttr
from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.tt_op import TTOp
from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import HOISTED_CALL
from ttmlir.transforms.ttir.ttir_infer_kv_cache_argument_types import KV_CACHE
from ttmlir.transforms.ttcore.register_device import cpu_module_of
from ttmlir.transforms.ttnn.ttnn_utils import device_functions, get_device_op, ttnn_op


@lru_cache(maxsize=4096)  # a model has few distinct tensor types; attributes are immutable
def _with_layout(t: Attribute, buffer: str = "dram", tiled: bool = True) -> Attribute:
    if not isinstance(t, TensorType):
        return t
    shape = tuple(t.get_shape())
    return TensorType(t.element_type, shape, ttnn.layout_for(shape, t.element_type, buffer, tiled))


def _host(t: Attribute) -> Attribute:
    return _with_layout(t, "system_memory", tiled=False)


def _row_major(t: Attribute) -> Attribute:
    return _with_layout(t, "dram", tiled=False)


def _arg_attrs(func: FuncOp) -> list[dict[str, Attribute]]:
    return [a.data for a in func.arg_attrs.data] if func.arg_attrs else [{}] * len(func.args)


def _given_row_major(arg, attrs: dict[str, Attribute]) -> bool:
    """A program input (`#ttcore.argument_type<input>`) arrives row-major in DRAM, as upstream's layout leaves it
    (the first op that needs tiles tilizes it on the device); a KV cache, updated in place, and an input split over
    the mesh or read by a tt-lang kernel keep their own layouts."""
    kind = attrs.get(ArgumentTypeAttr.name)
    if kind is None or str(kind.data.value) != "input" or KV_CACHE in attrs:
        return False
    return not any(isinstance(use.operation, TTOp) and use.operation.ROW.family in ("mesh_shard", "tt_lang")
                   for use in arg.uses)


@dataclass(frozen=True)
class TTNNLayoutPass(ModulePass):
    """Give every tensor a `#ttnn.ttnn_layout`: tiled in DRAM, arguments and results included, as upstream's
    layout does (the runtime places a program's inputs as its signature says). An argument only convolutions
    read as their weight or bias stays on the host, row-major: the convolution prepares it itself."""

    name: ClassVar[str] = "ttnn-layout"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for func in device_functions(module):
            if func.is_declaration:
                continue
            self._layout_function(func)
        cpu = cpu_module_of(module)
        declarations = {f.sym_name.data: f for f in device_functions(module) if f.is_declaration}
        for func in [op for op in cpu.ops if isinstance(op, FuncOp)] if cpu is not None else []:
            _retype_function(func, _host)
            if func.sym_name.data in declarations:  # a CPU function nothing calls has no declaration
                declarations[func.sym_name.data].function_type = func.function_type

    def _layout_function(self, func: FuncOp) -> None:
        block = func.body.block
        ops = list(block.ops)
        for op in ops:
            for result in op.results:
                Rewriter.replace_value_with_new_type(result, _with_layout(result.type))
        hoisted_calls = [op for op in ops if isinstance(op, CallOp) and HOISTED_CALL in op.attributes]
        if func.sym_visibility is not None and func.sym_visibility.data == "private":
            _retype_function(func, _with_layout)
            for call in hoisted_calls:
                _call_on_host(call)
            _host_operands_to_host(ops)
            _row_major_partitions(ops)
            return
        device = get_device_op(func)
        insert_at = ops[0]
        if isinstance(insert_at, TTNNOp) and insert_at.ROW.name == "get_device":
            device, insert_at = insert_at, ops[1] if len(ops) > 1 else block.last_op
        else:
            block.insert_op_before(device, insert_at)
        for arg, attrs in zip(list(block.args), _arg_attrs(func)):
            if isinstance(arg.type, TensorType):
                on_host = bool(arg.uses) and all(_read_on_host(use) for use in arg.uses)
                if on_host:
                    Rewriter.replace_value_with_new_type(arg, _host(arg.type))
                elif _given_row_major(arg, attrs):
                    tiled = _with_layout(arg.type)
                    _tilize_for_users(Rewriter.replace_value_with_new_type(arg, _row_major(arg.type)), tiled)
                else:
                    Rewriter.replace_value_with_new_type(arg, _with_layout(arg.type))
        ret = block.last_op
        for call in hoisted_calls:
            _call_on_host(call)
        _host_operands_to_host(ops)
        _row_major_partitions(ops)
        func.function_type = FunctionType.from_lists([a.type for a in block.args],
                                                     [v.type for v in ret.operands] if ret else [])


# Operands a device op reads from the host as the program was given them, as upstream's layout leaves them:
# a convolution prepares its own weight and bias (never tilized whole in DRAM); splitting a tensor over
# the mesh happens on the host.
HOST_OPERANDS = {"conv": ("weight", "bias"), "distribute_tensor": ("input",), "aggregate_tensor": ("input",)}
# the TTIR families of those ops, when the layout runs before the conversion to TTNN (as upstream's does)
HOST_OPERANDS.update(dict.fromkeys(("conv1d", "conv2d", "conv_transpose2d"), HOST_OPERANDS["conv"]), mesh_shard=("input",))


def _read_on_host(use) -> bool:
    """Whether this use reads a host tensor as given: a HOST_OPERANDS operand or a CPU-hoisted call's."""
    op = use.operation
    if isinstance(op, CallOp):
        return HOISTED_CALL in op.attributes
    return use.index in _host_operand_indices(op)


def _host_operand_indices(op: Operation) -> set[int]:
    """The positions of `op`'s HOST_OPERANDS operands."""
    if not isinstance(op, TTOp) or op.ROW.family not in HOST_OPERANDS:
        return set()
    names = [name for name, values in op.operand_groups().items() for _ in values]
    return {i for i, name in enumerate(names) if name in HOST_OPERANDS[op.ROW.family]}


def _host_operands_to_host(ops: list[Operation]) -> None:
    """A HOST_OPERANDS operand computed on the device (a folded conv weight, a const-eval result) is moved to the
    host, row-major, as upstream's layout does: tilized whole in DRAM, a 1x1 kernel's weight takes 1024x its size."""
    for op in ops:
        for i in _host_operand_indices(op):
            value = op.operands[i]
            if value.type != _host(value.type):
                to_host = ttnn_op("to_tensor_spec", [value], {}, [_host(value.type)], op)
                op.parent.insert_op_before(to_host, op)
                op.operands[i] = to_host.results[0]


# Ops that read and write row-major device tensors, as upstream's layout leaves them: a mesh_partition reslices a
# weight once (const-eval), and tiles would pad small trailing dims (a conv's 3x3) to 32x32 for no compute.
ROW_MAJOR_FAMILIES = frozenset({"mesh_partition"})


def _row_major_partitions(ops: list[Operation]) -> None:
    """Each ROW_MAJOR_FAMILIES op's input is moved to row-major DRAM and its result is row-major; other readers
    (the function's return included: its signature stays tiled) get it tilized just before them."""
    for op in ops:
        if not isinstance(op, TTOp) or op.ROW.family not in ROW_MAJOR_FAMILIES:
            continue
        value = op.operands[0]
        if value.type != _row_major(value.type):
            untilize = ttnn_op("to_tensor_spec", [value], {}, [_row_major(value.type)], op)
            op.parent.insert_op_before(untilize, op)
            op.operands[0] = untilize.results[0]
        tiled = op.results[0].type
        result = Rewriter.replace_value_with_new_type(op.results[0], _row_major(tiled))
        converted: dict[Operation, SSAValue] = {}
        for use in list(result.uses):
            user = use.operation
            if (isinstance(user, TTOp) and user.ROW.family in ROW_MAJOR_FAMILIES) or use.index in _host_operand_indices(user):
                continue
            if user not in converted:
                to_tile = ttnn_op("to_tensor_spec", [result], {}, [tiled], user)
                user.parent.insert_op_before(to_tile, user)
                converted[user] = to_tile.results[0]
            user.operands[use.index] = converted[user]


def _retype_function(func: FuncOp, layout: Callable[[Attribute], Attribute]) -> None:
    """Lay out every value of a function whose arguments need no boundary moves (callees, CPU functions)."""
    block = func.body.block
    values = [*block.args, *(r for op in block.ops for r in op.results)]
    if any(op.name.startswith(("stablehlo.", "chlo.")) for op in block.ops):  # the host's StableHLO: its boundary only
        values = [*block.args, *block.last_op.operands]
    for value in values:
        if value.type != layout(value.type):
            Rewriter.replace_value_with_new_type(value, layout(value.type))
    func.function_type = FunctionType.from_lists([a.type for a in block.args], [v.type for v in block.last_op.operands])


def _tilize_for_users(arg: SSAValue, tiled: Attribute) -> None:
    """Each op reading a row-major input gets it tilized just before it, as upstream's layout does per op."""
    converted: dict[Operation, SSAValue] = {}
    for use in list(arg.uses):
        user = use.operation
        if isinstance(user, ReturnOp):
            continue
        if user not in converted:
            to_tile = ttnn_op("to_tensor_spec", [arg], {}, [tiled], user)
            user.parent.insert_op_before(to_tile, user)
            converted[user] = to_tile.results[0]
        user.operands[use.index] = converted[user]


def _call_on_host(call: CallOp) -> None:
    """A CPU-hoisted call reads and writes host tensors: its operands go to the host and its results to the
    device by to_tensor_spec ops (--ttnn-decompose-layouts does that work on the host)."""
    block = call.parent
    for i, value in enumerate(list(call.operands)):
        if value.type != _host(value.type):  # not an argument the program gives on the host
            to_host = ttnn_op("to_tensor_spec", [value], {}, [_host(value.type)], call)
            block.insert_op_before(to_host, call)
            call.operands[i] = to_host.results[0]
    for result in list(call.results):
        device_type = result.type
        host = Rewriter.replace_value_with_new_type(result, _host(result.type))
        moved: dict[Operation, SSAValue] = {}  # each device reader gets it moved just before it, as upstream does
        for use in list(host.uses):
            user = use.operation
            if isinstance(user, CallOp) and HOISTED_CALL in user.attributes:
                continue  # another host function reads it where it is
            if user not in moved:
                to_device = ttnn_op("to_tensor_spec", [host], {}, [device_type], call)
                user.parent.insert_op_before(to_device, user)
                moved[user] = to_device.results[0]
            user.operands[use.index] = moved[user]
