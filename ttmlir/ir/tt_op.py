"""Builds IRDL op classes from op-table rows and verifies them with upstream's wording."""

from __future__ import annotations

import types
from typing import Callable, ClassVar, Sequence

from xdsl.dialects.builtin import DenseArrayBase, TensorType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (AttrSizedOperandSegments, IRDLOperation, irdl_op_definition, operand_def, opt_operand_def,
                       opt_prop_def, opt_result_def, result_def, traits_def, var_operand_def, var_result_def)
from xdsl.traits import (EffectInstance, MemoryEffect, MemoryEffectKind, MemoryFreeEffect, MemoryWriteEffect,
                         Pure)
from xdsl.utils.exceptions import VerifyException

from ttmlir.ir.op_table import POPULATED_DEFAULTS, OpRow
from ttmlir.ir.props import KINDS, default_attr
from ttmlir.ir.sizes import type_error
from ttmlir.ir.canonicalization import TableCanonicalization

ShapeRule = Callable[["TTOp"], Sequence[Sequence[int]] | None]


# Ops whose own verifier words what a dynamic dimension means for them (upstream's); every other op refuses one.
CHECKS_DYNAMIC_SHAPES = frozenset({"paged_fill_cache"})


class WholeMessageError(VerifyException):
    """A verifier failure upstream reports without naming the op (its `op->emitError()`)."""


class TTOp(IRDLOperation):
    """Base of every table-built tt op; `row` says its operands, properties and results."""

    ROW: ClassVar[OpRow]
    SHAPE_RULE: ClassVar[ShapeRule | None] = None
    OPERAND_TYPE_CHECK: ClassVar[tuple[type | tuple[type, ...], str]] = (TensorType, "ranked tensor of any type values")
    ANY_TYPE_OPERANDS: ClassVar[frozenset[str]] = frozenset()  # operand groups of any type (upstream's AnyType)

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in POPULATED_DEFAULTS.get(self.ROW.name, ()):
            if name not in self.properties:
                self.properties[name] = self.prop(name)

    def prop(self, name: str) -> Attribute | None:
        """A property's value, its table default when absent, or None."""
        if (attr := self.properties.get(name)) is not None:
            return attr
        for pname, kind, default, _ in self.ROW.props:
            if pname == name and default is not None:
                return default_attr(kind, default)
        return None

    def operand_groups(self) -> dict[str, list[SSAValue]]:
        """Operands by their table name (optional/variadic names map to lists)."""
        names = self.ROW.operands
        sizes = _segment_sizes(self)
        groups, start = {}, 0
        for name, size in zip(names, sizes):
            groups[name.rstrip("?*")] = list(self.operands[start:start + size])
            start += size
        return groups

    def error(self, message: str) -> VerifyException:
        return VerifyException(f"'{self.name}' op {message}")

    def tt_verify(self) -> None:
        row = self.ROW
        _verify_operand_count(self)
        expected_results = len(row.results)
        variadic = any(r.endswith("*") for r in row.results)
        optional = len(self.results) == expected_results - 1 and row.results[-1].endswith("?")
        if len(self.results) != expected_results and not variadic and not optional:
            if expected_results <= 1:
                raise self.error("requires one result" if expected_results else "requires zero results")
            raise self.error(f"expected {expected_results} results, but found {len(self.results)}")
        for name, kind, _, required in row.props:
            attr = self.properties.get(name)
            if attr is None:
                if required:
                    raise self.error(f"requires attribute '{name}'")
            elif not KINDS[kind].check(attr):
                raise self.error(f"attribute '{name}' failed to satisfy constraint: {KINDS[kind].describe}")
        type_class, type_text = self.OPERAND_TYPE_CHECK
        free = [v for name in self.ANY_TYPE_OPERANDS for v in self.operand_groups().get(name, ())]
        for i, value in enumerate(self.operands):
            if not isinstance(value.type, type_class) and value not in free:
                raise self.error(f"operand #{i} must be {type_text}, but got '{value.type}'")
        for i, value in enumerate(self.results):
            if (error := type_error(value.type)) is not None:
                raise self.error(f"result #{i}: {error}")
        if self.SHAPE_RULE is not None:
            if row.name not in CHECKS_DYNAMIC_SHAPES:
                for value in (*self.operands, *self.results):
                    if isinstance(value.type, TensorType) and any(d < 0 for d in value.type.get_shape()):
                        raise self.error(f"dynamic shapes are not supported: {value.type}")
            expected = self.SHAPE_RULE()
            if expected is not None:
                for i, (want, result) in enumerate(zip(expected, self.results)):
                    got = tuple(result.type.get_shape())
                    if tuple(want) != got:
                        raise self.error(f"result #{i} shape ({_dims(got)}) does not match the expected shape "
                                         f"({_dims(want)})")

    def verify_(self) -> None:
        self.tt_verify()


