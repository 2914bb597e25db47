"""`--emit-calling-convention-wrappers`: for each `llvm.func` carrying `arg_ranks` and `result_ranks` (the CPU
hoisting marks its functions so), a `<name>_helper(ptr) -> ptr` the runtime calls with one signature whatever the
function's: its argument points at an array of WrappedTensors, `{ptr base, ptr aligned, i64 offset, ptr
sizes_and_strides}` (32 bytes each), which it unpacks into the memref-descriptor arguments of the function; the
function's returned descriptors are packed into a malloc'ed array of WrappedTensors (with a malloc'ed block of their
sizes and strides) whose address it returns. A function with no results gets a helper returning void."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, ModuleOp, i8, i64
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects.llvm_ext import struct
from ttmlir.errors import PassFailure

PTR = llvm.LLVMPointerType()
WRAPPED_TENSOR = struct([PTR, PTR, i64, PTR])
WRAPPED_TENSOR_WORDS = 4  # pointer-sized fields of a WrappedTensor: the step between two in the input array


class _Body:
    """Appends llvm ops to one block."""

    def __init__(self, block: Block, at: Operation):
        self.block, self.location = block, at.location

    def add(self, op: Operation) -> SSAValue | None:
        op.location = self.location
        self.block.add_op(op)
        return op.results[0] if op.results else None

    def const(self, value: int) -> SSAValue:
        return self.add(llvm.ConstantOp(IntegerAttr(value, i64), i64))

    def extract(self, container: SSAValue, position: tuple[int, ...], result: Attribute) -> SSAValue:
        return self.add(llvm.ExtractValueOp(DenseArrayBase.from_list(i64, position), container, result))

    def gep(self, pointer: SSAValue, element: Attribute, index: SSAValue, inbounds: bool = False) -> SSAValue:
        return self.add(llvm.GEPOp.from_mixed_indices(pointer, [index], element, inbounds=inbounds))


def ranks(func: llvm.FuncOp, name: str) -> list[int] | None:
    attr = func.attributes.get(name)
    if not isinstance(attr, ArrayAttr):
        return None
    if not all(isinstance(a, IntegerAttr) for a in attr.data):
        raise PassFailure(func, f"'{name}' must be an array of integers")
    return [a.value.data for a in attr.data]


def _unpack_arguments(body: _Body, array: SSAValue, arg_ranks: list[int]) -> list[SSAValue]:
    """Each WrappedTensor of the input array as the descriptor arguments (base, aligned, offset, sizes, strides)."""
    args: list[SSAValue] = []
    for index, rank in enumerate(arg_ranks):
        offset = body.add(llvm.MulOp(body.const(index), body.const(WRAPPED_TENSOR_WORDS)))
        wrapped = body.add(llvm.LoadOp(body.gep(array, PTR, offset, inbounds=True), WRAPPED_TENSOR))
        args += [body.extract(wrapped, (0,), PTR), body.extract(wrapped, (1,), PTR),
                 body.extract(wrapped, (2,), i64)]
        sizes_and_strides = body.extract(wrapped, (3,), PTR)
        for i in range(2 * rank):
            args.append(body.add(llvm.LoadOp(body.gep(sizes_and_strides, PTR, body.const(i)), i64)))
    return args


def _pack_results(body: _Body, result: SSAValue, result_ranks: list[int]) -> SSAValue:
    """The returned descriptors as a malloc'ed array of WrappedTensors."""
    malloc = lambda size: body.add(llvm.CallOp("malloc", body.const(size), return_type=PTR))  # noqa: E731
    outputs = malloc(len(result_ranks) * WRAPPED_TENSOR_WORDS * 8)
    sizes_and_strides = malloc(sum(2 * rank * 8 for rank in result_ranks))
    written = 0
    for index, rank in enumerate(result_ranks):
        descriptor = result if len(result_ranks) == 1 else body.extract(
            result, (index,), result.type.types.data[index])
        fields = [body.extract(descriptor, (0,), PTR), body.extract(descriptor, (1,), PTR),
                  body.extract(descriptor, (2,), i64)]
        own = body.gep(sizes_and_strides, i8, body.const(written))
        for i in range(2 * rank):
            value = body.extract(descriptor, (3 if i < rank else 4, i % rank), i64)
            body.add(llvm.StoreOp(value, body.gep(own, i64, body.const(i))))
        wrapped = body.add(llvm.UndefOp(WRAPPED_TENSOR))
        for position, value in enumerate([*fields, own]):
            wrapped = body.add(llvm.InsertValueOp(DenseArrayBase.from_list(i64, (position,)), wrapped, value))
        body.add(llvm.StoreOp(wrapped, body.gep(outputs, WRAPPED_TENSOR, body.const(index))))
        written += 2 * rank * 8
    return outputs


def emit_wrapper(module: ModuleOp, func: llvm.FuncOp, arg_ranks: list[int], result_ranks: list[int]) -> None:
    expected = sum(3 + 2 * rank for rank in arg_ranks)
    if len(func.function_type.inputs.data) != expected:
        raise PassFailure(func, f"'arg_ranks' describes {expected} descriptor arguments; @{func.sym_name.data} "
                                f"takes {len(func.function_type.inputs.data)}")
    returned = func.function_type.output
    block = Block(arg_types=[PTR])
    body = _Body(block, func)
    args = _unpack_arguments(body, block.args[0], arg_ranks)
    if result_ranks:
        if "malloc" not in {op.sym_name.data for op in module.ops if isinstance(op, llvm.FuncOp)}:
            module.body.block.add_op(llvm.FuncOp("malloc", llvm.LLVMFunctionType([i64], PTR),
                                                 linkage=llvm.LinkageAttr("external")))
        result = body.add(llvm.CallOp(func.sym_name.data, *args, return_type=returned))
        body.add(llvm.ReturnOp(_pack_results(body, result, result_ranks)))
        helper_type = llvm.LLVMFunctionType([PTR], PTR)
    else:
        body.add(llvm.CallOp(func.sym_name.data, *args))
        body.add(llvm.ReturnOp())
        helper_type = llvm.LLVMFunctionType([PTR])
    helper = llvm.FuncOp(f"{func.sym_name.data}_helper", helper_type, linkage=llvm.LinkageAttr("external"),
                         body=Region(block))
    helper.location = func.location
    module.body.block.add_op(helper)


@dataclass(frozen=True)
class LLVMEmitCallingConventionWrapperFuncsPass(ModulePass):
    """Emit packing and unpacking functions to pack return values and unwrap input arguments into expected call
    signatures for our funcs lowered to LLVMDialect."""

    name = "emit-calling-convention-wrappers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.ops if isinstance(f, llvm.FuncOp)]:
            arg_ranks, result_ranks = ranks(func, "arg_ranks"), ranks(func, "result_ranks")
            if arg_ranks is not None and result_ranks is not None:
                emit_wrapper(op, func, arg_ranks, result_ranks)
