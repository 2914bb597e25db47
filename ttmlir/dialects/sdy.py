"""Shardy's `sdy` dialect: meshes, tensor shardings, manual computations, reshards and the shardy collectives,
read and printed in shardy's own syntax (`sdy.mesh @mesh = <["x"=1, "y"=2]>`, `#sdy.sharding<@mesh, [{"y"}, {?}]>`,
`sdy.manual_computation(%a) in_shardings=[...] out_shardings=[...] manual_axes={"y"} (%b: ...) {...} : ...`).

A sharding names its mesh by symbol; a name that no `sdy.mesh` defines, or an axis the mesh lacks, is a located
error on the op (or function argument/result) that carries it.
"""

from __future__ import annotations

import math
import re
from typing import ClassVar, NamedTuple, Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, DictionaryAttr, ModuleOp, StringAttr, TensorType
from xdsl.ir import Attribute, Data, Dialect, Operation
from xdsl.irdl import (IRDLOperation, irdl_attr_definition, irdl_op_definition, operand_def, prop_def, region_def,
                       result_def, traits_def, var_operand_def, var_result_def)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, IsTerminator, NoMemoryEffect, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException


# ---------------------------------------------------------------------------------------------------------------
# The values behind the attributes

class AxisRef(NamedTuple):
    """A mesh axis, or a sub-axis `"x":(pre)size` (the `size` chips after every `pre` along it)."""
    name: str
    sub: tuple[int, int] | None = None

    def __str__(self) -> str:
        return f'"{self.name}"' + (f":({self.sub[0]}){self.sub[1]}" if self.sub else "")


class DimSharding(NamedTuple):
    """The axes one tensor dimension is split over, major first; open (`?`) dims may take more; `p<N>` priority."""
    axes: tuple[AxisRef, ...] = ()
    closed: bool = True
    priority: int | None = None

    def __str__(self) -> str:
        items = [str(a) for a in self.axes] + ([] if self.closed else ["?"])
        return "{" + ", ".join(items) + "}" + (f"p{self.priority}" if self.priority is not None else "")


class Mesh(NamedTuple):
    axes: tuple[tuple[str, int], ...] = ()
    device_ids: tuple[int, ...] = ()

    def size(self, axis: AxisRef) -> int:
        return axis.sub[1] if axis.sub else dict(self.axes)[axis.name]

    def __str__(self) -> str:
        parts = ["[" + ", ".join(f'"{n}"={s}' for n, s in self.axes) + "]"]
        if self.device_ids:
            parts.append("device_ids=[" + ", ".join(map(str, self.device_ids)) + "]")
        return "<" + ", ".join(parts) + ">"


class Sharding(NamedTuple):
    """A tensor's sharding: its mesh (a symbol name, or a mesh written inline), one DimSharding per dimension, and
    the axes it is explicitly replicated or left unreduced over."""
    mesh: str | Mesh
    dims: tuple[DimSharding, ...]
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()

    def __str__(self) -> str:
        mesh = f"@{self.mesh}" if isinstance(self.mesh, str) else f"mesh{self.mesh}"
        text = f"<{mesh}, [" + ", ".join(map(str, self.dims)) + "]"
        for key, axes in (("replicated", self.replicated), ("unreduced", self.unreduced)):
            if axes:
                text += f", {key}={axis_list_str(axes)}"
        return text + ">"

    def axes(self) -> list[AxisRef]:
        return [a for d in self.dims for a in d.axes]


def axis_list_str(axes: Sequence[AxisRef]) -> str:
    return "{" + ", ".join(map(str, axes)) + "}"


def replicated_sharding(mesh: str | Mesh, rank: int, closed: bool = True) -> Sharding:
    return Sharding(mesh, tuple(DimSharding((), closed) for _ in range(rank)))


# ---------------------------------------------------------------------------------------------------------------
# Parsing the pieces

def parse_axis_ref(parser: AttrParser) -> AxisRef:
    name = parser.parse_str_literal()
    if parser.parse_optional_punctuation(":") is None:
        return AxisRef(name)
    with parser.in_parens():
        pre = parser.parse_integer(allow_negative=False, allow_boolean=False)
    return AxisRef(name, (pre, parser.parse_integer(allow_negative=False, allow_boolean=False)))


