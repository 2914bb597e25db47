"""The shardy (sdy) dialect's attributes: meshes, axis references, per-dimension and per-value shardings, manual
axes and op sharding rules, in shardy's text syntax; the local shape of a sharded value."""

from __future__ import annotations

import math
import re
from typing import NamedTuple, Sequence

from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, TensorType
from xdsl.ir import Attribute, Data, Operation
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


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

MESH_OP = "sdy.mesh"  # (by name: the op classes stand above the attributes)

def find_mesh(op: Operation, name: str) -> Mesh | None:
    """The mesh `sdy.mesh @name` defines in the module holding `op`."""
    module = op if isinstance(op, ModuleOp) else op.get_toplevel_object()
    if not isinstance(module, ModuleOp):
        return None
    for child in module.ops:
        if child.name == MESH_OP and child.sym_name.data == name:
            return child.mesh.data
    return None


def meshes(module: ModuleOp) -> dict[str, Mesh]:
    return {op.sym_name.data: op.mesh.data for op in module.ops if op.name == MESH_OP}


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
