"""The TTIR dialect: framework-level tensor ops, one class per op-table row.

Each family has a shape rule: given an op's operand shapes and properties it returns the result
shapes the op must declare, or raises a diagnostic in upstream's words. The same rules serve the
TTNN dialect, whose ops share the TTIR rows.
"""

from __future__ import annotations

import math
from typing import Callable, Sequence

from xdsl.dialects.builtin import (AffineMapAttr, DenseArrayBase, DenseIntOrFPElementsAttr, DenseResourceAttr,
                                   IntegerType, MemRefType, TensorType)
from xdsl.ir import Dialect
from xdsl.irdl import IRDLOperation, ParsePropInAttrDict, irdl_op_definition, operand_def, opt_prop_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects import attention, conv, moe, ttcore, ttml
from ttmlir.dialects.canonicalize import patterns_for
from ttmlir.ir.op_table import STABLEHLO_GATHER, TTIR_OPS
from ttmlir.ir.props import FLOAT_TYPES, dense_values, int_values, scalar
from ttmlir.dialects.quant import UniformQuantizedType
from ttmlir.ir.syntax import EmptyFormat
from ttmlir.ir.tt_op import TTOp, build_op_class
from ttmlir.ir.canonicalization import TableCanonicalization
from ttmlir.dialects.ttir_attrs import FlattenedCompatInfoAttr
from ttmlir.dialects.ttnn_attrs import data_type_of
from ttmlir.spatial import padding4, pair

Shape = tuple[int, ...]


def shape_of(value) -> Shape:
    return tuple(value.type.get_shape())


def normalize_dim(op: TTOp, dim: int, rank: int) -> int:
    if not -rank <= dim < max(rank, 1):
        raise op.error(f"dimension {dim} is out of range for a tensor of rank {rank}")
    return dim % rank if rank else 0


def broadcast_shape(a: Shape, b: Shape) -> Shape | None:
    """NumPy-style broadcast of two shapes, or None when they are incompatible."""
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + tuple(a), (1,) * (rank - len(b)) + tuple(b)
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
        return None
    return tuple(max(x, y) if 1 in (x, y) else x for x, y in zip(a, b))


def ints(op: TTOp, name: str) -> list[int]:
    return int_values(op.prop(name))


def first_shape(op: TTOp) -> Shape:
    return shape_of(op.operands[0])


def result_shape(op: TTOp, index: int = 0) -> Shape:
    return tuple(op.results[index].type.get_shape())


def commas(dims: Sequence[int], sep: str = ", ") -> str:
    """A shape as upstream's messages print it: `2, 64` (an ArrayRef streamed) or, with sep=",", `2,64`."""
    return sep.join(map(str, dims))


def same_shape(op: TTOp):
    return [first_shape(op)]


def to_layout(op: TTOp):
    """The result is the destination's type: the input's shape unless one side is a grid of shards
    (`#ttcore.metal_layout`), whose shape is its grid and shard dims."""
    if any(_encoding_name(v.type) == "ttcore.metal_layout" for v in (*op.operands, *op.results)):
        return [op.operands[1].type.get_shape()]
    return same_shape(op)


def eltwise(op: TTOp):
    """Upstream's Broadcastable trait: operands broadcast together to exactly the result shape."""
    shape: Shape = ()
    for value in op.operands:
        operand = shape_of(value)
        inferred = broadcast_shape(shape, operand)
        if inferred is None:
            raise op.error(f"operand shape ({commas(operand)}) is not broadcast compatible with inferred operand "
                           f"shapes ({commas(shape)})")
        shape = inferred
    if result_shape(op) != shape:
        raise op.error(f"result shape ({commas(result_shape(op))}) doesn't match expected shape after broadcasting "
                       f"({commas(shape)})")


def reduction(op: TTOp):
    shape = first_shape(op)
    rank = len(shape)
    dims_attr = op.prop("dim_arg")
    dims = int_values(dims_attr) if dims_attr is not None else list(range(rank))
    for d in dims:
        if not -rank <= d < rank:
            raise op.error(f"Reduce dimension {d} is out of range for input tensor of rank {rank}")
    if len(set(dims)) != len(dims):
        raise op.error("Reduce dimensions are not unique")
    reduced = {d % rank for d in dims}
    keep = scalar(op.prop("keep_dim"))
    want = tuple(1 if i in reduced else d for i, d in enumerate(shape) if keep or i not in reduced)
    if result_shape(op) != want:
        raise op.error(f"Expected output shape ({commas(want)}), got ({commas(result_shape(op))})")


def clamp_scalar(op: TTOp):
    if result_shape(op) != first_shape(op):
        raise op.error("input and output must have same shape.")


def gelu_bw(op: TTOp):
    approximate = scalar(op.prop("approximate"))
    if approximate not in ("none", "tanh"):
        raise op.error(f"approximate attribute must be either 'none' or 'tanh', but got '{approximate}'")
    ranks = [len(shape_of(v)) for v in op.operands]
    for rank, what in zip(ranks, ("gradient tensor (lhs)", "input tensor (rhs)")):
        if not 2 <= rank <= 4:
            raise op.error(f"{what} must have rank 2, 3, or 4, but got rank {rank}")
    if ranks[0] != ranks[1]:
        raise op.error(f"gradient tensor (lhs) and input tensor (rhs) must have the same rank, but got lhs rank "
                       f"{ranks[0]} and rhs rank {ranks[1]}")
    return eltwise(op)


def dropout(op: TTOp):
    input_type, output_type = op.operands[0].type, op.results[0].type
    if input_type != output_type:
        raise op.error(f"Input tensor type does not match with output tensor type. [Input tensor type = "
                       f"{input_type}, output tensor type = {output_type}].")
    prob, scale, rank = scalar(op.prop("prob")), scalar(op.prop("scale")), len(shape_of(op.operands[0]))
    if not 0.0 <= prob <= 1.0:
        raise op.error(f"Probability must be in range [0.0, 1.0], but got {prob:g}")
    if scale <= 0.0:
        raise op.error(f"Scale must be positive, but got {scale:g}")
    if not 2 <= rank <= 4:
        raise op.error(f"Input tensor rank must be 2, 3, or 4, but got {rank}")
    return same_shape(op)


def bitcast(op: TTOp):
    source, target = op.operands[0].type.element_type, op.results[0].type.element_type
    for element, what in ((source, "Input"), (target, "Output")):
        if not isinstance(element, (IntegerType, *FLOAT_TYPES)):
            raise op.error(f"{what} tensor type must be an integer or floating point type")
    if source.bitwidth != target.bitwidth:
        raise op.error("Input and output tensor element types must have the same bit width")
    return same_shape(op)


def paged_fill_cache(op: TTOp):
    groups = op.operand_groups()
    cache, value, table = (groups[name][0].type for name in ("cache", "input", "page_table"))
    for what, t, rank in (("Cache", cache, 4), ("Input", value, 4), ("Page table", table, 2)):
        if len(t.get_shape()) != rank:
            raise op.error(f"{what} tensor must be a {rank}D tensor")
    if cache.element_type != value.element_type:
        raise op.error("Cache and input tensors must have the same dtype")
    for what, t in (("Cache", cache), ("Input", value)):
        if not (isinstance(t.element_type, FLOAT_TYPES) or ttcore.is_block_float(t.element_type)):
            raise op.error(f"{what} tensor must be a floating point type")
    if not isinstance(table.element_type, IntegerType):
        raise op.error("Page table tensor must be an integer type")
    batch = value.get_shape()[0]
    dynamic = batch < 0
    if groups["batch_idx_tensor"]:
        index = groups["batch_idx_tensor"][0].type
        if len(index.get_shape()) != 1:
            raise op.error("Batch index tensor must be a 1D tensor")
        if not dynamic and index.get_shape()[0] >= 0 and index.get_shape()[0] != batch:
            raise op.error(f"Batch index tensor must have dim 0 equal to input batch ({batch}), got "
                           f"{index.get_shape()[0]}")
        if not isinstance(index.element_type, IntegerType):
            raise op.error("Batch index tensor must be an integer type")
    elif batch != 1:
        raise op.error(f"Input batch must be statically 1 when no batch_idx_tensor is provided, got "
                       f"{'dynamic' if dynamic else batch}")


def check_dim_range(op: TTOp, dim: int, rank: int) -> None:
    if not -rank <= dim < rank:
        raise op.error(f"specified dimension should be between {-rank} and {rank - 1}, but got: {dim}")


def cumsum(op: TTOp):
    check_dim_range(op, ints(op, "dim")[0], len(first_shape(op)))
    return same_shape(op)


