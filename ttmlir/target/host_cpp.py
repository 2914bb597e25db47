"""EmitC host code as C++ (`ttmlir-translate --mlir-to-cpp`): the functions `--convert-ttnn-to-emitc` makes.

Each function is written with its C++ signature; each value that has a result is a local `vN` declared where it
is made; `emitc.literal`s and subscripts are written where they are used.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, ModuleOp
from xdsl.dialects.emitc import EmitC_CallOpaqueOp, EmitC_OpaqueAttr
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Operation, SSAValue

from ttmlir.dialects import emitc
from ttmlir.target import TranslateError, ValueNames
from ttmlir.target.cpp import c_type


def translate_to_cpp(module: ModuleOp) -> str:
    lines: list[str] = []
    for op in module.ops:
        if isinstance(op, emitc.IncludeOp):
            header = op.include.data
            lines.append(f"#include <{header}>" if op.is_standard_include is not None else f'#include "{header}"')
        elif isinstance(op, emitc.VerbatimOp) and not op.fmt_args:
            lines.append(op.value.data)
    lines.append("")
    for op in module.ops:
        if isinstance(op, FuncOp):
            lines.extend(_FunctionWriter(op).lines())
            lines.append("")
        elif not isinstance(op, (emitc.IncludeOp, emitc.VerbatimOp)) and op.name != "ttcore.device":
            raise TranslateError(op, f"'{op.name}' has no C++ form at module level")
    return "\n".join(lines)


class _FunctionWriter(ValueNames):

    def lines(self) -> list[str]:
        func = self.func
        if func.is_declaration:
            raise TranslateError(func, f"@{func.sym_name.data} is only declared; C++ needs its body")
        outputs = func.function_type.outputs.data
        returns = c_type(outputs[0], func) if len(outputs) == 1 else "void" if not outputs else \
            "::std::tuple<" + ", ".join(c_type(t, func) for t in outputs) + ">"
        params = ", ".join(f"{c_type(a.type, func)} {self.name(a)}" for a in func.body.block.args)
        body = [f"{returns} {func.sym_name.data}({params}) {{"]
        for op in func.body.block.ops:
            statement = self.statement(op)
            if statement is not None:
                body.append("  " + statement)
        return body + ["}"]

    def statement(self, op: Operation) -> str | None:
        if isinstance(op, emitc.LiteralOp):
            self.inline[op.result] = op.value.data
            return None
        if isinstance(op, emitc.SubscriptOp):
            self.inline[op.result] = f"{self.name(op.value)}[{', '.join(self.name(i) for i in op.indices)}]"
            return None
        if isinstance(op, ReturnOp):
            values = [self.name(v) for v in op.arguments]
            if len(values) > 1:  # several results: one std::tuple, as MLIR's C++ emitter returns them
                return f"return ::std::make_tuple({', '.join(values)});"
            return f"return {values[0]};" if values else "return;"
        if isinstance(op, emitc.LoadOp):
            return self.declare(op.result, self.name(op.operand))
        if isinstance(op, arith.ConstantOp):
            value = op.value
            text = str(value.value.data) if isinstance(value, (IntegerAttr, FloatAttr)) else None
            if text is None:
                raise TranslateError(op, "only scalar constants have a C++ form")
            return self.declare(op.result, text)
        if isinstance(op, CallOp):
            return self.result_of(op, f"{op.callee.root_reference.data}({', '.join(map(self.name, op.arguments))})")
        if isinstance(op, EmitC_CallOpaqueOp):
            return self.result_of(op, self.call(op))
        if isinstance(op, emitc.VerbatimOp):
            pieces = emitc.format_pieces(op.value.data)
            return "".join(p + (self.name(a) if i < len(op.fmt_args) else "")
                           for i, (p, a) in enumerate(zip(pieces, [*op.fmt_args, None])))
        raise TranslateError(op, f"'{op.name}' has no C++ form in host code")

    def declare(self, value: SSAValue, expr: str) -> str:
        return f"{c_type(value.type)} {self.name(value)} = {expr};"

    def result_of(self, op: Operation, expr: str) -> str:
        if not op.results:
            return expr + ";"
        if len(op.results) > 1:
            raise TranslateError(op, "a C++ call returns one value")
        return self.declare(op.results[0], expr)

    def call(self, op: EmitC_CallOpaqueOp) -> str:
        if op.args is None:
            args = [self.name(v) for v in op.call_args]
        else:
            args = [self.argument(op, a) for a in op.args.data]
        template = ""
        if op.template_args is not None:
            template = "<" + ", ".join(self.argument(op, a, template=True) for a in op.template_args.data) + ">"
        return f"{op.callee.data}{template}({', '.join(args)})"

    def argument(self, op: EmitC_CallOpaqueOp, attr: Attribute, template: bool = False) -> str:
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType) and not template:
            return self.name(op.call_args[attr.value.data])
        if isinstance(attr, EmitC_OpaqueAttr):
            return attr.value.data
        if isinstance(attr, IntegerAttr):
            return str(attr.value.data)
        if isinstance(attr, FloatAttr):
            return repr(attr.value.data)
        try:
            return c_type(attr, op)
        except TranslateError:
            raise TranslateError(op, f"argument {attr} has no C++ form") from None
