"""`--cpu-hoist-const-eval`: the body of each const-eval function runs on the host CPU, in f32.

A const-eval function's ops become one `ttcore.cpu_module` function (`cpu_hoisted_const_eval_<hash>`), computing in
f32 as `--cpu-hoist-manually-tagged`'s do; the const-eval function keeps a call of it between casts to and from f32.
Left on the device: creation ops the function returns (through reshapes and typecasts; hoisting them would gain
nothing) and `ttir.constant`s (their data is typed), which the CPU function takes as arguments; and the whole
function when one of its ops needs the device handle in TTNN (a convolution, `rand`). Collectives and mesh
sharding stay too, splitting the rest into one CPU function per stretch between them; a stretch the CPU pipeline
cannot lower to LLVM (`--convert-ttir-to-linalg` through `--linalg-to-llvm-pipeline`, as upstream compiles the CPU
module) stays on the device. Results are the same values in f32 arithmetic rather than the device's; weights
prepared once are more precise for it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.conversion.ttir_to_linalg.convert_ttir_to_linalg import PATTERNS as LINALG_PATTERNS
from ttmlir.dialects.ttnn import TTNN
from ttmlir.ir.tt_op import TTOp
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttir.const_eval_hoist_transform import is_const_eval
from ttmlir.transforms.ttir.cpu_hoist_manually_tagged import HOISTED_CALL, converted, cpu_type, declare_cpu_function
from ttmlir.transforms.ttcore.register_device import cpu_module_of, device_module_of

CREATION = frozenset({"full", "fill", "arange", "constant"})  # op-table families that make a tensor from nothing
# ops whose TTNN form takes the device handle (convolutions, rand, ...): a host function has none to give them
DEVICE_BOUND = frozenset(op.name.removeprefix("ttnn.") for op in TTNN.operations
                         if hasattr(op, "ROW") and "device" in op.ROW.operands)
TRANSPARENT = frozenset({"reshape", "typecast"})
# ops that run across the device mesh: they stay on the device and split the host work into one call before and
# one after them
BARRIERS = frozenset({"ccl", "mesh_shard"})


def _family(op: Operation) -> str | None:
    return op.ROW.family if isinstance(op, TTOp) and op.dialect_name() == "ttir" else None


def _kept_on_device(func: FuncOp) -> set[Operation]:
    """Creation chains that end in the return, and every constant."""
    kept = {op for op in func.body.block.ops if _family(op) == "constant"}
    for value in func.body.block.last_op.operands:
        chain, op = [], value.owner
        while isinstance(op, Operation) and op.name.removeprefix("ttir.") in TRANSPARENT:
            chain.append(op)
            op = op.operands[0].owner
        if isinstance(op, Operation) and _family(op) in CREATION:
            kept.update([*chain, op])
    return kept


def _hoist(func: FuncOp, cpu: ModuleOp, device: ModuleOp, names: set[str]) -> None:
    block = func.body.block
    kept = _kept_on_device(func)
    hoisted = [op for op in block.ops if not isinstance(op, ReturnOp) and op not in kept]
    if not hoisted or any(HOISTED_CALL in op.attributes for op in hoisted):
        return  # nothing to move, or its host work is a CPU-hoisted call already
    if any(isinstance(op, TTOp) and op.ROW.name in DEVICE_BOUND and _family(op) not in BARRIERS for op in hoisted):
        return  # the device computes it: the host has no device handle for such an op
    if not all(isinstance(op, TTOp) and op.dialect_name() == "ttir" for op in hoisted):
        stranger = next(op for op in hoisted if not (isinstance(op, TTOp) and op.dialect_name() == "ttir"))
        raise PassFailure(stranger, f"'{stranger.name}' in a const-eval function cannot run on the CPU "
                                    "(enable-cpu-hoisted-const-eval hoists TTIR ops)")
    segments: list[tuple[list[Operation], Operation]] = []  # (ops, the barrier or return ending them)
    segment: list[Operation] = []
    for op in [*hoisted, block.last_op]:
        if op is block.last_op or _family(op) in BARRIERS:
            if segment and _compiles_for_host(segment):
                segments.append((segment, op))
            segment = []
        else:
            segment.append(op)
    if not segments:
        return
    anchor = next(op for op in block.ops if op not in kept)  # the kept ops go ahead of all others, in order:
    for op in [op for op in block.ops if op in kept]:       # the calls may read the constants
        if op.is_before_in_block(anchor):
            continue
        op.detach()
        block.insert_op_before(op, anchor)
    for segment, at in segments:
        _hoist_segment(segment, at, cpu, device, names)


def _interface(segment: list[Operation]) -> tuple[list[SSAValue], list[SSAValue]]:
    """The values `segment` reads from outside (each once) and those it gives to ops outside it."""
    members = set(segment)
    inputs = list(dict.fromkeys(v for op in segment for v in op.operands
                                if not (isinstance(v.owner, Operation) and v.owner in members)))
    outputs = [r for op in segment for r in op.results if any(u.operation not in members for u in r.uses)]
    return inputs, outputs


def _body(segment: list[Operation], inputs: list[SSAValue], outputs: list[SSAValue]) -> Block:
    """The CPU function's block: the segment's ops cloned on f32 tensors, returning `outputs`."""
    body = Block(arg_types=[cpu_type(v.type) for v in inputs])
    mapping = dict(zip(inputs, body.args))
    for op in segment:
        clone = type(op).create(operands=[mapping[v] for v in op.operands],
                                result_types=[cpu_type(r.type) for r in op.results],
                                properties=dict(op.properties), attributes=dict(op.attributes))
        body.add_op(clone)
        mapping.update(zip(op.results, clone.results))
    body.add_op(ReturnOp(*[mapping[v] for v in outputs]))
    return body


def _compiles_for_host(segment: list[Operation]) -> bool:
    """Whether the CPU pipeline lowers the segment's function to LLVM (as upstream compiles the CPU module)."""
    from xdsl.dialects.builtin import FunctionType
    from xdsl.ir import Region
    from ttmlir.conversion.linalg_to_llvm.cpu_module import lowers_to_llvm
    from ttmlir.conversion.ttnn_to_ttir.convert_ttnn_to_ttir import survives
    # the CPU module reaches the LLVM lowering as TTNN ops taken back to TTIR: each op must come back whole
    if not all(o.ROW.name in LINALG_PATTERNS and survives(o.ROW.name) for o in segment):
        return False
    body = _body(segment, *_interface(segment))
    function = FuncOp("candidate", FunctionType.from_lists([a.type for a in body.args],
                                                             [v.type for v in body.last_op.operands]), Region(body))
    return lowers_to_llvm(function)


