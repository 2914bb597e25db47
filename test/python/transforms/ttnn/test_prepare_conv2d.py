"""ttnn.prepare_conv2d_weights / prepare_conv2d_bias: a grouped, strided, dilated conv2d run on prepared weights
equals torch's conv on the raw ones, in the flatbuffer, in generated Python and in generated C++."""

import torch

from ttmlir.compiler import lower
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target.ttnn import translate

LAYOUTS = """
#dram = #ttnn.buffer_type<dram>
#system_memory = #ttnn.buffer_type<system_memory>
#in = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 64 + d1 * 64 + d2, d3), <1x1>, memref<2x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#w = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 12 + d1 * 3 + d2, d3), <1x1>, memref<192x3xbf16, #system_memory>>
#pw = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 72 + d1 * 72 + d2, d3), <1x1>, memref<3x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#b = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 + d1 + d2, d3), <1x1>, memref<1x16xbf16, #system_memory>>
#pb = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 + d1 + d2, d3), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
#out = #ttnn.ttnn_layout<(d0, d1, d2, d3) -> (d0 * 20 + d1 * 20 + d2, d3), <1x1>, memref<1x1x!ttcore.tile<32x32, bf16>, #dram>, <interleaved>>
"""
CONV = "in_channels = 8 : i32, out_channels = 16 : i32, batch_size = 1 : i32, input_height = 8 : i32, " \
       "input_width = 8 : i32, kernel_size = array<i32: 3, 3>, stride = array<i32: 2, 2>, padding = array<i32: 1, 2, 2, 1>, " \
       "dilation = array<i32: 1, 2>, groups = 2 : i32"
PREPARE = CONV + ", input_memory_config = #ttnn.memory_config<#dram, <interleaved>>, input_tensor_layout = " \
                 "#ttnn.layout<tile>, input_dtype = #ttcore.supportedDataTypes<bf16>"
MODULE = LAYOUTS + f"""
func.func @conv(%x: tensor<1x1x64x8xbf16, #in>, %w: tensor<16x4x3x3xbf16, #w>, %b: tensor<1x1x1x16xbf16, #b>) -> tensor<1x1x20x16xbf16, #out> {{
  %d = "ttnn.get_device"() <{{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
  %pw = "ttnn.prepare_conv2d_weights"(%w, %d) <{{{PREPARE}, weights_format = "OIHW", has_bias = true}}> : (tensor<16x4x3x3xbf16, #w>, !ttnn.device) -> tensor<1x1x72x16xbf16, #pw>
  %pb = "ttnn.prepare_conv2d_bias"(%b, %d) <{{{PREPARE}}}> : (tensor<1x1x1x16xbf16, #b>, !ttnn.device) -> tensor<1x1x1x16xbf16, #pb>
  %y = "ttnn.conv2d"(%x, %pw, %pb, %d) <{{{CONV}}}> : (tensor<1x1x64x8xbf16, #in>, tensor<1x1x72x16xbf16, #pw>, tensor<1x1x1x16xbf16, #pb>, !ttnn.device) -> tensor<1x1x20x16xbf16, #out>
  return %y : tensor<1x1x20x16xbf16, #out>
}}
"""


def _lowered(pipeline: str):
    """The module as the upstream tests run it: on a registered device, wrapped, then `pipeline`."""
    from ttmlir.asm import print_module

    text = MODULE
    for stage in ("ttcore-register-device", "ttcore-mark-functions-as-forward", "ttcore-wrap-device-module"):
        text = print_module(lower(text, "<test>", stage))
    return lower(text, "<test>", pipeline)


def test_prepared_conv2d_equals_torch_on_every_path(tmp_path):
    from emit_runners import run_emitc
    from emit_runners import run_emitpy

    from ttmlir.target.host_cpp import translate_to_cpp
    from ttmlir.target.python import translate_to_python

    gen = torch.Generator().manual_seed(0)
    x, w, b = (torch.randn(*s, generator=gen).bfloat16() for s in ((1, 1, 64, 8), (16, 4, 3, 3), (1, 1, 1, 16)))
    nchw = x.float().reshape(1, 8, 8, 8).permute(0, 3, 1, 2)
    golden = torch.nn.functional.conv2d(torch.nn.functional.pad(nchw, (2, 1, 1, 2)), w.float(), b.float().reshape(16),
                                        stride=2, dilation=(1, 2), groups=2)
    golden = golden.permute(0, 2, 3, 1).reshape(1, 1, 20, 16)
    binary = translate(_lowered("ttnn-common-to-runtime-pipeline"))
    (out,), _ = run_program(Binary(data=binary), 0, [x, w, b], MeshDevice())
    assert torch.allclose(out.data.float(), golden, atol=0.1, rtol=0.02)
    (py,) = run_emitpy(tmp_path, translate_to_python(_lowered("ttnn-common-to-emitpy-pipeline")), binary)
    assert py["result"] == "pass", py["exception"]
    cpp = run_emitc(tmp_path, translate_to_cpp(_lowered("ttnn-common-to-emitc-pipeline")), binary)
    assert cpp["result"] == "pass", cpp["exception"]
