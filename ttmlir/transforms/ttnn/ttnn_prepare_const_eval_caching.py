"""`--ttnn-prepare-const-eval-caching`: a forward function's `ttcore.load_cached` ops as one cache dictionary,
for generated code (which has no runtime to cache for it).

For each forward function `f` that loads cached results: a global `ce_cache_f` (`!ttcore.dict`), read at the top
of `f` and passed with `f`'s arguments to a wrapper `consteval_f(ce_cache, ...) -> dict` that holds the
load_cached ops (and what computes their inputs) and stores each one's results under its callee's name; `f` then
reads them back with `ttcore.get_key_value`. The EmitPy conversion runs the wrapper's body only while the
dictionary is empty, so the const-eval functions run once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, StringAttr
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.dialects import ttcore
from ttmlir.dialects.emitpy import NAME
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FUNCTION_TYPE
from ttmlir.transforms.ttnn.ttnn_file_split import CONST_EVAL_WRAPPER

CACHE_PREFIX = "ce_cache_"
WRAPPER_PREFIX = "consteval_"


def def_chain(ops: list[Operation], block: Block) -> list[Operation]:
    """The ops of `block` that `ops` depend on (themselves included), in block order."""
    found: set[Operation] = set()
    work = list(ops)
    while work:
        op = work.pop()
        if op.parent_block() is not block or op in found:
            continue
        found.add(op)
        work.extend(v.owner for v in op.operands if isinstance(v.owner, Operation))
    return [op for op in block.ops if op in found]


def _prepare(module_block: Block, func: FuncOp, loads: list[ttcore.LoadCachedOp]) -> None:
    name = func.sym_name.data
    dict_type = ttcore.DictType()
    module_block.insert_op_before(ttcore.GlobalOp(properties={"sym_name": StringAttr(CACHE_PREFIX + name),
                                                              "type": dict_type}), func)
    body = func.body.block
    cache = ttcore.GetGlobalOp(properties={"sym_name": StringAttr(CACHE_PREFIX + name)}, result_types=[dict_type])
    body.insert_op_before(cache, body.first_op)

    args = list(body.args)
    wrapper = FuncOp(WRAPPER_PREFIX + name, FunctionType.from_lists([dict_type, *(a.type for a in args)], [dict_type]))
    wrapper.attributes[FUNCTION_TYPE] = CONST_EVAL_WRAPPER
    # generated code names the cache `ce_cache`, the rest as the forward function names them
    names = [DictionaryAttr({NAME: StringAttr("ce_cache")}),
             *(func.arg_attrs.data if func.arg_attrs is not None else [DictionaryAttr({}) for _ in args])]
    wrapper.arg_attrs = ArrayAttr([DictionaryAttr({k: v for k, v in d.data.items() if k == NAME}) for d in names])
    inner = wrapper.body.block
    mapping: dict[SSAValue, SSAValue] = {cache.result: inner.args[0], **dict(zip(args, inner.args[1:]))}
    for op in def_chain(list(loads), body):
        clone = op.clone(value_mapper={v: mapping[v] for v in op.operands})
        inner.add_op(clone)
        mapping.update(zip(op.results, clone.results))
        if isinstance(op, ttcore.LoadCachedOp):
            inner.add_op(ttcore.SetKeyValueOp(operands=[inner.args[0], list(clone.results)],
                                              properties={"key": StringAttr(op.callee.root_reference.data)}))
    inner.add_op(ReturnOp(inner.args[0]))
    module_block.insert_op_after(wrapper, func)

    filled = CallOp(wrapper.sym_name.data, [cache.result, *args], [dict_type])
    body.insert_op_after(filled, cache)
    for load in loads:
        read = ttcore.GetKeyValueOp(operands=[filled.results[0]], properties={"key": load.callee.root_reference},
                                    result_types=[list(load.result_types)])
        body.insert_op_after(read, load)
        for old, new in zip(load.results, read.results):
            old.replace_all_uses_with(new)
    for op in reversed(def_chain(list(loads), body)):
        if not any(r.uses for r in op.results):
            op.detach()
            op.erase()


@dataclass(frozen=True)
class TTNNPrepareConstEvalCachingPass(ModulePass):
    """Each forward function's load_cached ops behind one global cache dictionary and a `consteval_<fn>` wrapper."""

    name: ClassVar[str] = "ttnn-prepare-const-eval-caching"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        from ttmlir.transforms.ttcore.register_device import device_module_of

        device = device_module_of(module)
        for func in [f for f in device.ops if isinstance(f, FuncOp) and f.body.blocks]:
            loads = [op for op in func.body.block.ops if isinstance(op, ttcore.LoadCachedOp)]
            if loads:
                _prepare(device.body.block, func, loads)