def parse_axis_list(parser: AttrParser) -> tuple[AxisRef, ...]:
    """`{"x", "y":(1)2}`"""
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.BRACES, lambda: parse_axis_ref(parser)))


def parse_dim_sharding(parser: AttrParser) -> DimSharding:
    parser.parse_punctuation("{")
    axes: list[AxisRef] = []
    closed = True
    if parser.parse_optional_punctuation("}") is None:
        while True:
            if parser.parse_optional_punctuation("?") is not None:
                closed = False
                parser.parse_punctuation("}")
                break
            axes.append(parse_axis_ref(parser))
            if parser.parse_optional_punctuation(",") is None:
                parser.parse_punctuation("}")
                break
    priority = None
    if (pos := parser.pos) is not None and (word := parser.parse_optional_identifier()) is not None:
        if not (word.startswith("p") and word[1:].isdigit()):
            parser.raise_error(f"expected a priority 'p<N>' after a dimension sharding, got '{word}'", pos)
        priority = int(word[1:])
    return DimSharding(tuple(axes), closed, priority)


def parse_mesh_body(parser: AttrParser) -> Mesh:
    """`<["x"=2, "y"=4], device_ids=[...]>` (the angle brackets included)."""
    def axis():
        name = parser.parse_str_literal()
        parser.parse_punctuation("=")
        return name, parser.parse_integer(allow_negative=False, allow_boolean=False)

    with parser.in_angle_brackets():
        axes: tuple = ()
        if parser.parse_optional_keyword("device_ids") is None:
            axes = tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, axis))
            if parser.parse_optional_punctuation(",") is None:
                return Mesh(axes)
            parser.parse_keyword("device_ids")
        parser.parse_punctuation("=")
        ids = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_negative=False, allow_boolean=False))
        return Mesh(axes, tuple(ids))


def parse_sharding_body(parser: AttrParser) -> Sharding:
    """`<@mesh, [{"x"}, {?}], replicated={"y"}>` (the angle brackets included)."""
    with parser.in_angle_brackets():
        symbol = parser.parse_optional_symbol_name()
        if symbol is not None:
            mesh: str | Mesh = symbol.data
        else:
            parser.parse_keyword("mesh")
            mesh = parse_mesh_body(parser)
        parser.parse_punctuation(",")
        dims = parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_dim_sharding(parser))
        extra: dict[str, tuple[AxisRef, ...]] = {}
        while parser.parse_optional_punctuation(",") is not None:
            key = parser.parse_identifier()
            if key not in ("replicated", "unreduced") or key in extra:
                parser.raise_error(f"expected 'replicated' or 'unreduced', got '{key}'")
            parser.parse_punctuation("=")
            extra[key] = parse_axis_list(parser)
        return Sharding(mesh, tuple(dims), extra.get("replicated", ()), extra.get("unreduced", ()))


def parse_sharding_list(parser: AttrParser) -> tuple[Sharding, ...]:
    return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_sharding_body(parser)))


def sharding_list_str(shardings: Sequence[Sharding]) -> str:
    return "[" + ", ".join(map(str, shardings)) + "]"


# ---------------------------------------------------------------------------------------------------------------
# Attributes

@irdl_attr_definition
class MeshAttr(Data[Mesh]):
    """`#sdy.mesh<["x"=2, "y"=4]>`: named axes and their sizes (optionally the device order)."""
    name = "sdy.mesh"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Mesh:
        return parse_mesh_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(str(self.data))


@irdl_attr_definition
class ShardingAttr(Data[Sharding]):
    """`#sdy.sharding<@mesh, [{"x"}, {}]>`: how one tensor is split over a mesh."""
    name = "sdy.sharding"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Sharding:
        return parse_sharding_body(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(str(self.data))


@irdl_attr_definition
class ShardingPerValueAttr(Data[tuple[Sharding, ...]]):
    """`#sdy.sharding_per_value<[<@mesh, [...]>, ...]>`: one sharding per result of an op."""
    name = "sdy.sharding_per_value"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[Sharding, ...]:
        with parser.in_angle_brackets():
            return parse_sharding_list(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(f"<{sharding_list_str(self.data)}>")


@irdl_attr_definition
class ManualAxesAttr(Data[tuple[str, ...]]):
    """`#sdy<manual_axes{"x", "y"}>`: the axes a manual computation's body sees per chip."""
    name = "sdy.manual_axes"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[str, ...]:
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.BRACES, parser.parse_str_literal))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("{" + ", ".join(f'"{a}"' for a in self.data) + "}")


