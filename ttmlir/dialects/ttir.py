"""The TTIR dialect: framework-level tensor ops, one class per op-table row.

Each family has a shape rule: given an op's operand shapes and properties it returns the result
shapes the op must declare, or raises a diagnostic in upstream's words. The same rules serve the
TTNN dialect, whose ops share the TTIR rows.
"""

from __future__ import annotations

import math
from typing import Sequence

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.ir import Dialect
from xdsl.parser import Parser
from xdsl.printer import Printer

from ttmlir.dialects.op_table import TTIR_OPS
from ttmlir.dialects.props import int_values, scalar
from ttmlir.dialects.tt_op import TTOp, build_op_class
from ttmlir.spatial import padding4, pair

Shape = tuple[int, ...]


def shape_of(value) -> Shape:
    return tuple(value.type.get_shape())


def normalize_dim(op: TTOp, dim: int, rank: int, what: str = "dimension") -> int:
    if not -rank <= dim < max(rank, 1):
        raise op.error(f"{what} {dim} is out of range for a tensor of rank {rank}")
    return dim % rank if rank else 0


def broadcast_shapes(op: TTOp, shapes: Sequence[Shape]) -> Shape:
    rank = max(len(s) for s in shapes)
    out = []
    for i in range(rank):
        dims = {s[len(s) - rank + i] for s in shapes if len(s) - rank + i >= 0} - {1}
        if len(dims) > 1:
            raise op.error("operands are not broadcast compatible")
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def ints(op: TTOp, name: str) -> list[int]:
    return int_values(op.prop(name))


def first_shape(op: TTOp) -> Shape:
    return shape_of(op.operands[0])


def same_shape(op: TTOp):
    return [first_shape(op)]


def eltwise(op: TTOp):
    return [broadcast_shapes(op, [shape_of(v) for v in op.operands])]


def reduction(op: TTOp):
    shape = first_shape(op)
    dims_attr = op.prop("dim_arg")
    dims = {normalize_dim(op, d, len(shape), "reduce dimension") for d in
            (int_values(dims_attr) if dims_attr is not None else range(len(shape)))}
    if scalar(op.prop("keep_dim")):
        return [tuple(1 if i in dims else d for i, d in enumerate(shape))]
    return [tuple(d for i, d in enumerate(shape) if i not in dims)]


def cumsum(op: TTOp):
    normalize_dim(op, ints(op, "dim")[0], len(first_shape(op)))
    return same_shape(op)


def reshape(op: TTOp):
    new = ints(op, "shape")
    old = first_shape(op)
    if math.prod(old) != math.prod(new):
        raise op.error(f"input tensor number of elements {math.prod(old)} and output tensor number of elements "
                       f"{math.prod(new)} must be the same")
    return [tuple(new)]


def transpose(op: TTOp):
    shape = list(first_shape(op))
    a = normalize_dim(op, ints(op, "dim0")[0], len(shape))
    b = normalize_dim(op, ints(op, "dim1")[0], len(shape))
    shape[a], shape[b] = shape[b], shape[a]
    return [tuple(shape)]


def permute(op: TTOp):
    shape = first_shape(op)
    perm = ints(op, "permutation")
    if sorted(perm) != list(range(len(shape))):
        raise op.error(f"expected a permutation of {{0, ..., {len(shape) - 1}}}, got ({', '.join(map(str, perm))})")
    return [tuple(shape[p] for p in perm)]


def concat(op: TTOp):
    shapes = [shape_of(v) for v in op.operands]
    if not shapes:
        raise op.error("expected at least one input")
    rank = len(shapes[0])
    dim = normalize_dim(op, ints(op, "dim")[0], rank)
    for s in shapes[1:]:
        if len(s) != rank or any(a != b for i, (a, b) in enumerate(zip(s, shapes[0])) if i != dim):
            raise op.error(f"all input tensors must have the same shape except in the concatenated dimension {dim}")
    out = list(shapes[0])
    out[dim] = sum(s[dim] for s in shapes)
    return [tuple(out)]


def repeat(op: TTOp):
    shape = first_shape(op)
    reps = ints(op, "repeat_dimensions")
    if len(reps) != len(shape):
        raise op.error(f"repeat dimensions count {len(reps)} must match the input rank {len(shape)}")
    return [tuple(d * r for d, r in zip(shape, reps))]


def repeat_interleave(op: TTOp):
    shape = list(first_shape(op))
    dim = normalize_dim(op, ints(op, "dim")[0], len(shape))
    shape[dim] *= ints(op, "repeats")[0]
    return [tuple(shape)]


def broadcast(op: TTOp):
    shape = first_shape(op)
    factors = ints(op, "broadcast_dimensions")
    if len(factors) != len(shape):
        raise op.error(f"broadcast dimensions count {len(factors)} must match the input rank {len(shape)}")
    for d, f in zip(shape, factors):
        if f != 1 and d != 1:
            raise op.error(f"input dimension of size {d} cannot be broadcast by {f}")
    return [tuple(d * f for d, f in zip(shape, factors))]


