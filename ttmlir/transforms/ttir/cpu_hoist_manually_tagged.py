"""`--cpu-hoist-manually-tagged`: move ops marked `ttir.should_hoist` to functions run on the host CPU.

Each marked op becomes a function in `ttcore.cpu_module`, declared privately in the device module and called with
`{ttir.cpu_hoisted_call}`. As upstream's CPU path, the host computes in 32 bits: float tensors of any width cross as
f32 and integer tensors as 32-bit integers of their signedness (type-cast around the call; a hoisted constant's
values converted with it). Identical hoisted ops share one function, named after the op and a hash of its text.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
import struct

from xdsl.dialects.builtin import (AnyFloat, DenseIntOrFPElementsAttr, Float32Type, IntegerType, ModuleOp,
                                   Signedness, StringAttr, TensorType, UnitAttr)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.errors import PassFailure
from ttmlir.transforms.ttcore.ttcore_mark_functions_as_forward import FUNCTION_TYPE
from ttmlir.transforms.ttcore.register_device import cpu_module_of, device_module_of

SHOULD_HOIST = "ttir.should_hoist"
HOISTED_CALL = "ttir.cpu_hoist_call"
FORWARD_CPU = StringAttr("forward_cpu")


def cpu_type(t):
    """The type the CPU computes a value in: float tensors as f32, integer tensors as 32-bit integers of their
    signedness; other types stay."""
    if not isinstance(t, TensorType):
        return t
    element = t.element_type
    if isinstance(element, AnyFloat):
        return TensorType(Float32Type(), t.get_shape())
    if isinstance(element, IntegerType):
        return TensorType(IntegerType(32, element.signedness.data), t.get_shape())
    return t


def cpu_value(value: DenseIntOrFPElementsAttr, to: TensorType) -> DenseIntOrFPElementsAttr:
    """A constant's elements in the CPU's type `to`: floats rounded to f32, integers wrapped to 32 bits."""
    values = list(value.get_values())
    if isinstance(to.element_type, Float32Type):
        values = [struct.unpack("f", struct.pack("f", float(v)))[0] for v in values]
    elif to.element_type.signedness.data == Signedness.UNSIGNED:
        values = [int(v) % (1 << 32) for v in values]
    else:
        values = [(int(v) + (1 << 31)) % (1 << 32) - (1 << 31) for v in values]
    return DenseIntOrFPElementsAttr.from_list(to, values)


def converted(value: SSAValue, to) -> list[Operation]:
    """`value` as type `to` for a host call or back from it: a `ttir.to_layout` into an empty, as upstream."""
    empty = TTIR_OP_CLASSES["empty"].create(result_types=[to])
    return [empty, TTIR_OP_CLASSES["to_layout"].create(operands=[value, empty.results[0]], result_types=[to])]


@dataclass(frozen=True)
class CPUHoistManuallyTaggedPass(ModulePass):
    """Hoist ops marked `ttir.should_hoist` into `ttcore.cpu_module` functions called from the device."""

    name: ClassVar[str] = "cpu-hoist-manually-tagged"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        device = device_module_of(module)
        hoist(module, [op for op in device.walk() if isinstance(op, TTOp) and SHOULD_HOIST in op.attributes])


def hoist(module: ModuleOp, ops: list[Operation], widen: bool = True) -> None:
    """Moves each of `ops` (of the device module) into a `ttcore.cpu_module` function called in its place.
    With `widen`, bf16/f16 tensors cross as f32 (TTIR ops, which the host computes in f32); without, types stay."""
    if not ops:
        return
    device = device_module_of(module)
    if device is module:
        raise PassFailure(ops[0], "hoisting to the CPU needs a ttcore.device_module "
                                  "(run --ttcore-wrap-device-module first)")
    cpu = cpu_module_of(module, create=True)
    names = {op.sym_name.data for op in cpu.ops if isinstance(op, FuncOp)}
    to_cpu = cpu_type if widen else (lambda t: t)
    for op in ops:
        _call(op, _hoisted_function(op, cpu, device, names, to_cpu), to_cpu)


def _hoisted_function(op: Operation, cpu: ModuleOp, device: ModuleOp, names: set[str], to_cpu) -> str:
    """The CPU function computing `op` (created once per distinct op), and its device-side declaration."""
    captured = captured_values(op)  # values from above that the op's regions read come in as arguments too
    inputs = [to_cpu(v.type) for v in [*op.operands, *captured]]
    outputs = [to_cpu(r.type) for r in op.results]
    body = Block(arg_types=inputs)
    for i, arg in enumerate(body.args):
        arg.name_hint = f"arg{i}"
    mapper = dict(zip(captured, body.args[len(op.operands):]))
    properties = dict(op.properties)
    value = properties.get("value")
    if isinstance(value, DenseIntOrFPElementsAttr) and outputs and value.type != outputs[0]:
        properties["value"] = cpu_value(value, outputs[0])
    clone = type(op).create(operands=list(body.args[:len(op.operands)]), result_types=outputs,
                            properties=properties,
                            attributes={k: v for k, v in op.attributes.items() if k != SHOULD_HOIST},
                            regions=[_cloned(r, mapper) for r in op.regions])
    body.add_ops([clone, ReturnOp(*clone.results)])
    digest = hashlib.sha256(str(clone).encode()).hexdigest()[:8]
    name = f"cpu_hoisted_{op.name.replace('.', '_')}_{digest}"
    declare_cpu_function(name, body, inputs, outputs, cpu, device, names)
    return name


def _cloned(region: Region, mapper: dict) -> Region:
    new = Region()
    region.clone_into(new, value_mapper=dict(mapper))
    return new


def captured_values(op: Operation) -> list[SSAValue]:
    """The values defined outside `op` that ops inside its regions use, in order of first use."""
    inside = {id(o) for o in op.walk()}
    found: dict[SSAValue, None] = {}
    for inner in op.walk():
        if inner is op:
            continue
        for value in inner.operands:
            owner = value.owner
            defined_in = owner.parent_op() if isinstance(owner, Block) else owner
            if id(defined_in) not in inside:
                found.setdefault(value)
    return list(found)


def declare_cpu_function(name: str, body: Block, inputs, outputs, cpu: ModuleOp, device: ModuleOp,
                         names: set[str]) -> None:
    """`body` as the CPU function `name` and its device-side declaration, once per name."""
    if name in names:
        return
    names.add(name)
    function = FuncOp(name, (inputs, outputs), Region(body))
    function.attributes[FUNCTION_TYPE] = FORWARD_CPU
    cpu.body.block.add_op(function)
    declaration = FuncOp.external(name, inputs, outputs)
    declaration.attributes[FUNCTION_TYPE] = StringAttr("forward_cpu_declaration")
    device.body.block.add_op(declaration)


def _call(op: Operation, name: str, to_cpu) -> None:
    block = op.parent
    operands = [*op.operands, *captured_values(op)]
    casts_in = [converted(v, to_cpu(v.type)) for v in operands if to_cpu(v.type) != v.type]
    block.insert_ops_before([o for ops in casts_in for o in ops], op)
    moved = iter(c[-1].results[0] for c in casts_in)
    args = [next(moved) if to_cpu(v.type) != v.type else v for v in operands]
    call = CallOp(name, args, [to_cpu(r.type) for r in op.results])
    call.attributes[HOISTED_CALL] = UnitAttr()
    call.location = op.location
    block.insert_op_before(call, op)
    for old, new in zip(op.results, call.results):
        result = new
        if new.type != old.type:
            back = converted(new, old.type)
            block.insert_ops_before(back, op)
            result = back[-1].results[0]
        old.replace_all_uses_with(result)
    op.detach()
    op.erase()