@irdl_attr_definition
class AxisRefListAttr(Data[tuple[AxisRef, ...]]):
    """`{"x", "y"}`: the axes an all_reduce sums over."""
    name = "sdy.axis_ref_list"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[AxisRef, ...]:
        return parse_axis_list(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(axis_list_str(self.data))


@irdl_attr_definition
class ListOfAxisRefListsAttr(Data[tuple[tuple[AxisRef, ...], ...]]):
    """`[{"x"}, {}]`: per tensor dimension, the axes a collective gathers, slices or scatters along."""
    name = "sdy.list_of_axis_ref_lists"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[tuple[AxisRef, ...], ...]:
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, lambda: parse_axis_list(parser)))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("[" + ", ".join(axis_list_str(a) for a in self.data) + "]")


class AllToAllParam(NamedTuple):
    axes: tuple[AxisRef, ...]
    src_dim: int
    tgt_dim: int

    def __str__(self) -> str:
        return f"{axis_list_str(self.axes)}: {self.src_dim}->{self.tgt_dim}"


@irdl_attr_definition
class AllToAllParamListAttr(Data[tuple[AllToAllParam, ...]]):
    """`[{"x"}: 0->1, ...]`: axes moved from splitting one dimension to splitting another."""
    name = "sdy.all_to_all_param_list"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> tuple[AllToAllParam, ...]:
        def param():
            axes = parse_axis_list(parser)
            parser.parse_punctuation(":")
            src = parser.parse_integer(allow_negative=False, allow_boolean=False)
            parser.parse_punctuation("->")
            return AllToAllParam(axes, src, parser.parse_integer(allow_negative=False, allow_boolean=False))
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE, param))

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string("[" + ", ".join(map(str, self.data)) + "]")


# ---------------------------------------------------------------------------------------------------------------
# Looking shardings up against their meshes

def find_mesh(op: Operation, name: str) -> Mesh | None:
    """The mesh `sdy.mesh @name` defines in the module holding `op`."""
    module = op if isinstance(op, ModuleOp) else op.get_toplevel_object()
    if not isinstance(module, ModuleOp):
        return None
    for child in module.ops:
        if isinstance(child, MeshOp) and child.sym_name.data == name:
            return child.mesh.data
    return None


def meshes(module: ModuleOp) -> dict[str, Mesh]:
    return {op.sym_name.data: op.mesh.data for op in module.ops if isinstance(op, MeshOp)}


def mesh_of(op: Operation, sharding: Sharding) -> Mesh | None:
    return sharding.mesh if isinstance(sharding.mesh, Mesh) else find_mesh(op, sharding.mesh)


def sharding_error(op: Operation, sharding: Sharding, type_: Attribute) -> str | None:
    """Why `sharding` cannot describe a value of `type_` held by `op`'s module, in shardy's words, or None."""
    mesh = mesh_of(op, sharding)
    if mesh is None:
        return f"unknown mesh: @{sharding.mesh}"
    if not isinstance(type_, TensorType):
        if sharding.dims or sharding.replicated or sharding.unreduced:
            return "non-shaped tensors can only have a sharding with rank 0 and no replicated or unreduced axes"
        return None
    rank = len(type_.get_shape())
    if len(sharding.dims) != rank:
        return f"sharding doesn't match tensor rank: {len(sharding.dims)} != {rank}"
    names = dict(mesh.axes)
    seen: set[AxisRef] = set()
    for i, dim in enumerate(sharding.dims):
        if not dim.axes and dim.closed and dim.priority is not None:
            return f"dim {i} is empty and closed but has a priority"
    for axis in (*sharding.axes(), *sharding.replicated, *sharding.unreduced):
        if axis.name not in names:
            return f'unknown axis name: "{axis.name}"'
        if axis in seen or (axis.sub is None and any(s.name == axis.name for s in seen)):
            return f"duplicate axis ref: {axis}"
        if axis.sub and (names[axis.name] % (axis.sub[0] * axis.sub[1]) or axis.sub[1] <= 1):
            return f"sub-axis {axis} does not divide axis \"{axis.name}\" of size {names[axis.name]}"
        seen.add(axis)
    order = [n for n, _ in mesh.axes]
    for key, axes in (("replicated", sharding.replicated), ("unreduced", sharding.unreduced)):
        keys = [(order.index(a.name), a.sub or (0, 0)) for a in axes]
        if keys != sorted(keys):
            return f"{key} axes are not ordered w.r.t. mesh"
    return None


