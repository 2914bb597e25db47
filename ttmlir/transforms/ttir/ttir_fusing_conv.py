"""The convolution patterns of `--ttir-fusing`, as upstream's TTIRFusing has them:

- `add(conv(x, w), b)` with `b` one value per output channel (broadcast or not) → `conv(x, w, b)` (conv2d, conv3d and
  conv_transpose2d; the bias need not be defined before the conv: the fused conv takes the add's place; a bias
  already there is added to);
- with `ttnn-enable-conv2d-with-multiply-pattern`, `multiply(conv2d(x, w, b?), s)` with `s` a constant per output
  channel → `conv2d(x, w * s, b * s)`: the scale goes into the weights (computed once, by const-eval), and
  `batch_norm_inference(conv2d(x, w, b?), scale, offset, mean, var)` with constant statistics → the conv times
  `scale / sqrt(var + eps)` plus `offset - mean * scale / sqrt(var + eps)`, which the two patterns above then
  fuse into one conv.

Two conv2ds of one input whose sum is taken (RepVGG's branches), one kernel centred in the other by the difference
of their paddings, become one conv: the small kernel zero-padded to the large one's size and added to it, the
biases added.

A zero pad of a conv3d's spatial dims, the same on both sides, becomes the conv's own (zeros-mode) padding.

Each fires only when the conv has no other user; per-channel values are broadcast along the conv's channel dim
(as a conv's bias is; batch-norm statistics may also be rank 1) and reshaped to [C, 1, 1, 1] to scale weights.
"""

from __future__ import annotations

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import Rewriter

from ttmlir.ir.props import conv3d_dims, int_triple
from ttmlir.ir.props import KINDS, int_values, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.dialects.ttcore import is_constant_argument
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.spatial import pair, padding4

CONVS = ("ttir.conv2d", "ttir.conv_transpose2d", "ttir.conv3d")
# ops that compute a constant from constants (what const-eval hoists)
CONSTANT_MAKERS = ("ttir.constant", "ttir.full", "ttir.zeros", "ttir.ones", "ttir.reshape", "ttir.transpose",
                   "ttir.permute", "ttir.typecast", "ttir.broadcast", "ttir.multiply", "ttir.add", "ttir.subtract",
                   "ttir.div", "ttir.rsqrt", "ttir.sqrt")


def _conv_of(value: SSAValue, names=CONVS) -> Operation | None:
    """The single-use conv making `value`."""
    conv = value.owner
    if not isinstance(conv, TTOp) or conv.name not in names or not value.has_one_use():
        return None
    return conv


def _channel_dim(conv: Operation) -> int:
    return int_values(conv.prop("channel_dim"))[0]


def _channel_shape(conv: Operation) -> list[int]:
    """The shape of one value per output channel, broadcast over the conv's result: C at its channel dim."""
    dim = _channel_dim(conv)
    return [d if i == dim else 1 for i, d in enumerate(conv.results[0].type.get_shape())]


def _per_channel(value: SSAValue, conv: Operation, flat: bool = False) -> bool:
    """One value per output channel, broadcast over the result (or, with `flat`, also a rank-1 [C])."""
    shape, channels = list(value.type.get_shape()), conv.results[0].type.get_shape()[_channel_dim(conv)]
    return value.type.element_type == conv.results[0].type.element_type and \
        (shape == _channel_shape(conv) or (flat and shape == [channels]))


def _reshaped(at: Operation, value: SSAValue, dims: list[int]) -> SSAValue:
    if list(value.type.get_shape()) == dims:
        return value
    return _before(at, "reshape", [value], dims, shape=KINDS["i32_array"].build(dims))


def _constant(value: SSAValue) -> bool:
    """A value fixed across runs: a parameter or constant argument, or computed from such values only."""
    owner = value.owner
    if not isinstance(owner, Operation):
        return is_constant_argument(value)
    return owner.name in CONSTANT_MAKERS and all(_constant(v) for v in owner.operands)


def _before(at: Operation, name: str, operands: list[SSAValue], dims, **props) -> SSAValue:
    """A new TTIR op of result shape `dims` inserted before `at`; its result."""
    element = operands[0].type.element_type
    op = TTIR_OP_CLASSES[name].create(operands=operands, result_types=[TensorType(element, dims)], properties=props)
    op.location = at.location
    at.parent_block().insert_op_before(op, at)
    return op.results[0]


def _conv_with(conv: Operation, at: Operation, weight: SSAValue, bias: SSAValue | None) -> None:
    """`at` replaced by `conv` with this weight and bias; the old conv erased."""
    operands = [conv.operands[0], weight] + ([bias] if bias is not None else [])
    fused = type(conv).create(operands=operands, result_types=[at.results[0].type], properties=dict(conv.properties),
                              attributes=dict(conv.attributes))
    fused.location = conv.location
    Rewriter.replace_op(at, fused)
    Rewriter.erase_op(conv)


def conv_bias(add: Operation) -> None:
    for product, bias in (add.operands, reversed(add.operands)):
        while isinstance(bias.owner, Operation) and bias.owner.name == "ttir.broadcast":  # the add broadcasts it
            bias = bias.owner.operands[0]
        conv = _conv_of(product)
        if conv is not None and bias is not product and _per_channel(bias, conv) and product.type == add.results[0].type:
            if len(conv.operands) == 3:  # a conv with a bias already adds the sum of both
                bias = _before(add, "add", [conv.operands[2], bias], bias.type.get_shape())
            _conv_with(conv, add, conv.operands[1], bias)
            return


