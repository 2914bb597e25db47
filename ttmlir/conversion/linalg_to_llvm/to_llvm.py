"""The last stage of the linalg-to-LLVM pipeline, as MLIR's cf/arith/math/func/finalize-memref-to-llvm passes
(and math-to-libm) leave a bufferized, loop-lowered module: each `func.func` becomes an `llvm.func` whose memref
arguments are expanded into their descriptor's fields (base, aligned, offset, sizes..., strides...) and whose memref
results are returned as descriptor structs (several in a struct of structs); loads and stores index the aligned
pointer by the layout's strides; `memref.alloc`/`dealloc`/`copy` call `malloc`/`free`/`memcpy`; arith and math ops
map to LLVM instructions and intrinsics by the tables below, the math functions LLVM has no intrinsic for to
calls of libm's (`tanhf`, ...)."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (AnyFloat, DenseArrayBase, FloatAttr, IndexType, IntegerAttr, IntegerType,
                                   MemRefType, ModuleOp, StridedLayoutAttr, i64)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from ttmlir.dialects import llvm_ext
from ttmlir.dialects.llvm_ext import struct
from ttmlir.errors import PassFailure

PTR = llvm.LLVMPointerType()

BINARY = {"arith.addf": llvm.FAddOp, "arith.subf": llvm.FSubOp, "arith.mulf": llvm.FMulOp, "arith.divf": llvm.FDivOp,
          "arith.remf": llvm.FRemOp, "arith.addi": llvm.AddOp, "arith.subi": llvm.SubOp, "arith.muli": llvm.MulOp,
          "arith.divsi": llvm.SDivOp, "arith.divui": llvm.UDivOp, "arith.remsi": llvm.SRemOp,
          "arith.remui": llvm.URemOp, "arith.andi": llvm.AndOp, "arith.ori": llvm.OrOp, "arith.xori": llvm.XOrOp,
          "arith.shli": llvm.ShlOp, "arith.shrsi": llvm.AShrOp, "arith.shrui": llvm.LShrOp,
          "arith.maximumf": llvm_ext.MaximumOp, "arith.minimumf": llvm_ext.MinimumOp, "arith.maxnumf": llvm.VectorFMaxOp,
          "arith.minnumf": llvm.VectorFMinOp, "math.powf": llvm.FPowOp, "math.copysign": llvm.FCopySignOp}
UNARY_INTRINSICS = {"math.absf": llvm.FAbsOp, "math.ceil": llvm.FCeilOp, "math.sqrt": llvm.FSqrtOp,
                    "math.floor": llvm.FFloorOp, "math.exp2": llvm.FExp2Op, "math.log": llvm.FLogOp,
                    "math.exp": llvm.FExpOp, "math.sin": llvm.FSinOp, "math.cos": llvm.FCosOp,
                    "math.log2": llvm.FLog2Op}
LIBM = {"math.tanh": "tanh", "math.asinh": "asinh", "math.acosh": "acosh", "math.atanh": "atanh", "math.erf": "erf", "math.erfc": "erfc", "math.log1p": "log1p", "math.expm1": "expm1",
        "math.tan": "tan", "math.atan": "atan", "math.asin": "asin", "math.acos": "acos", "math.sinh": "sinh",
        "math.cosh": "cosh", "math.atan2": "atan2", "math.round": "round", "math.roundeven": "roundeven",
        "math.trunc": "trunc", "math.cbrt": "cbrt", "math.log10": "log10"}
CASTS = {"arith.sitofp": llvm.SIToFPOp, "arith.uitofp": llvm_ext.UIToFPOp, "arith.fptosi": llvm_ext.FPToSIOp,
         "arith.fptoui": llvm_ext.FPToUIOp, "arith.extf": llvm.FPExtOp, "arith.truncf": llvm.FPTruncOp,
         "arith.extsi": llvm.SExtOp, "arith.extui": llvm.ZExtOp, "arith.trunci": llvm.TruncOp,
         "arith.bitcast": llvm.BitcastOp}
# the ops lower_op writes by name (beside the tables')
NAMED = frozenset({"arith.negf", "math.rsqrt", "arith.index_cast", "arith.index_castui", "arith.constant",
                   "arith.cmpi", "arith.cmpf", "arith.select", "arith.floordivsi", "arith.ceildivsi", "math.absi",
                   "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "affine.apply", "memref.load",
                   "memref.store", "memref.alloc", "memref.subview", "memref.dealloc", "memref.copy", "cf.br",
                   "cf.cond_br", "func.return"})
# what the loops and the scalar conversion leave of a linalg op: its loops, its body's ops
LOOP_OPS = frozenset({"linalg.yield", "linalg.index"})


def lowerable(op: Operation) -> bool:
    """Whether a bufferized op (or any op of a linalg op's body) has an LLVM form here; floats other than f32 and
    f64 have no libm function."""
    if isinstance(op, (func.FuncOp, ModuleOp)) or op.name in LOOP_OPS:
        return True
    if op.name.startswith("linalg."):
        return all(lowerable(inner) for inner in op.body.walk())
    if op.name in LIBM:
        return getattr(op.results[0].type, "bitwidth", None) in (32, 64)
    return op.name in NAMED or op.name in BINARY or op.name in UNARY_INTRINSICS or op.name in CASTS


# cmpi's and cmpf's predicates by their number in arith, as LLVM's icmp/fcmp spell them
ICMP = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
FCMP = ["_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult", "ule", "une", "uno",
        "_true"]


def _intrinsic(cls, x: SSAValue) -> Operation:
    """A one-operand float intrinsic (xDSL's constructors differ in their arguments)."""
    return cls.create(operands=[x], result_types=[x.type], properties={"fastmathFlags": llvm.FastMathAttr(None)})


def llvm_type(t: Attribute) -> Attribute:
    if isinstance(t, IndexType):
        return i64
    if isinstance(t, MemRefType):
        return descriptor_type(len(t.get_shape()))
    return t


def descriptor_type(rank: int) -> Attribute:
    sizes = [llvm.LLVMArrayType(rank, i64)] * 2 if rank else []
    return struct([PTR, PTR, i64, *sizes])


def byte_size(t: Attribute) -> int:
    if isinstance(t, AnyFloat):
        return t.bitwidth // 8
    if isinstance(t, IntegerType):
        return max(1, (t.width.data + 7) // 8)
    if isinstance(t, IndexType):
        return 8
    raise ValueError(t)


def strides_of(t: MemRefType) -> tuple[tuple[int, ...], int]:
    """The layout's strides and offset (identity: row-major, 0)."""
    if isinstance(t.layout, StridedLayoutAttr):
        strides, offset = t.layout.get_strides(), t.layout.get_offset()
        if None in strides or offset is None:
            raise ValueError("dynamic strides")
        return tuple(strides), offset
    shape = t.get_shape()
    return tuple(prod(shape[i + 1:]) for i in range(len(shape))), 0


@dataclass
class Descriptor:
    """A memref as the values of its descriptor: strides and offset are its type's (static)."""

    base: SSAValue
    aligned: SSAValue
    type: MemRefType


class _Lowering:
    def __init__(self, module: ModuleOp, function: func.FuncOp):
        self.module, self.func = module, function
        self.values: dict[SSAValue, SSAValue | Descriptor] = {}
        self.blocks: dict[Block, Block] = {}
        self.block: Block | None = None
        self.at: Operation = function
        self.constants: dict[int, SSAValue] = {}
        self.linear: dict[tuple, SSAValue] = {}

    def add(self, op: Operation) -> SSAValue | None:
        op.location = self.at.location
        self.block.add_op(op)
        return op.results[0] if op.results else None

    def const(self, value: int) -> SSAValue:
        """An i64 constant, made once per function at the top of its entry block (it dominates every use)."""
        if value not in self.constants:
            op = llvm.ConstantOp(IntegerAttr(value, i64), i64)
            op.location = self.func.location
            entry = self.blocks[self.func.body.blocks.first]
            entry.insert_op_before(op, entry.first_op) if entry.first_op is not None else entry.add_op(op)
            self.constants[value] = op.result
        return self.constants[value]

    def value(self, v: SSAValue):
        return self.values[v]

    def declare(self, name: str, inputs: list[Attribute], output: Attribute | None) -> None:
        if name not in {op.sym_name.data for op in self.module.ops if isinstance(op, llvm.FuncOp)}:
            self.module.body.block.add_op(llvm.FuncOp(name, llvm.LLVMFunctionType(inputs, output),
                                                      linkage=llvm.LinkageAttr("external")))

    def call(self, name: str, args: list[SSAValue], output: Attribute | None) -> SSAValue | None:
        self.declare(name, [a.type for a in args], output)
        return self.add(llvm.CallOp(name, *args, return_type=output))

    def element_address(self, ref: Descriptor, indices: list[SSAValue]) -> SSAValue:
        """The element's address, its linear index computed once per block for the same indices and layout."""
        strides, offset = strides_of(ref.type)
        key = (self.block, tuple(indices), strides, offset)
        if key not in self.linear:
            self.linear[key] = self.linear_index(indices, strides, offset)
        return self.add(llvm.GEPOp.from_mixed_indices(ref.aligned, [self.linear[key]], ref.type.element_type))

    def linear_index(self, indices: list[SSAValue], strides: tuple[int, ...], offset: int) -> SSAValue:
        linear = self.const(offset) if offset else None
        for index, stride in zip(indices, strides):
            term = index if stride == 1 else self.add(llvm.MulOp(index, self.const(stride)))
            linear = term if linear is None else self.add(llvm.AddOp(linear, term))
        return linear if linear is not None else self.const(0)

    def rounded_division(self, a: SSAValue, b: SSAValue, floor: bool) -> SSAValue:
        """a / b rounded down (or up): the truncated quotient moved by one where the remainder is non-zero and its
        sign says truncation went the other way."""
        t = a.type
        zero, one = (self.add(llvm.ConstantOp(IntegerAttr(v, t), t)) for v in (0, 1))
        quotient, remainder = self.add(llvm.SDivOp(a, b)), self.add(llvm.SRemOp(a, b))
        inexact = self.add(llvm.ICmpOp(remainder, zero, IntegerAttr(1, i64)))  # ne
        signs_differ = self.add(llvm.XOrOp(self.add(llvm.ICmpOp(a, zero, IntegerAttr(2, i64))),
                                           self.add(llvm.ICmpOp(b, zero, IntegerAttr(2, i64)))))  # slt
        if floor:
            moved, step = self.add(llvm.AndOp(inexact, signs_differ)), self.add(llvm.SubOp(quotient, one))
        else:
            same = self.add(llvm.XOrOp(signs_differ, self.add(llvm.ConstantOp(IntegerAttr(1, 1), signs_differ.type))))
            moved, step = self.add(llvm.AndOp(inexact, same)), self.add(llvm.AddOp(quotient, one))
        return self.add(llvm.SelectOp(moved, step, quotient))

    def pack(self, ref: Descriptor) -> SSAValue:
        """The descriptor struct of a returned memref."""
        shape, (strides, offset) = ref.type.get_shape(), strides_of(ref.type)
        t = descriptor_type(len(shape))
        packed = self.add(llvm.UndefOp(t))
        fields = [((0,), ref.base), ((1,), ref.aligned), ((2,), self.const(offset))]
        fields += [((3, i), self.const(s)) for i, s in enumerate(shape)]
        fields += [((4, i), self.const(s)) for i, s in enumerate(strides)]
        for position, value in fields:
            packed = self.add(llvm.InsertValueOp(DenseArrayBase.from_list(i64, position), packed, value))
        return packed

    def lower_op(self, op: Operation) -> None:
        name = op.name
        operands = [self.values.get(v, v) for v in op.operands]
        result: SSAValue | None = None
        if name in BINARY:
            result = self.add(BINARY[name](*operands))
        elif name in UNARY_INTRINSICS:
            result = self.add(_intrinsic(UNARY_INTRINSICS[name], operands[0]))
        elif name == "arith.negf":
            result = self.add(llvm.FNegOp(operands[0]))
        elif name in LIBM:
            t = op.results[0].type
            suffix = "f" if t.bitwidth == 32 else "" if t.bitwidth == 64 else None
            if suffix is None:
                raise PassFailure(op, f"'{name}' on {t} has no libm function")
            result = self.call(LIBM[name] + suffix, operands, t)
        elif name == "math.rsqrt":
            one = self.add(llvm.ConstantOp(FloatAttr(1.0, op.results[0].type), op.results[0].type))
            result = self.add(llvm.FDivOp(one, self.add(_intrinsic(llvm.FSqrtOp, operands[0]))))
        elif name in CASTS:
            result = self.add(CASTS[name](operands[0], op.results[0].type))
        elif name == "arith.index_cast" or name == "arith.index_castui":
            source, target = llvm_type(op.operands[0].type), llvm_type(op.results[0].type)
            if source == target:
                result = operands[0]
            elif source.width.data > target.width.data:
                result = self.add(llvm.TruncOp(operands[0], target))
            else:
                result = self.add((llvm.SExtOp if name == "arith.index_cast" else llvm.ZExtOp)(operands[0], target))
        elif name == "arith.constant" and llvm_type(op.result.type) == i64:
            result = self.const(op.value.value.data)
        elif name == "arith.constant":
            t = llvm_type(op.result.type)
            value = op.value if not isinstance(op.value.type, IndexType) else IntegerAttr(op.value.value.data, i64)
            result = self.add(llvm.ConstantOp(value, t))
        elif name == "arith.cmpi":
            result = self.add(llvm.ICmpOp(operands[0], operands[1],
                                          IntegerAttr(op.predicate.value.data, i64)))
        elif name == "arith.cmpf":
            predicate = FCMP[op.predicate.value.data]
            if predicate.startswith("_"):
                result = self.add(llvm.ConstantOp(IntegerAttr(int(predicate == "_true"), 1), op.result.type))
            else:
                result = self.add(llvm.FCmpOp(operands[0], operands[1], predicate))
        elif name == "arith.select":
            result = self.add(llvm.SelectOp(*operands))
        elif name in ("arith.floordivsi", "arith.ceildivsi"):
            result = self.rounded_division(*operands, floor=name == "arith.floordivsi")
        elif name == "math.absi":
            negative = self.add(llvm.ICmpOp(operands[0], self.add(llvm.ConstantOp(IntegerAttr(0, op.results[0].type),
                                                                                  op.results[0].type)),
                                            IntegerAttr(2, i64)))
            negated = self.add(llvm.SubOp(self.add(llvm.ConstantOp(IntegerAttr(0, op.results[0].type),
                                                                   op.results[0].type)), operands[0]))
            result = self.add(llvm.SelectOp(negative, negated, operands[0]))
        elif name in ("arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui"):
            predicate = {"arith.maxsi": 4, "arith.minsi": 2, "arith.maxui": 8, "arith.minui": 6}[name]
            chosen = self.add(llvm.ICmpOp(operands[0], operands[1], IntegerAttr(predicate, i64)))
            result = self.add(llvm.SelectOp(chosen, operands[0], operands[1]))
        elif name == "affine.apply":
            from ttmlir.transforms.lower_affine import expand_map
            ops: list[Operation] = []
            (value,) = expand_map(op.map.data, list(op.operands), ops)
            for new in ops:
                self.lower_op(new)
            result = self.values.get(value, value)
        elif name == "memref.load":
            address = self.element_address(operands[0], operands[1:])
            result = self.add(llvm.LoadOp(address, op.results[0].type))
        elif name == "memref.store":
            self.add(llvm.StoreOp(operands[0], self.element_address(operands[1], operands[2:])))
        elif name == "memref.alloc":
            t = op.memref.type
            pointer = self.call("malloc", [self.const(prod(t.get_shape()) * byte_size(t.element_type))], PTR)
            result = Descriptor(pointer, pointer, t)
        elif name == "memref.subview":  # a view: the same pointers, the offset and strides its type gives
            result = Descriptor(operands[0].base, operands[0].aligned, op.result.type)
        elif name == "memref.dealloc":
            self.call("free", [operands[0].base], None)
        elif name == "memref.copy":
            source, target = operands
            size = prod(source.type.get_shape()) * byte_size(source.type.element_type)
            self.call("memcpy", [target.aligned, source.aligned, self.const(size)], PTR)
        elif name == "cf.br":
            self.add(llvm.BrOp(self.blocks[op.successor], *operands))
        elif name == "cf.cond_br":
            then_args = operands[1:1 + len(op.then_arguments)]
            else_args = operands[1 + len(op.then_arguments):]
            self.add(llvm.CondBrOp(operands[0], self.blocks[op.then_block], then_args, self.blocks[op.else_block],
                                   else_args))
        elif name == "func.return":
            packed = [self.pack(v) if isinstance(v, Descriptor) else v for v in operands]
            if len(packed) > 1:
                whole = self.add(llvm.UndefOp(struct([p.type for p in packed])))
                for index, value in enumerate(packed):
                    whole = self.add(llvm.InsertValueOp(DenseArrayBase.from_list(i64, (index,)), whole, value))
                packed = [whole]
            self.add(llvm.ReturnOp(*packed))
        else:
            raise PassFailure(op, f"failed to legalize operation '{name}' to the LLVM dialect")
        if op.results:
            self.values[op.results[0]] = result

    def run(self) -> llvm.FuncOp:
        function = self.func
        first, entry = function.body.blocks[0], Block()
        for arg in first.args:
            if isinstance(arg.type, MemRefType):
                rank = len(arg.type.get_shape())
                fields = [entry.insert_arg(t, len(entry.args)) for t in [PTR, PTR, i64, *[i64] * (2 * rank)]]
                self.values[arg] = Descriptor(fields[0], fields[1], arg.type)
            else:
                self.values[arg] = entry.insert_arg(llvm_type(arg.type), len(entry.args))
        inputs = [a.type for a in entry.args]
        self.blocks[first] = entry
        for block in function.body.blocks:
            if block is not first:
                self.blocks[block] = new = Block(arg_types=[llvm_type(a.type) for a in block.args])
                self.values.update(zip(block.args, new.args))
        for block in function.body.blocks:
            self.block = self.blocks[block]
            for op in block.ops:
                self.at = op
                self.lower_op(op)
        outputs = [llvm_type(t) for t in function.function_type.outputs.data]
        output = outputs[0] if len(outputs) == 1 else struct(outputs) if outputs else None
        region = Region([self.blocks[b] for b in function.body.blocks])
        lowered = llvm.FuncOp(function.sym_name.data, llvm.LLVMFunctionType(inputs, output),
                              linkage=llvm.LinkageAttr("external"), body=region)
        lowered.attributes.update({k: v for k, v in function.attributes.items()
                                   if k not in ("sym_name", "function_type", "sym_visibility")})
        lowered.location = function.location
        return lowered


def convert_to_llvm(module: ModuleOp) -> None:
    for function in [f for f in module.ops if isinstance(f, func.FuncOp)]:
        if not function.body.blocks:
            function.detach()
            function.erase()
            continue
        lowered = _Lowering(module, function).run()
        module.body.block.insert_op_before(lowered, function)
        function.detach()
        function.erase(safe_erase=False)
