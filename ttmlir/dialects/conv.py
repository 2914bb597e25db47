"""Verifiers of the convolutions upstream checks beyond their shapes (TTIR conv3d; TTNN conv2d, conv3d and
prepare_conv3d_weights), in upstream's words.

TTNN's conv2d reads a flattened (1, 1, N*H*W, C) input; conv3d an NDHWC one, with its weight raw
(O, C/G, kD, kH, kW) until --ttnn-prepare-conv3d-weights flattens it to (blocks*kD*kH*kW*c_in_block, O).
"""

from __future__ import annotations

from ttmlir.ir.props import conv3d_dims, int_triple, int_values, scalar
from ttmlir.ir.tt_op import TTOp
from ttmlir.spatial import round_up

TILE_WIDTH = 32


def _shape(value) -> tuple[int, ...]:
    return tuple(value.type.get_shape())


def _tuple(values) -> str:
    return "(" + ", ".join(map(str, values)) + ")"


def _bias(op: TTOp):
    return (op.operand_groups().get("bias") or [None])[0]


def check_channel_groups(op: TTOp, channels: int, groups: int, out_channels: int, per_group: int,
                         bias_channels: int | None) -> None:
    """The input channels split into the groups, each group's count the weight's, the bias the outputs'."""
    if groups <= 0 or channels % groups:
        raise op.error(f"The number of input channels from the input tensor ({channels}) is not divisible by the "
                       f"number of groups ({groups}).")
    if out_channels % groups:
        raise op.error(f"The number of output channels from the weight tensor ({out_channels}) is not divisible by "
                       f"the number of groups ({groups}).")
    if channels // groups != per_group:
        raise op.error(f"The number of input channels per group ({channels}) must match the number of input channels "
                       f"in the weight tensor ({per_group}).")
    if bias_channels is not None and bias_channels != out_channels:
        raise op.error(f"The number of output channels from the weight tensor ({out_channels}) must match the number "
                       f"of output channels in the bias tensor ({bias_channels}).")


CONV1D_DIMS = ("batch_dim", "length_dim", "channel_dim")


def conv1d_params(op: TTOp) -> tuple[int, tuple[int, int], int]:
    """Stride, (left, right) padding and dilation: an integer or an array of one; padding also an array of two."""
    stride, padding, dilation = (int_values(op.prop(n)) for n in ("stride", "padding", "dilation"))
    for name, values, sizes in (("stride", stride, (1,)), ("padding", padding, (1, 2)), ("dilation", dilation, (1,))):
        if len(values) not in sizes:
            raise op.error(f"{name} must be an integer or an array of {' or '.join(map(str, sizes))} integers")
    return stride[0], (padding[0], padding[-1]), dilation[0]


def ttir_conv1d(op: TTOp):
    for name, what in (("input", "input must be a 3D tensor"), ("weight", "weight must be a 3D tensor (O, C/G, K)"),
                       ("bias", "bias must be a 3D tensor (1, 1, O)")):
        values = op.operand_groups().get(name)
        if values and len(_shape(values[0])) != 3:
            raise op.error(what)
    if len(_shape(op.results[0])) != 3:
        raise op.error("output must be a 3D tensor")
    n_dim, l_dim, c_dim = (scalar(op.prop(n)) for n in CONV1D_DIMS)
    if sorted((n_dim, l_dim, c_dim)) != [0, 1, 2]:
        raise op.error(f"batch, length and channel dimensions must be a permutation of (0, 1, 2), got "
                       f"({n_dim}, {l_dim}, {c_dim})")
    source, weight, out = _shape(op.operands[0]), _shape(op.operands[1]), _shape(op.results[0])
    channels, out_channels, groups = source[c_dim], out[c_dim], scalar(op.prop("groups"))
    if groups <= 0:
        raise op.error("groups must be a positive integer")
    if channels % groups:
        raise op.error(f"number of input channels ({channels}) must be divisible by groups ({groups})")
    if out_channels % groups:
        raise op.error(f"number of output channels ({out_channels}) must be divisible by groups ({groups})")
    if weight[0] != out_channels:
        raise op.error(f"expected weight's output channel dimension ({weight[0]}) to match the output tensor's "
                       f"channel dimension ({out_channels})")
    if weight[1] != channels // groups:
        raise op.error(f"expected weight's input channel dimension ({weight[1]}) to match in_channels / groups "
                       f"({channels // groups})")
    stride, (left, right), dilation = conv1d_params(op)
    if stride <= 0 or dilation <= 0 or min(left, right) < 0:
        raise op.error("stride and dilation must be > 0 and padding >= 0")
    length = (source[l_dim] + left + right - dilation * (weight[2] - 1) - 1) // stride + 1
    if out[n_dim] != source[n_dim] or out[l_dim] != length:
        raise op.error(f"output batch ({out[n_dim]}) and length ({out[l_dim]}) must be the input's batch "
                       f"({source[n_dim]}) and (L_in + pL + pR - dilation * (K - 1) - 1) / stride + 1 ({length})")
    return None


