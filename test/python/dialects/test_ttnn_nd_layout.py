"""`#ttnn.ttnn_nd_layout` (ND-sharded tensors): the text round-trips, the flatbuffer's memory config carries the ND
shard spec, and a ttnn.generic over ND-sharded L1 tensors runs on the simulated grid with the right answer."""

from __future__ import annotations

import pytest
import torch
from xdsl.utils.exceptions import ParseError

from ttmlir.asm import parse_text, print_module
from ttmlir.dialects import make_context
from ttmlir.passes import make_pass
from ttmlir.runtime.device import MeshDevice
from ttmlir.runtime.executor import Binary, run_program
from ttmlir.target import binary_generated as fb
from ttmlir.target.ttnn import translate

LAYOUT = ("#ttnn.ttnn_nd_layout<<1x1>, memref<1x2x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, "
          "<block_sharded>, <row_major>, <grid_2d>>")
T = f"tensor<1x64x32xf32, {LAYOUT}>"
CORE = "core_ranges = <[#ttnn.core_range<(0,0), (0,0)>]>"
CB = ("<total_size = 8192, " + CORE + ", formats = [<buffer_index = {i}, dtype = f32, page_size = 4096>], "
      "buffer = #ttnn.kernel_cb_global_buffer_address_of_tensor<{i}>>")
# the input's shard is CB 0 and the output's CB 1: the reader publishes the input's two tiles, compute copies them
# through dst, the writer takes the copies (they are already in the output's shard)
READER = "void kernel_main() {\\0A  cb_reserve_back(0, 2);\\0A  cb_push_back(0, 2);\\0A}"
COMPUTE = ("namespace NAMESPACE {\\0Avoid MAIN {\\0A  cb_wait_front(0, 2);\\0A  cb_reserve_back(1, 2);\\0A"
           "  for (uint32_t i = 0; i < 2; ++i) {\\0A    tile_regs_acquire();\\0A    copy_tile(0, i, 0);\\0A"
           "    tile_regs_commit();\\0A    tile_regs_wait();\\0A    pack_tile(0, 1, i);\\0A    tile_regs_release();\\0A"
           "  }\\0A  cb_push_back(1, 2);\\0A  cb_pop_front(0, 2);\\0A}\\0A}")
WRITER = "void kernel_main() {\\0A  cb_wait_front(1, 2);\\0A  cb_pop_front(1, 2);\\0A}"
ARGS = "ct_args = [], common_rt_args = [], rt_args = []"
PROGRAM = (f'#ttnn.program<kernels = [#ttnn.source_read_kernel<source = "{READER}", {CORE}, {ARGS}>, '
           f'#ttnn.source_compute_kernel<source = "{COMPUTE}", {CORE}, math_fidelity = hifi4, fp32_dest_acc_en = true, '
           f'dst_full_sync_en = false, unpack_to_dest_modes = [], bfp8_pack_precise = false, math_approx_mode = false, '
           f'{ARGS}>, #ttnn.source_write_kernel<source = "{WRITER}", {CORE}, {ARGS}>], '
           f"cbs = [{CB.format(i=0)}, {CB.format(i=1)}], semaphores = []>")
TEXT = f"""func.func @copy(%x: {T}) -> {T} attributes {{tt.function_type = "forward_device"}} {{
  %d = "ttnn.get_device"() <{{mesh_offset = #ttnn<mesh_offset 0x0>, mesh_shape = #ttnn<mesh_shape 1x1>}}> : () -> !ttnn.device
  %e = "ttnn.empty"(%d) <{{layout = #ttnn.layout<tile>, shape = #ttnn.shape<1x64x32>}}> : (!ttnn.device) -> {T}
  "ttnn.generic"(%x, %e) <{{operandSegmentSizes = array<i32: 2, 0>, program = {PROGRAM}}}> : ({T}, {T}) -> ()
  return %e : {T}
}}"""


def _module():
    module = parse_text(make_context(), TEXT)[0]
    make_pass("ttcore-register-device").apply(make_context(), module)
    return module


def test_the_layout_prints_as_it_reads():
    printed = print_module(parse_text(make_context(), TEXT)[0], local_scope=True)
    assert LAYOUT in printed
    spec = "#ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <1x64x32>, <row_major>, <grid_2d>>"
    again = parse_text(make_context(), f'func.func @f() attributes {{spec = {spec}}} {{\n  return\n}}')[0]
    assert spec in print_module(again, local_scope=True)


def test_the_flatbuffer_carries_the_nd_shard_spec():
    binary = Binary(data=translate(_module()))
    (program,) = binary.programs
    config = program.inputs[0].desc.layout.memoryConfig
    assert config.tensorMemoryLayout == fb.TensorMemoryLayout.BlockSharded
    assert config.ndShardSpec == "#ttnn.nd_shard_spec<<[#ttnn.core_range<(0,0), (0,0)>]>, <1x64x32>, <row_major>, <grid_2d>>"
    assert list(program.inputs[0].desc.layout.memrefShape) == [1, 2, 1]


def test_a_generic_over_nd_sharded_tensors_runs():
    x = torch.randn(1, 64, 32)
    (out,), _ = run_program(Binary(data=translate(_module())), 0, [x], MeshDevice(), exact=True)
    torch.testing.assert_close(out.data.float(), x)


@pytest.mark.parametrize("layout, message", [
    ("<<1x1>, memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<l1>>, <block_sharded>, <sideways>>",
     "row_major"),
    ("<<1x1>, memref<1x1xf32>, <block_sharded>>", "#ttnn.buffer_type memory space"),
])
def test_a_bad_nd_layout_is_an_error(layout, message):
    with pytest.raises(ParseError, match=message):
        parse_text(make_context(), f"func.func @f(%x: tensor<32x32xf32, #ttnn.ttnn_nd_layout{layout}>) {{\n  return\n}}")
