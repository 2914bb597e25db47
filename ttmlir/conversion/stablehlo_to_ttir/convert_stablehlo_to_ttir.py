"""`--convert-stablehlo-to-ttir`: StableHLO ops become TTIR ops, one pattern per op family.

Elementwise ops map one to one (`ELEMENTWISE`); the others are functions in `PATTERNS`, each building the TTIR
ops that compute the StableHLO op's result. An op nothing lowers is a located error naming it; with
`enable-partial-conversion` it stays (for the CPU fallback to take it).
"""

from __future__ import annotations

import math

import numpy as np
from dataclasses import dataclass
from typing import Callable, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import (AnyFloat, BytesAttr, DenseIntOrFPElementsAttr, Float32Type, FloatAttr, IntegerAttr,
                                   IntegerType, ModuleOp, ReducedPrecisionFloatType, StringAttr, TensorType)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from ttmlir.ir.props import KINDS, default_attr
from ttmlir.dialects import quant
from ttmlir.dialects.stablehlo import int_of, ints_of
from ttmlir.errors import PassFailure
from ttmlir.conversion.stablehlo_to_ttir.gspmd import convert_gspmd_to_ttir
from ttmlir.conversion.stablehlo_to_ttir.shardy import convert_shardy_to_ttir
from ttmlir.conversion.stablehlo_to_ttir.ccl import convert_stablehlo_ccl_to_ttir
from ttmlir.conversion.stablehlo_to_ttir import composite_calls, gather, windowed
from ttmlir.conversion.stablehlo_to_ttir.lowering import (PASS_THROUGH, Builder, broadcast_to, interior_pad, is_bool,
                                                          refuse, shape, slice_from, splat_of, tensor)
from ttmlir.transforms.stablehlo.cpu_hoist_non_lowerable_shlo_ops import host_can_run

# stablehlo op -> ttir op, for ops whose operands, result and meaning are the same
ELEMENTWISE = {"abs": "abs", "cbrt": "cbrt", "ceil": "ceil", "cosine": "cos", "exponential": "exp",
               "exponential_minus_one": "expm1", "floor": "floor", "is_finite": "isfinite", "log": "log",
               "log_plus_one": "log1p", "logistic": "sigmoid", "negate": "neg", "rsqrt": "rsqrt", "sign": "sign",
               "sine": "sin", "sqrt": "sqrt", "tan": "tan", "tanh": "tanh", "convert": "typecast",
               "bitcast_convert": "bitcast_convert", "add": "add", "divide": "div", "maximum": "maximum",
               "minimum": "minimum", "multiply": "multiply", "subtract": "subtract", "remainder": "remainder",
               "power": "pow", "atan2": "atan2", "shift_left": "logical_left_shift",
               "shift_right_logical": "logical_right_shift", "select": "where"}
# boolean (i1) operands make these logical, integers bitwise
LOGICAL = {"and": "and", "or": "or", "xor": "xor", "not": "not"}
COMPARE = {"EQ": "eq", "NE": "ne", "GE": "ge", "GT": "gt", "LE": "le", "LT": "lt"}
# the body op of a one-input reduce -> the TTIR reduction
FLOAT_MAX = {"f16": 65504.0, "bf16": 3.3895313892515355e38, "f32": 3.4028234663852886e38}
REDUCTIONS = {"stablehlo.add": "sum", "stablehlo.maximum": "max", "stablehlo.minimum": "min",
              "stablehlo.multiply": "prod", "stablehlo.and": "reduce_and", "stablehlo.or": "reduce_or"}


# ---------------------------------------------------------------------------------------------------------------
# Patterns: each returns the values that replace the op's results.


def _owner_named(value: SSAValue, name: str) -> Operation | None:
    owner = value.owner
    return owner if getattr(owner, "name", None) == name else None


def _bool_as_int(value: SSAValue) -> SSAValue | None:
    """The boolean a typecast to an integer type was made from (XLA computes bitwise ops of booleans so)."""
    cast = _owner_named(value, "ttir.typecast")
    return cast.operands[0] if cast is not None and is_bool(tensor(cast.operands[0])) else None


# the spec's arithmetic on booleans: add and maximum are or, multiply and minimum are and
BOOLEAN_ARITHMETIC = {"add": "logical_or", "maximum": "logical_or", "multiply": "logical_and",
                      "minimum": "logical_and"}


def elementwise(b: Builder, op) -> list[SSAValue]:
    name = op.name.split(".", 1)[1]
    ttir = ELEMENTWISE.get(name)
    operands = list(op.operands)
    out = op.results[0].type
    if name in BOOLEAN_ARITHMETIC and is_bool(out):
        return [b.ttir(BOOLEAN_ARITHMETIC[name], operands, out)]
    if name == "convert" and is_bool(out) and not is_bool(tensor(operands[0])):  # x != 0, not a truncation
        return [b.ttir("ne", [operands[0], b.constant(0, tensor(operands[0]))], out)]
    if name == "remainder" and isinstance(out.element_type, AnyFloat):
        return [_dividend_signed_remainder(b, operands[0], operands[1], out)]
    if ttir is None:  # and/or/xor/not
        bools = [_bool_as_int(v) for v in operands]
        if None not in bools:  # booleans widened to integers: the logical op on the booleans, widened back
            out = tensor(op.results[0])
            logical = b.ttir(f"logical_{LOGICAL[name]}", bools, TensorType(IntegerType(1), out.get_shape()))
            return [b.ttir("typecast", [logical], out)]
        kind = "logical" if is_bool(tensor(op.results[0])) else "bitwise"
        ttir = f"{kind}_{LOGICAL[name]}"
    if name == "divide" and (pool := _average_pool_times(operands[0], splat_of(operands[1]))) is not None:
        return [pool]
    if name == "select" and shape(operands[0]) != shape(op.results[0]):  # a scalar predicate chooses everywhere
        operands[0] = broadcast_to(b, operands[0], shape(op.results[0]))
    return [b.ttir(ttir, operands, op.results[0].type)]


