"""conv2d, conv_transpose2d, max/avg/global average pool2d and nearest upsample2d through
`--ttir-to-ttmetal-pipeline` (im2col and window gathers, then the tiled matmul or elementwise ops), run on the
simulated grid and compared with torch's own convolution and pooling; and which gathers read whole face rows."""

import pytest
import torch
import torch.nn.functional as F
from xdsl.ir.affine import AffineExpr, AffineMap

from ttmlir.conversion.d2m_to_ttkernel.views import gather_of
from ttmlir.conversion.ttir_to_d2m.conv2d import Windows
from ttmlir.conversion.ttir_to_d2m.row_gather import gathered
from ttmlir.asm import parse_text
from ttmlir.dialects import d2m, make_context
from ttmlir.passes import PassFailure, make_pass
from ttmlir.runtime.metal.program import run_program

from test_ttmetal_cache_updates import t
from test_ttmetal_pipeline import compile_ttir


def bf16(*shape, seed: int = 0) -> torch.Tensor:
    return torch.randn(shape, generator=torch.Generator().manual_seed(seed)).to(torch.bfloat16).float()


def pcc(a: torch.Tensor, b: torch.Tensor) -> float:
    return torch.corrcoef(torch.stack([a.flatten().double(), b.flatten().double()]))[0, 1].item()


def one_op(name: str, operands: list[tuple], result: tuple, props: str) -> str:
    args = ", ".join(f"%a{i}: {t(s)}" for i, s in enumerate(operands))
    names = ", ".join(f"%a{i}" for i in range(len(operands)))
    types = ", ".join(t(s) for s in operands)
    return (f"func.func @f({args}) -> {t(result)} {{\n"
            f"  %0 = \"ttir.{name}\"({names}) <{{{props}}}> : ({types}) -> {t(result)}\n"
            f"  return %0 : {t(result)}\n}}\n")


# (N, H, W, C, O, kernel, stride, padding, dilation, groups, bias, NCHW)
CONVS = {
    "padded_3x3": (1, 8, 8, 32, 64, 3, 1, 1, 1, 1, True, False),
    "strided_batch": (2, 6, 5, 16, 32, 3, 2, 1, 1, 1, True, False),  # padded rows of several images
    "dilated_rgb": (1, 9, 9, 3, 8, 3, 1, 0, 2, 1, False, False),  # 3 channels: gathered element by element
    "rgb_nchw_batch": (2, 9, 9, 3, 8, 3, 2, 1, 1, 1, True, True),  # channels padded to 16: gathered by face rows
    "rgb_grouped_nchw": (2, 9, 9, 3, 3, 3, 2, 1, 1, 3, True, True),  # read as NCHW: padded rows of several images
    "depthwise": (1, 8, 8, 32, 32, 3, 1, 1, 1, 32, True, False),
    "grouped_nchw": (2, 8, 8, 32, 64, 3, 1, 1, 1, 4, True, True),
    "pointwise_strided": (2, 7, 7, 16, 16, 1, 2, 0, 1, 1, True, False),
}


