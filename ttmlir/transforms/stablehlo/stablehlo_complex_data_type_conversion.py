"""`--stablehlo-complex-data-type-conversion`: complex tensors become real tensors with a trailing dimension of 2.

`tensor<3x4xcomplex<f32>>` becomes `tensor<3x4x2xf32>`, each element's real part then its imaginary part (the
bytes of a complex constant are already in that order). Function signatures, manual computations (whose
shardings gain a closed, unsplit last dimension) and data-movement ops follow the new types; `stablehlo.complex`,
`real` and `imag` become reshapes, a concatenate or slice, and transposes that move the pair dimension to the
front while it is cut or joined (a trailing dimension of 2 does not fill a tile). Elementwise complex math must
have been expanded first (`--stablehlo-complex-math-expander`); any other op on complex values is refused,
naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (ArrayAttr, BytesAttr, ComplexType, DenseIntOrFPElementsAttr, DictionaryAttr,
                                   FunctionType, IntegerAttr, ModuleOp, TensorType, i64)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from ttmlir.dialects import sdy
from ttmlir.dialects import stablehlo as shlo
from ttmlir.errors import PassFailure

# ops that only move or forward whole elements: their attributes stay valid with a trailing pair dimension
PASSTHROUGH = frozenset({"stablehlo.reshape", "stablehlo.concatenate", "stablehlo.reverse", "stablehlo.composite",
                         "stablehlo.all_to_all", "stablehlo.all_gather", "stablehlo.collective_permute",
                         "stablehlo.optimization_barrier", "stablehlo.return", "func.call", "func.return",
                         "sdy.return"})


def is_complex(t: Attribute) -> bool:
    return isinstance(t, TensorType) and isinstance(t.element_type, ComplexType)


def unpacked(t: Attribute) -> Attribute:
    """`tensor<..xcomplex<fN>>` as `tensor<..x2xfN>`; other types as they are."""
    if not is_complex(t):
        return t
    return TensorType(t.element_type.element_type, [*t.get_shape(), 2])


def _retype(values) -> None:
    for value in list(values):
        if is_complex(value.type):
            Rewriter.replace_value_with_new_type(value, unpacked(value.type))


def _shardings(attr: sdy.ShardingPerValueAttr, types) -> sdy.ShardingPerValueAttr:
    """One more dimension, closed and unsplit, for each complex value's sharding."""
    return sdy.ShardingPerValueAttr(tuple(s._replace(dims=(*s.dims, sdy.DimSharding())) if is_complex(t) else s
                                          for s, t in zip(attr.data, types)))


def _arg_attrs(attrs: ArrayAttr | None, types) -> ArrayAttr | None:
    if attrs is None:
        return None
    out = []
    for d, t in zip(attrs.data, types):
        s = d.data.get("sdy.sharding")
        if is_complex(t) and isinstance(s, sdy.ShardingAttr):
            d = DictionaryAttr({**d.data, "sdy.sharding": sdy.ShardingAttr(s.data._replace(
                dims=(*s.data.dims, sdy.DimSharding())))})
        out.append(d)
    return ArrayAttr(out)


class _At:
    """New stablehlo ops in front of `op`."""

    def __init__(self, op: Operation):
        self.op = op

    def __call__(self, name: str, operands, type_: Attribute, **props) -> SSAValue:
        new = shlo.OPS[name].create(operands=list(operands), result_types=[type_], properties=props)
        Rewriter.insert_op(new, InsertPoint.before(self.op))
        return new.results[0]

    def transpose(self, value: SSAValue, perm: list[int]) -> SSAValue:
        shape = value.type.get_shape()
        return self("transpose", [value], TensorType(value.type.element_type, [shape[p] for p in perm]),
                    permutation=shlo.i64_array(perm))


def _complex(op: Operation) -> SSAValue:
    """complex(re, im): each part reshaped to 1xS, joined on dim 0, the pair dimension moved last."""
    at, (re, im) = _At(op), op.operands
    element, shape = re.type.element_type, list(re.type.get_shape())
    parts = [at("reshape", [v], TensorType(element, [1, *shape])) for v in (re, im)]
    joined = at("concatenate", parts, TensorType(element, [2, *shape]), dimension=IntegerAttr(0, i64))
    return at.transpose(joined, [*range(1, len(shape) + 1), 0])


def _part(index: int):
    def rewrite(op: Operation) -> SSAValue:
        """real/imag(x): the pair dimension moved first, row `index` sliced out, the leading 1 reshaped away."""
        at, value = _At(op), op.operands[0]
        rank = len(value.type.get_shape())
        front = at.transpose(value, [rank - 1, *range(rank - 1)])
        shape = list(front.type.get_shape())
        piece = at("slice", [front], TensorType(front.type.element_type, [1, *shape[1:]]),
                   start_indices=shlo.i64_array([index] + [0] * (rank - 1)),
                   limit_indices=shlo.i64_array([index + 1, *shape[1:]]), strides=shlo.i64_array([1] * rank))
        return at("reshape", [piece], op.results[0].type)
    return rewrite


