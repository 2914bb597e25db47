"""Shardy's `sdy` dialect: meshes, tensor shardings, manual computations, reshards and the shardy collectives,
read and printed in shardy's own syntax (`sdy.mesh @mesh = <["x"=1, "y"=2]>`, `#sdy.sharding<@mesh, [{"y"}, {?}]>`,
`sdy.manual_computation(%a) in_shardings=[...] out_shardings=[...] manual_axes={"y"} (%b: ...) {...} : ...`).

A sharding names its mesh by symbol; a name that no `sdy.mesh` defines, or an axis the mesh lacks, is a located
error on the op (or function argument/result) that carries it.
"""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr, TensorType
from xdsl.ir import Attribute, Data, Dialect, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, region_def, result_def, traits_def, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, IsTerminator, NoMemoryEffect, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException
from ttmlir.dialects.sdy_attrs import *  # noqa: F401,F403 - the dialect's attributes and types are sdy.<Name> too


# ---------------------------------------------------------------------------------------------------------------
# The values behind the attributes

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