def sort(op: TTOp):
    shape, dim = first_shape(op), ints(op, "dim")[0]
    rank = len(shape)
    if not -rank <= dim < rank:
        raise op.error(f"Dimension out of range (expected to be in range of [{-rank}, {rank - 1}], but got {dim})")
    indices = op.results[1].type.element_type
    if not isinstance(indices, IntegerType):
        raise op.error(f"Expected integer data type for indices but got '{indices}'")
    if op.results[0].type != op.operands[0].type:
        raise op.error("Sorted tensor type does not match with input tensor.")
    if result_shape(op, 1) != shape:
        raise op.error("Indices shape does not match with input tensor shape.")


def topk(op: TTOp):
    shape, dim, k = first_shape(op), ints(op, "dim")[0], ints(op, "k")[0]
    check_dim_range(op, dim, len(shape))
    dim %= len(shape)
    if not 0 < k <= shape[dim]:
        raise op.error(f"K should be between 1 and the size of the specified dimension ({dim}), but got: {k}")
    return [shape[:dim] + (k,) + shape[dim + 1:]] * 2


def reshape(op: TTOp):
    shape, old, new = ints(op, "shape"), first_shape(op), result_shape(op)
    if len(shape) != len(new):
        raise op.error(f"Shape attribute size {len(shape)} must match output tensor rank {len(new)}")
    if math.prod(old) != math.prod(new):
        raise op.error(f"Input tensor number of elements {math.prod(old)} and output tensor number of elements "
                       f"{math.prod(new)} must be the same")
    if shape.count(-1) > 1:
        raise op.error("Shape attribute must have at most one -1 element")
    for i, (d, got) in enumerate(zip(shape, new)):
        if d < -1:
            raise op.error("All dimensions must be >= 0 except the one with -1")
        if d != -1 and d != got:
            raise op.error(f"Shape attribute {d} must match the output tensor shape {got} at index {i} for "
                           f"dimension that is not -1")


