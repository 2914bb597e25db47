"""StableHLOBuilder: StableHLO modules built op by op with goldens (seed 002 "build stablehlo module").

`builder.add(in0, in1)`, `builder.cosine(x)`, `builder.reshape(x, [4, 8])`, `builder.dot_general(a, b,
contracting_dims=([1], [0]))`: operands first, then what the op needs. Each op's golden is its meaning in torch,
written here (`GOLDENS`), independent of the compiler's lowering and of the simulator's kernels. Compiling the
module runs `--stablehlo-to-ttir-pipeline` and the TTNN backend.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

import torch
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, ModuleOp, TensorType, UnitAttr, i64
from xdsl.ir import Attribute, Operation

from builder.base.builder import Builder, BuilderError, Operand, elements_attr, mlir_type, torch_dtype
from builder.stablehlo.stablehlo_shardy import ShardyMethods, with_sharding
from ttmlir.dialects import stablehlo as shlo

UNARY = {"abs": torch.abs, "cbrt": lambda x: torch.sign(x) * x.abs() ** (1 / 3), "ceil": torch.ceil,
         "cosine": torch.cos, "exponential": torch.exp, "exponential_minus_one": torch.expm1, "floor": torch.floor,
         "log": torch.log, "log_plus_one": torch.log1p, "logistic": torch.sigmoid, "negate": torch.neg,
         "rsqrt": torch.rsqrt, "sign": torch.sign, "sine": torch.sin, "sqrt": torch.sqrt, "tan": torch.tan,
         "tanh": torch.tanh, "not": lambda x: ~x if x.dtype == torch.bool else torch.bitwise_not(x)}
BINARY = {"add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div,
          "maximum": torch.maximum, "minimum": torch.minimum, "remainder": torch.remainder, "power": torch.pow,
          "atan2": torch.atan2, "and": torch.bitwise_and, "or": torch.bitwise_or, "xor": torch.bitwise_xor}
COMPARE = {"EQ": torch.eq, "NE": torch.ne, "GE": torch.ge, "GT": torch.gt, "LE": torch.le, "LT": torch.lt}


def _dot_general(op, lhs, rhs):
    dims = op.attr("dot_dimension_numbers")
    lb, rb, lc, rc = (list(dims.lhs_batching_dimensions), list(dims.rhs_batching_dimensions),
                      list(dims.lhs_contracting_dimensions), list(dims.rhs_contracting_dimensions))
    lf = [d for d in range(lhs.dim()) if d not in lb + lc]
    rf = [d for d in range(rhs.dim()) if d not in rb + rc]
    a = lhs.permute(lb + lf + lc).reshape(math.prod(lhs.shape[d] for d in lb), math.prod(lhs.shape[d] for d in lf),
                                          math.prod(lhs.shape[d] for d in lc))
    b = rhs.permute(rb + rc + rf).reshape(a.shape[0], a.shape[2], math.prod(rhs.shape[d] for d in rf))
    return torch.bmm(a, b).reshape(*(lhs.shape[d] for d in lb), *(lhs.shape[d] for d in lf),
                                   *(rhs.shape[d] for d in rf))


def _broadcast_in_dim(op, x):
    out, dims = list(op.results[0].type.get_shape()), shlo.ints_of(op.attr("broadcast_dimensions"))
    expanded = [1] * len(out)
    for i, d in enumerate(dims):
        expanded[d] = x.shape[i]
    order = sorted(range(len(dims)), key=lambda i: dims[i])
    return x.permute(order).reshape(expanded).expand(out)


def _slice(op, x):
    starts, limits, strides = (shlo.ints_of(op.attr(k)) for k in ("start_indices", "limit_indices", "strides"))
    return x[tuple(slice(a, b, s) for a, b, s in zip(starts, limits, strides))]


# stablehlo op -> its value in torch, from the op (for its attributes) and its operands' goldens
GOLDENS: dict[str, Callable] = {
    **{n: (lambda fn: lambda op, x: fn(x))(fn) for n, fn in UNARY.items()},
    **{n: (lambda fn: lambda op, a, b: fn(a, b))(fn) for n, fn in BINARY.items()},
    "compare": lambda op, a, b: COMPARE[op.attr("comparison_direction").data](a, b),
    "select": lambda op, p, a, b: torch.where(p, a, b),
    "clamp": lambda op, lo, x, hi: torch.minimum(torch.maximum(x, lo), hi),
    "convert": lambda op, x: x,  # the builder casts every golden to its value's type
    "reshape": lambda op, x: x.reshape(list(op.results[0].type.get_shape())),
    "transpose": lambda op, x: x.permute(list(shlo.ints_of(op.attr("permutation")))),
    "broadcast_in_dim": _broadcast_in_dim,
    "concatenate": lambda op, *xs: torch.cat(xs, dim=shlo.int_of(op.attr("dimension"))),
    "slice": _slice,
    "dot_general": _dot_general,
    "constant": lambda op: _constant_value(op.attr("value")),
}


def _constant_value(attr: DenseIntOrFPElementsAttr) -> torch.Tensor:
    from ttmlir.ir.props import dense_values
    shape = list(attr.type.get_shape())
    return torch.tensor(dense_values(attr), dtype=torch_dtype(attr.type.element_type)).reshape(shape)


class StableHLOBuilder(ShardyMethods, Builder):
    """Builds StableHLO modules with goldens (seed 002)."""

    DIALECT = "stablehlo"
    OPS = shlo.OPS

    def __init__(self, *args, **kwargs):
        """The module names its mesh as shardy does (`sdy.mesh @mesh = <["x"=1, "y"=1]>`); a loaded module that
        declares it already keeps its own, which must be the builder's."""
        from ttmlir.dialects import sdy

        super().__init__(*args, **kwargs)
        self._module.attributes.pop("ttcore.meshes", None)
        mesh = sdy.Mesh(tuple(self._mesh_dict.items()))
        declared = next((op for op in self._module.body.block.ops
                         if isinstance(op, sdy.MeshOp) and op.sym_name.data == self._mesh_name), None)
        if declared is None:
            self._module.body.block.add_op(sdy.MeshOp(self._mesh_name, mesh))
        elif declared.mesh.data.axes != mesh.axes:
            raise BuilderError(f"the module's mesh @{self._mesh_name} is {declared.mesh.data.axes}, not the "
                               f"mesh_dict's {mesh.axes}")

    # --- building ------------------------------------------------------------------------------

    def _build(self, name: str, operands: Sequence[Operand], result: Attribute, props: dict | None = None,
               loc=None, unit_attrs: Sequence[str] | None = None) -> Operand:
        op = shlo.OPS[name].create(operands=list(operands), result_types=[result], properties=props or {})
        op.location = self._location_of(loc)
        for attr in unit_attrs or []:
            op.attributes[attr] = UnitAttr()
        try:
            op.verify()
        except Exception as exc:
            raise BuilderError(str(exc)) from None
        self._insert(op)
        self._goldens[op.results[0]] = self._cast(op.results, self._evaluate_foreign(op))[0]
        return op.results[0]

    def _like(self, value: Operand, shape=None, element=None) -> TensorType:
        return self.tensor_type(element or value.type.element_type,
                                list(value.type.get_shape()) if shape is None else list(shape))

    def _evaluate_foreign(self, op: Operation) -> list:
        sharded = self._evaluate_shardy(op)
        if sharded is not None:
            return sharded
        short = op.name.removeprefix("stablehlo.")
        if short not in GOLDENS:
            raise BuilderError(f"'{op.name}' has no golden")
        maps = [self.current_golden(v) for v in op.operands]
        goldens = {}
        for d in self.devices:
            inputs = [m[d].float() if m[d].is_floating_point() else m[d] for m in maps]
            goldens[d] = GOLDENS[short](op, *inputs)
        return [goldens]

    def prepare_for_flatbuffer(self) -> ModuleOp:
        """A TTNN copy of the module: the StableHLO pipelines, then the TTNN backend for this builder's mesh."""
        from ttmlir.passes import run_pass

        module = run_pass(self._module.clone(), "stablehlo-pipeline")  # shardy's partitioning over the mesh
        module = run_pass(module, "stablehlo-to-ttir-pipeline")
        return run_pass(module, "ttir-to-ttnn-backend-pipeline", mesh_shape=self.mesh_shape)

    # --- ops -----------------------------------------------------------------------------------

    def compare(self, in0: Operand, in1: Operand, comparison_direction: str, compare_type: str | None = None,
                loc=None, unit_attrs=None) -> Operand:
        props = {"comparison_direction": shlo.ComparisonDirectionAttr(comparison_direction)}
        if compare_type is not None:
            props["compare_type"] = shlo.ComparisonTypeAttr(compare_type)
        return self._build("compare", [in0, in1], self._like(in0, element=mlir_type(torch.bool)), props, loc,
                           unit_attrs)

    def select(self, pred: Operand, on_true: Operand, on_false: Operand, loc=None, unit_attrs=None) -> Operand:
        return self._build("select", [pred, on_true, on_false], on_true.type, None, loc, unit_attrs)

    def clamp(self, min: Operand, operand: Operand, max: Operand, loc=None, unit_attrs=None) -> Operand:
        return self._build("clamp", [min, operand, max], operand.type, None, loc, unit_attrs)

    def convert(self, in0: Operand, output_type, loc=None, unit_attrs=None) -> Operand:
        return self._build("convert", [in0], self._like(in0, element=mlir_type(output_type)), None, loc, unit_attrs)

    def reshape(self, in0: Operand, shape: Sequence[int], loc=None, unit_attrs=None) -> Operand:
        return self._build("reshape", [in0], self._like(in0, shape), None, loc, unit_attrs)

    def transpose(self, in0: Operand, permutation: Sequence[int], loc=None, unit_attrs=None) -> Operand:
        shape = in0.type.get_shape()
        return self._build("transpose", [in0], self._like(in0, [shape[p] for p in permutation]),
                           {"permutation": shlo.i64_array(permutation)}, loc, unit_attrs)

    def broadcast_in_dim(self, in0: Operand, shape: Sequence[int], broadcast_dimensions: Sequence[int], loc=None,
                         unit_attrs=None) -> Operand:
        return self._build("broadcast_in_dim", [in0], self._like(in0, shape),
                           {"broadcast_dimensions": shlo.i64_array(broadcast_dimensions)}, loc, unit_attrs)

    def concatenate(self, inputs: Sequence[Operand], dimension: int, loc=None, unit_attrs=None) -> Operand:
        shape = list(inputs[0].type.get_shape())
        shape[dimension] = sum(v.type.get_shape()[dimension] for v in inputs)
        return self._build("concatenate", inputs, self._like(inputs[0], shape),
                           {"dimension": IntegerAttr(dimension, i64)}, loc, unit_attrs)

    def slice(self, in0: Operand, start_indices: Sequence[int], limit_indices: Sequence[int],
              strides: Sequence[int] | None = None, loc=None, unit_attrs=None) -> Operand:
        strides = list(strides or [1] * len(start_indices))
        shape = [-(-(b - a) // s) for a, b, s in zip(start_indices, limit_indices, strides)]
        props = {"start_indices": shlo.i64_array(start_indices), "limit_indices": shlo.i64_array(limit_indices),
                 "strides": shlo.i64_array(strides)}
        return self._build("slice", [in0], self._like(in0, shape), props, loc, unit_attrs)

    def dot_general(self, lhs: Operand, rhs: Operand, contracting_dims=((), ()), batching_dims=((), ()), loc=None,
                    unit_attrs=None) -> Operand:
        (lb, rb), (lc, rc) = batching_dims, contracting_dims
        ls, rs = lhs.type.get_shape(), rhs.type.get_shape()
        shape = [ls[d] for d in lb] + [n for i, n in enumerate(ls) if i not in (*lb, *lc)] + \
            [n for i, n in enumerate(rs) if i not in (*rb, *rc)]
        dims = shlo.DotDimensionNumbersAttr.get(lhs_batching_dimensions=tuple(lb), rhs_batching_dimensions=tuple(rb),
                                                lhs_contracting_dimensions=tuple(lc),
                                                rhs_contracting_dimensions=tuple(rc))
        return self._build("dot_general", [lhs, rhs], self._like(lhs, shape), {"dot_dimension_numbers": dims}, loc,
                           unit_attrs)

    def constant(self, value, loc=None, unit_attrs=None) -> Operand:
        attr = elements_attr(value)
        return self._build("constant", [], self.tensor_type(attr.type.element_type, attr.type.get_shape()),
                           {"value": attr}, loc, unit_attrs)


def _unary(name: str):
    def method(self, in0: Operand, loc=None, unit_attrs=None) -> Operand:
        return self._build(name, [in0], in0.type, None, loc, unit_attrs)
    method.__name__ = name
    method.__doc__ = f"stablehlo.{name} of `in0`."
    return method


def _binary(name: str):
    def method(self, in0: Operand, in1: Operand, loc=None, unit_attrs=None) -> Operand:
        return self._build(name, [in0, in1], in0.type, None, loc, unit_attrs)
    method.__name__ = name
    method.__doc__ = f"stablehlo.{name} of `in0` and `in1` (same shape)."
    return method


for _name in UNARY:
    setattr(StableHLOBuilder, "not_" if _name == "not" else _name, _unary(_name))
for _name in BINARY:
    setattr(StableHLOBuilder, f"{_name}_" if _name in ("and", "or") else _name, _binary(_name))
# every op method also takes `sharding_attr=` (shardy's per-value sharding of the op it builds)
for _name in sorted({*shlo.OPS, "not_", "and_", "or_"}):
    if callable(_method := getattr(StableHLOBuilder, _name, None)):  # the shardy mixin's all_gather too
        setattr(StableHLOBuilder, _name, with_sharding(_method))