def _dividend_signed_remainder(b: Builder, x: SSAValue, y: SSAValue, t: TensorType) -> SSAValue:
    """The spec's remainder (C's fmod: the dividend's sign) from TTIR's, which takes the divisor's: a nonzero
    remainder of the other sign than x is moved back by y."""
    r = b.ttir("remainder", [x, y], t)
    flags = TensorType(IntegerType(1), t.get_shape())
    zero = b.constant(0.0, t)
    differs = b.ttir("logical_xor", [b.ttir("lt", [r, zero], flags), b.ttir("lt", [x, zero], flags)], flags)
    moved = b.ttir("logical_and", [differs, b.ttir("ne", [r, zero], flags)], flags)
    return b.ttir("where", [moved, b.ttir("subtract", [r, y], t), r], t)


def broadcast_in_dim(b: Builder, op) -> list[SSAValue]:
    return [broadcast_to(b, op.operands[0], shape(op.results[0]), ints_of(op.attr("broadcast_dimensions")))]


def constant(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("constant", [], op.results[0].type, value=op.attr("value"))]


def reshape(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("reshape", [op.operands[0]], op.results[0].type, shape=list(shape(op.results[0])))]


def transpose(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("permute", [op.operands[0]], op.results[0].type, permutation=ints_of(op.attr("permutation")))]


def concatenate(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("concat", list(op.operands), op.results[0].type, dim=int_of(op.attr("dimension")))]


def slice_(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("slice_static", [op.operands[0]], op.results[0].type,
                   begins=ints_of(op.attr("start_indices")), ends=ints_of(op.attr("limit_indices")),
                   step=ints_of(op.attr("strides")))]


def dynamic_slice(b: Builder, op) -> list[SSAValue]:
    """Start indices gathered into one tensor and clamped so the window stays inside the operand (StableHLO's
    rule); the ends are the starts plus the window's sizes."""
    operand, *starts = op.operands
    return [slice_from(b, operand, starts, ints_of(op.attr("slice_sizes")), op.results[0].type)]


def _average_pool_times(value: SSAValue, divisor) -> SSAValue | None:
    """The average pool a windowed sum was made of (average times the window's size), when `divisor` is that
    size: the sum divided by it is the average."""
    product = _owner_named(value, "ttir.multiply")
    if product is None or divisor is None or _owner_named(product.operands[0], "ttir.avg_pool2d") is None:
        return None
    return product.operands[0] if splat_of(product.operands[1]) == divisor else None


def compare(b: Builder, op) -> list[SSAValue]:
    direction = op.attr("comparison_direction").data
    lhs, rhs = op.operands
    if direction == "NE" and splat_of(rhs) == 0 and (flag := _bool_as_int(lhs)) is not None:
        return [flag]  # a boolean widened to an integer, compared with 0: the boolean itself
    if (pair := _narrowed(b, lhs, rhs)) is not None:
        lhs, rhs = pair
    elif (pair := _narrowed(b, rhs, lhs)) is not None:
        rhs, lhs = pair
    return [b.ttir(COMPARE[direction], [lhs, rhs], op.results[0].type)]


