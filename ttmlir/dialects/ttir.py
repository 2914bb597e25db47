"""The TTIR dialect: framework-level tensor ops, one class per op-table row.

Each family has a shape rule: given an op's operand shapes and properties it returns the result
shapes the op must declare, or raises a diagnostic in upstream's words. The same rules serve the
TTNN dialect, whose ops share the TTIR rows.
"""

from __future__ import annotations

import math
from typing import Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects.op_table import STABLEHLO_GATHER, TTIR_OPS
from ttmlir.dialects.props import dense_values, int_values, scalar
from ttmlir.dialects.tt_op import TTOp, build_op_class
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
    shape[dim] = index_select_length(size, begin, length, stride)
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


def matmul(op: TTOp):
    """matmul and linear, in upstream's words: 1-D operands are promoted, batch dims broadcast, bias broadcasts."""
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
    want += ((a[-2],) if len(a_shape) > 1 else ()) + ((b[-1],) if len(b_shape) > 1 else ())
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


def conv_dims(op: TTOp) -> list[int]:
    """Where the batch, height, width and channel dimensions are: NHWC is [0, 1, 2, 3], NCHW is [0, 2, 3, 1]."""
    return [ints(op, name)[0] for name in ("batch_dim", "height_dim", "width_dim", "channel_dim")]


def conv2d(op: TTOp):
    shape, dims = first_shape(op), conv_dims(op)
    if len(shape) != 4:
        raise op.error("input must be a 4D tensor")
    if sorted(dims) != [0, 1, 2, 3]:
        raise op.error(f"batch, height, width and channel dimensions must be a permutation of (0, 1, 2, 3), got "
                       f"({commas(dims)})")
    n, h, w, c = (shape[d] for d in dims)
    weight = shape_of(op.operands[1])
    groups = ints(op, "groups")[0]
    if len(weight) != 4:
        raise op.error("weight must be a 4D tensor")
    groups_bias = op.operand_groups().get("bias")
    if groups_bias and len(shape_of(groups_bias[0])) != 4:
        raise op.error("bias must be a 4D tensor")
    if c != weight[1] * groups:
        raise op.error(f"the number of input channels ({c}) must equal weight dimension 1 ({weight[1]}) times "
                       f"groups ({groups})")
    stride, dilation = pair(ints(op, "stride")), pair(ints(op, "dilation"))
    pt, pl, pb, pr = padding4(ints(op, "padding"))
    oh = (h + pt + pb - dilation[0] * (weight[2] - 1) - 1) // stride[0] + 1
    ow = (w + pl + pr - dilation[1] * (weight[3] - 1) - 1) // stride[1] + 1
    out = [0] * 4
    for d, size in zip(dims, (n, oh, ow, weight[0])):
        out[d] = size
    return [tuple(out)]


def conv_transpose2d(op: TTOp):
    n, h, w, c = _nhwc(op)
    weight = shape_of(op.operands[1])
    if len(weight) != 4 or weight[0] != c:
        raise op.error(f"weight dimension 0 must equal the number of input channels ({c})")
    groups = ints(op, "groups")[0]
    stride, dilation = pair(ints(op, "stride")), pair(ints(op, "dilation"))
    out_pad = pair(ints(op, "output_padding"))
    pt, pl, pb, pr = padding4(ints(op, "padding"))
    oh = (h - 1) * stride[0] - pt - pb + dilation[0] * (weight[2] - 1) + out_pad[0] + 1
    ow = (w - 1) * stride[1] - pl - pr + dilation[1] * (weight[3] - 1) + out_pad[1] + 1
    return [(n, oh, ow, weight[1] * groups)]


def _nhwc(op: TTOp) -> Shape:
    shape = first_shape(op)
    if len(shape) != 4:
        raise op.error(f"input must be a 4D tensor in NHWC layout, got rank {len(shape)}")
    return shape