def ttnn_conv1d(op: TTOp):
    """Upstream's TTNN Conv1dOp::verify, and the flattened result's size."""
    groups_of = op.operand_groups()
    for name, rank, what in (("input", 3, "input must be a 3D tensor (N, L_in, C)"),
                             ("weight", 3, "weight must be a 3D tensor (O, C/G, K)"),
                             ("bias", 4, "bias must be a 4D tensor (1, 1, 1, O)")):
        if groups_of.get(name) and len(_shape(groups_of[name][0])) != rank:
            raise op.error(what)
    if len(_shape(op.results[0])) != 4:
        raise op.error("output must be a 4D tensor (1, 1, N * L_out, O)")
    padding = int_values(op.prop("padding"))
    if len(padding) != 2:
        raise op.error("padding attribute must have exactly 2 elements ([pL, pR])")
    groups, in_channels, out_channels = (scalar(op.prop(n)) for n in ("groups", "in_channels", "out_channels"))
    if groups <= 0:
        raise op.error("groups must be a positive integer")
    if in_channels % groups:
        raise op.error("in_channels must be divisible by groups")
    if out_channels % groups:
        raise op.error("out_channels must be divisible by groups")
    stride, dilation, kernel = (scalar(op.prop(n)) for n in ("stride", "dilation", "kernel_size"))
    if stride <= 0 or dilation <= 0 or min(padding) < 0:
        raise op.error("stride and dilation must be > 0 and padding >= 0")
    length = (scalar(op.prop("input_length")) + sum(padding) - dilation * (kernel - 1) - 1) // stride + 1
    want = (1, 1, scalar(op.prop("batch_size")) * length, out_channels)
    if _shape(op.results[0]) != want:
        raise op.error(f"output must be (1, 1, N * L_out, O) = {_tuple(want)}, got {_tuple(_shape(op.results[0]))}")
    return None