def _narrowed(b: Builder, value: SSAValue, other: SSAValue) -> tuple[SSAValue, SSAValue] | None:
    """A float widened by a typecast and compared with a constant of the wider type is compared in its own type
    (as the frontend's source did: XLA widens `bf16 < 0.99`), the constant rounded to it."""
    cast, const = _owner_named(value, "ttir.typecast"), _owner_named(other, "ttir.constant")
    if cast is None or const is None:
        return None
    narrow, wide = tensor(cast.operands[0]).element_type, tensor(value).element_type
    if not (isinstance(narrow, AnyFloat) and isinstance(wide, AnyFloat)) or narrow.bitwidth >= wide.bitwidth:
        return None
    attr = const.prop("value")
    values = wide.unpack(attr.data.data, len(attr.data.data) // wide.size)
    if any(math.isfinite(v) and abs(v) > FLOAT_MAX.get(str(narrow), math.inf) for v in values):
        return None  # the constant overflows the narrow type
    narrow_type = TensorType(narrow, tensor(other).get_shape())
    return cast.operands[0], b.ttir("constant", [], narrow_type,
                                    value=DenseIntOrFPElementsAttr(narrow_type, BytesAttr(narrow.pack(values))))


def iota(b: Builder, op) -> list[SSAValue]:
    dim, out = int_of(op.attr("iota_dimension")), shape(op.results[0])
    return [b.ttir("arange", [], op.results[0].type, start=0, end=out[dim], step=1, arange_dimension=dim)]


def dynamic_iota(b: Builder, op) -> list[SSAValue]:
    """The result type is static here, so the shape operand says nothing more: an iota."""
    return iota(b, op)


def round_nearest_afz(b: Builder, op) -> list[SSAValue]:
    """Halves away from zero: sign(x) * floor(|x| + 0.5)."""
    x, t = op.operands[0], op.results[0].type
    half = b.splat(0.5, t)
    floor = b.ttir("floor", [b.ttir("add", [b.ttir("abs", [x], t), half], t)], t)
    return [b.ttir("multiply", [b.ttir("sign", [x], t), floor], t)]


def clamp(b: Builder, op) -> list[SSAValue]:
    low, x, high = op.operands
    return [b.ttir("clamp_tensor", [x, low, high], op.results[0].type)]


def dot_general(b: Builder, op) -> list[SSAValue]:
    dims = op.attr("dot_dimension_numbers")
    return [b.ttir("dot_general", list(op.operands), op.results[0].type,
                   batch_dims_lhs=dims.lhs_batching_dimensions, contract_dims_lhs=dims.lhs_contracting_dimensions,
                   batch_dims_rhs=dims.rhs_batching_dimensions, contract_dims_rhs=dims.rhs_contracting_dimensions)]


def dot(b: Builder, op) -> list[SSAValue]:
    lhs, rhs = op.operands
    return [b.ttir("dot_general", [lhs, rhs], op.results[0].type, batch_dims_lhs=[], batch_dims_rhs=[],
                   contract_dims_lhs=[len(shape(lhs)) - 1], contract_dims_rhs=[0])]


def _reduce_kind(op) -> str | None:
    """Which TTIR reduction a reduce's body computes: one op applied to the two arguments, or argmax's
    (value, index) pair selection."""
    body = op.regions[0].block
    ops = list(body.ops)
    n = len(op.operands) // 2
    if n == 1 and len(ops) == 2 and set(ops[0].operands) == set(body.args[:2]) and \
            list(ops[1].operands) == list(ops[0].results):
        return REDUCTIONS.get(ops[0].name)
    if n == 2:
        names = [o.name for o in ops]
        compares = [o for o in ops if o.name == "stablehlo.compare"]
        if compares and names[-1] == "stablehlo.return" and \
                compares[0].attr("comparison_direction").data in ("GE", "GT"):
            return "argmax"
    return None


def reduce(b: Builder, op) -> list[SSAValue]:
    kind = _reduce_kind(op)
    dims = list(ints_of(op.attr("dimensions")))
    n = len(op.operands) // 2
    if kind is None:
        raise refuse(op, "body is not a reduction TTIR has (sum, max, min, prod, and, "
                              "or, argmax)")
    if kind == "argmax":
        source, init = op.operands[0], op.operands[n]
        start = splat_of(init)
        if start is None or not (start == float("-inf") or _is_extreme(start, init, "max") or
                                 (isinstance(start, float) and start <= -FLOAT_MAX.get(str(init.type.element_type),
                                                                                        math.inf))):
            raise refuse(op, "an argmax's initial value must be the lowest value (here it can change the result)")
        index = b.ttir("argmax", [source], op.results[1].type, keep_dim=False, dim_arg=dims)
        value = b.ttir("max", [source], op.results[0].type, keep_dim=False, dim_arg=dims)
        return [value, index]
    result = b.ttir(kind, [op.operands[0]], op.results[0].type, keep_dim=False, dim_arg=dims)
    init, value = op.operands[n], splat_of(op.operands[n])
    # an init value that changes nothing (0 for a sum, -inf for a max, ...) is dropped; another one is combined in
    neutral = {"sum": (0,), "prod": (1,), "reduce_or": (0,), "reduce_and": (1,),
               "max": (float("-inf"),), "min": (float("inf"),)}[kind]
    if value is not None and (value in neutral or (kind in ("max", "min") and _is_extreme(value, init, kind))):
        return [result]
    combine = {"sum": "add", "prod": "multiply", "reduce_or": "logical_or", "reduce_and": "logical_and",
               "max": "maximum", "min": "minimum"}[kind]
    return [b.ttir(combine, [result, broadcast_to(b, init, shape(op.results[0]))], op.results[0].type)]


def _is_extreme(value, init: SSAValue, kind: str) -> bool:
    """An integer max's init at the type's least value (a min's at its greatest)."""
    element = init.type.element_type
    if not isinstance(element, IntegerType):
        return False
    width = element.width.data
    signed = element.signedness.data.name != "UNSIGNED" and width > 1  # booleans: false is the least
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    return value == (low if kind == "max" else high)


def pad(b: Builder, op) -> list[SSAValue]:
    """Edge padding (a negative amount removes elements: --ttir-to-ttir-decomposition slices them) after any
    interior padding. TTIR's pad value is an f32: an integer fill f32 cannot hold is padded by fills of it
    concatenated on."""
    value = splat_of(op.operands[1])
    if value is None:
        raise refuse(op, "padding value must be a constant")
    low, high = ints_of(op.attr("edge_padding_low")), ints_of(op.attr("edge_padding_high"))
    x, interior = op.operands[0], ints_of(op.attr("interior_padding"))
    if any(interior):
        x = interior_pad(b, x, interior, value)
    if not any((*low, *high)):
        return [x]
    if isinstance(value, int) and int(float(np.float32(value))) != value:
        return [_padded_by_fills(b, x, low, high, value)]
    return [b.ttir("pad", [x], op.results[0].type, padding=[v for p in zip(low, high) for v in p],
                   value=FloatAttr(float(value), Float32Type()))]


def _padded_by_fills(b: Builder, x: SSAValue, low, high, value: int) -> SSAValue:
    """`x` padded dim by dim: negative amounts sliced off, positive ones as fills of `value` concatenated on."""
    for dim, (before, after) in enumerate(zip(low, high)):
        src = list(shape(x))
        if before < 0 or after < 0:
            begins = [max(0, -before) if d == dim else 0 for d in range(len(src))]
            ends = [n - max(0, -after) if d == dim else n for d, n in enumerate(src)]
            x = b.ttir("slice_static", [x], TensorType(x.type.element_type, [e - g for g, e in zip(begins, ends)]),
                       begins=begins, ends=ends, step=[1] * len(src))
            src = list(shape(x))
        parts = [x]
        if before > 0:
            parts.insert(0, b.constant(value, x.type, src[:dim] + [before] + src[dim + 1:]))
        if after > 0:
            parts.append(b.constant(value, x.type, src[:dim] + [after] + src[dim + 1:]))
        if len(parts) > 1:
            total = sum(shape(p)[dim] for p in parts)
            x = b.ttir("concat", parts, TensorType(x.type.element_type, [total if d == dim else n
                                                                         for d, n in enumerate(src)]), dim=dim)
    return x


def reverse(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("reverse", [op.operands[0]], op.results[0].type, dimensions=ints_of(op.attr("dimensions")))]


def optimization_barrier(b: Builder, op) -> list[SSAValue]:
    from ttmlir.dialects.ttcore import OptimizationBarrierOp
    barrier = OptimizationBarrierOp.create(operands=list(op.operands), result_types=[r.type for r in op.results])
    barrier.location = op.location
    b.ops.append(barrier)
    return list(barrier.results)


def get_dimension_size(b: Builder, op) -> list[SSAValue]:
    """A static dimension's size is a constant."""
    size = shape(op.operands[0])[int_of(op.attr("dimension"))]
    value = DenseIntOrFPElementsAttr.from_list(op.results[0].type, [size])
    return [b.ttir("constant", [], op.results[0].type, value=value)]


def empty(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("empty", [], op.results[0].type)]


def top_k(b: Builder, op) -> list[SSAValue]:
    values, indices = op.results
    new = b.ttir_op("topk", [op.operands[0]], [values.type, indices.type], k=int_of(op.attr("k")), dim=-1,
                    largest=True, sorted=True)
    return list(new.results)


# custom_call targets that are one TTIR op: the TTIR row says the operands (optional ones present as the
# frontend attributes' `has_<operand>` say, else in order) and the properties (from the attributes' strings)
CUSTOM_CALLS = {"mhlo.erf": "erf", "mhlo.asinh": "asinh", "mhlo.topk": "topk", "tt.tt_lang_op": "tt_lang_op",
                **{f"tt.{n}": n for n in ("update_cache", "fill_cache", "paged_update_cache", "paged_fill_cache",
                                          "scaled_dot_product_attention", "scaled_dot_product_attention_decode",
                                          "paged_scaled_dot_product_attention_decode", "sampling",
                                          "chunked_scaled_dot_product_attention",
                                          "paged_flash_multi_latent_attention_decode", "all_to_all_dispatch",
                                          "all_to_all_combine", "moe_expert_token_remap", "sparse_matmul")},
                "tt.paged_flash_mla_decode": "paged_flash_multi_latent_attention_decode"}


# calls whose operands come in another order than their TTIR op's
CALL_ORDER = {"tt.scaled_dot_product_attention_decode": ("query", "key", "value", "cur_pos_tensor", "attention_mask?",
                                                         "attention_sink?")}


# frontend attribute values that mean "unset": sparse_matmul's nnz 0 is "count the sparsity at run time" (the
# TTIR op's nnz, when set, is that count)
UNSET = {"tt.sparse_matmul": {"nnz": 0}}


def _frontend_value(text: str):
    if text in ("True", "False", "true", "false"):
        return text in ("True", "true")
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def mark_argument(b: Builder, op) -> list[SSAValue]:
    """`tt.mark_argument` (torch-xla's marker of what an argument is) passes its operand through; a function
    argument it marks directly gets the `ttcore.argument_type` (and `ttir.name`) it names."""
    from xdsl.dialects.func import FuncOp

    from ttmlir.dialects import ttcore
    from ttmlir.transforms.shardy.sdy_user_priority_propagate import set_func_attr
    value = argument = op.operands[0]
    while getattr(argument.owner, "name", None) in PASS_THROUGH:  # marked after a reshape or conversion of it
        argument = argument.owner.operands[0]
    attrs = op.attributes.get("mhlo.frontend_attributes")
    func = argument.owner.parent_op() if isinstance(argument, BlockArgument) else None
    if isinstance(func, FuncOp) and attrs is not None:
        kind, name = attrs.data.get("ttcore.argument_type"), attrs.data.get("ttir.name")
        if isinstance(kind, StringAttr) and kind.data in ("input", "parameter", "constant", "default"):
            set_func_attr(func, argument.index, "arg_attrs", "ttcore.argument_type",
                          ttcore.ArgumentTypeAttr(ttcore.ArgumentTypeAttr.enum_type(kind.data)))
        if isinstance(name, StringAttr):
            set_func_attr(func, argument.index, "arg_attrs", "ttir.name", name)
    return [value]


def custom_call(b: Builder, op) -> list[SSAValue]:
    from ttmlir.dialects.ttir import TTIR_OP_CLASSES
    target = op.attr("call_target_name").data
    if target == "tt.mark_argument":
        return mark_argument(b, op)
    if target in composite_calls.CALLS:
        return composite_calls.composite_call(b, op)
    name = CUSTOM_CALLS.get(target)
    if name is None:
        raise PassFailure(op, f"failed to legalize operation 'stablehlo.custom_call' (call target '{target}')")
    row = TTIR_OP_CLASSES[name].ROW
    given: dict[str, object] = {}
    kinds = {p: kind for p, kind, _, _ in row.props}
    for key in ("mhlo.frontend_attributes", "mhlo.attributes"):
        if (attrs := op.attributes.get(key)) is not None:
            for k, v in attrs.data.items():
                text = isinstance(v, StringAttr) and kinds.get(k) != "str"  # a string property keeps its text
                given[k] = _frontend_value(v.data) if text else v.data if isinstance(v, StringAttr) else \
                    bool(v.value.data) if isinstance(v, IntegerAttr) and v.type.width.data == 1 else \
                    v.value.data if isinstance(v, (IntegerAttr, FloatAttr)) else v
    given = {k: v for k, v in given.items() if UNSET.get(target, {}).get(k, object()) != v}
    operands, rest = list(op.operands), list(op.operands)
    if row.operands == ("inputs*",):  # tt.tt_lang_op: the call passes the inputs; each result gets a destination
        rest += [b.ttir("empty", [], r.type) for r in op.results]
    # the call passes its operands in the row's order (some calls in their own, CALL_ORDER), the optional ones that
    # are present as its `has_<operand>` attributes say; an `output` operand is a destination made here
    taken: dict[str, list[SSAValue]] = {}
    optional = [s for s in row.operands if s.endswith("?")]
    flags = any(f"has_{s.rstrip('?')}" in given for s in optional)
    room = len(rest) - sum(not s.endswith(("?", "*")) and s != "output" for s in row.operands)
    for spec in CALL_ORDER.get(target, row.operands):
        if spec == "output":
            taken[spec] = [b.ttir("empty", [], op.results[0].type)]
        elif spec.endswith("*"):
            taken[spec], rest = rest, []
        elif spec.endswith("?"):
            take = int(bool(given.get(f"has_{spec.rstrip('?')}"))) if flags else int(room > 0)
            taken[spec], rest, room = rest[:take], rest[take:], room - take
        elif not rest:
            raise refuse(op, f"{target} takes at least {len(operands) + 1} operands, got {len(operands)}")
        else:
            taken[spec], rest = rest[:1], rest[1:]
    if rest:
        raise refuse(op, f"{target} takes at most {len(operands) - len(rest)} "
                              f"operands, got {len(operands)}")
    groups = [taken[spec] for spec in row.operands]
    # every property spelled out, its table default where the call gives none, as upstream builds these ops
    props = {p: default_attr(kind, default) for p, kind, default, _ in row.props if default is not None}
    props.update({k: KINDS[kinds[k]].build(v) for k, v in given.items() if k in kinds})
    segments = [len(g) for g in groups] if sum(n[-1] in "?*" for n in row.operands) > 1 else None
    flat = [v for g in groups for v in g]
    if not row.results:  # an in-place cache update: the updated cache is the cache operand itself
        b.ttir_op(name, flat, [], segments, **props)
        return [flat[0]]
    new = b.ttir_op(name, flat, [r.type for r in op.results], segments, **props)
    return list(new.results)


def _key_of(value: SSAValue, keys: tuple) -> int | None:
    """Which of the comparator's two key arguments `value` is, seen through the canonicalization JAX puts in
    front of a float comparison (-0 made +0: `select(x == 0, 0, x)`; NaNs made one NaN: `select(x != x, nan, x)`),
    which the sort's order does not change."""
    if value in keys:
        return keys.index(value)
    owner = value.owner
    if getattr(owner, "name", None) != "stablehlo.select":
        return None
    cond, then, other = owner.operands
    test = cond.owner
    if getattr(test, "name", None) != "stablehlo.compare":
        return None
    key = _key_of(other, keys)
    direction, (x, y) = test.attr("comparison_direction").data, test.operands
    replaced = splat_of(then)
    if key is None or replaced is None or _key_of(x, keys) != key:
        return None
    if direction == "EQ" and splat_of(y) == 0 and replaced == 0:
        return key
    if direction == "NE" and y is x and replaced != replaced:
        return key
    return None


def sort(b: Builder, op) -> list[SSAValue]:
    """A sort by the first input (the comparator compares its elements; its direction says ascending or
    descending). The other inputs follow the keys' permutation: positions along the sorted dimension are the
    sort's indices; any other input is gathered by them."""
    body = op.regions[0].block
    returned = next((o for o in body.ops if o.name == "stablehlo.return"), None)
    compare_op = returned.operands[0].owner if returned is not None and returned.operands else None
    keys = tuple(body.args[:2])
    sides = [_key_of(v, keys) for v in compare_op.operands] if getattr(compare_op, "name", None) == \
        "stablehlo.compare" else None
    if sides is None or sorted(sides, key=str) != [0, 1]:
        raise refuse(op, "comparator is not a comparison of the first input's elements")
    dim = int_of(op.attr("dimension"), -1) % len(shape(op.operands[0]))
    direction = compare_op.attr("comparison_direction").data
    descending = (direction in ("GT", "GE")) == (sides[0] == 0)
    values = op.results[0].type
    index_type = TensorType(IntegerType(32), values.get_shape())
    stable = op.attr("is_stable")
    new = b.ttir_op("sort", [op.operands[0]], [values, index_type], dim=dim, descending=descending,
                    stable=bool(stable is not None and stable.value.data))
    results, indices = [new.results[0]], new.results[1]
    if len(op.operands) == 2 and _positions_along(op.operands[1], dim):
        if op.results[1].type != index_type:
            indices = b.ttir("typecast", [indices], op.results[1].type)
        return results + [indices]
    return results + _take_along(b, indices, list(op.operands[1:]), dim)


def _take_along(b: Builder, indices: SSAValue, sources: list[SSAValue], dim: int) -> list[SSAValue]:
    """Each source's elements picked along `dim` by `indices`: the sorted dimension moved last, the rest flattened
    to rows, each row's indices offset by its start in the flat source, and one embedding lookup per source."""
    full = shape(indices)
    order = [d for d in range(len(full)) if d != dim] + [dim]
    moved = [full[d] for d in order]
    size, rows = full[dim], math.prod(full) // full[dim]
    i32_t = lambda dims: TensorType(IntegerType(32), list(dims))  # noqa: E731

    def permuted(value: SSAValue, perm, dims) -> SSAValue:  # spelled even when the identity, as upstream does
        return b.ttir("permute", [value], TensorType(value.type.element_type, list(dims)), permutation=list(perm))

    def reshaped(value: SSAValue, dims) -> SSAValue:
        return b.ttir("reshape", [value], TensorType(value.type.element_type, list(dims)), shape=list(dims))

    flat = reshaped(permuted(indices, order, moved), (rows, size))
    starts = b.ttir("arange", [], i32_t((rows, size)), start=0, end=rows * size, step=size, arange_dimension=0)
    flat = b.ttir("add", [starts, flat], i32_t((rows, size)))
    inverse = [order.index(d) for d in range(len(full))]
    picked = []
    for source in sources:
        element = source.type.element_type
        table = reshaped(permuted(source, order, moved), (rows * size, 1))
        rows_of = b.ttir("embedding", [flat, table], TensorType(element, [rows, size, 1]))
        picked.append(permuted(reshaped(rows_of, moved), inverse, full))
    return picked


def _positions_along(value: SSAValue, dim: int) -> bool:
    """Whether `value` holds each element's index along `dim`: an iota (arange) along it, or a 1-d one broadcast
    along it."""
    full, expanded = shape(value), None
    owner = value.owner
    while getattr(owner, "name", None) in ("ttir.broadcast", "ttir.reshape", "ttir.typecast"):
        if owner.name == "ttir.reshape" and expanded is None:
            expanded = shape(owner.results[0])
        owner = owner.operands[0].owner
    if getattr(owner, "name", None) != "ttir.arange":
        return False
    root = shape(owner.results[0])
    if root == full:
        return int_of(owner.prop("arange_dimension")) == dim
    return len(root) == 1 and expanded is not None and len(expanded) == len(full) and \
        all(n == (full[dim] if i == dim else 1) for i, n in enumerate(expanded)) and root[0] == full[dim]


def _f32(value: float) -> FloatAttr:
    return FloatAttr(float(value), Float32Type())


def batch_norm(b: Builder, op) -> list[SSAValue]:
    name = op.name.removeprefix("stablehlo.")
    epsilon, dim = _f32(op.attr("epsilon").value.data), int_of(op.attr("feature_index"))
    if name == "batch_norm_inference":
        return [b.ttir("batch_norm_inference", list(op.operands), op.results[0].type, epsilon=epsilon,
                       dimension=dim)]
    # training: the batch's statistics; TTIR's op also updates running statistics, here a zero mean and unit
    # variance that nothing reads (momentum 1 takes the batch's values)
    stats = op.operands[1].type
    zeros = b.ttir("zeros", [], stats, shape=list(stats.get_shape()))
    ones = b.ttir("ones", [], stats, shape=list(stats.get_shape()))
    new = b.ttir_op("batch_norm_training", [*op.operands, zeros, ones], [r.type for r in op.results],
                    epsilon=epsilon, dimension=dim, momentum=_f32(1.0))
    return list(new.results)


def batch_norm_grad(b: Builder, op) -> list[SSAValue]:
    """The gradients of a batch normalisation by its batch statistics, decomposed (StableHLO's formulas):
    d_offset = sum(dy), d_scale = sum(dy * x_hat), dx = scale / std * (dy - d_offset / N - x_hat * d_scale / N)."""
    x, scale, mean, variance, dy = op.operands
    feature, epsilon = int_of(op.attr("feature_index")), op.attr("epsilon").value.data
    full, stats = tensor(x), tensor(mean)
    dims = [d for d in range(len(shape(x))) if d != feature]
    count = math.prod(shape(x)[d] for d in dims)

    def spread(value: SSAValue) -> SSAValue:  # a per-feature value over the operand's shape
        return broadcast_to(b, value, shape(x), [feature])

    def per_feature(value: SSAValue) -> SSAValue:
        return b.ttir("sum", [value], stats, keep_dim=False, dim_arg=dims)

    def spread_mean(total: SSAValue) -> SSAValue:
        return spread(b.ttir("div", [total, b.constant(float(count), stats)], stats))
    centered = b.ttir("subtract", [x, spread(mean)], full)
    std = b.ttir("sqrt", [b.ttir("add", [variance, b.constant(epsilon, stats)], stats)], stats)
    normalized = b.ttir("div", [centered, spread(std)], full)
    d_scale = per_feature(b.ttir("multiply", [dy, normalized], full))
    d_offset = per_feature(dy)
    shifted = b.ttir("subtract", [dy, spread_mean(d_offset)], full)
    along = b.ttir("multiply", [normalized, spread_mean(d_scale)], full)
    dx = b.ttir("multiply", [spread(b.ttir("div", [scale, std], stats)),
                             b.ttir("subtract", [shifted, along], full)], full)
    return [dx, d_scale, d_offset]


def uniform_quantize(b: Builder, op) -> list[SSAValue]:
    from ttmlir.dialects.quant import UniformQuantizedType
    quantized_in = isinstance(op.operands[0].type.element_type, UniformQuantizedType)
    return [b.ttir("requantize" if quantized_in else "quantize", [op.operands[0]], op.results[0].type)]


def uniform_dequantize(b: Builder, op) -> list[SSAValue]:
    return [b.ttir("dequantize", [op.operands[0]], op.results[0].type)]


def rng(b: Builder, op) -> list[SSAValue]:
    """A uniform draw between constant bounds."""
    if op.attr("rng_distribution").data != "UNIFORM":
        raise refuse(op, "only the UNIFORM distribution is supported")
    low, high = splat_of(op.operands[0]), splat_of(op.operands[1])
    if low is None or high is None:
        raise refuse(op, "bounds must be constants")
    result = op.results[0].type
    return [b.ttir("rand", [], result, size=list(result.get_shape()), low=_f32(low), high=_f32(high), seed=0)]


def rng_bit_generator(b: Builder, op) -> list[SSAValue]:
    """Random bits as upstream draws them: uniform values over the integer type's range, converted; the state is
    passed through."""
    state, values = op.results
    element = values.type.element_type
    if not isinstance(element, IntegerType):
        raise refuse(op, "non-integer results are not supported")
    drawn = TensorType(Float32Type(), values.type.get_shape())
    rand = b.ttir("rand", [], drawn, size=list(values.type.get_shape()), low=_f32(0.0),
                  high=_f32(float(1 << element.width.data)), seed=0)
    return [op.operands[0], b.ttir("typecast", [rand], values.type)]


# chlo (JAX's math functions) -> ttir, one to one
CHLO = {"erf": "erf", "erfc": "erfc", "asin": "asin", "asinh": "asinh", "acos": "acos", "atan": "atan", "tan": "tan",
        "square": "square"}

PATTERNS: dict[str, Callable[[Builder, Operation], list[SSAValue]]] = {
    **{f"stablehlo.{n}": elementwise for n in (*ELEMENTWISE, *LOGICAL)},
    **{f"stablehlo.{n}": p for n, p in {
        "broadcast_in_dim": broadcast_in_dim, "constant": constant, "reshape": reshape, "transpose": transpose,
        "concatenate": concatenate, "slice": slice_, "dynamic_slice": dynamic_slice, "compare": compare,
        "iota": iota, "dynamic_iota": dynamic_iota, "round_nearest_afz": round_nearest_afz, "clamp": clamp,
        "dot_general": dot_general, "dot": dot, "reduce": reduce, "pad": pad, "reverse": reverse,
        "optimization_barrier": optimization_barrier, "get_dimension_size": get_dimension_size,
        "custom_call": custom_call, "sort": sort, "batch_norm_inference": batch_norm,
        "batch_norm_training": batch_norm, "batch_norm_grad": batch_norm_grad,
        "uniform_quantize": uniform_quantize, "uniform_dequantize": uniform_dequantize, "rng": rng,
        "rng_bit_generator": rng_bit_generator}.items()},
    "tensor.empty": empty,
    **{f"chlo.{n}": (lambda t: lambda b, op: [b.ttir(t, [op.operands[0]], op.results[0].type)])(t)
       for n, t in CHLO.items()},
    "chlo.top_k": top_k,
    **windowed.PATTERNS,  # convolution, reduce_window, select_and_scatter, scatter
    **gather.PATTERNS,
}


def pattern_for(op: Operation):
    return PATTERNS.get(op.name)


def convert_op(op: Operation) -> bool:
    """Replaces `op` by TTIR ops; False when no pattern takes it."""
    pattern = pattern_for(op)
    if pattern is None:
        return False
    b = Builder(op)
    values = pattern(b, op)
    block = op.parent_block()
    for new in b.ops:
        block.insert_op_before(new, op)
    for result, value in zip(op.results, values):
        if value.type != result.type:
            raise PassFailure(op, f"internal: lowering of '{op.name}' made {value.type}, expected {result.type}")
        result.replace_all_uses_with(value)
    op.detach()
    op.erase(safe_erase=False)
    return True


# integer ops whose answer the device's integers cannot give: it divides in floating point, shifts signed integers
# arithmetically, and holds 8- and 16-bit integers unsigned (their modular ops stay right, the ones reading the
# sign do not)
INTEGER_DIVISIONS = frozenset({"stablehlo.divide", "stablehlo.remainder", "stablehlo.power"})
# ops ordering their first operand's values whose device kernel ranks integers wrongly (top-k reads bf16): the host
# orders integer keys of any width
INTEGER_ORDERINGS = frozenset({"chlo.top_k"})
SIGN_READING = frozenset({"stablehlo.compare", "stablehlo.maximum", "stablehlo.minimum", "stablehlo.clamp",
                          "stablehlo.shift_right_arithmetic", "stablehlo.shift_right_logical",
                          "stablehlo.shift_left", "stablehlo.abs", "stablehlo.sign",
                          "stablehlo.convert", "stablehlo.reduce", "stablehlo.sort", "stablehlo.reduce_window"})


def _integer(t, widths=None) -> bool:
    element = getattr(t, "element_type", None)
    return isinstance(element, IntegerType) and element.width.data > 1 and \
        (widths is None or (element.width.data in widths and element.signedness.data.name != "UNSIGNED"))


def _whole_exponent(value: SSAValue) -> bool:
    """An exponent every element of which is the same constant integer >= 0 (negative ones divide)."""
    exponent = splat_of(value)
    return isinstance(exponent, int) and not isinstance(exponent, bool) and exponent >= 0


def needs_host_integers(op: Operation) -> bool:
    """Whether `op` computes on integers in a way only the host gets right."""
    types_ = [v.type for v in (*op.operands, *op.results)]
    if op.name == "stablehlo.power" and _whole_exponent(op.operands[1]):
        return False  # pow_scalar with a whole exponent multiplies, wrapping as the spec's integers do
    if op.name in INTEGER_DIVISIONS:
        return any(_integer(t) for t in types_)
    if op.name == "stablehlo.bitcast_convert":  # across widths the shape changes: the device has no such op
        source, target = (quant.storage_of(t.element_type) for t in (types_[0], types_[-1]))
        return source.bitwidth != target.bitwidth
    if op.name == "stablehlo.shift_right_logical":  # the device shifts its signed integers arithmetically
        return any(_integer(t, (8, 16, 32, 64)) for t in types_)
    if op.name in INTEGER_ORDERINGS and _integer(types_[0]):
        return True
    if op.name in SIGN_READING:
        return any(_integer(t, (8, 16)) for t in types_)
    return False


def stablehlo_ops(module: ModuleOp) -> list[Operation]:
    """The stablehlo ops to convert, in order; those inside another stablehlo op's region belong to it."""
    found = []
    for op in module.walk():
        if (op.name.startswith(("stablehlo.", "chlo.")) or op.name in PATTERNS) and not _inside_stablehlo(op):
            found.append(op)
    return found


def _inside_stablehlo(op: Operation) -> bool:
    """Inside another stablehlo op, or in the CPU module (whose StableHLO the host runs)."""
    parent = op.parent_op()
    while parent is not None:
        if parent.name.startswith(("stablehlo.", "chlo.")) or parent.name == "ttcore.cpu_module":
            return True
        parent = parent.parent_op()
    return False


def _narrow_float(op: Operation) -> Attribute | None:
    """An f8/f6/f4 (or tf32) element type `op` reads or writes: formats no device tensor holds."""
    elements = (getattr(v.type, "element_type", None) for v in (*op.operands, *op.results))
    return next((e for e in elements if isinstance(e, ReducedPrecisionFloatType)), None)


@dataclass(frozen=True)
class ConvertStableHLOToTTIRPass(ModulePass):
    """Every stablehlo op becomes TTIR; with enable-partial-conversion, ops no pattern takes stay."""

    name: ClassVar[str] = "convert-stablehlo-to-ttir"
    enable_partial_conversion: bool = False

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        convert_gspmd_to_ttir(module)  # sharding custom calls and shardy's ops: mesh_shard and TTIR collectives
        convert_shardy_to_ttir(module)
        convert_stablehlo_ccl_to_ttir(module)
        for op in stablehlo_ops(module):
            if op.name == "stablehlo.return":
                continue
            if (narrow := _narrow_float(op)) is not None:
                raise PassFailure(op, f"'{op.name}' op on {narrow} values is not supported: the device's narrowest "
                                      "float is bf16 (below it, only the block formats bfp8/bfp4/bfp2)")
            if self.enable_partial_conversion and needs_host_integers(op) and host_can_run(op):
                continue  # the host computes it exactly (the CPU fallback hoists it)
            try:
                converted = convert_op(op)
            except PassFailure:
                # a form the device patterns refuse stays for the host when it can run it (the CPU fallback)
                if not (self.enable_partial_conversion and host_can_run(op)):
                    raise
                converted = True
            if not converted and not self.enable_partial_conversion:
                raise PassFailure(op, f"failed to legalize operation '{op.name}'")
