"""`--const-eval-hoist-transform`: move the ops computed only from parameters, constants and creation ops into
private `<func>_const_eval_<N>` functions the caller reaches through `ttcore.load_cached`, whose results the
runtime (and the generated Python and C++) computes once and keeps.

Subgraphs are the connected components of const-evaluable ops (a union-find over values): an op joins when
every operand is a parameter/constant argument, a shared op's result (`ttnn.get_device`, cloned into every
function) or the result of another joined op. Ops marked non-cacheable (empty, rand, dropout, generic, ...)
and ops whose result is written in place never join. A component that already holds `load_cached` results
(a second run, after more ops became const-evaluable) is merged into the function it loaded from.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (ArrayAttr, DictionaryAttr, FunctionType, IntegerAttr, IntegerType, ModuleOp,
                                   NoneAttr, Signedness, StringAttr, SymbolRefAttr)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from ttmlir.dialects import ttcore
from ttmlir.ir.op_table import IN_PLACE_OPERAND
from ttmlir.ir.sizes import element_bytes
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import CONST_EVAL, FUNCTION_TYPE

# ops whose results must be produced on every run, never cached
NON_CACHEABLE = frozenset({"ttir.empty", "ttir.rand", "ttir.dropout", "ttnn.empty", "ttnn.rand", "ttnn.dropout",
                           "ttnn.generic", "ttnn.create_global_semaphore", "ttnn.allocate_moe_compute_semaphore",
                           "ttcore.composite"})
SHARED = frozenset({"ttnn.get_device"})  # every function that needs one makes its own
CONST_KINDS = frozenset({"parameter", "constant"})
INFIX = "_const_eval_"
CONV2D_WEIGHT = "ttir.conv2d_weight"  # an argument the layout pass keeps on the host; the function keeps the mark
CONST_EVAL_ALLOWED = "ttnn.const_eval_allowed"
L1_USAGE = "ttnn.l1_const_eval_usage"


def is_const_eval(func: FuncOp) -> bool:
    return func.attributes.get(FUNCTION_TYPE) == StringAttr(CONST_EVAL)


def arg_attrs(func: FuncOp, index: int) -> dict:
    return dict(func.arg_attrs.data[index].data) if func.arg_attrs is not None else {}


def const_args(func: FuncOp) -> set[BlockArgument]:
    """The arguments marked `ttcore.argument_type` parameter or constant."""
    out = set()
    for arg in func.body.block.args:
        kind = arg_attrs(func, arg.index).get(ttcore.ArgumentTypeAttr.name)
        if isinstance(kind, ttcore.ArgumentTypeAttr) and kind.data.value in CONST_KINDS:
            out.add(arg)
    return out


def _written_in_place(op: Operation) -> bool:
    for result in op.results:
        for use in result.uses:
            user = use.operation
            row = getattr(user, "ROW", None)
            written = IN_PLACE_OPERAND.get(row.family, ()) if row is not None else ()
            if any(result in user.operand_groups().get(name, ()) for name in written):
                return True
    return False


def _in_l1(op: Operation) -> bool:
    return any(getattr(getattr(r.type, "encoding", None), "buffer_type", None) == "l1" for r in op.results)


@dataclass
class Subgraph:
    inputs: set[BlockArgument] = field(default_factory=set)
    loads: list[ttcore.LoadCachedOp] = field(default_factory=list)
    ops: list[Operation] = field(default_factory=list)


def _analyze(func: FuncOp) -> tuple[list[Subgraph], list[Operation]]:
    """The function's const-eval subgraphs (in upstream's order) and its shared ops."""
    params = const_args(func)
    parent: dict[SSAValue, SSAValue] = {}

    def root(v: SSAValue) -> SSAValue:
        while parent[v] is not v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    shared = []
    for op in func.body.block.ops:
        if isinstance(op, ReturnOp):
            continue
        if op.name in SHARED:
            shared.append(op)
            continue
        if op.name in NON_CACHEABLE or _written_in_place(op):
            continue
        joined = lambda v: (v in params if isinstance(v, BlockArgument) else
                            v.owner.name in SHARED or v in parent)
        if not isinstance(op, ttcore.LoadCachedOp) and not all(joined(v) for v in op.operands):
            continue
        if _in_l1(op) and CONST_EVAL_ALLOWED not in op.attributes:
            raise PassFailure(op, "result of an op resides in L1, and the op is a const-eval candidate, but it is "
                                  f"not tagged with '{CONST_EVAL_ALLOWED}'; tag the op or change its memory space")
        for r in op.results:
            parent[r] = r
        group = [v for v in op.operands if not isinstance(v, BlockArgument) and v.owner.name not in SHARED]
        group += op.results
        for v in group[1:]:
            parent[root(v)] = root(group[0])

    ids: dict[SSAValue, int] = {}
    graphs: list[Subgraph] = []
    for op in func.body.block.ops:
        if not op.results or op.results[0] not in parent:
            continue
        key = root(op.results[0])
        if key not in ids:
            ids[key] = len(graphs)
            graphs.append(Subgraph())
        graph = graphs[ids[key]]
        (graph.loads if isinstance(op, ttcore.LoadCachedOp) else graph.ops).append(op)
        graph.inputs.update(v for v in op.operands if isinstance(v, BlockArgument))
    # upstream keeps subgraphs in an llvm::DenseMap keyed by their index and walks it in bucket order (hash
    # k * 37 over a power-of-two table of at least 64 buckets, grown past 3/4 full); its function names follow it
    buckets = 64
    while len(graphs) * 4 >= buckets * 3:
        buckets *= 2
    order = sorted(range(len(graphs)), key=lambda k: (k * 37) % buckets)
    return [graphs[k] for k in order], shared


def _boundary(graph: Subgraph) -> tuple[list[BlockArgument], list[SSAValue]]:
    inputs = sorted(graph.inputs, key=lambda a: a.index)
    members = set(graph.ops)
    outputs = [r for op in graph.ops + graph.loads for r in op.results
               if any(use.operation not in members for use in r.uses)]
    return inputs, outputs


def _clone(op: Operation, mapping: dict[SSAValue, SSAValue], block: Block, before: Operation | None = None) -> None:
    new = op.clone(value_mapper={v: mapping[v] for v in op.operands})
    block.insert_op_before(new, before) if before is not None else block.add_op(new)
    mapping.update(zip(op.results, new.results))


class _Hoister:
    def __init__(self, module: ModuleOp):
        self.table = {f.sym_name.data: f for f in module.walk() if isinstance(f, FuncOp)}

    def next_index(self, func: FuncOp) -> int:
        """One past the highest index of the function's existing const-eval functions (names must not clash)."""
        prefix = func.sym_name.data + INFIX
        taken = [int(name[len(prefix):]) for name, f in self.table.items()
                 if name.startswith(prefix) and name[len(prefix):].isdigit() and is_const_eval(f)
                 and name.rfind(INFIX) == len(func.sym_name.data)]
        return max(taken) + 1 if taken else 0

    def process(self, func: FuncOp) -> None:
        graphs, shared = _analyze(func)
        index = self.next_index(func)
        for graph in graphs:
            if graph.loads:
                self.merge(func, graph, shared)
            else:
                self.create(func, graph, shared, f"{func.sym_name.data}{INFIX}{index}")
                index += 1

    def create(self, func: FuncOp, graph: Subgraph, shared: list[Operation], name: str) -> None:
        inputs, outputs = _boundary(graph)
        new = FuncOp(name, FunctionType.from_lists([a.type for a in inputs], [v.type for v in outputs]),
                     visibility="private")
        new.attributes[FUNCTION_TYPE] = StringAttr(CONST_EVAL)
        self._carry_conv2d_weight(func, new, inputs)
        block = new.body.block
        mapping = dict(zip(inputs, block.args))
        for op in shared + graph.ops:
            _clone(op, mapping, block)
        block.add_op(ReturnOp(*[mapping[v] for v in outputs]))
        func.parent_block().insert_op_before(new, func)
        self.table[name] = new
        self._replace(func, new, graph, inputs, outputs)

    def merge(self, func: FuncOp, graph: Subgraph, shared: list[Operation]) -> None:
        """Grow the function the subgraph's first load_cached calls by the subgraph's ops (and by the bodies of the
        other const-eval functions it loads from, which go away)."""
        inputs, outputs = _boundary(graph)
        first = graph.loads[0]
        target = self.table[first.callee.root_reference.data]
        block = target.body.block
        old = list(first.inputs)
        mapping: dict[SSAValue, SSAValue] = {}
        for i, arg in enumerate(inputs):
            if old and old[0] is arg:
                old.pop(0)
            else:
                block.insert_arg(arg.type, i)
            mapping[arg] = block.args[i]
        ret = block.last_op
        mapping.update(zip(first.results, ret.operands))
        ret.detach()
        ret.erase()
        head = block.first_op
        for op in shared:
            _clone(op, mapping, block, head)
        for load in graph.loads[1:]:
            callee = self.table[load.callee.root_reference.data]
            local = dict(zip(callee.body.block.args, (mapping[v] for v in load.inputs)))
            body = list(callee.body.block.ops)
            for op in body[:-1]:
                _clone(op, local, block)
            mapping.update(zip(load.results, (local[v] for v in body[-1].operands)))
        for op in graph.ops:
            _clone(op, mapping, block)
        block.add_op(ReturnOp(*[mapping[v] for v in outputs]))
        _dedup_shared(target)
        target.function_type = FunctionType.from_lists([a.type for a in block.args], [v.type for v in outputs])
        target.arg_attrs = None  # the arguments moved: their marks are taken again from the caller's
        self._carry_conv2d_weight(func, target, inputs)
        self._replace(func, target, graph, inputs, outputs)
        for load in graph.loads:
            if load is not first:
                callee = self.table.pop(load.callee.root_reference.data)
                callee.detach()
                callee.erase()
            load.detach()
            load.erase()

    @staticmethod
    def _carry_conv2d_weight(func: FuncOp, new: FuncOp, inputs: list[BlockArgument]) -> None:
        marks = [{CONV2D_WEIGHT: arg_attrs(func, a.index)[CONV2D_WEIGHT]}
                 if CONV2D_WEIGHT in arg_attrs(func, a.index) else {} for a in inputs]
        if any(marks):
            new.arg_attrs = ArrayAttr([DictionaryAttr(m) for m in marks])

    @staticmethod
    def _replace(func: FuncOp, callee: FuncOp, graph: Subgraph, inputs: list[BlockArgument],
                 outputs: list[SSAValue]) -> None:
        block = func.body.block
        at = block.first_op
        while isinstance(at, ttcore.LoadCachedOp):
            at = at.next_op
        load = ttcore.LoadCachedOp(operands=[inputs], result_types=[[v.type for v in outputs]],
                                   properties={"callee": SymbolRefAttr(callee.sym_name.data)})
        block.insert_op_before(load, at)
        for value, result in zip(outputs, load.results):
            value.replace_all_uses_with(result)
        for op in reversed(graph.ops):
            op.detach()
            op.erase()


