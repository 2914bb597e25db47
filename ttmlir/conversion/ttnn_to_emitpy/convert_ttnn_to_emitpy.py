"""`--convert-ttnn-to-emitpy`: TTNN functions as calls of the `ttnn` Python API (`emitpy.call_opaque "ttnn.add"`).

Each TTNN op becomes one call: its operands positionally, its properties as keyword arguments, in the order and
spelling of `ttmlir.conversion.ttnn_api` (the table EmitC shares). Tensors are `ttnn.Tensor`, tuples of them Python
lists, the device `ttnn.Device` (from `utils.DeviceGetter`). `--mlir-to-python` prints the result."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (DenseArrayBase, FlatSymbolRefAttr, IndexType, IntegerAttr, ModuleOp, StringAttr,
                                   UnitAttr, i64)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import emitpy, ttcore, ttnn
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import CONST_EVAL, FUNCTION_TYPE
from ttmlir.transforms.ttnn.ttnn_file_split import CONST_EVAL_WRAPPER, HOST_MODULE
from ttmlir.transforms.ttnn.ttnn_prepare_module_for_export import take_device_argument
from ttmlir.conversion.ttnn_to_emitpy.calls import (CONST_EVALED, CPU_HOISTED, CREATE_LIST, DEVICE, TENSOR, TENSORS, call,
                                                   convert_type)
from ttmlir.conversion.ttnn_to_emitpy.trace import convert_trace_op
from ttmlir.conversion.ttnn_api import Operand, call_of, convert_function, python_value, ttir_name

@dataclass(frozen=True)
class ConvertTTNNToEmitPyPass(ModulePass):
    """TTNN ops to `emitpy.call_opaque` calls of the ttnn Python API; imports of `ttnn` and `utils`."""

    name: ClassVar[str] = "convert-ttnn-to-emitpy"
    target_module: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        for op in list(module.ops):
            if isinstance(op, ttcore.DeviceModuleOp):
                raise PassFailure(op, f"'{op.name}' must be unwrapped before EmitPy conversion")
        host = _place_cpu_functions(module)
        if self.target_module:  # an exported module's const-eval functions run on the caller's device too
            for func in module.ops:
                if isinstance(func, FuncOp) and func.attributes.get(FUNCTION_TYPE) == StringAttr(CONST_EVAL):
                    take_device_argument(func)
        for func in [op for op in module.ops if isinstance(op, FuncOp)]:
            if func.is_declaration:
                raise PassFailure(func, f"@{func.sym_name.data} is only declared: generated Python cannot call it")
            convert_function(func, convert_type, partial(_convert_op, host=func in host, module_form=self.target_module))
            if func.attributes.get(FUNCTION_TYPE) == CONST_EVAL_WRAPPER:
                _guard_const_eval(func)
        for op in list(module.ops):
            if isinstance(op, ttcore.DeviceOp):
                module.body.block.erase_op(op)
            elif isinstance(op, ttcore.GlobalOp):  # a const-eval cache, empty until the first call fills it
                module.body.block.insert_op_before(emitpy.GlobalOp.create(properties={
                    "sym_name": op.sym_name, "initial_value": emitpy.OpaqueAttr(StringAttr("{}"))}), op)
                module.body.block.erase_op(op)
        for key in [k for k in module.attributes if k.startswith(("ttcore.", "ttnn."))]:
            del module.attributes[key]  # the device's description and budgets: nothing generated code reads
        block = module.body.block
        for name in ((HOST_MODULE,) if host else ()) + ("utils", "ttnn"):
            block.insert_op_before(emitpy.ImportOp.create(properties={"module_name": StringAttr(name)}),
                                   block.first_op)


def _place_cpu_functions(module: ModuleOp) -> set[FuncOp]:
    """The CPU module's functions (ops on host tensors) as functions of the module, each right before the first
    function calling it, in place of its declaration; they are returned."""
    block = module.body.block
    hoisted: set[FuncOp] = set()
    mesh = ttcore.registered_mesh(block.first_op) if block.first_op is not None else None
    for cpu in [op for op in block.ops if isinstance(op, ttcore.CPUModuleOp)]:
        for func in [f for f in cpu.walk() if isinstance(f, FuncOp)]:
            name = func.sym_name.data
            for declared in [op for op in block.ops if isinstance(op, FuncOp) and op.is_declaration
                             and op.sym_name.data == name]:
                block.erase_op(declared)
            caller = next((op for op in block.ops if isinstance(op, FuncOp) and any(
                isinstance(c, CallOp) and c.callee.root_reference.data == name for c in op.walk())), None)
            func.detach()
            func.attributes[CPU_HOISTED] = DenseArrayBase.from_list(i64, list(mesh or (1, 1)))
            if caller is None:
                block.add_op(func)
            else:
                block.insert_op_before(func, caller)
            hoisted.add(func)
        block.erase_op(cpu)
    return hoisted


def _convert_op(op: Operation, host: bool = False, module_form: bool = False) -> \
        tuple[list[Operation], list[SSAValue]] | None:
    if isinstance(op, (ReturnOp, arith.ConstantOp)):
        return None
    if isinstance(op, CallOp):
        new = CallOp(op.callee, list(op.arguments), [convert_type(r.type, op) for r in op.results])
        if op.arguments and isinstance(cache := op.arguments[0].owner, emitpy.GlobalStatementOp):
            # the const-eval wrapper's call refills the cache global it reads: `ce_cache_f = consteval_f(ce_cache_f, ...)`
            new.attributes[emitpy.NAME] = StringAttr(cache.global_name.root_reference.data)
        return [new], list(new.results)
    if isinstance(op, ttcore.GetTupleElementOp):
        index = emitpy.LiteralOp.create(properties={"value": StringAttr(str(op.index.value.data))},
                                        result_types=[IndexType()])
        element = emitpy.SubscriptOp.create(operands=[op.operand, index.result], result_types=[TENSOR])
        return [index, element], [element.result]
    if isinstance(op, ttcore.TupleOp):
        new = call(CREATE_LIST, list(op.operands), [TENSORS])
        return [new], list(new.results)
    if isinstance(op, ttcore.GetGlobalOp):
        new = emitpy.GlobalStatementOp.create(properties={"name": FlatSymbolRefAttr(op.sym_name)},
                                              result_types=[emitpy.DictType()])
        return [new], [new.result]
    if isinstance(op, ttcore.LoadCachedOp):  # in a const-eval wrapper: the const-eval function, run
        packed = [call(CREATE_LIST, list(op.operands), [TENSORS])] if op.operands else []
        # an exported module's const-eval function also takes the device its wrapper was given
        device = [a for a in op.parent_block().args if a.type == DEVICE][-1:] if module_form else []
        new = call(op.callee.root_reference.data, [*(p.results[0] for p in packed), *device], [TENSORS])
        new.attributes[CONST_EVALED] = UnitAttr()
        ops, members = _members(new.results[0], len(op.results))
        return [*packed, new, *ops], members
    if isinstance(op, ttcore.SetKeyValueOp):
        packed = [call(CREATE_LIST, list(op.values), [TENSORS])] if len(op.values) > 1 else []
        value = packed[0].results[0] if packed else op.values[0]
        store = emitpy.VerbatimOp.create(operands=[op.dict, value],
                                         properties={"value": StringAttr("{}[" + _key(op.key) + "] = {}")})
        return [*packed, store], []
    if isinstance(op, ttcore.GetKeyValueOp):
        key = emitpy.LiteralOp.create(properties={"value": StringAttr(_key(op.key))}, result_types=[IndexType()])
        single = len(op.results) == 1
        read = emitpy.SubscriptOp.create(operands=[op.dict, key.result], result_types=[TENSOR if single else TENSORS])
        if single:
            return [key, read], [read.result]
        ops, members = _members(read.result, len(op.results))
        return [key, read, *ops], members
    if isinstance(op, ttnn.TTNNOp) and op.ROW.name in UNBOUND_IN_PYTHON:
        raise PassFailure(op, f"failed to legalize operation '{op.name}': ttml has no Python binding of it")
    if isinstance(op, ttnn.TTNNOp):
        return _convert_ttnn(op, host)
    raise PassFailure(op, f"'{op.name}' has no EmitPy lowering")


UNBOUND_IN_PYTHON = {"adamw", "sdpa_fw", "sdpa_bw"}  # tt-train's fused ops: ttml binds them in C++ only


def _key(key: Attribute) -> str:
    return f'"{key.data}"' if isinstance(key, StringAttr) else str(key.value.data)


def _members(values: SSAValue, count: int) -> tuple[list[Operation], list[SSAValue]]:
    """`values[0]`, `values[1]`, ...: the tensors of a list (the ops, then the values)."""
    ops, members = [], []
    for i in range(count):
        index = emitpy.LiteralOp.create(properties={"value": StringAttr(str(i))}, result_types=[IndexType()])
        member = emitpy.SubscriptOp.create(operands=[values, index.result], result_types=[TENSOR])
        ops += [index, member]
        members.append(member.result)
    return ops, members


def _guard_const_eval(wrapper: FuncOp) -> None:
    """The wrapper's const-eval calls, what computes their inputs and what stores their results, under
    `if not ce_cache:`: they run while the cache is empty, once per process."""
    block = wrapper.body.block
    guarded = {op for op in block.ops if CONST_EVALED in op.attributes}
    for op in guarded:
        del op.attributes[CONST_EVALED]
    work = list(guarded)
    while work:  # everything using their results
        for result in work.pop().results:
            for use in result.uses:
                if use.operation not in guarded:
                    guarded.add(use.operation)
                    work.append(use.operation)
    work = list(guarded)
    while work:  # and what only they use
        for operand in work.pop().operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner not in guarded and owner.parent_block() is block and \
                    all(u.operation in guarded for r in owner.results for u in r.uses):
                guarded.add(owner)
                work.append(owner)
    chain = [op for op in block.ops if op in guarded]
    guard = emitpy.IfOp.create(operands=[block.args[0]], properties={"condition": StringAttr("not {}")},
                               regions=[Region(Block()), Region()])
    block.insert_op_before(guard, chain[0])
    for op in chain:
        op.detach()
        guard.then_region.block.add_op(op)


def _convert_ttnn(op: ttnn.TTNNOp, host: bool = False) -> tuple[list[Operation], list[SSAValue]]:
    """`ttnn.<op>(...)`; in a CPU-hoisted function `ttir_cpu.<the TTIR op>(...)` with the same arguments."""
    result_types = [convert_type(r.type, op) for r in op.results]
    if op.ROW.name == "get_device":
        mesh = op.properties.get("mesh_shape")
        shape = tuple(mesh.data) if mesh is not None else (1, 1)
        new = call("utils.DeviceGetter.get_device", [], result_types,
                   [emitpy.OpaqueAttr(StringAttr(python_value(shape, str)))])
        return [new], list(new.results)
    if op.ROW.family == "trace":
        return convert_trace_op(op)
    api = call_of(op)
    prelude: list[Operation] = []
    operands: list[SSAValue] = []
    args: list[Attribute] = []
    keywords: list[str] = []

    def operand_index(value: SSAValue) -> IntegerAttr:
        operands.append(value)
        return IntegerAttr(len(operands) - 1, IndexType())

    for keyword, value in api.args:
        keywords.append(keyword or "")
        if isinstance(value, Operand):
            args.append(operand_index(op.operands[value.index]))
        elif isinstance(value, list) and value and isinstance(value[0], Operand):
            packed = call(CREATE_LIST, [op.operands[v.index] for v in value], [TENSORS])
            prelude.append(packed)
            args.append(operand_index(packed.results[0]))
        else:
            args.append(emitpy.OpaqueAttr(StringAttr(python_value(value, str))))
    callee = "ttnn." + api.callee
    if host:
        if (name := ttir_name(op.ROW.name)) is None:
            raise PassFailure(op, f"'{op.name}' in a CPU-hoisted function has no TTIR op to run on the host as")
        callee = f"{HOST_MODULE}.{name}"
    new = call(callee, operands, result_types, args, keywords)
    return [*prelude, new], list(new.results)