def transpose(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    rank = len(shape)
    if rank < 2:
        raise op.error("Input must be at least a 2D tensor")
    if rank != len(out):
        raise op.error("Input must have the same rank as output")
    dims = []
    for which, name in ((0, "dim0"), (1, "dim1")):
        d = ints(op, name)[0]
        if not -rank <= d < rank:
            raise op.error(f"Dimension {which} attribute must be within the bounds of the input tensor")
        dims.append(d % rank)
    a, b = dims
    if out[a] != shape[b] or out[b] != shape[a]:
        raise op.error("Input-output transpose dimension mismatch.")


def permute(op: TTOp):
    shape = first_shape(op)
    perm = ints(op, "permutation")
    if sorted(perm) != list(range(len(shape))):
        raise op.error(f"Expected a permutation of ({commas(range(len(shape)))}), got ({commas(perm)})")
    want = tuple(shape[p] for p in perm)
    if result_shape(op) != want:
        raise op.error(f"Expected result shape ({commas(want)}), got ({commas(result_shape(op))})")


def concat(op: TTOp):
    shapes = [shape_of(v) for v in op.operands]
    if not shapes:
        raise op.error("expected at least one input")
    first, given = shapes[0], ints(op, "dim")[0]
    rank = len(first)
    dim = given + rank if given < 0 else given
    if not 0 <= dim < rank:
        raise op.error(f"Invalid dimension {given} for concatenation.")
    for other in shapes[1:]:
        if len(other) != rank:
            raise op.error("All input tensors must have the same rank.")
        if any(a != b for i, (a, b) in enumerate(zip(other, first)) if i != dim):
            raise op.error(f"All input tensors must have the same dimensions, except for dimension {dim}.")
    total, got = sum(s[dim] for s in shapes), result_shape(op)[dim]
    if got != total:
        raise op.error(f"Output tensor dimension {dim} does not match the sum of input tensor dimensions: "
                       f"{got} vs. {total}.")


def repeat(op: TTOp):
    check_repeat(op, ints(op, "repeat_dimensions"))


def check_repeat(op: TTOp, reps: Sequence[int]) -> None:
    """TTIR's and TTNN's repeat checks, which upstream words alike."""
    shape, out = first_shape(op), result_shape(op)
    if len(reps) != len(shape):
        raise op.error(f"Input tensor rank {len(shape)} doesn't match the number of repeat dimensions {len(reps)}.")
    if len(out) != len(shape):
        raise op.error(f"Input tensor rank {len(shape)} doesn't match the output tensor rank {len(out)}.")
    for i, (d, r, o) in enumerate(zip(shape, reps, out)):
        if r <= 0:
            raise op.error(f"Repeat dimension at index {i} must be greater than 0.")
        if d * r != o:
            raise op.error(f"Input tensor shape ({commas(shape, ',')}) at index {i} does not repeat to output "
                           f"({commas(out, ',')}) using repeat value {r}.")


def repeat_interleave(op: TTOp):
    shape = list(first_shape(op))
    rank, repeats, dim = len(shape), ints(op, "repeats")[0], ints(op, "dim")[0]
    if rank < 1:
        raise op.error("Input must be at least a 1D tensor")
    if repeats == 0:
        raise op.error("Repeats attribute must be non-zero")
    if not -rank <= dim < rank:
        raise op.error(f"Dimension attribute must be within the bounds[{-rank}, {rank}), got {rank}")
    shape[dim % rank] *= repeats
    if result_shape(op) != tuple(shape):
        raise op.error(f"Output shape [{commas(result_shape(op), ',')}] does not match the expected shape "
                       f"[{commas(shape, ',')}]")


def broadcast(op: TTOp):
    shape, out, factors = first_shape(op), result_shape(op), ints(op, "broadcast_dimensions")
    if len(shape) != len(out):
        raise op.error(f"Input tensor rank of {len(shape)} does not match output tensor rank of {len(out)}")
    if broadcast_shape(shape, out) is None:
        raise op.error(f"Input tensor shape ({commas(shape, ',')}) is not broadcastable to output shape "
                       f"({commas(out, ',')})")
    if len(factors) != len(shape):
        raise op.error("Input tensor rank should match output tensor rank.")
    for i, (d, f, o) in enumerate(zip(shape, factors, out)):
        if d * f != o:
            raise op.error(f"Input tensor shape ({commas(shape, ',')}) index {i} does not broadcast to output "
                           f"({commas(out, ',')}) using broadcast value {f}")


def pad(op: TTOp):
    shape = first_shape(op)
    padding = ints(op, "padding")
    if len(padding) != 2 * len(shape):
        raise op.error(f"padding must have {2 * len(shape)} values (low and high per dimension), got {len(padding)}")
    return [tuple(d + padding[2 * i] + padding[2 * i + 1] for i, d in enumerate(shape))]


def check_slice_dim(op: TTOp, shape: Shape, i: int, begin: int, end: int, step: int, allow_empty: bool) -> int:
    """One dimension of a static slice, checked as upstream checks it; returns the sliced size."""
    size = shape[i]
    b, e = (begin + size if begin < 0 else begin), (end + size if end < 0 else end)
    shape_text = f"({commas(shape)})"
    empty = allow_empty and b == e
    if not empty and not 0 <= b < size:
        raise op.error(f"Invalid begin index for dimension {i}. Expected value in range [{-size}, {size}), got "
                       f"{begin}. Input shape: {shape_text}")
    if not empty and not 0 <= e <= size:
        raise op.error(f"Invalid end index for dimension {i}. Expected value in range [{-size}, {size}], got "
                       f"{end}. Input shape: {shape_text}")
    shown_b = f"{b} ({begin})" if begin < 0 else str(begin)
    shown_e = f"{e} ({end})" if end < 0 else str(end)
    if step == 0:
        raise op.error(f"Step value for dimension {i} cannot be zero")
    for sign, bad in (("positive", step > 0 and b > e), ("negative", step < 0 and b < e)):
        if bad:
            relation = "less than" if sign == "positive" else "greater than"
            raise op.error(f"For {sign} step, begin index must be {relation} or equal to end index for dimension "
                           f"{i}. Got begin: {shown_b}, end: {shown_e}, step: {step}, input shape: {shape_text}")
    return (abs(e - b) + abs(step) - 1) // abs(step)


def check_slice_output_kind(op: TTOp) -> None:
    if op.operands[0].type.element_type != op.results[0].type.element_type:
        raise op.error("Output tensor must have the same element type as the input tensor")
    if len(result_shape(op)) != len(first_shape(op)):
        raise op.error("Output tensor must have the same rank as the input tensor")


def check_sliced_size(op: TTOp, dim: int, want: int) -> None:
    got = result_shape(op)[dim]
    if got != want:
        raise op.error(f"Mismatch in dimension {dim} of the output tensor: expected size {want}, but got {got}")


def slice_static(op: TTOp):
    shape = first_shape(op)
    begins, ends, steps = ints(op, "begins"), ints(op, "ends"), ints(op, "step")
    if not shape:
        raise op.error("Input must be at least a 1D tensor")
    if not len(begins) == len(ends) == len(steps) == len(shape):
        raise op.error("Begins, ends, and step attributes must have the same number of elements as the input "
                       "tensor rank")
    check_slice_output_kind(op)
    for i in range(len(shape)):
        check_sliced_size(op, i, check_slice_dim(op, shape, i, begins[i], ends[i], steps[i], True))


def slice_dynamic(op: TTOp):
    rank = len(first_shape(op))
    begins, ends = shape_of(op.operands[1]), shape_of(op.operands[2])
    steps = ints(op, "step") if op.prop("step") is not None else None
    if not rank:
        raise op.error("Input must be at least a 1D tensor")
    if len(begins) != 1 or len(ends) != 1:
        raise op.error("Begins and ends must be 1D tensors")
    if not begins[0] == ends[0] == rank or (steps is not None and len(steps) != rank):
        raise op.error("Begins, ends, and step must have the same number of elements as the input tensor rank")
    check_slice_output_kind(op)
    for dim, step in enumerate(steps or ()):
        if step == 0:
            raise op.error(f"Step value for dimension {dim} cannot be zero")


def scatter(op: TTOp):
    shape, index, source = (shape_of(v) for v in op.operands)
    if not len(shape) == len(index) == len(source):
        raise op.error(f"Input tensor, index tensor, and source tensor must have the same rank. Got input rank = "
                       f"{len(shape)}, index rank = {len(index)}, source rank = {len(source)}")
    if index != source:
        raise op.error("Index tensor must have the same shape as source tensor.")
    return [shape]


def squeeze(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    dim = ints(op, "dim")[0]
    dim = dim + len(shape) if dim < 0 else dim
    if not 0 <= dim < len(shape):
        raise op.error(f"Invalid dimension {dim} for squeezing.")
    if shape[dim] != 1:
        raise op.error(f"Dimension {dim} in the input tensor must be 1.")
    if not out:
        raise op.error("Output tensor must have at least one dimension.")
    if len(out) != len(shape) - 1:
        raise op.error("Output tensor rank must be one less than the input tensor rank.")
    if out != shape[:dim] + shape[dim + 1:]:
        raise op.error(f"Dimensions of the output tensor must be the same as the input tensor except for dimension "
                       f"{dim}.")


def unsqueeze(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    dim = ints(op, "dim")[0]
    dim = dim + len(shape) + 1 if dim < 0 else dim
    if not 0 <= dim <= len(shape):
        raise op.error("Dimension attribute must be within the bounds of the input tensor")
    if len(out) != len(shape) + 1:
        raise op.error("Output tensor must have one more dimension than the input tensor")
    if out[dim] != 1:
        raise op.error("Dimension added must be of size 1")
    if out[:dim] + out[dim + 1:] != shape:
        raise op.error("All dimensions of the input tensor must be the same as the output tensor except for the "
                       "dimension added")


def reverse(op: TTOp):
    dims, rank = ints(op, "dimensions"), len(first_shape(op))
    if len(set(dims)) != len(dims):
        raise op.error(f"dimensions should be unique. Got: {commas(dims)}")
    for d in dims:
        if d < 0:
            raise op.error(f"all dimensions should be non-negative. Got dimension: {d}")
        if d >= rank:
            raise op.error(f"all dimensions should be in interval [0, {rank}). Got dimension: {d}")
    return same_shape(op)


def index(op: TTOp):
    shape = first_shape(op)
    dim = ints(op, "dim")[0]
    if not shape:
        raise op.error("Input must be at least a 1D tensor")
    check_slice_output_kind(op)
    if not 0 <= dim < len(shape):
        raise op.error(f"Invalid dimension index {dim}. Input tensor rank is {len(shape)}")
    check_sliced_size(op, dim, check_slice_dim(op, shape, dim, ints(op, "begin")[0], ints(op, "end")[0],
                                               ints(op, "step")[0], False))


def index_select_length(size: int, begin: int, length: int, stride: int) -> int:
    """Elements kept along the dimension: `length` of every `stride`, from `begin` (the last slice may be cut)."""
    return sum(min(b + length, size) - b for b in range(begin, size, stride))


def index_select(op: TTOp):
    shape, out = list(first_shape(op)), result_shape(op)
    rank = len(shape)
    if rank != len(out):
        raise op.error("Input and output tensors must have the same rank.")
    if op.operands[0].type.element_type != op.results[0].type.element_type:
        raise op.error("Input and output tensors must have the same element type.")
    given = ints(op, "dim")[0]
    dim = given + rank if given < 0 else given
    if not 0 <= dim < rank:
        raise op.error(f"Invalid dimension {given} for select op with input tensor rank {rank}")
    size, begin, length = shape[dim], ints(op, "begin")[0], ints(op, "length")[0]
    stride = ints(op, "stride")[0] or size
    if stride < 0:
        raise op.error(f"Invalid stride {stride} for dimension {dim}, stride must be non-negative")
    if stride > size:
        raise op.error(f"Invalid stride {stride} for dimension {dim} with size {size}. stride must be less than or "
                       f"equal to the dimension size")
    if not 0 <= begin < size:
        raise op.error(f"Invalid begin index {begin} for dimension {dim} with size {size}. begin must be in the "
                       f"range [0, dimSize)")
    if not 1 <= length <= stride:
        raise op.error(f"Invalid length {length} for begin index {begin} and stride {stride} for dimension {dim} "
                       f"with size {size}. stride must be greater than or equal to length")
    if begin + length > size:
        raise op.error(f"Invalid length {length} for begin index {begin} and dimension {dim} with size {size}. "
                       f"begin + length must be less than or equal to the dimension size")
    total = index_select_length(size, begin, length, stride)
    if total != out[dim]:
        raise op.error(f"Sum of all slices must be equal to the output dimension size for the given dimension. "
                       f"Expected output dimension size: {out[dim]}, but got {total}")
    shape[dim] = total
    return [tuple(shape)]


def gather(op: TTOp):
    """torch.gather's form in upstream's words; the StableHLO form needs all of its attributes."""
    input_shape, index_type = first_shape(op), op.operands[1].type
    dim = op.prop("dim")
    if dim is None:
        for name in STABLEHLO_GATHER:
            if op.prop(name) is None:
                raise op.error(f"requires attribute '{name}'")
        if len(ints(op, "slice_sizes")) != len(input_shape):
            raise op.error(f"slice_sizes must have {len(input_shape)} values (the input rank), got "
                           f"{len(ints(op, 'slice_sizes'))}")
        return None
    if not isinstance(index_type.element_type, IntegerType):
        raise op.error(f"Index tensor must have an integer type, got '{index_type.element_type}'")
    rank = len(input_shape)
    if rank != len(index_type.get_shape()):
        raise op.error(f"Input tensor and index tensor must have the same rank. Got input rank = {rank}, index rank = "
                       f"{len(index_type.get_shape())}")
    if rank < 1:
        raise op.error(f"Input tensor and index tensor must have rank >= 1. Got rank = {rank}")
    if not -rank <= scalar(dim) < rank:
        raise op.error(f"Dimension must be in the range [-{rank}, {rank}), got dim = {scalar(dim)}")
    if tuple(index_type.get_shape()) != result_shape(op):
        raise op.error("Index tensor and result tensor must have the same shape.")


def matmul_product_shape(op: TTOp) -> Shape:
    """The shape of a matmul/linear's product (before any bias): 1-D operands promoted, batch dims broadcast."""
    groups = op.operand_groups()
    a_shape, b_shape = shape_of(groups["a"][0]), shape_of(groups["b"][0])
    if not a_shape:
        raise op.error("Input A must be at least a 1D tensor")
    if not b_shape:
        raise op.error("Input B must be at least a 1D tensor")
    a = (1,) + a_shape if len(a_shape) == 1 else a_shape
    b = b_shape + (1,) if len(b_shape) == 1 else b_shape
    if scalar(op.prop("transpose_a")) and len(a_shape) > 1:
        a = a[:-2] + (a[-1], a[-2])
    if scalar(op.prop("transpose_b")) and len(b_shape) > 1:
        b = b[:-2] + (b[-1], b[-2])
    if a[-1] != b[-2]:
        raise op.error(f"Input A[-1]({a[-1]}) and B[-2]({b[-2]}) must have matching inner dimensions")
    want: Shape | None = ()
    if len(a) > 2 or len(b) > 2:
        want = broadcast_shape(a[:-2], b[:-2])
        if want is None:
            raise op.error(f"Batch dimensions of input A({commas(a[:-2], ',')}) and B({commas(b[:-2], ',')}) are not "
                           f"broadcast compatible")
    return want + ((a[-2],) if len(a_shape) > 1 else ()) + ((b[-1],) if len(b_shape) > 1 else ())


def matmul(op: TTOp):
    """matmul and linear, in upstream's words: 1-D operands are promoted, batch dims broadcast, bias broadcasts."""
    groups, want = op.operand_groups(), matmul_product_shape(op)
    if groups.get("bias"):
        bias = shape_of(groups["bias"][0])
        if not bias:
            raise op.error("Bias must be at least a 1D tensor")
        with_bias = broadcast_shape(want, bias)
        if with_bias is None:
            raise op.error(f"Bias shape({commas(bias, ',')}) is not broadcast compatible with the matmul output "
                           f"shape({commas(want, ',')})")
        want = with_bias
    out = result_shape(op)
    if not want:
        if not out:
            raise op.error("Scalar output is not supported, output must be at least a 1D tensor")
        if out != (1,):
            raise op.error("Scalar output must be a 1D tensor of size 1")
        return
    if len(out) != len(want):
        raise op.error(f"Output shape rank({len(out)}) must match the expected output shape rank({len(want)})")
    for i, (got, expected) in enumerate(zip(out, want)):
        if got != expected:
            raise op.error(f"Output shape dimension[{i}]({got}) doesn't match the expected output shape "
                           f"dimension[{i}]({expected})")


def dot_general(op: TTOp):
    lhs, rhs = shape_of(op.operands[0]), shape_of(op.operands[1])
    bl, cl, br, cr = (ints(op, n) for n in ("batch_dims_lhs", "contract_dims_lhs", "batch_dims_rhs",
                                           "contract_dims_rhs"))
    if len(bl) != len(br) or len(cl) != len(cr):
        raise op.error("batch and contract dimension counts of lhs and rhs must match")
    for a, b in [*zip(bl, br), *zip(cl, cr)]:
        if lhs[a] != rhs[b]:
            raise op.error(f"lhs dimension {a} ({lhs[a]}) and rhs dimension {b} ({rhs[b]}) must match")
    free = [d for i, d in enumerate(lhs) if i not in bl and i not in cl]
    return [tuple([lhs[i] for i in bl] + free + [d for i, d in enumerate(rhs) if i not in br and i not in cr])]


def softmax(op: TTOp):
    shape = first_shape(op)
    if result_shape(op) != shape:
        raise op.error("Input and output shapes must be the same")
    if not -len(shape) <= ints(op, "dimension")[0] < len(shape):
        raise op.error("Dimension attribute must be within the bounds of the input tensor")


def embedding(op: TTOp):
    indices, weight = shape_of(op.operands[0]), shape_of(op.operands[1])
    if len(indices) > 2:
        raise op.error(f"input must be at most a 2D tensor, got {len(indices)}D ranked tensor")
    if len(weight) < 2:
        raise op.error(f"weight must be at least 2D tensor, got {len(weight)}D ranked tensor")
    if any(d != 1 for d in weight[:-2]):
        raise op.error("weight must be effectively 2D tensor")
    want = indices + (weight[-1],)
    if result_shape(op) != want:
        raise op.error(f"expected output shape of ({commas(want)}) but got ({commas(result_shape(op))})")


def embedding_backward(op: TTOp):
    weight, gradient = op.operands[1].type, op.operands[2].type
    if len(weight.get_shape()) != 2:
        raise op.error("Input must be a 2D tensor")
    if gradient.element_type != op.results[0].type.element_type:
        raise op.error("Input gradient and output must have the same dtype")
    if result_shape(op) != tuple(weight.get_shape()):
        raise op.error("Output must have the same shape as weight")


def int_pair(op: TTOp, name: str, suffix: str = "") -> list[int]:
    """A stride/dilation/kernel/scale: one integer for both dimensions or an array of two (upstream's words)."""
    attr = op.prop(name)
    values = int_values(attr)
    if isinstance(attr, DenseArrayBase) and len(values) != 2:
        raise op.error(f"Expected integer or pair of integers, got tuple of size {len(values)}{suffix}")
    return pair(values)


def int_quad(op: TTOp, name: str, suffix: str = "") -> list[int]:
    """A padding as (top, left, bottom, right): one integer, a (vertical, horizontal) pair, or four."""
    attr = op.prop(name)
    values = int_values(attr)
    if isinstance(attr, DenseArrayBase) and len(values) not in (2, 4):
        raise op.error(f"Expected integer, pair, or tuple of size 4, but got tuple of size {len(values)}{suffix}")
    return padding4(values)


def conv_dims(op: TTOp) -> list[int]:
    """Where the batch, height, width and channel dimensions are: NHWC is [0, 1, 2, 3], NCHW is [0, 2, 3, 1]."""
    return [ints(op, name)[0] for name in ("batch_dim", "height_dim", "width_dim", "channel_dim")]


FLATTENED_DIM = 2  # a flattened (1, 1, N*H*W, C) tensor's N*H*W dimension


def flattened_info(op: TTOp) -> tuple[int, int, int] | None:
    info = op.prop("flattened_compat_info")
    return None if info is None else info.data


def check_flattened(op: TTOp, capital: bool = False) -> None:
    """The flattened input holds batch_size * input_height * input_width rows (conv's message is a sentence)."""
    info = flattened_info(op)
    got = first_shape(op)[FLATTENED_DIM] if info else None
    if info and math.prod(info) != got:
        n, h, w = info
        head = "The input" if capital else "the input"
        raise op.error(f"{head} tensor's flattened dimension ({got}) does not match the product of batch_size * "
                       f"input_height * input_width from FlattenedCompatInfo ({n} * {h} * {w} = {n * h * w})"
                       + ("." if capital else ""))


def sliding_dims(op: TTOp, shape: Shape, dims: Sequence[int]) -> tuple[int, int, int, int]:
    """(N, H, W, C) of a sliding-window input, from FlattenedCompatInfo when the input is flattened."""
    info = flattened_info(op)
    return (*info, shape[dims[3]]) if info else tuple(shape[d] for d in dims)


def sliding_output(op: TTOp, n: int, h: int, w: int, checks: Sequence[tuple[Callable, Callable]], channels: int,
                   capital: bool) -> None:
    """Check the result against the computed (N, OH, OW, C): each dimension, or N*OH*OW when flattened. `checks`
    are (failed, message) for the batch and the channels; conv2d's messages are sentences, the pools' are not,
    and a flattened pool checks its channels first."""
    out, dims = result_shape(op), (conv_dims(op) if "channel_dim" in {p[0] for p in op.ROW.props} else [0, 1, 2, 3])
    the = "The output" if capital else "output"
    dot = "." if capital else ""
    if flattened_info(op) is None:
        for failed, message in checks:
            if failed(out, dims):
                raise op.error(message(out, dims))
        if (out[dims[1]], out[dims[2]]) != (h, w):
            raise op.error(f"{the} tensor height and width dimension ({out[dims[1]]}, {out[dims[2]]}) do not "
                           f"match the expected dimensions ({h}, {w}){dot}")
        return
    if out[dims[3]] != channels and not capital:
        raise op.error(checks[-1][1](out, dims))
    if n * h * w != out[FLATTENED_DIM]:
        raise op.error(f"{the} tensor's flattened dimension ({out[FLATTENED_DIM]}) does not match the "
                       f"product of batch_size * output_height * output_width ({n} * {h} * {w} = {n * h * w}){dot}")
    if out[dims[3]] != channels:
        raise op.error(checks[-1][1](out, dims))


def check_ranks(op: TTOp, *names: str) -> None:
    groups = op.operand_groups()
    for name in names:
        values = groups.get(name)
        if values and len(shape_of(values[0])) != 4:
            raise op.error(f"{name} must be a 4D tensor")
    if len(result_shape(op)) != 4:
        raise op.error("output must be a 4D tensor")


def conv2d(op: TTOp):
    check_ranks(op, "input", "weight", "bias")
    check_flattened(op, capital=True)
    dims = conv_dims(op)
    if sorted(dims) != [0, 1, 2, 3]:
        raise op.error(f"batch, height, width and channel dimensions must be a permutation of (0, 1, 2, 3), got "
                       f"({commas(dims)})")
    n, h, w, c = sliding_dims(op, first_shape(op), dims)
    weight = shape_of(op.operands[1])
    groups_bias = op.operand_groups().get("bias")
    stride = int_pair(op, "stride", " for stride")
    top, left, bottom, right = int_quad(op, "padding", " for padding")
    dilation = int_pair(op, "dilation", " for dilation")
    groups = ints(op, "groups")[0]
    if min(stride) <= 0:
        raise op.error("Stride attribute values must be > 0.")
    if min(dilation) <= 0:
        raise op.error("Dilation attribute values must be > 0.")
    if min(top, left, bottom, right) < 0:
        raise op.error("Padding attribute values must be >= 0.")
    conv.check_channel_groups(op, c, groups, weight[0], weight[1],
                              shape_of(groups_bias[0])[dims[3]] if groups_bias else None)
    padded = (h + top + bottom, w + left + right)
    kernel = (dilation[0] * (weight[2] - 1) + 1, dilation[1] * (weight[3] - 1) + 1)
    if padded[0] < kernel[0] or padded[1] < kernel[1]:
        raise op.error(f"The effective kernel size ({kernel[0]}, {kernel[1]}) cannot be greater than the padded "
                       f"input size per channel ({padded[0]}, {padded[1]}).")
    oh, ow = ((p - k) // s + 1 for p, k, s in zip(padded, kernel, stride))
    channels = weight[0]
    sliding_output(op, n, oh, ow, (
        (lambda out, d: out[d[0]] != n, lambda out, d: f"Batch size from the input tensor ({n}) must match the first "
                                                       f"dimension of the output tensor ({out[d[0]]})"),
        (lambda out, d: out[d[3]] != channels,
         lambda out, d: f"The number of output channels from the output tensor ({out[d[3]]}) must match the number "
                        f"of output channels in the weight tensor ({channels}). ")), channels, capital=True)


def conv_transpose2d(op: TTOp):
    check_flattened(op, capital=True)
    for name, what in (("input", "Input"), ("output", "Output"), ("weight", "Weight"), ("bias", "Bias")):
        values = [op.results[0]] if name == "output" else op.operand_groups().get(name)
        if values and len(shape_of(values[0])) != 4:
            raise op.error(f"{what} must be a 4D tensor")
    dims = conv_dims(op)
    shape, out, info = first_shape(op), result_shape(op), flattened_info(op)
    if info is None and shape[dims[0]] != out[dims[0]]:
        raise op.error("Batch size of input and output tensors must match")
    stride = int_pair(op, "stride", " for stride")
    if min(stride) < 1:
        raise op.error("Stride values must be greater than 0")
    top, left, bottom, right = int_quad(op, "padding", " for padding")
    if min(top, left, bottom, right) < 0:
        raise op.error("Padding values must be greater or equal than 0")
    out_pad = int_pair(op, "output_padding", " for output padding")
    if min(out_pad) < 0:
        raise op.error("Output padding values must be greater or equal than 0")
    dilation = int_pair(op, "dilation", " for dilation")
    if min(dilation) < 1:
        raise op.error("Dilation values must be greater than 0")
    weight = shape_of(op.operands[1])
    c_in, c_out, groups = shape[dims[3]], out[dims[3]], ints(op, "groups")[0]
    if groups <= 0 or c_in % groups:
        raise op.error(f"Number of input channels from input tensor must be divisible by the number of groups. Got "
                       f"{c_in} input channels and {groups} groups.")
    if c_out % groups:
        raise op.error(f"Number of output channels from output tensor must be divisible by the number of groups. "
                       f"Got {c_out} output channels and {groups} groups.")
    if c_in != weight[0]:
        raise op.error(f"Number of input channels from input tensor must match the first dimension of the weight "
                       f"tensor. Got {c_in} input channels and {weight[0]} in the weight tensor.")
    if c_out // groups != weight[1]:
        raise op.error(f"Number of output channels per group must match the second dimension of the weight tensor. "
                       f"Got {c_out // groups} output channels per group and {weight[1]} in the weight tensor.")
    bias = op.operand_groups().get("bias")
    if bias and shape_of(bias[0])[dims[3]] != c_out:
        raise op.error(f"Mismatch in bias tensor dimensions. Bias tensor has {shape_of(bias[0])[dims[3]]} channels, "
                       f"but the output tensor has {c_out} channels.")
    n, h, w, _ = sliding_dims(op, shape, dims)
    oh = (h - 1) * stride[0] - (top + bottom) + dilation[0] * (weight[2] - 1) + out_pad[0] + 1
    ow = (w - 1) * stride[1] - (left + right) + dilation[1] * (weight[3] - 1) + out_pad[1] + 1
    if oh < 0 or ow < 0:
        raise op.error(f"Given input size per channel: ({h} x {w}). Calculated output size per channel: ({oh} x {ow})."
                       f" Output size is too small")
    if info is None and (out[dims[1]], out[dims[2]]) != (oh, ow):
        raise op.error(f"Mismatch between expected output size per channel and got output tensor dimensions. "
                       f"Expected: ({oh} x {ow}), got: ({out[dims[1]]} x {out[dims[2]]}).")
    if info is not None and n * oh * ow != out[FLATTENED_DIM]:
        raise op.error(f"Mismatch between expected flattened NHW dim size. Expected: {n * oh * ow}, got: "
                       f"{out[FLATTENED_DIM]}.")


def pool2d(op: TTOp):
    check_ranks(op, "input")
    check_flattened(op)
    n, h, w, c = sliding_dims(op, first_shape(op), [0, 1, 2, 3])
    kernel, stride, dilation = (int_pair(op, k, f" for {k} attribute") for k in ("kernel", "stride", "dilation"))
    top, left, bottom, right = int_quad(op, "padding", " for padding attribute")
    for name, values in (("kernel size", kernel), ("stride", stride), ("dilation", dilation)):
        if min(values) <= 0:
            raise op.error(f"{name} attribute values must be > 0")
    if min(top, left, bottom, right) < 0:
        raise op.error("padding attribute values must be >= 0")
    padded = (h + top + bottom, w + left + right)
    effective = (dilation[0] * (kernel[0] - 1) + 1, dilation[1] * (kernel[1] - 1) + 1)
    if padded[0] < effective[0] or padded[1] < effective[1]:
        raise op.error(f"effective kernel size ({effective[0]}, {effective[1]}) cannot be greater than the padded "
                       f"input size per channel ({padded[0]}, {padded[1]})")
    if scalar(op.prop("ceil_mode")):
        oh, ow = (-((k - p) // s) + 1 for p, k, s in zip(padded, effective, stride))
        # a last window that starts in the bottom/right padding is dropped
        oh -= (oh - 1) * stride[0] >= h + top
        ow -= (ow - 1) * stride[1] >= w + left
    else:
        oh, ow = ((p - k) // s + 1 for p, k, s in zip(padded, effective, stride))
    sliding_output(op, n, oh, ow, (
        (lambda out, d: out[0] != n, lambda out, d: f"batch size from the input tensor ({n}) must match the first "
                                                    f"dimension of the output tensor ({out[0]})"),
        (lambda out, d: out[3] != c, lambda out, d: f"number of output channels from the output tensor ({out[3]}) "
                                                    f"must match the number of input channels ({c})")),
     c, capital=False)


def max_pool2d_with_indices(op: TTOp):
    pool2d(op)
    if result_shape(op, 1) != result_shape(op):
        raise op.error("Pooled values and indices must have the same shape")
    if not isinstance(op.results[1].type.element_type, IntegerType):
        raise op.error("Indices result must have integer element type")


# which of (input, result) hold quantized values
QUANTIZED_SIDES = {"quantize": (False, True), "dequantize": (True, False), "requantize": (True, True)}


def quantization(op: TTOp):
    """Upstream's quantize-family verifier: element kinds, equal shapes; for the unrolled ops, the axis, the number
    of per-axis scales and the zero points' range."""
    kind = op.ROW.name.removesuffix("_unrolled")
    unrolled = kind != op.ROW.name
    source, result = op.operands[0].type, op.results[0].type
    elements = (source.element_type, result.element_type)
    if unrolled and kind == "requantize":
        kinds = {e.per_axis if isinstance(e, UniformQuantizedType) else None for e in elements}
        if None in kinds or len(kinds) != 1:
            raise op.error(f"Input and output element types must both be per-axis or both be per-tensor quantized "
                           f"types, but got '{elements[0]}' and '{elements[1]}'")
    else:
        for what, element, quantized in zip(("Input", "Output"), elements, QUANTIZED_SIDES[kind]):
            if quantized and not isinstance(element, UniformQuantizedType):
                raise op.error(f"{what} element type must be UniformQuantizedType or UniformQuantizedPerAxisType, "
                               f"but got '{element}'")
            if not quantized and not isinstance(element, FLOAT_TYPES):
                raise op.error(f"{what} element type must be float, but got '{element}'")
    shape, out = source.get_shape(), result.get_shape()
    if len(shape) != len(out):
        raise op.error(f"Input tensor rank of {len(shape)} does not match the output tensor rank of {len(out)}")
    if shape != out:
        raise op.error(f"Output tensor shape ({commas(out, ',')}) must match the inferred shape: "
                       f"({commas(shape, ',')})")
    if not unrolled:
        return
    axis = op.prop("axis")
    if axis is not None and not 0 <= scalar(axis) < len(shape):
        raise op.error(f"Axis value {scalar(axis)} is out of the range [0, {len(shape)}) for the input tensor of "
                       f"rank {len(shape)}")
    for element in elements:
        if not isinstance(element, UniformQuantizedType):
            continue
        q = element.data
        if element.per_axis and len(q.scales) != shape[q.axis]:
            raise op.error(f"Number of scales ({len(q.scales)}) does not match the size of the quantized axis "
                           f"({shape[q.axis]})")
        for zero_point in q.zero_points:
            if not q.storage_min <= zero_point <= q.storage_max:
                raise op.error(f"Zero point {zero_point} is out of the range for storage type "
                               f"'{element.storage_type}'")
        if not element.per_axis:  # upstream stops at the first per-tensor type
            return


def global_pool2d(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    rank = len(shape)
    if rank < 2:
        raise op.error("input tensor must have at least 2 dimensions for global average pooling over 2 spatial "
                       "dimensions")
    if len(out) != rank:
        raise op.error("output tensor must have the same rank as input tensor")
    if shape[0] != out[0]:
        raise op.error("batch dimension must remain the same between input and output")
    if out[rank - 2] != 1 or out[rank - 3] != 1:
        raise op.error("spatial dimensions must be reduced to 1")
    if shape[-1] != out[-1]:
        raise op.error("channel dimension must remain the same between input and output")


def upsample2d(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    for what, rank in (("input", len(shape)), ("output", len(out))):
        if rank != 4:
            raise op.error(f"Expected rank of {what} tensor is 4, got rank {rank}")
    scale_h, scale_w = int_pair(op, "scale_factor")
    if scale_h <= 0 or scale_w <= 0:
        raise op.error(f"Scale factors H = {scale_h} and W = {scale_w} must be positive integers")
    for name, i, want in (("H", 1, shape[1] * scale_h), ("W", 2, shape[2] * scale_w)):
        if out[i] != want:
            raise op.error(f"Expected output {name} dimension to be input {name} dimension * scale{name} = {want}, "
                           f"got {out[i]}")
    for name, i in (("N", 0), ("C", 3)):
        if out[i] != shape[i]:
            raise op.error(f"Expected output {name} dimension to be {shape[i]}, got {out[i]}")
    if scalar(op.prop("mode")) not in ("nearest", "bilinear"):
        raise op.error(f'Expected modes are (nearest, bilinear), got "{scalar(op.prop("mode"))}"')


def batch_norm(op: TTOp):
    shape = first_shape(op)
    rank, dim = len(shape), ints(op, "dimension")[0]
    if not 2 <= rank <= 5:
        raise op.error(f"input tensor must have rank between 2 and 5, got rank {rank}")
    if not 0 <= dim < rank:
        raise op.error(f"dimension attribute must be within input rank bounds, got dimension {dim} for rank {rank}")
    return [shape, (shape[dim],), (shape[dim],)][:len(op.results)]


def norm(op: TTOp):
    shape = first_shape(op)
    if result_shape(op) != shape:
        raise op.error("input and output must have the same shape")
    normalized = tuple(ints(op, "normalized_shape"))
    if not normalized:
        raise op.error("normalized_shape cannot be empty")
    if len(normalized) > len(shape):
        raise op.error("normalized_shape has more dimensions than input tensor")
    if shape[len(shape) - len(normalized):] != normalized:
        raise op.error("normalized_shape dimensions must match trailing dimensions of input tensor")
    groups = op.operand_groups()
    for name in ("weight", "bias"):
        if groups.get(name) and shape_of(groups[name][0]) != normalized:
            raise op.error(f"{name} tensor shape must match normalized_shape")


def group_norm(op: TTOp):
    shape = first_shape(op)
    groups = ints(op, "num_groups")[0]
    channel = op.prop("channel_dim")
    channels = shape[-1] if channel is None else shape[scalar(channel) % len(shape)]  # TTNN's op: channels last
    if groups <= 0 or channels % groups:
        raise op.error(f"the number of channels ({channels}) must be divisible by num_groups ({groups})")
    return [shape]


def constant(op: TTOp):
    value = op.prop("value")
    if not isinstance(value, (DenseIntOrFPElementsAttr, DenseResourceAttr)):
        raise op.error("value attribute must be one of DenseResourceElementsAttr or DenseElementsAttr.")
    if not isinstance(value.type.element_type, (IntegerType, *FLOAT_TYPES)):
        raise op.error("value attribute must be of int or float type.")
    if isinstance(value, DenseIntOrFPElementsAttr):
        return [tuple(value.type.get_shape())]
    return None


def fill(op: TTOp):
    shape = tuple(ints(op, "shape"))
    if result_shape(op) != shape:
        raise op.error(f"expected shape ({commas(result_shape(op))}), got ({commas(shape)})")


def arange(op: TTOp):
    start, end, step = (ints(op, n)[0] for n in ("start", "end", "step"))
    if step == 0:
        raise op.error("Step value cannot be zero")
    count = int((end - start) / step)  # C++ integer division truncates toward zero
    if count <= 0:
        raise op.error(f"Invalid range: start={start}, end={end}, step={step}")
    out = result_shape(op)
    dim = ints(op, "arange_dimension")[0]
    if not 0 <= dim < len(out):
        raise op.error(f"arange_dimension {dim} is out of range for a tensor of rank {len(out)}")
    if out[dim] != count:
        raise op.error(f"Output tensor shape must be {count} at dim {dim} (since start={start}, end={end}, "
                       f"step={step}), but got {out[dim]}")


def rand(op: TTOp):
    if scalar(op.prop("low")) >= scalar(op.prop("high")):
        raise op.error("'low' value must be < 'high' value.")
    size = ints(op, "size")
    if result_shape(op) != tuple(size):
        sizes = ", ".join(f"{d} : i32" for d in size)
        raise op.error(f"Size argument does not match with output tensor shape. [Size = [{sizes}], output tensor "
                       f"shape = ({commas(result_shape(op))})].")


def cache(op: TTOp):
    """update_cache writes one position per user ([1, heads, users, dim] into [users, heads, seq, dim]);
    fill_cache writes a prompt of at most the cache's length."""

    cache_type, input_type = op.operands[0].type, op.operands[1].type
    cache_dtype, input_dtype = (data_type_of(t.element_type) for t in (cache_type, input_type))
    if cache_dtype != input_dtype:
        raise op.error(f"Cache and input tensors must have the same dtype. Got cache dtype = {cache_dtype}, "
                       f"input dtype = {input_dtype}")
    cache_shape, input_shape = shape_of(op.operands[0]), shape_of(op.operands[1])
    for what, shape in (("Cache", cache_shape), ("Input", input_shape)):
        if len(shape) != 4:
            raise op.error(f"{what} tensor must be a 4D tensor")
    if op.name == "ttir.update_cache" and input_shape[0] != 1:
        raise op.error(f"Input tensor requires that dim 0 have size 1, got input dim 0 size = {input_shape[0]}")
    if op.name == "ttir.fill_cache" and input_shape[2] > cache_shape[2]:
        raise op.error(f"Input tensor requires that dim 2 have a size which is less than or equal to the size of "
                       f"dim 2 of the cache tensor. Got cache dim 2 size = {cache_shape[2]}, input dim 2 size = "
                       f"{input_shape[2]}")
    if (cache_shape[1], cache_shape[3]) != (input_shape[1], input_shape[3]):
        raise op.error(f"Cache tensor shape must match input tensor shape on dims 1 and 3. Got cache shape "
                       f"({commas(cache_shape)}), input shape ({commas(input_shape)})")
    return []


def paged_update_cache(op: TTOp):
    """Upstream's checks: 4D cache and input, one update index per user, whole-tile pages."""
    groups = op.operand_groups()
    cache, update, index = (shape_of(groups[n][0]) for n in ("cache", "input", "update_index"))
    table = groups["page_table"]
    if len(cache) != 4:
        raise op.error("Cache tensor must be a 4D tensor")
    if len(update) != 4:
        raise op.error("Input tensor must be a 4D tensor")
    if len(index) != 1:
        raise op.error("Update index tensor must be a 1D tensor")
    users = index[0]
    if table and cache[2] % 32:
        raise op.error(f"Block size must be divisible by 32, got {cache[2]}")
    if update[0] != 1:
        raise op.error(f"Input tensor must have dim 0 be equal to 1, got {update[0]}")
    if update[1] != users:
        raise op.error(f"Input tensor must have shape equal to the number of users (determined by update index "
                       f"shape): {users}, got {update[1]}")
    if update[3] != cache[3]:
        raise op.error(f"Input tensor must have dim 3 be equal to the head dimension (determined by cache shape): "
                       f"{cache[3]}, got {update[3]}")
    if table:
        pages = shape_of(table[0])
        if len(pages) != 2:
            raise op.error("Page table tensor must be a 2D tensor")
        if pages[0] != users:
            raise op.error(f"Page table tensor must have dim 0 be equal to the number of users (determined by update "
                           f"index shape): {users}, got {pages[0]}")
    return []


def same_rank(op: TTOp):
    if len(op.results[0].type.get_shape()) != len(first_shape(op)):
        raise op.error("result must have the same rank as the input")
    return None


def mesh_shard(op: TTOp):
    """Upstream refuses maximal sharding; a device split names each mesh axis's tensor dim (-1: not split there),
    so a dim outside the tensor is refused here rather than failing in the kernel (a shard shape of ones splits
    nothing: it folds away)."""
    kind = op.prop("shard_type").data.value
    if kind == "maximal":
        raise op.error("Invalid shard_type (maximal) for mesh_shard op.")
    rank = len(first_shape(op))
    dims = int_values(op.prop("shard_dims"))
    splits = any(d != 1 for d in int_values(op.prop("shard_shape")))
    if kind == "devices" and splits and any(d != -1 and not 0 <= d < rank for d in dims):
        raise op.error(f"shard_dims ({commas(dims)}) must each be -1 or a dimension of the rank-{rank} input")
    return same_rank(op)


def collective_dim(op: TTOp, prop: str, head: str, word: str) -> None:
    """`head` as the dialect words it: TTIR "Invalid dimension for all gather op", TTNN "Invalid gather dimension
    for all reduce op" (sic)."""
    rank, dim = len(first_shape(op)), scalar(op.prop(prop))
    if not -rank <= dim < rank:
        raise op.error(f"{head}. {word.capitalize()} dimension must be >= to input tensor rank or < -input tensor "
                       f"rank, got {word}_dim = {dim}")


def reduce_type_in(op: TTOp, allowed: tuple[str, ...], what: str) -> None:
    if op.prop("reduce_type").data.value not in allowed:
        raise op.error(f"Invalid reduction type for {what} op.")


def all_gather(op: TTOp):
    collective_dim(op, "all_gather_dim", "Invalid dimension for all gather op", "gather")
    return same_rank(op)


def all_reduce(op: TTOp, what: str = "all reduce"):
    reduce_type_in(op, ("sum",), what)  # upstream's TTIR reduces only by sum
    return same_rank(op)


def reduce_scatter(op: TTOp):
    reduce_type_in(op, ("sum", "max", "min"), "reduce scatter")
    collective_dim(op, "scatter_dim", "Invalid dimension for reduce scatter op", "scatter")
    return same_rank(op)


def collective_permute(op: TTOp):
    pairs = op.prop("source_target_pairs")
    if len(pairs.type.get_shape()) != 2:
        raise op.error(f"The rank of source target pairs must be 2, got rank = {len(pairs.type.get_shape())}")
    values = [int(v) for v in dense_values(pairs)]
    if len(set(values[0::2])) != len(values[0::2]) or len(set(values[1::2])) != len(values[1::2]):
        raise op.error("There are duplicate 'src' or 'dest' devices in source target pairs")
    return same_rank(op)


def replica_groups_problem(groups) -> str | None:
    """What is wrong with a replica groups attribute, in upstream's words."""
    if len(groups.type.get_shape()) != 2:
        return "replica_groups must be a 2D array"
    ids, seen = [int(v) for v in dense_values(groups)], set()
    for chip in ids:
        if chip < 0:
            return "replica_groups values must be positive"
        if chip > len(ids) - 1:
            return f"replica_groups values must be in the range [0, {len(ids) - 1}], got {chip}"
        if chip in seen:
            return "replica_groups must not contain duplicate values"
        seen.add(chip)
    return None


def all_to_all(op: TTOp):
    shape, rank = list(first_shape(op)), len(first_shape(op))
    split, concat, count = (scalar(op.prop(p)) for p in ("split_dim", "concat_dim", "split_count"))
    if not 0 <= split < rank:
        raise op.error(f"splitDim must be in the range [0, {rank - 1}], got {split}")
    if count <= 0:
        raise op.error("splitCount must be a positive integer")
    if shape[split] % count:
        raise op.error("splitDim size must be divisible by splitCount")
    if not 0 <= concat < rank:
        raise op.error(f"concatDim must be in the range [0, {rank - 1}], got {concat}")
    shape[split] //= count
    shape[concat] *= count
    if tuple(shape) != result_shape(op):
        raise op.error(f"Output shape mismatch: expected = <{commas(shape)}> output = <{commas(result_shape(op))}>")
    if op.operands[0].type.element_type != op.results[0].type.element_type:
        raise op.error("Input and output element types must match")
    groups = op.prop("replica_groups")
    if (problem := replica_groups_problem(groups)) is not None:
        raise op.error(problem)
    if groups.type.get_shape()[1] != count:
        raise op.error("replicaGroup count must match splitCount")


def collective_broadcast(op: TTOp):
    if op.operands[0].type != op.results[0].type:
        raise op.error("input and output must have the same type")
    if (problem := replica_groups_problem(op.prop("replica_groups"))) is not None:
        raise op.error(problem)


def mesh_partition(op: TTOp):
    rank, dim = len(first_shape(op)), ints(op, "dim")[0]
    if not -rank <= dim < rank:
        raise op.error("Invalid tensor dimension for mesh partition op. Dimension must be >= to input tensor rank "
                       f"or < -input tensor rank, got dim = {dim}")
    axis = op.prop("cluster_axis")
    if axis is not None and scalar(axis) > 1:
        raise op.error(f"Cluster axis must be either None, 0 or 1, got {scalar(axis)}")
    return same_rank(op)


def distributed_norm(op: TTOp):
    shape, groups = first_shape(op), op.operand_groups()
    if result_shape(op) != shape:
        raise op.error("output shape must match input shape")
    if scalar(op.prop("cluster_axis")) > 1:
        raise op.error("cluster_axis must be 0 or 1")
    if op.prop("epsilon") is not None and scalar(op.prop("epsilon")) <= 0:
        raise op.error("epsilon must be positive")
    if groups.get("residual") and shape_of(groups["residual"][0]) != shape:
        raise op.error("residual tensor shape must match input tensor shape")
    if groups.get("weight") and shape_of(groups["weight"][0])[-1:] != shape[-1:]:
        raise op.error("weight tensor's last dimension must match input's last dimension")


def concatenate_heads(op: TTOp):
    shape, out = first_shape(op), result_shape(op)
    for what, tensor, rank in (("input", shape, 4), ("output", out, 3)):
        if len(tensor) != rank:
            raise op.error(f"expected rank of {what} tensor is {rank}, got rank {len(tensor)}")
    batch, heads, seq, size = shape
    for what, want, got in (("batch", batch, out[0]), ("sequence", seq, out[1])):
        if want != got:
            raise op.error(f"expected output {what} dimension to be {want}, got {got}")
    if heads * size != out[2]:
        raise op.error(f"expected output hidden dimension to be num_heads * head_size = {heads * size}, got {out[2]}")


def split_qkv(op: TTOp):
    shape, groups = first_shape(op), op.operand_groups()
    if len(shape) != 3:
        raise op.error(f"expected rank of input tensor is 3, got rank {len(shape)}")
    outs = [result_shape(op, i) for i in range(3)]
    if any(len(o) != 4 for o in outs):
        raise op.error(f"expected rank of query/key/value output tensor is 4, got query rank: {len(outs[0])}, key "
                       f"rank: {len(outs[1])}, value rank: {len(outs[2])}")
    heads = scalar(op.prop("num_heads"))
    kv_heads = scalar(op.prop("num_kv_heads")) if op.prop("num_kv_heads") is not None else heads
    kv = shape_of(groups["kv_input_tensor"][0]) if groups.get("kv_input_tensor") else shape
    if groups.get("kv_input_tensor"):
        size, kv_size = shape[2] // heads, kv[2] // (2 * kv_heads)
    else:
        size = kv_size = shape[2] // (heads + 2 * kv_heads)
    key = (kv[0], kv_heads, kv[1], kv_size)
    if scalar(op.prop("transpose_key")):
        key = key[:2] + (key[3], key[2])
    for name, want, got in (("query", (shape[0], heads, shape[1], size), outs[0]), ("key", key, outs[1]),
                            ("value", (kv[0], kv_heads, kv[1], kv_size), outs[2])):
        if want != got:
            raise op.error(f"expected {name} output shape ({commas(want)}), got ({commas(got)})")


def get_dimension_size(op: TTOp):
    normalize_dim(op, ints(op, "dimension")[0], len(first_shape(op)))
    return [(1,)]


def tt_lang_op(op: TTOp):
    """A tt-lang kernel's roles: one per input, every "in" before the "out"s, one "out" per result."""
    inputs = op.operands
    if not inputs:
        raise op.error("tt-lang kernel must have at least one input operand.")
    roles = op.prop("arg_roles").data
    if not roles:
        raise op.error("`arg_roles` attribute must not be empty.")
    tokens = [t.strip() for t in roles.split(",")]
    if len(tokens) != len(inputs):
        raise op.error(f"`arg_roles` token count ({len(tokens)}) must match number of inputs ({len(inputs)}).")
    for i, token in enumerate(tokens):
        if token not in ("in", "out"):
            raise op.error(f'`arg_roles` token must be "in" or "out", got: "{token}".')
        if token == "in" and "out" in tokens[:i]:
            raise op.error('`arg_roles` must list all "in" operands before any "out" operand '
                           "(destination-passing-style ordering).")
    outs = tokens.count("out")
    if outs != len(op.results):
        raise op.error(f'number of "out" roles ({outs}) must match number of results ({len(op.results)}).')
    if not outs:
        raise op.error('tt-lang kernel must have at least one operand tagged "out" (the destination buffer the '
                       "runtime returns as the kernel's output).")
    for name in ("kernel_id", "version_tag"):
        if not op.prop(name).data:
            raise op.error(f"`{name}` attribute must not be empty.")
    return [tuple(v.type.get_shape()) for v in inputs[len(inputs) - outs:]]


SHAPE_RULES = {
    "tt_lang": tt_lang_op,
    **moe.TTIR_RULES,
    "conv3d": conv.ttir_conv3d, "conv1d": conv.ttir_conv1d,
    "unary": eltwise, "binary": eltwise, "ternary": eltwise, "reduction": reduction, "cumsum": cumsum,
    "sort": sort, "topk": topk, "reshape": reshape, "transpose": transpose, "permute": permute, "concat": concat,
    "repeat": repeat, "repeat_interleave": repeat_interleave, "broadcast": broadcast, "pad": pad, "slice": slice_static, "slice_dynamic": slice_dynamic, "scatter": scatter,
    "squeeze": squeeze, "unsqueeze": unsqueeze, "reverse": reverse, "index": index, "index_select": index_select,
    "gather": gather, "matmul": matmul, "dot_general": dot_general, "softmax": softmax, "embedding": embedding,
    "embedding_backward": embedding_backward,
    "conv2d": conv2d, "conv_transpose2d": conv_transpose2d, "pool2d": pool2d, "global_pool2d": global_pool2d,
    "upsample2d": upsample2d, "batch_norm": batch_norm, "norm": norm, "group_norm": group_norm,
    "constant": constant, "full": fill, "fill": fill, "arange": arange, "creation": None, "rand": rand,
    "cache": cache, "mesh_shard": mesh_shard, "ccl": same_rank, "to_layout": to_layout,
    "get_dimension_size": get_dimension_size, "quantization": quantization, "dropout": dropout, "bitcast": bitcast,
    "concatenate_heads": concatenate_heads, "split_qkv": split_qkv, "mesh_partition": mesh_partition, "distributed_norm": distributed_norm,
    "attention": None,  # each attention op has its own rule (ttmlir.dialects.attention)
    "optimizer": None, "ttml_attention": None,  # their own rules (ttmlir.dialects.ttml)
}

class EmptyBase(EmptyFormat, TTOp):
    """`ttir.empty` in upstream's custom format: `%0 = ttir.empty() : tensor<2x3xf32>`."""


class ToLayoutBase(TTOp):
    """`ttir.to_layout` in upstream's custom format: `ttir.to_layout %in, %out : T into T -> T`."""

    @classmethod
    def parse(cls, parser: Parser):
        unresolved = [parser.parse_unresolved_operand()]
        parser.parse_punctuation(",")
        unresolved.append(parser.parse_unresolved_operand())
        parser.parse_punctuation(":")
        types = [parser.parse_type()]
        parser.parse_keyword("into")
        types.append(parser.parse_type())
        operands = [parser.resolve_operand(u, t) for u, t in zip(unresolved, types)]
        attributes = parser.parse_optional_attr_dict()
        results = [parser.parse_type()] if parser.parse_optional_punctuation("->") else []
        return cls.create(operands=operands, result_types=results, attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.operands], printer.print_attribute, " into ")
        printer.print_op_attributes(self.attributes)
        if self.results:
            printer.print_string(" -> ")
            printer.print_attribute(self.results[0].type)


class TTLangBase(TTOp):
    """`ttir.tt_lang_op` in upstream's custom format: `ttir.tt_lang_op(%a, %b) {arg_roles = "in,out", ...} :
    (T, T) -> (T)`, its properties in the dictionary (a default shard_spec left out)."""

    @classmethod
    def parse(cls, parser: Parser):
        unresolved = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
        parser.parse_punctuation("->")
        results = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, parser.parse_type)
        names = {p for p, _, _, _ in cls.ROW.props}
        return cls.create(operands=[parser.resolve_operand(u, t) for u, t in zip(unresolved, types)],
                          result_types=results, properties={k: v for k, v in attributes.items() if k in names},
                          attributes={k: v for k, v in attributes.items() if k not in names})

    def print(self, printer: Printer) -> None:
        printer.print_string("(")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_string(")")
        shown = {k: v for k, v in self.properties.items() if not (k == "shard_spec" and v.data == "")}
        printer.print_op_attributes(dict(sorted({**shown, **self.attributes}.items())))
        printer.print_string(" : (")
        printer.print_list([v.type for v in self.operands], printer.print_attribute)
        printer.print_string(") -> (")
        printer.print_list([r.type for r in self.results], printer.print_attribute)
        printer.print_string(")")


CUSTOM_BASES = {"empty": EmptyBase, "to_layout": ToLayoutBase, "tt_lang_op": TTLangBase}
# Ops verified unlike the rest of their family, as upstream verifies them.
OWN_RULES = {"clamp_scalar": clamp_scalar, "all_gather": all_gather, "all_reduce": all_reduce,
             "all_reduce_async": lambda op: all_reduce(op, "all reduce async"),
             "reduce_scatter": reduce_scatter, "collective_permute": collective_permute,
             "all_to_all": all_to_all, "collective_broadcast": collective_broadcast,
             "max_pool2d_with_indices": max_pool2d_with_indices, "gelu_bw": gelu_bw,
             "paged_fill_cache": paged_fill_cache, "paged_update_cache": paged_update_cache, **attention.TTIR_RULES,
             **ttml.TTIR_RULES}
TTIR_OP_CLASSES: dict[str, type[TTOp]] = {}
TTIR_OP_CLASSES.update({row.name: build_op_class("ttir", row, CUSTOM_BASES.get(row.name, TTOp),
                                                 OWN_RULES.get(row.name, SHAPE_RULES[row.family]), TTIR_OP_CLASSES,
                                                 patterns_for)
                        for row in TTIR_OPS})
globals().update({cls.__name__: cls for cls in TTIR_OP_CLASSES.values()})



def _encoding_name(t) -> str | None:
    encoding = getattr(t, "encoding", None) if isinstance(t, TensorType) else None
    return getattr(encoding, "name", None)


@irdl_op_definition
class TTNNMetalLayoutCastOp(IRDLOperation):
    """The same data seen through the other layout encoding: a `#ttnn.ttnn_layout` tensor as a
    `#ttcore.metal_layout` one (or a memref) for a D2M program, or back."""

    name = "ttir.ttnn_metal_layout_cast"
    input = operand_def(TensorType | MemRefType)
    result = result_def(TensorType | MemRefType)
    virtual_grid_inverse_mapping = opt_prop_def(AffineMapAttr)
    virtual_grid_forward_mapping = opt_prop_def(AffineMapAttr)
    traits = traits_def(Pure(), TableCanonicalization(TTIR_OP_CLASSES, patterns_for))
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    def verify_(self) -> None:
        source, target = _encoding_name(self.input.type), _encoding_name(self.result.type)
        if source == "ttnn.ttnn_layout" and target != "ttcore.metal_layout" and \
                not isinstance(self.result.type, MemRefType):
            raise VerifyException(f"'{self.name}' op Input is ttnn tensor, output must be metal tensor or memref")
        if (source == "ttcore.metal_layout" or isinstance(self.input.type, MemRefType)) and \
                target != "ttnn.ttnn_layout":
            raise VerifyException(f"'{self.name}' op Input is metal tensor or memref, output must be ttnn tensor")


TTIR = Dialect("ttir", [*TTIR_OP_CLASSES.values(), TTNNMetalLayoutCastOp], [FlattenedCompatInfoAttr])