def conv_multiply(multiply: Operation) -> None:
    for product, scale in (multiply.operands, reversed(multiply.operands)):
        conv = _conv_of(product, ("ttir.conv2d",))
        if conv is None or scale is product or not _per_channel(scale, conv) or not _constant(scale) or \
                product.type != multiply.results[0].type or int_values(conv.prop("groups"))[0] != 1:
            continue
        weight = conv.operands[1]
        channels = weight.type.get_shape()[0]
        column = _reshaped(multiply, scale, [channels, 1, 1, 1])
        scaled = _before(multiply, "multiply", [weight, column], weight.type.get_shape())
        bias = None
        if len(conv.operands) == 3:
            bias = _before(multiply, "multiply", [conv.operands[2], scale], scale.type.get_shape())
        _conv_with(conv, multiply, scaled, bias)
        return


def batch_norm_after_conv(norm: Operation) -> None:
    """batch_norm_inference of a conv's output, statistics constant → multiply and add the fusions above take."""
    conv = _conv_of(norm.operands[0], ("ttir.conv2d",))
    stats = list(norm.operands[1:])
    if conv is None or int_values(norm.prop("dimension"))[0] != _channel_dim(conv) or \
            not all(_per_channel(v, conv, flat=True) and _constant(v) for v in stats):
        return
    scale, offset, mean, variance = stats
    shape = scale.type.get_shape()
    eps = TTIR_OP_CLASSES["full"].create(result_types=[TensorType(scale.type.element_type, shape)], properties={
        "shape": KINDS["i32_darray"].build(list(shape)), "fill_value": norm.prop("epsilon")})
    eps.location = norm.location
    norm.parent_block().insert_op_before(eps, norm)
    factor = _before(norm, "multiply", [scale, _before(norm, "rsqrt", [
        _before(norm, "add", [variance, eps.results[0]], shape)], shape)], shape)
    shift = _before(norm, "subtract", [offset, _before(norm, "multiply", [mean, factor], shape)], shape)
    per_channel = _channel_shape(conv)
    scaled = _before(norm, "multiply", [conv.results[0], _reshaped(norm, factor, per_channel)],
                     conv.results[0].type.get_shape())
    shifted = TTIR_OP_CLASSES["add"].create(operands=[scaled, _reshaped(norm, shift, per_channel)],
                                            result_types=[norm.results[0].type])
    shifted.location = norm.location
    Rewriter.replace_op(norm, shifted)
    conv_multiply(scaled.owner)
    conv_bias(shifted)


def pad_into_conv3d(conv: Operation) -> None:
    """conv3d(pad(x)) with a zero pad symmetric on each spatial dim and none elsewhere → conv3d(x), padded more."""
    pad = conv.operands[0].owner
    if not (isinstance(pad, TTOp) and pad.name == "ttir.pad" and pad.results[0].has_one_use()) or \
            scalar(pad.prop("value")) != 0 or scalar(conv.prop("padding_mode")) != "zeros":
        return
    amounts = int_values(pad.prop("padding"))
    dims = conv3d_dims(conv)  # N, D, H, W, C
    low, high = amounts[0::2], amounts[1::2]
    if any(low[d] or high[d] for d in (dims[0], dims[4])) or any(low[d] != high[d] for d in dims[1:4]):
        return
    padding = [p + low[d] for p, d in zip(int_triple(conv, "padding"), dims[1:4])]
    conv.properties["padding"] = KINDS["i32_darray"].build(padding)
    conv.operands[0] = pad.operands[0]
    Rewriter.erase_op(pad)


def _conv2d_geometry(conv: Operation) -> tuple[list[int], list[int]]:
    """(kernel height and width, padding top/left/bottom/right) of a conv2d with OIHW weights."""
    return list(conv.operands[1].type.get_shape()[2:]), padding4(int_values(conv.prop("padding")))


def conv_sum(add: Operation) -> None:
    """add(conv2d(x, W, b), conv2d(x, w, c)), w's kernel centred in W's by the padding difference → one conv2d of x
    with W + pad(w) and b + c (unit dilation, same stride, groups and dims)."""
    convs = [_conv_of(v, ("ttir.conv2d",)) for v in add.operands]
    if None in convs or convs[0] is convs[1] or convs[0].operands[0] is not convs[1].operands[0]:
        return
    big, small = sorted(convs, key=lambda c: -c.operands[1].type.get_shape()[2])
    (big_k, big_p), (small_k, small_p) = _conv2d_geometry(big), _conv2d_geometry(small)
    same = {k: v for k, v in big.properties.items() if k != "padding"}
    if same != {k: v for k, v in small.properties.items() if k != "padding"} or \
            pair(int_values(big.prop("dilation"))) != [1, 1] or big.results[0].type != small.results[0].type or \
            add.results[0].type != big.results[0].type or len(big.operands) != len(small.operands):
        return
    offset = [(b - s) // 2 for b, s in zip(big_k, small_k)]
    if any((b - s) % 2 for b, s in zip(big_k, small_k)) or \
            [p - q for p, q in zip(big_p, small_p)] != [offset[0], offset[1], offset[0], offset[1]]:
        return
    weight = big.operands[1]
    padding = KINDS["i32_darray"].build([0, 0, 0, 0, offset[0], offset[0], offset[1], offset[1]])
    grown = _before(add, "pad", [small.operands[1]], weight.type.get_shape(), padding=padding,
                    value=KINDS["f32"].build(0.0))
    summed = _before(add, "add", [grown, weight], weight.type.get_shape())
    bias = None
    if len(big.operands) == 3:
        bias = _before(add, "add", [big.operands[2], small.operands[2]], big.operands[2].type.get_shape())
    _conv_with(big, add, summed, bias)
    Rewriter.erase_op(small)