def _hoist_segment(segment: list[Operation], at: Operation, cpu: ModuleOp, device: ModuleOp, names: set[str]) -> None:
    """`segment`'s ops (consecutive but for ops kept on the device) become one CPU function, called just before `at`
    (the barrier that ends them, or the return)."""
    block = segment[0].parent_block()
    inputs, outputs = _interface(segment)

    body = _body(segment, inputs, outputs)
    in_types, out_types = [a.type for a in body.args], [cpu_type(v.type) for v in outputs]
    name = "cpu_hoisted_const_eval_" + hashlib.sha256(str(body).encode() + str(in_types).encode()).hexdigest()[:8]
    declare_cpu_function(name, body, in_types, out_types, cpu, device, names)

    casts = {v: converted(v, cpu_type(v.type)) for v in inputs if cpu_type(v.type) != v.type}
    block.insert_ops_before([o for ops in casts.values() for o in ops], at)
    call = CallOp(name, [casts[v][-1].results[0] if v in casts else v for v in inputs], out_types)
    call.attributes[HOISTED_CALL] = UnitAttr()
    block.insert_op_before(call, at)
    for old, new in zip(outputs, call.results):
        if new.type != old.type:
            back = converted(new, old.type)
            block.insert_ops_before(back, at)
            new = back[-1].results[0]
        old.replace_all_uses_with(new)
    for op in reversed(segment):
        op.detach()
        op.erase()


@dataclass(frozen=True)
class CPUHoistConstEvalTransformPass(ModulePass):
    """Run each const-eval function's ops on the host CPU, in f32."""

    name: ClassVar[str] = "cpu-hoist-const-eval"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        device = device_module_of(module)
        functions = [f for f in device.ops if isinstance(f, FuncOp) and f.body.blocks and is_const_eval(f)]
        if not functions:
            return
        if device is module:
            raise PassFailure(functions[0], "hoisting to the CPU needs a ttcore.device_module "
                                            "(run --ttcore-wrap-device-module first)")
        existed = cpu_module_of(module) is not None
        cpu = cpu_module_of(module, create=True)
        names = {op.sym_name.data for op in cpu.ops if isinstance(op, FuncOp)}
        for func in functions:
            _hoist(func, cpu, device, names)
        if not existed and not cpu.ops:  # every function kept its ops on the device
            cpu.parent_op().detach()