def pad(op: TTOp):
    shape = first_shape(op)
    padding = ints(op, "padding")
    if len(padding) != 2 * len(shape):
        raise op.error(f"padding must have {2 * len(shape)} values (low and high per dimension), got {len(padding)}")
    return [tuple(d + padding[2 * i] + padding[2 * i + 1] for i, d in enumerate(shape))]


def slice_extent(op: TTOp, size: int, begin: int, end: int, step: int) -> int:
    if step == 0:
        raise op.error("step value cannot be zero")
    begin, end = (begin + size if begin < 0 else begin), (end + size if end < 0 else end)
    return max(0, math.ceil((end - begin) / step))


def slice_static(op: TTOp):
    shape = first_shape(op)
    begins, ends, steps = ints(op, "begins"), ints(op, "ends"), ints(op, "step")
    if not len(begins) == len(ends) == len(steps) == len(shape):
        raise op.error(f"begins, ends and step must each have {len(shape)} values (the input rank)")
    return [tuple(slice_extent(op, d, b, e, s) for d, b, e, s in zip(shape, begins, ends, steps))]


def squeeze(op: TTOp):
    shape = list(first_shape(op))
    dim = normalize_dim(op, ints(op, "dim")[0], len(shape))
    if shape[dim] != 1:
        raise op.error(f"dimension {dim} of size {shape[dim]} cannot be squeezed")
    del shape[dim]
    return [tuple(shape)]


def unsqueeze(op: TTOp):
    shape = list(first_shape(op))
    dim = normalize_dim(op, ints(op, "dim")[0], len(shape) + 1)
    shape.insert(dim, 1)
    return [tuple(shape)]


def reverse(op: TTOp):
    shape = first_shape(op)
    dims = [normalize_dim(op, d, len(shape)) for d in ints(op, "dimensions")]
    if len(set(dims)) != len(dims):
        raise op.error("dimensions should be unique")
    return [shape]


def index(op: TTOp):
    shape = list(first_shape(op))
    dim = normalize_dim(op, ints(op, "dim")[0], len(shape))
    shape[dim] = slice_extent(op, shape[dim], ints(op, "begin")[0], ints(op, "end")[0], ints(op, "step")[0])
    return [tuple(shape)]