def local_shape(shape: Sequence[int], sharding: Sharding, mesh: Mesh, axes: Sequence[str] | None = None
                ) -> tuple[int, ...] | None:
    """A chip's piece of a tensor of `shape` (only the axes named in `axes`, if given), or None when a dimension
    does not split evenly."""
    out = []
    for size, dim in zip(shape, sharding.dims):
        parts = math.prod(mesh.size(a) for a in dim.axes if axes is None or a.name in axes)
        if size % parts:
            return None
        out.append(size // parts)
    return tuple(out)


def verify_attributes(op: Operation) -> str | None:
    """The `sdy.sharding` attributes an op carries (per result) or, on a function, its arguments and results carry;
    None when they are all well formed."""
    from xdsl.dialects.func import FuncOp

    rule = op.attributes.get("sdy.sharding_rule")
    if rule is not None:
        if not isinstance(rule, OpShardingRuleAttr):
            return "op should have a sharding rule attribute of type OpShardingRuleAttr"
        if (why := rule_error(op, rule.data)) is not None:
            return why
    attr = op.attributes.get("sdy.sharding")
    if attr is not None:
        if not isinstance(attr, ShardingPerValueAttr):
            return "op should have a sharding attribute of type TensorShardingPerValueAttr"
        if len(attr.data) != len(op.results):
            return (f"op result shardings don't match number of values: {len(attr.data)} shardings vs "
                    f"{len(op.results)} values")
        named = {s.mesh for s in attr.data if isinstance(s.mesh, str) or s.mesh.axes}
        if len(named) > 1:
            return "op result shardings can only be bound to the same mesh or an empty mesh"
        for i, (sharding, result) in enumerate(zip(attr.data, op.results)):
            if (why := sharding_error(op, sharding, result.type)) is not None:
                where = "result" if len(op.results) == 1 else f"result {i}"
                return f"'{op.name}' op {where} - {why}"
    if isinstance(op, FuncOp):
        for kind, attrs, types in (("arg", op.arg_attrs, op.function_type.inputs.data),
                                   ("result", op.res_attrs, op.function_type.outputs.data)):
            for i, (d, t) in enumerate(zip(attrs.data if attrs else (), types)):
                value = d.data.get("sdy.sharding") if isinstance(d, DictionaryAttr) else None
                if value is None:
                    continue
                if not isinstance(value, ShardingAttr):
                    return f"'func.func' op {kind} {i} - should have a sharding attribute of type TensorShardingAttr"
                if (why := sharding_error(op, value.data, t)) is not None:
                    return f"'func.func' op {kind} {i} - {why}"
    return None


class OpShardingRule(NamedTuple):
    """An op's factors: per operand and result, per dim, the factors (indices into `sizes`) it is made of, major
    first; the special factor sets by index; `custom` rules are the user's own."""
    operands: tuple[tuple[tuple[int, ...], ...], ...]
    results: tuple[tuple[tuple[int, ...], ...], ...]
    sizes: tuple[int, ...]
    special: tuple[tuple[str, tuple[int, ...]], ...] = ()  # ("reduction", (2,)), ("need_replication", ...)
    custom: bool = False

    @staticmethod
    def symbol(index: int) -> str:
        return chr(ord("i") + index) if index < 18 else f"z_{index - 17}"

    def __str__(self) -> str:
        def mapping(tensors):
            return ", ".join("[" + ", ".join("".join(map(self.symbol, dim)) for dim in t) + "]" for t in tensors)
        text = f"<({mapping(self.operands)})->({mapping(self.results)})"
        if self.sizes:
            text += " {" + ", ".join(f"{self.symbol(i)}={n}" for i, n in enumerate(self.sizes)) + "}"
        text += "".join(f" {kind}={{{', '.join(map(self.symbol, ids))}}}" for kind, ids in self.special)
        return text + (", custom>" if self.custom else ">")


RULE_SETS = ("reduction", "need_replication", "permutation", "blocked_propagation")
_FACTOR = re.compile(r"z_[1-9][0-9]*|[a-z]")


def parse_op_sharding_rule(parser: AttrParser) -> OpShardingRule:
    """`<([i, j], [j, k])->([i, k]) {i=8, j=4, k=2} reduction={j}, custom>`"""
    def factors(word: str) -> tuple[int, ...]:
        found = _FACTOR.findall(word)
        if "".join(found) != word or any(f < "i" for f in found):
            parser.raise_error(f"expected factor symbols (i, j, ..., z, z_1, ...), got '{word}'")
        return tuple(ord(f) - ord("i") if len(f) == 1 else 17 + int(f[2:]) for f in found)

    def tensor():
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.SQUARE,
                                                       lambda: factors(parser.parse_identifier())))

    def tensors():
        return tuple(parser.parse_comma_separated_list(parser.Delimiter.PAREN, tensor))

    with parser.in_angle_brackets():
        operands = tensors()
        parser.parse_punctuation("->")
        results = tensors()
        sizes: dict[int, int] = {}
        if parser.parse_optional_punctuation("{") is not None:
            while True:
                (index,) = factors(parser.parse_identifier())
                parser.parse_punctuation("=")
                sizes[index] = parser.parse_integer(allow_negative=False, allow_boolean=False)
                if parser.parse_optional_punctuation(",") is None:
                    break
            parser.parse_punctuation("}")
        if set(sizes) != set(range(len(sizes))):
            parser.raise_error("the factors of an op sharding rule are i, j, k, ... each with a size")
        special, custom = [], False
        while (word := parser.parse_optional_identifier()) is not None or \
                parser.parse_optional_punctuation(",") is not None:
            if word is None:
                continue
            if word == "custom":
                custom = True
            elif word in RULE_SETS:
                parser.parse_punctuation("=")
                special.append((word, tuple(i for f in parser.parse_comma_separated_list(
                    parser.Delimiter.BRACES, parser.parse_identifier) for i in factors(f))))
            else:
                parser.raise_error(f"unexpected '{word}' in an op sharding rule")
    return OpShardingRule(operands, results, tuple(sizes[i] for i in range(len(sizes))), tuple(special), custom)


