"""The CPU module lowered to the LLVM dialect, as upstream's runtime pipeline does (its SHLO-and-TTIR-to-LLVM
stages): each CPU-hoisted function becomes an `llvm.func` of the memref calling convention plus its `_helper`
wrapper, which the runtime calls (`ttmlir.runtime.host_llvm`).

Here the common pipeline leaves the CPU functions' ops as TTNN ops on host tensors (so EmitPy can emit them as
calls); this stage takes each back to the TTIR op it lowers from, on plain tensors, then runs
`--convert-ttir-to-linalg`, `--tosa-to-linalg`, `--linalg-to-llvm-pipeline` and
`--emit-calling-convention-wrappers`. Functions of StableHLO ops (the CPU fallback) stay as they are: the host runs
those through `ttmlir.runtime.host_stablehlo`."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, ModuleOp, Signedness, TensorType, i64
from xdsl.dialects.func import FuncOp, FunctionType
from xdsl.rewriter import Rewriter

from ttmlir.timing import run_pass

HOST_DIALECTS = ("stablehlo.", "chlo.", "sdy.")


def tensor_ranks(types) -> ArrayAttr:
    """`arg_ranks` / `result_ranks`: the rank of each tensor the function takes or returns."""
    return ArrayAttr([IntegerAttr(len(t.get_shape()), i64) for t in types if isinstance(t, TensorType)])


def lowers_to_llvm(func: FuncOp) -> bool:
    """Whether the CPU pipeline's stages lower the TTIR function `func`: a clone of it is taken through the stages
    that refuse what they cannot lower (to linalg, then buffers), and every op left must have an LLVM form (the
    loop and LLVM stages lower any such op)."""
    from ttmlir.conversion.linalg_to_llvm.bufferize import bufferize
    from ttmlir.conversion.linalg_to_llvm.to_llvm import lowerable
    from ttmlir.errors import PassFailure
    scratch = ModuleOp([func.clone()])
    try:
        _to_linalg(Context(allow_unregistered=True), scratch)
        bufferize(scratch)
    except PassFailure:
        return False
    return all(lowerable(op) for f in scratch.ops for op in f.body.block.ops)


def _to_linalg(ctx: Context, module: ModuleOp) -> None:
    from ttmlir.conversion.tosa_to_linalg.tosa_to_linalg import TosaToLinalgPass
    from ttmlir.conversion.ttir_to_linalg.convert_ttir_to_linalg import ConvertTTIRToLinalgPass

    for func in [f for f in module.ops if isinstance(f, FuncOp)]:
        _plain_tensors(func)
    for stage in (ConvertTTIRToLinalgPass(), TosaToLinalgPass()):
        run_pass(stage, ctx, module)


def _lower_ttir(ctx: Context, module: ModuleOp) -> None:
    from ttmlir.pipelines.linalg_to_llvm import LinalgToLLVMPipeline
    from ttmlir.transforms.llvm.emit_calling_convention_wrappers import LLVMEmitCallingConventionWrapperFuncsPass

    _to_linalg(ctx, module)
    for stage in (LinalgToLLVMPipeline(), LLVMEmitCallingConventionWrapperFuncsPass()):
        run_pass(stage, ctx, module)


def _plain(t):
    """A tensor type as the CPU code holds it: no TTNN layout, integers signless (as upstream's hoisting drops
    their sign: LLVM's integers have none)."""
    if not isinstance(t, TensorType):
        return t
    element = t.element_type
    if isinstance(element, IntegerType) and element.signedness.data != Signedness.SIGNLESS:
        element = IntegerType(element.width.data)
    return TensorType(element, t.get_shape())


def _plain_tensors(func: FuncOp) -> None:
    """The function's tensors in their plain types (the CPU computes on plain row-major buffers)."""
    for value in [*func.body.block.args, *(r for op in func.walk() for r in op.results)]:
        if _plain(value.type) != value.type:
            Rewriter.replace_value_with_new_type(value, _plain(value.type))
    block = func.body.block
    func.function_type = FunctionType.from_lists([a.type for a in block.args],
                                                 [v.type for v in block.last_op.operands])


def lower_cpu_module(ctx: Context, module: ModuleOp) -> None:
    """Lower the TTNN-on-host functions of the module's CPU module to LLVM (see the module doc)."""
    from ttmlir.conversion.ttnn_to_ttir.convert_ttnn_to_ttir import convert_op
    from ttmlir.dialects.ttnn import TTNNOp
    from ttmlir.transforms.ttcore.register_device import cpu_module_of
    import xdsl.dialects.llvm as llvm

    cpu = cpu_module_of(module)
    if cpu is None:
        return
    functions = [f for f in cpu.ops if isinstance(f, FuncOp) and f.body.blocks
                 and not any(op.name.startswith(HOST_DIALECTS) for op in f.walk())]
    if not functions:
        return
    scratch = ModuleOp([])
    for func in functions:
        func.detach()
        scratch.body.block.add_op(func)
        for op in [o for o in func.walk() if isinstance(o, TTNNOp)]:
            convert_op(op)
        _plain_tensors(func)  # the ranks are read off its function type
        func.attributes.setdefault("arg_ranks", tensor_ranks(func.function_type.inputs.data))
        func.attributes.setdefault("result_ranks", tensor_ranks(func.function_type.outputs.data))
    _lower_ttir(ctx, scratch)
    declared = {op.sym_name.data for op in cpu.ops if isinstance(op, llvm.FuncOp)}
    for op in list(scratch.ops):
        op.detach()
        if isinstance(op, llvm.FuncOp) and not op.body.blocks and op.sym_name.data in declared:
            continue
        cpu.body.block.add_op(op)
