"""Exact integer forms of TTNN ops whose kernels compute integers through floats (part of `--ttnn-workaround`).

tt-metal's prod, permute, sort and reductions round 32-bit integers (they run as bf16/f32 or as u16 lanes);
upstream works around them in f32, which rounds past 2^24. The rewrites below split the words into parts f32
holds exactly and put them back together, so integer programs compute what the StableHLO spec says.
"""

from __future__ import annotations

import math

from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.dialects.ttnn import TTNNOp
from ttmlir.ir.props import KINDS, int_values
from ttmlir.transforms.ttnn.ttnn_decomposition import Emitter, like
from ttmlir.transforms.ttnn.ttnn_utils import data_type, ttnn_op

INTEGER_DTYPES = frozenset({"si32", "u32", "u16", "u8"})
NARROW_INTEGER_DTYPES = frozenset({"u16", "u8"})
U16_MAX = 2 ** 16 - 1


MAX_INTEGER_PROD_UNROLL = 16


def integer_prod_as_multiplies(op: TTNNOp) -> list[Operation] | None:
    """tt-metal's prod is a float kernel: an integer product along a short dim (up to 16) is the dim's slices
    multiplied in turn (exact), then the dim dropped unless kept."""
    value, dim = op.operands[0], op.prop("dim_arg")
    shape = list(value.type.get_shape())
    if data_type(value) not in INTEGER_DTYPES or dim is None or not 0 < shape[dim.value.data % len(shape)] <= \
            MAX_INTEGER_PROD_UNROLL:
        return None
    axis = dim.value.data % len(shape)
    sliced = like(value.type, shape[:axis] + [1] + shape[axis + 1:])
    array = KINDS["i32_array"].build
    new: list[Operation] = []
    running = None
    for i in range(shape[axis]):
        begins, ends = [0] * len(shape), list(shape)
        begins[axis], ends[axis] = i, i + 1
        new.append(ttnn_op("slice_static", [value], {"begins": array(begins), "ends": array(ends),
                                                     "step": array([1] * len(shape))}, [sliced], op))
        if running is not None:
            new.append(ttnn_op("multiply", [running, new[-1].results[0]], {}, [sliced], op))
        running = new[-1].results[0]
    result = op.results[0].type
    if result.get_shape() != sliced.get_shape():
        new.append(ttnn_op("reshape", [running], {"shape": array(list(result.get_shape()))}, [result], op))
    Rewriter.replace_op(op, new)
    return new


WORD_DTYPES = frozenset({"si32", "u32"})


def word_permute_in_halves(op: TTNNOp) -> list[Operation] | None:
    """tt-metal permutes 32-bit integers wrongly (tt-metal#19950) and upstream's workaround moves them as f32,
    which rounds past 2^24: here each word is split into its 16-bit halves, each moved exactly (through f32, by
    the permute workaround), and the word put back together ((high << 16) | low)."""
    value = op.operands[0]
    if data_type(value) not in WORD_DTYPES:
        return None
    emit = Emitter(op)
    ones = [1] * len(value.type.get_shape())
    sixteen, low_bits = emit.full(value.type, ones, 16.0), emit.full(value.type, ones, float(U16_MAX))
    perm = int_values(op.prop("permutation"))
    high = emit.permute(emit.binary("logical_right_shift", value, sixteen), perm, op.results[0].type)
    low = emit.permute(emit.binary("bitwise_and", value, low_bits), perm, op.results[0].type)
    word = emit("bitwise_or", [emit.binary("logical_left_shift", high, sixteen), low], {}, op.results[0].type)
    Rewriter.replace_op(op, [], [word])
    return emit.ops