def pool2d(op: TTOp):
    n, h, w, c = _nhwc(op)
    kernel, stride, dilation = (pair(ints(op, k)) for k in ("kernel", "stride", "dilation"))
    pt, pl, pb, pr = padding4(ints(op, "padding"))
    rounding = math.ceil if scalar(op.prop("ceil_mode")) else math.floor
    oh = rounding((h + pt + pb - dilation[0] * (kernel[0] - 1) - 1) / stride[0]) + 1
    ow = rounding((w + pl + pr - dilation[1] * (kernel[1] - 1) - 1) / stride[1]) + 1
    if oh <= 0 or ow <= 0:
        raise op.error(f"kernel ({kernel[0]}x{kernel[1]}) is larger than the padded input ({h}x{w})")
    return [(n, oh, ow, c)]


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
    scale_h, scale_w = pair(ints(op, "scale_factor"))
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
    if groups <= 0 or shape[-1] % groups:
        raise op.error(f"the number of channels ({shape[-1]}) must be divisible by num_groups ({groups})")
    return [shape]


def constant(op: TTOp):
    value = op.prop("value")
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
    from ttmlir.dialects.ttnn import data_type_of  # ttnn builds on this module

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


def same_rank(op: TTOp):
    if len(op.results[0].type.get_shape()) != len(first_shape(op)):
        raise op.error("result must have the same rank as the input")
    return None


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


def all_reduce(op: TTOp):
    reduce_type_in(op, ("sum",), "all reduce")  # upstream's TTIR reduces only by sum
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


def get_dimension_size(op: TTOp):
    normalize_dim(op, ints(op, "dimension")[0], len(first_shape(op)))
    return [(1,)]


SHAPE_RULES = {
    "unary": eltwise, "binary": eltwise, "ternary": eltwise, "reduction": reduction, "cumsum": cumsum,
    "sort": sort, "topk": topk, "reshape": reshape, "transpose": transpose, "permute": permute, "concat": concat,
    "repeat": repeat, "repeat_interleave": repeat_interleave, "broadcast": broadcast, "pad": pad, "slice": slice_static,
    "squeeze": squeeze, "unsqueeze": unsqueeze, "reverse": reverse, "index": index, "index_select": index_select,
    "gather": gather, "matmul": matmul, "dot_general": dot_general, "softmax": softmax, "embedding": embedding,
    "conv2d": conv2d, "conv_transpose2d": conv_transpose2d, "pool2d": pool2d, "global_pool2d": global_pool2d,
    "upsample2d": upsample2d, "batch_norm": batch_norm, "norm": norm, "group_norm": group_norm,
    "constant": constant, "full": fill, "fill": fill, "arange": arange, "creation": None, "rand": rand,
    "cache": cache, "mesh_shard": same_rank, "ccl": same_rank, "to_layout": same_shape,
    "get_dimension_size": get_dimension_size, "mesh_partition": mesh_partition, "distributed_norm": distributed_norm,
}

class EmptyBase(TTOp):
    """`ttir.empty` in upstream's custom format: `%0 = ttir.empty() : tensor<2x3xf32>`."""

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("(")
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        return cls.create(result_types=[parser.parse_type()], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string("()")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.results[0].type)


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


CUSTOM_BASES = {"empty": EmptyBase, "to_layout": ToLayoutBase}
# Ops verified unlike the rest of their family, as upstream verifies them.
OWN_RULES = {"clamp_scalar": clamp_scalar, "all_gather": all_gather, "all_reduce": all_reduce,
             "reduce_scatter": reduce_scatter, "collective_permute": collective_permute}
TTIR_OP_CLASSES = {row.name: build_op_class("ttir", row, CUSTOM_BASES.get(row.name, TTOp),
                                            OWN_RULES.get(row.name, SHAPE_RULES[row.family])) for row in TTIR_OPS}
globals().update({cls.__name__: cls for cls in TTIR_OP_CLASSES.values()})

TTIR = Dialect("ttir", list(TTIR_OP_CLASSES.values()), [])
