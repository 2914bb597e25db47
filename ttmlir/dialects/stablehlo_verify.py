"""Verifiers of the stablehlo ops, in the StableHLO project's words: one rule per op (or family) that infers
a result type or checks attributes; an op without a rule is checked by its operand/result counts only."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import ComplexType, IntegerType, TensorType

from ttmlir.dialects.stablehlo_attrs import int_of, ints_of
from ttmlir.dialects.stablehlo_table import BINARY, UNARY


def verify(op) -> None:
    short = op.name.removeprefix("stablehlo.")  # chlo ops keep their prefix
    if short in ARITY and len(op.operands) != ARITY[short]:
        raise op.error(f"expected {ARITY[short]} operands, but found {len(op.operands)}")
    if short in ONE_RESULT and len(op.results) != 1:
        raise op.error(f"requires one result")
    for value in (*op.operands, *op.results):  # a shape rule reads static ranks; tuples and tokens pass through
        if isinstance(value.type, TensorType) and any(d < -1 for d in value.type.get_shape()):
            raise op.error(f"invalid tensor type {value.type}")
    rule = RULES.get(short)
    if rule is not None:
        rule(op)


def shape(value) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def _text(shape_, element) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape_)}{element}>"


def inferred(op, want: tuple[int, ...], index: int = 0) -> None:
    """The result's shape is `want`, or the op reports the types it inferred, as MLIR's InferTypeOpInterface does."""
    result = op.results[index].type
    if shape(op.results[index]) != tuple(want):
        raise op.error(f"inferred type(s) '{_text(want, result.element_type)}' are incompatible with return type(s) "
                       f"of operation '{result}'")


def _base(t):
    return t.element_type if isinstance(t, TensorType) else t


def compatible(op) -> None:
    """Elementwise ops: every operand and result has the same shape (and element type, but for conversions)."""
    shapes = {shape(v) for v in (*op.operands, *op.results) if isinstance(v.type, TensorType)}
    if len(shapes) > 1:
        raise op.error("requires compatible types for all operands and results")


def same_element(op) -> None:
    compatible(op)
    elements = {_base(v.type) for v in (*op.operands, *op.results)}
    if len(elements) > 1:
        raise op.error("requires compatible types for all operands and results")


def broadcast_in_dim(op) -> None:
    dims, operand, result = ints_of(op.attr("broadcast_dimensions")), shape(op.operands[0]), shape(op.results[0])
    if len(dims) != len(operand):
        raise op.error(f"broadcast_dimensions size ({len(dims)}) does not match operand rank ({len(operand)})")
    if len(result) < len(operand):
        raise op.error(f"result rank ({len(result)}) is less than operand rank ({len(operand)})")
    for i, d in enumerate(dims):
        if not 0 <= d < len(result):
            raise op.error(f"broadcast_dimensions contains invalid value {d} for result with rank {len(result)}")
        if operand[i] != 1 and operand[i] != result[d]:
            raise op.error(f"size of operand dimension {i} ({operand[i]}) is not equal to 1 or size of result "
                           f"dimension {d} ({result[d]})")
    if len(set(dims)) != len(dims):
        raise op.error(f"broadcast_dimensions should not have duplicates")


def reshape(op) -> None:
    have, want = math.prod(shape(op.operands[0])), math.prod(shape(op.results[0]))
    if have != want:
        raise op.error(f"number of output elements ({want}) doesn't match expected number of elements ({have})")


def transpose(op) -> None:
    perm, operand = ints_of(op.attr("permutation")), shape(op.operands[0])
    if sorted(perm) != list(range(len(operand))):
        raise op.error(f"permutation {list(perm)} is not a permutation of the operand's {len(operand)} dimensions")
    inferred(op, tuple(operand[p] for p in perm))


def concatenate(op) -> None:
    dim = int_of(op.attr("dimension"))
    shapes = [shape(v) for v in op.operands]
    if not shapes:
        raise op.error("expects at least one operand")
    rank = len(shapes[0])
    if not 0 <= dim < rank:
        raise op.error(f"rank-0 values cannot be concatenated" if rank == 0 else
                       f"dimension {dim} is out-of-bounds for input rank {rank}")
    for i, s in enumerate(shapes):
        if len(s) != rank:
            raise op.error(f"operands (0) and ({i}) do not match rank")
        if any(a != b for j, (a, b) in enumerate(zip(s, shapes[0])) if j != dim):
            raise op.error(f"shapes of operand (0) and ({i}) do not match at non-concat index")
    out = list(shapes[0])
    out[dim] = sum(s[dim] for s in shapes)
    inferred(op, tuple(out))


def dot_general(op) -> None:
    dims = op.attr("dot_dimension_numbers")
    lhs, rhs = shape(op.operands[0]), shape(op.operands[1])
    lb, rb, lc, rc = (dims.lhs_batching_dimensions, dims.rhs_batching_dimensions, dims.lhs_contracting_dimensions,
                      dims.rhs_contracting_dimensions)
    if len(lb) != len(rb):
        raise op.error("lhs and rhs should have the same number of batching dimensions")
    if len(lc) != len(rc):
        raise op.error("lhs and rhs should have the same number of contracting dimensions")
    for side, dims_, rank in (("lhs", (*lb, *lc), len(lhs)), ("rhs", (*rb, *rc), len(rhs))):
        if len(set(dims_)) != len(dims_):
            raise op.error(f"has duplicated dimension from {side}_batching_dimensions and "
                           f"{side}_contracting_dimensions: {list(dims_)}")
        for d in dims_:
            if not 0 <= d < rank:
                raise op.error(f"{side}_batching_dimensions or {side}_contracting_dimensions value {d} is out of "
                               f"range [0, {rank})")
    for a, b in zip(lb, rb):
        if lhs[a] != rhs[b]:
            raise op.error("batching dimension sizes must match for lhs/rhs")
    for a, b in zip(lc, rc):
        if lhs[a] != rhs[b]:
            raise op.error("contracting dimension sizes must match for lhs/rhs")
    free = lambda s, used: [d for i, d in enumerate(s) if i not in used]
    inferred(op, (*(lhs[d] for d in lb), *free(lhs, (*lb, *lc)), *free(rhs, (*rb, *rc))))


def reduce(op) -> None:
    n = len(op.operands) // 2
    dims = ints_of(op.attr("dimensions"))
    if len(op.operands) % 2 or n == 0 or len(op.results) != n:
        raise op.error("expects the same number of inputs, init values and results")
    operand = shape(op.operands[0])
    for d in dims:
        if not 0 <= d < len(operand):
            raise op.error(f"Out-of-bounds dimension {d}, expected to be in range [0, {len(operand)})")
    if len(set(dims)) != len(dims):
        raise op.error("Duplicate reduction dimension")
    block = op.regions[0].block if op.regions and op.regions[0].blocks else None
    if block is None or len(block.args) != 2 * n:
        raise op.error(f"Reduction-region must take {2 * n} parameters, but takes "
                       f"{len(block.args) if block else 0} parameter(s)")
    for i in range(n):
        inferred(op, tuple(s for j, s in enumerate(operand) if j not in dims), i)


def compare(op) -> None:
    compatible(op)
    if not isinstance(op.results[0].type.element_type, IntegerType) or op.results[0].type.element_type.width.data != 1:
        raise op.error(f"result #0 must be ranked tensor of pred (AKA boolean or 1-bit integer) values, but got "
                       f"'{op.results[0].type}'")


def select(op) -> None:
    pred, on_true, on_false = (shape(v) for v in op.operands)
    if on_true != on_false:
        raise op.error("requires compatible types for non-predicate operands")
    if pred and pred != on_true:
        raise op.error("requires the same type for all operands and results")
    inferred(op, on_true)


def slice_(op) -> None:
    operand = shape(op.operands[0])
    starts, limits, strides = (ints_of(op.attr(k)) for k in ("start_indices", "limit_indices", "strides"))
    if not len(starts) == len(limits) == len(strides) == len(operand):
        raise op.error(f"the number of elements in start_indices ({len(starts)}) does not match the rank of the "
                       f"operand ({len(operand)})")
    out = []
    for i, (a, b, s) in enumerate(zip(starts, limits, strides)):
        if a < 0:
            raise op.error(f"negative start index {a} in dimension {i}")
        if b > operand[i]:
            raise op.error(f"limit index {b} is larger than dimension size {operand[i]} in dimension {i}")
        if a > b:
            raise op.error(f"start index {a} is larger than limit index {b} in dimension {i}")
        if s <= 0:
            raise op.error(f"stride must be positive but got {s} in dimension {i}")
        out.append(-(-(b - a) // s))
    inferred(op, tuple(out))


def iota(op) -> None:
    rank, dim = len(shape(op.results[0])), int_of(op.attr("iota_dimension"))
    if rank == 0:
        raise op.error("does not support scalars.")
    if not 0 <= dim < rank:
        raise op.error(f"iota dimension cannot go beyond the output rank.")


def clamp(op) -> None:
    operand = shape(op.operands[1])
    for name, value in (("min", op.operands[0]), ("max", op.operands[2])):
        if shape(value) and shape(value) != operand:
            raise op.error(f"{name} shape [{', '.join(map(str, shape(value)))}] is not scalar and is not compatible "
                           f"to operand shape [{', '.join(map(str, operand))}]")
    inferred(op, operand)


def complex_(op) -> None:
    compatible(op)
    if not isinstance(op.results[0].type.element_type, ComplexType):
        raise op.error(f"result #0 must be ranked tensor of complex type values, but got '{op.results[0].type}'")


def abs_(op) -> None:
    """abs of a complex tensor is the tensor of its elements' magnitudes (the complex type's part type)."""
    element = _base(op.operands[0].type)
    if not isinstance(element, ComplexType):
        return same_element(op)
    compatible(op)
    if _base(op.results[0].type) != element.element_type:
        raise op.error("requires compatible types for all operands and results")


ARITY = {**dict.fromkeys(UNARY, 1), **dict.fromkeys(BINARY, 2), "is_finite": 1, "real": 1, "imag": 1, "clamp": 3,
         "convert": 1, "bitcast_convert": 1, "reshape": 1, "broadcast_in_dim": 1, "transpose": 1, "reverse": 1,
         "compare": 2, "select": 3, "slice": 1, "dot_general": 2, "dot": 2, "iota": 0, "constant": 0, "complex": 2,
         "pad": 2, "get_dimension_size": 1, "convolution": 2, "gather": 2}
ONE_RESULT = frozenset(ARITY)
RULES = {**dict.fromkeys((n for n in UNARY if not n.endswith("_")), same_element),
         **dict.fromkeys((n for n in BINARY if not n.startswith("shift")), same_element),
         **dict.fromkeys(("is_finite", "convert", "shift_left", "shift_right_logical",
                          "shift_right_arithmetic"), compatible),
         "broadcast_in_dim": broadcast_in_dim, "reshape": reshape, "transpose": transpose,
         "concatenate": concatenate, "dot_general": dot_general, "reduce": reduce, "compare": compare,
         **{f"chlo.{n}": compatible for n in ("erf erfc erf_inv asin asinh acos acosh atan atanh sinh cosh tan "
                                              "square is_inf is_neg_inf is_pos_inf lgamma digamma").split()},
         "select": select, "clamp": clamp, "slice": slice_, "iota": iota, "complex": complex_, "abs": abs_}