def rule_error(op: Operation, rule: OpShardingRule) -> str | None:
    """Shardy's checks of a rule against the op it describes, in its words."""
    for kind, values, mappings in (("operand", op.operands, rule.operands), ("result", op.results, rule.results)):
        if len(values) != len(mappings):
            return f"'{op.name}' op number of {kind}s and mappings must match: {len(values)} != {len(mappings)}"
        for i, (value, mapping) in enumerate(zip(values, mappings)):
            where = kind if len(values) == 1 else f"{kind} {i}"
            if not isinstance(value.type, TensorType):
                return f"'{op.name}' op {where} - expected a ranked tensor with a static shape. type: {value.type}"
            rank = len(value.type.get_shape())
            if len(mapping) != rank:
                return f"'{op.name}' op {where} - mapping rank must match: {len(mapping)} != {rank}"
            used = [f for dim in mapping for f in dim]
            if (outside := next((f for f in used if f >= len(rule.sizes)), None)) is not None:
                return (f"'{op.name}' op {where} - expecting factor indices to be within 0<=...<num_factors; "
                        f"received: {outside}, num_factors: {len(rule.sizes)}")
            if len(used) != len(set(used)):
                return f"'{op.name}' op {where} - cannot reuse factors for the same tensor value"
            if any(not dim for dim in mapping):
                return f"'{op.name}' op {where} - dim mapping must have at least one factor"
    return None