def index_select(op: TTOp):
    shape = list(first_shape(op))
    dim = normalize_dim(op, ints(op, "dim")[0], len(shape))
    length, stride = ints(op, "length")[0], ints(op, "stride")[0]
    if stride and shape[dim] % stride:
        raise op.error(f"input tensor dimension {dim} of size {shape[dim]} must be divisible by the stride {stride}")
    shape[dim] = length * (shape[dim] // stride if stride else 1)
    return [tuple(shape)]


def gather(op: TTOp):
    sizes = ints(op, "slice_sizes")
    if len(sizes) != len(first_shape(op)):
        raise op.error(f"slice_sizes must have {len(first_shape(op))} values (the input rank), got {len(sizes)}")
    return None


def matmul_shape(op: TTOp, a: Shape, b: Shape, ta: bool, tb: bool) -> Shape:
    if not a or not b:
        raise op.error("input tensors must be at least 1D")
    a = a[:-2] + (a[-1], a[-2]) if ta and len(a) > 1 else a
    b = b[:-2] + (b[-1], b[-2]) if tb and len(b) > 1 else b
    a2, b2 = ((1,) + a if len(a) == 1 else a), (b + (1,) if len(b) == 1 else b)
    if a2[-1] != b2[-2]:
        raise op.error(f"input A[-1]({a2[-1]}) and B[-2]({b2[-2]}) must have matching inner dimensions")
    batch = broadcast_shapes(op, [a2[:-2], b2[:-2]]) if len(a2) > 2 or len(b2) > 2 else ()
    return batch + ((a2[-2],) if len(a) > 1 else ()) + ((b2[-1],) if len(b) > 1 else ())


def matmul(op: TTOp):
    groups = op.operand_groups()
    out = matmul_shape(op, shape_of(groups["a"][0]), shape_of(groups["b"][0]),
                       scalar(op.prop("transpose_a")), scalar(op.prop("transpose_b")))
    if groups.get("bias"):
        bias = shape_of(groups["bias"][0])
        if broadcast_shapes(op, [out, bias]) != out:
            raise op.error(f"bias shape ({'x'.join(map(str, bias))}) is not broadcastable to the output shape")
    return [out]


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
    normalize_dim(op, ints(op, "dimension")[0], len(first_shape(op)))
    return same_shape(op)


def embedding(op: TTOp):
    indices, weight = shape_of(op.operands[0]), shape_of(op.operands[1])
    if len(weight) < 2 or any(d != 1 for d in weight[:-2]):
        raise op.error("weight must be a 2D tensor (leading dimensions of size 1 allowed)")
    return [indices + (weight[-1],)]


def conv2d(op: TTOp):
    n, h, w, c = _nhwc(op)
    weight = shape_of(op.operands[1])
    groups = ints(op, "groups")[0]
    if len(weight) != 4:
        raise op.error("weight must be a 4D tensor (O, C/groups, kH, kW)")
    if c != weight[1] * groups:
        raise op.error(f"the number of input channels ({c}) must equal weight dimension 1 ({weight[1]}) times "
                       f"groups ({groups})")
    stride, dilation = pair(ints(op, "stride")), pair(ints(op, "dilation"))
    pt, pl, pb, pr = padding4(ints(op, "padding"))
    oh = (h + pt + pb - dilation[0] * (weight[2] - 1) - 1) // stride[0] + 1
    ow = (w + pl + pr - dilation[1] * (weight[3] - 1) - 1) // stride[1] + 1
    return [(n, oh, ow, weight[0])]


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
    n, _, _, c = _nhwc(op)
    return [(n, 1, 1, c)]


def upsample2d(op: TTOp):
    n, h, w, c = _nhwc(op)
    scale = pair(ints(op, "scale_factor"))
    if scalar(op.prop("mode")) not in ("nearest", "bilinear"):
        raise op.error(f"expected mode 'nearest' or 'bilinear', got '{scalar(op.prop('mode'))}'")
    return [(n, h * scale[0], w * scale[1], c)]


def batch_norm(op: TTOp):
    shape = first_shape(op)
    dim = normalize_dim(op, ints(op, "dimension")[0], len(shape))
    for value in op.operands[1:]:
        if shape_of(value) != (shape[dim],):
            raise op.error(f"scale, offset, mean and variance must be 1D tensors of size {shape[dim]}")
    return [shape, (shape[dim],), (shape[dim],)]


def norm(op: TTOp):
    shape = first_shape(op)
    normalized = tuple(ints(op, "normalized_shape"))
    if shape[len(shape) - len(normalized):] != normalized:
        raise op.error(f"normalized_shape ({'x'.join(map(str, normalized))}) must match the trailing input "
                       f"dimensions")
    return [shape]


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
    return [tuple(ints(op, "shape"))]


def arange(op: TTOp):
    start, end, step = (ints(op, n)[0] for n in ("start", "end", "step"))
    if step == 0:
        raise op.error("step cannot be zero")
    shape = list(op.results[0].type.get_shape())
    dim = normalize_dim(op, ints(op, "arange_dimension")[0], len(shape), "arange_dimension")
    shape[dim] = max(0, math.ceil((end - start) / step))
    return [tuple(shape)]


def rand(op: TTOp):
    return [tuple(ints(op, "size"))]


def cache(op: TTOp):
    cache_shape, input_shape = shape_of(op.operands[0]), shape_of(op.operands[1])
    if len(cache_shape) != len(input_shape):
        raise op.error("cache and input must have the same rank")
    return [cache_shape]


def same_rank(op: TTOp):
    if len(op.results[0].type.get_shape()) != len(first_shape(op)):
        raise op.error("result must have the same rank as the input")
    return None


def get_dimension_size(op: TTOp):
    normalize_dim(op, ints(op, "dimension")[0], len(first_shape(op)))
    return [(1,)]


SHAPE_RULES = {
    "unary": same_shape, "binary": eltwise, "ternary": eltwise, "reduction": reduction, "cumsum": cumsum,
    "reshape": reshape, "transpose": transpose, "permute": permute, "concat": concat, "repeat": repeat,
    "repeat_interleave": repeat_interleave, "broadcast": broadcast, "pad": pad, "slice": slice_static,
    "squeeze": squeeze, "unsqueeze": unsqueeze, "reverse": reverse, "index": index, "index_select": index_select,
    "gather": gather, "matmul": matmul, "dot_general": dot_general, "softmax": softmax, "embedding": embedding,
    "conv2d": conv2d, "conv_transpose2d": conv_transpose2d, "pool2d": pool2d, "global_pool2d": global_pool2d,
    "upsample2d": upsample2d, "batch_norm": batch_norm, "norm": norm, "group_norm": group_norm,
    "constant": constant, "full": fill, "fill": fill, "arange": arange, "creation": None, "rand": rand,
    "cache": cache, "mesh_shard": same_rank, "ccl": same_rank, "to_layout": same_shape,
    "get_dimension_size": get_dimension_size,
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


CUSTOM_BASES = {"empty": EmptyBase}
TTIR_OP_CLASSES = {row.name: build_op_class("ttir", row, CUSTOM_BASES.get(row.name, TTOp), SHAPE_RULES[row.family])
                   for row in TTIR_OPS}
globals().update({cls.__name__: cls for cls in TTIR_OP_CLASSES.values()})

TTIR = Dialect("ttir", list(TTIR_OP_CLASSES.values()), [])