@pytest.mark.parametrize("case", CONVS)
def test_conv2d_matches_torch(case):
    n, h, w, c, o, k, stride, pad, dil, groups, bias, nchw = CONVS[case]
    oh, ow = ((d + 2 * pad - dil * (k - 1) - 1) // stride + 1 for d in (h, w))
    shapes = [(n, c, h, w) if nchw else (n, h, w, c), (o, c // groups, k, k)]
    if bias:
        shapes.append((1, o, 1, 1) if nchw else (1, 1, 1, o))
    result = (n, o, oh, ow) if nchw else (n, oh, ow, o)
    dims = "batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64, " if nchw else ""
    props = (f"{dims}dilation = array<i32: {dil}, {dil}>, groups = {groups} : i32, padding = array<i32: {pad}, {pad}, "
             f"{pad}, {pad}>, stride = array<i32: {stride}, {stride}>")
    inputs = [bf16(*s, seed=i) for i, s in enumerate(shapes)]
    (out,), _ = run_program(compile_ttir(one_op("conv2d", shapes, result, props)), inputs)
    x = inputs[0] if nchw else inputs[0].permute(0, 3, 1, 2)
    expected = F.conv2d(x.double(), inputs[1].double(), inputs[2].reshape(-1).double() if bias else None, stride,
                        pad, dil, groups)
    expected = expected if nchw else expected.permute(0, 2, 3, 1)
    assert out.shape == expected.shape
    assert pcc(out, expected) > 0.999
    # bf16 products accumulated over the window: a few units in the last place of the result's magnitude
    assert (out.double() - expected).abs().max() < 0.05 * expected.abs().max()


# (N, H, W, C, O, kernel, stride, padding, dilation, groups, output_padding, NCHW)
TRANSPOSED = {
    "strided_batch_nchw": (2, 4, 3, 16, 32, 2, 2, 0, 1, 1, 0, True),  # negative quotients: kept outside the input
    "padded_output_padding": (1, 5, 5, 32, 16, 3, 2, 1, 1, 1, 1, False),
    "grouped_dilated": (2, 3, 3, 32, 32, 3, 3, 1, 2, 2, 0, False),
}


@pytest.mark.parametrize("case", TRANSPOSED)
def test_conv_transpose2d_matches_torch(case):
    n, h, w, c, o, k, stride, pad, dil, groups, out_pad, nchw = TRANSPOSED[case]
    oh, ow = ((d - 1) * stride - 2 * pad + dil * (k - 1) + out_pad + 1 for d in (h, w))
    shapes = [(n, c, h, w) if nchw else (n, h, w, c), (c, o // groups, k, k), (1, o, 1, 1) if nchw else (1, 1, 1, o)]
    result = (n, o, oh, ow) if nchw else (n, oh, ow, o)
    dims = "batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64, " if nchw else ""
    props = (f"{dims}dilation = array<i32: {dil}, {dil}>, groups = {groups} : i32, output_padding = array<i32: "
             f"{out_pad}, {out_pad}>, padding = array<i32: {pad}, {pad}, {pad}, {pad}>, stride = array<i32: {stride}, "
             f"{stride}>")
    inputs = [bf16(*s, seed=i) for i, s in enumerate(shapes)]
    (out,), _ = run_program(compile_ttir(one_op("conv_transpose2d", shapes, result, props)), inputs)
    x = inputs[0] if nchw else inputs[0].permute(0, 3, 1, 2)
    expected = F.conv_transpose2d(x.double(), inputs[1].double(), inputs[2].reshape(-1).double(), stride, pad,
                                  out_pad, groups, dil)
    expected = expected if nchw else expected.permute(0, 2, 3, 1)
    assert out.shape == expected.shape
    assert pcc(out, expected) > 0.999
    assert (out.double() - expected).abs().max() < 0.05 * expected.abs().max()


def pool_text(kind: str, shape, result, k: int, stride: int, pad: int, ceil: bool, include: bool | None) -> str:
    extra = "" if include is None else f", count_include_pad = {str(include).lower()}"
    return one_op(f"{kind}_pool2d", [shape], result, (
        f"ceil_mode = {str(ceil).lower()}{extra}, dilation = array<i32: 1, 1>, kernel = array<i32: {k}, {k}>, "
        f"padding = array<i32: {pad}, {pad}, {pad}, {pad}>, stride = array<i32: {stride}, {stride}>"))


@pytest.mark.parametrize("shape, k, stride, pad, ceil", [((2, 7, 7, 32), 3, 2, 1, False),
                                                        ((1, 7, 7, 16), 2, 2, 0, True)])
def test_max_pool2d_is_torchs_with_padding_never_the_maximum(shape, k, stride, pad, ceil):
    x = (bf16(*shape) - 4.0).to(torch.bfloat16).float()  # every value negative: a zero padding would win
    expected = F.max_pool2d(x.permute(0, 3, 1, 2), k, stride, pad, ceil_mode=ceil).permute(0, 2, 3, 1)
    (out,), _ = run_program(compile_ttir(pool_text("max", shape, tuple(expected.shape), k, stride, pad, ceil, None)),
                            [x])
    assert torch.equal(out, expected)


@pytest.mark.parametrize("include", [True, False])
def test_avg_pool2d_divides_by_the_window_or_what_it_read(include):
    shape = (2, 6, 6, 16)
    x = bf16(*shape)
    expected = F.avg_pool2d(x.permute(0, 3, 1, 2).double(), 3, 2, 1, count_include_pad=include).permute(0, 2, 3, 1)
    (out,), _ = run_program(compile_ttir(pool_text("avg", shape, tuple(expected.shape), 3, 2, 1, False, include)),
                            [x])
    assert (out.double() - expected).abs().max() < 0.02


@pytest.mark.parametrize("shape", [(2, 7, 7, 64), (3, 2, 2, 16)])
def test_global_avg_pool2d_is_each_images_mean(shape):
    x = bf16(*shape)
    result = (shape[0], 1, 1, shape[3])
    (out,), _ = run_program(compile_ttir(f"func.func @f(%a: {t(shape)}) -> {t(result)} {{\n"
                                         f"  %0 = \"ttir.global_avg_pool2d\"(%a) : ({t(shape)}) -> {t(result)}\n"
                                         f"  return %0 : {t(result)}\n}}\n"), [x])
    expected = x.double().mean((1, 2), keepdim=True)
    assert (out.double() - expected).abs().max() < 0.01  # each mean rounded to bf16 (values below 2)


def test_upsample2d_nearest_repeats_each_pixel():
    x = bf16(2, 3, 4, 32)
    (out,), _ = run_program(compile_ttir(one_op("upsample2d", [(2, 3, 4, 32)], (2, 6, 8, 32),
                                                'mode = "nearest", scale_factor = 2 : si32')), [x])
    assert torch.equal(out, x.repeat_interleave(2, 1).repeat_interleave(2, 2))


def test_upsample2d_bilinear_is_refused_naming_the_mode():
    with pytest.raises(PassFailure, match="upsample2d in mode bilinear is not converted to D2M yet"):
        compile_ttir(one_op("upsample2d", [(1, 4, 4, 32)], (1, 8, 8, 32), 'mode = "bilinear", scale_factor = 2 : si32'))


@pytest.mark.parametrize("channels, faces", [(32, True), (48, True), (24, False), (3, False)])
def test_im2col_reads_face_rows_when_channels_are_whole_face_rows(channels, faces):
    windows = Windows((1, 8, 8, channels), (8, 8), (3, 3), (1, 1), (1, 1), (1, 1, 1, 1))
    c = channels
    remapping = gathered((1, 8, 8, c), (64, 9 * c), lambda i: windows.index(i[0], i[1] // (3 * c), (i[1] // c) % 3,
                                                                              i[1] % c))
    assert gather_of(remapping, (1, 8, 8, c), (64, 9 * c)).faces is faces


def test_a_window_whose_column_moves_inside_a_face_row_is_read_element_by_element():
    d1, d2 = AffineExpr.dimension(1), AffineExpr.dimension(2)
    shifted = AffineMap(3, 0, (AffineExpr.constant(0), d1, (d2 % 32) + (d1 % 2) * 8))
    assert not gather_of(shifted, (64, 64), (64, 32)).faces


def logical_views_moving_face_rows(text: str) -> int:
    """How many logical views `--ttir-to-d2m` makes of `text`'s op, each asserted to move whole face rows."""
    ctx = make_context()
    module, _ = parse_text(ctx, text)
    make_pass("ttir-to-d2m").apply(ctx, module)
    views = [op for op in module.walk() if isinstance(op, d2m.ViewLayoutOp) and op.remapping.data.num_dims == 3]
    for view in views:
        shapes = (tuple(v.type.encoding.data.logical_shape) for v in (view.input, view.result))
        assert gather_of(view.remapping.data, *shapes).faces, str(view.remapping)
    return len(views)


@pytest.mark.parametrize("channels", [32, 3])
def test_an_ungrouped_nchw_convolution_gathers_no_element_alone(channels):
    # its input permuted to NHWC (3 channels first padded to 16), its patches, its weight matrix and its result
    # permuted back: every logical view the programs read moves whole face rows
    props = ("batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64, width_dim = 3 : i64, dilation = "
             "array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>, stride = array<i32: 2, 2>")
    text = one_op("conv2d", [(2, channels, 9, 12), (24, channels, 3, 3)], (2, 24, 5, 6), props)
    assert logical_views_moving_face_rows(text) >= 4


def test_an_ungrouped_transposed_convolution_gathers_no_element_alone():
    # its patches and its weight matrix (the (C, O, KH*KW) weight with its taps moved first) move whole face rows
    props = ("dilation = array<i32: 1, 1>, groups = 1 : i32, output_padding = array<i32: 0, 0>, padding = "
             "array<i32: 0, 0, 0, 0>, stride = array<i32: 2, 2>")
    text = one_op("conv_transpose2d", [(2, 4, 3, 16), (16, 24, 3, 3)], (2, 9, 7, 24), props)
    assert logical_views_moving_face_rows(text) >= 2