def _dedup_shared(func: FuncOp) -> None:
    """One of each shared op (by name and attributes) in a merged function."""
    seen: dict[tuple, Operation] = {}
    for op in list(func.body.block.ops):
        if op.name not in SHARED:
            continue
        key = (op.name, tuple(sorted(op.properties.items(), key=lambda kv: kv[0])),
               tuple(sorted(op.attributes.items(), key=lambda kv: kv[0])))
        if key in seen:
            for mine, theirs in zip(op.results, seen[key].results):
                mine.replace_all_uses_with(theirs)
            op.detach()
            op.erase()
        else:
            seen[key] = op


def hoistable_functions(module: ModuleOp) -> list[FuncOp]:
    """The functions with bodies outside the CPU module, other than const-eval and kernel functions."""
    return [f for f in module.walk() if isinstance(f, FuncOp) and f.body.blocks and not is_const_eval(f)
            and "ttkernel.thread" not in f.attributes and not isinstance(f.parent_op().parent_op(),
                                                                          ttcore.CPUModuleOp)]


@dataclass(frozen=True)
class ConstEvalHoistTransformPass(ModulePass):
    """Hoist const-eval subgraphs into separate functions invoked through `ttcore.load_cached`."""

    name: ClassVar[str] = "const-eval-hoist-transform"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        hoister = _Hoister(module)
        for func in hoistable_functions(module):
            hoister.process(func)
        _drop_resultless(module)
        device = next((op for op in module.walk() if isinstance(op, ttcore.DeviceOp)), None)
        if device is not None:
            # cached results stay resident: the L1 they hold per core (plus a cushion, aligned) is not the forward's
            cores = math.prod(device.device_attr.data.worker_grid.shape)
            usage = sum(_l1_per_core(v.type, cores) for f in module.walk() if isinstance(f, FuncOp)
                        and is_const_eval(f) for v in f.body.block.last_op.operands)
            module.attributes[L1_USAGE] = IntegerAttr(-(-(usage + 1024) // 1024) * 1024, IntegerType(64, Signedness.UNSIGNED))


def _drop_resultless(module: ModuleOp) -> None:
    """A const-eval function left returning nothing (its results' readers went away) caches nothing: it and its
    load_cached go."""
    for load in [op for op in module.walk() if isinstance(op, ttcore.LoadCachedOp) and not op.results]:
        name = load.callee
        callee = SymbolTable.lookup_symbol(load, name.root_reference.data)
        load.detach()
        load.erase()
        if isinstance(callee, FuncOp) and is_const_eval(callee) and not callee.function_type.outputs.data and not any(
                isinstance(op, ttcore.LoadCachedOp) and op.callee == name for op in module.walk()):
            callee.detach()
            callee.erase()


def _l1_per_core(t: Attribute, cores: int) -> int:
    layout = getattr(t, "encoding", None)
    if getattr(layout, "buffer_type", None) != "l1":
        return 0
    shard = math.prod(layout.memref.get_shape()) * element_bytes(layout.memref.element_type)
    sharded = not isinstance(layout.memory_layout, NoneAttr) and layout.memory_layout.data.value.endswith("sharded")
    return shard if sharded else shard // cores