@irdl_attr_definition
class OpShardingRuleAttr(Data[OpShardingRule]):
    """`#sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=16}>`: which dims of an op's operands and results
    split together (factors), which are reduced or must stay whole."""
    name = "sdy.op_sharding_rule"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> OpShardingRule:
        return parse_op_sharding_rule(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(str(self.data))


# ---------------------------------------------------------------------------------------------------------------
# Operations

def _parse_type_tail(parser: Parser, operands) -> tuple[list, Attribute]:
    """`attr-dict : type`: one type for the operand and the result."""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    type_ = parser.parse_type()
    return parser.resolve_operands(operands, [type_] * len(operands), parser.pos), type_, attrs


def _check_sharding(op: Operation, sharding: Sharding, type_: Attribute, what: str = "") -> None:
    if (why := sharding_error(op, sharding, type_)) is not None:
        raise VerifyException(f"{what}{why}")


@irdl_op_definition
class MeshOp(IRDLOperation):
    """`sdy.mesh @mesh = <["x"=1, "y"=2]>`: a named mesh of chips, referred to by shardings."""
    name = "sdy.mesh"
    sym_name = prop_def(StringAttr)
    mesh = prop_def(MeshAttr)
    traits = traits_def(SymbolOpInterface())

    def __init__(self, sym_name: str, mesh: Mesh):
        super().__init__(properties={"sym_name": StringAttr(sym_name), "mesh": MeshAttr(mesh)})

    @classmethod
    def parse(cls, parser: Parser):
        sym = parser.parse_symbol_name()
        parser.parse_punctuation("=")
        op = cls(sym.data, parse_mesh_body(parser))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.sym_name.data} = {self.mesh.data}")
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        names = [n for n, _ in self.mesh.data.axes]
        if len(set(names)) != len(names):
            raise VerifyException("duplicate axis name: " + next(f'"{n}"' for n in names if names.count(n) > 1))
        if any(s <= 0 for _, s in self.mesh.data.axes):
            raise VerifyException("axis size must be at least 1")
        ids = self.mesh.data.device_ids
        total = math.prod(s for _, s in self.mesh.data.axes)
        if ids and self.mesh.data.axes and sorted(ids) != list(range(total)):
            raise VerifyException(f"sorted device ids must be the iota of the mesh's {total} devices")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`sdy.return %a, %b : tensor<...>, tensor<...>`: ends a manual computation's body."""
    name = "sdy.return"
    results_ = var_operand_def()
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parser.parse_optional_unresolved_operand()
        unresolved = []
        if operands is not None:
            unresolved = [operands]
            while parser.parse_optional_punctuation(","):
                unresolved.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        types = []
        if unresolved:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        op = cls(operands=[parser.resolve_operands(unresolved, types, parser.pos)])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.results_:
            printer.print_string(" ")
            printer.print_list(self.results_, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        if self.results_:
            printer.print_string(" : ")
            printer.print_list([v.type for v in self.results_], printer.print_attribute)


class InlineSingleChipManualComputation(RewritePattern):
    """A manual computation whose manual axes span one chip (their sizes multiply to 1) runs its body once on
    whole values: the body replaces it (as shardy's canonicalization does). One with neither operands, results
    nor ops is erased."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, ManualComputationOp):
            return
        shardings = (*op.in_shardings.data, *op.out_shardings.data)
        block = op.body.block
        if shardings:
            mesh = mesh_of(op, shardings[0])
            if mesh is None or math.prod(dict(mesh.axes).get(a, 1) for a in op.manual_axes.data) != 1:
                return
        elif not isinstance(block.first_op, ReturnOp):
            return
        for arg, value in zip(block.args, op.tensors):
            arg.replace_all_uses_with(value)
        returned = list(block.last_op.operands)
        for inner in list(block.ops)[:-1]:
            inner.detach()
            rewriter.insert_op(inner)
        rewriter.replace_op(op, [], returned)


class _ManualComputationCanonicalization(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return (InlineSingleChipManualComputation(),)


@irdl_op_definition
class ManualComputationOp(IRDLOperation):
    """Its body runs once per chip on the chip's piece of each operand (split over `manual_axes` as `in_shardings`
    say); the pieces it returns form results sharded as `out_shardings` say."""
    name = "sdy.manual_computation"
    tensors = var_operand_def()
    results_ = var_result_def()
    in_shardings = prop_def(ShardingPerValueAttr)
    out_shardings = prop_def(ShardingPerValueAttr)
    manual_axes = prop_def(ManualAxesAttr)
    body = region_def("single_block")
    traits = traits_def(_ManualComputationCanonicalization())

    @classmethod
    def parse(cls, parser: Parser):
        operands = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        props = {}
        for key, parse in (("in_shardings", lambda: ShardingPerValueAttr(parse_sharding_list(parser))),
                           ("out_shardings", lambda: ShardingPerValueAttr(parse_sharding_list(parser))),
                           ("manual_axes", lambda: ManualAxesAttr(ManualAxesAttr.parse_parameter(parser)))):
            parser.parse_keyword(key)
            parser.parse_punctuation("=")
            props[key] = parse()
        def argument():
            arg = parser.parse_argument()
            location = parser.parse_optional_location()
            return arg if location is None else type(arg)(arg.name, arg.type, location)

        args = parser.parse_comma_separated_list(parser.Delimiter.PAREN, argument)
        body = parser.parse_region(args)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        fn = parser.parse_function_type()
        op = cls(operands=[parser.resolve_operands(operands, fn.inputs.data, parser.pos)],
                 result_types=[fn.outputs.data], properties=props, regions=[body])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.tensors, printer.print_operand)
        printer.print_string(f") in_shardings={sharding_list_str(self.in_shardings.data)} "
                             f"out_shardings={sharding_list_str(self.out_shardings.data)} manual_axes=")
        self.manual_axes.print_parameter(printer)
        printer.print_string(" (")
        printer.print_list(self.body.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=False, print_empty_block=False)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_function_type([v.type for v in self.tensors], [r.type for r in self.results])

    def verify_(self) -> None:
        ins, outs = self.in_shardings.data, self.out_shardings.data
        manual = self.manual_axes.data
        block = self.body.block
        if len(ins) != len(self.tensors):
            raise VerifyException(f"number of in_shardings ({len(ins)}) doesn't match number of operands "
                                  f"({len(self.tensors)})")
        if len(outs) != len(self.results):
            raise VerifyException(f"number of out_shardings ({len(outs)}) doesn't match number of results "
                                  f"({len(self.results)})")
        if len(block.args) != len(self.tensors):
            raise VerifyException(f"number of block arguments ({len(block.args)}) doesn't match number of operands "
                                  f"({len(self.tensors)})")
        for kind, shardings, globals_, locals_ in (
                ("operand", ins, [v.type for v in self.tensors], [a.type for a in block.args]),
                ("result", outs, [r.type for r in self.results],
                 [v.type for v in block.last_op.operands] if block.last_op else [])):
            for i, (sharding, g, l) in enumerate(zip(shardings, globals_, locals_)):
                _check_sharding(self, sharding, g, f"{kind} sharding at index {i} ")
                mesh = mesh_of(self, sharding)
                for dim in sharding.dims:
                    free = [j for j, a in enumerate(dim.axes) if a.name not in manual]
                    if free and any(a.name in manual for a in dim.axes[free[0]:]):
                        raise VerifyException(f"{kind} sharding at index {i} must have all manual axes come "
                                              f"before free axes in its dimension sharding")
                for name in manual:
                    if name not in dict(mesh.axes):
                        raise VerifyException(f'unknown manual axis: "{name}"')
                if not isinstance(g, TensorType):
                    continue
                expected = local_shape(g.get_shape(), sharding, mesh, manual)
                if expected is None or not isinstance(l, TensorType) or tuple(l.get_shape()) != expected:
                    shown = "x".join(map(str, expected)) if expected is not None else "?"
                    raise VerifyException(f"{kind} shape, corresponding sharding, and region {kind} shape at index "
                                          f"{i} must match. Expected local shape tensor<{shown}x"
                                          f"{g.element_type}>, actual local shape {l}")


class _ShardingOp(IRDLOperation):
    """`sdy.<op> %x <@mesh, [...]> : tensor<...>`: the value, resharded (or constrained) to `sharding`."""
    input = operand_def(TensorType)
    result = result_def(TensorType)
    sharding = prop_def(ShardingAttr)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        sharding = ShardingAttr(parse_sharding_body(parser))
        (value,), type_, attrs = _parse_type_tail(parser, [operand])
        op = cls(operands=[value], result_types=[type_], properties={"sharding": sharding})
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        printer.print_string(f" {self.sharding.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.input.type != self.result.type:
            raise VerifyException("requires the same type for all operands and results")
        _check_sharding(self, self.sharding.data, self.result.type)


@irdl_op_definition
class ShardingConstraintOp(_ShardingOp):
    name = "sdy.sharding_constraint"


@irdl_op_definition
class ReshardOp(_ShardingOp):
    name = "sdy.reshard"


class _CollectiveOp(IRDLOperation):
    """`sdy.<collective> <axes> %x out_sharding=<...> : tensor<...>`; the type is the global one, unchanged."""
    tensor = operand_def(TensorType)
    result = result_def(TensorType)
    out_sharding = prop_def(ShardingAttr)
    traits = traits_def(NoMemoryEffect())
    AXES: ClassVar[tuple[str, type[Data]] | None] = None  # the property naming the axes and its attribute class

    @classmethod
    def parse(cls, parser: Parser):
        props = {}
        if cls.AXES is not None:
            key, attr = cls.AXES
            props[key] = attr(attr.parse_parameter(parser))
        operand = parser.parse_unresolved_operand()
        parser.parse_keyword("out_sharding")
        parser.parse_punctuation("=")
        props["out_sharding"] = ShardingAttr(parse_sharding_body(parser))
        (value,), type_, attrs = _parse_type_tail(parser, [operand])
        op = cls(operands=[value], result_types=[type_], properties=props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.AXES is not None:
            printer.print_string(" ")
            self.properties[self.AXES[0]].print_parameter(printer)
        printer.print_string(" ")
        printer.print_operand(self.tensor)
        printer.print_string(f" out_sharding={self.out_sharding.data}")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.tensor.type != self.result.type:
            raise VerifyException("requires the same type for all operands and results")
        _check_sharding(self, self.out_sharding.data, self.result.type)
        if self.AXES is not None and self.AXES[1] is ListOfAxisRefListsAttr:
            rank = len(self.result.type.get_shape())
            if len(self.properties[self.AXES[0]].data) != rank:
                raise VerifyException(f"{self.AXES[0]} doesn't match tensor rank: "
                                      f"{len(self.properties[self.AXES[0]].data)} != {rank}")


@irdl_op_definition
class AllGatherOp(_CollectiveOp):
    name = "sdy.all_gather"
    gathering_axes = prop_def(ListOfAxisRefListsAttr)
    AXES: ClassVar = ("gathering_axes", ListOfAxisRefListsAttr)


@irdl_op_definition
class AllSliceOp(_CollectiveOp):
    name = "sdy.all_slice"
    slicing_axes = prop_def(ListOfAxisRefListsAttr)
    AXES: ClassVar = ("slicing_axes", ListOfAxisRefListsAttr)


@irdl_op_definition
class ReduceScatterOp(_CollectiveOp):
    name = "sdy.reduce_scatter"
    reduce_scatter_axes = prop_def(ListOfAxisRefListsAttr)
    AXES: ClassVar = ("reduce_scatter_axes", ListOfAxisRefListsAttr)


@irdl_op_definition
class AllReduceOp(_CollectiveOp):
    name = "sdy.all_reduce"
    reduction_axes = prop_def(AxisRefListAttr)
    AXES: ClassVar = ("reduction_axes", AxisRefListAttr)


@irdl_op_definition
class AllToAllOp(_CollectiveOp):
    name = "sdy.all_to_all"
    params = prop_def(AllToAllParamListAttr)
    AXES: ClassVar = ("params", AllToAllParamListAttr)


@irdl_op_definition
class CollectivePermuteOp(_CollectiveOp):
    name = "sdy.collective_permute"


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`sdy.constant dense<...> : tensor<...>`: a constant shardy keeps apart from its users (never folded into
    them)."""
    name = "sdy.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)
    traits = traits_def(NoMemoryEffect())

    @classmethod
    def parse(cls, parser: Parser):
        attrs = parser.parse_optional_attr_dict()
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute")
        op = cls(properties={"value": value}, result_types=[value.type])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        printer.print_attribute(self.value)

    def verify_(self) -> None:
        if self.value.type != self.output.type:
            raise VerifyException("the value's type must be the result's type")


SDY = Dialect("sdy", [MeshOp, ManualComputationOp, ReturnOp, ShardingConstraintOp, ReshardOp, AllGatherOp,
                      AllSliceOp, ReduceScatterOp, AllReduceOp, AllToAllOp, CollectivePermuteOp, ConstantOp],
              [MeshAttr, ShardingAttr, ShardingPerValueAttr, ManualAxesAttr, AxisRefListAttr,
               ListOfAxisRefListsAttr, AllToAllParamListAttr, OpShardingRuleAttr])
