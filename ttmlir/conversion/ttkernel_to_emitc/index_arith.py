"""A kernel's `index` values as C++ `size_t` (`!emitc.size_t`), as upstream's convert-ttkernel-to-emitc converts the
index type: index constants become `emitc.constant`s of `!emitc.size_t` (their value still `N : index`), the
arith ops computing indices the emitc operators (`emitc.add`, `emitc.sub`, `emitc.mul`, `emitc.div`, `emitc.rem`,
`emitc.cmp`, `emitc.conditional`, `emitc.cast`), an `scf.for` over indices an `emitc.for` over `size_t` (the values
it carries variables; an `scf.if`'s index results too), and the calls, literals and casts giving an index give a
`size_t`. Integer arithmetic of other types stays arith (its C++ is the same)."""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, StringAttr
from xdsl.dialects.emitc import EmitC_AddOp, EmitC_LValueType, EmitC_OpaqueAttr, EmitC_SizeT
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import emitc
from ttmlir.errors import PassFailure

SIZE_T = EmitC_SizeT()
# arith's integer operators on indices and the emitc operator each one is (signed and unsigned alike: a size_t is
# unsigned)
OPERATORS = {arith.AddiOp: EmitC_AddOp, arith.SubiOp: emitc.SubOp, arith.MuliOp: emitc.MulOp,
             arith.DivUIOp: emitc.DivOp, arith.DivSIOp: emitc.DivOp, arith.RemUIOp: emitc.RemOp,
             arith.RemSIOp: emitc.RemOp}
# arith.cmpi's predicates as emitc.cmp's
PREDICATES = {"eq": "eq", "ne": "ne", "slt": "lt", "sle": "le", "sgt": "gt", "sge": "ge", "ult": "lt", "ule": "le",
              "ugt": "gt", "uge": "ge"}


def _c(t: Attribute) -> Attribute:
    return SIZE_T if isinstance(t, IndexType) else t


def _indexed(op: Operation) -> bool:
    return any(isinstance(v.type, IndexType) for v in (*op.operands, *op.results))


def _lowered(op: Operation) -> Operation | None:
    """The emitc op that arith op `op` on indices becomes, its indices size_t (None: it has no emitc form)."""
    results = [_c(r.type) for r in op.results]
    if type(op) in OPERATORS:
        return OPERATORS[type(op)].create(operands=list(op.operands), result_types=results)
    if isinstance(op, arith.CmpiOp):
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        return emitc.CmpOp.create(operands=list(op.operands), result_types=results,
                                  properties={"predicate": StringAttr(PREDICATES[predicate])})
    if isinstance(op, arith.SelectOp):
        return emitc.ConditionalOp.create(operands=list(op.operands), result_types=results)
    if isinstance(op, arith.IndexCastOp):
        return emitc.CastOp.create(operands=list(op.operands), result_types=results)
    return None


def _loop(op: scf.ForOp, rewriter: Rewriter) -> None:
    """An index loop as an emitc.for over size_t (its body moved, the induction variable retyped); each value it
    carries a variable, as MLIR's scf-to-emitc makes them: assigned its initial value before the loop, loaded where
    the body reads it, assigned what the body yields, loaded as the loop's result after it."""
    variables = _variables(op, rewriter)
    rewriter.insert_op([emitc.AssignOp.create(operands=[v.result, init]) for v, init in zip(variables, op.iter_args)],
                       InsertPoint.before(op))
    old = op.body.block
    body = Block(arg_types=[SIZE_T])
    old.args[0].replace_all_uses_with(body.args[0])
    for variable, carried in zip(variables, old.args[1:]):
        load = emitc.LoadOp.create(operands=[variable.result], result_types=[variable.result.type.value_type])
        body.add_op(load)
        carried.replace_all_uses_with(load.result)
    for inner in list(old.ops):
        inner.detach()
        if isinstance(inner, scf.YieldOp):
            body.add_ops(emitc.AssignOp.create(operands=[v.result, y]) for v, y in zip(variables, inner.operands))
            inner.erase()
            continue
        body.add_op(inner)
    body.add_op(emitc.YieldOp.create())
    loop = emitc.ForOp.create(operands=[op.lb, op.ub, op.step], regions=[Region(body)])
    loop.attributes.update(op.attributes)
    results = [emitc.LoadOp.create(operands=[v.result], result_types=[v.result.type.value_type]) for v in variables]
    rewriter.replace_op(op, [loop, *results], [r.result for r in results])


def _variables(op: Operation, rewriter: Rewriter) -> list[emitc.VariableOp]:
    """A variable (no initial value) per result of `op`, inserted before it."""
    variables = [emitc.VariableOp.create(properties={"value": EmitC_OpaqueAttr(StringAttr(""))},
                                         result_types=[EmitC_LValueType(_c(r.type))]) for r in op.results]
    rewriter.insert_op(variables, InsertPoint.before(op))
    return variables


def _if(op: scf.IfOp, rewriter: Rewriter) -> None:
    """An `scf.if` giving indices as one giving nothing: each result a variable each branch's yield assigns, loaded
    after it (as MLIR's scf-to-emitc carries an if's results)."""
    variables = _variables(op, rewriter)
    for region in op.regions:
        for block in region.blocks:
            yielded = block.last_op
            rewriter.insert_op([emitc.AssignOp.create(operands=[v.result, y]) for v, y in
                                zip(variables, yielded.operands)], InsertPoint.before(yielded))
            rewriter.replace_op(yielded, scf.YieldOp())
    regions = [op.detach_region(r) for r in list(op.regions)]
    plain = scf.IfOp(op.cond, [], *regions)
    results = [emitc.LoadOp.create(operands=[v.result], result_types=[v.result.type.value_type]) for v in variables]
    rewriter.replace_op(op, [plain, *results], [r.result for r in results])


def lower_index_values(func: FuncOp) -> None:
    """Every index value of kernel `func` a size_t (see the module doc); an op left giving an index is refused."""
    rewriter = Rewriter()
    # one walk before the loops retype: lowering a loop or an if moves the ops inside, in their order
    indexed, loops, ifs = [], [], []
    for o in func.walk():
        if isinstance(o, scf.ForOp):
            if isinstance(o.lb.type, IndexType):
                loops.append(o)
            continue
        if isinstance(o, scf.IfOp) and any(isinstance(r.type, IndexType) for r in o.results):
            ifs.append(o)
        if _indexed(o):
            indexed.append(o)
    for op in loops:
        _loop(op, rewriter)
    for op in ifs:
        _if(op, rewriter)
    for op in indexed:
        if op.name.startswith("emitc."):  # constants, calls, literals, operators: retyped
            for result in op.results:
                if isinstance(result.type, IndexType):
                    Rewriter.replace_value_with_new_type(result, SIZE_T)
        elif (new := _lowered(op)) is not None:
            new.location = op.location
            rewriter.replace_op(op, new)
    if func.body.blocks:  # the signature in size_t too (a kernel has no arguments; a function of kernel ops may)
        for arg in func.args:
            if isinstance(arg.type, IndexType):
                Rewriter.replace_value_with_new_type(arg, SIZE_T)
        func.update_function_type()
    for op in func.walk():
        if any(isinstance(r.type, IndexType) for r in op.results):
            raise PassFailure(op, f"failed to legalize operation '{op.name}' (its index result has no size_t form)")
