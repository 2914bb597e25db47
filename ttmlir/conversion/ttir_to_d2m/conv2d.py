"""`ttir.conv2d` in `--ttir-to-d2m`: written, where it is, as an im2col gather and the tiled matmul the path has.

The input is seen channels last (a permute when its dims say otherwise). Its windows are gathered into a patch
matrix of N*OH*OW rows and KH*KW*C columns (row (n, oh, ow), column (kh, kw, c) holding the input's element
(n, oh*sh + kh*dh - top, ow*sw + kw*dw - left, c)) by a program reading the input through a `d2m.view_layout`
whose remapping names that element (see `row_gather.py`); the padding is what the view names outside the input,
left zero by the reader. The reader checks a matrix's rows and columns, not the dims folded into its batch, so an
input of several images whose height is padded is first seen as (N, H, W*C). With C a multiple of 16 each face
row of patches is one read (`row_gather.face_runs`); an NCHW input of fewer channels first gets zero channels to a
multiple of 16, as TTNN pads a convolution's input channels. Grouped channels that are not whole face
rows are gathered element by element (from an NCHW input as it is, each image's channel a matrix).

The weight (O, C/groups, KH, KW), seen as (O, C/groups*KH*KW), is gathered the same way into the (KH*KW*C, O)
matrix the patches multiply: row (kh, kw, c), column o holds weight[o, c - g*C/groups, kh, kw] for c in o's group g,
zero for the other groups' channels (a block-diagonal matrix: grouped and depthwise convolutions are the same
matmul). Patches past `MATMUL_ROWS` rows are gathered and multiplied a block of rows at a time, the products
concatenated. The bias (O elements) is added to each row, and the (N*OH*OW, O) product is reshaped (and permuted) into
the result."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.conversion.ttir_to_d2m.row_gather import FACE_ROW, _div, _mod, copy_block, gathered
from ttmlir.conversion.ttir_to_d2m.tiles import metal_type
from ttmlir.dialects import d2m, ttnn
from ttmlir.dialects.ttir import TTIR_OP_CLASSES
from ttmlir.dialects.ttir_shapes_nn import conv_dims, flattened_info, int_pair, int_quad
from ttmlir.errors import PassFailure, derive
from ttmlir.ir.props import KINDS, scalar
from ttmlir.ir.tt_op import TTOp


# the patch rows one matmul of a convolution takes (64 tile rows a core on the device's 8 grid rows): a matmul holds
# a core's rows of A whole in its CBs (K streamed), so the patches of a large image batch are multiplied block by
# block and the products concatenated, as TTNN slices a conv too large for L1
MATMUL_ROWS = 8 * 64 * 32


class Program:
    """The ops replacing one TTIR op, made in order: TTIR ops (converted after, by the pass) and the D2M programs
    of gathers between them."""

    def __init__(self, op: TTOp, build_generic) -> None:
        self.op = op
        self.build_generic = build_generic  # the pass's (`ttir_to_d2m.build_generic`)
        self.made: list[Operation] = []

    def add(self, name: str, operands, shape, element, properties: dict | None = None) -> SSAValue:
        self.made.append(TTIR_OP_CLASSES[name].create(operands=list(operands), result_types=[
            TensorType(element, list(shape))], properties=properties or {}))
        return self.made[-1].results[0]

    def reshape(self, value: SSAValue, shape) -> SSAValue:
        if tuple(value.type.get_shape()) == tuple(shape):
            return value
        return self.add("reshape", [value], shape, value.type.element_type,
                        {"shape": KINDS["i32_array"].build(list(shape))})

    def permute(self, value: SSAValue, order: list[int]) -> SSAValue:
        if order == sorted(order):
            return value
        shape = value.type.get_shape()
        return self.add("permute", [value], [shape[d] for d in order], value.type.element_type,
                        {"permutation": KINDS["i64_darray"].build(order)})

    def zero_padded(self, value: SSAValue, dim: int, size: int) -> SSAValue:
        """`value` with zeros after its elements along `dim`, to `size`."""
        shape = list(value.type.get_shape())
        padding = [0] * (2 * len(shape))
        padding[2 * dim + 1] = size - shape[dim]
        return self.add("pad", [value], shape[:dim] + [size] + shape[dim + 1:], value.type.element_type,
                        {"padding": KINDS["i32_darray"].build(padding), "value": KINDS["f32"].build(0.0)})

    def full(self, shape, element, value: float) -> SSAValue:
        return self.add("full", [], shape, element, {"shape": KINDS["i32_darray"].build(list(shape)),
                                                     "fill_value": KINDS["number"].build(value)})

    def gather(self, value: SSAValue, shape, index_of) -> SSAValue:
        """A host tensor of `shape` whose element at logical index i is `value`'s at `index_of(i)` (zero where that
        is outside `value`): `value` moved to DRAM, seen through a `d2m.view_layout` of that remapping, copied into
        L1 by a generic, moved back to the host (as the pass writes any data-movement op)."""
        source, element = tuple(value.type.get_shape()), value.type.element_type
        target = d2m.EmptyOp.create(result_types=[metal_type(source, element, "dram")])
        moved = d2m.ToLayoutOp.create(operands=[value, target.result], result_types=[target.result.type])
        view = d2m.ViewLayoutOp.create(
            operands=[moved.results[0]], properties={"remapping": AffineMapAttr(gathered(source, tuple(shape),
                                                                                         index_of))},
            result_types=[metal_type(shape, element, "dram")])
        out = d2m.EmptyOp.create(result_types=[metal_type(shape, element, "l1")])
        identity = AffineMapAttr(AffineMap.identity(2))
        generic = self.build_generic([view.result], out.result, [identity] * 2, ["parallel"] * 2, copy_block)
        host = d2m.EmptyOp.create(result_types=[TensorType(element, list(shape))])
        back = d2m.ToLayoutOp.create(operands=[generic.results[0], host.result], result_types=[host.result.type])
        self.made += [target, moved, view, out, generic, host, back]
        return back.results[0]

    def done(self, value: SSAValue) -> list[TTOp]:
        """`value` stands for the op's result; the TTIR ops made, in order, for the pass to convert."""
        op = self.op
        derive([inner for made in self.made for inner in made.walk()], op)
        op.parent_block().insert_ops_before(self.made, op)
        op.results[0].replace_all_uses_with(value)
        op.detach()
        op.erase()
        return [m for m in self.made if isinstance(m, TTOp)]


