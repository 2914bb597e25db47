"""EmitPy as Python source (`ttmlir-translate --mlir-to-python`).

Imports and globals first, then each function as a `def`; a value with a result becomes a local `vN`
(`emitpy.literal`s are written where they are used); a file op starts a `# File: "id"` section. A module with a
`main` function ends with the `if __name__ == "__main__":` guard, so the file runs as a script.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IndexType, IntegerAttr, ModuleOp, StringAttr
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, SSAValue

from ttmlir.dialects import emitpy

CPU_HOISTED = "emitpy.cpu_hoisted_mesh"  # (set by --convert-ttnn-to-emitpy)
from ttmlir.target import TranslateError, ValueNames


def translate_to_python(module: ModuleOp) -> str:
    lines: list[str] = []
    _block(module.body.block, lines)
    if any(isinstance(op, FuncOp) and op.sym_name.data == "main" for op in module.walk()):
        lines += ["", 'if __name__ == "__main__":', "    main()"]
    return "\n".join(lines) + "\n"


def _block(block: Block, lines: list[str]) -> None:
    for op in block.ops:
        if isinstance(op, emitpy.ImportOp):
            lines.append(op.python())
        elif isinstance(op, emitpy.GlobalOp):
            lines.append(f"{op.sym_name.data} = {attribute_value(op.initial_value, op)}")
        elif isinstance(op, ModuleOp):
            _block(op.body.block, lines)
        elif isinstance(op, emitpy.FileOp):
            lines.append(f'# File: "{op.id.data}"')
            _block(op.body.block, lines)
        elif isinstance(op, FuncOp):
            if op.is_declaration:
                continue
            lines.append("")
            lines.extend(_FunctionWriter(op).lines())
        elif isinstance(op, emitpy.VerbatimOp) and not op.fmt_args:
            lines.append(op.value.data)
        elif isinstance(op, emitpy.ClassOp):
            lines.append("")
            lines.extend(_class(op))
        elif op.name != "ttcore.device":
            raise TranslateError(op, f"'{op.name}' has no Python form at module level")


def _class(op: emitpy.ClassOp) -> list[str]:
    """`class Name(bases):`, its methods indented (decorated by their kind); `pass` when it has none."""
    bases = [b.value.data if isinstance(b, emitpy.OpaqueAttr) else b.root_reference.data
             for b in (op.base_classes.data if op.base_classes is not None else ())]
    body: list[str] = []
    for method in op.body.block.ops:
        if not isinstance(method, FuncOp):
            raise TranslateError(method, f"'{method.name}' has no Python form in a class body")
        kind = emitpy.method_kind(method)
        body += ([""] if body else []) + ([f"@{kind}"] if kind != "instance" else [])
        body += _FunctionWriter(method, receiver=None if kind == "staticmethod" else
                                "cls" if kind == "classmethod" else "self").lines()
    header = f"class {op.sym_name.data}({', '.join(bases)}):" if bases else f"class {op.sym_name.data}:"
    return [header, *("    " + line if line else line for line in body or ["pass"])]


def python_name(name: str) -> str:
    """`name` as a Python identifier (other characters as `_`, a leading digit prefixed), or "" when it is a
    keyword."""
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    if name[:1].isdigit():
        name = "var_" + name
    return "" if emitpy.name_problem(name) is not None else name


def attribute_value(attr: Attribute, op: Operation) -> str:
    if isinstance(attr, emitpy.OpaqueAttr):
        return attr.value.data
    if isinstance(attr, IntegerAttr):
        value = attr.value.data
        return ("True" if value else "False") if attr.type.width.data == 1 else str(value) \
            if hasattr(attr.type, "width") else str(value)
    if isinstance(attr, FloatAttr):
        return repr(attr.value.data)
    if isinstance(attr, StringAttr):
        return '"' + attr.data.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TranslateError(op, f"attribute {attr} has no Python form")


class _FunctionWriter(ValueNames):
    """Names as upstream's emitter gives them: arguments `inputs` (or their `emitpy.name`), results `var_N` (or
    theirs), several results of one op `v_N`; a name already taken in the function gets `_N` appended, N counting
    up through the function."""

    def __init__(self, func, receiver: str | None = None):
        super().__init__(func)
        self.receiver = receiver  # a method's first argument: `self` or `cls`
        # the file's functions and imported names stay callable: no local takes their name
        self.used: set[str] = {op.sym_name.data for op in func.parent_block().ops if isinstance(op, FuncOp)} | {
            name.data for op in func.parent_block().ops if isinstance(op, emitpy.ImportOp)
            for name in (*(op.members_to_import or ()), *(op.member_aliases or ()), op.module_alias or op.module_name)}
        self.count = 0

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count - 1}"

    def give(self, value: SSAValue, name: str) -> str:
        """`value`'s name: `name`, made unique in the function."""
        if value not in self.names:
            while name in self.used:
                name = f"{name}_{self.fresh('')}"
            self.names[value] = name
            self.used.add(name)
        return self.names[value]

    def name(self, value: SSAValue) -> str:
        if value in self.inline:
            return self.inline[value]
        return self.names.get(value) or self.give(value, self.fresh("var_"))

    def lines(self) -> list[str]:
        func = self.func
        attrs = func.arg_attrs.data if func.arg_attrs is not None else [None] * len(func.body.block.args)
        for i, (arg, arg_attrs) in enumerate(zip(func.body.block.args, attrs)):
            given = arg_attrs.data.get(emitpy.NAME) if arg_attrs is not None else None
            default = self.receiver if i == 0 and self.receiver else "inputs"
            self.give(arg, given.data if isinstance(given, StringAttr) else default)
        params = ", ".join(self.name(a) for a in func.body.block.args)
        name = func.sym_name.data
        mesh = func.attributes.get(CPU_HOISTED)
        if mesh is None:
            return [f"def {name}({params}):", *self.block(func.body.block, "    ")]
        # a CPU-hoisted function: its body nested as `<name>_impl`, run over the host tensors by the helper
        shape = tuple(mesh.get_values())
        on_mesh = f", mesh_shape={shape}" if shape != (1, 1) else ""
        return [f"def {name}({params}):", f"    def {name}_impl({params}):", *self.block(func.body.block, " " * 8),
                f"    return utils.execute_cpu_hoisted_function([{params}], {name}_impl{on_mesh})"]

    def block(self, block: Block, indent: str) -> list[str]:
        out = []
        for op in block.ops:
            if isinstance(op, emitpy.IfOp):
                out += self.if_statement(op, indent)
            elif isinstance(op, emitpy.ExpressionOp):
                out += self.expression(op, indent)
            elif (statement := self.statement(op)) is not None:
                out.append(indent + statement)
        return out or [indent + "pass"]

    def if_statement(self, op: emitpy.IfOp, indent: str, keyword: str = "if") -> list[str]:
        from ttmlir.dialects.emitc import format_pieces

        pieces = format_pieces(op.condition.data.replace("}}", "}"))
        condition = "".join(p + (self.name(a) if a is not None else "") for p, a in zip(pieces, [*op.cond_args, None]))
        out = [f"{indent}{keyword} {condition}:", *self.block(op.then_region.block, indent + "    ")]
        if op.else_region.blocks:
            inner = list(op.else_region.block.ops)
            if len(inner) == 1 and isinstance(inner[0], emitpy.IfOp) and not inner[0].else_region.blocks:
                return out + self.if_statement(inner[0], indent, "elif")
            out += [f"{indent}else:", *self.block(op.else_region.block, indent + "    ")]
        return out

    def statement(self, op: Operation) -> str | None:
        if isinstance(op, emitpy.LiteralOp):
            self.inline[op.result] = op.value.data
            return None
        if isinstance(op, emitpy.GlobalStatementOp):
            name = op.global_name.root_reference.data
            self.inline[op.result] = name
            return f"global {name}"
        if isinstance(op, ReturnOp):
            values = [self.name(v) for v in op.arguments]
            return "return " + ", ".join(values) if values else "return"
        if isinstance(op, emitpy.SubscriptOp):
            return self.assign(op.result, f"{self.name(op.container)}[{self.name(op.index)}]")
        if isinstance(op, emitpy.ConstantOp):
            return self.assign(op.result, attribute_value(op.value, op))
        if isinstance(op, arith.ConstantOp):
            return self.assign(op.result, attribute_value(op.value, op))
        if isinstance(op, emitpy.CreateDictOp):
            self.give(op.result, op.dict_name.data)
            if op.literal_expr is not None:
                return self.assign(op.result, op.literal_expr.data)
            items = [self.name(v) for v in op.items]
            return self.assign(op.result, "{" + ", ".join(f"{k}: {v}" for k, v in zip(items[::2], items[1::2])) + "}")
        if isinstance(op, emitpy.AssignGlobalOp):
            return f"{op.global_name.root_reference.data} = {self.name(op.value)}"
        if isinstance(op, emitpy.AssignOp):
            return f"{self.name(op.target)} = {self.name(op.value)}"
        if isinstance(op, emitpy.SetAttrOp):
            return f"{self.name(op.object)}.{op.attr_name.data} = {self.name(op.value)}"
        if isinstance(op, emitpy.GetAttrOp):
            return self.assign(op.result, self.expr_text(op))
        if isinstance(op, CallOp):
            return self.results(op, f"{op.callee.root_reference.data}({', '.join(map(self.name, op.arguments))})")
        if isinstance(op, emitpy.CallOpaqueOp):
            return self.results(op, self.call(op))
        if isinstance(op, emitpy.VerbatimOp):
            from ttmlir.dialects.emitc import format_pieces

            pieces = format_pieces(op.value.data)
            return "".join(p + (self.name(a) if a is not None else "")
                           for p, a in zip(pieces, [*op.fmt_args, None]))
        raise TranslateError(op, f"'{op.name}' has no Python form")

    def assign(self, value: SSAValue, expr: str) -> str:
        return f"{self.name(value)} = {expr}"

    def results(self, op: Operation, expr: str) -> str:
        if not op.results:
            return expr
        if len(op.results) == 1:
            given = op.attributes.get(emitpy.NAME)
            valid = python_name(given.data) if isinstance(given, StringAttr) else ""
            self.give(op.results[0], valid or self.fresh("var_"))
        else:
            for r in op.results:
                self.give(r, self.fresh("v_"))
        return ", ".join(self.name(r) for r in op.results) + " = " + expr

    def expression(self, op: emitpy.ExpressionOp, indent: str) -> list[str]:
        """Inline: the expression's text stands for its value where it is used. Not inline: its ops as
        statements, then its value assigned to a variable of its own."""
        block = op.body.block
        for arg, operand in zip(block.args, op.inputs):
            self.inline[arg] = self.name(operand)
        body, yielded = list(block.ops)[:-1], block.last_op.result[0]
        if op.do_not_inline is not None:
            lines = [indent + line for o in body if (line := self.statement(o)) is not None]
            return lines + [indent + self.results(op, self.name(yielded))]
        for inner in body:
            self.inline[inner.results[0]] = self.expr_text(inner)
        self.inline[op.result] = self.inline[yielded]
        return []

    def expr_text(self, op: Operation) -> str:
        if isinstance(op, emitpy.LiteralOp):
            return op.value.data
        if isinstance(op, emitpy.SubscriptOp):
            return f"{self.name(op.container)}[{self.name(op.index)}]"
        if isinstance(op, emitpy.ConstantOp):
            return attribute_value(op.value, op)
        if isinstance(op, emitpy.GetAttrOp):
            return f"{self.name(op.object)}.{op.attr_name.data}"
        return self.call(op)

    def call(self, op: emitpy.CallOpaqueOp) -> str:
        if op.args is None:
            args = [self.name(v) for v in op.operands_]
        else:
            args = [self.argument(op, a) for a in op.args.data]
        keywords = [k.data for k in op.keyword_args.data] if op.keyword_args is not None else [""] * len(args)
        parts = [f"{k}={a}" if k else a for k, a in zip(keywords, args)]
        return f"{op.callee.data}({', '.join(parts)})"

    def argument(self, op: emitpy.CallOpaqueOp, attr: Attribute) -> str:
        if isinstance(attr, IntegerAttr) and isinstance(attr.type, IndexType):
            return self.name(op.operands_[attr.value.data])
        return attribute_value(attr, op)
