"""`--ttnn-create-input-gens`: `create_inputs_for_<fn>()` for each forward function and a `main()`.

Generated code then runs on its own: `main` builds every forward function's inputs (tensors of ones, laid out
as the function's signature says), calls the function and returns 0. Runs after `--ttnn-tuplify-tensors`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, StringAttr, TensorType, TupleType, i32
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore, ttnn
from ttmlir.ir.syntax import enum
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FUNCTION_TYPE
from ttmlir.transforms.ttnn.ttnn_tuplify_tensors import forward_functions
from ttmlir.transforms.ttnn.ttnn_utils import get_device_op, ttnn_op


def tensor_maker(block: Block, value_type: Attribute, at: Operation, make) -> SSAValue:
    """A tensor of `value_type` (a ttnn layout on it) made by `make(props, device, value_type)` at the end of
    `block`."""
    if not isinstance(value_type, TensorType) or not isinstance(value_type.encoding, ttnn.TTNNLayoutAttr):
        raise PassFailure(at, f"an input of type {value_type} cannot be generated: a tensor with a "
                              "#ttnn.ttnn_layout is expected")
    layout = value_type.encoding
    props = {"shape": ttnn.ShapeAttr(tuple(value_type.get_shape())),
             "dtype": enum(ttcore.DataTypeAttr, layout.data_type),
             "layout": enum(ttnn.LayoutAttr, "tile" if layout.is_tiled else "row_major")}
    device = None
    if layout.buffer_type != "system_memory":  # one device for the function, made first (upstream's getOrInsertDevice)
        get_device = next((op for op in block.ops if isinstance(op, ttnn.TTNNOp) and op.ROW.name == "get_device"),
                          None)
        if get_device is None:
            get_device = get_device_op(at)
            if block.first_op is None:
                block.add_op(get_device)
            else:
                block.insert_op_before(get_device, block.first_op)
        device = get_device.results[0]
        memory_layout = None if layout.memory_layout.__class__.__name__ == "NoneAttr" else layout.memory_layout
        props["memory_config"] = ttnn.MemoryConfigAttr(ttnn.MemoryConfig(enum(ttnn.BufferTypeAttr, layout.buffer_type),
                                                                         memory_layout))
    op = make(props, device, value_type)
    block.add_op(op)
    return op.results[0]


def add_main(module: ModuleOp, funcs: list[FuncOp], input_functions: dict[str, FuncOp]) -> None:
    """`main() -> i32`: each forward function called on what its input function returns."""
    block = Block()
    for func in funcs:
        maker = input_functions[func.sym_name.data]
        inputs = CallOp(maker.sym_name.data, [], list(maker.function_type.outputs.data))
        block.add_op(inputs)
        block.add_op(CallOp(func.sym_name.data, list(inputs.results), list(func.function_type.outputs.data)))
    zero = arith.ConstantOp(IntegerAttr(0, i32))
    block.add_ops([zero, ReturnOp(zero.result)])
    main = FuncOp("main", FunctionType.from_lists([], [i32]), Region(block))
    module.body.block.add_op(main)


@dataclass(frozen=True)
class TTNNCreateInputGeneratorsPass(ModulePass):
    """`create_inputs_for_<fn>` (ones tensors as the signature lays them out) per forward function, and `main`."""

    name: ClassVar[str] = "ttnn-create-input-gens"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        funcs = forward_functions(module)
        makers = {}
        for func in funcs:
            makers[func.sym_name.data] = maker = input_function(func, f"create_inputs_for_{func.sym_name.data}",
                                                                _ones)
            func.parent_block().insert_op_after(maker, func)
        add_main(module, funcs, makers)


def _ones(props: dict, device: SSAValue | None, tensor_type: TensorType) -> Operation:
    return ttnn.TTNN_OP_CLASSES["ones"].create(operands=[device] if device is not None else [],
                                               properties=props, result_types=[tensor_type])


def input_function(func: FuncOp, name: str, make) -> FuncOp:
    """A function returning `func`'s inputs (one tuple, after tuplification), each made by `make`."""
    inputs = list(func.function_type.inputs.data)
    block = Block()
    results = []
    for input_type in inputs:
        members = input_type.types.data if isinstance(input_type, TupleType) else [input_type]
        values = [tensor_maker(block, t, func, make) for t in members]
        if isinstance(input_type, TupleType):
            packed = ttcore.TupleOp(operands=[values], result_types=[input_type])
            block.add_op(packed)
            values = [packed.result]
        results.extend(values)
    block.add_op(ReturnOp(*results))
    maker = FuncOp(name, FunctionType.from_lists([], inputs), Region(block))
    maker.attributes[FUNCTION_TYPE] = StringAttr("input_generator")
    return maker
