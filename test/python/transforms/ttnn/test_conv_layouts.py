"""conv2d with explicit dimension attributes (channel-first inputs, as PyTorch exports them) against torch."""

import pytest
import torch
import torch.nn.functional as F

from ttmlir.compiler import compile_ttir
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.runtime.golden import pcc

NCHW_CONV = """
func.func @main(%x: tensor<2x3x17x19xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<2x8x9x10xf32> {
  %0 = "ttir.conv2d"(%x, %w) <{dilation = array<i32: 1, 1>, groups = 1 : i32, padding = array<i32: 1, 1, 1, 1>,
       stride = array<i32: 2, 2>, batch_dim = 0 : i64, channel_dim = 1 : i64, height_dim = 2 : i64,
       width_dim = 3 : i64}> : (tensor<2x3x17x19xf32>, tensor<8x3x3x3xf32>) -> tensor<2x8x9x10xf32>
  return %0 : tensor<2x8x9x10xf32>
}
"""


def test_channel_first_conv2d_matches_torch():
    x, w = torch.randn(2, 3, 17, 19), torch.randn(8, 3, 3, 3)
    (out,), _ = run_program(Binary(data=compile_ttir(NCHW_CONV)), 0, [x, w], MeshDevice())
    expected = F.conv2d(x, w, stride=2, padding=1)
    assert out.data.shape == expected.shape
    assert pcc(out.data.float(), expected) > 0.999


@pytest.mark.parametrize("result, message", [
    ("tensor<2x9x8x10xf32>", r"output channels from the output tensor \(9\) must match .* weight tensor \(8\)"),
    ("tensor<2x8x9x11xf32>", r"height and width dimension \(9, 11\) do not match the expected dimensions \(9, 10\)"),
])
def test_channel_first_conv2d_result_shape_is_verified(result, message):
    with pytest.raises(Exception, match=message):
        compile_ttir(NCHW_CONV.replace("tensor<2x8x9x10xf32>", result))
