"""The shape rules of the TTIR op families, shared by TTNN's ops: given an op's operand shapes and properties, the
result shapes it must declare, or a diagnostic in upstream's words."""

from __future__ import annotations

import math
from typing import Sequence

from xdsl.dialects.builtin import IntegerType, TensorType

from ttmlir.dialects import quant, ttcore
from ttmlir.ir.op_table import STABLEHLO_GATHER
from ttmlir.ir.props import FLOAT_TYPES, int_values, scalar
from ttmlir.ir.tt_op import TTOp


Shape = tuple[int, ...]


def encoding_name(t) -> str | None:
    encoding = getattr(t, "encoding", None) if isinstance(t, TensorType) else None
    return getattr(encoding, "name", None)


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
    return tuple(y if x == 1 else x for x, y in zip(a, b))  # a 1 takes the other's size, even 0


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
    if any(encoding_name(v.type) == "ttcore.metal_layout" for v in (*op.operands, *op.results)):
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


def shift(op: TTOp):
    """A logical shift: an elementwise op of integers (the value shifted, the amount and the result; a quantized
    type's storage integer shifts)."""
    for value, what in zip((*op.operands[:2], op.results[0]), ("Left operand", "Right operand", "Output")):
        element = value.type.element_type
        if not isinstance(quant.storage_of(element), IntegerType):
            raise op.error(f"{what} element type must be integer, but got {element}")
    eltwise(op)


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
    # a quantized value is reinterpreted through the integer it is stored as
    source, target = (quant.storage_of(v.type.element_type) for v in (op.operands[0], op.results[0]))
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