def _constant(op: Operation) -> None:
    value, new_type = op.properties["value"], op.results[0].type
    data, count = value.data.data, new_type.element_count()
    half = len(data) // 2
    if len(value.get_values()) == 1 and count > 2:  # a splat of (re, im) is a splat of reals only when re == im
        data = data[:half] if data[:half] == data[half:] else data * (count // 2)
    op.properties["value"] = DenseIntOrFPElementsAttr(new_type, BytesAttr(data))


def _broadcast_in_dim(op: Operation) -> None:
    dims = shlo.ints_of(op.properties["broadcast_dimensions"])
    op.properties["broadcast_dimensions"] = shlo.i64_array([*dims, len(op.results[0].type.get_shape()) - 1])


def _transpose(op: Operation) -> None:
    perm = shlo.ints_of(op.properties["permutation"])
    op.properties["permutation"] = shlo.i64_array([*perm, len(perm)])


def _slice(op: Operation) -> None:
    for key, extra in (("start_indices", 0), ("limit_indices", 2), ("strides", 1)):
        op.properties[key] = shlo.i64_array([*shlo.ints_of(op.properties.get(key)), extra])


def _gather(op: Operation) -> None:
    numbers = op.properties["dimension_numbers"]
    fields = {name: getattr(numbers, name) for name, _ in numbers.FIELDS}
    fields["offset_dims"] = (*fields["offset_dims"], len(op.results[0].type.get_shape()) - 1)
    op.properties["dimension_numbers"] = type(numbers).get(**fields)
    op.properties["slice_sizes"] = shlo.i64_array([*shlo.ints_of(op.properties["slice_sizes"]), 2])


def _select(op: Operation) -> None:
    """A per-element predicate is broadcast over the pair dimension (a scalar one picks whole tensors as it is)."""
    pred = op.operands[0]
    shape = list(pred.type.get_shape())
    if shape:
        wide = _At(op)("broadcast_in_dim", [pred], TensorType(pred.type.element_type, [*shape, 2]),
                       broadcast_dimensions=shlo.i64_array(list(range(len(shape)))))
        op.operands[0] = wide


REPLACE = {"stablehlo.complex": _complex, "stablehlo.real": _part(0), "stablehlo.imag": _part(1)}
UPDATE = {"stablehlo.constant": _constant, "stablehlo.broadcast_in_dim": _broadcast_in_dim,
          "stablehlo.transpose": _transpose, "stablehlo.slice": _slice, "stablehlo.gather": _gather,
          "stablehlo.select": _select}


def _function(func: FuncOp) -> None:
    ins, outs = func.function_type.inputs.data, func.function_type.outputs.data
    func.arg_attrs = _arg_attrs(func.arg_attrs, ins)
    func.res_attrs = _arg_attrs(func.res_attrs, outs)
    func.function_type = FunctionType.from_lists([unpacked(t) for t in ins], [unpacked(t) for t in outs])
    if func.body.blocks:
        _retype(func.body.block.args)


def _manual_computation(op: sdy.ManualComputationOp) -> None:
    op.in_shardings = _shardings(op.in_shardings, [a.type for a in op.body.block.args])
    op.out_shardings = _shardings(op.out_shardings, [r.type for r in op.results])
    _retype(op.body.block.args)
    _retype(op.results)


def _touches_complex(op: Operation) -> bool:
    if isinstance(op, FuncOp):
        return any(map(is_complex, (*op.function_type.inputs.data, *op.function_type.outputs.data)))
    values = [*op.operands, *op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
    return any(is_complex(v.type) for v in values)


@dataclass(frozen=True)
class StableHLOComplexDataTypeConversionPass(ModulePass):
    """Convert complex data types to float pair representations in StableHLO."""

    name: ClassVar[str] = "stablehlo-complex-data-type-conversion"

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        # decided before anything changes: converting a producer hides its users' complex operands
        for op in [op for op in module.walk() if _touches_complex(op)]:
            sharding = op.attributes.get("sdy.sharding")
            if isinstance(sharding, sdy.ShardingPerValueAttr):
                op.attributes["sdy.sharding"] = _shardings(sharding, [r.type for r in op.results])
            if isinstance(op, FuncOp):
                _function(op)
            elif isinstance(op, sdy.ManualComputationOp):
                _manual_computation(op)
            elif op.name in REPLACE:
                op.results[0].replace_all_uses_with(REPLACE[op.name](op))
                Rewriter.erase_op(op)
            elif op.name in UPDATE:
                _retype(op.results)
                UPDATE[op.name](op)
            elif op.name in PASSTHROUGH:
                _retype(op.results)
            else:
                raise PassFailure(op, f"'{op.name}' op on complex values is not supported (elementwise complex "
                                      "math is expanded by --stablehlo-complex-math-expander first)")
