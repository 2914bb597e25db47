"""The TOSA ops' (`ttmlir.dialects.tosa.ops.TosaOp`) type and shape rules, one function per verifier family of `ttmlir.dialects.tosa.ops.OPS`, in
the words MLIR's TOSA verifiers use."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import IndexType, IntegerType, TensorType

from ttmlir.dialects.tosa.types import ShapeType


def _element(value):
    return value.type.element_type


def _shape(value) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def _require_tensors(op: TosaOp, values) -> None:
    for i, value in enumerate(values):
        if not isinstance(value.type, TensorType):
            raise op.error(f"operand #{i} must be a ranked tensor, but got '{value.type}'")


def _same_elements(op: TosaOp, values) -> None:
    if len({_element(v) for v in values}) > 1:
        raise op.error("requires the same element type for all operands and results")


def _broadcast(op: TosaOp, inputs, result) -> None:
    """TOSA broadcasts without adding ranks: equal ranks, and each dimension equal or 1 in the operands; the
    result's dimension is the operands' broadcast one."""
    shapes = [_shape(v) for v in inputs]
    if len({len(s) for s in shapes + [_shape(result)]}) > 1:
        raise op.error("operands don't have matching ranks")
    out = []
    for dims in zip(*shapes):
        sizes = {d for d in dims if d != 1}
        if len(sizes) > 1:
            raise op.error("operands don't have broadcast-compatible shapes")
        out.append(sizes.pop() if sizes else 1)
    if tuple(out) != _shape(result):
        raise op.error(f"result type '{result.type}' not broadcast compatible with broadcasted operands's shapes "
                       f"{list(out)}")


def _elementwise(op: TosaOp) -> None:
    _require_tensors(op, [*op.operands, *op.results])
    _same_elements(op, [*op.operands, *op.results])
    _broadcast(op, op.operands, op.results[0])


def _compare(op: TosaOp) -> None:
    _require_tensors(op, [*op.operands, *op.results])
    _same_elements(op, op.operands)
    if _element(op.results[0]) != IntegerType(1):
        raise op.error(f"result #0 must be tensor of 1-bit signless integer values, but got '{op.results[0].type}'")
    _broadcast(op, op.operands, op.results[0])


def _mul(op: TosaOp) -> None:
    a, b, shift = op.operands
    _require_tensors(op, [a, b, shift, *op.results])
    _same_elements(op, [a, b, *op.results])
    if _element(shift) != IntegerType(8) or math.prod(_shape(shift)) != 1:
        raise op.error(f"operand #2 must be a 1-element tensor of 8-bit signless integer values, "
                       f"but got '{shift.type}'")
    _broadcast(op, [a, b], op.results[0])


def _negate(op: TosaOp) -> None:
    x, in_zp, out_zp = op.operands
    _require_tensors(op, [*op.operands, *op.results])
    _same_elements(op, [x, *op.results])
    for name, zp in (("input1_zp", in_zp), ("output_zp", out_zp)):
        if _element(zp) != _element(x) or math.prod(_shape(zp)) != 1:
            raise op.error(f"expect {name} to be a 1-element tensor of the input's element type, got '{zp.type}'")
    _broadcast(op, [x], op.results[0])


def _select(op: TosaOp) -> None:
    pred, on_true, on_false = op.operands
    _require_tensors(op, [*op.operands, *op.results])
    if _element(pred) != IntegerType(1):
        raise op.error(f"operand #0 must be tensor of 1-bit signless integer values, but got '{pred.type}'")
    _same_elements(op, [on_true, on_false, *op.results])
    _broadcast(op, op.operands, op.results[0])


def _cast(op: TosaOp) -> None:
    _require_tensors(op, [*op.operands, *op.results])
    if _shape(op.operands[0]) != _shape(op.results[0]):
        raise op.error("requires the same shape for all operands and results")


def _clamp(op: TosaOp) -> None:
    _require_tensors(op, [*op.operands, *op.results])
    if op.operands[0].type != op.results[0].type:
        raise op.error("requires the same type for all operands and results")
    element = _element(op.operands[0])
    low, high = op.attr("min_val"), op.attr("max_val")
    if low.type != element or high.type != element:
        raise op.error(f"min/max attributes types are incompatible with input/output element types: expected "
                       f"{element}, got {low.type} and {high.type}")
    if low.value.data > high.value.data:
        raise op.error("expected min_val <= max_val")


def _const(op: TosaOp) -> None:
    if op.attr("values").type != op.results[0].type:
        raise op.error(f"values type '{op.attr('values').type}' does not match the result type "
                       f"'{op.results[0].type}'")


def _const_shape(op: TosaOp) -> None:
    values, result = op.attr("values"), op.results[0].type
    if not isinstance(result, ShapeType):
        raise op.error(f"result #0 must be a !tosa.shape, but got '{result}'")
    if not isinstance(values.get_element_type(), IndexType) or len(values.get_shape()) != 1:
        raise op.error("expect values to be a rank 1 tensor of index")
    if values.get_shape()[0] != result.rank.data:
        raise op.error(f"expect number of elements in attribute values ({values.get_shape()[0]}) to be equal to the "
                       f"rank ({result.rank.data}) for the result shape type")


def _shape_operand(op: TosaOp, name: str, rank: int) -> None:
    value = op.value(name)
    if not isinstance(value.type, ShapeType) or value.type.rank.data != rank:
        raise op.error(f"expect {name} to be a !tosa.shape<{rank}>, got '{value.type}'")


def _reshape(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    _shape_operand(op, "shape", len(_shape(result)))
    _same_elements(op, [x, result])
    if math.prod(_shape(x)) != math.prod(_shape(result)):
        raise op.error(f"cannot reshape {math.prod(_shape(x))} elements into {math.prod(_shape(result))}")


def _transpose(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    perms = list(op.attr("perms").get_values())
    if len(perms) != len(_shape(x)):
        raise op.error(f"expected perms attribute to have size {len(_shape(x))} (input rank) but got size "
                       f"{len(perms)}")
    if sorted(perms) != list(range(len(perms))):
        raise op.error("expected valid permutation indices")
    if tuple(_shape(x)[p] for p in perms) != _shape(result):
        raise op.error(f"expected output tensor dims to be the input's permuted by {perms}")
    _same_elements(op, [x, result])


def _tile(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    _shape_operand(op, "multiples", len(_shape(x)))
    if len(_shape(result)) != len(_shape(x)):
        raise op.error("expect same input and output tensor rank")
    _same_elements(op, [x, result])


def _concat(op: TosaOp) -> None:
    _require_tensors(op, [*op.operands, *op.results])
    if not op.operands:
        raise op.error("expect at least one input")
    axis, rank = op.attr("axis").value.data, len(_shape(op.operands[0]))
    if not 0 <= axis < rank:
        raise op.error(f"axis must be in range 0 to {rank - 1}")
    _same_elements(op, [*op.operands, *op.results])
    first = _shape(op.operands[0])
    for value in op.operands[1:]:
        other = _shape(value)
        if len(other) != rank:
            raise op.error("expect all operands to have the same rank")
        for d in range(rank):
            if d != axis and other[d] != first[d]:
                raise op.error(f"expect all operand shapes to have the same sizes on non-axis dimensions, "
                               f"but got {first[d]} vs {other[d]} at index {d} on operands 0 and "
                               f"{list(op.operands).index(value)}")
    expected = list(first)
    expected[axis] = sum(_shape(v)[axis] for v in op.operands)
    if tuple(expected) != _shape(op.results[0]):
        raise op.error(f"requires output dimension {axis} to be {expected[axis]}")


def _pad(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    _shape_operand(op, "padding", 2 * len(_shape(x)))
    _same_elements(op, [x, op.value("pad_const"), result])


def _slice(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    _shape_operand(op, "start", len(_shape(x)))
    _shape_operand(op, "size", len(_shape(x)))
    _same_elements(op, [x, result])


def _reduce(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    axis, shape = op.attr("axis").value.data, _shape(x)
    if axis < 0:
        raise op.error(f"expect input reduction axis to be positive, got {axis}")
    if axis >= max(len(shape), 1):
        raise op.error(f"expect input tensor rank ({len(shape)}) to be larger than reduce axis ({axis})")
    out = _shape(result)
    if len(out) != len(shape):
        raise op.error(f"expect output tensor rank ({len(out)}) to be equal to input tensor rank ({len(shape)})")
    if shape and out[axis] != 1:
        raise op.error(f"expect reduced dimension size to be 1, got {out[axis]}")
    _same_elements(op, [x, result])


def _argmax(op: TosaOp) -> None:
    x, result = op.operands[0], op.results[0]
    _require_tensors(op, [x, result])
    axis, shape = op.attr("axis").value.data, list(_shape(x))
    if not 0 <= axis < len(shape):
        raise op.error(f"expect input tensor rank ({len(shape)}) to be larger than reduce axis ({axis})")
    del shape[axis]
    if tuple(shape) != _shape(result):
        raise op.error(f"expected output shape {shape}, got {list(_shape(result))}")


def _matmul(op: TosaOp) -> None:
    a, b, a_zp, b_zp = op.operands
    result = op.results[0]
    _require_tensors(op, [*op.operands, result])
    for name, value in (("a", a), ("b", b), ("output", result)):
        if len(_shape(value)) != 3:
            raise op.error(f"expect a ranked tensor of rank 3 for {name}, got '{value.type}'")
    (n, h, c), (n2, c2, w) = _shape(a), _shape(b)
    if n != n2:
        raise op.error(f"expect batch dimensions of a and b to match, got {n} and {n2}")
    if c != c2:
        raise op.error(f"expect the channel dimension of a ({c}) to equal the channel dimension of b ({c2})")
    if _shape(result) != (n, h, w):
        raise op.error(f"expected output shape [{n}, {h}, {w}], got {list(_shape(result))}")
    _same_elements(op, [a, b])
    for name, zp, of in (("a_zp", a_zp, a), ("b_zp", b_zp, b)):
        if _element(zp) != _element(of) or math.prod(_shape(zp)) != 1:
            raise op.error(f"expect {name} to be a 1-element tensor of the input's element type, got '{zp.type}'")


def _window(op: TosaOp, kernel: tuple[int, int], dilation: tuple[int, int], out_channels: int) -> None:
    x, result = op.operands[0], op.results[0]
    for name, value in (("input", x), ("output", result)):
        if len(_shape(value)) != 4:
            raise op.error(f"expect a ranked tensor of rank 4 for {name}, got '{value.type}'")
    pad, stride = list(op.attr("pad").get_values()), list(op.attr("stride").get_values())
    if len(pad) != 4 or len(stride) != 2 or min(stride) < 1 or min(pad) < 0:
        raise op.error("expect pad of 4 non-negative values and stride of 2 positive values")
    n, h, w, _ = _shape(x)
    for axis, size, before, after in ((0, h, pad[0], pad[1]), (1, w, pad[2], pad[3])):
        which, y = ("height", "y") if axis == 0 else ("width", "x")
        room = size - 1 + before + after - (kernel[axis] - 1) * dilation[axis]
        if room % stride[axis]:
            raise op.error(f"expected input_{which} - 1 + pad_before + pad_after - (kernel_{which} - 1) * "
                           f"dilation_{y} to be wholly divisible by stride_{y}, got ({room}) / {stride[axis]}")
        got = room // stride[axis] + 1
        expected = _shape(result)[1 + axis]
        if got != expected:
            raise op.error(f"calculated output {which} did not match expected: calculated={got}, "
                           f"expected={expected}")
    if _shape(result)[0] != n or _shape(result)[3] != out_channels:
        raise op.error(f"expected output batch {n} and channels {out_channels}, got '{result.type}'")


def _pool(op: TosaOp) -> None:
    _require_tensors(op, [*op.operands, *op.results])
    kernel = list(op.attr("kernel").get_values())
    if len(kernel) != 2 or min(kernel) < 1:
        raise op.error("expect kernel of 2 positive values")
    _window(op, tuple(kernel), (1, 1), _shape(op.operands[0])[-1] if len(_shape(op.operands[0])) == 4 else -1)


def _conv2d(op: TosaOp) -> None:
    x, weight, bias = op.operands[:3]
    _require_tensors(op, [*op.operands, *op.results])
    if len(_shape(weight)) != 4:
        raise op.error(f"expect a ranked tensor of rank 4 for weight, got '{weight.type}'")
    out_channels, kh, kw, in_channels = _shape(weight)
    if len(_shape(x)) == 4 and _shape(x)[3] != in_channels:
        raise op.error(f"expect input channels ({_shape(x)[3]}) to equal the weight's ({in_channels})")
    if math.prod(_shape(bias)) not in (1, out_channels):
        raise op.error(f"bias channels expected to be equal to output channels ({out_channels}) or 1, got "
                       f"{math.prod(_shape(bias))}")
    dilation = list(op.attr("dilation").get_values())
    if len(dilation) != 2 or min(dilation) < 1:
        raise op.error("expect dilation of 2 positive values")
    _window(op, (kh, kw), tuple(dilation), out_channels)


FAMILIES = {"unary": _elementwise, "binary": _elementwise, "compare": _compare, "mul": _mul, "negate": _negate,
            "select": _select, "cast": _cast, "clamp": _clamp, "const": _const, "const_shape": _const_shape,
            "reshape": _reshape, "transpose": _transpose, "tile": _tile, "concat": _concat, "pad": _pad,
            "slice": _slice, "reduce": _reduce, "argmax": _argmax, "matmul": _matmul, "pool": _pool,
            "conv2d": _conv2d}


def verify(op: TosaOp) -> None:
    FAMILIES[op.ROW.family](op)