def word_sort_by_halves(op: TTNNOp) -> list[Operation] | None:
    """The sort kernel orders integers as u16: 32-bit words are sorted in two stable passes (a radix sort), by
    their low halves, then by their high halves (the sign bit flipped for si32, so that they order as the words
    do), each pass's order applied by a gather along the sorted dim."""
    value = op.operands[0]
    if data_type(value) not in WORD_DTYPES:
        return None
    emit, ones = Emitter(op), [1] * len(value.type.get_shape())
    dim = KINDS["si32"].build(op.prop("dim").value.data if op.prop("dim") is not None else -1)
    props = {**{k: v for k, v in op.properties.items() if k != "stable"}, "stable": KINDS["bool"].build(True)}
    indices_type = op.results[1].type

    def order(keys: SSAValue) -> SSAValue:
        sort = ttnn_op("sort", [keys], props, [keys.type, indices_type], op)
        op.parent.insert_op_before(sort, op)
        emit.ops.append(sort)
        return sort.results[1]

    def take(source: SSAValue, index: SSAValue) -> SSAValue:
        return emit("gather", [source, index], {"dim": dim}, source.type)

    mask = emit.full(value.type, ones, float(U16_MAX))
    first = order(emit.binary("bitwise_and", value, mask))
    words = take(value, first)
    high = emit.binary("bitwise_and", emit.binary("logical_right_shift", words, emit.full(value.type, ones, 16.0)),
                       mask)
    if data_type(value) == "si32":
        high = emit.binary("bitwise_xor", high, emit.full(value.type, ones, float(0x8000)))
    second = order(high)
    Rewriter.replace_op(op, [], [take(words, second), take(first, second)])
    return emit.ops


# an f32 sum of bytes is exact while it stays within 2^24: over up to this many elements
MAX_EXACT_BYTE_SUM = (1 << 24) // 255


def word_reduction_in_parts(op: TTNNOp) -> list[Operation] | None:
    """tt-metal reduces integers wrongly (tt-metal#21071) and upstream's workaround reduces 32-bit ones as f32,
    which rounds past 2^24. Here each part is small enough for f32 to hold exactly:
    - max/min: the words' high halves (the sign bit flipped for si32, so that they order as the words do) are
      reduced first, then the low halves of the words whose high half is the extreme one;
    - sum: the words' four bytes are summed apart and the sums shifted into place, adding modulo 2^32 as the
      spec's integer sum wraps (while a byte sum stays exact, up to MAX_EXACT_BYTE_SUM elements)."""
    value, name = op.operands[0], op.ROW.name
    if data_type(value) not in WORD_DTYPES:
        return None
    shape = list(value.type.get_shape())
    dims = int_values(op.prop("dim_arg")) if op.prop("dim_arg") is not None else list(range(len(shape)))
    kept = [1 if d in [x % len(shape) for x in dims] else n for d, n in enumerate(shape)]
    if name == "sum" and math.prod(shape) // math.prod(kept) > MAX_EXACT_BYTE_SUM:
        return None
    emit, ones = Emitter(op), [1] * len(shape)

    def const(number: int) -> SSAValue:
        return emit.full(value.type, ones, float(number))

    def reduce(part: SSAValue, how: str) -> SSAValue:
        props = {"dim_arg": op.prop("dim_arg"), "keep_dim": KINDS["bool"].build(True)}
        return emit(how, [part], {k: v for k, v in props.items() if v is not None}, like(part.type, kept))

    def bits(shift: int, mask: int) -> SSAValue:
        moved = emit.binary("logical_right_shift", value, const(shift)) if shift else value
        return emit.binary("bitwise_and", moved, const(mask))

    if name == "sum":
        word = None
        for byte in range(4):
            part = reduce(bits(8 * byte, 0xFF), "sum")
            part = emit.binary("logical_left_shift", part, const(8 * byte)) if byte else part
            word = part if word is None else emit.binary("add", word, part)
    else:
        flip = 0x8000 if data_type(value) == "si32" else 0
        high = bits(16, U16_MAX)
        key = emit.binary("bitwise_xor", high, const(flip)) if flip else high
        extreme = reduce(key, name)
        hit = emit.binary("eq", key, extreme)
        low = emit("where", [hit, bits(0, U16_MAX), const(-1 if name == "max" else U16_MAX + 1)], {}, key.type)
        high = emit.binary("bitwise_xor", extreme, const(flip)) if flip else extreme
        word = emit.binary("bitwise_or", emit.binary("logical_left_shift", high, const(16)), reduce(low, name))
    result = op.results[0].type
    if list(result.get_shape()) != kept:
        word = emit.reshape(word, list(result.get_shape()), result)
    Rewriter.replace_op(op, [], [word])
    return emit.ops
