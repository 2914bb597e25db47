"""Kernel functions (emitc, arith and scf ops) as tt-metal C++ source: `ttmlir-translate --ttkernel-to-cpp`,
and the kernel text a `.ttm` carries. The Metal simulator compiles exactly this text (runtime/metal).

A kernel is `void kernel_main() {...}` after the includes its body names; a compute kernel sits in
`namespace NAMESPACE` with `void MAIN { kernel_main(); }`, as tt-metal builds compute kernels. Values are
named `v1, v2, ...`, loop counters `i1, ...`; an `emitc.literal` or `emitc.subscript` is written where it is used.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (Float32Type, Float64Type, FloatAttr, IndexType, IntegerAttr, IntegerType, ModuleOp,
                                   Signedness)
from xdsl.dialects.emitc import (EmitC_AddOp, EmitC_CallOpaqueOp, EmitC_OpaqueAttr, EmitC_OpaqueType, EmitC_PointerType,
                                 EmitC_SizeT)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ttmlir.dialects import emitc
from ttmlir.dialects.ttkernel import ThreadAttr
from ttmlir.target import TranslateError

_ARITH_BINARY = {arith.AddiOp: "+", arith.SubiOp: "-", arith.MuliOp: "*", arith.DivSIOp: "/", arith.DivUIOp: "/",
                 arith.RemSIOp: "%", arith.RemUIOp: "%", arith.AndIOp: "&", arith.OrIOp: "|", arith.XOrIOp: "^",
                 arith.ShLIOp: "<<", arith.ShRSIOp: ">>", arith.ShRUIOp: ">>", arith.AddfOp: "+", arith.SubfOp: "-",
                 arith.MulfOp: "*", arith.DivfOp: "/"}
_CMPI = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=", "ult": "<", "ule": "<=",
         "ugt": ">", "uge": ">="}
_CASTS = (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.SIToFPOp, arith.FPToSIOp)


def c_type(t: Attribute, op: Operation | None = None) -> str:
    if isinstance(t, IntegerType):
        if t.width.data == 1:
            return "bool"
        return f"{'u' if t.signedness.data == Signedness.UNSIGNED else ''}int{t.width.data}_t"
    if isinstance(t, (IndexType, EmitC_SizeT)):
        return "size_t"
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float64Type):
        return "double"
    if isinstance(t, EmitC_OpaqueType):
        return t.value.data
    if isinstance(t, EmitC_PointerType):
        return c_type(t.pointee_type, op) + "*"
    raise TranslateError(op, f"type {t} has no C++ spelling in a kernel")


def is_kernel(func: FuncOp) -> bool:
    return isinstance(func.attributes.get("ttkernel.thread"), ThreadAttr)


def translate_to_cpp(module: ModuleOp) -> str:
    """Every kernel function of `module` as C++, one after another (`--ttkernel-to-cpp`)."""
    kernels = [op for op in module.walk() if isinstance(op, FuncOp) and is_kernel(op)]
    if not kernels:
        raise TranslateError(None, "no kernel function (a func.func with a ttkernel.thread attribute) to translate")
    return "\n".join(kernel_source(k) for k in kernels)


def kernel_source(func: FuncOp) -> str:
    """One kernel function as the C++ of one kernel."""
    return _KernelWriter(func).source()


class _KernelWriter:
    def __init__(self, func: FuncOp):
        self.func = func
        self.names: dict[SSAValue, str] = {}
        self.count = self.loops = 0
        self.includes: list[str] = ["<cstdint>"]
        self.lines: list[str] = []
        self.yields: list[list[str]] = []  # the variables each enclosing loop's or if's yield assigns

    def source(self) -> str:
        if self.func.body.blocks and self.func.body.block.args:
            raise TranslateError(self.func, f"kernel @{self.func.sym_name.data} takes arguments; a kernel's inputs "
                                            "are its runtime and compile-time args")
        self.block(self.func.body.block, 1)
        compute = self.func.attributes["ttkernel.thread"].data.value == "compute"
        head = [f"#include {h}" for h in self.includes]
        body = ["void kernel_main() {", *self.lines, "}"]
        if compute:
            body = ["namespace NAMESPACE {", *body, "void MAIN { kernel_main(); }", "}  // namespace NAMESPACE"]
        return "\n".join([*head, "", *body]) + "\n"

    def name(self, value: SSAValue) -> str:
        owner = value.owner
        if isinstance(owner, emitc.LiteralOp):
            return owner.value.data
        if isinstance(owner, emitc.SubscriptOp):  # an lvalue, written where it is read or assigned
            return f"{self.name(owner.value)}[{']['.join(self.name(i) for i in owner.indices)}]"
        if value not in self.names:
            raise TranslateError(owner if isinstance(owner, Operation) else None, "value used before its definition")
        return self.names[value]

    def define(self, value: SSAValue, expr: str, indent: int, op: Operation) -> None:
        self.count += 1
        self.names[value] = f"v{self.count}"
        self.emit(indent, f"{c_type(value.type, op)} v{self.count} = {expr};")

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("  " * indent + text)

    def block(self, block: Block, indent: int) -> None:
        for op in block.ops:
            self.op(op, indent)

    def op(self, op: Operation, indent: int) -> None:
        if isinstance(op, emitc.IncludeOp):
            header = f"<{op.include.data}>" if op.is_standard_include is not None else f'"{op.include.data}"'
            if header not in self.includes:
                self.includes.append(header)
        elif isinstance(op, (emitc.LiteralOp, emitc.SubscriptOp)):
            pass  # written where it is used
        elif isinstance(op, emitc.LoadOp):
            self.define(op.result, self.name(op.operand), indent, op)
        elif isinstance(op, emitc.VariableOp):
            self.variable(op, indent)
        elif isinstance(op, emitc.AssignOp):
            self.emit(indent, f"{self.name(op.var)} = {self.name(op.value)};")
        elif isinstance(op, emitc.VerbatimOp):
            pieces = emitc.format_pieces(op.value.data)
            self.emit(indent, pieces[0] + "".join(self.name(v) + p for v, p in zip(op.fmt_args, pieces[1:])))
        elif isinstance(op, (arith.ConstantOp, emitc.ConstantOp)):
            self.define(op.results[0], self.constant(op), indent, op)
        elif isinstance(op, EmitC_CallOpaqueOp):
            self.call(op, indent)
        elif type(op) in _ARITH_BINARY or isinstance(op, (EmitC_AddOp, emitc.SubOp, emitc.MulOp, emitc.DivOp,
                                                          emitc.RemOp)):
            symbol = "+" if isinstance(op, EmitC_AddOp) else getattr(op, "OPERATOR", None) or _ARITH_BINARY[type(op)]
            a, b = op.operands
            self.define(op.results[0], f"{self.name(a)} {symbol} {self.name(b)}", indent, op)
        elif isinstance(op, arith.SelectOp):
            self.define(op.result, f"{self.name(op.cond)} ? {self.name(op.lhs)} : {self.name(op.rhs)}", indent, op)
        elif isinstance(op, emitc.ConditionalOp):
            self.define(op.result, f"{self.name(op.condition)} ? {self.name(op.true_value)} : "
                                   f"{self.name(op.false_value)}", indent, op)
        elif isinstance(op, arith.CmpiOp):
            predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            self.define(op.result, f"{self.name(op.lhs)} {_CMPI[predicate]} {self.name(op.rhs)}", indent, op)
        elif isinstance(op, emitc.CmpOp):
            symbol = emitc.CMP_PREDICATES[op.predicate.data]
            self.define(op.result, f"{self.name(op.lhs)} {symbol} {self.name(op.rhs)}", indent, op)
        elif isinstance(op, (*_CASTS, emitc.CastOp)):
            target = c_type(op.results[0].type, op)
            self.define(op.results[0], f"({target}) {self.name(op.operands[0])}", indent, op)
        elif isinstance(op, emitc.ExpressionOp):  # its ops as statements; the result is the value it yields
            body = list(op.region.block.ops)
            for inner in body[:-1]:
                self.op(inner, indent)
            self.names[op.result] = self.name(body[-1].operands[0])
        elif isinstance(op, scf.ForOp):
            self.for_loop(op, indent)
        elif isinstance(op, emitc.ForOp):
            self.counted_loop(op, indent)
        elif isinstance(op, scf.IfOp):
            self.if_op(op, indent)
        elif isinstance(op, emitc.YieldOp) and isinstance(op.parent_op(), emitc.ForOp):
            pass  # the end of a loop's body
        elif isinstance(op, scf.YieldOp):
            if op.operands:
                self.assign_yielded(op, indent)
        elif isinstance(op, ReturnOp):
            if op.operands:
                raise TranslateError(op, "a kernel returns nothing")
            self.emit(indent, "return;")
        else:
            raise TranslateError(op, f"'{op.name}' has no C++ form in a kernel (convert ttkernel ops with "
                                     "--convert-ttkernel-to-emitc first)")

    def variable(self, op: emitc.VariableOp, indent: int) -> None:
        """`T vN = init;`, or `T vN;` for an empty opaque initializer; the name is the lvalue."""
        self.count += 1
        self.names[op.result] = name = f"v{self.count}"
        declared = f"{c_type(op.result.type.value_type, op)} {name}"
        if isinstance(op.value, EmitC_OpaqueAttr):
            self.emit(indent, f"{declared};" if not op.value.value.data else f"{declared} = {op.value.value.data};")
        else:
            self.emit(indent, f"{declared} = {self.constant(op)};")

    def constant(self, op: arith.ConstantOp | emitc.ConstantOp | emitc.VariableOp) -> str:
        value = op.value
        if isinstance(value, IntegerAttr):
            if isinstance(value.type, IntegerType) and value.type.width.data == 1:
                return "true" if value.value.data else "false"
            return str(value.value.data)
        if isinstance(value, FloatAttr):
            number = value.value.data
            if not math.isfinite(number):  # <cmath>'s macros, as MLIR's C++ emitter spells them
                return "NAN" if math.isnan(number) else "-INFINITY" if number < 0 else "INFINITY"
            return f"{number!r}f" if isinstance(value.type, Float32Type) else repr(number)
        raise TranslateError(op, f"constant {value} has no C++ form")

    def call(self, op: EmitC_CallOpaqueOp, indent: int) -> None:
        template = ""
        if op.template_args is not None:
            if not all(isinstance(t, (EmitC_OpaqueAttr, IntegerAttr)) for t in op.template_args.data):
                raise TranslateError(op, "a template argument of emitc.call_opaque is written as "
                                         "#emitc.opaque<\"...\">, an integer or a boolean")
            template = "<" + ", ".join(_literal(t) for t in op.template_args.data) + ">"
        if op.args is None:
            args = [self.name(v) for v in op.call_args]
        else:  # an index names an operand, any other attribute is written as its value
            args = []
            for arg in op.args.data:
                if isinstance(arg, IntegerAttr) and isinstance(arg.type, IndexType):
                    args.append(self.name(op.call_args[arg.value.data]))
                elif isinstance(arg, (IntegerAttr, EmitC_OpaqueAttr)):
                    args.append(_literal(arg))
                else:
                    raise TranslateError(op, f"call argument {arg} has no C++ form")
        expr = f"{op.callee.data}{template}({', '.join(args)})"
        if len(op.res) > 1:
            raise TranslateError(op, "a C++ call returns one value")
        if op.res:
            self.define(op.res[0], expr, indent, op)
        else:
            self.emit(indent, expr + ";")

    def carried(self, op: Operation, inits, indent: int) -> list[str]:
        """A variable per result of a loop or if that yields values (as MLIR's scf-to-emitc makes them): declared
        before it (from the loop's initial values), assigned by each yield, read after it as the result."""
        names = []
        for i, result in enumerate(op.results):
            self.count += 1
            name = f"v{self.count}"
            init = f" = {self.name(inits[i])}" if inits else ""
            self.emit(indent, f"{c_type(result.type, op)} {name}{init};")
            self.names[result] = name
            names.append(name)
        return names

    def assign_yielded(self, op: scf.YieldOp, indent: int) -> None:
        if not self.yields:
            raise TranslateError(op, "a yield of values outside a loop or if that carries them")
        targets, values = self.yields[-1], [self.name(v) for v in op.operands]
        if len(targets) > 1:  # all read before any is written: a yield may swap the carried values
            temps = []
            for target, value, operand in zip(targets, values, op.operands):
                self.count += 1
                temps.append(f"v{self.count}")
                self.emit(indent, f"{c_type(operand.type, op)} v{self.count} = {value};")
            values = temps
        for target, value in zip(targets, values):
            if target != value:
                self.emit(indent, f"{target} = {value};")

    def for_loop(self, op: scf.ForOp, indent: int) -> None:
        targets = self.carried(op, list(op.iter_args), indent)
        self.loops += 1
        iv = op.body.block.args[0]
        counter = f"i{self.loops}"
        self.names[iv] = counter
        for arg, name in zip(op.body.block.args[1:], targets):
            self.names[arg] = name  # an iteration reads what the previous one yielded
        self.emit(indent, f"for ({c_type(iv.type, op)} {counter} = {self.name(op.lb)}; {counter} < {self.name(op.ub)}; "
                          f"{counter} += {self.name(op.step)}) {{")
        self.yields.append(targets)
        self.block(op.body.block, indent + 1)
        self.yields.pop()
        self.emit(indent, "}")

    def counted_loop(self, op: emitc.ForOp, indent: int) -> None:
        """An emitc.for: `for (size_t iN = lb; iN < ub; iN += step) { ... }`."""
        self.loops += 1
        iv = op.region.block.args[0]
        counter = self.names[iv] = f"i{self.loops}"
        self.emit(indent, f"for ({c_type(iv.type, op)} {counter} = {self.name(op.lower_bound)}; {counter} < "
                          f"{self.name(op.upper_bound)}; {counter} += {self.name(op.step)}) {{")
        self.block(op.region.block, indent + 1)
        self.emit(indent, "}")

    def if_op(self, op: scf.IfOp, indent: int) -> None:
        self.yields.append(self.carried(op, [], indent))
        self.emit(indent, f"if ({self.name(op.cond)}) {{")
        self.block(op.true_region.block, indent + 1)
        if op.false_region.blocks and (list(op.false_region.block.ops)[:-1] or op.results):
            self.emit(indent, "} else {")
            self.block(op.false_region.block, indent + 1)
        self.emit(indent, "}")
        self.yields.pop()


def _literal(attr: IntegerAttr | EmitC_OpaqueAttr) -> str:
    """An integer, boolean (i1) or opaque attribute as C++ writes the value."""
    if isinstance(attr, EmitC_OpaqueAttr):
        return attr.value.data
    if isinstance(attr.type, IntegerType) and attr.type.width.data == 1:
        return "true" if attr.value.data else "false"
    return str(attr.value.data)