class Windows:
    """The sliding windows of an NHWC input: output position (n, oh, ow) and window offset (kh, kw) read the input's
    element (n, oh*sh + kh*dh - top, ow*sw + kw*dw - left, c). With `channels_first` the gathers read the input
    as NCHW instead (each image's channel a matrix: every padding falls outside a matrix, nothing is permuted)."""

    def __init__(self, shape, out: tuple[int, int], kernel, stride, dilation, padding,
                 channels_first: bool = False) -> None:
        self.n, self.h, self.w, self.c = shape
        self.channels_first = channels_first
        self.out, self.kernel, self.stride, self.dilation = out, tuple(kernel), tuple(stride), tuple(dilation)
        self.top, self.left = padding[0], padding[1]
        last = (out[0] - 1) * stride[0] + (kernel[0] - 1) * dilation[0] - self.top
        # an image's rows read outside it would be the neighbouring image's in the batch the reader folds
        self.flat_rows = self.n > 1 and (self.top > 0 or last >= self.h) and not channels_first

    def source(self, program: Program, value: SSAValue) -> SSAValue:
        """The input as the gathers read it: (N, H, W*C) where a window's rows leave an image of several."""
        return program.reshape(value, [self.n, self.h, self.w * self.c]) if self.flat_rows else value

    def index(self, position: AffineExpr, kh, kw, c) -> list[AffineExpr]:
        """The source's logical index read for output position `position` (n*OH*OW + oh*OW + ow), window offset
        (kh, kw) and channel c (each an expression or an int)."""
        oh_count, ow_count = self.out
        n = _div(position, oh_count * ow_count)
        ih = (_div(position, ow_count) % oh_count) * self.stride[0] + kh * self.dilation[0] - self.top
        iw = (position % ow_count) * self.stride[1] + kw * self.dilation[1] - self.left
        if self.channels_first:
            return [n, c, ih, iw]
        return [n, ih, iw * self.c + c] if self.flat_rows else [n, ih, iw, c]

    def patches(self, program: Program, value: SSAValue, first: int = 0, count: int | None = None) -> SSAValue:
        """(count, KH*KW*C) from patch row `first` (all N*OH*OW rows by default): row (n, oh, ow), column (kh, kw, c)
        the element that window offset reads."""
        kh_count, kw_count = self.kernel
        c = self.c
        rows = self.n * self.out[0] * self.out[1]
        count = rows if count is None else count
        if self.kernel == (1, 1) and self.stride == (1, 1) and not self.top and not self.left and \
                self.out == (self.h, self.w) and not self.channels_first:
            pixels = program.reshape(value, [rows, c])  # each pixel its own window
            return pixels if count == rows else program.gather(pixels, [count, c], lambda i: [i[0] + first, i[1]])
        return program.gather(self.source(program, value), [count, kh_count * kw_count * c], lambda i: self.index(
            i[0] + first, i[1] // (kw_count * c), (i[1] // c) % kw_count, i[1] % c))

    def window(self, program: Program, value: SSAValue, kh: int, kw: int) -> SSAValue:
        """(N*OH*OW, C): row (n, oh, ow) the channels window offset (kh, kw) reads."""
        rows = self.n * self.out[0] * self.out[1]
        return program.gather(self.source(program, value), [rows, self.c],
                              lambda i: self.index(i[0], kh, kw, i[1]))

    def result(self, program: Program, value: SSAValue, channels: int) -> SSAValue:
        """The (N*OH*OW, channels) rows as the NHWC result."""
        return program.reshape(value, [self.n, *self.out, channels])


def _weight_matrix(program: Program, weight: SSAValue, channels: int, groups: int) -> SSAValue:
    """(KH*KW*C, O): row (kh, kw, c), column o holds weight[o, c - g*C/groups, kh, kw] for c in o's group g, zero
    for other groups' channels. The weight is first seen as (O, C/groups*KH*KW) (each of its (KH, KW) matrices a
    tile of its own on the device, read once), whose rows are the output channels: a row of the matrix then reads
    one tile, and a channel outside o's group a column outside it (left zero by the reader). Ungrouped, that matrix
    is transposed tile by tile to (C*KH*KW, O) and its rows regrouped (row (kh, kw, c) of the result is its row
    (c, kh, kw), past its rows for c >= C/groups: zero): the output channels stay the last dim, so each face row is
    one read, not 16 elements gathered."""
    o_count, per_group, kh_count, kw_count = weight.type.get_shape()
    window = kh_count * kw_count
    flat = program.reshape(weight, [o_count, per_group * window])
    if groups == 1:
        return program.gather(program.permute(flat, [1, 0]), [window * channels, o_count],
                              lambda i: [_mod(i[0], channels) * window + _div(i[0], channels), i[1]])
    outputs = o_count // groups

    def index(i: list[AffineExpr]) -> list[AffineExpr]:
        within = i[0] % channels - _div(i[1], outputs) * per_group if groups > 1 else i[0] % channels
        return [i[1], within * window + _div(i[0], channels)]

    return program.gather(flat, [window * channels, o_count], index)


def convolution(convert, op: TTOp) -> tuple[Program, list[int], list[int]]:
    """The program a convolution `op` is written into (`convert` is the pass), with the permutation putting its
    channels last and the one putting its result's dims back where they were; the forms not converted refused."""
    kind = op.name.removeprefix("ttir.")
    if flattened_info(op) is not None:
        raise PassFailure(op, f"a {kind} of a flattened input (flattened_compat_info) is not converted to D2M yet")
    if isinstance(getattr(op.operands[0].type, "encoding", None), ttnn.TTNNLayoutAttr):
        raise PassFailure(op, f"'{op.name}' is not converted to D2M in ttnn-mode yet")
    dims = conv_dims(op)
    return Program(op, convert.build_generic), list(dims), [dims.index(d) for d in range(4)]


def biased(program: Program, op: TTOp, product: SSAValue) -> SSAValue:
    """The (rows, O) `product` of convolution `op` plus its bias, if it has one, over every row."""
    bias = op.operand_groups().get("bias")
    if not bias:
        return product
    shape = product.type.get_shape()
    return program.add("add", [product, program.reshape(bias[0], [1, shape[1]])], list(shape),
                       op.results[0].type.element_type)


def conv2d(convert, op: TTOp) -> list[TTOp]:
    """The TTIR ops (and gather programs) replacing conv2d `op`, where it was (see the module doc); `convert` is
    the pass."""
    program, to_nhwc, back = convolution(convert, op)
    value, weight = op.operands[:2]
    result = op.results[0]
    element = result.type.element_type
    n, h, w, c = (value.type.get_shape()[d] for d in to_nhwc)
    groups = int(scalar(op.prop("groups")))
    if to_nhwc == [0, 2, 3, 1] and c % FACE_ROW and groups == 1:
        # an NCHW input's channels padded with zeros to whole face rows (as TTNN pads a convolution's input channels):
        # the permute and the patches then move face rows, not elements one by one; the weight matrix's rows for the
        # added channels read past its weight's rows, zero
        c = -(-c // FACE_ROW) * FACE_ROW
        value = program.zero_padded(value, 1, c)
    # an NCHW input of grouped channels that are not whole face rows is gathered element by element: read as it is
    channels_first = to_nhwc == [0, 2, 3, 1] and c % FACE_ROW != 0
    x = value if channels_first else program.permute(value, to_nhwc)
    out_shape = [result.type.get_shape()[d] for d in to_nhwc]
    o_count, _, kh_count, kw_count = weight.type.get_shape()
    windows = Windows((n, h, w, c), tuple(out_shape[1:3]), (kh_count, kw_count), int_pair(op, "stride"),
                      int_pair(op, "dilation"), int_quad(op, "padding"), channels_first)
    rows = n * out_shape[1] * out_shape[2]
    patches = [windows.patches(program, x, first, min(MATMUL_ROWS, rows - first))
               for first in range(0, rows, MATMUL_ROWS)]
    matrix = _weight_matrix(program, weight, c, groups)
    products = [program.add("matmul", [block, matrix], [block.type.get_shape()[0], o_count], element)
                for block in patches]
    product = products[0] if len(products) == 1 else program.add("concat", products, [rows, o_count], element,
                                                                  {"dim": KINDS["si32"].build(0)})
    product = biased(program, op, product)
    return program.done(program.permute(windows.result(program, product, o_count), back))


CONVOLUTIONS = {"conv2d": conv2d}
