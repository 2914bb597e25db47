"""`--convert-ttnn-to-emitc`: TTNN functions as calls of the TTNN C++ API (`emitc.call_opaque "ttnn::add"`).

Each TTNN op becomes one call whose arguments are its operands and properties in the order of
`ttmlir.conversion.ttnn_api` (the table EmitPy shares), spelled as C++ (`::ttnn::DataType::BFLOAT16`,
`::ttnn::MemoryConfig{...}`, `::std::nullopt` for what is absent); tensors are `::ttnn::Tensor`, tuples
`::std::vector<::ttnn::Tensor>`, the device `::ttnn::MeshDevice*`. `--mlir-to-cpp` prints the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (ArrayAttr, IndexType, IntegerAttr, IntegerType, ModuleOp, StringAttr,
                                   TensorType, TupleType)
from xdsl.dialects.emitc import (EmitC_CallOpaqueOp, EmitC_LValueType, EmitC_OpaqueAttr, EmitC_OpaqueType,
                                 EmitC_PointerType)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import emitc, trace, ttcore, ttnn
from ttmlir.errors import PassFailure
from ttmlir.conversion.ttnn_api import Operand, call_of, convert_function, cpp_callee_of, cpp_value, host_type, outside_ttnn

TENSOR = EmitC_OpaqueType(StringAttr("::ttnn::Tensor"))
TENSORS = EmitC_OpaqueType(StringAttr("::std::vector<::ttnn::Tensor>"))
DEVICE = EmitC_PointerType(EmitC_OpaqueType(StringAttr("::ttnn::MeshDevice")))
SEMAPHORE = EmitC_OpaqueType(StringAttr("::ttnn::GlobalSemaphore"))
CREATE_VECTOR = "util_create_vec"  # the helper ttnn-precompiled.hpp gives generated code
CACHE_PREFIX = "g_cached_result_"  # a const-eval function's static cache
GET_OPTIONAL = "util_get_optional_value"  # ttnn-precompiled.hpp's: the tensor a std::optional holds
OPTIONAL_RESULTS = {"sdpa_fw"}  # ttml's sdpa_fw returns its output and (optional) intermediates so


def convert_type(t: Attribute, at: Operation) -> Attribute:
    return host_type(t, at, {TensorType: TENSOR, TupleType: TENSORS, ttnn.DeviceType: DEVICE,
                             trace.GlobalSemaphoreType: SEMAPHORE}, "C++")


def _opaque(text: str) -> EmitC_OpaqueAttr:
    return EmitC_OpaqueAttr(StringAttr(text))


@dataclass(frozen=True)
class ConvertTTNNToEmitCPass(ModulePass):
    """TTNN ops to `emitc.call_opaque` calls of the TTNN C++ API; function signatures to C++ types."""

    name: ClassVar[str] = "convert-ttnn-to-emitc"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.ops):
            if isinstance(op, ttcore.CPUModuleOp) and not any(isinstance(f, FuncOp) for f in op.walk()):
                module.body.block.erase_op(op)  # nothing was hoisted to the CPU
            elif isinstance(op, (ttcore.DeviceModuleOp, ttcore.CPUModuleOp)):
                raise PassFailure(op, f"'{op.name}' must be unwrapped before EmitC conversion (--ttcore-unwrap-device-"
                                      "module); CPU-hoisted functions have no EmitC lowering")
        cached = sorted({op.callee.root_reference.data for op in module.walk() if isinstance(op, ttcore.LoadCachedOp)})
        for callee in reversed(cached):  # each const-eval function's results, kept across calls
            module.body.block.insert_op_before(emitc.VerbatimOp.create(properties={"value": StringAttr(
                f"static {TENSORS.value.data} {CACHE_PREFIX}{callee};")}), module.body.block.first_op)
        for func in [op for op in module.ops if isinstance(op, FuncOp)]:
            if func.is_declaration:
                raise PassFailure(func, f"@{func.sym_name.data} is only declared: generated C++ cannot call it")
            convert_function(func, convert_type, _convert_op)
        for op in list(module.ops):
            if isinstance(op, ttcore.DeviceOp):  # the device is the runtime's; C++ asks the DeviceGetter for it
                module.body.block.erase_op(op)
        module.body.block.insert_op_before(emitc.IncludeOp.create(properties={"include": StringAttr(
            "ttnn-precompiled.hpp")}), module.body.block.first_op)


def _call(callee: str, operands: list[SSAValue], result_types: list[Attribute], args=None) -> EmitC_CallOpaqueOp:
    return EmitC_CallOpaqueOp(callee, operands, result_types, args=ArrayAttr(args) if args is not None else None)


def _convert_op(op: Operation) -> tuple[list[Operation], list[SSAValue]] | None:
    """The ops replacing `op` and the values standing for its results (None: `op` stays, retyped)."""
    if isinstance(op, (ReturnOp, arith.ConstantOp)):
        return None
    if isinstance(op, CallOp):  # a call of a function of this file: C++ names it from the global namespace
        new = _call("::" + op.callee.root_reference.data, list(op.arguments),
                    [convert_type(r.type, op) for r in op.results])
        return [new], list(new.res)
    if isinstance(op, ttcore.GetTupleElementOp):
        index = emitc.LiteralOp.create(properties={"value": StringAttr(str(op.index.value.data))},
                                       result_types=[IndexType()])
        element = emitc.SubscriptOp.create(operands=[op.operand, index.result],
                                           result_types=[EmitC_LValueType(TENSOR)])
        load = emitc.LoadOp.create(operands=[element.result], result_types=[TENSOR])
        return [index, element, load], [load.result]
    if isinstance(op, ttcore.TupleOp):
        call = _call(CREATE_VECTOR, list(op.operands), [TENSORS])
        return [call], [call.res[0]]
    if isinstance(op, ttcore.LoadCachedOp):  # run the const-eval function while its cache is empty; read the cache
        callee = op.callee.root_reference.data
        cache = emitc.LiteralOp.create(properties={"value": StringAttr(CACHE_PREFIX + callee)}, result_types=[TENSORS])
        if op.operands:
            inputs = [_call(CREATE_VECTOR, list(op.operands), [TENSORS])]
            fill = emitc.VerbatimOp.create(operands=[inputs[0].res[0]], properties={"value": StringAttr(
                f"::ttnn::constEvalFuncWrapper(&{callee}, {{}}, &{CACHE_PREFIX}{callee});")})
        else:
            inputs = []
            fill = emitc.VerbatimOp.create(properties={"value": StringAttr(
                f"::ttnn::constEvalFuncWrapperZeroArg(&{callee}, &{CACHE_PREFIX}{callee});")})
        ops, members = [*inputs, fill, cache], []
        for i in range(len(op.results)):
            index = emitc.LiteralOp.create(properties={"value": StringAttr(str(i))}, result_types=[IndexType()])
            element = emitc.SubscriptOp.create(operands=[cache.result, index.result],
                                               result_types=[EmitC_LValueType(TENSOR)])
            load = emitc.LoadOp.create(operands=[element.result], result_types=[TENSOR])
            ops += [index, element, load]
            members.append(load.result)
        return ops, members
    if isinstance(op, ttnn.TTNNOp):
        return _convert_ttnn(op)
    raise PassFailure(op, f"'{op.name}' has no EmitC lowering")


def _convert_ttnn(op: ttnn.TTNNOp) -> tuple[list[Operation], list[SSAValue]]:
    result_types = [convert_type(r.type, op) for r in op.results]
    if op.ROW.name == "get_device":
        call = _call("::ttnn::DeviceGetter::getInstance", [], result_types)
        return [call], list(call.res)
    if op.ROW.family == "trace":
        raise PassFailure(op, f"'{op.name}': traces have no EmitC lowering (compile without enable-trace)")
    call = call_of(op)
    prelude: list[Operation] = []
    operands: list[SSAValue] = []
    args: list[Attribute] = []

    def operand_index(value) -> int:
        operands.append(value)
        return len(operands) - 1

    for _keyword, value in call.args:
        if isinstance(value, Operand):
            args.append(IntegerAttr(operand_index(op.operands[value.index]), IndexType()))
        elif isinstance(value, list) and value and isinstance(value[0], Operand):
            vector = _call(CREATE_VECTOR, [op.operands[v.index] for v in value], [TENSORS])
            prelude.append(vector)
            args.append(IntegerAttr(operand_index(vector.res[0]), IndexType()))
        else:
            args.append(_opaque(cpp_value(value, lambda i: "")))
    callee = cpp_callee_of(op.ROW.name)
    callee = callee[2:] if outside_ttnn(op.ROW.name) else "ttnn::" + callee
    if op.ROW.name in OPTIONAL_RESULTS:  # a std::vector of std::optional tensors, one per result
        optional = EmitC_OpaqueType(StringAttr(f"::std::optional<{TENSOR.value.data}>"))
        new = _call(callee, operands, [EmitC_OpaqueType(StringAttr(f"::std::vector<{optional.value.data}>"))], args)
        ops, values = [*prelude, new], []
        for i in range(len(result_types)):
            index = emitc.LiteralOp.create(properties={"value": StringAttr(str(i))}, result_types=[IndexType()])
            element = emitc.SubscriptOp.create(operands=[new.res[0], index.result],
                                               result_types=[EmitC_LValueType(optional)])
            load = emitc.LoadOp.create(operands=[element.result], result_types=[optional])
            value = _call(GET_OPTIONAL, [load.result], [TENSOR])
            ops += [index, element, load, value]
            values.append(value.res[0])
        return ops, values
    if len(result_types) <= 1:
        new = _call(callee, operands, result_types, args)
        return [*prelude, new], list(new.res)
    # several results come back as one std::tuple, taken apart with std::get
    members = ", ".join(t.value.data for t in result_types)
    new = _call(callee, operands, [EmitC_OpaqueType(StringAttr(f"::std::tuple<{members}>"))], args)
    parts = [EmitC_CallOpaqueOp("::std::get", [new.res[0]], [t],
                                template_args=ArrayAttr([IntegerAttr(i, IntegerType(32))]))
             for i, t in enumerate(result_types)]
    return [*prelude, new, *parts], [p.res[0] for p in parts]