def _dims(shape: Sequence[int]) -> str:
    return "x".join(map(str, shape)) or "scalar"


def _segment_sizes(op: TTOp) -> list[int]:
    names = op.ROW.operands
    flexible = [n for n in names if n[-1] in "?*"]
    if len(flexible) > 1:
        return list(op.properties["operandSegmentSizes"].get_values())
    fixed = len(names) - len(flexible)
    return [len(op.operands) - fixed if n[-1] in "?*" else 1 for n in names]


def _verify_operand_count(op: TTOp) -> None:
    names = op.ROW.operands
    flexible = [n for n in names if n[-1] in "?*"]
    count = len(op.operands)
    required = len(names) - len(flexible)
    if not flexible:
        if count != required:
            raise op.error("requires a single operand" if required == 1 else
                           f"expected {required} operands, but found {count}")
        return
    if len(flexible) == 1:
        if count < required or (flexible[0].endswith("?") and count > required + 1):
            bound = "at least" if flexible[0].endswith("*") else "between"
            limit = f"{required}" if bound == "at least" else f"{required} and {required + 1}"
            raise op.error(f"expected {bound} {limit} operands, but found {count}")
        return
    sizes = op.properties.get("operandSegmentSizes")
    if not isinstance(sizes, DenseArrayBase):
        raise op.error("requires attribute 'operandSegmentSizes'")
    values = list(sizes.get_values())
    if len(values) != len(names):
        raise op.error(f"'operandSegmentSizes' attribute for specifying operand segments must have "
                       f"{len(names)} elements, but got {len(values)}")
    if sum(values) != count:
        raise op.error(f"operand count ({count}) does not match with the total size ({sum(values)}) specified "
                       f"in attribute 'operandSegmentSizes'")
    for name, size in zip(names, values):
        if (name[-1] != "?" and name[-1] != "*" and size != 1) or (name[-1] == "?" and size > 1):
            raise op.error(f"operand group '{name.rstrip('?*')}' has a wrong size {size}")


class AllocatesResults(MemoryEffect):
    """The op allocates its results and does nothing else (dead when its results are unused, never CSE'd)."""

    @classmethod
    def get_effects(cls, op):
        return {EffectInstance(MemoryEffectKind.ALLOC, result) for result in op.results}


# Ops whose results are not all they do; every other family is Pure, so canonicalize, CSE and DCE apply.
EFFECTS = {"creation": (AllocatesResults(),), "rand": (AllocatesResults(),), "load": (AllocatesResults(),), "cache": (MemoryWriteEffect(),),
           "deallocate": (MemoryFreeEffect(),), "device": (), "tt_lang": (MemoryWriteEffect(),),
           "trace": (MemoryWriteEffect(),), "semaphore": (MemoryWriteEffect(),),
           "debug_effect": (MemoryWriteEffect(),), "optimizer_in_place": (MemoryWriteEffect(),),
           "generic": (MemoryWriteEffect(),)}  # a generic writes its output tensors in place and returns nothing  # get_device is never dead code, as upstream's


def build_op_class(dialect: str, row: OpRow, base: type[TTOp], shape_rule: ShapeRule | None,
                   dialect_ops: dict[str, type[TTOp]], patterns: Callable[[str], tuple]) -> type[TTOp]:
    """One IRDL class for one table row: fields from the row, shape rule from the family; `dialect_ops` is the
    dialect's table of classes, which its canonicalization `patterns` (by op name) build from."""
    op_name = row.name
    flexible = sum(n[-1] in "?*" for n in row.operands)
    fields: dict[str, object] = {"name": f"{dialect}.{op_name}", "__doc__": row.summary}
    for operand in row.operands:
        key = operand.rstrip("?*")
        fields[key] = (opt_operand_def() if operand.endswith("?") else
                       var_operand_def() if operand.endswith("*") else operand_def())
    for prop, *_ in row.props:
        fields[prop] = opt_prop_def(Attribute)
    for result in row.results:
        fields[result.rstrip("*?")] = (var_result_def() if result.endswith("*") else
                                       opt_result_def() if result.endswith("?") else result_def())
    fields["traits"] = traits_def(*EFFECTS.get(row.family, (Pure(),)), TableCanonicalization(dialect_ops, patterns))
    if flexible > 1:
        fields["irdl_options"] = (AttrSizedOperandSegments(as_property=True),)
    camel = "".join(p.capitalize() for p in op_name.split("_")) + "Op"
    cls = types.new_class(camel, (base,), exec_body=lambda ns: ns.update(fields))
    cls.__module__ = base.__module__
    cls = irdl_op_definition(cls)
    cls.ROW = row
    cls.SHAPE_RULE = shape_rule
    return cls