def ttir_conv3d(op: TTOp):
    for name, what in (("input", "input must be a 5D tensor"), ("weight", "weight must be a 5D tensor"),
                       ("bias", "bias must be a 5D tensor with shape (1,1,1,1,C_out)")):
        values = op.operand_groups().get(name)
        if values and len(_shape(values[0])) != 5:
            raise op.error(what)
    if len(_shape(op.results[0])) != 5:
        raise op.error("output must be a 5D tensor")
    dims = conv3d_dims(op)
    n, d, h, w, c = (_shape(op.operands[0])[i] for i in dims)
    out = [_shape(op.results[0])[i] for i in dims]
    weight = _shape(op.operands[1])
    stride, padding = int_triple(op, "stride"), int_triple(op, "padding")
    groups, mode = scalar(op.prop("groups")), scalar(op.prop("padding_mode"))
    if min(stride) <= 0:
        raise op.error("Stride attribute values must be > 0.")
    if min(padding) < 0:
        raise op.error("Padding attribute values must be >= 0.")
    if mode not in ("zeros", "replicate"):
        raise op.error("padding_mode must be either 'zeros' or 'replicate'")
    bias = _bias(op)
    check_channel_groups(op, c, groups, weight[0], weight[1], None if bias is None else _shape(bias)[dims[4]])
    padded = [size + 2 * p for size, p in zip((d, h, w), padding)]
    if any(p < k for p, k in zip(padded, weight[2:])):
        raise op.error(f"The kernel size {_tuple(weight[2:])} cannot be greater than the padded input size per "
                       f"channel {_tuple(padded)}.")
    expected = [(p - k) // s + 1 for p, k, s in zip(padded, weight[2:], stride)]
    if out[0] != n:
        raise op.error(f"Batch size from the input tensor ({n}) must match the first dimension of the output tensor "
                       f"({out[0]})")
    if out[4] != weight[0]:
        raise op.error(f"The number of output channels from the output tensor ({out[4]}) must match the number of "
                       f"output channels in the weight tensor ({weight[0]}). ")
    if out[1:4] != expected:
        raise op.error(f"The output tensor spatial dimensions {_tuple(out[1:4])} do not match the expected dimensions "
                       f"{_tuple(expected)}.")
    return None


def _values(op: TTOp, name: str, count: int, label: str) -> list[int]:
    values = int_values(op.prop(name))
    if len(values) != count:
        raise op.error(f"{label} must have {count} values, got: {len(values)}")
    return values


def ttnn_conv3d(op: TTOp):
    weight, bias, result = _shape(op.operands[1]), _bias(op), _shape(op.results[0])
    if len(_shape(op.operands[0])) != 5:
        raise op.error("input must be a 5D tensor [N, D, H, W, C]")
    if len(weight) not in (5, 2):
        raise op.error("weight must be either a 5D tensor [O, C/G, kD, kH, kW] (raw) or a 2D tensor [kD*kH*kW*C/G, O] "
                       "(prepared)")
    if bias is not None and len(_shape(bias)) != 2:
        raise op.error("bias must be a 2D tensor [1, O]")
    if len(result) != 5:
        raise op.error("result must be a 5D tensor [N, D_out, H_out, W_out, O]")
    kernel = _values(op, "kernel_size", 3, "kernel_size")
    if min(kernel) < 1:
        raise op.error(f"kernel_size values must be >= 1, got: {_tuple(kernel)}")
    stride = _values(op, "stride", 3, "stride")
    if min(stride) < 1:
        raise op.error(f"stride values must be > 0, got: {_tuple(stride)}")
    padding = _values(op, "padding", 3, "padding")
    if min(padding) < 0:
        raise op.error(f"padding values must be >= 0, got: {_tuple(padding)}")
    if (mode := scalar(op.prop("padding_mode"))) not in ("zeros", "replicate"):
        raise op.error(f"padding_mode must be 'zeros' or 'replicate', got: {mode}")
    groups, channels = scalar(op.prop("groups")), scalar(op.prop("in_channels"))
    if groups < 1:
        raise op.error(f"groups must be >= 1, got: {groups}")
    out_channels = weight[0] if len(weight) == 5 else scalar(op.prop("out_channels"))
    if channels % groups:
        raise op.error(f"in_channels ({channels}) must be divisible by groups ({groups})")
    if out_channels % groups:
        raise op.error(f"out_channels ({out_channels}) must be divisible by groups ({groups})")
    if len(weight) == 2:
        expected = channels // groups * kernel[0] * kernel[1] * kernel[2]
        if weight[0] != expected:
            raise op.error(f"weight flattened dimension ({weight[0]}) must equal kD*kH*kW*C_in/groups ({expected})")
    elif list(weight[2:]) != kernel:
        raise op.error(f"weight kernel dimensions {_tuple(weight[2:])} must match kernel_size {_tuple(kernel)}")
    if bias is not None:
        if _shape(bias)[1] != out_channels:
            raise op.error(f"bias output channels ({_shape(bias)[1]}) must match weight output channels "
                           f"({out_channels})")
        if _shape(bias)[0] != 1:
            raise op.error(f"bias first dimension must be 1, got {_shape(bias)[0]}")
    sizes = [scalar(op.prop(n)) for n in ("batch_size", "input_depth", "input_height", "input_width")]
    expected = [(size + 2 * p - k) // s + 1 for size, p, k, s in zip(sizes[1:], padding, kernel, stride)]
    if result[0] != sizes[0]:
        raise op.error(f"output batch size ({result[0]}) must match input batch size ({sizes[0]})")
    for got, want, what in zip(result[1:4], expected, ("depth", "height", "width")):
        if got != want:
            raise op.error(f"output {what} ({got}) does not match calculated {what} ({want})")
    if result[4] != out_channels:
        raise op.error(f"output channels ({result[4]}) must match weight output channels ({out_channels})")
    return None


def prepared_conv3d_rows(weight: tuple[int, ...], groups: int, alignment: int = TILE_WIDTH) -> int:
    """Rows of a prepared conv3d weight: each kernel position's input channels, padded to the alignment."""
    return round_up(weight[1] * groups, alignment) * weight[2] * weight[3] * weight[4]


def prepare_conv3d_weights(op: TTOp):
    weight, result = _shape(op.operands[0]), _shape(op.results[0])
    if len(weight) != 5:
        raise op.error("Weight must be a 5D tensor")
    if len(result) != 2:
        raise op.error("Result must be a 2D tensor")
    groups, block, alignment = (scalar(op.prop(n)) for n in ("groups", "c_in_block", "alignment"))
    if groups <= 0:
        raise op.error("Groups must be positive")
    if block < 0:
        raise op.error("C_in_block must be non-negative")
    if alignment <= 0:
        raise op.error("Alignment must be positive")
    aligned = round_up(weight[1] * groups, alignment)
    if aligned % (block or aligned):
        raise op.error(f"C_in_block ({block}) must divide aligned input channels ({aligned})")
    rows = prepared_conv3d_rows(weight, groups, alignment)
    if result[0] != rows:
        raise op.error(f"Expected result first dimension ({result[0]}) to match prepared conv3d weight flattened "
                       f"dimension ({rows})")
    if result[1] != weight[0]:
        raise op.error(f"Expected result second dimension ({result[1]}) to match output channels ({weight[0]})")
    return None


# TTNN conv2d's array attributes: name, label, counts allowed (in words), least value and its bound (in words)
CONV2D_ATTRIBUTES = (("kernel_size", "Kernel size", {2: "two"}, None, ""),
                     ("stride", "Stride", {2: "two"}, 1, "greater than 0"),
                     ("padding", "Padding", {2: "two or four", 4: "two or four"}, 0, "greater than or equal to 0"),
                     ("dilation", "Dilation", {2: "two"}, 1, "greater than 0"))


def _conv2d_values(op: TTOp, name: str, label: str, counts: dict[int, str], least: int | None, bound: str) -> list[int]:
    values = int_values(op.prop(name))
    if len(values) not in counts:
        raise op.error(f"{label} attribute must have {next(iter(counts.values()))} values, got: {len(values)}")
    if least is not None and min(values) < least:
        raise op.error(f"{label} attribute values must be {bound}, got: {_tuple(values)}")
    return values


def ttnn_conv2d(op: TTOp):
    """Upstream's TTNN Conv2dOp::verify: a flattened input, the attributes against the (raw) weight."""
    groups_of = op.operand_groups()
    for name, label in (("input", "Input"), ("weight", "Weight"), ("bias", "Bias")):
        if groups_of.get(name) and len(_shape(groups_of[name][0])) != 4:
            raise op.error(f"{label} must be a 4D tensor")
    if len(_shape(op.results[0])) != 4:
        raise op.error("Output must be a 4D tensor")
    kernel, stride, padding, dilation = (_conv2d_values(op, *check) for check in CONV2D_ATTRIBUTES)
    weight, groups = _shape(op.operands[1]), scalar(op.prop("groups"))
    out_channels, in_channels = scalar(op.prop("out_channels")), scalar(op.prop("in_channels"))
    if weight[:2] != (1, 1):  # a prepared weight is (1, 1, K*K*C_in, C_out)
        if weight[0] != out_channels:
            raise op.error(f"Expected output channels attribute ({out_channels}) to match the output channels in the "
                           f"weight tensor ({weight[0]}).")
        if weight[1] != in_channels // groups:
            raise op.error(f"Expected input channels / groups attribute ({in_channels}/{groups}) = "
                           f"{in_channels // groups} to match the number of input channels per group in the weight "
                           f"tensor ({weight[1]}).")
        for size, want, what in ((weight[2], kernel[0], "height"), (weight[3], kernel[1], "width")):
            if size != want:
                raise op.error(f"Expected kernel {what} attribute ({want}) to match the kernel {what} in the weight "
                               f"tensor ({size}).")
    n, h, w = (scalar(op.prop(k)) for k in ("batch_size", "input_height", "input_width"))
    flat = _shape(op.operands[0])[2]
    if n * h * w != flat:
        raise op.error(f"The input tensor's flattened dimension ({flat}) does not match the product of batch_size_attr "
                       f"* input_height_attr * input_width_attr ({n} * {h} * {w} = {n * h * w}).")
    bias = _bias(op)
    check_channel_groups(op, _shape(op.operands[0])[3], groups, out_channels, in_channels // groups,
                         None if bias is None else _shape(bias)[3])
    vertical, horizontal = ((padding[0] * 2, padding[1] * 2) if len(padding) == 2 else
                            (padding[0] + padding[1], padding[2] + padding[3]))
    padded = (h + vertical, w + horizontal)
    effective = [d * (k - 1) + 1 for d, k in zip(dilation, kernel)]
    if padded[0] < effective[0] or padded[1] < effective[1]:
        raise op.error(f"The effective kernel size {_tuple(effective)} cannot be greater than the padded input size "
                       f"per channel {_tuple(padded)}.")
    oh, ow = ((p - k) // s + 1 for p, k, s in zip(padded, effective, stride))
    result = _shape(op.results[0])
    if oh * ow * n != result[2]:
        raise op.error(f"The output tensor's flattened dimension ({result[2]}) does not match the product of "
                       f"batch_size * output_height * output_width ({n} * {oh} * {ow} = {n * oh * ow}).")
    if result[3] != out_channels:
        raise op.error(f"The number of output channels from the output tensor ({result[3]}) must match the number of "
                       f"output channels in the weight tensor ({out_channels}). ")
    return None


def prepared_conv2d_rows(op: TTOp) -> int:
    """Rows of a prepared conv2d weight: each kernel position's input channels (all groups: block-diagonal)."""
    kernel = int_values(op.prop("kernel_size"))
    return kernel[0] * kernel[1] * scalar(op.prop("in_channels"))


def _prepared(op: TTOp, rows: int, what: str) -> None:
    """The result holds the prepared tensor: (1, 1, rows, out_channels), or larger (zero padding)."""
    result, out_channels = _shape(op.results[0]), scalar(op.prop("out_channels"))
    if len(result) != 4 or result[:2] != (1, 1) or result[2] < rows or result[3] < out_channels:
        raise op.error(f"Expected the result to hold the prepared {what} (1, 1, {rows}, {out_channels}), got "
                       f"{_tuple(result)}")


def prepare_conv2d_weights(op: TTOp):
    weight = _shape(op.operands[0])
    if len(weight) != 4:
        raise op.error("Weight must be a 4D tensor")
    if scalar(op.prop("weights_format")) != "OIHW":
        raise op.error("Only `OIHW` weights format is currently supported")
    out_channels, in_channels, groups = (scalar(op.prop(k)) for k in ("out_channels", "in_channels", "groups"))
    if weight[0] != out_channels:
        raise op.error(f"Expected output channels attribute ({out_channels}) to match the first dimension of the "
                       f"weight tensor ({weight[0]})")
    if weight[1] != in_channels // groups:  # upstream's message divides the weight's dim by the groups again
        raise op.error(f"Expected input channels attribute ({in_channels}) to match the number of input channels per "
                       f"group ({weight[1] // groups})")
    kernel = int_values(op.prop("kernel_size"))
    if len(kernel) != 2:
        raise op.error("Expected kernel size attribute to be a 2D tensor")
    for size, want, what, dim in ((weight[2], kernel[0], "height", "third"), (weight[3], kernel[1], "width", "fourth")):
        if size != want:
            raise op.error(f"Expected kernel {what} attribute ({want}) to match the {dim} dimension of the weight "
                           f"tensor ({size})")
    for name in ("stride", "dilation"):
        if len(int_values(op.prop(name))) != 2:
            raise op.error(f"Expected {name} attribute to be a 2D tensor")
    if len(int_values(op.prop("padding"))) not in (2, 4):
        raise op.error("Expected padding attribute to be a 2D tensor")
    _prepared(op, prepared_conv2d_rows(op), "weight")
    return None


def prepare_conv2d_bias(op: TTOp):
    bias = _shape(op.operands[0])
    if len(bias) != 4:
        raise op.error("Weight must be a 4D tensor")  # sic: upstream's words for the bias
    out_channels = scalar(op.prop("out_channels"))
    if bias[3] != out_channels:
        raise op.error(f"Expected output channels attribute ({out_channels}) to match the number of output channels "
                       f"in the bias tensor ({bias[3]})")
    for name, label, counts in (("kernel_size", "Kernel size", (2,)), ("stride", "Stride", (2,)),
                                ("padding", "Padding", (2, 4)), ("dilation", "Dilation", (2,))):
        count = len(int_values(op.prop(name)))
        if count not in counts:
            raise op.error(f"{label} attribute must have {'two or four' if len(counts) > 1 else 'two'} values, "
                           f"got: {count}")
    _prepared(op, 1, "bias")
    return None


TTIR_RULES = {"conv3d": ttir_conv3d, "conv1d": ttir_conv1d}
TTNN_RULES = {"conv1d": ttnn_conv1d, "conv3d": ttnn_conv3d, "prepare_conv3d_weights": prepare_conv3d_weights, "conv2d": ttnn_conv2d,
              "prepare_conv2d_weights": prepare_conv2d_weights, "prepare_conv2d_bias": prepare_conv2d_bias}
